"""Files private from the first byte: backups, exports and temp files 0600, folders 0700.

``chmod`` after writing leaves a window (and a killed process leaves the file as the
umask made it, often 0644 with every memory readable). So the umask is narrowed
*before* the file exists, and written files go through a temp file created 0600 and
``os.replace``-d into place (never half-written either).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any


@contextlib.contextmanager
def private_umask() -> Iterator[None]:
    """Files and folders created inside get no group/other bits (umask 077), whatever the caller's umask.

    The umask is per process: keep the block short (one file operation).
    """
    old = os.umask(0o077)
    try:
        yield
    finally:
        os.umask(old)


def private_dir(path: Path) -> Path:
    """``path`` (and missing parents) created 0700; an existing folder is left as it is."""
    with private_umask():
        path.mkdir(parents=True, exist_ok=True)
    return path


def vacuum_into(conn: Any, dest: Path) -> None:
    """``VACUUM INTO dest`` with the file 0600 from its first byte (SQLite creates it under our umask)."""
    with private_umask():
        conn.execute("VACUUM INTO ?", (str(dest),))
    os.chmod(dest, 0o600)  # (an existing empty file SQLite reused keeps its mode otherwise)


def write_private(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically through a 0600 temp file in the same folder."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.mem-tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


def fsync_path(path: Path) -> None:
    """Flush a file's (or a directory's, for a rename in it) data to the disk before we name or trust it."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# What a killed copy leaves, with the pid of the process that made it in the name: a store's temporary copy
# (`.<name>.db.<pid>.mem-tmp`: backup, consolidate's backup, restore's pre-restore copy; `.<name>.db.restore-<pid>
# .mem-tmp`: restore's prepared copy) with its journal, and doctor's snapshot folder (`mem-doctor-<pid>-*`).
# MEMORY.md's own temp file (random name, not `.db.`) never matches.
_LEFTOVER = re.compile(r"^(?:\..+\.db\.(?:restore-)?(\d+)\.mem-tmp(?:-journal|-wal|-shm)?|mem-doctor-(\d+)-.+)$")


def _alive(pid: int) -> bool:
    """Whether a process ``pid`` runs (one of another user counts as running)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # (EPERM: someone else's process)
        return True
    return True


def sweep_leftovers(folder: Path) -> list[str]:
    """Remove from ``folder`` what a copy killed half-way left (names above) when its process is gone.

    A killed `mem.py backup` left a temporary file as large as the store in ``backups/`` and nothing ever removed
    it; each command that writes such a copy calls this first. A file whose process still runs is left alone (a
    reused pid too: the next sweep takes it). Returns the names removed."""
    removed: list[str] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        m = _LEFTOVER.match(entry.name)
        if m is None or _alive(int(m.group(1) or m.group(2))):
            continue
        try:
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path)
            else:
                os.unlink(entry.path)
        except OSError:  # (gone meanwhile, or not ours to remove)
            continue
        removed.append(entry.name)
    return removed
