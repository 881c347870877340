"""memengine/walbound.py keeps its state per connection object, not per address.

A server's connection is exempt (its checkpointer bounds the log); when it is closed and freed, CPython
gives the next connection the same address more often than not. Keyed by ``id()``, that connection
inherited the exemption (or another one's back-off) and its log was never bounded. Real files, real
connections; the test makes the address reuse happen and then checks the new connection's log is emptied.
"""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest

from memengine import db, walbound


def _wal(path: Path) -> int:
    p = Path(f"{path}-wal")
    return p.stat().st_size if p.exists() else 0


def _make(path: Path) -> Any:
    conn = db.connect(path)
    conn.execute("CREATE TABLE IF NOT EXISTS t (x BLOB)")
    return conn


def _write_past(conn: Any, path: Path, nbytes: int) -> bool:
    """Commit 16 KB rows until the log passes ``nbytes`` or a commit empties it; True if it was emptied."""
    for _ in range(400):
        with db.write_tx(conn):
            conn.execute("INSERT INTO t VALUES (randomblob(16384))")
        size = _wal(path)
        if size == 0 or size > nbytes:
            return size == 0
    return False


def test_a_new_connection_at_a_freed_exempt_ones_address_is_bounded(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(walbound, "BOUND_BYTES", 256 << 10)
    path = tmp_path / "memory.db"
    _make(path).close()
    reused = 0
    # Each collection below looks only at what the test made: in a suite's worker a full one walks the ~500k
    # objects earlier tests left (1.5-2 s each at load 12: 20 of them took this test to 30 s)
    gc.freeze()
    try:
        for _ in range(20):
            old = _make(path)
            walbound.exempt(old)  # a server's connection: it never empties the log after its commits
            address = id(old)
            old.close()
            del old
            gc.collect()
            new = _make(path)
            reused += id(new) == address
            try:
                assert _write_past(new, path, 1 << 20), "the new connection's log was never emptied"
            finally:
                new.close()
    finally:
        gc.unfreeze()
    assert reused > 0, "the address was never reused: the test did not exercise what it is for"


def test_an_exempt_connection_stays_exempt_and_is_bounded_again_once_released(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(walbound, "BOUND_BYTES", 256 << 10)
    path = tmp_path / "memory.db"
    conn = _make(path)
    try:
        walbound.exempt(conn)
        for _ in range(40):  # 640 KB: past the bound, and nobody empties it
            with db.write_tx(conn):
                conn.execute("INSERT INTO t VALUES (randomblob(16384))")
        assert _wal(path) > 256 << 10
        walbound.release(conn)
        assert _write_past(conn, path, 1 << 20)
    finally:
        conn.close()


def test_a_log_held_long_is_emptied_at_the_first_commit_after_the_snapshot_ends(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A snapshot held for long (doctor's quick_check: 10 s at 100k; another program's open transaction) makes
    the writer's tries fail and its pause double (up to 60 s). Once the snapshot ends, the log used to stay at
    its size until that pause was over (61.5 MB still 4 s after a doctor run at 100k): the first commit after
    it now sees that nothing pins the log (a PASSIVE checkpoint that folds every frame) and empties it."""
    monkeypatch.setattr(walbound, "BOUND_BYTES", 256 << 10)
    now = [1000.0]
    monkeypatch.setattr(walbound, "_clock", lambda: now[0])
    path = tmp_path / "memory.db"
    writer = _make(path)
    reader = db.connect(path)
    try:
        with db.write_tx(writer):
            writer.execute("INSERT INTO t VALUES (randomblob(16384))")
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM t").fetchone()  # the long snapshot
        for _ in range(6):  # tries that meet it: the pause doubles each time
            assert not _write_past(writer, path, _wal(path) + (2 << 20))
            now[0] += 100.0  # (past any pause: the next commit past the bound tries again)
        state = walbound._STATE[writer]
        assert state[2] >= 8.0, state  # the pause has grown
        with db.write_tx(writer):
            writer.execute("INSERT INTO t VALUES (randomblob(16384))")
        assert _wal(path) > 256 << 10 and now[0] < state[3]  # (a try is not due: the pause runs)
        reader.execute("COMMIT")  # the snapshot ends
        with db.write_tx(writer):
            writer.execute("INSERT INTO t VALUES (randomblob(16384))")
        assert _wal(path) == 0, "the log waited for the pause though nothing held it any more"
        assert walbound._STATE[writer][2] == walbound.FIRST_BACKOFF
    finally:
        reader.close()
        writer.close()
