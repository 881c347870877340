"""Opening a new file while another process holds its write lock (the switch to WAL)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from memengine import db as mdb


def test_the_switch_to_wal_waits_for_another_connection_s_write_lock(tmp_path: Path) -> None:
    """SQLite refuses a journal_mode change at once (no busy_timeout) while another connection
    holds the write lock: six processes opening a new file together lost that race under load."""
    path = tmp_path / "fresh.db"
    path.touch()
    holder = mdb.sqlite3.connect(str(path), isolation_level=None, timeout=10.0, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")  # a rollback-mode write lock, as a racing process switching to WAL holds it
    releasing = threading.Event()

    def release() -> None:
        time.sleep(0.3)
        # set before the commit: set after it, the opener could take the freed lock and return before this
        # thread ran again (a loaded machine), and a correct wait would fail the test
        releasing.set()
        holder.execute("COMMIT")

    threading.Thread(target=release).start()
    conn = mdb.connect(path)  # waits for the lock instead of failing with "database is busy"
    try:
        assert releasing.is_set()  # it returned only once the lock was being let go
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        conn.close()
        holder.close()
