"""Streaming JSON for the chat exports (ChatGPT, Claude) and notes apps, one conversation in memory
at a time (split out of :mod:`importers._common`): long strings capped as they pass (``CUT_MARK``
where one was cut, :func:`uncut` to show it), UTF-16 recoded, a BOM skipped, a list found under a
wrapper key, JSON lines, and ChatGPT's ``chat.html`` page array."""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import IO, Any

import ijson

from importers import ImportFormatError
from importers._textlines import looks_binary
from importers._zips import (
    ZIP_ERRORS,
    ZIP_OPEN_ERRORS,
    _Limited,
    check_member_name,
    folder_zips,
    is_junk_member,
    is_zip,
)
from importers.recode import Recoded, utf16_codec

DEFAULT_MAX_JSON_BYTES = 8 * 1024 * 1024 * 1024
MAX_JSON_STRING_BYTES = 8_000_000  # one JSON string (a message's text); longer: cut, flagged, refused
CUT_MARK = "\ufdd0"  # a Unicode noncharacter: never in real text, marks a string cut at the cap
_CUT_BYTES = b"\\ufdd0"  # the same as a JSON escape, written where a string is cut
_ESCAPE_RE = re.compile(rb"\\.", re.DOTALL)  # a backslash and the byte it escapes
# A lone half of a surrogate pair written as an escape ("\ud83c" not followed by its low half: an emoji cut in two
# by a title's cut): yajl reads it as "?", which reads as the writer's own question mark. It is U+FFFD, as a viewer
# shows it. An escape counts after an even run of backslashes ("\\ud83c" is a backslash and the letters "ud83c").
_LONE_SURROGATE_RE = re.compile(rb"(?<!\\)((?:\\\\)*)\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
                                rb"|(?<!\\)(?<!\\u[dD][89abAB][0-9a-fA-F]{2})((?:\\\\)*)\\u[dD][c-fC-F][0-9a-fA-F]{2}")


def _lone_surrogates(data: bytes) -> bytes:
    """``data`` with every lone surrogate escape replaced by ``\\ufffd`` (see above)."""
    if b"\\ud" not in data and b"\\uD" not in data:
        return data
    return _LONE_SURROGATE_RE.sub(lambda m: (m.group(1) or m.group(2) or b"") + b"\\ufffd", data)


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
        return _lone_surrogates(b"".join(out))


def _boundary(chunk: bytes, start: int, end: int) -> int:
    """The last position <= ``end`` inside a JSON string (whose piece starts on a boundary at
    ``start``) that splits neither an escape sequence nor a UTF-8 character."""
    slash = chunk.rfind(b"\\", max(start, end - 6), end)
    if slash >= 0:
        first = slash
        while first > start and chunk[first - 1] == 0x5C:
            first -= 1
        # From a boundary, a run of backslashes alternates escape start, escaped backslash, ...
        # (a whole high surrogate escape at the end waits for its low half too: the pair is told apart from a lone half)
        if (slash - first) % 2 == 0 and (slash + 1 >= end or (chunk[slash + 1] == 0x75 and (
                slash + 6 > end or chunk[slash + 2:slash + 4].lower() in (b"d8", b"d9", b"da", b"db")))):
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


def json_sources(path: Path, accept: Callable[[str], bool]) -> list[tuple[Path, str | None]]:
    """List (file, zip member or None) JSON sources for a file, directory or zip.

    ``accept`` gets a base name (e.g. ``conversations-001.json``) and says whether
    that file belongs to the export.
    """
    file = str(path)
    if path.is_dir():
        found = sorted(p for p in path.iterdir() if p.is_file() and accept(p.name))
        if not found:
            # the export's zip left in the folder (Downloads/): its members, zip by zip
            inner = [s for z in folder_zips(path) if is_zip(z) for s in _zip_sources(z, accept, str(z), quiet=True)]
            if inner:
                return inner
            raise ImportFormatError("directory holds no matching .json export file", file)
        return [(p, None) for p in found]
    if is_zip(path):
        return _zip_sources(path, accept, file)
    return [(path, None)]


def _zip_sources(path: Path, accept: Callable[[str], bool], file: str,
                 quiet: bool = False) -> list[tuple[Path, str | None]]:
    """The accepted members of a zip; ``quiet``: none (no error) when it holds none or is no zip."""
    try:
        with zipfile.ZipFile(path) as zf:
            names = [i.filename for i in zf.infolist()]
    except ZIP_OPEN_ERRORS as exc:
        if quiet:
            return []
        raise ImportFormatError(f"malformed zip archive ({exc})", file) from None
    for name in names:
        check_member_name(name, file)
    members = sorted(n for n in names if not is_junk_member(n) and accept(n.rsplit("/", 1)[-1]))
    if not members and not quiet:
        raise ImportFormatError("zip holds no matching .json export file", file)
    return [(path, m) for m in members]


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


def _list_key(fh: IO[bytes], wanted: str, own_keys: frozenset[str], where: str = "") -> str | None:
    """The key of the first top-level object under which the export's list stands: ``wanted``
    (``{"conversations": [...]}``) when present, else the first key holding a list of objects
    (a third-party exporter's ``{"exported_at": ..., "items": [...]}``); None when the object is
    itself an item (it has one of ``own_keys``, e.g. a conversation's ``chat_messages``) or holds
    no such list. Reads the first top-level value only, from ijson's bare events (its prefixed ones
    cost the depth on every event: a value nested n deep cost n²) and refuses one nested over
    ``MAX_JSON_DEPTH`` levels."""
    found: str | None = None
    key = ""
    depth = 0
    last = ""  # what the previous event opened: "key" (a top-level key), "list" (its list) or ""
    for event, value in ijson.basic_parse(fh, use_float=True, multiple_values=True):
        if event in ("start_map", "start_array"):
            depth += 1
            if depth > MAX_JSON_DEPTH:
                raise ImportFormatError(f"JSON nested over {MAX_JSON_DEPTH} levels", where)
            if event == "start_array" and depth == 2 and last == "key":
                last = "list"
                continue
            if event == "start_map" and depth == 3 and last == "list":
                found = found or key
        elif event in ("end_map", "end_array"):
            depth -= 1
            if depth == 0:
                break
        elif event == "map_key" and depth == 1:
            key = str(value)
            if key == wanted:
                return key
            if key in own_keys:
                return None
            last = "key"
            continue
        last = ""
    return found


MAX_JSON_DEPTH = 512  # levels of a chat or notes export (real ones: under 30); deeper is refused


def _build_items(events: Iterator[tuple[str, Any]], path: tuple[str, ...], where: str, what: str = "object",
                 first_only: bool = False) -> Iterator[Any]:
    """The values at ``path`` ("item" for a list's element, else a key: ``("conversations", "item")``; ``()``
    for each top-level value) built from ijson's bare events, one at a time. Not ``ijson.items``: each of
    its events carries the path from the top, so a value nested n deep cost n² time and memory (80 KB
    nested 40,000 deep took 3.9 GB); here each event costs O(1) and a value nested over ``MAX_JSON_DEPTH``
    levels is refused, naming which ``what`` of the export it was. ``first_only`` stops where the first
    top-level value closes (a web page's array, the script after it unread)."""
    slots: list[str] = []  # per open container above the values wanted: "item" or the current key
    target = len(path)
    room = MAX_JSON_DEPTH - target  # levels left for the value being built
    built: list[Any] = []  # the containers of the value being built, outermost first
    keys: list[Any] = []
    count = 0
    for event, value in events:
        if built:  # inside a value wanted: most events, so tested first and kept short
            if event == "map_key":
                keys[-1] = value
                continue
            if event == "start_map" or event == "start_array":
                if len(built) >= room:
                    raise ImportFormatError(f"JSON nested over {MAX_JSON_DEPTH} levels in {what} {count + 1}", where)
                built.append({} if event == "start_map" else [])
                keys.append(None)
                continue
            if event == "end_map" or event == "end_array":
                value = built.pop()
                keys.pop()
                if not built:
                    count += 1
                    yield value
                    continue
            parent = built[-1]
            if parent.__class__ is list:
                parent.append(value)
            else:
                parent[keys[-1]] = value
            continue
        if event == "map_key":
            slots[-1] = value
            continue
        opening = event == "start_map" or event == "start_array"
        at_target = len(slots) == target and (not target or slots == list(path))
        if opening and at_target:
            built.append({} if event == "start_map" else [])
            keys.append(None)
            continue
        if opening:
            if len(slots) >= MAX_JSON_DEPTH:
                raise ImportFormatError(f"JSON nested over {MAX_JSON_DEPTH} levels", where)
            slots.append("item" if event == "start_array" else "")
            continue
        if event == "end_map" or event == "end_array":
            slots.pop()
        elif at_target:
            count += 1
            yield value
        if first_only and not slots:
            return


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
                key = _list_key(fh, wrapper_key, own_keys, where)
            prefix = f"{key}.item" if key else ""
        path = tuple(prefix.split(".")) if prefix else ()
        with _opened(source, limit) as fh:
            # multiple_values: JSON lines (a conversation a line) are a list without brackets
            yield from _build_items(ijson.basic_parse(fh, use_float=True, multiple_values=True), path, where,
                                    "conversation")


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
            yield from _build_items(ijson.basic_parse(fh, use_float=True), ("item",), where, "conversation", first_only=True)


# --- streaming text: one capped line at a time --------------------------------------


def uncut(text: str) -> str:
    """``text`` without a cut mark (and the lone surrogate half a cut can leave before it)."""
    if CUT_MARK not in text:
        return text
    head = text.split(CUT_MARK, 1)[0]
    if head and "\ud800" <= head[-1] <= "\udbff":
        head = head[:-1]
    return head + " …"
