"""Salvage a damaged memory file: every row SQLite can still read, into a new store.

Sits above the store (it builds one at the destination); ``mem.py recover`` and
``memory_core.recover_file`` call it. The page-level reading lives in memengine.dbfile.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memengine import dbfile, signplane
from memengine.db import connect, raw_connect, write_tx
from memengine.errors import UserError
from memengine.migrations import MIGRATIONS, migrate
from memengine.records import MEMORY_TYPES
from memengine.store import MemoryStore
from memengine.vectors import VEC_PARAM

# tables a recovered file rebuilds itself (FTS and vector shadow tables, change logs, migrations,
# the people list and threads and the stats counters its triggers fill, the sign plane of the vectors it copies)
_RECOVER_SKIP = ("memories_fts", "vec_", "_keyword_changes", "_status_changes", "_mem_migrations",
                 "memory_authors", "memory_author_threads", "_mem_counts", "sign_")


def recover_file(src: Path | str, dest: Path | str) -> dict[str, Any]:
    """Salvage every row SQLite can read from a damaged ``src`` into a new store at ``dest``.

    ``src`` is opened read-only and never written. Rows are copied table by table over
    the current schema (stepping over unreadable pages), vectors as far as they read;
    the keyword index is rebuilt by the triggers. ``mem.py --db DEST doctor --fix`` then
    embeds whatever vectors were lost.
    """
    src, dest = Path(src), Path(dest)
    if dest.exists():
        raise UserError(f"{dest}: already exists (choose a new file name)")
    if not dest.parent.exists():
        raise UserError(f"{dest}: folder {dest.parent} does not exist")
    if not src.is_file():
        raise UserError(f"{src}: no such file")

    def make_dest(p: Path) -> Any:
        conn = connect(p, create_parents=False)
        migrate(conn)
        return conn

    res = dbfile.recover(src, dest, raw_connect, make_dest, lambda t: t.startswith(_RECOVER_SKIP),
                         raw_rows={"memories": _plausible_memory})
    # (users34) a file a newer mem wrote is copied into this version's schema: what its newer migrations added is
    # not in the copy — said, since every other command refuses such a file (exit 11 "upgrade mem")
    res["newer_migrations"] = _newer_migrations(src)
    res["vectors"] = _recover_vectors(src, dest)
    store = MemoryStore(dest, embedder=None, fast_start=True)
    try:
        gaps = store.index_gaps()
        res["missing_vectors"] = len(gaps.get("missing_vectors", []))
        res["memories"] = int(store.conn.execute("SELECT count(*) FROM memories").fetchone()[0])
    finally:
        store.close()
    return res


def _newer_migrations(src: Path) -> list[str]:
    """The migrations ``src`` had applied that this version does not know (a newer mem wrote it); [] if unreadable."""
    try:
        s = dbfile.open_read_only(src, raw_connect)
    except Exception:
        return []
    try:
        done = {str(r[0]) for r in s.execute("SELECT name FROM _mem_migrations")}
    except Exception:  # (a damaged file's table may not read: nothing to say then)
        return []
    finally:
        s.close()
    return sorted(done - {name for name, _ in MIGRATIONS})


def _plausible_memory(row: dict[str, Any]) -> bool:
    """A raw record that is a memories row (recovery from pages: rows of every table come mixed)."""
    h = row.get("content_hash")
    return (isinstance(row.get("content"), str) and bool(row["content"]) and row.get("memory_type") in MEMORY_TYPES
            and isinstance(h, str) and len(h) == 64 and isinstance(row.get("created_at"), str)
            and row.get("status") in ("active", "archived", "deleted"))


def _recover_vectors(src: Path, dest: Path) -> int:
    """Copy the vectors that still read; stop at the first unreadable stretch (reindex fills the rest)."""
    n = 0
    try:
        s = dbfile.open_read_only(src, raw_connect)
    except Exception:
        return 0
    out = connect(dest)
    try:
        ids = {int(r[0]) for r in out.execute("SELECT id FROM memories")}
        for table in ("vec_memories", "vec_contexts"):
            try:
                cur = s.execute(f"SELECT memory_id, embedding FROM {table}")
                while batch := cur.fetchmany(1000):
                    rows = [(int(r[0]), r[1]) for r in batch if int(r[0]) in ids]
                    with write_tx(out):
                        out.executemany(f"INSERT INTO {table}(memory_id, embedding) VALUES (?, {VEC_PARAM})", rows)
                        signplane.put(out, table, rows)
                    n += len(rows) if table == "vec_memories" else 0
            except Exception:
                continue
    finally:
        out.close()
        s.close()
    return n
