"""Turns at the write lock: a writer kept waiting goes before a job that writes again and again.

SQLite's lock is not fair. A writer that finds it taken sleeps in its busy handler and looks again (every 100 ms
after the first half second); a job that commits and begins its next transaction within a few milliseconds
— consolidate's loops over links, clusters and summaries — takes the lock back before the sleeper ever looks.
A store started during such a stretch waited for all of it: against back-to-back 100 ms transactions, a
`mem.py store` waited 19 s, the whole 20 s run (users30 #2, bench/data/users30_findings.md; at 12× load,
consolidate's stretches last many seconds and stores exited 4 `busy` after 40 s).

The turn is kept in a small file beside the database, ``<db>.writers``, made only when a writer has to wait:

- a writer whose ``BEGIN IMMEDIATE`` finds the lock taken holds a *shared* ``flock`` on that file while it waits
  and until its transaction ends (:func:`waiting`);
- a job marked :func:`yielding` (consolidate's run) looks after each commit whether anyone holds it shared and,
  if so, waits — at most :data:`MAX_YIELD_SECONDS` — until they have all had their turn (:func:`after_commit`).

A job that writes now and then, not back to back, never waits here: nobody is left waiting when it commits.
``flock`` locks go with the process: a waiter killed mid-wait frees its turn. A folder where the file cannot be
made (read-only, full) leaves SQLite's own waiting as it was.
"""

from __future__ import annotations

import contextlib
import os
import time
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # pragma: no cover - not on Windows: SQLite's own waiting only
    fcntl = None  # type: ignore[assignment]

MAX_YIELD_SECONDS = 2.0  # the longest a yielding job waits after one commit for the writers it kept waiting
POLL_SECONDS = 0.002  # how often it looks whether they have had their turn
# connections whose commits let waiting writers in first (a count: consolidate may nest)
_YIELDING: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()
STATS = {"yields": 0, "seconds": 0.0}  # this process's waits after a commit (benchmarks read them)


def turns_path(db: Path | str) -> Path:
    """The file that holds the turns of ``db``'s writers."""
    return Path(f"{db}.writers")


@contextlib.contextmanager
def waiting(db: Path | None) -> Iterator[None]:
    """Hold a waiting writer's turn (a shared lock on :func:`turns_path` of file ``db``) for the block: its wait
    and its transaction."""
    fd = _open(db, create=True)
    if fd is None:
        yield
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH)  # (held exclusive only for an instant, by a job looking for waiters)
        except OSError:  # a file system without flock (some network mounts: ENOLCK): SQLite's own waiting
            pass
        yield
    finally:
        os.close(fd)  # (closing releases the lock)


@contextlib.contextmanager
def yielding(conn: Any) -> Iterator[None]:
    """Within the block, every commit on ``conn`` lets the writers it kept waiting in first."""
    try:
        _YIELDING[conn] = _YIELDING.get(conn, 0) + 1
    except TypeError:  # a driver connection made outside memengine.db (not weakly referenceable): no turns
        yield
        return
    try:
        yield
    finally:
        left = _YIELDING.get(conn, 1) - 1
        if left:
            _YIELDING[conn] = left
        else:
            _YIELDING.pop(conn, None)


def after_commit(conn: Any, db: Path | None) -> None:
    """Called after a commit on ``conn`` to file ``db`` (outside any transaction): if it is yielding and writers
    are waiting, wait until they have had their turn, at most :data:`MAX_YIELD_SECONDS`. Never raises."""
    if not is_yielding(conn):
        return
    fd = _open(db, create=False)
    if fd is None:
        return
    t0 = time.monotonic()
    try:
        waited = False
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # nobody holds it shared: nobody waits
                fcntl.flock(fd, fcntl.LOCK_UN)
                break
            except BlockingIOError:
                waited = True
            except OSError:  # no flock here (ENOLCK): nobody can hold a turn either
                break
            if time.monotonic() - t0 > MAX_YIELD_SECONDS:
                break
            time.sleep(POLL_SECONDS)
        if waited:
            STATS["yields"] += 1
            STATS["seconds"] += time.monotonic() - t0
    finally:
        os.close(fd)


def is_yielding(conn: Any) -> bool:
    """Whether ``conn`` is in a :func:`yielding` block."""
    try:
        return bool(_YIELDING.get(conn))
    except TypeError:
        return False


def _open(db: Path | None, create: bool) -> int | None:
    """The turns file of ``db`` open for locking, or None (no file yet, in-memory, no flock, a folder we cannot
    write in: SQLite's own waiting then, as before)."""
    if db is None or fcntl is None:
        return None
    flags = os.O_RDWR | (os.O_CREAT if create else 0)
    if hasattr(os, "O_CLOEXEC"):
        flags |= os.O_CLOEXEC
    try:
        return os.open(turns_path(db), flags, 0o600)
    except OSError:
        return None
