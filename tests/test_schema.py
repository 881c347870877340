"""The first migration builds the whole schema; connections get our pragmas."""

from __future__ import annotations

import stat
from pathlib import Path

import memory_core


def _names(conn, kind: str) -> set[str]:
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = ?", (kind,))}


def test_blank_db_migrates_to_full_schema(db_path: Path) -> None:
    conn = memory_core.connect(db_path)
    assert memory_core.migrate(conn) == ["m001_initial", "m002_sharing", "m003_keyword_log", "m004_status_log"]
    assert memory_core.migrate(conn) == []  # idempotent
    tables = _names(conn, "table")
    for t in ("memories", "memories_fts", "vec_memories", "vec_contexts", "associations",
              "clusters", "cluster_members", "contradictions", "shared_memories", "aliases", "_mem_meta",
              "_mem_migrations", "_keyword_changes", "_status_changes"):
        assert t in tables, t
    assert {"memories_ai", "memories_ad", "memories_au", "_keyword_changes_ai", "_keyword_changes_ad",
            "_keyword_changes_au", "_keyword_changes_trim", "_status_changes_au", "_status_changes_ad",
            "_status_changes_trim"} <= _names(conn, "trigger")
    assert "accessible_shared" in _names(conn, "view")
    assert {"memories_source_ref", "memories_hash", "memories_event_at"} <= _names(conn, "index")
    cols = {r[1] for r in conn.execute("PRAGMA table_info(memories)")}
    assert {"id", "content", "memory_type", "source", "ref", "content_hash", "importance", "strength",
            "access_count", "created_at", "event_at", "last_accessed_at", "updated_at", "valid_from", "valid_to",
            "status", "level", "metadata", "tags"} <= cols
    edge_cols = {r[1] for r in conn.execute("PRAGMA table_info(associations)")}
    assert {"source_id", "target_id", "edge_type", "weight", "created_at"} <= edge_cols
    meta = dict(conn.execute("SELECT key, value FROM _mem_meta").fetchall())
    assert meta["schema_version"] == "1" and meta["dims"] == "384"


def test_pragmas_and_private_file(db_path: Path) -> None:
    conn = memory_core.connect(db_path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] >= 5000
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    assert conn.execute("PRAGMA recursive_triggers").fetchone()[0] == 1
    assert stat.S_IMODE(db_path.stat().st_mode) == 0o600


def test_driver_loads_extensions(db_path: Path) -> None:
    conn = memory_core.connect(db_path)
    assert conn.execute("SELECT vec_version()").fetchone()[0].startswith("v")
    assert memory_core.sqlite3.__name__ == "sqlean"


def test_edge_types_and_uniqueness_enforced(store) -> None:
    a = store.store("alpha fact", "semantic").id
    b = store.store("beta fact entirely different", "semantic").id
    c = store.conn
    c.execute("INSERT INTO associations(source_id, target_id, edge_type, weight, created_at) VALUES (?,?,?,?,?)",
              (a, b, "causal", 0.9, "2024-01-01T00:00:00"))
    import pytest

    with pytest.raises(Exception, match="UNIQUE"):
        c.execute("INSERT INTO associations(source_id, target_id, edge_type, weight, created_at) VALUES (?,?,?,?,?)",
                  (a, b, "causal", 0.5, "2024-01-01T00:00:00"))
    with pytest.raises(Exception, match="CHECK"):
        c.execute("INSERT INTO associations(source_id, target_id, edge_type, weight, created_at) VALUES (?,?,?,?,?)",
                  (a, b, "likes", 0.5, "2024-01-01T00:00:00"))


def test_shared_view_excludes_episodic(store) -> None:
    import pytest

    ep = store.store("I went to the dentist", "episodic").id
    insert = ("INSERT INTO shared_memories(offer_id, direction, partner, memory_id, content, memory_type, content_hash,"
              " sensitivity, consent_a, consent_b, status, created_at) VALUES ('o1','outgoing','max',?,?,?,'h',0.1,"
              "'2024','2024','approved','2024')")
    with pytest.raises(Exception, match="CHECK|episodic|offer"):
        store.conn.execute(insert, (ep, "I went to the dentist", "episodic"))
    # a row that claims to be semantic but points at an episodic memory is refused by the guard trigger
    with pytest.raises(Exception, match="episodic|offer"):
        store.conn.execute(insert, (ep, "I went to the dentist", "semantic"))
    assert store.conn.execute("SELECT count(*) FROM accessible_shared").fetchone()[0] == 0
    # and even with the guards dropped, the view itself still hides it
    for trig in ("shared_memories_guard_bi", "shared_memories_offer_bi"):
        store.conn.execute(f"DROP TRIGGER IF EXISTS {trig}")
    with pytest.raises(Exception, match="CHECK"):  # the CHECK is the last line of defence
        store.conn.execute(insert, (ep, "I went to the dentist", "episodic"))
    store.conn.execute(insert, (ep, "I went to the dentist", "semantic"))
    assert store.conn.execute("SELECT count(*) FROM shared_memories").fetchone()[0] == 1
    assert store.conn.execute("SELECT count(*) FROM accessible_shared").fetchone()[0] == 0
