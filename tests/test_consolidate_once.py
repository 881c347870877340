"""consolidate's speed-ups of issue 22 (round 3) change nothing it writes.

Each test runs consolidate on two copies of one store, night after night: one with the engine as it
is, one with the shortcut switched back to the plain way, and compares every table consolidate
writes (bench/consolidate_phases.py's digests, which leave out only the wall clock of the run).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import memory_core as core
from bench.consolidate_phases import fingerprints
from memengine import consolidate as cons
from memory_core import NewMemory

T0 = datetime(2024, 6, 8, 9, 0)
TOPICS = ("we planted tomatoes and basil in the garden beds", "the gateway server crashed and was restarted",
          "hiking trip in the alps mountains with the group", "my sister moved to Lisbon for her new job")


def _messages(thread: str, start: int, n: int, t: datetime) -> list[NewMemory]:
    """A chat thread in bursts separated by pauses longer than an episode gap, a few topics each."""
    out = []
    for i in range(start, start + n):
        if i and i % 6 == 0:
            t += timedelta(hours=2)
        topic = TOPICS[(i // 6 + len(thread)) % len(TOPICS)]
        out.append(NewMemory(content=f"{topic}, note {i} of {thread}", memory_type="episodic", source="chat",
                             ref=f"{thread}/{i}", thread=thread, position=i, author=("Ana", "Ben")[i % 2],
                             event_at=t))
        t += timedelta(minutes=3)
    return out


def _facts(start: int, n: int) -> list[NewMemory]:
    # (an event time: a fact stored without one is valid from the wall clock, which differs between copies)
    return [NewMemory(content=f"{TOPICS[i % len(TOPICS)]}: fact number {i}", memory_type="semantic",
                      ref=f"fact/{i}", event_at=T0 + timedelta(hours=i)) for i in range(start, start + n)]


def _nights(path: Path) -> list[dict[str, str]]:
    """Three nights: the first run, a night with new messages and a forgotten one, and a plain rerun."""
    out = []
    store = core.MemoryStore(path)
    try:
        for night in range(3):
            if night == 1:
                store.store_many(_messages("t1", 90, 14, T0 + timedelta(days=3)) + _facts(40, 6))
                store.forget(int(store.conn.execute("SELECT min(id) FROM memories").fetchone()[0]))
            now = T0 + timedelta(days=5 + night)
            cons.run(store, now=now, keep_backups=0)
            out.append(fingerprints(store.conn))
    finally:
        store.close()
    return out


def _same_with_and_without(tmp_path: Path, plain: Callable[[], Any]) -> list[dict[str, str]]:
    """The nights' digests on one copy as the engine runs, and on another after ``plain()`` patched it."""
    src = tmp_path / "src.db"
    store = core.MemoryStore(src)
    store.store_many(_messages("t0", 0, 120, T0) + _messages("t1", 0, 90, T0) + _facts(0, 40))
    store.close()
    shutil.copy(src, tmp_path / "plain.db")
    fast = _nights(src)
    plain()
    slow = _nights(tmp_path / "plain.db")
    assert fast == slow
    return fast


def test_one_vector_scan_per_run_writes_what_a_scan_per_phase_writes(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    scans: list[int] = []
    real = cons._load_vectors

    def counted(store: Any, wanted: set[int]) -> Any:
        scans.append(len(wanted))
        return real(store, wanted)

    monkeypatch.setattr(cons, "_load_vectors", counted)
    original = cons.Consolidator._raw_vectors

    def every_time(self: cons.Consolidator) -> Any:  # the plain way: read every vector again
        self._vec_mat = None
        return original(self)

    fast_scans: list[int] = []

    def plain() -> None:
        fast_scans.extend(scans)
        scans.clear()
        monkeypatch.setattr(cons.Consolidator, "_raw_vectors", every_time)

    digests = _same_with_and_without(tmp_path, plain)
    assert len(fast_scans) == 3 and len(scans) > 6  # one scan a night, where each phase scanned again
    assert int(digests[0]["memories"].split(":")[0]) > 250  # messages, facts and the episodes made of them
    assert digests[1] != digests[0]  # the second night changed something (new messages, links, clusters)


def test_the_episode_vectors_kept_are_the_stored_ones(tmp_path: Path) -> None:
    """The vectors of episodes made in the run are taken from what was written, not read back: the same rows."""
    store = core.MemoryStore(tmp_path / "a.db")
    try:
        store.store_many(_messages("t0", 0, 120, T0))
        job = cons.Consolidator(store, T0 + timedelta(days=5))
        assert job.phase_episodes()["episodes"] > 5
        ids, mat = job._raw_vectors()
        kept = dict(zip(ids.tolist(), mat))
        stored = store.vectors(ids.tolist())
        assert sorted(kept) == sorted(stored)
        assert all(kept[m].tobytes() == stored[m].tobytes() for m in kept)
    finally:
        store.close()
