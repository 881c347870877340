"""Rocket.Chat's "Export my data" asked in HTML (My Account > Preferences > My Data): a file per room named by the
room, ``<meta http-equiv="content-type" content="text/html; charset=utf-8">`` and then per message
``<p><strong>username</strong> (Thu, 02 May 2024 09:00:00 GMT):<br/>`` on one line, the words on the next lines and
``</p>``; an attachment as ``<br/><a href="./assets/<id>-name">description</a>`` before the ``</p>`` (an image's
``<img src="./assets/…"/>`` before it). Read by
lines (a room streamed), the words as a browser shows them (HTML escapes read; line breaks kept as written).

The date is JavaScript's ``toUTCString()``: UTC, to the second. The HTML form keeps no message type: the server's
English sentences for joins and leaves ("Has joined the channel.", "User left this channel") are service lines; in
another language they stay messages. A message that is only a file is media. No owner is marked (the export says
none). A date that is no date: a one-line error naming the file and the line."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from datetime import timezone
from email.utils import parsedate_to_datetime
from typing import IO, Any

from importers import ImportFormatError, Record
from importers._textlines import capped_lines
from importers.chatturns import SYSTEM, Turn, Turns

META = '<meta http-equiv="content-type" content="text/html; charset=utf-8">'
_START_RE = re.compile(r"^(?:\s*<meta http-equiv=\"content-type\"[^>]*>)?\s*<p><strong>(.*?)</strong> \(([^()\n]{3,80})\):"
                       r"<br/>\s*$", re.IGNORECASE)
_HEAD_RE = re.compile(r"^\s*<meta http-equiv=\"content-type\" content=\"text/html; charset=utf-8\">\s*"
                      r"(?:<p><strong>[^<\n]*</strong> \([^()\n]{3,80}\):<br/>\s*(?:\n|$)|$)", re.IGNORECASE)
_FILE_RE = re.compile(r'(?:<img src="\./assets/[^"]*"\s*/?>)?<br/><a href="\./assets/([^"]*)"[^>]*>(.*?)</a>', re.DOTALL)
_SERVICE_RE = re.compile(r"^(?:user |has )?(?:joined|left) (?:the|this) (?:channel|team|room|group)\.?$|"
                         r"^(?:room name changed to|room topic changed to|room announcement changed to)\b",
                         re.IGNORECASE)


def is_room_head(head: str) -> bool:
    """Whether a page's first bytes are a Rocket.Chat room's in HTML: the export's meta line, then a message's
    first line (or nothing: a room of no messages)."""
    return bool(_HEAD_RE.match(head.lstrip("\ufeff")))


def room(fh: IO[bytes], name: str, where: str, turns: Turns) -> Iterator[Record]:
    """A room's messages, a line at a time (a line past MAX_LINE_CHARS bytes refused by its number)."""
    cur: tuple[str, str, int] | None = None
    body: list[str] = []
    for lineno, raw in capped_lines(fh, where):
        try:
            text = raw.decode("utf-8").rstrip("\r\n")
        except UnicodeDecodeError as exc:
            raise ImportFormatError(f"not UTF-8 text ({exc.reason}), though the page says UTF-8", where,
                                    lineno) from None
        m = _START_RE.match(text.lstrip("\ufeff") if lineno == 1 else text)
        if m:
            if cur is not None:
                yield from _message(cur, body, name, where, turns)
            cur, body = (m.group(1), m.group(2), lineno), []
        elif cur is not None:
            body.append(text)
        elif text.strip() and text.strip().lower() != META:
            raise ImportFormatError("no '<p><strong>user</strong> (date):<br/>' line before the first words", where,
                                    lineno)
    if cur is not None:
        yield from _message(cur, body, name, where, turns)


def _message(cur: tuple[str, str, int], body: list[str], name: str, where: str, turns: Turns) -> Iterator[Record]:
    user, date, line = cur
    try:
        when = parsedate_to_datetime(date)
    except (TypeError, ValueError, IndexError):
        when = None
    if when is None:
        raise ImportFormatError(f'"{date}" is no date', where, line)
    if when.tzinfo is None:  # "-0000": UTC said as "no zone known"
        when = when.replace(tzinfo=timezone.utc)
    text = "\n".join(body)
    if text.endswith("</p>"):
        text = text[:-4]
    files = [html.unescape(d.strip() or f) for f, d in _FILE_RE.findall(text)]  # its description, else its file
    first = _FILE_RE.search(text)
    if first is not None:
        text = text[:first.start()]
    words = html.unescape(text.strip("\n"))
    if _SERVICE_RE.match(words.strip()):
        turns.skip(SYSTEM)
        return
    metadata: dict[str, Any] = {"room": name}
    if files:
        metadata["attachments"] = files[:50]
        metadata["media"] = True
    rec = turns.record(Turn(thread=name, author=html.unescape(user).strip() or "Unknown", when=when, text=words,
                            metadata=metadata, line=line))
    if rec is not None:
        yield rec
