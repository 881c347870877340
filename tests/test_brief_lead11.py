"""Lead fix of session 11 on a blind family chat: a person whose news are all plans placed by a month gone by is
quoted by their newest word marked past, not by a filler reply ("os lo digo ahora jaja")."""

from __future__ import annotations

from datetime import datetime

import pytest
from conftest import chat_turns

import memory_core as core
from memengine import consolidate, graph_rank

CHAT = [  # (day, month, hour, minute, author, text): a family group, 2026
    (10, 1, 20, 0, "Javier", "hola familia, qué tal el fin de semana"),
    (15, 2, 11, 11, "Pablo", "el álbum va genial, llevo 300 fotos escaneadas"),
    (19, 2, 22, 0, "Javier", "por cierto, Marta y yo nos mudamos en abril. hemos comprado el piso de la calle Santiago"),
    (19, 2, 22, 1, "Carmen", "QUÉ?? y no nos dices nada"),
    (19, 2, 22, 2, "Javier", "os lo digo ahora jaja"),
    (19, 2, 22, 3, "Lucía", "cuántas habitaciones?"),
    (19, 2, 22, 4, "Javier", "tres, y terraza"),
    (24, 2, 10, 30, "Lucía", "la tarta la encargo en la pastelería Balbino, de chocolate y nata como siempre"),
    (25, 3, 19, 0, "Javier", "cambio: al final la mudanza es en mayo, el banco va lento con la hipoteca"),
    (25, 3, 19, 5, "Carmen", "si necesitáis ayuda con cajas avisad"),
]


def _people(store: core.MemoryStore, now: datetime) -> dict[str, str]:
    chat_turns(store, "familia", [(f"2026-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:00", who, text)
                                  for d, mo, h, mi, who, text in CHAT])
    consolidate.run(store, now=now, keep_backups=0)
    brief = graph_rank.brief(store, 2000, now=now)
    return {line.split(":")[0]: line for line in (i["text"] for i in brief["sections"]["people"])}


def test_a_plan_whose_month_has_gone_by_is_quoted_marked_past_not_passed_over_for_a_filler(
        store: core.MemoryStore) -> None:
    javier = _people(store, datetime(2026, 11, 28))["Javier"]
    assert '"cambio: al final la mudanza es en mayo' in javier and "(2026-05: past)" in javier
    assert "os lo digo" not in javier and "abril" not in javier


@pytest.mark.parametrize("now", [datetime(2026, 4, 2)])
def test_a_plan_still_ahead_is_quoted_without_a_mark(store: core.MemoryStore, now: datetime) -> None:
    javier = _people(store, now)["Javier"]
    assert '"cambio: al final la mudanza es en mayo' in javier and "past)" not in javier
