"""A People line quotes what its person told, not what they asked (lead, after brief23).

brief23 gave a group chat's People lines each author's latest news: their newest turn that says enough. On a band's
chat (the lead's blind probe) Tiago's line quoted "quem vai mixar o EP?": a question says nothing of its author's
state, however many names it holds. A turn that ends asking is passed over for the author's previous one."""

from __future__ import annotations

from datetime import datetime

import pytest
from conftest import chat_turns

import memory_core as core
from memengine import brief_people, consolidate, graph_rank

ROWS = [  # (day, hour, author, text): four friends planning an EP, May 2026
    (2, 19, "Tiago", "fechei a mixagem com a Carol Mendes no estúdio Toca do Som, 250 por música"),
    (2, 20, "Bia", "boa, Tiago!"),
    (3, 10, "Rafa", "consegui o emprego em Curitiba, mudo em junho e saio da banda"),
    (4, 11, "Bia", "comprei o pedal Boss DS-1 usado por 180 reais na Teodoro Sampaio"),
    (5, 18, "Tiago", "quem leva a bateria eletrônica Roland pro ensaio de quinta no Garagem 51?"),
    (5, 19, "Rafa", "eu levo, a Roland cabe no carro do Léo 😅"),
    (6, 9, "Bia", "alguém sabe se a Toca do Som aceita Pix ou só cartão? 🤔"),
]


@pytest.fixture
def people(store: core.MemoryStore) -> dict[str, str]:
    chat_turns(store, "banda", [(f"2026-05-{d:02d}T{h:02d}:00:00", who, text) for d, h, who, text in ROWS])
    consolidate.run(store, now=datetime(2026, 5, 7), keep_backups=0)
    brief = graph_rank.brief(store, 2000, now=datetime(2026, 5, 7))
    return {line.split(":")[0]: line for line in (i["text"] for i in brief["sections"]["people"])}


def test_a_people_line_passes_over_a_question_for_what_its_person_told(people: dict[str, str]) -> None:
    assert "Carol Mendes" in people["Tiago"] and "bateria" not in people["Tiago"]
    assert "Boss DS-1" in people["Bia"] and "Pix" not in people["Bia"]  # (a question mark before an emoji still asks)
    assert "Roland cabe no carro" in people["Rafa"]  # (a statement stays the newest news)


@pytest.mark.parametrize(("text", "asks"), [
    ("quem vai mixar o EP?", True),
    ("todo mundo chegou bem? 😅", True),
    ("¿quién trae la guitarra?!", True),
    ("هل وصلت؟", True),
    ("alguém tem furadeira? preciso pendurar a TV", False),
    ("o show é às 21h", False),
])
def test_ends_asking(text: str, asks: bool) -> None:
    assert bool(brief_people._ENDS_ASKING.search(text)) is asks
