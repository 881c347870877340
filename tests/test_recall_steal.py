"""A warm recall whose keyword read-ahead holds the worker thread: the calling thread scans the context
vectors itself (pipeline.STEAL_CONTEXTS) and answers exactly as when the worker scans them: same ids,
scores, weak flags and explain signals, with filters, and after writes between recalls."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

import memory_core as mc
from memengine.recall import pipeline
from tests.test_recall_prefetch import QUERIES, open_warm


def _answers(store: mc.MemoryStore, steal: bool, **kw: Any) -> list[list[tuple[int, float | None, bool]]]:
    pipeline.STEAL_CONTEXTS = steal
    return [[(m.id, m.score, m.weak) for m in store.recall(q, touch=False, **kw).results] for q in QUERIES]


@pytest.fixture
def warm(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    s = open_warm(db_path, monkeypatch, STEAL_CONTEXTS=True)
    yield s
    s.close()


def _held_worker(store: mc.MemoryStore, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Make the worker's keyword read-ahead wait until the context vectors were scanned elsewhere, so
    the calling thread finds the context scan not started; returns the threads each scan ran on
    (``monkeypatch.undo()`` frees the worker again)."""
    scanned = threading.Event()
    ran_on: list[str] = []
    index = store._keyword_index
    assert index is not None
    search = index.search
    # the matrices exist from here on (made before the worker is held: held, this first recall's read-ahead
    # waited out its 30 s safety net, since nothing spied on the context scan yet to free it)
    store.recall(QUERIES[0], touch=False)
    matrix = store._matrices["vec_contexts"]

    def slow_search(conn: Any, words: Any, k: int) -> Any:
        if threading.current_thread() is not threading.main_thread():
            scanned.wait(timeout=30)  # (a safety net only: the calling thread sets it at once)
            scanned.clear()  # the next recall's read-ahead waits again
        return search(conn, words, k)

    monkeypatch.setattr(index, "search", slow_search)
    ctx_search = matrix.search

    def spy(vec: Any, k: int) -> Any:
        ran_on.append(threading.current_thread().name)
        try:
            return ctx_search(vec, k)
        finally:
            scanned.set()

    monkeypatch.setattr(matrix, "search", spy)
    scanned.clear()
    return ran_on


def test_the_calling_thread_takes_the_context_scan_when_the_worker_is_busy(
        warm: mc.MemoryStore, monkeypatch: pytest.MonkeyPatch) -> None:
    cases: list[dict[str, Any]] = [{"k": 10}, {"k": 3}, {"k": 40}, {"k": 10, "types": ["episodic"]},
                                   {"k": 10, "tags": ["garden"]}, {"k": 10, "include_archived": True}]
    expected = {i: _answers(warm, False, **kw) for i, kw in enumerate(cases)}
    explained = [m.explain for m in warm.recall(QUERIES[1], touch=False, explain=True).results]
    ran_on = _held_worker(warm, monkeypatch)
    for i, kw in enumerate(cases):
        ran_on.clear()
        assert _answers(warm, True, **kw) == expected[i], kw
        # every recall that scanned context vectors did so on the calling thread
        assert ran_on and set(ran_on) == {threading.main_thread().name}, (kw, ran_on)
    assert [m.explain for m in warm.recall(QUERIES[1], touch=False, explain=True).results] == explained


def test_stolen_scans_see_writes_between_recalls(warm: mc.MemoryStore) -> None:
    held = pytest.MonkeyPatch()
    ran_on = _held_worker(warm, held)
    before = _answers(warm, True)
    warm.store("Ana fixed the tomato garden bicycle on Friday", "episodic", author="Ana", thread="chat-1",
               position=500, dedup=False)
    warm.forget(before[0][0][0])
    warm.recall("tomato garden", touch=True)
    stolen = _answers(warm, True)
    assert set(ran_on) == {threading.main_thread().name}
    held.undo()  # the worker free again, and the scan left to it
    assert stolen == _answers(warm, False)
    assert before[0][0][0] not in [i for i, _, _ in stolen[0]]
