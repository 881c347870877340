"""Round 16: a plan moved by a later turn that refuses its day and names another, with no word of change, in the
languages the brief reads ("12. geht nicht ... machen wir Freitag den 11.", "le 12 ne marche pas", "el 12 no puedo",
"il 12 non posso", "the 12th doesn't work")."""
from __future__ import annotations

from datetime import date, datetime

import pytest
from conftest import chat_turns

import memory_core as core
from memengine import brief_upcoming, graph_rank

NOW = datetime(2026, 11, 20, 9, 0)
W = date(2026, 11, 19)


@pytest.mark.parametrize(("first", "reply"), [
    ("Abschiedsparty für Jonas am 12.12.? Bei mir zuhause", "12. geht nicht, da bin ich in Hamburg. Machen wir Freitag den 11.?"),
    ("Abschiedsparty für Jonas am 12.12.? Bei mir zuhause", "Der 12. passt mir nicht, lieber Freitag den 11."),
    ("Soirée chez Paul le 12 décembre ?", "le 12 ne marche pas pour moi, on fait vendredi 11 ?"),
    ("¿Cena en casa de Ana el 12 de diciembre?", "el 12 no puedo, ¿el viernes 11?"),
    ("Cena da Marco il 12 dicembre?", "il 12 non posso, venerdì 11?"),
    ("leaving do for Jonas on 12 December?", "the 12th doesn't work for me, Friday the 11th?"),
])
def test_a_refused_day_and_another_day_move_the_plan(store: core.MemoryStore, first: str, reply: str) -> None:
    ids = chat_turns(store, "freunde", [("2026-11-18T10:00:00", "Lena", first),
                                    ("2026-11-18T10:05:00", "Tom", "bin dabei"),
                                    ("2026-11-19T08:00:00", "Jonas", reply)])
    kept, moved = brief_upcoming.plans(store, NOW)
    assert [(f[0][0], f[1]) for f in kept] == [(ids[2], date(2026, 12, 11))]
    assert moved == [ids[0]]
    up = graph_rank.brief(store, 2000, now=NOW)["sections"]["upcoming"]
    assert [i["id"] for i in up] == [ids[2]]


@pytest.mark.parametrize("reply", [
    "5 Leute kommen nicht, aber Freitag den 11. geht",  # a count, not a day
    "12 people can't come, Friday the 11th is the quiz",  # ditto
    "am 12. geht nicht nur die Party, auch der Markt ist am 11.",  # no refusal: "nicht nur"
])
def test_no_refusal_no_move(store: core.MemoryStore, reply: str) -> None:
    ids = chat_turns(store, "freunde", [("2026-11-18T10:00:00", "Lena", "Abschiedsparty für Jonas am 12.12.?"),
                                    ("2026-11-19T08:00:00", "Jonas", reply)])
    assert ids[0] not in brief_upcoming.plans(store, NOW)[1]


def test_refused_days_read() -> None:
    assert brief_upcoming.refused_days("12. geht nicht, machen wir Freitag den 11.?") == {(12, None)}
    assert brief_upcoming.refused_days("Lena: am 12.12. kann ich nicht") == {(12, 12)}
    assert brief_upcoming.refused_days("le 12 ne marche pas") == {(12, None)}
    assert brief_upcoming.refused_days("il 12 non posso") == {(12, None)}
    assert brief_upcoming.refused_days("the 12th won't work") == {(12, None)}
    assert brief_upcoming.refused_days("12 people can't come") == set()
    assert brief_upcoming.refused_days("So. 1st one not second one.") == set()
    assert brief_upcoming.refused_days("am 12. nicht vergessen: Geschenk") == set()

