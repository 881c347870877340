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


def test_round_float32_is_python_round_of_each_value() -> None:
    import numpy as np

    from memengine.pyround import round_float32

    rng = np.random.default_rng(7)
    x = np.concatenate([rng.random(200_000, dtype=np.float32), np.arange(0, 1, 1 / 32768, dtype=np.float32),
                        np.float32([0.03125, 0.09375, 0.5, 1.0, 0.0, 0.99995, 0.12345, 0.06255])])  # ties: k/32
    for digits in (4, 6):
        assert round_float32(x, digits) == [round(v, digits) for v in x.tolist()]
    assert round_float32(np.float32([0.03125]), 4) == [0.0312]  # half to even, as round()


def test_link_pairs_as_int64_keys_are_the_tuple_sets_they_replaced() -> None:
    """The links phase's pair arithmetic (int64 keys) against the tuple sets it replaced."""
    import numpy as np

    from memengine.links import _keys

    rng = np.random.default_rng(3)
    pairs = rng.integers(1, 5000, size=(4000, 2))
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    keys = _keys(pairs)
    assert [(int(k >> 32), int(k & 0xFFFFFFFF)) for k in keys] == [(min(a, b), max(a, b)) for a, b in pairs.tolist()]
    existing = set(map(tuple, np.sort(pairs[:500], axis=1).tolist()))
    ex = np.unique(keys[:500])
    got = np.unique(keys)
    got = got[~np.isin(got, ex)]
    want = sorted({(min(a, b), max(a, b)) for a, b in pairs.tolist()} - existing)
    assert [(int(k >> 32), int(k & 0xFFFFFFFF)) for k in got] == want


def test_round_float64_is_python_round_of_each_value() -> None:
    import numpy as np

    from memengine.pyround import round_float64

    rng = np.random.default_rng(11)
    x = np.concatenate([rng.random(300_000), rng.random(1000) * 0.05,
                        np.arange(0, 2**20) / 2**20,  # every multiple of 2**-20: exact halves at 6 digits
                        [0.0, 1.0, 0.5, 0.0000005, 0.1234565, 0.9999995, 2.5e-7, 0.05]])
    assert round_float64(x, 6).tolist() == [round(v, 6) for v in x.tolist()]


def _old_decay_edges(conn: Any, now: datetime, now_iso: str) -> None:
    """links.LinksPhase.decay_edges as it was before it was vectorised (the reference)."""
    import json

    from memengine.links import DECAYING_EDGES, EDGE_DECAY_PER_DAY, EDGE_MIN_WEIGHT, WEIGHT_EPS
    from memengine.timeparse import from_iso

    q = ",".join("?" * len(DECAYING_EDGES))
    for r in conn.execute(
            f"""SELECT id, weight, coalesce(last_used_at, created_at) AS used, metadata,
                      json_extract(metadata, '$.base_weight') AS base, json_extract(metadata, '$.ref_at') AS ref_at
               FROM associations WHERE edge_type IN ({q}) AND coalesce(last_used_at, created_at) < ?""",
            (*DECAYING_EDGES, now_iso)).fetchall():
        used = r["used"]
        moved = r["base"] is None or r["ref_at"] != used
        base = float(r["weight"]) if moved else float(r["base"])
        days = max(0.0, (now - (from_iso(used) or now)).total_seconds() / 86400.0)
        w = max(min(base, EDGE_MIN_WEIGHT), base * EDGE_DECAY_PER_DAY ** days)
        w = round(max(0.0, min(1.0, w)), 6)
        if abs(w - float(r["weight"])) > WEIGHT_EPS:
            meta = json.dumps({**json.loads(r["metadata"] or "{}"), "base_weight": base, "ref_at": used}) \
                if moved else r["metadata"]
            conn.execute("UPDATE associations SET weight = ?, metadata = ? WHERE id = ?", (w, meta, r["id"]))
    conn.commit()


def test_edge_decay_writes_what_the_row_by_row_loop_wrote(tmp_path: Path) -> None:
    """Fresh, anchored, used-since and floor edges, extra metadata keys, over several nights."""
    import numpy as np

    from memengine.db import write_tx
    from memengine.links import LinksPhase

    store = core.MemoryStore(tmp_path / "a.db")
    ids = store.store_many(_messages("t0", 0, 60, T0)).ids
    rng = np.random.default_rng(5)
    with write_tx(store.conn):
        for n, (a, b) in enumerate(zip(ids[:-1], ids[1:])):
            meta = ('{"why": "test", "base_weight": 0.9, "ref_at": "2024-06-01T00:00:00"}' if n % 7 == 0 else
                    '{"base_weight": 0.3, "ref_at": "2024-06-02T00:00:00"}' if n % 5 == 0 else "{}")
            w = [0.05, 1.0, 0.5, 0.123456][n % 4] if n % 3 == 0 else round(float(rng.random()), 4)
            used = "2024-06-02T00:00:00" if n % 5 == 0 else f"2024-06-0{1 + n % 4}T0{n % 9}:00:00"
            store.conn.execute("INSERT INTO associations(source_id, target_id, edge_type, weight, created_at, "
                               "last_used_at, metadata) VALUES (?, ?, ?, ?, ?, ?, ?)",
                               (a, b, ("semantic", "temporal", "reinforces")[n % 3], w, "2024-06-01T00:00:00",
                                used if n % 11 else None, meta))
    store.close()
    shutil.copy(tmp_path / "a.db", tmp_path / "b.db")
    out = []
    for name in ("a.db", "b.db"):
        s = core.MemoryStore(tmp_path / name)
        try:
            for night in (3, 4, 40, 400):
                now = datetime(2024, 6, 1) + timedelta(days=night)
                iso = now.strftime("%Y-%m-%dT%H:%M:%S")
                if name == "a.db":
                    LinksPhase(s.conn, now, iso, 10**9, None).decay_edges()  # type: ignore[arg-type]
                else:
                    _old_decay_edges(s.conn, now, iso)
                if night == 4:  # an edge used since: its anchor moves
                    s.conn.execute("UPDATE associations SET last_used_at = '2024-06-05T12:00:00' WHERE id % 4 = 1")
                    s.conn.commit()
                out.append([tuple(r) for r in s.conn.execute("SELECT * FROM associations ORDER BY id")])
        finally:
            s.close()
    assert len(out) == 8 and len(out[0]) > 50
    assert out[:4] == out[4:]  # night after night, the same rows
    assert len({r[4] for r in out[1]}) > 20 and out[1] != out[0] != out[2]  # weights decayed apart, and on
