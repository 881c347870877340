"""notes6: the note ABOUT the asked thing above a later note that names it only aside — in a reason / time-reason
clause or in an "unchanged" remark giving no value (memengine/recall/notes_about.py, RecallConfig.notes_about)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

import pytest

import memory_core as core
from memengine.recall.config import RecallConfig
from memengine.recall.notes_about import about_first, answers, heads_of, names_aside
from memengine.records import Memory


def test_a_reason_or_time_reason_clause_is_aside() -> None:
    q = "who delivers our milk?"
    assert names_aside(q, "We moved the coffee order to Fridays since the milk from Hill Farm arrives on Thursdays.") \
        == "side"
    assert names_aside(q, "We bake more on Fridays because the milk from Hill Farm is cheaper then.") == "side"
    assert names_aside("wer liefert die Milch?", "Wir backen freitags mehr, seit die Milch vom Hof Berger kommt.") \
        == "side"
    assert names_aside(q, "Milk: Hill Farm, three crates on Tuesdays.") == ""  # (the note about it)
    assert names_aside(q, "The van's MOT is due in May.") == ""  # (names nothing asked)


def test_since_before_a_date_is_no_clause() -> None:
    assert heads_of("We open at 7 since March.") == ("We open at 7 since March",)
    assert heads_of("Front door code 9052 since Priya left.") == ("Front door code 9052 ",)
    assert heads_of("Since the hall closed, we meet at Jo's on Tuesdays.") == (", we meet at Jo's on Tuesdays",)


def test_an_unchanged_remark_after_a_value_is_aside_a_plain_note_is_not() -> None:
    q = "how much is a family ticket?"
    assert names_aside(q, "Adult tickets go up to £9 in May; family tickets unchanged.") == "remark"
    assert names_aside(q, "Family ticket £22, adult £8.") == ""
    # one clause, a common-noun value: a short answer, not a remark
    assert names_aside("What is Lucía allergic to?", "Lucía es alérgica a la penicilina.") == ""
    # the two parts of the answer in two clauses that each give a value
    said = frozenset({"prac", "mana", "clin"})
    assert answers("Trude Haugland has left the clinic; the new practice manager is Kasper Lund.", said)
    # the thing named by a word with no stem, in a clause giving a value
    assert names_aside("Wer liefert unser CO2?", "CO2 kommt von Linde, weil die Brautage am Dienstag früh anfangen.") \
        == ""


def _mem(i: int, text: str, thread: str | None = None, by: list[int] | None = None) -> Memory:
    day = "2026-01-01T09:00:00"
    return Memory(id=i, content=text, memory_type="semantic", source="agent", ref=None, content_hash=str(i),
                  importance=0.5, strength=1.0, access_count=0, pinned=0, created_at=day, event_at=day,
                  last_accessed_at=None, updated_at=day, valid_from=None, valid_to=None, status="active", level=0,
                  author=None, thread=thread, position=None, metadata={}, tags=[], score=1.0 - i / 10,
                  possibly_outdated=True if by else None, possibly_outdated_by=by)


def test_about_first_moves_the_answer_up_and_unmarks_it() -> None:
    q = "who delivers our milk?"
    aside = _mem(1, "We moved the coffee order to Fridays since the milk from Hill Farm arrives on Thursdays.")
    other = _mem(2, "The van's MOT is due in May.")
    about = _mem(3, "Milk: Hill Farm, three crates on Tuesdays.", by=[1])
    out = about_first([aside, other, about], q)
    assert [m.id for m in out] == [3, 1, 2]
    assert out[0].possibly_outdated is None and out[0].possibly_outdated_by is None
    assert out[0].score == aside.score
    # a chat turn first is never read; an answer past the first three is not looked for
    turn = _mem(4, aside.content, thread="chat")
    assert [m.id for m in about_first([turn, other, about], q)] == [4, 2, 3]
    assert [m.id for m in about_first([aside, other, _mem(5, "x"), about], q)] == [1, 2, 5, 3]


# A climbing wall's agent (written for this test, not from any bench set).
NOTES = ["Shoe hire at the climbing wall is £4; a ten-visit card is £120.",
         "Route setting is done by Kofi on Tuesday nights.",
         "Chalk and tape come from Rockhold Supplies.",
         "Shoe hire goes up to £5 in June; the ten-visit card is unchanged.",
         "Kids' club moved to Saturdays at 10 since the Tuesday route setting runs late.",
         "The auto-belay inspection is booked with Vertical Safety for 12 May."]


@pytest.fixture
def wall(db_path, real):  # type: ignore[no-untyped-def]
    s = core.MemoryStore(db_path, embedder=real)
    ids = [s.store(t, "semantic", source="agent", importance=0.6, event_at=datetime(2026, 1 + i, 3, 9)).id
           for i, t in enumerate(NOTES)]
    yield s, ids
    s.close()


def _ids(s: Any, q: str, on: bool) -> list[int]:
    return [m.id for m in s.recall(q, k=3, touch=False, config=replace(RecallConfig(), notes_about=on)).results]


def test_recall_puts_the_note_about_the_thing_first_when_on(wall: Any) -> None:
    s, ids = wall
    q = "who does the route setting?"
    assert _ids(s, q, False)[:2] == [ids[4], ids[1]]  # off: the reason clause's note first
    assert _ids(s, q, True)[:2] == [ids[1], ids[4]]
    q = "how much is a ten-visit card?"
    assert _ids(s, q, False)[:2] == [ids[3], ids[0]]  # the "unchanged" remark first
    res = s.recall(q, k=3, touch=False, config=replace(RecallConfig(), notes_about=True)).results
    assert [m.id for m in res][:2] == [ids[0], ids[3]]
    assert not res[0].possibly_outdated  # (the remark is no newer version of the price)
    assert RecallConfig().notes_about is True
