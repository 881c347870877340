"""Migrations are frozen, and replaying them from the first release ends at schema.sql.

A store made by the first release (m001 only: float vectors, no ``context_far``, a
``vec_memories_bit`` table) is migrated and compared, object by object and column by
column, with a fresh store and with ``schema.sql`` applied to an empty database.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import numpy as np

import memory_core
from memengine import migrations
from memengine.db import connect, split_sql

# sha256 (first 16 hex digits) of each frozen migration text: a released migration is never
# edited; a schema change is a new migration (and the same change in schema.sql)
FROZEN = {"M001_SQL": "2d81fde6879774d4", "M002_SQL": "0731a9e83f155250", "M005_VEC_TABLES": "1a74780ed0d46beb",
          "M006_FTS_SQL": "0729bcd22ca3aa69", "M010_SQL": "964b660c35a03cef"}


def _norm(sql: str | None) -> str:
    """SQL text without comments, IF NOT EXISTS and layout (ALTER TABLE ADD COLUMN re-flows it)."""
    text = re.sub(r"--[^\n]*", " ", sql or "")
    text = re.sub(r"\bIF NOT EXISTS\b", " ", text)
    text = re.sub(r"\s+", " ", text)
    return re.sub(r"\s*([(),;])\s*", r"\1", text).strip()


def schema_of(conn) -> dict[str, object]:
    """Every table, index, trigger and view (normalised SQL) and every table's columns."""
    out: dict[str, object] = {}
    for kind, name, table, sql in conn.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name"):
        out[f"{kind} {name}"] = (table, _norm(sql))
        if kind == "table":
            out[f"columns {name}"] = [tuple(r) for r in conn.execute(f"PRAGMA table_xinfo('{name}')")]
    return out


def test_first_release_store_migrates_to_the_current_schema(tmp_path: Path) -> None:
    old = connect(tmp_path / "old.db")
    assert migrations.migrate(old, upto="m001_initial") == ["m001_initial"]
    tables = {r[0] for r in old.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "vec_memories_bit" in tables
    assert "context_far" not in {r[1] for r in old.execute("PRAGMA table_info(memories)")}
    # a memory as the first release wrote it: float32 vector, keyword context
    old.execute("""INSERT INTO memories(id, content, content_hash, created_at, updated_at, context)
                   VALUES (1, 'the heron nests by the river', 'h1', '2024-01-01T00:00:00', '2024-01-01T00:00:00',
                           'kingfisher')""")
    vec = np.zeros(384, dtype=np.float32)
    vec[:3] = (0.6, 0.0, 0.8)
    old.execute("INSERT INTO vec_memories(memory_id, embedding) VALUES (1, ?)", (vec.tobytes(),))
    old.close()

    store = memory_core.MemoryStore(tmp_path / "old.db")  # opening migrates
    fresh = memory_core.MemoryStore(tmp_path / "fresh.db")
    blank = connect(tmp_path / "blank.db")
    for stmt in split_sql(memory_core.SCHEMA_PATH.read_text(encoding="utf-8")):
        blank.execute(stmt)
    migrated = schema_of(store.conn)
    assert migrated == schema_of(fresh.conn)
    assert migrated == schema_of(blank)
    assert [r[0] for r in store.conn.execute("SELECT name FROM _mem_migrations ORDER BY name")] == \
        [name for name, _ in migrations.MIGRATIONS]

    # the data came along: keyword index rebuilt, vector now int8; the stored neighbour text
    # is gone (m010 derives it from a thread's rows: this note has none)
    hits = store.conn.execute("SELECT rowid FROM memories_fts WHERE memories_fts MATCH 'heron'").fetchall()
    assert [r[0] for r in hits] == [1]
    assert not store.conn.execute("SELECT rowid FROM memories_fts WHERE memories_fts MATCH 'kingfisher'").fetchall()
    assert tuple(store.conn.execute("SELECT context, context_far FROM memories WHERE id = 1").fetchone()) == ("", "")
    blob = store.conn.execute("SELECT embedding FROM vec_memories WHERE memory_id = 1").fetchone()[0]
    assert np.frombuffer(blob, dtype=np.int8)[:3].tolist() == [95, 0, 127]
    # the keyword index was rebuilt twice (m006's new column, m010's view), the vectors converted once
    assert store.meta("keywords_generation") == "2" and store.meta("vectors_generation") == "1"
    # a fresh store had nothing to rebuild or convert: no reload signals
    assert fresh.meta("keywords_generation") is None and fresh.meta("vectors_generation") is None
    store.close()
    fresh.close()


def test_migrations_are_frozen() -> None:
    texts = {"M001_SQL": migrations.M001_SQL, "M002_SQL": migrations.M002_SQL,
             "M005_VEC_TABLES": "\n".join(migrations.M005_VEC_TABLES.values()), "M006_FTS_SQL": migrations.M006_FTS_SQL,
             "M010_SQL": migrations.M010_SQL}
    got = {k: hashlib.sha256(v.encode()).hexdigest()[:16] for k, v in texts.items()}
    assert got == FROZEN


def test_m001_is_the_first_release_schema() -> None:
    # the first release's memories table had no context_far; its vectors were float32
    assert "context_far" not in migrations.M001_SQL
    assert migrations.M001_SQL.count("float[384]") == 2 and "bit[384]" in migrations.M001_SQL
