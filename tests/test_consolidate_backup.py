"""consolidate's backup is written right before the first destructive write, and never when there is none."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta
from pathlib import Path

import pytest

import memory_core as core
from memengine import consolidate as cons

NOW = datetime(2030, 1, 1, 12, 0, 0)


def test_backup_only_when_a_destructive_phase_writes(store: core.MemoryStore, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = cons.backup

    def counting(*args: object, **kw: object) -> Path:
        calls.append("backup")
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(cons, "backup", counting)
    store.store_many([core.NewMemory(content=f"we planted tomatoes and basil in the garden beds {i}",
                                     memory_type="episodic", source="test", ref=f"g{i}", thread="chat",
                                     created_at=NOW - timedelta(hours=8 - i)) for i in range(8)])
    first = cons.run(store, now=NOW, keep_backups=2)
    assert calls == ["backup"] and first.backup is not None
    # taken lazily: after the links phase of the same run, so the copy already holds its edges
    with sqlite3.connect(first.backup) as c:
        assert c.execute("SELECT count(*) FROM associations WHERE edge_type = 'semantic'").fetchone()[0] > 0
    # the same moment again: the destructive phases have nothing to do, and no copy is even written
    again = cons.run(store, now=NOW, keep_backups=2)
    assert calls == ["backup"]
    assert again.backup is None and again.backup_note == "none kept: the destructive phases changed nothing"
    # a forgotten cluster member: the cascade has work, and one backup is written before it
    member = store.conn.execute("SELECT memory_id FROM cluster_members LIMIT 1").fetchone()[0]
    store.forget(member)
    later = cons.run(store, now=NOW, keep_backups=2)
    assert calls == ["backup", "backup"] and later.backup is not None and Path(later.backup).exists()
    assert later.counts()["cascade"]["members_removed"] == 1
    with sqlite3.connect(later.backup) as c:  # the copy was taken before the cascade removed it
        assert c.execute("SELECT count(*) FROM cluster_members WHERE memory_id = ?", (member,)).fetchone()[0] == 1
