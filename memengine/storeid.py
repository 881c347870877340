"""A store's own id: what names its memories in its exports (``origin: <store id>:<memory id>``).

A memory's text, source, type and second of storing do not identify it: two people each store "standup
moved to 10:00" at the same second. Its id does, within its store; the store id says which store. It is
made when a file is created (memengine.migrations.migrate), so a copy of the file (a backup, a restore,
``cp``) carries it with the memories whose ids it names; a store made before serve13 gets one at its first
export. A copied file that diverged has one id for two histories: the importer compares the text of the
memory the origin names too (memengine.jsonl_import).
"""

from __future__ import annotations

import os
import re
from typing import Any

from memengine.db import sqlite3, write_tx
from memengine.errors import MemError

STORE_ID_KEY = "store_id"  # in _mem_meta
STORE_ID_RE = re.compile(r"[0-9a-f]{16}")


def new_store_id() -> str:
    """A fresh random id (64 bits: two stores of one user never meet the same one). ``os.urandom``, not
    ``secrets``: every process opening a store imports this module, and ``secrets`` pulls in base64, hmac and
    struct (~1-7 ms of a cold call)."""
    return os.urandom(8).hex()


def get(conn: Any) -> str | None:
    """This store's id, None if it has none yet (a store made before serve13 that never exported)."""
    row = conn.execute("SELECT value FROM _mem_meta WHERE key = ?", (STORE_ID_KEY,)).fetchone()
    return str(row[0]) if row and STORE_ID_RE.fullmatch(str(row[0])) else None


def put_new(conn: Any) -> None:
    """Inside the caller's write transaction: give a store without an id one (a no-op otherwise)."""
    conn.execute("INSERT OR IGNORE INTO _mem_meta(key, value) VALUES (?, ?)", (STORE_ID_KEY, new_store_id()))


def ensure(conn: Any) -> str | None:
    """This store's id, made now if it has none; None when the file cannot be written (a read-only mount:
    its export then names no origin, and imports of it fall back to the text and the time of storing)."""
    sid = get(conn)
    if sid is not None:
        return sid
    try:
        with write_tx(conn):
            put_new(conn)
    except (MemError, sqlite3.Error):
        return None
    return get(conn)
