"""How a warm server (`mem serve`, `mem mcp`) runs its calls on the one store it keeps open.

* One call at a time (``lock``, re-entrant: an MCP tool takes it to run on the event loop's
  thread, then the call it runs takes it again), with the WAL checkpointer told when each call
  begins and ends (memengine/walcheckpoint.py: checkpoints between calls, not inside them).
* A recall's reinforcement after its reply: a recall reinforces what it returns (one write
  transaction, ~0.3 ms at 100k) after reading it, so the reply does not depend on that write. A
  server call whose transport says when the reply is out (:meth:`Calls.after_reply`: the socket
  server after sending, the MCP stdio writer after flushing) leaves the write for then; the next
  call, on either transport, first runs whatever is still waiting, so every call sees what the
  previous ones wrote, as when the write ran inside them: the same results either way.
* The file checked first (``fresh``, memengine/storewatch.py): a file replaced at the store's path, or
  restored from a backup in place (memengine/restore.py), is reopened before the call runs (what the last
  call left for later is dropped: it was for the content replaced); a file a newer mem migrated refuses
  the call (``refused``).

Crash semantics: a server killed between a reply and that write loses the reinforcement of that one
call (its access counts and co-retrieval edges); never a memory, never any other write (stores,
forget, links run inside their call as always). A clean stop (SIGTERM, the MCP client closing
stdin) runs it. A store that could not be written when opened, or whose reinforcement once failed
(read-only, disk full), reinforces inside the call again, so that its warning is in the reply.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


class Calls:
    """The calls of one warm server: one at a time, checkpoints between them, writes after replies."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.checkpointer: Any = None  # memengine.walcheckpoint.Checkpointer, once the store is open
        self.path: Path | None = None  # the memory file served
        self.deferring = True  # cleared for good when a reinforcement left for later could not be written
        # run first in each call (after what waits): reopens the store if its file was replaced, or
        # raises the MemError every call must get (memengine/storewatch.py); kept in ``refused``
        self.fresh: Callable[[], None] | None = None
        self.refused: Exception | None = None
        self._later: list[Callable[[], list[str]]] = []
        self._current: list[Callable[[], list[str]]] | None = None

    @contextmanager
    def one(self, defer: bool = False) -> Iterator[None]:
        """A call: under the lock, after what the previous call left for later. With ``defer`` (its
        transport will call :meth:`after_reply`), :meth:`later` takes its reinforcement."""
        with self.lock:
            # the file first: a reinforcement left by the last call is for the content it answered from, and
            # is dropped if a restore replaced that content (drop_later); then it runs before anything else,
            # so this call sees every earlier write
            self._check()
            self._run_later()
            cp = self.checkpointer
            if cp is not None:
                cp.begin()
            outer = self._current
            self._current = self._later if defer and self.deferring and outer is None else None
            try:
                yield
            finally:
                self._current = outer
                if cp is not None:
                    cp.end()

    def later(self) -> list[Callable[[], list[str]]] | None:
        """Where the running call may leave a write for after its reply (``None``: run it now).

        Each job returns the warnings it would have added to the reply (a write that failed);
        a job that returns some stops the deferring (the next calls report it themselves)."""
        return self._current

    def after_reply(self) -> None:
        """The last reply is out: run what the call left for later, if no other call holds the store
        (that call runs it first anyway)."""
        if not self._later or not self.lock.acquire(blocking=False):
            return
        try:
            self._check()  # (a restore during the call: its reinforcement would land on the restored content)
            cp = self.checkpointer
            if cp is not None:
                cp.begin()
            try:
                self._run_later()
            finally:
                if cp is not None:
                    cp.end()
        finally:
            self.lock.release()

    def check_now(self) -> None:
        """Run ``fresh`` between calls (the checkpointer saw another file at the path: reopen it now)."""
        with self.lock:
            self._check()

    def _check(self) -> None:
        """Is the store still the file at its path, at a schema this code knows? (``fresh``)"""
        self.refused = None
        if self.fresh is not None:
            try:
                self.fresh()
            except Exception as exc:  # the call reports it, as a one-shot run would (Ctx.store raises it)
                self.refused = exc.with_traceback(None)  # (no frames kept: nothing they hold stays alive)

    def drop_later(self) -> None:
        """Forget what the last call left for later: the store it was for was replaced or restored."""
        self._later.clear()

    def _run_later(self) -> None:
        while self._later:
            job = self._later.pop(0)
            if job():
                self.deferring = False

    def close(self) -> None:
        """The server stops: run what waits, then fold the log and stop the checkpointer."""
        with self.lock:
            self._run_later()
            if self.checkpointer is not None:
                self.checkpointer.close()
                self.checkpointer = None
