"""Who holds the write-ahead log: another program's read transaction that keeps frames from being folded.

A reader's snapshot pins every frame written after it in the log: no checkpoint folds them and the log
is never started over while the snapshot lasts, so under a steady writer the file grows by everything
written (memengine/walbound.py bounds it only once the snapshot ends). mem's own readers hold none for
long (tests/test_wal_snapshots.py); a program that left ``BEGIN; SELECT ...`` open does. ``doctor``
asks :func:`held` and names it.

How: a ``PASSIVE`` checkpoint on the caller's connection (it never waits and never blocks anyone) says
how many frames the log holds and how many could be folded; frames left over at three looks 0.2 s apart,
with the folded count standing still, are pinned by a snapshot older than them (a reader of the moment
finishes in milliseconds and the next look folds past it). The holder is the process with a read-mark
lock on the ``-shm`` file (SQLite's WAL read locks: one POSIX lock on bytes 123-127 while a read
transaction is open, listed in Linux's ``/proc/locks``); where that is unreadable, the processes with the
file open (``/proc/PID/fd``).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from memengine.db import sqlite3  # the driver's errors (sqlean's are not the standard library's)

LOOKS = 3  # checkpoints that must all leave frames behind
PAUSE = 0.2  # seconds between two looks
SHM_READ_LOCKS = range(123, 128)  # WAL_READ_LOCK(0..4): byte 120 + 3 + i of the -shm file (sqlite3 os_unix.c)
SHM_WRITE_LOCK = range(120, 121)  # WAL_WRITE_LOCK: held by the one writer of the moment


def _passive(conn: Any) -> tuple[int, int] | None:
    """(frames in the log, frames folded) after a PASSIVE checkpoint; None if there is no log to look at."""
    try:
        row = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    except sqlite3.Error:  # (a read-only or immutable handle, a full disk the fold cannot write to: nothing to say)
        return None
    if row is None or int(row[1]) < 0:  # (-1: not in WAL mode)
        return None
    return int(row[1]), int(row[2])


def held(conn: Any) -> tuple[int, int] | None:
    """(frames in the log, frames folded) when a snapshot has kept frames from being folded at every look
    (LOOKS over (LOOKS - 1) x PAUSE seconds); None when the log folds (the usual case: one look, no wait).
    ``conn`` must not be inside a transaction of its own (its snapshot would be the one holding)."""
    if getattr(conn, "in_transaction", False):
        return None
    first = _passive(conn)
    if first is None or first[1] >= first[0]:
        return None
    last = first
    for _ in range(LOOKS - 1):
        time.sleep(PAUSE)
        now = _passive(conn)
        if now is None or now[1] >= now[0] or now[1] > last[1]:
            return None  # folded all, or moved on: whoever held it let go
        last = now
    return last


def _lock_holders(shm: Path, locks: range = SHM_READ_LOCKS) -> list[int]:
    """Pids with a lock on one of the bytes ``locks`` of ``shm`` (Linux ``/proc/locks``; by default the
    read-mark locks), this process left out."""
    try:
        st = shm.stat()
        lines = Path("/proc/locks").read_text().splitlines()
    except OSError:
        return []
    dev = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    pids: set[int] = set()
    for line in lines:
        parts = line.split()
        # "1: POSIX  ADVISORY  READ 1234 08:01:5678 123 123" (a blocked waiter's line has "->" first)
        if len(parts) < 8 or parts[1] != "POSIX" or parts[5] != dev:
            continue
        try:
            pid, start, end = int(parts[4]), int(parts[6]), parts[7]
            stop = int(end) if end != "EOF" else 1 << 62
        except ValueError:
            continue
        if pid != os.getpid() and any(start <= b <= stop for b in locks):
            pids.add(pid)
    return sorted(pids)


def _openers(db: Path) -> list[int]:
    """Pids with ``db`` open (Linux ``/proc/PID/fd``; only the processes this user may look into)."""
    want = str(db.resolve())
    pids = []
    try:
        procs = [p for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid()]
    except OSError:
        return []
    for p in procs:
        try:
            if any(os.readlink(f"/proc/{p}/fd/{fd}") == want for fd in os.listdir(f"/proc/{p}/fd")):
                pids.append(int(p))
        except OSError:
            continue
    return sorted(pids)


def command_of(pid: int, width: int = 60) -> str:
    """A process's command line, shortened (``?`` when it cannot be read)."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return "?"
    text = " ".join(raw.decode("utf-8", "replace").replace("\0", " ").split()) or "?"
    return text if len(text) <= width else text[:width - 3] + "..."


def holders(db: Path) -> list[int]:
    """The processes that hold a read transaction on ``db`` now (else those that have it open)."""
    return _lock_holders(Path(f"{db}-shm")) or _openers(db)


def note(db: Path, conn: Any) -> tuple[list[int], str | None]:
    """(pids, doctor's line) when another program's open read transaction holds the log; ([], None) if none."""
    got = held(conn)
    if got is None:
        return [], None
    frames, folded = got
    pids = holders(db)
    wal = Path(f"{db}-wal")
    size = wal.stat().st_size if wal.exists() else 0
    who = "; ".join(f"pid {p}: {command_of(p)}" for p in pids) or "a process this user cannot see"
    return pids, (f"another program holds a read transaction open on this store ({who}): the write-ahead log "
                  f"({size / 2**20:.1f} MB, {frames - folded} of {frames} frames) cannot be folded or emptied "
                  "past its snapshot and grows with every write until it ends: commit or close that program's "
                  "transaction")


def writer_note(db: Path) -> tuple[list[int], str | None]:
    """(pids, doctor's line) when another process has held the write lock (an open write transaction) at
    LOOKS looks PAUSE apart: every writer waits for it (and fails after its busy timeout); ([], None) if not.
    A writer of the moment holds it for milliseconds."""
    shm = Path(f"{db}-shm")
    seen = set(_lock_holders(shm, SHM_WRITE_LOCK))
    for _ in range(LOOKS - 1):
        if not seen:
            return [], None
        time.sleep(PAUSE)
        seen &= set(_lock_holders(shm, SHM_WRITE_LOCK))
    if not seen:
        return [], None
    pids = sorted(seen)
    who = "; ".join(f"pid {p}: {command_of(p)}" for p in pids)
    return pids, (f"another program holds the write lock of this store ({who}): an open write transaction; "
                  "every writer waits for it and fails after its busy timeout: commit or close that program's "
                  "transaction")
