"""Consolidate's safety: the lock that keeps runs on one database exclusive, and the backup taken before the
destructive phases (cascade, contradict, decay), pruned to the newest few.

Split out of memengine/consolidate.py (round 11: it had grown past the ~800-line guide); the names are
re-exported there, where restore and the tests look for them.
"""

from __future__ import annotations

import contextlib
import os
from datetime import datetime
from pathlib import Path

from memengine.store import MemoryStore


def lock_path(db: Path) -> Path:
    """The lock file that keeps consolidate runs on one database exclusive."""
    return Path(str(db) + ".consolidate.lock")


def backup(store: MemoryStore, keep: int, now: datetime) -> Path:
    """``VACUUM INTO <db dir>/backups/<name>.<time>.consolidate.db`` (0600, folder 0700).

    Older backups are pruned by :func:`prune_backups` once this one is known to be kept.
    """
    from memengine.privfile import fsync_path, private_dir, sweep_leftovers, vacuum_into

    directory = private_dir(store.path.parent / "backups")
    sweep_leftovers(directory)  # (a killed run's temporary copy)
    stamp = now.strftime("%Y%m%dT%H%M%S")
    dest = directory / f"{store.path.name}.{stamp}.consolidate.db"
    n = 1
    while dest.exists():
        n += 1
        dest = directory / f"{store.path.name}.{stamp}-{n}.consolidate.db"
    # written under a temporary name and renamed once whole: a run killed during the copy left a half-written
    # file under a backup's name, which `restore --list` offered and the retention counted as one of those kept
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.mem-tmp")
    try:
        vacuum_into(store.conn, tmp)
        fsync_path(tmp)
        os.replace(tmp, dest)
    finally:
        for suffix in ("", "-journal"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(f"{tmp}{suffix}")
    return dest


def prune_backups(store: MemoryStore, keep: int) -> list[str]:
    """Delete all but the newest ``keep`` consolidate backups of this store; return the names deleted."""
    directory = store.path.parent / "backups"
    old = sorted(directory.glob(f"{store.path.name}.*.consolidate.db"), key=lambda p: (p.stat().st_mtime, p.name))
    gone = old[: max(0, len(old) - keep)]
    for p in gone:
        p.unlink(missing_ok=True)
    return [p.name for p in gone]
