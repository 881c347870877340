"""Zip archives read safely, for the parsers (split out of :mod:`importers._common`): member names
checked against zip slip, junk members (``__MACOSX``) skipped, members read or streamed under a size
cap (:class:`_Limited`), nested zips searched to a bounded depth, spooled to a temp file past
``SPOOL_BYTES``. Nothing is ever extracted."""

from __future__ import annotations

import io
import re
import shutil
import struct
import tempfile
import zipfile
import zlib
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path, PurePosixPath
from typing import IO, Any

from importers import ImportFormatError

DEFAULT_MAX_MEMBER_BYTES = 512 * 1024 * 1024  # a chat file or zip member past this is refused
SPOOL_BYTES = 16 * 1024 * 1024  # a nested zip is spooled to a temp file past this (never all in memory)


def check_member_name(name: str, archive: str) -> None:
    """Refuse zip-slip member names (absolute paths, drive letters, ``..``)."""
    norm = name.replace("\\", "/")
    if norm.startswith("/") or re.match(r"^[A-Za-z]:", norm) or ".." in PurePosixPath(norm).parts:
        raise ImportFormatError(f"unsafe member name {name!r} in zip (path traversal)", archive)


def is_junk_member(name: str) -> bool:
    """macOS resource forks and folders: ``__MACOSX/...`` and ``._name``."""
    norm = name.replace("\\", "/")
    base = norm.rsplit("/", 1)[-1]
    return norm.startswith("__MACOSX/") or "/__MACOSX/" in norm or base.startswith("._") or norm.endswith("/")


# What reading a damaged zip member raises besides BadZipFile: zlib's own error and EOFError for a
# cut or corrupt deflate stream, RuntimeError for an encrypted member, NotImplementedError for an
# unknown compression, OSError and struct.error for cut headers. All mean "this zip is broken".
ZIP_ERRORS: tuple[type[BaseException], ...] = (zipfile.BadZipFile, zlib.error, EOFError, OSError, RuntimeError,
                                               NotImplementedError, struct.error)


ZIP_OPEN_ERRORS: tuple[type[BaseException], ...] = (*ZIP_ERRORS, ValueError)  # and a cut central directory


def open_zip(data: bytes | Path | IO[bytes], archive: str) -> zipfile.ZipFile:
    """Open a zip from bytes or a path, checking every member name for zip slip."""
    try:
        zf = zipfile.ZipFile(io.BytesIO(data) if isinstance(data, bytes) else data)
    except ZIP_OPEN_ERRORS as exc:
        raise ImportFormatError(f"malformed zip archive ({exc})", archive) from None
    for info in zf.infolist():
        check_member_name(info.filename, archive)
    return zf


def zip_members(path: Path, archive: str) -> list[zipfile.ZipInfo]:
    """The members of the zip at ``path`` that are no junk (:func:`is_junk_member`), every name checked for zip
    slip first; the zip is closed again (callers open each member when they read it)."""
    with open_zip(path, archive) as zf:
        return [i for i in zf.infolist() if not is_junk_member(i.filename)]


def read_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, archive: str, max_bytes: int) -> bytes:
    """Read one member into memory, refusing it past ``max_bytes`` (headers can lie, so count)."""
    where = f"{archive}!{info.filename}"
    if info.file_size > max_bytes:
        raise ImportFormatError(f"member too large ({info.file_size} bytes > limit {max_bytes})", where)
    try:
        with zf.open(info) as fh:
            data = fh.read(max_bytes + 1)
    except ZIP_ERRORS as exc:
        raise ImportFormatError(f"cannot read zip member ({exc})", where) from None
    if len(data) > max_bytes:
        raise ImportFormatError(f"member too large (> limit {max_bytes} bytes)", where)
    return data


def find_in_zip(
    data: bytes | Path,
    archive: str,
    choose: Callable[[list[zipfile.ZipInfo]], zipfile.ZipInfo | None],
    max_bytes: int = DEFAULT_MAX_MEMBER_BYTES,
    depth: int = 0,
) -> tuple[str, bytes]:
    """Return (member path, bytes) of the member ``choose`` picks, looking into nested zips.

    ``choose`` gets the non-junk members of one archive level and returns one or
    None; when None, single nested ``.zip`` members are searched (depth-limited
    against zip bombs built from nesting).
    """
    zf = open_zip(data, archive)
    with zf:
        members = [i for i in zf.infolist() if not is_junk_member(i.filename)]
        picked = choose(members)
        if picked is not None:
            return f"{archive}!{picked.filename}", read_member(zf, picked, archive, max_bytes)
        if depth < 3:
            for info in members:
                if info.filename.lower().endswith(".zip"):
                    inner = read_member(zf, info, archive, max_bytes)
                    try:
                        return find_in_zip(inner, f"{archive}!{info.filename}", choose, max_bytes, depth + 1)
                    except ImportFormatError as exc:
                        # A hostile or oversized nested archive is an error, not a miss.
                        if not exc.reason.startswith("no suitable"):
                            raise
                        continue
    raise ImportFormatError("no suitable file found in zip", archive)


# --- streaming JSON (ChatGPT, Claude): one conversation in memory at a time ---


class _Limited(io.RawIOBase):
    """A read-only stream that fails once more than ``limit`` bytes came through (zip bombs)."""

    def __init__(self, raw: IO[bytes], limit: int, where: str) -> None:
        self._raw = raw
        self._left = limit
        self._where = where

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        try:
            data = self._raw.read(min(len(buffer), 1 << 16))
        except ZIP_ERRORS as exc:  # a member whose bytes are damaged: found while it streams
            raise ImportFormatError(f"corrupt zip member ({exc})", self._where) from None
        self._left -= len(data)
        if self._left < 0:
            raise ImportFormatError("member larger than the size limit", self._where)
        buffer[: len(data)] = data
        return len(data)


def is_zip(path: Path) -> bool:
    """A zip archive by magic number (or name); unreadable files raise a one-line error."""
    try:
        with path.open("rb") as fh:
            head = fh.read(4)
    except OSError as exc:
        raise ImportFormatError(f"cannot read file ({exc.strerror})", str(path)) from None
    return head.startswith(b"PK\x03\x04") or path.suffix.lower() == ".zip"


MAX_FOLDER_ZIPS = 10  # zips looked at in a folder that holds an export's zip (a Downloads folder)


def folder_zips(folder: Path) -> list[Path]:
    """The .zip files a folder holds at its top, or, when it holds only one folder (``Downloads/``), at that
    folder's top: where an export's zip is left when the folder holding it is imported. Hidden names are skipped;
    none when there are more than MAX_FOLDER_ZIPS (a folder of archives is no export)."""
    for _depth in range(2):
        try:
            entries = sorted(p for p in folder.iterdir() if not p.name.startswith(("." , "__MACOSX")))
        except OSError:
            return []
        zips = [p for p in entries if p.suffix.lower() == ".zip" and p.is_file()]
        if zips:
            return zips if len(zips) <= MAX_FOLDER_ZIPS else []
        dirs = [p for p in entries if p.is_dir()]
        if len(dirs) != 1 or len(entries) != 1:
            return []
        folder = dirs[0]
    return []


def open_members(
    path: Path | IO[bytes],
    archive: str,
    choose: Callable[[list[zipfile.ZipInfo]], list[zipfile.ZipInfo]],
    stack: ExitStack,
    max_bytes: int = DEFAULT_MAX_MEMBER_BYTES,
    depth: int = 0,
    everywhere: bool = False,
) -> list[tuple[str, Callable[[], IO[bytes]]]]:
    """The members ``choose`` picks, each as (its display path, a function opening it as a
    size-capped byte stream); when it picks none (or, with ``everywhere``, in any case), those of
    every nested zip (a zip of chat exports: each of them, never only the first; the contact cards
    of chat zips zipped again), depth-limited against bombs built from nesting.

    Nothing is read into memory: a nested zip is copied, capped, to a spooled temp file
    registered on ``stack`` (kept in memory only while small).
    """
    zf = stack.enter_context(open_zip(path, archive))
    members = [i for i in zf.infolist() if not is_junk_member(i.filename)]
    picked = choose(members)
    found = [_member_opener(zf, info, archive, max_bytes) for info in picked]
    if found and not everywhere:
        return found
    if depth < 3:
        for info in members:
            if not info.filename.lower().endswith(".zip"):
                continue
            inner = f"{archive}!{info.filename}"
            if info.file_size > max_bytes:
                raise ImportFormatError(f"member too large ({info.file_size} bytes > limit {max_bytes})", inner)
            spool = stack.enter_context(tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES))
            try:
                with zf.open(info) as raw:
                    shutil.copyfileobj(io.BufferedReader(_Limited(raw, max_bytes, inner)), spool, 1 << 16)
            except ZIP_ERRORS as exc:
                raise ImportFormatError(f"cannot read zip member ({exc})", inner) from None
            spool.seek(0)
            try:
                found += open_members(spool, inner, choose, stack, max_bytes, depth + 1,  # type: ignore[arg-type]
                                      everywhere)
            except ImportFormatError as exc:
                # A hostile or oversized nested archive is an error, not a miss.
                if not exc.reason.startswith("no suitable"):
                    raise
    if not found:
        raise ImportFormatError("no suitable file found in zip", archive)
    return found


def has_member(path: Path | IO[bytes], suffix: str, depth: int = 0) -> bool:
    """True when a zip (or a zip inside it, depth-limited) holds a member named ``*suffix``;
    names only, nothing extracted. A zip that cannot be read holds nothing."""
    try:
        with zipfile.ZipFile(path) as zf:
            names = [n for n in zf.namelist() if not is_junk_member(n)]
            if any(n.lower().endswith(suffix) for n in names):
                return True
            for name in names if depth < 2 else []:
                if name.lower().endswith(".zip"):
                    with zf.open(name) as inner:  # a zip member is seekable: opened as a zip in place
                        if has_member(inner, suffix, depth + 1):
                            return True
    except ZIP_OPEN_ERRORS:
        return False
    return False


def _member_opener(zf: zipfile.ZipFile, picked: zipfile.ZipInfo, archive: str,
                   max_bytes: int) -> tuple[str, Callable[[], IO[bytes]]]:
    where = f"{archive}!{picked.filename}"
    if picked.file_size > max_bytes:
        raise ImportFormatError(f"member too large ({picked.file_size} bytes > limit {max_bytes})", where)

    def opener() -> IO[bytes]:
        try:
            raw = zf.open(picked)
        except ZIP_ERRORS as exc:
            raise ImportFormatError(f"cannot read zip member ({exc})", where) from None
        return io.BufferedReader(_Limited(raw, max_bytes, where), 1 << 16)

    return where, opener
