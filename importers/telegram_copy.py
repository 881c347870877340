"""A Telegram chat copied as text (Telegram Desktop's "Copy selected as text"): each message "Name, [date time]",
its words, a blank line. The date is in the computer's locale: day first with dots ("13.03.24 15:00"); with slashes
the file's own dates tell the order (a first number over 12: day first; a second over 12: month first; else a
12-hour clock says month first, as the United States write it); no zone (naive). "[In reply to Name]" and
"[Forwarded from Name]" lines are no words of the sender (metadata); "[ Photo ]", "[ Sticker 👍 ]", "[ File : x ]"
are media. The chat is the file's name."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from importers import ImportFormatError, Record
from importers._textlines import iter_lines
from importers.chatturns import Turn, Turns

HEADER_RE = re.compile(r"^(?P<name>[^\n,\[\]]{1,80}), \[(?P<a>\d{1,2})(?P<sep>[./])(?P<b>\d{1,2})(?P=sep)(?P<y>\d{2,4}),? "
                       r"(?P<h>\d{1,2}):(?P<m>\d{2})(?::(?P<s>\d{2}))?(?: ?(?P<ampm>[AaPp])\.? ?[Mm]\.?)?\]\s*$")
_REPLY_RE = re.compile(r"^\[In reply to (.{1,200})\]$")
_FORWARD_RE = re.compile(r"^\[Forwarded from (.{1,200})\]$")
_MEDIA_RE = re.compile(r"^\[ [^\[\]]{1,200} \]$")


def records(path: Path, turns: Turns, opener: Callable[[], AbstractContextManager[IO[bytes]]] | None = None,
            where: str | None = None) -> Iterator[Record]:
    """The records of one copied chat: the file ``path``, or (a member of a zip) what ``opener`` opens, named
    ``where`` in errors; the chat is named by ``path``'s stem either way."""
    where = where or str(path)
    open_it = opener or (lambda: path.open("rb"))
    day_first = _day_first(open_it, where)
    thread = path.stem
    cur: tuple[str, datetime, int] | None = None
    body: list[str] = []
    with open_it() as raw:
        for ln in iter_lines(raw, where):
            m = HEADER_RE.match(ln.text)
            if m:
                if cur is not None:
                    yield from _message(cur, body, thread, turns)
                cur, body = (m.group("name").strip(), _when(m, day_first, where, ln.no), ln.no), []
            elif cur is None:
                if ln.text.strip():
                    raise ImportFormatError("no \"Name, [date time]\" line of a Telegram copy before the first words",
                                            where, ln.no)
            else:
                body.append(ln.text)
    if cur is not None:
        yield from _message(cur, body, thread, turns)
    elif not turns.report.messages_seen:
        raise ImportFormatError("no message of a Telegram copy in this file", where, 1)


def _message(cur: tuple[str, datetime, int], body: list[str], thread: str, turns: Turns) -> Iterator[Record]:
    author, when, line = cur
    meta: dict[str, Any] = {}
    words: list[str] = []
    for text in body:
        stripped = text.strip()
        if not words and _REPLY_RE.match(stripped):
            meta["reply_to_author"] = _REPLY_RE.match(stripped).group(1)  # type: ignore[union-attr]
        elif not words and _FORWARD_RE.match(stripped):
            meta["forwarded_from"] = _FORWARD_RE.match(stripped).group(1)  # type: ignore[union-attr]
        elif _MEDIA_RE.match(stripped):
            meta.setdefault("media", []).append(stripped[2:-2].strip())
        else:
            words.append(text)
    rec = turns.record(Turn(thread=thread, author=author, when=when, text="\n".join(words), metadata=meta, line=line))
    if rec is not None:
        yield rec


def _day_first(open_it: Callable[[], AbstractContextManager[IO[bytes]]], where: str) -> bool:
    twelve = False
    with open_it() as raw:
        for ln in iter_lines(raw, where):
            m = HEADER_RE.match(ln.text)
            if not m:
                continue
            if m.group("sep") == ".":
                return True
            if int(m.group("a")) > 12:
                return True
            if int(m.group("b")) > 12:
                return False
            twelve = twelve or bool(m.group("ampm"))
    return not twelve


def _when(m: re.Match[str], day_first: bool, where: str, line: int) -> datetime:
    a, b, year = int(m.group("a")), int(m.group("b")), int(m.group("y"))
    day, month = (a, b) if day_first else (b, a)
    year += 2000 if year < 100 else 0
    hour = int(m.group("h"))
    if m.group("ampm"):
        hour = hour % 12 + (12 if m.group("ampm").lower() == "p" else 0)
    try:
        return datetime(year, month, day, hour, int(m.group("m")), int(m.group("s") or 0))
    except ValueError:
        raise ImportFormatError(f"{m.group(0).strip()[:60]!r}: no such date", where, line) from None
