"""Round 48 of issue 19 (memengine/recall/spread.py): a list question's results spread over bursts or over what they
say — the question read in several languages, the greedy refill exact, and the step off by default through a real
store."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from memengine.recall.spread import asks_list, parse, spread_bursts
from memengine.records import Candidate
from memory_core import MemoryStore, RecallConfig


def cand(i: int, score: float, at: str, thread: str = "t") -> Candidate:
    c = Candidate((i, f"turn {i}", "Ana", thread, i, at, "{}", 1.0, 0.5, "whatsapp"))
    c.score = score
    return c


@pytest.mark.parametrize("question, many", [
    ("Which rounds do we do badly on?", True),
    ("What places did we finish at the fox and anchor?", True),
    ("How many eggs have we had?", True),
    ("Hvilke uger er booket?", True),
    ("Welke boeken heeft ze gelezen?", True),
    ("Quels films a-t-elle vus ?", True),
    ("What is our team called now?", False),
    ("Who is Ines?", False),
    ("Welke dag komt hij?", False),
    ("Hvornår kom skorstensfejeren?", False),
])
def test_a_list_question_is_read_in_several_languages(question: str, many: bool) -> None:
    assert asks_list(question) is many


def test_the_spec_reads_factor_start_unit_and_pool() -> None:
    assert parse("0.8:3:60") == (0.8, 3, "60", 30)
    assert parse("0.9:2:c0.7:40") == (0.9, 2, "c0.7", 40)


def test_turns_of_one_burst_give_their_places_to_other_bursts() -> None:
    # 1-3 one burst (minutes apart), 4 the same thread two weeks later, 5 a third day
    ranked = [cand(1, 1.0, "2026-01-08T20:00:00"), cand(2, 0.9, "2026-01-08T20:02:00"),
              cand(3, 0.85, "2026-01-08T20:05:00"), cand(4, 0.8, "2026-01-22T21:00:00"),
              cand(5, 0.5, "2026-02-04T22:00:00")]
    out = spread_bursts(list(ranked), 4, "Which prizes did we win?", "0.8:1:60")
    # rank 2: 2 at 0.9 × 0.8 = 0.72 < 4's 0.8; rank 3: 2 at 0.72 > 3 at 0.68 and 5's 0.5; rank 4: 3 at 0.85 × 0.64
    assert [c.id for c in out] == [1, 4, 2, 3, 5]
    assert [c.score for c in out[:4]] == [1.0, 0.8, 0.72, 0.544]
    assert out[4].score == 0.5  # not shown: under the last shown, in its order
    # not a list question: untouched
    again = [cand(i, s, "2026-01-08T20:00:00") for i, s in ((1, 1.0), (2, 0.9), (3, 0.8))]
    assert [c.id for c in spread_bursts(again, 3, "What is the team called?", "0.5:1:60")] == [1, 2, 3]


def test_a_gap_of_zero_is_the_same_day_and_threads_never_pair() -> None:
    def ranked() -> list[Candidate]:  # (fresh each time: the step rewrites the scores it discounts)
        return [cand(1, 1.0, "2026-01-08T09:00:00"), cand(2, 0.9, "2026-01-08T22:00:00"),
                cand(3, 0.8, "2026-01-08T09:01:00", thread="other"), cand(4, 0.1, "2026-01-09T09:00:00")]

    assert [c.id for c in spread_bursts(ranked(), 3, "Which books did she read?", "0.5:1:0")] == [1, 3, 2, 4]
    assert [c.id for c in spread_bursts(ranked(), 3, "Which books did she read?", "0.5:1:60")] == [1, 2, 3, 4]


def test_a_cosine_unit_reads_the_vectors_of_the_candidates() -> None:
    def ranked() -> list[Candidate]:
        return [cand(1, 1.0, "2026-01-08T09:00:00"), cand(2, 0.9, "2026-03-08T09:00:00"),
                cand(3, 0.8, "2026-05-08T09:00:00")]

    vecs = {1: np.array([1.0, 0.0]), 2: np.array([0.99, 0.1]), 3: np.array([0.0, 1.0])}
    asked: list[list[int]] = []

    def vectors(ids: list[int]) -> dict[int, np.ndarray]:
        asked.append(ids)
        return {i: vecs[i] for i in ids}

    out = spread_bursts(ranked(), 3, "Which books did she read?", "0.5:1:c0.9", vectors)
    assert [c.id for c in out] == [1, 3, 2] and asked == [[1, 2, 3]]
    # no vectors (a keyword-only recall): untouched
    assert [c.id for c in spread_bursts(ranked(), 3, "Which books did she read?", "0.5:1:c0.9")] == [1, 2, 3]


CHAT = """[08/01/26, 20:00:00] Ana: prizes tonight: a bottle of red
[08/01/26, 20:01:00] Ben: the red is at mine
[08/01/26, 20:02:00] Ana: red wine prize, nice one
[22/01/26, 21:00:00] Ben: won a bar tab prize this week
[04/02/26, 22:00:00] Ana: prize was chocolates and a voucher
"""


def test_through_a_store_off_by_default_and_on_it_reorders(tmp_path: Path) -> None:
    from memengine import ingest

    path = tmp_path / "quiz.txt"
    path.write_text(CHAT, encoding="utf-8")
    store = MemoryStore(str(tmp_path / "m.db"))
    ingest.import_path(store, path)
    q = "Which prizes did we win?"
    d = RecallConfig()
    assert d.list_spread == "" and d.list_person == 1.0
    off = [r.id for r in store.recall(q, k=5, touch=False, config=d).results]
    assert off == [r.id for r in store.recall(q, k=5, touch=False).results]
    on = store.recall(q, k=5, touch=False, config=replace(d, list_spread="0.1:1:60")).results
    days = [(r.event_at or "")[:10] for r in on]
    # the head stays; ranks 2-4 take one turn of each other burst before the head's burst-mates
    assert on[0].id == off[0] and len(set(days[:3])) == 3
    store.close()
