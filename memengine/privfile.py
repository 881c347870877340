"""Files private from the first byte: backups, exports and temp files 0600, folders 0700.

``chmod`` after writing leaves a window (and a killed process leaves the file as the
umask made it, often 0644 with every memory readable). So the umask is narrowed
*before* the file exists, and written files go through a temp file created 0600 and
``os.replace``-d into place (never half-written either).
"""

from __future__ import annotations

import contextlib
import os
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
