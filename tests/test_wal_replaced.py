"""A server letting go of a replaced file empties the old file's log even while a checkpoint holds it a moment.

tests/test_transport_wal.py::test_a_file_replaced_under_the_server_is_reopened[server] failed once under load:
the server's own checkpointer (memengine/walcheckpoint.py) looked at the path, found the file it opened, and
started a checkpoint of that file's log; the file was replaced meanwhile and the next call, reopening it, ran
its ``TRUNCATE`` checkpoint of the old log (``storewatch.empty_old_log``) while that checkpoint held SQLite's
checkpoint lock: ``busy`` at once (SQLite never waits for that lock), and the call was refused as if another
process still used the old file. Here another connection's checkpoint holds the lock for 0.3 s, as any
process's checkpoint of the old file can (real files, a real SQLite lock): the log must still be emptied.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import memory_core as core
from memengine import storewatch
from memengine.db import connect
from memengine.errors import Busy


def _filled(db: Path) -> None:
    s = core.MemoryStore(db)
    try:
        for i in range(20):
            s.store(f"note {i}: the garden gate code is {1000 + i}", dedup=False)
    finally:
        s.close()


def test_the_old_log_is_emptied_though_another_checkpoint_holds_it_a_moment(tmp_path: Path) -> None:
    db = tmp_path / "served.db"
    _filled(db)
    server = connect(db)  # the server's store connection (its automatic checkpoint off, as a server's is)
    server.execute("PRAGMA wal_autocheckpoint = 0")
    server.execute("INSERT OR REPLACE INTO _mem_meta(key, value) VALUES ('probe', 'written by the server')")
    assert Path(f"{db}-wal").stat().st_size > 0
    reader = connect(db)  # a reader of the moment that makes the other checkpoint wait (and hold its lock)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM memories").fetchone()
    other = core.sqlite3.connect(str(db), isolation_level=None, check_same_thread=False)
    other.execute("PRAGMA busy_timeout = 5000")
    started, result = threading.Event(), []

    def checkpoint() -> None:
        started.set()
        result.append(other.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone())

    t = threading.Thread(target=checkpoint)
    t.start()
    started.wait()
    time.sleep(0.2)  # (it holds the checkpoint lock now, waiting for the reader)
    copy = tmp_path / "copy.db"
    copy.write_bytes(b"")
    os.replace(copy, db)  # a backup put back: the connections above keep the old file
    threading.Timer(0.3, lambda: reader.execute("COMMIT")).start()
    try:
        storewatch.empty_old_log(db, server)  # (raised Busy at once before)
    except Busy as exc:
        raise AssertionError(f"refused while another checkpoint held the old log a moment: {exc}") from exc
    finally:
        t.join(timeout=30)
    assert result and result[0][0] == 0
    assert Path(f"{db}-wal").stat().st_size == 0
    for c in (server, reader, other):
        c.close()


def test_the_old_log_held_by_a_reader_for_long_is_still_refused(tmp_path: Path) -> None:
    """A reader that keeps the old log past the wait: the call is refused (``Busy``) and nothing is lost."""
    db = tmp_path / "served.db"
    _filled(db)
    server = connect(db)
    server.execute("PRAGMA wal_autocheckpoint = 0")
    server.execute("INSERT OR REPLACE INTO _mem_meta(key, value) VALUES ('probe', 'written by the server')")
    reader = connect(db)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM memories").fetchone()
    (tmp_path / "copy.db").write_bytes(b"")
    os.replace(tmp_path / "copy.db", db)
    server.execute(f"PRAGMA busy_timeout = {200}")
    t0 = time.monotonic()
    try:
        storewatch.empty_old_log(db, server)
        raise AssertionError("emptied a log a reader still used")
    except Busy:
        pass
    assert time.monotonic() - t0 < 60  # (bounded: the call is refused, not hung)
    assert Path(f"{db}-wal").stat().st_size > 0  # the old file's frames are still there for the reader
    reader.execute("COMMIT")
    storewatch.empty_old_log(db, server)  # the next call's try succeeds once the reader is gone
    assert Path(f"{db}-wal").stat().st_size == 0
    server.close()
    reader.close()
