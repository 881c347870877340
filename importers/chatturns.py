"""What the chat apps' parsers share (Telegram, Slack, Discord, Messenger/Instagram, iMessage): a message becomes
a chat turn shaped as WhatsApp's are (``Author: text``, the author, the time, the chat as thread, its position in
the chat), counted in the report as seen, system or media; times read from an epoch or ISO 8601 with one-line
errors naming the message and the field; JSON streamed message by message with ijson (a chat's header keys, then
each message, one in memory at a time) and capped as :mod:`importers._jsonstream` caps every export.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import IO, Any

import ijson

from importers import ImportFormatError, ImportReport, Record
from importers._common import sha1_hex, strip_marks_fast
from importers._jsonstream import MAX_JSON_DEPTH, _json_stream, uncut
from importers._zips import DEFAULT_MAX_MEMBER_BYTES, read_member

SYSTEM = "system"
MEDIA = "media"


@dataclass
class Turn:
    """One message as an app's parser read it, before it is a record (or a skip)."""

    thread: str
    author: str
    when: datetime | None
    text: str
    ref: str | None = None  # the app's own stable id of the message; None: made from time, author and text
    metadata: dict[str, Any] = field(default_factory=dict)
    links: list[tuple[str, str]] = field(default_factory=list)
    line: int | None = None


class Turns:
    """Numbers each chat's turns (positions per thread) and makes their records; a turn of no words is counted as
    media (when it carried a file) or empty, as WhatsApp's importer counts them."""

    def __init__(self, source: str, report: ImportReport) -> None:
        self.source = source
        self.report = report
        self._positions: dict[str, int] = {}
        self._seen: dict[tuple[str, str], int] = {}  # hashed refs: how many times each was made (bounded below)

    def skip(self, why: str) -> None:
        """A message seen and left out: a service line (``SYSTEM``) or a file without words (``MEDIA``)."""
        self.report.messages_seen += 1
        if why == SYSTEM:
            self.report.skipped_system += 1
        else:
            self.report.skipped_media += 1

    def record(self, turn: Turn) -> Record | None:
        """The record of ``turn`` (counted as seen), or None for a turn without words."""
        self.report.messages_seen += 1
        text = clean(turn.text)
        if not text.strip():
            if turn.metadata.get("media"):
                self.report.skipped_media += 1
            else:
                self.report.skipped_empty += 1
            return None
        author = clean(turn.author).strip() or "Unknown"
        ref = turn.ref
        if ref is None:
            iso = turn.when.isoformat() if turn.when else ""
            digest = sha1_hex(text)[:12]
            key = (turn.thread, f"{iso}|{author}|{digest}")
            n = self._seen.get(key, 0)
            if len(self._seen) > 100_000:  # repeats sit next to each other: the memory this takes stays bounded
                self._seen.clear()
            self._seen[key] = n + 1
            ref = f"{self.source}:{turn.thread}:{iso}:{author}:{digest}:{n}"
        position = self._positions.get(turn.thread, 0)
        self._positions[turn.thread] = position + 1
        return Record(content=f"{author}: {text}", ref=ref, source=self.source, memory_type="episodic",
                      event_at=turn.when, author=author, thread=turn.thread, position=position,
                      metadata={"chat": turn.thread, **turn.metadata}, links=list(turn.links), line=turn.line)


def clean(text: str) -> str:
    """Text as a memory keeps it: bidi marks dropped, a string cut at the cap marked, line ends made LF,
    trailing blanks of the whole dropped."""
    text = strip_marks_fast(uncut(text)).replace("\r\n", "\n").replace("\r", "\n")
    text = text.strip("\n").rstrip()
    return text.strip() if "\n" not in text else text


def epoch(value: Any, scale: float, what: str, where: str) -> datetime:
    """An epoch (seconds, or milliseconds with ``scale`` 1000; a number or a string of one) as an aware UTC time;
    anything else is a one-line error naming ``what`` (the message and its field)."""
    try:
        number = float(value) / scale if not isinstance(value, bool) else None
    except (TypeError, ValueError):
        number = None
    if number is None or not (0 <= number < 32503680000):  # after 1970, before the year 3000
        raise ImportFormatError(f"{what} is no time ({str(value)[:40]!r})", where)
    return datetime.fromtimestamp(number, timezone.utc)


def iso_date(value: Any, what: str, where: str) -> datetime:
    """ISO 8601 ("2024-03-14T18:01:12.345+01:00", seven fractional digits as .NET writes them, or "Z") as a datetime,
    aware when it says its offset; anything else is a one-line error naming ``what``."""
    if isinstance(value, str):
        text = value.strip().replace("Z", "+00:00")
        m = _FRACTION_RE.search(text)
        if m:  # Python before 3.11 reads 3 or 6 fractional digits only
            text = text[:m.start()] + "." + (m.group(1) + "000000")[:6] + text[m.end():]
        try:
            return datetime.fromisoformat(text)
        except ValueError:
            pass
    raise ImportFormatError(f"{what} is no date ({str(value)[:40]!r})", where)


_FRACTION_RE = re.compile(r"\.(\d+)(?=[+-]\d{2}:\d{2}$|$)")


def zoned(local: datetime, instant: datetime) -> datetime:
    """``local`` (the exporting computer's wall time, naive) with the offset that makes it ``instant``: the zone the
    export was written in, per message (a clock change moves it), rounded to the quarter hour real zones use."""
    offset = (local - instant.replace(tzinfo=None)).total_seconds()
    quarter = round(offset / 900) * 900
    if abs(quarter) > 14 * 3600:  # no zone is that far: the two times disagree, keep the instant
        return instant
    return local.replace(tzinfo=timezone(timedelta(seconds=quarter)))


def fix_mojibake(text: str) -> str:
    """Facebook's export writes each UTF-8 byte as its own character ("Ã©" for "é"): read back as UTF-8; text that
    is no such thing (a character past U+00FF, bytes that are no UTF-8) is kept as it is."""
    if text.isascii():
        return text
    try:
        return text.encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return text


# --- JSON, one message at a time ----------------------------------------------------------------------------


def stream_json(raw: IO[bytes], where: str, is_list: Callable[[str], bool]) -> Iterator[tuple[str, str, Any]]:
    """Events of a chat export: ``("value", prefix, scalar)`` for each scalar outside the lists wanted,
    ``("open", prefix, None)`` where an object outside them opens, ``("item", list prefix, object)`` for each
    object of a list whose prefix ``is_list`` accepts (built one at a time; "" is the file's own list), and ``("notlist", prefix, None)``
    where such a key holds something else. Nesting past ``MAX_JSON_DEPTH`` is refused (ijson's prefixes cost the
    depth on each event: bounded by that cap)."""
    fh = _json_stream(raw if isinstance(raw, io.BufferedReader) else io.BufferedReader(raw),  # type: ignore[arg-type,type-var]
                      where)
    depth = 0
    builder: ijson.ObjectBuilder | None = None
    base = 0
    for prefix, event, value in ijson.parse(fh, use_float=True):
        if event in ("start_map", "start_array"):
            depth += 1
            if depth > MAX_JSON_DEPTH:
                raise ImportFormatError(f"JSON nested over {MAX_JSON_DEPTH} levels", where)
        elif event in ("end_map", "end_array"):
            depth -= 1
        if builder is not None:
            builder.event(event, value)
            if depth == base:
                yield "item", prefix, builder.value
                builder = None
            continue
        if event == "start_map" and (prefix.endswith(".item") and is_list(prefix[:-5]) or prefix == "item" and is_list("")):
            builder = ijson.ObjectBuilder()
            builder.event(event, value)
            base = depth - 1
        elif event == "start_map":
            if is_list(prefix):
                yield "notlist", prefix, None
            yield "open", prefix, None
        elif event == "start_array" and not prefix.endswith(".item") and is_list(prefix):
            continue
        elif event not in ("end_map", "end_array", "map_key", "start_array"):
            if is_list(prefix):
                yield "notlist", prefix, None
            yield "value", prefix, value


def json_errors_where(where: str) -> Any:
    """The context that turns a JSON parser's error into a one-line one naming ``where``."""
    from importers._jsonstream import _json_errors

    return _json_errors(where)


def listed(value: Any) -> list[Any]:
    """A field that should be a list, as one (empty for anything else: a damaged field is no reason to refuse a chat)."""
    return value if isinstance(value, list) else []


def text_of(value: Any) -> str:
    """A field that should be text, as text ("" for none)."""
    if value is None:
        return ""
    return value if isinstance(value, str) else str(value)


def file_reader(path: Path, max_bytes: int) -> Callable[[], bytes]:
    """A reader of one export file, called when the file's turn comes (a folder of many files is never all in
    memory); a file past ``max_bytes`` is refused by name."""
    def read() -> bytes:
        with path.open("rb") as fh:
            data = fh.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise ImportFormatError(f"file larger than {max_bytes} bytes", str(path))
        return data
    return read


def member_reader(path: Path, info: zipfile.ZipInfo, max_bytes: int) -> Callable[[], bytes]:
    """:func:`file_reader` for one member of the zip at ``path`` (opened when it is read)."""
    def read() -> bytes:
        with zipfile.ZipFile(path) as zf:
            return read_member(zf, info, str(path), min(max_bytes, DEFAULT_MAX_MEMBER_BYTES))
    return read
