"""What a live write costs in statements compiled (issue 22): counted with SQLite's authorizer,
which sees each compile of a statement (never a wall-clock figure)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from memengine.db import sqlite3
from memengine.records import NewMemory
from memory_core import MemoryStore

T0 = datetime(2024, 3, 1, 9, 0, tzinfo=timezone.utc)


def _count_compiles(conn: Any, table: str) -> list[int]:
    """Count compiles of a top-level INSERT into ``table`` from now on (trigger bodies excluded)."""
    n = [0]

    def auth(action: int, a1: Any, _a2: Any, _db: Any, trigger: Any) -> int:
        if action == sqlite3.SQLITE_INSERT and a1 == table and trigger is None:
            n[0] += 1
        return int(sqlite3.SQLITE_OK)

    conn.set_authorizer(auth)  # (expires every prepared statement once: one compile expected)
    return n


def _live_turns(store: MemoryStore, k: int, start: int = 0) -> list[int]:
    ids = []
    for i in range(start, start + k):
        res = store.store(f"Bo: live turn number {i} about kayaks", "episodic", author="Bo",
                          thread=f"t{i % 3}", event_at=T0 + timedelta(minutes=i))
        assert not res.deduplicated
        ids.append(res.id)
    return ids


def test_live_store_prepares_its_insert_once_on_a_new_file(tmp_path: Path) -> None:
    """A store created (and migrated) by this process: its INSERT is prepared once, not per store.

    The connection that ran the migrations re-prepared every statement afterwards (each live
    store() compiled the INSERT with all of memories' trigger programs); MemoryStore reopens it.
    """
    with MemoryStore(tmp_path / "new.db") as store:
        store.store_many([NewMemory(content=f"Ana: turn {i}", memory_type="episodic", author="Ana",
                                    thread=f"t{i % 3}", position=i // 3, event_at=T0 + timedelta(seconds=i))
                          for i in range(30)])
        n = _count_compiles(store.conn, "memories")
        ids = _live_turns(store, 12)
        assert n[0] == 1
        assert len(set(ids)) == 12
        # the turns are searchable, and each joined the end of its thread
        rows = store.conn.execute(
            "SELECT thread, max(position) FROM memories GROUP BY thread ORDER BY thread").fetchall()
        assert [(r[0], r[1]) for r in rows] == [("t0", 13), ("t1", 13), ("t2", 13)]
        assert store.conn.execute(
            "SELECT count(*) FROM memories_fts WHERE memories_fts MATCH 'content:kayaks'").fetchone()[0] == 12


def test_live_store_prepares_its_insert_once_on_an_existing_file(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with MemoryStore(path) as store:
        _live_turns(store, 3)
    with MemoryStore(path) as store:
        n = _count_compiles(store.conn, "memories")
        _live_turns(store, 10, start=3)
        assert n[0] == 1
        assert store.conn.execute("SELECT count(*) FROM memories").fetchone()[0] == 13
