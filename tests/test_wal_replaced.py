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

import fcntl
import json
import os
import struct
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

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


# Another process's TRUNCATE checkpoint of the file: it holds SQLite's checkpoint lock while it waits for a reader.
_CHECKPOINTER = """
import sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("PRAGMA busy_timeout = 120000")
print(list(c.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()), flush=True)
"""
_CKPT_LOCK = 120 + 1  # the checkpoint lock's byte in the -shm file (os_unix.c: UNIX_SHM_BASE + WAL_CKPT_LOCK)


def _checkpoint_lock_held(shm: int) -> bool:
    """Whether another process holds the checkpoint lock of the -shm file open as ``shm`` (fcntl locks: a process
    sees no lock of its own). The caller closes ``shm`` only after its own connections: closing any descriptor of
    a file drops every fcntl lock the process holds on it, its readers' too."""
    probe = struct.pack("hhqqi", fcntl.F_WRLCK, os.SEEK_SET, _CKPT_LOCK, 1, 0)
    return struct.unpack("hhqqi", fcntl.fcntl(shm, fcntl.F_GETLK, probe))[0] != fcntl.F_UNLCK


def test_the_old_log_is_emptied_though_another_checkpoint_holds_it_a_moment(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Deterministic: the other checkpoint is seen holding its lock (not assumed after a sleep), and it ends
    right after the call's first refused try (not after a timer a loaded machine can delay past the call's
    wait), so the call must try again and succeed."""
    db = tmp_path / "served.db"
    _filled(db)
    server = connect(db)  # the server's store connection (its automatic checkpoint off, as a server's is)
    server.execute("PRAGMA wal_autocheckpoint = 0")
    server.execute("INSERT OR REPLACE INTO _mem_meta(key, value) VALUES ('probe', 'written by the server')")
    assert Path(f"{db}-wal").stat().st_size > 0
    reader = connect(db)  # a reader of the moment that makes the other checkpoint wait (and hold its lock)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM memories").fetchone()
    shm = os.open(f"{db}-shm", os.O_RDONLY)
    other = subprocess.Popen([sys.executable, "-c", _CHECKPOINTER, str(db)], stdout=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120  # (a safety net only)
        while not _checkpoint_lock_held(shm):
            assert other.poll() is None and time.monotonic() < deadline, "the other checkpoint never started"
            time.sleep(0.01)
        copy = tmp_path / "copy.db"
        copy.write_bytes(b"")
        os.replace(copy, db)  # a backup put back: the connections above keep the old file
        pauses: list[float] = []

        def pause(seconds: float) -> None:  # empty_old_log's pause between two tries
            if not pauses:  # its first try was refused: the other checkpoint ends now, as it does a moment later
                reader.execute("COMMIT")
                other.wait(timeout=120)
            pauses.append(seconds)

        monkeypatch.setattr(storewatch, "time", SimpleNamespace(monotonic=time.monotonic, sleep=pause))
        try:
            storewatch.empty_old_log(db, server)  # (raised Busy at once before)
        except Busy as exc:
            raise AssertionError(f"refused while another checkpoint held the old log a moment: {exc}") from exc
        assert pauses  # its first try met the other checkpoint's lock, and it tried again
        out, _ = other.communicate(timeout=120)
        assert json.loads(out)[0] == 0  # the other checkpoint was not refused either
    finally:
        if other.poll() is None:
            other.kill()
            other.wait()
    assert Path(f"{db}-wal").stat().st_size == 0
    for c in (server, reader):
        c.close()
    os.close(shm)


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
