"""A warm recall's keyword side read ahead on the worker thread (pipeline.PREFETCH_KEYWORDS) answers
exactly as the inline path: same ids, scores and weak flags, with filters, forgotten memories, people,
"when" questions, a filter that forces the keyword side to widen, and after writes between recalls."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import memory_core as mc
from memengine import storebase
from memengine.recall import pipeline

WORDS = ("garden tomato bicycle repair lisbon trip parser crash meeting budget painting dog adopt "
         "school concert guitar recipe bread sourdough marathon training knee doctor python release "
         "deadline invoice holiday beach camping tent mountain coffee").split()
QUERIES = ["tomato garden", "What did Ana say about the bicycle repair?", "When did Ben go camping?",
           "parser crash release deadline", "note guitar concert", "sourdough", "zebra", "coffee with Ana"]


def _fill(store: mc.MemoryStore, rng: random.Random) -> None:
    for i in range(260):  # every note holds "note": a keyword query for it ranks more rows than it keeps
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 20)))
        store.store(f"note {i}: {text}", tags=[rng.choice(WORDS)], dedup=False)
    for i in range(120):
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12)))
        if i % 7 == 0:
            text += "?"
        store.store(f"[2024-05-{1 + i % 28:02d}] {text}", "episodic", author=rng.choice(["Ana", "Ben"]),
                    thread="chat-1", position=i, dedup=False)


def _answers(store: mc.MemoryStore, prefetch: bool, **kw: Any) -> list[list[tuple[int, float | None, bool]]]:
    pipeline.PREFETCH_KEYWORDS = prefetch
    out = []
    for q in QUERIES:
        res = store.recall(q, touch=False, **kw)
        out.append([(m.id, m.score, m.weak) for m in res.results])
    return out


def open_warm(db_path: Path, monkeypatch: pytest.MonkeyPatch, **switches: bool) -> mc.MemoryStore:
    """A filled store (some rows forgotten) opened warm at test size, with the keyword side read ahead
    and the given ``pipeline`` switches set (``STEAL_CONTEXTS=True``...)."""
    monkeypatch.setattr(storebase, "PARALLEL_MIN_ROWS", 50)
    monkeypatch.setattr(storebase, "MATRIX_MIN_ROWS", 50)
    monkeypatch.setattr(pipeline, "PREFETCH_KEYWORDS", True)
    for name, on in switches.items():
        monkeypatch.setattr(pipeline, name, on)
    with mc.MemoryStore(db_path) as seed:
        _fill(seed, random.Random(11))
        for mid in range(5, 300, 9):
            seed.forget(mid)
    s = mc.MemoryStore(db_path, keyword_index=True)
    assert s.warm_up()["ready"]
    return s


@pytest.fixture
def warm(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    s = open_warm(db_path, monkeypatch)
    yield s
    s.close()


def test_read_ahead_equals_inline(warm: mc.MemoryStore, monkeypatch: pytest.MonkeyPatch) -> None:
    on_worker: list[int] = []
    candidates = warm._candidates

    def spy(ids: list[int], conn: Any = None) -> Any:
        if conn is not None:
            on_worker.append(len(ids))
        return candidates(ids, conn)

    monkeypatch.setattr(warm, "_candidates", spy)
    for kw in ({"k": 10}, {"k": 3}, {"k": 40}, {"k": 10, "types": ["episodic"]}, {"k": 10, "tags": ["garden"]},
               {"k": 10, "include_archived": True}, {"k": 10, "explain": True}):
        on_worker.clear()
        ahead = _answers(warm, True, **kw)
        assert on_worker, kw  # the read-ahead ran (the keyword index was ready, the worker read rows)
        assert ahead == _answers(warm, False, **kw), kw
        if kw.get("explain"):  # the signals fusion saw are the same too
            pipeline.PREFETCH_KEYWORDS = True
            a = warm.recall(QUERIES[1], touch=False, explain=True).results
            pipeline.PREFETCH_KEYWORDS = False
            b = warm.recall(QUERIES[1], touch=False, explain=True).results
            assert [m.explain for m in a] == [m.explain for m in b]


def test_read_ahead_widens_like_inline(warm: mc.MemoryStore) -> None:
    # "note" matches 260 rows: the index ranks 2 x POOL of them, the episodic filter keeps none of
    # those, so the keyword side widens (inline, as _keyword does): same answer either way
    for prefetch in (True, False):
        pipeline.PREFETCH_KEYWORDS = prefetch
        res = warm.recall("note", strategy="hybrid", types=["episodic"], touch=False)
        assert all(m.memory_type == "episodic" for m in res.results)
    assert _answers(warm, True, types=["episodic"]) == _answers(warm, False, types=["episodic"])


def test_read_ahead_sees_writes_between_recalls(warm: mc.MemoryStore) -> None:
    before = _answers(warm, True)
    warm.store("Ana fixed the tomato garden bicycle on Friday", "episodic", author="Ana", thread="chat-1",
               position=500, dedup=False)
    warm.forget(before[0][0][0])  # the best answer to the first query goes
    warm.recall("tomato garden", touch=True)  # a reinforcement write too
    ahead, inline = _answers(warm, True), _answers(warm, False)
    assert ahead == inline
    assert before[0][0][0] not in [i for i, _, _ in ahead[0]]
