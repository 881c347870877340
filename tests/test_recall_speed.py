"""Recall steps read a turn's text only when their result can depend on it (serve17), with the same result.

``follow`` reads whether a seed states a value (a long turn, new on each new question) only once one of its
next turns states a value of the kind asked; before, every seed was read first. These tests pin both: the
same placements as reading the seeds first, and no read of a seed whose next turns state nothing asked.
"""

from __future__ import annotations

import pytest

from memengine.recall import follow as F
from memengine.records import Candidate


def _c(i: int, text: str, thread: str = "t", position: int = 0, at: str = "2026-03-01T10:00:00") -> Candidate:
    c = Candidate((i, text, "Ana", thread, position, at, "{}", 1.0, 0.5, "whatsapp"))
    c.score = 1.0 / i
    return c


LONG = ("we talked about the dentist for a while and Sandra said she knows a good one near the station, "
        "so I will ask her tomorrow when she is back from the trip to the coast with the kids")
THREAD = {
    # seed 1 (no value) -> its next turn states a time
    1: [_c(11, "ok", position=2), _c(12, "tomorrow at 17:15", position=3)],
    # seed 2 states a value itself -> no seed, its next turn with a time stays where it is
    2: [_c(21, "at 9:30 then", thread="u", position=6)],
    # seed 3 (long, with digits) -> next turns state no time: never read
    3: [_c(31, "sounds good", thread="v", position=9), _c(32, "see you", thread="v", position=10)],
}


def _ranked() -> list[Candidate]:
    return [_c(1, "Sandra recommended a dentist, can you book the dentist", position=1),
            _c(2, "dentist moved to 3 May at 10:00", thread="u", position=5),
            _c(3, LONG + " 2 3 4", thread="v", position=8),
            _c(4, "unrelated note", thread="w", position=1)]


def _next(seeds: list[Candidate], span: int) -> dict[int, list[Candidate]]:
    return {s.id: [_c(t.id, t.content, t.thread or "", t.position or 0) for t in THREAD.get(s.id, [])]
            for s in seeds}


def _reference(ranked: list[Candidate], k: int, query: str) -> list[int]:
    """The session-start order: seeds stating a value filtered out before any next turn is read."""
    seeds = [c for c in ranked if not F._any_value(c)]
    kept = {c.id for c in seeds}
    out, _ = F.follow(ranked, k, query, lambda s, span: _next([c for c in s if c.id in kept], span))
    return [c.id for c in out]


@pytest.mark.parametrize("query", ["what time is the dentist?", "when is the dentist appointment?"])
def test_follow_places_the_same_turns_as_reading_seeds_first(query: str) -> None:
    got, _ = F.follow(_ranked(), 10, query, _next)
    assert [c.id for c in got] == _reference(_ranked(), 10, query)
    assert [c.id for c in got][:3] == [1, 12, 2]  # the time after the seed; seed 2 states one: nothing after it
    assert 21 not in [c.id for c in got]


def test_follow_reads_no_seed_whose_next_turns_state_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    read: list[str] = []
    real = F.values_of

    def counting(text: str) -> frozenset[tuple[str, tuple[object, ...]]]:
        read.append(text)
        return real(text)

    monkeypatch.setattr(F, "values_of", counting)
    F.follow(_ranked(), 10, "what time is the dentist?", _next)
    assert not any(t.startswith("we talked about the dentist") for t in read)  # seed 3: its turns state no time
    assert any(t.startswith("dentist moved") for t in read)  # seed 2: read, its next turn states a time
