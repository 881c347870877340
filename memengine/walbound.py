"""A bound on the write-ahead log for every writer, not only for servers.

SQLite folds the log into the database file after a commit that leaves it at 1000 pages (a PASSIVE
checkpoint), but it starts the log *over* only when a writer begins while no reader is using the log.
With other processes reading all the time (agents' recalls through the API, one-shot `mem.py recall`
calls, a report) and a writer that never pauses (an import, a loop of stores), there is nearly always a
reader at that moment: the file then grows by everything written, ~4–7 KB a store on a 2k–12k store, ~55 KB
a store at 100k, whatever SQLite folded (``bench/reliability.py walreaders``). A warm server bounds the log
of the file it serves itself (memengine/walcheckpoint.py); this module does the same for every other
connection that writes.

After each commit of :func:`memengine.db.write_tx` the writer looks at the log's size (one ``stat``); past
:data:`BOUND_BYTES` it runs a ``TRUNCATE`` checkpoint that waits at most :data:`WAIT_MS` for the readers of
the moment (readers that start once every frame is folded read the file, not the log) and empties the log.
When readers keep it from that, the next try comes after :data:`RETRY_GROWTH` more of log and
:data:`FIRST_BACKOFF` seconds later; that pause doubles (up to :data:`MAX_BACKOFF`) while the tries meet a
reader whose *older* snapshot kept frames from being folded at all (a keyword index being built, an open
transaction: whatever anyone does, every frame after such a snapshot stays in the log until it ends), so a
snapshot held for minutes costs the writer a 0.1 s wait once a minute, and never more than one a second.
While such a pause runs, each commit looks (a PASSIVE checkpoint, which never waits) whether every frame
can be folded now: then the snapshot has ended and the log is emptied at once, not at the pause's end.
The checkpoint never loses a commit (a committed transaction is in the log or in the file) and runs outside
the writer's transaction, after its commit.

The state is kept per connection *object*, in a weak map (:class:`memengine.db.Connection` is weakly
referenceable; the driver's own class is not): keyed by ``id(conn)`` as it was, a connection made at the
address of a freed one inherited its state (a server's exemption: that log was never bounded again).
"""

from __future__ import annotations

import os
import time
import weakref
from typing import Any

BOUND_BYTES = 16 << 20  # a log past this is emptied (the servers' bound too: memengine/walcheckpoint.py)
WAIT_MS = 100  # what the writer's TRUNCATE waits for the readers of the moment
RETRY_GROWTH = 1 << 20  # after a TRUNCATE that readers kept from emptying the log: the next one this much later
FIRST_BACKOFF = 1.0  # ... and this many seconds later at the earliest (so at most one 0.1 s wait a second)
MAX_BACKOFF = 60.0  # the pause doubles while an older snapshot holds frames back, up to this

_clock = time.monotonic  # (tests move it by hand)
# conn -> [the -wal path or None (exempt / no file), next size to act at, the pause after the next try that
#          fails, the earliest time of the next try]; an entry goes when its connection is freed
_STATE: weakref.WeakKeyDictionary[Any, list[Any]] = weakref.WeakKeyDictionary()
STATS = {"tries": 0, "emptied": 0, "held": 0, "seconds": 0.0}  # this process's TRUNCATEs (benchmarks read them)


def _fresh(wal: str | None) -> list[Any]:
    return [wal, BOUND_BYTES, FIRST_BACKOFF, 0.0]


def exempt(conn: Any) -> None:
    """``conn`` folds its log another way (a server's :class:`~memengine.walcheckpoint.Checkpointer`)."""
    _STATE[conn] = _fresh(None)


def release(conn: Any) -> None:
    """``conn`` bounds its log by its commits again (its checkpointer stopped)."""
    _STATE.pop(conn, None)


def _state_of(conn: Any) -> list[Any]:
    try:
        state = _STATE.get(conn)
    except TypeError:  # a driver connection made outside memengine.db: bounded, with no memory of its tries
        return _fresh(_wal_of(conn))
    if state is None:
        state = _STATE[conn] = _fresh(_wal_of(conn))
    return state


def _wal_of(conn: Any) -> str | None:
    row = conn.execute("PRAGMA database_list").fetchone()
    return f"{row[2]}-wal" if row is not None and row[2] else None  # (None: an in-memory database)


def after_commit(conn: Any) -> bool:
    """Called after a commit on ``conn``: empty the log if it is past the bound. True if it emptied it."""
    if conn.in_transaction:
        return False
    state = _state_of(conn)
    if state[0] is None:
        return False
    try:
        size = os.stat(state[0]).st_size
    except OSError:
        return False
    if size < BOUND_BYTES:  # (emptied meanwhile by someone else: back to the plain bound)
        if size <= state[1]:
            state[1], state[2], state[3] = BOUND_BYTES, FIRST_BACKOFF, 0.0
        return False
    now = _clock()
    if (size <= state[1] or now < state[3]) and not (state[2] > FIRST_BACKOFF and _unpinned(conn)):
        return False
    t0 = time.perf_counter()
    outcome = _truncate(conn, WAIT_MS)
    STATS["tries"] += 1
    STATS["emptied"] += outcome == "emptied"
    STATS["held"] += outcome == "held"
    STATS["seconds"] += time.perf_counter() - t0
    if outcome == "emptied":
        state[1], state[2], state[3] = BOUND_BYTES, FIRST_BACKOFF, 0.0
        return True
    state[1], state[3] = size + RETRY_GROWTH, now + state[2]
    # frames held back by an older snapshot: perhaps held for long, so wait longer each time; every frame
    # folded but readers of the moment still in the log: they are gone in milliseconds, try again soon
    state[2] = min(2 * state[2], MAX_BACKOFF) if outcome == "held" else FIRST_BACKOFF
    return False


def _unpinned(conn: Any) -> bool:
    """Whether nothing pins the log any more: a PASSIVE checkpoint (it never waits, and it folds what a commit's
    automatic one would) leaves no frame behind. Asked at each commit while a long pause runs, so that the log is
    emptied as soon as the snapshot that made the pause grow ends, not up to MAX_BACKOFF later (the pause only
    spares the writer TRUNCATEs that would wait WAIT_MS in vain: this look does not wait)."""
    try:
        busy, log, done = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    except Exception:
        return False
    return int(busy) == 0 and int(log) > 0 and int(done) == int(log)


def _truncate(conn: Any, wait_ms: int) -> str:
    """``PRAGMA wal_checkpoint(TRUNCATE)`` waiting at most ``wait_ms`` for readers and writers: ``emptied``,
    ``folded`` (every frame in the file, but a reader of the moment still used the log), ``held`` (a reader's
    older snapshot kept frames in it) or ``failed``. Never raises: a failed checkpoint leaves every commit."""
    try:
        old = int(conn.execute("PRAGMA busy_timeout").fetchone()[0])
    except Exception:  # (a closed connection)
        return "failed"
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(wait_ms)}")
        busy, log, done = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        return "emptied" if int(busy) == 0 else ("folded" if log == done else "held")
    except Exception:
        return "failed"
    finally:
        try:
            conn.execute(f"PRAGMA busy_timeout = {old}")
        except Exception:
            pass


def truncate(conn: Any, wait_ms: int) -> bool:
    """Empty the log now (``doctor --fix``), waiting at most ``wait_ms`` for readers; True if it was emptied."""
    return _truncate(conn, wait_ms) == "emptied"
