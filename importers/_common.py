"""Helpers shared by the parsers: decoding, safe in-memory zip reading, hashing.

Nothing here touches the filesystem beyond reading the given input: zip members
are read into memory and never extracted, so a hostile archive cannot write
anywhere.
"""

from __future__ import annotations

import hashlib
import io
import re
import zipfile
from collections.abc import Callable
from pathlib import Path, PurePosixPath

from importers import ImportFormatError

DEFAULT_MAX_MEMBER_BYTES = 512 * 1024 * 1024

# Bidi and formatting marks WhatsApp (and others) sprinkle into exports.
INVISIBLE_MARKS = "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff\u061c"
_MARKS_RE = re.compile(f"[{INVISIBLE_MARKS}]")
_SPACES_RE = re.compile("[\u00a0\u202f\u2007\u2009]")


def strip_marks(text: str) -> str:
    """Remove bidi/format marks and turn non-breaking spaces into plain spaces."""
    return _SPACES_RE.sub(" ", _MARKS_RE.sub("", text))


def sha1_hex(text: str) -> str:
    """Hex SHA-1 of a UTF-8 string (used for refs, not for security)."""
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def looks_binary(data: bytes) -> bool:
    """True when a byte string is plainly not text (NULs without a UTF-16 BOM)."""
    head = data[:8192]
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return False
    return b"\x00" in head


def decode_text(data: bytes, file: str) -> str:
    """Decode export bytes: UTF-8 (with or without BOM), then UTF-16 with a BOM.

    Raises a one-line :class:`ImportFormatError` naming the file otherwise.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise ImportFormatError(f"invalid UTF-16 text ({exc.reason} at byte {exc.start})", file) from None
    if looks_binary(data):
        raise ImportFormatError("binary data, not a text export", file)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ImportFormatError(
            f"not UTF-8 or UTF-16 text (undecodable byte 0x{data[exc.start]:02x}); re-export as UTF-8", file, line
        ) from None


def split_lines(text: str) -> list[str]:
    """Split on CRLF, CR or LF only: str.splitlines also breaks on U+2028 etc. inside messages."""
    lines = re.split(r"\r\n|\r|\n", text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


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


def open_zip(data: bytes | Path, archive: str) -> zipfile.ZipFile:
    """Open a zip from bytes or a path, checking every member name for zip slip."""
    try:
        zf = zipfile.ZipFile(io.BytesIO(data) if isinstance(data, bytes) else data)
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise ImportFormatError(f"malformed zip archive ({exc})", archive) from None
    for info in zf.infolist():
        check_member_name(info.filename, archive)
    return zf


def read_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, archive: str, max_bytes: int) -> bytes:
    """Read one member into memory, refusing it past ``max_bytes`` (headers can lie, so count)."""
    where = f"{archive}!{info.filename}"
    if info.file_size > max_bytes:
        raise ImportFormatError(f"member too large ({info.file_size} bytes > limit {max_bytes})", where)
    try:
        with zf.open(info) as fh:
            data = fh.read(max_bytes + 1)
    except (zipfile.BadZipFile, OSError, EOFError, RuntimeError, NotImplementedError) as exc:
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
