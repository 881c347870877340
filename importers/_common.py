"""Helpers shared by the parsers: decoding, safe in-memory zip reading, hashing,
streaming JSON.

Nothing here touches the filesystem beyond reading the given input: zip members
are read into memory and never extracted, so a hostile archive cannot write
anywhere.
"""

from __future__ import annotations

import codecs
import hashlib
import io
import re
import shutil
import struct
import tempfile
import zipfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import IO, Any

import ijson

from importers import ImportFormatError
from importers.recode import Recoded, utf16_codec

DEFAULT_MAX_MEMBER_BYTES = 512 * 1024 * 1024  # a chat file or zip member past this is refused

# Resource caps (README "Bounded resources"): parsers read line by line and never hold a
# line, a message or a JSON string past these, whatever the input, so memory stays bounded.
MAX_LINE_CHARS = 1_000_000  # one physical line of a text export; longer: its message is refused
MAX_MESSAGE_CHARS = 8_000_000  # one message (all its lines); longer: refused with a warning
MAX_MESSAGE_LINES = 100_000  # lines in one message; more: refused with a warning
SPOOL_BYTES = 16 * 1024 * 1024  # a nested zip is spooled to a temp file past this (never all in memory)

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



def iso_time(value: Any) -> datetime | None:
    """An ISO 8601 string as a datetime ("Z" read as UTC: Python 3.10 rejects it); None for anything else."""
    if not isinstance(value, str) or not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


def head_matches(path: Path, is_head: Callable[[bytes], bool], size: int = 64 * 1024) -> bool:
    """Whether the first ``size`` bytes of ``path`` pass ``is_head`` (False when the file cannot be read):
    how a notes app's JSON export is told from another JSON file without parsing it."""
    try:
        with path.open("rb") as fh:
            return is_head(fh.read(size))
    except OSError:
        return False


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

DEFAULT_MAX_JSON_BYTES = 8 * 1024 * 1024 * 1024


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


MAX_JSON_STRING_BYTES = 8_000_000  # one JSON string (a message's text); longer: cut, flagged, refused
CUT_MARK = "\ufdd0"  # a Unicode noncharacter: never in real text, marks a string cut at the cap
_CUT_BYTES = b"\\ufdd0"  # the same as a JSON escape, written where a string is cut
_ESCAPE_RE = re.compile(rb"\\.", re.DOTALL)  # a backslash and the byte it escapes


class _CapStrings(io.RawIOBase):
    """JSON bytes with every string cut at ``cap`` bytes (the rest skipped, ``CUT_MARK`` put in
    its place), so the JSON parser never builds a huge string: yajl builds long strings in
    superlinear time (64 MB: 24 s) and holds them whole. Whole strings inside one read are
    passed over by one regex; only a string that crosses reads is followed read by read, and
    one of over ``cap`` bytes crosses ``cap / 64 KB`` of them."""

    def __init__(self, raw: IO[bytes], cap: int) -> None:
        self._raw = raw
        self._cap = cap
        self._out = b""
        self._eof = False
        self._in_string = False
        self._carry = b""  # an unfinished escape or UTF-8 character held for the next read
        self._length = 0  # bytes of the current string so far
        self._skipping = False  # the current string is over the cap: drop the rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while not self._out and not self._eof:
            chunk = self._raw.read(1 << 16)
            if not chunk:
                self._eof = True
                self._out, self._carry = self._carry, b""
                break
            self._out = self._filter(chunk)
        n = min(len(buffer), len(self._out))
        buffer[:n] = self._out[:n]
        self._out = self._out[n:]
        return n

    def _filter(self, chunk: bytes) -> bytes:
        if self._carry:
            chunk, self._carry = self._carry + chunk, b""
        # Escape pairs masked to "__": what is left of '"' are the quotes that open and close
        # strings, so the string state follows from counting them (all in C).
        masked = _ESCAPE_RE.sub(b"__", chunk) if b"\\" in chunk else chunk
        out: list[bytes] = []
        pos, n = 0, len(chunk)
        while True:
            if not self._in_string:
                if masked.count(b'"', pos) % 2 == 0:  # every string here closes here: all short
                    out.append(chunk[pos:])
                    break
                opening = masked.rfind(b'"')
                out.append(chunk[pos:opening + 1])
                pos = opening + 1
                self._in_string, self._length, self._skipping = True, 0, False
                continue
            quote = masked.find(b'"', pos)
            end = quote
            if quote < 0:
                # The read ends inside the string: keep an unfinished escape or UTF-8
                # character for the next read, so every piece starts on a boundary.
                end = _boundary(chunk, pos, n)
                self._carry = chunk[end:]
            if self._skipping:
                pass
            elif self._length + end - pos > self._cap:
                cut = _boundary(chunk, pos, pos + self._cap - self._length)
                out.append(chunk[pos:cut])
                out.append(_CUT_BYTES)
                self._skipping = True
            else:
                out.append(chunk[pos:end])
            self._length += end - pos
            if quote < 0:
                break
            out.append(b'"')
            self._in_string = False
            pos = quote + 1
        return b"".join(out)


def _boundary(chunk: bytes, start: int, end: int) -> int:
    """The last position <= ``end`` inside a JSON string (whose piece starts on a boundary at
    ``start``) that splits neither an escape sequence nor a UTF-8 character."""
    slash = chunk.rfind(b"\\", max(start, end - 6), end)
    if slash >= 0:
        first = slash
        while first > start and chunk[first - 1] == 0x5C:
            first -= 1
        # From a boundary, a run of backslashes alternates escape start, escaped backslash, ...
        if (slash - first) % 2 == 0 and (slash + 1 >= end or (chunk[slash + 1] == 0x75 and slash + 6 > end)):
            return slash
    k = end - 1
    while k > start and end - k < 4 and 0x80 <= chunk[k] < 0xC0:
        k -= 1
    if start <= k < end and chunk[k] >= 0xC0:
        need = 2 if chunk[k] < 0xE0 else 3 if chunk[k] < 0xF0 else 4
        if end - k < need:
            return k
    return end


def _json_stream(raw: IO[bytes], where: str) -> io.BufferedReader:
    """``raw`` as UTF-8 JSON bytes with long strings capped: UTF-16 recoded, a BOM skipped."""
    fh = raw if isinstance(raw, io.BufferedReader) else io.BufferedReader(raw, 1 << 16)  # type: ignore[type-var]
    codec = utf16_codec(fh.peek(8)[:8])
    source: IO[bytes] = io.BufferedReader(Recoded(fh, codec, where), 1 << 16) if codec else fh
    return _skip_bom(io.BufferedReader(_CapStrings(source, MAX_JSON_STRING_BYTES), 1 << 16))


@contextmanager
def _opened(source: tuple[Path, str | None], limit: int) -> Iterator[IO[bytes]]:
    path, member = source
    if member is None:
        with path.open("rb") as fh:
            yield _json_stream(fh, str(path))
        return
    with zipfile.ZipFile(path) as zf, zf.open(member) as raw:
        yield _json_stream(io.BufferedReader(_Limited(raw, limit, f"{path}!{member}")), f"{path}!{member}")


def _skip_bom(fh: io.BufferedReader) -> io.BufferedReader:
    """``fh`` past a UTF-8 byte order mark (Notepad and PowerShell write one; JSON parsers refuse it)."""
    if fh.peek(3)[:3] == b"\xef\xbb\xbf":
        fh.read(3)
    return fh


def is_zip(path: Path) -> bool:
    """A zip archive by magic number (or name); unreadable files raise a one-line error."""
    try:
        with path.open("rb") as fh:
            head = fh.read(4)
    except OSError as exc:
        raise ImportFormatError(f"cannot read file ({exc.strerror})", str(path)) from None
    return head.startswith(b"PK\x03\x04") or path.suffix.lower() == ".zip"


def json_sources(path: Path, accept: Callable[[str], bool]) -> list[tuple[Path, str | None]]:
    """List (file, zip member or None) JSON sources for a file, directory or zip.

    ``accept`` gets a base name (e.g. ``conversations-001.json``) and says whether
    that file belongs to the export.
    """
    file = str(path)
    if path.is_dir():
        found = sorted(p for p in path.iterdir() if p.is_file() and accept(p.name))
        if not found:
            raise ImportFormatError("directory holds no matching .json export file", file)
        return [(p, None) for p in found]
    if is_zip(path):
        try:
            with zipfile.ZipFile(path) as zf:
                names = [i.filename for i in zf.infolist()]
        except ZIP_OPEN_ERRORS as exc:
            raise ImportFormatError(f"malformed zip archive ({exc})", file) from None
        for name in names:
            check_member_name(name, file)
        members = sorted(n for n in names if not is_junk_member(n) and accept(n.rsplit("/", 1)[-1]))
        if not members:
            raise ImportFormatError("zip holds no matching .json export file", file)
        return [(path, m) for m in members]
    return [(path, None)]


def unread_files(path: Path, read: list[tuple[Path, str | None]]) -> list[str]:
    """The export's other files beside those read (``user.json``, ``users.json``, ``message_feedback.json``,
    a ``chat.html`` that repeats the conversations ...): their names, for the summary's one-line note
    (``variant["not_read"]``) that says what was left out. Top-level files of a folder, members of a zip;
    junk (``__MACOSX``, ``.DS_Store``) and pictures or attachments (not JSON or HTML) are not named."""
    taken = {(member or file.name).rsplit("/", 1)[-1] for file, member in read}
    try:
        if path.is_dir():
            names = [p.name for p in path.iterdir() if p.is_file()]
        elif is_zip(path):
            with zipfile.ZipFile(path) as zf:
                names = [n.rsplit("/", 1)[-1] for n in zf.namelist() if not is_junk_member(n)]
        else:
            return []
    except ZIP_OPEN_ERRORS:
        return []
    except OSError:
        return []
    return sorted({n for n in names if n.lower().endswith((".json", ".jsonl", ".html")) and n not in taken})


def _where(source: tuple[Path, str | None]) -> str:
    return f"{source[0]}!{source[1]}" if source[1] else str(source[0])


def _first_char(fh: IO[bytes], where: str) -> str:
    head = fh.read(4096)
    if not head.strip():
        raise ImportFormatError("empty file", where)
    if looks_binary(head):
        raise ImportFormatError("binary data, not JSON", where)
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    return chr(text[0]) if text else ""


def _list_key(fh: IO[bytes], wanted: str, own_keys: frozenset[str]) -> str | None:
    """The key of the first top-level object under which the export's list stands: ``wanted``
    (``{"conversations": [...]}``) when present, else the first key holding a list of objects
    (a third-party exporter's ``{"exported_at": ..., "items": [...]}``); None when the object is
    itself an item (it has one of ``own_keys``, e.g. a conversation's ``chat_messages``) or holds
    no such list. Reads the first top-level value only."""
    found: str | None = None
    key = ""
    opened = ""
    for prefix, event, value in ijson.parse(fh, use_float=True, multiple_values=True):
        if prefix == "" and event == "map_key":
            key = str(value)
            if key == wanted:
                return key
            if key in own_keys:
                return None
        elif event == "start_array" and prefix == key and "." not in key:
            opened = key
        elif event == "start_map" and opened and prefix == f"{opened}.item":
            found = found or opened
            opened = ""
        elif prefix == "" and event == "end_map":
            break
        else:
            opened = ""
    return found


@contextmanager
def _json_errors(where: str) -> Iterator[None]:
    """Turn what a JSON stream raises into one-line :class:`ImportFormatError`s naming ``where``."""
    try:
        yield
    except ijson.JSONError as exc:
        # yajl's message draws the spot over three lines: the first says what is wrong
        reason = " ".join(str(exc).strip().splitlines()[0].split()) or type(exc).__name__
        raise ImportFormatError(f"invalid or truncated JSON ({reason})", where) from None
    except UnicodeDecodeError:
        raise ImportFormatError("JSON is not valid UTF-8", where) from None
    except ZIP_ERRORS as exc:
        raise ImportFormatError(f"cannot read ({exc})", where) from None


def iter_objects(
    source: tuple[Path, str | None], wrapper_key: str, limit: int = DEFAULT_MAX_JSON_BYTES,
    own_keys: frozenset[str] = frozenset(),
) -> Iterator[Any]:
    """Yield the conversations of one JSON source, one at a time (whatever their shape: the
    parser checks each and skips a malformed one with a warning).

    Accepts a top-level list, an object wrapping the list under ``wrapper_key`` (or under the
    first key holding a list of objects, :func:`_list_key`), a single conversation object (one
    with a key of ``own_keys``), or JSON lines of them; UTF-8 (BOM or not) or UTF-16. JSON errors
    become ImportFormatError. Strings over ``MAX_JSON_STRING_BYTES`` arrive cut, ending in ``CUT_MARK``.
    """
    where = _where(source)
    with _json_errors(where):
        with _opened(source, limit) as fh:
            first = _first_char(fh, where)
        if first not in "[{" or not first:
            raise ImportFormatError("not a JSON export (does not start with '[' or '{')", where, 1)
        if first == "[":
            prefix = "item"
        else:
            with _opened(source, limit) as fh:
                key = _list_key(fh, wrapper_key, own_keys)
            prefix = f"{key}.item" if key else ""
        with _opened(source, limit) as fh:
            # multiple_values: JSON lines (a conversation a line) are a list without brackets
            yield from ijson.items(fh, prefix, use_float=True, multiple_values=True)


class _AfterMarker(io.RawIOBase):
    """The bytes of ``raw`` after the first ``marker`` (a page's ``var jsonData = ``), streamed;
    ``found`` says whether the marker was seen (checked after the first read)."""

    def __init__(self, raw: IO[bytes], marker: bytes) -> None:
        self._raw = raw
        self._marker = marker
        self._pending = b""
        self.found = False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if not self.found:
            tail = b""
            while True:
                chunk = self._raw.read(1 << 16)
                if not chunk:
                    return 0
                window = tail + chunk
                at = window.find(self._marker)
                if at >= 0:
                    self.found = True
                    self._pending = window[at + len(self._marker):]
                    break
                tail = window[-len(self._marker):]
        data = self._pending or self._raw.read(min(len(buffer), 1 << 16))
        self._pending = b""
        n = min(len(data), len(buffer))
        buffer[:n] = data[:n]
        self._pending = data[n:]
        return n


def iter_page_array(source: tuple[Path, str | None], marker: bytes, limit: int = DEFAULT_MAX_JSON_BYTES
                    ) -> Iterator[Any]:
    """The items of the JSON array a web page assigns after ``marker`` (ChatGPT's chat.html:
    ``var jsonData = [...];`` then the page's script), streamed one at a time; reading stops
    where the array closes. A page without the marker, or a cut array, is a one-line error."""
    where = _where(source)
    path, member = source
    with _json_errors(where):
        with ExitStack() as stack:
            if member is None:
                raw: IO[bytes] = stack.enter_context(path.open("rb"))
            else:
                zf = stack.enter_context(zipfile.ZipFile(path))
                raw = io.BufferedReader(_Limited(stack.enter_context(zf.open(member)), limit, where))
            after = _AfterMarker(raw, marker)
            fh = io.BufferedReader(_CapStrings(io.BufferedReader(after, 1 << 16), MAX_JSON_STRING_BYTES), 1 << 16)
            if not fh.peek(1) and not after.found:
                raise ImportFormatError(f"no {marker.decode().strip()} array in this page", where)

            def events() -> Iterator[tuple[str, str, Any]]:
                for prefix, event, value in ijson.parse(fh, use_float=True):
                    yield prefix, event, value
                    if prefix == "" and event in ("end_array", "end_map"):
                        return

            yield from ijson.items(events(), "item")


# --- streaming text: one capped line at a time --------------------------------------


@dataclass
class Line:
    """One physical line of a text export: its number (1-based), its text without the
    line break, and its full length in characters (> len(text) when it was over the cap)."""

    no: int
    text: str
    length: int

    @property
    def overlong(self) -> bool:
        """True when the line was longer than the cap and ``text`` is only its start."""
        return self.length > len(self.text)


_NEWLINE_RE = re.compile(r"\r\n|\r|\n")  # CRLF, CR or LF end a line; U+2028 stays inside a message
READ_CHUNK = 1 << 16


def _encoding(raw: IO[bytes], where: str) -> tuple[str, bytes]:
    """(codec, first bytes already read) for export bytes: UTF-16 with a BOM, else UTF-8
    (BOM optional). Binary data (NULs without a UTF-16 BOM) and empty files are refused."""
    head = raw.read(READ_CHUNK)
    if not head.strip(b" \t\r\n\xef\xbb\xbf"):
        more = raw.read(READ_CHUNK)
        if not more:
            raise ImportFormatError("empty file", where)
        head += more
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16", head
    if looks_binary(head):
        raise ImportFormatError("binary data, not a text export", where)
    return "utf-8-sig", head


def iter_lines(raw: IO[bytes], where: str, cap: int = MAX_LINE_CHARS) -> Iterator[Line]:
    """Lines of a text export, streamed: never more than ``cap`` characters of one line in memory.

    A longer line yields its first ``cap`` characters with its true ``length`` (the caller
    refuses what it belongs to, loudly). Undecodable bytes raise a one-line error naming the line.
    """
    encoding, chunk = _encoding(raw, where)
    decoder = codecs.getincrementaldecoder(encoding)("strict")
    no = 0
    buf = ""
    length = 0
    pending_cr = False
    while True:
        final = not chunk
        try:
            text = decoder.decode(chunk, final)
        except UnicodeDecodeError as exc:
            line = no + 1 + chunk[: max(0, exc.start)].count(b"\n")
            if encoding == "utf-16":  # a BOM said UTF-16: broken UTF-16, not another code page
                raise ImportFormatError(f"invalid UTF-16 text ({exc.reason})", where, line) from None
            raise ImportFormatError(f"not UTF-8 or UTF-16 text ({exc.reason}); re-export as UTF-8", where, line) from None
        pos = 1 if pending_cr and text.startswith("\n") else 0
        pending_cr = False
        for m in _NEWLINE_RE.finditer(text, pos):
            seg = text[pos:m.start()]
            length += len(seg)
            if len(buf) < cap:
                buf += seg[: cap - len(buf)]
            no += 1
            yield Line(no, buf, length)
            buf, length = "", 0
            pos = m.end()
            pending_cr = m.group() == "\r" and pos == len(text)
        seg = text[pos:]
        length += len(seg)
        if len(buf) < cap:
            buf += seg[: cap - len(buf)]
        if final:
            if length:
                yield Line(no + 1, buf, length)
            return
        chunk = raw.read(READ_CHUNK)


def windows_1252(opener: Callable[[], IO[bytes]], codec: str = "cp1252") -> Callable[[], IO[bytes]]:
    """``opener`` re-coded from Windows-1252 (or ``codec``) to UTF-8, streamed: a file saved by
    Notepad as "ANSI" (or written by Outlook, or a Japanese phone in Shift_JIS) before UTF-8.
    Undecodable bytes (the code page's five undefined ones) read as U+FFFD: this never fails."""

    def recoded() -> IO[bytes]:
        return codecs.EncodedFile(opener(), "utf-8", codec, errors="replace")  # type: ignore[return-value]

    return recoded


def legacy_codec(opener: Callable[[], IO[bytes]]) -> tuple[str, str]:
    """(codec, name) to read a text export that is not valid UTF-8 with: ``utf-8`` (bad bytes as
    U+FFFD) when it is UTF-8 with a few damaged bytes (its valid multi-byte characters outnumber
    the bad bytes: reading it as a code page would garble every one of them), else Windows-1252
    (a file saved as "ANSI", whose accented letters are single bytes)."""
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    wide = bad = 0
    with opener() as fh:
        while chunk := fh.read(READ_CHUNK):
            text = decoder.decode(chunk)
            bad += text.count("\ufffd")
            wide += sum(1 for ch in text if ch > "\x7f") - text.count("\ufffd")
    if wide > bad:
        return "utf-8", "UTF-8, undecodable bytes as U+FFFD"
    return "cp1252", "Windows-1252"


def decodes_as(opener: Callable[[], IO[bytes]], codec: str) -> bool:
    """True when the whole stream decodes strictly as ``codec`` (read a chunk at a time)."""
    decoder = codecs.getincrementaldecoder(codec)("strict")
    try:
        with opener() as fh:
            while chunk := fh.read(READ_CHUNK):
                decoder.decode(chunk)
        decoder.decode(b"", True)
    except (UnicodeDecodeError, ValueError):
        return False
    return True


def strip_marks_fast(text: str) -> str:
    """:func:`strip_marks` by one ``str.translate`` (linear, no per-character lists); most
    lines have no mark at all, found by one regex search."""
    if _ODD_CHARS_RE.search(text) is None:
        return text
    return text.translate(_CLEAN_TABLE)


_ODD_CHARS_RE = re.compile(f"[{INVISIBLE_MARKS}\u00a0\u202f\u2007\u2009]")
_CLEAN_TABLE = {ord(c): None for c in INVISIBLE_MARKS} | {ord(c): " " for c in "\u00a0\u202f\u2007\u2009"}


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


def describe(conv: Any, id_keys: tuple[str, ...], title_keys: tuple[str, ...]) -> str:
    """A malformed conversation named for a warning: its title and id when it has them."""
    if not isinstance(conv, dict):
        return f"an entry that is {type(conv).__name__}, not an object"
    title = next((str(conv[k]) for k in title_keys if isinstance(conv.get(k), str) and conv[k]), "")
    ident = next((str(conv[k]) for k in id_keys if conv.get(k)), "")
    parts = [f"{title[:80]!r}" if title else "untitled", f"(id {ident[:64]})" if ident else "(no id)"]
    return "conversation " + " ".join(parts)


def uncut(text: str) -> str:
    """``text`` without a cut mark (and the lone surrogate half a cut can leave before it)."""
    if CUT_MARK not in text:
        return text
    head = text.split(CUT_MARK, 1)[0]
    if head and "\ud800" <= head[-1] <= "\udbff":
        head = head[:-1]
    return head + " …"


def normalise_phone(raw: str) -> str:
    """Digits only, keeping a leading ``+`` (``tel:`` URIs and spacing removed)."""
    value = re.sub(r"^tel:", "", raw.strip(), flags=re.IGNORECASE).split(";")[0]
    digits = re.sub(r"\D", "", value)
    if not digits:
        return ""
    if value.lstrip().startswith("+"):
        return "+" + digits
    if value.lstrip().startswith("00") and len(digits) > 9:
        return "+" + digits[2:]
    return digits
