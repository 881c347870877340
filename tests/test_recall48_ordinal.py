"""Round 48 of issue 19 (memengine/recall/ordinal.py): a question's ordinal ("the first …", "the latest …") read in
several languages, the nudge toward that end of time exact, and the step off by default through a real store."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from memengine.recall.ordinal import asks_end, ordinal_nudge, parse
from memengine.records import Candidate
from memory_core import MemoryStore, RecallConfig


def cand(i: int, score: float, at: str | None) -> Candidate:
    c = Candidate((i, f"turn {i}", "Ana", "t", i, at, "{}", 1.0, 0.5, "whatsapp"))
    c.score = score
    return c


@pytest.mark.parametrize("question, end", [
    ("What was the first book we read?", "early"),
    ("Where did we first book dad's 70th?", "early"),
    ("¿Cuánto iba a costar el primer salón?", "early"),
    ("Welches Buch war das erste?", "early"),
    ("Hvad var den første pris?", "early"),
    ("What is the latest plan for the lunch?", "late"),
    ("When was the last long run before the taper?", "late"),
    ("¿Cuál fue el último libro?", "late"),
    ("What did we do last week?", ""),
    ("How many people went to the festival last year?", ""),
    ("Which came first and which was the latest?", ""),
    ("Who is Ines?", ""),
])
def test_the_ordinal_names_an_end_of_time(question: str, end: str) -> None:
    assert asks_end(question) == end


def test_the_spec() -> None:
    assert parse("0.3:20") == (0.3, 20, "both")
    assert parse("0.3:10:early") == (0.3, 10, "early")


def test_the_earliest_of_the_top_moves_up_by_its_share_of_the_score_range() -> None:
    def ranked() -> list[Candidate]:  # (fresh each time: the step rewrites scores)
        return [cand(1, 1.0, "2026-04-01T10:00:00"), cand(2, 0.8, "2026-03-01T10:00:00"),
                cand(3, 0.6, "2026-01-08T10:00:00"), cand(4, 0.1, "2025-12-01T10:00:00")]

    # depth 3: range 0.4; the earliest (3) + 0.5 × 0.4 × 1, then 2 + 0.5 × 0.4 × 0.5, the latest (1) + 0; 4 is
    # below the depth and stays where it is
    out = ordinal_nudge(ranked(), "What was the first meeting about?", "0.5:3")
    assert [(c.id, c.score) for c in out] == [(1, 1.0), (2, 0.9), (3, 0.8), (4, 0.1)]
    out = ordinal_nudge(ranked(), "What was the first meeting about?", "2.0:3")
    assert [(c.id, c.score) for c in out] == [(3, 1.4), (2, 1.2), (1, 1.0), (4, 0.1)]
    late = ordinal_nudge(ranked(), "What is the latest meeting about?", "0.5:3")
    assert [c.id for c in late] == [1, 2, 3, 4]  # the latest is already first
    assert [c.id for c in ordinal_nudge(ranked(), "What is the latest meeting about?", "0.5:3:early")] == [1, 2, 3, 4]
    assert [c.id for c in ordinal_nudge(ranked(), "What was the meeting about?", "0.5:3")] == [1, 2, 3, 4]


CHAT = """[08/01/26, 20:00:00] Ana: book club meeting at mine, we read circe
[08/02/26, 20:00:00] Ben: book club meeting at ben's, the book was piranesi
[08/03/26, 20:00:00] Cat: book club meeting at cat's, the book was the overstory, great meeting
[08/04/26, 20:00:00] Ana: book club meeting, the book this month was the secret history, best meeting
"""


def test_through_a_store_off_by_default_and_on_the_first_month_comes_up(tmp_path: Path) -> None:
    from memengine import ingest

    path = tmp_path / "club.txt"
    path.write_text(CHAT, encoding="utf-8")
    store = MemoryStore(str(tmp_path / "m.db"))
    ingest.import_path(store, path)
    q = "What was the first book club meeting book?"
    d = RecallConfig()
    assert d.ordinal == ""
    off = store.recall(q, k=4, touch=False, config=d).results
    on = store.recall(q, k=4, touch=False, config=replace(d, ordinal="4.0:10")).results
    assert sorted(r.id for r in on) == sorted(r.id for r in off)
    assert (on[0].event_at or "")[:7] == "2026-01" and "circe" in on[0].content
    store.close()

