"""m012: memory_author_threads, kept by triggers, agrees with the rows it replaces a scan of."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import memory_core
from memory_core import MemoryStore

# What the people lines read before m012: one scan of the author's active level-0 rows.
SCAN = ("SELECT author, count(DISTINCT thread), count(*), min(coalesce(event_at, created_at)), "
        "max(coalesce(event_at, created_at)) FROM memories WHERE author IS NOT NULL AND status = 'active' "
        "AND level = 0 GROUP BY author ORDER BY author")
TABLE = ("SELECT author, coalesce(sum(thread != ''), 0), sum(active), min(first_at), max(last_at) "
         "FROM memory_author_threads GROUP BY author ORDER BY author")


def _rows(conn: object, sql: str) -> list[tuple[object, ...]]:
    return [tuple(r) for r in conn.execute(sql)]  # type: ignore[attr-defined]


def _at(day: int) -> datetime:
    return datetime(2025, 3, day, 12, 0, tzinfo=timezone.utc)


def test_table_follows_inserts_forgets_and_restores(tmp_path: Path) -> None:
    s = MemoryStore(tmp_path / "m.db")
    ids = [s.store(f"message {i} about the garden", "episodic", author=a, thread=t, event_at=_at(d)).id
           for i, (a, t, d) in enumerate([("Ana", "chat-1", 3), ("Ana", "chat-1", 5), ("Ana", "chat-2", 9),
                                          ("Bo", "chat-1", 4), ("Bo", None, 7), ("Cy", None, 2)])]
    conn = s.conn
    assert _rows(conn, TABLE) == _rows(conn, SCAN)
    s.forget(ids[2])  # Ana's only chat-2 memory: the pair goes, and its dates with it
    s.forget(ids[5])  # Cy has nothing active left
    assert _rows(conn, TABLE) == _rows(conn, SCAN)
    assert [r[0] for r in _rows(conn, TABLE)] == ["Ana", "Bo"]
    s.restore(ids[2])
    s.restore(ids[5])
    assert _rows(conn, TABLE) == _rows(conn, SCAN)
    # a forgotten memory inside a pair that keeps others: counts exact, its date may stay (documented)
    s.forget(ids[1])
    ana = _rows(conn, TABLE)[0]
    assert ana[:3] == ("Ana", 2, 2) and ana[3].startswith("2025-03-03") and ana[4].startswith("2025-03-09")
    s.close()


def test_migration_fills_the_table_from_existing_rows(tmp_path: Path) -> None:
    s = MemoryStore(tmp_path / "m.db")
    for i, (a, t) in enumerate([("Ana", "c1"), ("Ana", "c2"), ("Bo", "c1"), ("Bo", None)]):
        s.store(f"turn {i}", "episodic", author=a, thread=t, event_at=_at(i + 1))
    conn = s.conn
    # back to the file m011 left: its author and full-hash indexes, no table, no triggers
    for trigger in ("ai", "ad", "au"):
        conn.execute(f"DROP TRIGGER memory_author_threads_{trigger}")
    conn.execute("DROP TABLE memory_author_threads")
    conn.execute("DROP INDEX memories_hash16")
    conn.execute("CREATE INDEX memories_hash ON memories(content_hash)")
    conn.execute("CREATE INDEX memories_author ON memories(author, status, level, thread, "
                 "coalesce(event_at, created_at)) WHERE author IS NOT NULL")
    conn.execute("DELETE FROM _mem_migrations WHERE name = 'm012_people_threads'")
    conn.commit()
    s.close()
    conn = memory_core.connect(tmp_path / "m.db")
    assert memory_core.migrate(conn) == ["m012_people_threads"]
    indexes = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert "memories_hash16" in indexes and not {"memories_hash", "memories_author"} & indexes
    assert _rows(conn, TABLE) == _rows(conn, SCAN)
    # the duplicate check still finds an exact copy through the 16-digit index
    plan = " ".join(str(tuple(r)) for r in conn.execute(
        "EXPLAIN QUERY PLAN SELECT id FROM memories WHERE substr(content_hash, 1, 16) = ? AND content_hash = ?",
        ("ab", "ab")))
    assert "memories_hash16" in plan
    conn.close()


def test_exact_duplicate_still_merged(tmp_path: Path) -> None:
    s = MemoryStore(tmp_path / "m.db")
    first = s.store("Oscar prefers  morning meetings")
    again = s.store("Oscar prefers morning meetings")
    assert again.id == first.id and again.deduplicated
    s.close()
