"""Whether the memory file under a warm server is still the one it opened, at the schema it knows.

A server (`mem serve`, `mem mcp`) keeps one store open for hours while other processes use the
same path. Two things can change under it:

* **The file is replaced** (a new inode at the path: a backup restored with ``mv``/``os.replace``,
  the file deleted and created again). The server's connections still point at the old inode, so
  its writes would go to a file nobody opens again (lost) and its answers would be stale. No `mem`
  command replaces the file (``compact`` is an in-place VACUUM, migrations and imports write through
  SQLite, backups and recovery write to new files), but people do. :meth:`StoreWatch.check` says
  ``"replaced"`` and the server reopens the store before the call (mem.py ``_warm``).
* **A backup is restored in place** (``mem.py restore``, memengine/restore.py: the backup's pages
  copied into the same file through SQLite). The inode stays, the content is another one: the schema
  cookie moves (SQLite's backup API moves it) and ``_mem_meta.restore_id`` differs from the one read
  at open. :meth:`StoreWatch.check` says ``"restored"`` and the server reopens the store (its vector
  matrices, keyword index and live set describe the content it replaced).
* **A newer `mem` migrates the file** (a migration this code does not know, recorded in
  ``_mem_migrations``). Writing with stale assumptions could break what the newer code relies
  on, so every call is refused with :class:`NewerSchema` (exit 11), exactly as a one-shot run of
  this version would refuse the file. A schema change that is not a migration (VACUUM moves the
  schema cookie too) is taken in: SQLite re-prepares its statements by itself.

A check costs one ``stat`` and one ``PRAGMA schema_version`` (a read of the header page already in
the cache): a few microseconds per call, measured against calls of milliseconds.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from memengine.errors import Busy, NewerSchema
from memengine.migrations import MIGRATIONS

EMPTY_WAIT = 2.0  # seconds a replaced file's old log may take to empty while others let go of it


def identity(path: Path) -> tuple[int, int] | None:
    """(device, inode) of the file at ``path`` now, or None when nothing is there."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def schema_cookie(conn: Any) -> int:
    """SQLite's schema cookie: moves on every change of the schema, by any connection."""
    return int(conn.execute("PRAGMA schema_version").fetchone()[0])


def restore_id(conn: Any) -> str | None:
    """The ``restore_id`` a restore stamps into the file (memengine/restore.py); None if never restored."""
    row = conn.execute("SELECT value FROM _mem_meta WHERE key = 'restore_id'").fetchone()
    return str(row[0]) if row else None


def unknown_migrations(conn: Any) -> list[str]:
    """Migrations recorded in the file that this code does not know (a newer mem ran them)."""
    known = {name for name, _ in MIGRATIONS}
    return sorted(r[0] for r in conn.execute("SELECT name FROM _mem_migrations").fetchall() if r[0] not in known)


class StoreWatch:
    """The identity and schema cookie of a store's file when it was opened; :meth:`check` compares."""

    def __init__(self, path: Path, conn: Any) -> None:
        self.path = Path(path)
        self._identity = identity(self.path)
        self._cookie = schema_cookie(conn)
        self._restore_id = restore_id(conn)

    def check(self, conn: Any) -> str | None:
        """``"replaced"`` if another file is at the path now (or none), ``"restored"`` if a backup was restored
        into it; raises :class:`NewerSchema` if a newer mem migrated the file; None when the store can serve
        as it is."""
        if identity(self.path) != self._identity:
            return "replaced"
        cookie = schema_cookie(conn)
        if cookie != self._cookie:
            if restore_id(conn) != self._restore_id:
                return "restored"
            newer = unknown_migrations(conn)
            if newer:
                raise NewerSchema(f"{self.path}: migrated by a newer mem while this server ran (unknown migrations: "
                                  f"{', '.join(newer)}); stop this server and start the newer one")
            self._cookie = cookie  # (VACUUM, or a migration this code knows: nothing stale)
        return None


def empty_old_log(path: Path, conn: Any) -> None:
    """Before a server lets go of a replaced file: fold the log at ``path`` (still the old file's) into the old
    file and empty it, so that the new file's first connection finds no log to replay into it (SQLite itself
    neither folds nor removes the log of a moved file when its last connection closes). :class:`Busy` when a
    reader in another process keeps it (the call is refused, the next one tries again).

    A checkpoint of the old log running elsewhere (the server's checkpointer that started one just before
    the file was replaced, another process's commit) holds SQLite's checkpoint lock, which a checkpoint never
    waits for: ``busy`` at once. Such a checkpoint ends in milliseconds, so the TRUNCATE is tried again
    for up to EMPTY_WAIT seconds (it failed once under load: tests/test_wal_replaced.py)."""
    deadline = time.monotonic() + EMPTY_WAIT
    while True:
        busy = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
        if not busy or time.monotonic() >= deadline:
            break
        time.sleep(0.02)
    wal = Path(f"{path}-wal")
    if busy or (wal.exists() and wal.stat().st_size > 0):
        raise Busy(f"{path}: the file was replaced while this server ran and another process still uses the old "
                   "one's log; stop the mem processes using it, then call again")
