"""Key facts that may update each other (``brief._fold_updates``): close facts of one source,
written in one sitting, are one group only when the fact rules read a change of value."""

from __future__ import annotations

from typing import Any

import numpy as np

from memengine import brief, brief_pool


class _Vectors:
    """A store whose stored vectors are given: the cosines of the pairs are what the test says."""

    conn = None

    def __init__(self, vectors: dict[int, list[float]]) -> None:
        self._v = {k: np.asarray(v, dtype=np.float32) for k, v in vectors.items()}

    def known_people(self) -> dict[str, str]:
        return {}

    def vectors(self, ids: list[int], table: str = "vec_memories") -> dict[int, Any]:
        return {i: self._v[i] for i in ids if i in self._v}


def _unit(cos: float) -> list[float]:
    return [cos, float(np.sqrt(1 - cos * cos)), 0.0]


def _groups(rows: list[tuple[Any, ...]], store: _Vectors) -> list[tuple[int, list[int]]]:
    return [(int(r[0]), [int(o[0]) for o in older]) for r, older in brief._fold_updates(store, rows)]


def test_facts_of_one_sitting_are_not_one_fact() -> None:
    rows = [(1, "The user is Hannah Weber, a product designer living in Hamburg.", "2026-09-01T08:00:00", 0, .9, "a"),
            (2, "Hannah works at Nordlicht Studio as a senior product designer.", "2026-09-01T08:05:00", 0, .8, "a"),
            (3, "Hannah accepted an offer from Fjord Mobility as design lead.", "2026-10-23T08:30:00", 0, .8, "a")]
    # 1-2 and 2-3 close (0.8), 1-3 apart: the same chain the old rule folded into one group
    store = _Vectors({1: [1.0, 0.0, 0.0], 2: _unit(0.8), 3: [0.28, 0.96, 0.0]})
    sim = brief_pool.similarities(store, [1, 2, 3])
    assert sim[0, 1] >= brief.UPDATE_COS and sim[1, 2] >= brief.UPDATE_COS and sim[0, 2] < brief.UPDATE_COS
    # the name stands alone; the new employer may update the old one (weeks later)
    assert _groups(rows, store) == [(1, []), (3, [2])]


def test_a_change_the_rules_read_is_one_fact_even_in_one_sitting() -> None:
    rows = [(7, "The team standup is at 9:30.", "2026-09-01T08:00:00", 0, .9, "a"),
            (8, "The team standup is at 10:15.", "2026-09-01T08:20:00", 0, .9, "a"),
            (9, "The team standup is at 10:15.", "2026-09-01T08:30:00", 0, .9, "b")]  # another source
    store = _Vectors({7: [1.0, 0.0, 0.0], 8: _unit(0.9), 9: _unit(0.9)})
    assert _groups(rows, store) == [(8, [7]), (9, [])]


def test_an_unreadable_date_leaves_the_decision_to_the_rules() -> None:
    rows = [(1, "Ana lives in Porto.", "someday", 0, .9, "a"), (2, "Ana likes green tea.", "later", 0, .9, "a")]
    store = _Vectors({1: [1.0, 0.0, 0.0], 2: _unit(0.9)})
    assert _groups(rows, store) == [(1, []), (2, [])]
    assert brief._may_update(rows[0], (3, "Ana now lives in Lisbon.", "later", 0, .9, "a"), 0.9)


def test_budget_left_shows_more_of_a_busy_topic_but_no_small_talk(store: Any) -> None:
    """Once every topic part has PER_TOPIC_MAX lines, budget left goes to the lines the cap kept out
    that are worth as much as the median line shown (never "ok lol"), up to LEFTOVER_PER_TOPIC_MAX;
    then (round 4), budget still left, to every line that says something."""
    from datetime import datetime

    facts = ["the physio is at Centro Fisio Lambrate on Mondays at 9", "Dad's surgery is on 21 October at San Raffaele",
             "the car service is on Thursday 23rd at Officina Ferri", "Luca's school trip to Florence costs 95 euros",
             "the e-bike is a Gazelle Ultimate C380 from Cicli Brambilla", "lunch at Trattoria da Gino, Sunday 13:00",
             "Nonna Pia needs a lift from Via Padova at 12:30", "the cake fee is 3 euros per person at the Trattoria"]
    for i, text in enumerate(facts + ["ok", "lol", "haha yes", "ok ok", "yes", "lol ok"]):
        store.store(text, "episodic", thread="family", author=("Ana", "Ben")[i % 2],
                    event_at=datetime(2029, 10, 1 + i, 9), dedup=False)
    now = datetime(2029, 10, 30)

    def count(text: str) -> int:
        return len(text.split()) + 2

    sel = brief.select(store, 2000, now, count, "approximate")
    shown = [i.text for t in sel.topics for i in t.items]
    assert len(shown) == len(facts)  # every line that says something: the budget is there
    assert all(any(f in line for f in facts) for line in shown)  # no small talk
    two = brief.select(store, 2000, now, count, "approximate", params={"LAST_ROUND": 0})
    assert 3 < len([i for t in two.topics for i in t.items]) <= brief.LEFTOVER_PER_TOPIC_MAX
    capped = brief.select(store, 2000, now, count, "approximate", params={"LEFTOVER_PER_TOPIC_MAX": 3, "LAST_ROUND": 0})
    assert len([i for t in capped.topics for i in t.items]) == 3
