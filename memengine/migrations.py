"""Schema migrations: ordered, named, frozen. Each runs once, in its own write transaction.

A migration's SQL is written out in memengine/migration_sql.py and never edited once released: a
store made by an earlier release replays exactly what a fresh one ran. ``schema.sql`` is the whole current
schema, for reading and for the test that checks migrating from m001 ends there
(tests/test_migrations.py). A schema change is a new migration at the end of MIGRATIONS
plus the same change in ``schema.sql``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from memengine import storeid
from memengine.db import conn_path, split_sql, write_tx
from memengine.errors import NewerSchema
from memengine.migration_sql import (  # the frozen texts (re-exported: tests and readers name them here)
    M001_SQL,
    M002_SQL,
    M005_VEC_TABLES,
    M006_FTS_SQL,
    M007_PEOPLE_SQL,
    M008_COUNTS_SQL,
    M009_SIGNPLANE_SQL,
    M010_SQL,
    M011_BRIEF_SQL,
    M012_PEOPLE_THREADS_SQL,
    M013_CONTRADICTS_SQL,
    M014_BRIEF_CACHE_SQL,
    M015_PEOPLE_FADED_SQL,
    M016_TIME_KIND_SQL,
)
from memengine.paths import data_file
from memengine.timeparse import to_iso, utcnow
from memengine.vectors import DIMS, VEC_PARAM, vec_blob, vectors_from_blobs

SCHEMA_PATH = data_file("schema.sql")  # documentation; no migration reads it
SCHEMA_VERSION = 1
# Rows kept in the change logs in-process copies catch up from (memengine.keyword_index for
# _keyword_changes, memengine.liveset for _status_changes); a reader further behind reloads.
KEYWORD_LOG_KEEP = 20_000
STATUS_LOG_KEEP = 20_000


def _run(conn: Any, script: str) -> None:
    for stmt in split_sql(script):
        conn.execute(stmt)


def _set_meta(conn: Any, key: str, value: str) -> None:
    conn.execute("INSERT OR REPLACE INTO _mem_meta(key, value) VALUES (?, ?)", (key, value))


def _bump(conn: Any, key: str) -> None:
    """Tell in-process copies (vector matrices, keyword indexes) to reload everything."""
    conn.execute(f"""INSERT INTO _mem_meta(key, value) VALUES ('{key}', '1')
                     ON CONFLICT(key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)""")


def _m001_initial(conn: Any) -> None:
    _run(conn, M001_SQL)
    _set_meta(conn, "schema_version", str(SCHEMA_VERSION))
    _set_meta(conn, "created_at", to_iso(utcnow()) or "")
    _set_meta(conn, "dims", str(DIMS))


def _m002_sharing(conn: Any) -> None:
    _run(conn, M002_SQL)


def change_log(table: str, keep: int, events: dict[str, str]) -> list[str]:
    """A log of memory ids that triggers on ``memories`` fill, for in-process copies to catch up from.

    ``events``: trigger name suffix -> trigger event ("INSERT", "DELETE", "UPDATE OF ...");
    each logs the row's id. Trimmed by its own trigger to the last ``keep`` entries; a
    reader further behind reloads everything.
    """
    stmts = [f"CREATE TABLE {table} (seq INTEGER PRIMARY KEY AUTOINCREMENT, memory_id INTEGER NOT NULL)"]
    for suffix, event in events.items():
        row = "old" if event == "DELETE" else "new"
        stmts.append(f"""CREATE TRIGGER {table}_{suffix} AFTER {event} ON memories BEGIN
        INSERT INTO {table}(memory_id) VALUES ({row}.id);
    END""")
    stmts.append(f"""CREATE TRIGGER {table}_trim AFTER INSERT ON {table} WHEN new.seq % 1000 = 0 BEGIN
        DELETE FROM {table} WHERE seq <= new.seq - {keep};
    END""")
    return stmts


def _m003_keyword_log(conn: Any) -> None:
    # one row per memory whose keyword-indexed text appeared, changed or went away
    for stmt in change_log("_keyword_changes", KEYWORD_LOG_KEEP, {
            "ai": "INSERT", "ad": "DELETE", "au": "UPDATE OF content, tags, date_terms, context, context_far"}):
        conn.execute(stmt)


def _m004_status_log(conn: Any) -> None:
    # the log an in-process LiveSet catches up from (memengine/liveset.py: why)
    for stmt in change_log("_status_changes", STATUS_LOG_KEEP, {
            "au": "UPDATE OF status, level, source, valid_to", "ad": "DELETE"}):
        conn.execute(stmt)


def _m005_int8_vectors(conn: Any) -> None:
    """Both vector tables from float32 to int8: 1,152 bytes less per vector.

    Lossy but harmless: cosine to the float vector ≥ 0.9999, and ``mem.py reindex``
    re-embeds from the text. Rows are copied through a temp table, so memory stays flat;
    one transaction, so a crash leaves the float tables as they were.
    """
    copied = 0
    for table, create in M005_VEC_TABLES.items():
        row = conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", (table,)).fetchone()
        if row is None or "int8[" in row[0]:
            continue  # a file made by a schema.sql that had int8 already
        n = int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
        if n >= 20_000:  # ~2 s per 10k rows: say why the first command waits
            print(f"mem: storing {n:,} vectors of {table} as int8 (once; 4x smaller; "
                  "`mem.py compact` then gives the space back)", file=sys.stderr)
        conn.execute("DROP TABLE IF EXISTS temp._vec_copy")
        conn.execute(f"CREATE TEMP TABLE _vec_copy AS SELECT memory_id, embedding FROM {table}")
        conn.execute(f"DROP TABLE {table}")
        conn.execute(create)
        cur = conn.execute("SELECT memory_id, embedding FROM temp._vec_copy ORDER BY memory_id")
        while batch := cur.fetchmany(2000):
            mat = vectors_from_blobs([r[1] for r in batch])
            conn.executemany(f"INSERT INTO {table}(memory_id, embedding) VALUES (?, {VEC_PARAM})",
                             [(int(r[0]), vec_blob(v)) for r, v in zip(batch, mat)])
        conn.execute("DROP TABLE temp._vec_copy")
        copied += n
    if copied:  # warm processes hold the old vectors in memory: make them reload
        _bump(conn, "vectors_generation")


def _m006_context_far(conn: Any) -> None:
    """What schema.sql gained without a migration: the ``context_far`` column in the keyword
    index (2c633b6), and no ``vec_memories_bit`` (acf6bda dropped it; nothing reads it).

    The keyword index is rebuilt from the rows; ``context_far`` starts empty and fills as
    conversations get new turns (``mem.py reindex`` recomputes every context at once).
    """
    conn.execute("DROP TABLE IF EXISTS vec_memories_bit")
    if "context_far" in {r[1] for r in conn.execute("PRAGMA table_info(memories)")}:
        return  # made by a schema.sql that had it
    conn.execute("ALTER TABLE memories ADD COLUMN context_far TEXT NOT NULL DEFAULT ''")
    for trigger in ("memories_ai", "memories_ad", "memories_au"):
        conn.execute(f"DROP TRIGGER {trigger}")
    conn.execute("DROP TABLE memories_fts")
    _run(conn, M006_FTS_SQL)
    if conn.execute("SELECT 1 FROM memories LIMIT 1").fetchone():
        conn.execute("INSERT INTO memories_fts(memories_fts) VALUES ('rebuild')")
        _bump(conn, "keywords_generation")  # in-process keyword indexes cannot follow a rebuild


def _m007_people(conn: Any) -> None:
    """The people list cached in the database (``memory_authors``), filled from the rows once."""
    _run(conn, M007_PEOPLE_SQL)
    conn.execute("INSERT INTO memory_authors(author, active) SELECT author, count(*) FROM memories "
                 "WHERE author IS NOT NULL AND status = 'active' GROUP BY author")


def _m008_counts(conn: Any) -> None:
    """The counters ``stats`` reads (``_mem_counts``), filled from the rows once."""
    _run(conn, M008_COUNTS_SQL)
    conn.execute("INSERT INTO _mem_counts(what, status, memory_type, n) SELECT 'memories', status, memory_type, "
                 "count(*) FROM memories GROUP BY status, memory_type")
    conn.execute("INSERT INTO _mem_counts(what, n) SELECT 'associations', count(*) FROM associations")


def _m010_derived_context(conn: Any) -> None:
    """Neighbour text derived by a view instead of stored in every row (M010_SQL says how).

    The keyword index is rebuilt from the view (same text: the view computes what
    ``refresh_context`` stored; a turn forgotten since then no longer shows in its
    neighbours' context). The file keeps its size until ``mem.py compact``.
    """
    n = int(conn.execute("SELECT count(*) FROM memories").fetchone()[0])
    if n >= 20_000:  # ~0.3 ms per row: say why the first command waits
        print(f"mem: re-indexing {n:,} memories without stored neighbour text (once; "
              "`mem.py compact` then gives ~1 KB per chat turn back)", file=sys.stderr)
    _run(conn, M010_SQL)
    if n:
        conn.execute("INSERT INTO memories_fts(memories_fts) VALUES ('rebuild')")
        _bump(conn, "keywords_generation")  # in-process keyword indexes cannot follow a rebuild


def _m009_signplane(conn: Any) -> None:
    """The stored sign plane of both vector tables, filled from the vectors once."""
    from memengine import signplane

    _run(conn, M009_SIGNPLANE_SQL)
    n = int(conn.execute("SELECT max(id) FROM memories").fetchone()[0] or 0)
    if n >= 20_000:  # ~3 s of CPU per 100k vectors: say why the first command waits
        print("mem: storing the sign plane of the vectors (once; 48 bytes a vector)", file=sys.stderr)
    for table in signplane.SIGN_TABLES:
        signplane.rebuild(conn, table)


def _m011_brief(conn: Any) -> None:
    """The brief's indexes (M011_BRIEF_SQL): built once from the rows."""
    n = int(conn.execute("SELECT count(*) FROM memories").fetchone()[0])
    if n >= 200_000:  # ~4 s per million rows: say why the first command waits
        print(f"mem: indexing {n:,} memories for the session-start brief (once)", file=sys.stderr)
    _run(conn, M011_BRIEF_SQL)


def _m012_people_threads(conn: Any) -> None:
    """The people lines' (author, thread) table and the 16-digit hash index (M012_PEOPLE_THREADS_SQL)."""
    _run(conn, M012_PEOPLE_THREADS_SQL)
    conn.execute("""INSERT INTO memory_author_threads(author, thread, active, first_at, last_at)
                    SELECT author, coalesce(thread, ''), count(*), min(coalesce(event_at, created_at)),
                           max(coalesce(event_at, created_at))
                    FROM memories WHERE author IS NOT NULL AND status = 'active' AND level = 0
                    GROUP BY author, coalesce(thread, '')""")




def _m013_contradicts(conn: Any) -> None:
    """The partial index of contradiction edges (M013_CONTRADICTS_SQL)."""
    _run(conn, M013_CONTRADICTS_SQL)


def _m014_brief_cache(conn: Any) -> None:
    """The write counter and the kept briefs (M014_BRIEF_CACHE_SQL; memengine/briefcache.py): empty, nothing to fill."""
    _run(conn, M014_BRIEF_CACHE_SQL)


def _m015_people_faded(conn: Any) -> None:
    """The archived rows' (author, thread) table (M015_PEOPLE_FADED_SQL), filled once from the rows (the only scan of
    the archived rows: the triggers keep it from then on)."""
    _run(conn, M015_PEOPLE_FADED_SQL)
    conn.execute("""INSERT INTO memory_author_threads_faded(author, thread, archived, first_at, last_at)
                    SELECT author, coalesce(thread, ''), count(*), min(coalesce(event_at, created_at)),
                           max(coalesce(event_at, created_at))
                    FROM memories WHERE author IS NOT NULL AND status = 'archived' AND level = 0
                    GROUP BY author, coalesce(thread, '')""")


# The importers whose every record carries a wall clock without a zone (importers.Record: "naive local"), frozen
# as m016 found them: their rows' event_at is a floating wall clock. The importers that write either, by layout
# (Telegram's JSON carries epoch seconds, its HTML does not; Signal, Messenger, Discord, Matrix, WeChat, Markdown),
# keep 'utc' in a store written before m016: what every reader assumed until then (only a fresh store re-reads them).
M016_FLOATING_SOURCES = ("whatsapp", "imazing", "imessage", "kakaotalk", "line", "threema", "viber", "vk", "zoom")


def _m016_time_kind(conn: Any) -> None:
    """What kind of time each row's ``event_at`` holds (M016_TIME_KIND_SQL; memengine/timekind.py), from its source:
    a zone-less chat importer's rows are 'floating'; any other row whose event_at is a midnight to the second is
    'day' (``store --at 2025-03-01`` wrote the day as given, a note importer a date without a time; a moment
    falls on 00:00:00 UTC once in 86,400); every other row stays 'utc'. No trigger reads the column: nothing is
    re-indexed."""
    _run(conn, M016_TIME_KIND_SQL)
    marks = ",".join("?" * len(M016_FLOATING_SOURCES))
    conn.execute(f"UPDATE memories SET time_kind = 'floating' WHERE event_at IS NOT NULL AND source IN ({marks})",
                 M016_FLOATING_SOURCES)
    conn.execute("UPDATE memories SET time_kind = 'day' WHERE time_kind = 'utc' AND event_at LIKE '%T00:00:00'")


# Ordered, named, never edited once released; each runs in its own transaction.
MIGRATIONS: list[tuple[str, Callable[[Any], None]]] = [
    ("m001_initial", _m001_initial),
    ("m002_sharing", _m002_sharing),
    ("m003_keyword_log", _m003_keyword_log),
    ("m004_status_log", _m004_status_log),
    ("m005_int8_vectors", _m005_int8_vectors),
    ("m006_context_far", _m006_context_far),
    ("m007_people", _m007_people),
    ("m008_counts", _m008_counts),
    ("m009_signplane", _m009_signplane),
    ("m010_derived_context", _m010_derived_context),
    ("m011_brief", _m011_brief),
    ("m012_people_threads", _m012_people_threads),
    ("m013_contradicts", _m013_contradicts),
    ("m014_brief_cache", _m014_brief_cache),
    ("m015_people_faded", _m015_people_faded),
    ("m016_time_kind", _m016_time_kind),
]


def migrate(conn: Any, upto: str | None = None,
            before_upgrade: Callable[[Any, list[str]], None] | None = None) -> list[str]:
    """Apply pending migrations (through ``upto`` only, if given: for tests); return the names applied.

    ``before_upgrade(conn, pending)``: called once before the first migration of a file that had some already
    (an upgrade, not a new file), inside that migration's write transaction and only if no other process
    migrated it meanwhile — the moment to keep a copy of the file as it was (memengine.backup.before_upgrade)."""
    known = {name for name, _ in MIGRATIONS}
    has_table = conn.execute("SELECT 1 FROM sqlite_master WHERE name = '_mem_migrations'").fetchone()
    if not has_table:  # (only a new file; a read-only one fails here with ReadOnly, as it should)
        with write_tx(conn):
            conn.execute("CREATE TABLE IF NOT EXISTS _mem_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
    done = {r[0] for r in conn.execute("SELECT name FROM _mem_migrations")}
    newer = sorted(done - known)
    if newer:
        path = conn_path(conn)
        raise NewerSchema(f"{path}: written by a newer mem (unknown migrations: {', '.join(newer)}); "
                          "upgrade mem to use it — this version could misread it")
    applied: list[str] = []
    for name, fn in MIGRATIONS:
        if name not in done:
            with write_tx(conn):
                # re-check inside the lock: another process may have migrated meanwhile
                if not conn.execute("SELECT 1 FROM _mem_migrations WHERE name = ?", (name,)).fetchone():
                    if before_upgrade is not None and has_table and done and not applied:
                        now_done = {r[0] for r in conn.execute("SELECT name FROM _mem_migrations")}
                        if now_done == done:  # (else another process upgraded first, and kept the copy)
                            before_upgrade(conn, [n for n, _ in MIGRATIONS if n not in done])
                    fn(conn)
                    conn.execute("INSERT INTO _mem_migrations(name, applied_at) VALUES (?, ?)",
                                 (name, to_iso(utcnow())))
                    applied.append(name)
        if name == upto:
            break
    if not has_table and not upto:  # a new file: its own id, made once (memengine.storeid)
        with write_tx(conn):
            storeid.put_new(conn)
    return applied
