"""Helpers shared by the parsers: decoding, marks, hashing, dates, phone numbers; and, re-exported
from the modules they live in, safe zip reading (:mod:`importers._zips`), capped text lines
(:mod:`importers._textlines`) and streaming JSON (:mod:`importers._jsonstream`).

Nothing here touches the filesystem beyond reading the given input: zip members
are read into memory and never extracted, so a hostile archive cannot write
anywhere.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from importers import ImportFormatError

# The helpers moved to their own modules (zips, text lines, streaming JSON) stay importable from here:
# every parser, the engine and the benches import them as importers._common's.
from importers._jsonstream import (  # noqa: F401
    _CUT_BYTES,
    CUT_MARK,
    DEFAULT_MAX_JSON_BYTES,
    MAX_JSON_STRING_BYTES,
    _AfterMarker,
    _boundary,
    _CapStrings,
    _first_char,
    _json_errors,
    _json_stream,
    _list_key,
    _opened,
    _skip_bom,
    _where,
    iter_objects,
    iter_page_array,
    json_sources,
    uncut,
    unread_files,
)
from importers._textlines import (  # noqa: F401
    MAX_LINE_CHARS,
    READ_CHUNK,
    Line,
    _encoding,
    decodes_as,
    iter_lines,
    legacy_codec,
    looks_binary,
    windows_1252,
)
from importers._zips import (  # noqa: F401
    DEFAULT_MAX_MEMBER_BYTES,
    SPOOL_BYTES,
    ZIP_ERRORS,
    ZIP_OPEN_ERRORS,
    _Limited,
    _member_opener,
    check_member_name,
    find_in_zip,
    has_member,
    is_junk_member,
    is_zip,
    open_members,
    open_zip,
    read_member,
)

# Resource caps (README "Bounded resources", with MAX_LINE_CHARS and MAX_JSON_STRING_BYTES): a message is
# never held past these, whatever the input, so memory stays bounded.
MAX_MESSAGE_CHARS = 8_000_000  # one message (all its lines); longer: refused with a warning
MAX_MESSAGE_LINES = 100_000  # lines in one message; more: refused with a warning


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


def strip_marks_fast(text: str) -> str:
    """:func:`strip_marks` by one ``str.translate`` (linear, no per-character lists); most
    lines have no mark at all, found by one regex search."""
    if _ODD_CHARS_RE.search(text) is None:
        return text
    return text.translate(_CLEAN_TABLE)


_ODD_CHARS_RE = re.compile(f"[{INVISIBLE_MARKS}\u00a0\u202f\u2007\u2009]")
_CLEAN_TABLE = {ord(c): None for c in INVISIBLE_MARKS} | {ord(c): " " for c in "\u00a0\u202f\u2007\u2009"}


def describe(conv: Any, id_keys: tuple[str, ...], title_keys: tuple[str, ...]) -> str:
    """A malformed conversation named for a warning: its title and id when it has them."""
    if not isinstance(conv, dict):
        return f"an entry that is {type(conv).__name__}, not an object"
    title = next((str(conv[k]) for k in title_keys if isinstance(conv.get(k), str) and conv[k]), "")
    ident = next((str(conv[k]) for k in id_keys if conv.get(k)), "")
    parts = [f"{title[:80]!r}" if title else "untitled", f"(id {ident[:64]})" if ident else "(no id)"]
    return "conversation " + " ".join(parts)


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


def todo_line(label: str, due: datetime | None, done: bool, done_at: datetime | None = None) -> str:
    """A note app's to-do or reminder as the note's last line, as Evernote 10's tasks read (:mod:`importers.enex`):
    ``[ ] Reminder (due 2024-03-20 09:00 UTC)``, ``[x]`` once done, with when it was done if the app says
    (``[x] To-do (due 2024-03-20 09:00 UTC; done 2024-03-19 18:30 UTC)``); times are aware (shown in UTC) or None."""
    when = [f"due {due.astimezone(timezone.utc):%Y-%m-%d %H:%M} UTC"] if due is not None else []
    if done and done_at is not None:
        when.append(f"done {done_at.astimezone(timezone.utc):%Y-%m-%d %H:%M} UTC")
    return f"[{'x' if done else ' '}] {label}" + (f" ({'; '.join(when)})" if when else "")
