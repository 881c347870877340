"""WAL checkpoints of a warm server's store, between its calls instead of inside them.

SQLite folds the write-ahead log back into the database file when a commit leaves the log at
1000 pages (``wal_autocheckpoint``): that commit copies the pages and fsyncs the file. In a
warm server commits are small and frequent (a recall reinforces what it returns: ~25 pages a
call), so one call in ~40 paid a checkpoint: ~20 ms wall (~5.5 ms CPU, the rest the fsync) on
this host, more than a whole 100k recall (measured: ``bench/transport_steps.py``).

A server's store therefore turns the automatic checkpoint off on its own connection (other
processes' connections keep theirs) and :class:`Checkpointer` runs a PASSIVE checkpoint on a
thread of its own, with a connection of its own, when the server is between calls:

* ``IDLE_SECONDS`` after the last call that changed something (an agent thinks for seconds
  between calls: the log is folded while nobody waits);
* ``QUIET_SECONDS`` after the last call once ``EVERY_CHANGES`` rows are waiting (SQLite's own
  cadence, moved to the next pause);
* at once, even while calls keep coming, once ``MAX_CHANGES`` rows are waiting: the log stays
  bounded for a client that never pauses (it then pays the checkpoint's CPU, not its fsync);
* on close;
* never for a file replaced at the path: the server is told at once instead (``on_replaced``) and reopens
  it (memengine/storewatch.py).

The log's size is watched too (``WATCH_SECONDS``: one ``stat`` of the ``-wal`` file), because other
processes write to it: an importer storing memories one by one while the server answers recalls back to
back. Their commits fold the log themselves (PASSIVE, every 1000 pages), but SQLite starts the log over
only when no reader is using it, and a server that reads all the time is always using it: the file grew
to 74 MB over 10k stores where the importer alone kept it at 4 MB (``bench/reliability.py wal``). A log
past ``BOUND_BYTES`` is therefore folded with ``TRUNCATE``: it waits (at most ``TRUNCATE_WAIT_MS``, on
this thread's connection) for the readers of the moment to finish, while new readers read the file
itself, and empties the log; if some reader holds on longer it is tried again at the next look.

A PASSIVE checkpoint never blocks a reader or the writer (it copies what no reader still needs)
and SQLite releases the GIL while it copies and syncs. Durability is unchanged: a committed
transaction is in the log whether or not it has been folded into the file, and SQLite replays the
log when the next connection opens it after a crash (tests/test_transport.py kills a server after
a stream of reinforcing recalls and counts every reinforcement).
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memengine import walbound
from memengine.db import connect
from memengine.storewatch import identity

EVERY_CHANGES = 1000  # rows written since the last checkpoint (a reinforcing recall writes ~20)
MAX_CHANGES = 4000  # the most left waiting for a pause (~16 MB of log)
QUIET_SECONDS = 0.05  # no call for this long: a pause (agents' calls come seconds apart)
IDLE_SECONDS = 1.0  # after the last change: fold even a small log while nobody calls
WATCH_SECONDS = 0.5  # how often the log's size is looked at (other processes write to it too)
BOUND_BYTES = walbound.BOUND_BYTES  # a log past this is folded and emptied (TRUNCATE), even during calls
TRUNCATE_WAIT_MS = 200  # what that checkpoint waits for the readers and the writer of the moment


class Checkpointer:
    """Folds the WAL of ``conn``'s database (the server's store connection) between calls.

    Call :meth:`start` once, :meth:`begin` before each call and :meth:`end` after it (cheap:
    they read a counter and the clock), and :meth:`close` when the server stops.
    """

    def __init__(self, path: Path, conn: Any, every: int = EVERY_CHANGES, most: int = MAX_CHANGES,
                 quiet: float = QUIET_SECONDS, idle: float = IDLE_SECONDS, bound: int = BOUND_BYTES,
                 watch: float = WATCH_SECONDS, on_replaced: Callable[[], None] | None = None) -> None:
        self.path = path
        self._conn = conn
        self._every, self._most, self._quiet, self._idle = every, most, quiet, idle
        self._bound, self._watch = bound, watch
        self._wal = Path(f"{path}-wal")
        self._identity = identity(path)  # the file opened (another one at the path: ``on_replaced``, once)
        self._on_replaced = on_replaced
        self._cond = threading.Condition()
        self._stop = False
        self._thread: threading.Thread | None = None
        self._in_call = False
        self._last_end = 0.0  # time.monotonic() when the last call ended
        self._done = 0  # conn.total_changes folded by the last checkpoint
        self._seen = 0  # conn.total_changes after the last call
        self.checkpoints = 0  # how many ran (tests and benchmarks read it)
        self.truncates = 0  # how many of them emptied a log past the bound
        self.rolled_back = 0  # calls that left a transaction open (rolled back at their end)

    def start(self) -> None:
        """Turn the connection's automatic checkpoint off and start the checkpoint thread."""
        self._conn.execute("PRAGMA wal_autocheckpoint = 0")
        walbound.exempt(self._conn)  # (its calls' commits never wait for a checkpoint: this thread bounds the log)
        self._done = self._seen = self._conn.total_changes
        self._thread = threading.Thread(target=self._run, name="mem-checkpoint", daemon=True)
        self._thread.start()

    def begin(self) -> None:
        """A call starts: no checkpoint starts until it ends (unless the log is at its bound)."""
        self._in_call = True

    def end(self) -> None:
        """A call ended: count what it wrote, and let the thread decide when to fold it.

        A call that left a transaction open (a bug: every write is a ``write_tx``) is rolled back here,
        loudly: an open transaction would keep its snapshot, so no checkpoint could fold the log past
        it, and a write one would lock every other process out of the file."""
        if self._conn.in_transaction:
            self.rolled_back += 1
            try:
                self._conn.execute("ROLLBACK")
            finally:
                print("mem: a call left a transaction open; rolled back", file=sys.stderr, flush=True)
        total = self._conn.total_changes
        with self._cond:
            self._in_call = False
            self._last_end = time.monotonic()
            if total != self._seen:
                self._seen = total
                self._cond.notify()

    def _wait(self) -> float | None:
        """Seconds until the log is due (0: now), or None when nothing waits."""
        backlog = self._seen - self._done
        if backlog <= 0:
            return None
        if backlog >= self._most:
            return 0.0
        if self._in_call:
            return self._quiet  # (looked at again when the call ends: end() notifies)
        pause = self._quiet if backlog >= self._every else self._idle
        return max(0.0, self._last_end + pause - time.monotonic())

    def _run(self) -> None:
        conn = connect(self.path)
        conn.execute(f"PRAGMA busy_timeout = {TRUNCATE_WAIT_MS}")  # (only TRUNCATE waits; PASSIVE never does)
        try:
            while True:
                with self._cond:
                    due = self._wait()
                    if not self._stop and due != 0.0:  # wait for it, looking at the log's size meanwhile
                        self._cond.wait(self._watch if due is None else min(due, self._watch))
                        due = self._wait()
                    if self._stop:
                        break
                    fold = due == 0.0
                    if fold:
                        self._done = self._seen
                if self._on_replaced is not None and identity(self.path) != self._identity:
                    self._report_replaced()
                if self._oversized():
                    self._checkpoint(conn, "TRUNCATE")
                elif fold:
                    self._checkpoint(conn, "PASSIVE")
            if self._seen != self._done and identity(self.path) == self._identity:  # (a replaced file's log is not ours)
                self._checkpoint(conn, "PASSIVE")
        finally:
            conn.close()

    def _report_replaced(self) -> None:
        """Another file is at the path (a backup put back with ``mv``): ``on_replaced`` runs now, once, on a
        thread of its own (the server reopens the path; it closes this checkpointer), not at the next call,
        so that the old file's log is emptied before another process opens the new file and meets it."""
        callback, self._on_replaced = self._on_replaced, None
        if callback is not None:
            threading.Thread(target=callback, name="mem-reopen", daemon=True).start()

    def _oversized(self) -> bool:
        try:
            return self._wal.stat().st_size > self._bound
        except OSError:  # (no log yet, or the folder went away: nothing to fold)
            return False

    def _checkpoint(self, conn: Any, mode: str) -> None:
        try:
            busy = conn.execute(f"PRAGMA wal_checkpoint({mode})").fetchone()[0]
            self.checkpoints += 1
            self.truncates += mode == "TRUNCATE" and not busy
        except Exception:  # a failing checkpoint is retried by the next one; the log keeps every commit
            pass

    def close(self) -> None:
        """Fold what is left, stop the thread, and give the connection its automatic checkpoint back."""
        if self._thread is None:
            return
        with self._cond:
            self._stop = True
            self._cond.notify()
        self._thread.join()
        self._thread = None
        try:
            self._conn.execute("PRAGMA wal_autocheckpoint = 1000")
        except Exception:  # (a closed connection: nothing to give back)
            pass
        walbound.release(self._conn)
