"""The first migration builds the whole schema; connections get our pragmas."""

from __future__ import annotations

import stat
from pathlib import Path

import memory_core
from memengine.vectors import vec_blob


def _names(conn, kind: str) -> set[str]:
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = ?", (kind,))}


def test_blank_db_migrates_to_full_schema(db_path: Path) -> None:
    conn = memory_core.connect(db_path)
    assert memory_core.migrate(conn) == ["m001_initial", "m002_sharing", "m003_keyword_log", "m004_status_log",
                                         "m005_int8_vectors", "m006_context_far", "m007_people", "m008_counts",
                                         "m009_signplane", "m010_derived_context", "m011_brief",
                                         "m012_people_threads", "m013_contradicts", "m014_brief_cache",
                                         "m015_people_faded", "m016_time_kind"]
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
    assert {"memories_source_ref", "memories_hash16", "memories_event_at"} <= _names(conn, "index")
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


def test_vectors_are_stored_as_int8_and_read_back_as_unit_vectors() -> None:
    import numpy as np

    rng = np.random.default_rng(7)
    vecs = rng.normal(size=(50, memory_core.DIMS)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    blobs = [vec_blob(v) for v in vecs]
    assert all(len(b) == memory_core.DIMS for b in blobs)  # a quarter of float32's bytes
    back = memory_core.vectors_from_blobs(blobs)
    assert back.dtype == np.float32 and back.shape == vecs.shape
    assert np.allclose(np.linalg.norm(back, axis=1), 1.0, atol=1e-6)
    assert (back * vecs).sum(axis=1).min() > 0.9999  # cosine to the float vector
    assert np.abs(np.frombuffer(blobs[0], dtype=np.int8)).max() == 127  # scaled to the full range
    # files from before m005 hold float32 rows: read the same way
    legacy = memory_core.vectors_from_blobs([v.tobytes() for v in vecs])
    assert np.allclose(legacy, vecs, atol=1e-6)
    zero = vec_blob(np.zeros(memory_core.DIMS, dtype=np.float32))
    assert zero == bytes(memory_core.DIMS) and not memory_core.vectors_from_blobs([zero]).any()


def test_m005_converts_float_vector_tables_to_int8(db_path: Path) -> None:
    with memory_core.MemoryStore(db_path) as s:
        ids = [s.store(f"note {w} about the {w} gateway", "semantic").id for w in ("alpha", "beta", "gamma", "delta")]
        s.store("Max: are you coming?", "episodic", author="Max", thread="t", position=0)
        s.store("Ana: yes, at nine", "episodic", author="Ana", thread="t", position=1)
        want = {t: s.vectors(ids + [5, 6], t) for t in ("vec_memories", "vec_contexts")}
        assert len(want["vec_contexts"]) == 2
    _as_before_m005(db_path, want)
    with memory_core.MemoryStore(db_path) as s:  # opening migrates
        for table, vecs in want.items():
            sql = s.conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0]
            assert "int8[384]" in sql
            got = s.vectors(list(vecs), table)
            assert got.keys() == vecs.keys()
            assert min(float(got[i] @ vecs[i]) for i in vecs) > 0.9999
        assert s.meta("vectors_generation") == "1"  # warm processes reload
        assert s.recall("gamma gateway", k=1, strategy="vector", touch=False).results[0].id == ids[2]
        assert s.doctor()["ok"]


def _as_before_m005(db_path: Path, want: dict) -> None:
    """Rebuild the vector tables as a file from before m005 has them: float32 rows."""
    conn = memory_core.connect(db_path)
    conn.execute("BEGIN IMMEDIATE")
    for table, vecs in want.items():
        conn.execute(f"DROP TABLE {table}")
        conn.execute(f"CREATE VIRTUAL TABLE {table} USING vec0(memory_id INTEGER PRIMARY KEY, "
                     "embedding float[384] distance_metric=cosine)")
        for mid, v in vecs.items():
            conn.execute(f"INSERT INTO {table}(memory_id, embedding) VALUES (?, ?)", (mid, v.tobytes()))
    conn.execute("DELETE FROM _mem_migrations WHERE name = 'm005_int8_vectors'")
    conn.execute("COMMIT")
    conn.close()


def test_compact_gives_the_pages_freed_by_the_migration_back(db_path: Path) -> None:
    import json

    from conftest import run_cli

    with memory_core.MemoryStore(db_path) as s:
        ids = [s.store(f"note {i}: server {i} runs job {i * 7} on rack {i % 13}", "semantic", dedup=False).id
               for i in range(600)]
        want = {"vec_memories": s.vectors(ids)}
    _as_before_m005(db_path, want)
    with memory_core.MemoryStore(db_path) as s:  # migrates: 600 vectors shrink 1,536 -> 384 bytes
        assert int(s.conn.execute("PRAGMA freelist_count").fetchone()[0]) > 0
    out = run_cli("--db", str(db_path), "--json", "compact")
    assert out.returncode == 0, out.stderr
    res = json.loads(out.stdout)["data"]
    assert res["free_pages_before"] > 0
    assert res["freed_bytes"] == res["bytes_before"] - res["bytes_after"] >= 600 * 1000
    wal = Path(str(db_path) + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0  # checkpointed and truncated
    with memory_core.MemoryStore(db_path) as s:
        assert int(s.conn.execute("PRAGMA freelist_count").fetchone()[0]) == 0
        assert s.doctor()["ok"]
        assert s.recall("server 42 rack", k=1, touch=False).results[0].id == ids[42]


def test_compact_waits_for_a_writer_then_fails_cleanly(db_path: Path) -> None:
    import json

    from conftest import run_cli

    with memory_core.MemoryStore(db_path) as s:
        s.store("a note that must survive", "semantic")
    holder = memory_core.connect(db_path)
    holder.execute("BEGIN IMMEDIATE")  # another process in the middle of a write
    try:
        out = run_cli("--db", str(db_path), "--json", "compact", timeout=60)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert out.returncode == 6, out.stderr  # LockedError, after busy_timeout
    err = json.loads(out.stdout)["error"]
    assert err["code"] == "locked" and "in use by another process" in err["message"]
    assert "Traceback" not in out.stderr
    with memory_core.MemoryStore(db_path) as s:
        assert [m.content for m in s.recall("note survive", k=1, touch=False).results] == ["a note that must survive"]
