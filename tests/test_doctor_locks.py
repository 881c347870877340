"""doctor's check of the keyword index takes no write lock (real processes, real files).

FTS5's structure check was run as its ``INSERT ... 'integrity-check'`` command: a write statement, so it
held the file's write lock for its whole length (4-5 s at 100k memories on a loaded host, measured: every
writer waited that long; at 1M past a writer's 10 s busy timeout, a failed write). ``PRAGMA quick_check``
runs the same FTS5 check (its xIntegrity method, rank 0) as a read. Here another process holds the write
lock during the check: the check must neither wait for it nor fail, and must still find a damaged index.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write_lock_held

import memory_core as core
from memengine import fts_check
from memengine.db import connect


def _filled(db: Path, n: int = 80) -> None:
    s = core.MemoryStore(db)
    try:
        s.store_many([core.NewMemory(content=f"note {i}: the garden gate, the bicycle and Lisbon number {i}",
                                     ref=f"r{i}") for i in range(n)])
    finally:
        s.close()


def test_the_sampled_keyword_index_check_runs_while_another_process_holds_the_write_lock(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    _filled(db)
    conn = connect(db)
    with write_lock_held(db):
        try:
            conn.execute("PRAGMA busy_timeout = 200")  # (a check that needed the lock would fail after this)
            rep = fts_check.check(conn, full_max_rows=10, seed=1)
            assert rep["mode"] == "sampled" and rep["problems"] == [] and rep["ok"] is True, rep
        finally:
            conn.close()


def test_the_read_only_structure_check_still_finds_a_damaged_segment(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    _filled(db)
    conn = connect(db)
    try:
        rid, blk = conn.execute("SELECT id, block FROM memories_fts_data WHERE id > 10 "
                                "ORDER BY length(block) DESC LIMIT 1").fetchone()
        damaged = bytearray(blk)
        for j in range(20, min(len(damaged), 60)):
            damaged[j] ^= 0x5A
        conn.execute("UPDATE memories_fts_data SET block = ? WHERE id = ?", (bytes(damaged), rid))
        rep = fts_check.check(conn, full_max_rows=10, seed=1)
        assert rep["ok"] is False
        assert any("structure" in p and "malformed" in p for p in rep["problems"]), rep["problems"]
    finally:
        conn.close()


def test_the_full_check_runs_on_a_snapshot_copy_while_another_process_holds_the_write_lock(tmp_path: Path) -> None:
    """`doctor --full` (and doctor on a small store) runs FTS5's complete comparison, an INSERT command: on the live
    file it held the write lock throughout (46-51 s at 100k: every agent storing meanwhile waited, then failed).
    It now runs on a copy taken in one read: with another process holding the write lock during the whole check,
    it still runs the complete comparison (not the read-only fallback), and still finds a stale row."""
    db = tmp_path / "memory.db"
    _filled(db, 40)
    conn = connect(db)
    try:
        with write_lock_held(db):
            conn.execute("PRAGMA busy_timeout = 200")  # (a check that needed the lock would fail after this)
            rep = fts_check.check(conn, full=True)
            assert (rep["ok"], rep["mode"], rep["ran_on"], rep["problems"]) == (True, "full", "snapshot copy", []), rep
            assert int(conn.execute("PRAGMA busy_timeout").fetchone()[0]) == 200
        cols = "content, tags, date_terms, context, context_far"
        conn.execute(f"INSERT INTO memories_fts(memories_fts, rowid, {cols}) SELECT 'delete', id, {cols} "
                     "FROM memories_text WHERE id = 7")
        conn.execute(f"INSERT INTO memories_fts(rowid, {cols}) VALUES (7, 'words that were never there', '', '', '', '')")
        with write_lock_held(db):
            rep = fts_check.check(conn, full=True)
            assert rep["ran_on"] == "snapshot copy" and rep["ok"] is False, rep
            assert rep["problems"][0].startswith("FTS5 integrity-check against the memories"), rep["problems"]
    finally:
        conn.close()
    assert {p.name for p in tmp_path.iterdir()} <= {"memory.db", "memory.db-shm", "memory.db-wal"}  # (no copy here)


def test_without_room_for_a_copy_the_full_check_under_another_process_write_lock_is_no_false_problem(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No room for the copy: FTS5's full comparison on the file, an INSERT command that needs the write lock.
    With another process holding it, the command waited out the busy timeout and then failed, and doctor reported
    the keyword index out of step (a false problem, which `doctor --fix` "mended" by rebuilding it). Now it
    compares every row as a read instead, and says why."""
    import shutil
    from collections import namedtuple

    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda _p: usage(1 << 30, 1 << 30, 0))
    db = tmp_path / "memory.db"
    _filled(db, 40)
    conn = connect(db)
    with write_lock_held(db):
        try:
            conn.execute("PRAGMA busy_timeout = 200")
            rep = fts_check.check(conn)
            assert rep["ok"] is True and rep["problems"] == [], rep
            assert rep["mode"].startswith("full (the write lock"), rep["mode"]
            assert rep["ran_on"].startswith("file (no room for a snapshot copy"), rep["ran_on"]
            assert int(conn.execute("PRAGMA busy_timeout").fetchone()[0]) == 200  # (given back as it was)
        finally:
            conn.close()
