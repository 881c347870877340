"""iMessage chats as imessage-exporter writes them in HTML (``--format html``): one page per conversation, named by
the contact, number or group; each message a ``div.message`` holding ``div.sent`` or ``div.received``, its time
(``span.timestamp``: "Mar 14, 2024  6:01:12 PM", maybe "(Read by them after 2 minutes)"), its sender
(``span.sender``: "Me", a number, a name), its parts (``div.message_part``: ``span.bubble`` words, ``div.attachment``
files), its tapbacks (``div.tapbacks``: "Loved by …", to metadata) and the replies to it (``div.replies``: messages
of their own, after it). An announcement (``div.announcement``: a rename, a member added) is a system line; a
message of files only is media.

Times are the Mac's wall time (naive), as in the text export (:mod:`importers.imessage`); the chat is the page's
name. The page is read in chunks (:func:`importers._htmlchat.feed_file`): a long chat is never all in memory."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from importers import ImportFormatError, ImportReport, Record
from importers._htmlchat import BREAK, ClassTree, feed_file
from importers.chatturns import SYSTEM, Turn, Turns

NAME = "imessage"
PAGE_RE = re.compile(r'<div class="message">\s*<div class="(?:sent|received)\b[^"]*">\s*<p>\s*<span class="timestamp">')
_STAMP_RE = re.compile(r"^\s*([A-Z][a-z]{2}) (\d{1,2}), (\d{4}) {1,2}(\d{1,2}):(\d{2}):(\d{2}) ([AP])M\b")
_MONTHS = {m: i for i, m in enumerate(("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov",
                                        "Dec"), start=1)}
_MEDIA_TAGS = frozenset({"img", "video", "audio"})


def is_page_head(head: str) -> bool:
    """Whether a web page is imessage-exporter's (a message block as it writes one)."""
    return bool(PAGE_RE.search(head))


@dataclass
class _Message:
    """A message as its block is read."""

    stamp: list[str] = field(default_factory=list)
    sender: list[str] = field(default_factory=list)
    pieces: list[str] = field(default_factory=list)
    tapbacks: list[str] = field(default_factory=list)
    media: bool = False
    done: bool = False  # made into a record (or a skip) already: its replies come after it


class _Page(ClassTree):
    """Reads a page's message blocks into records (or counted skips), put in ``out`` in the page's order."""

    def __init__(self, where: str, thread: str, turns: Turns) -> None:
        super().__init__()
        self.where = where
        self.thread = thread
        self.turns = turns
        self.open: list[_Message] = []
        self.n = 0

    def opened(self, tag: str, attrs: dict[str, str], classes: frozenset[str]) -> None:
        if tag == "div" and "message" in classes:
            self.open.append(_Message())
            return
        if not self.open or self.inside("announcement"):
            return
        msg = self.open[-1]
        if "replies" in classes and not msg.done:
            self._emit(msg)
        elif "tapback" in classes:
            msg.tapbacks.append("")
        elif "message_part" in classes and msg.pieces:
            msg.pieces.append(BREAK)
        elif tag == "br" and self.inside("bubble"):
            msg.pieces.append(BREAK)
        elif tag in _MEDIA_TAGS or "attachment" in classes:
            msg.media = True

    def closed(self, tag: str, classes: frozenset[str]) -> None:
        if tag == "div" and "message" in classes and self.open:
            msg = self.open.pop()
            if not msg.done:
                self._emit(msg)
        elif tag == "div" and "announcement" in classes:
            self.turns.skip(SYSTEM)

    def text(self, data: str) -> None:
        if not self.open or self.inside("announcement"):
            return
        msg = self.open[-1]
        if self.inside("timestamp"):
            msg.stamp.append(data)
        elif self.inside("sender"):
            msg.sender.append(data)
        elif self.inside("tapback") and msg.tapbacks:
            msg.tapbacks[-1] += data
        elif self.inside("bubble"):
            msg.pieces.append(data)

    def _emit(self, msg: _Message) -> None:
        msg.done = True
        self.n += 1
        stamp = " ".join("".join(msg.stamp).split())
        m = _STAMP_RE.match("".join(msg.stamp))
        when = None
        if m and m.group(1) in _MONTHS:
            hour = int(m.group(4)) % 12 + (12 if m.group(7) == "P" else 0)
            try:
                when = datetime(int(m.group(3)), _MONTHS[m.group(1)], int(m.group(2)), hour, int(m.group(5)),
                                int(m.group(6)))
            except ValueError:
                when = None
            if int(m.group(4)) > 12:
                when = None
        if when is None:
            raise ImportFormatError(f"message {self.n}: the time {stamp[:40]!r} is no date", self.where,
                                    self.getpos()[0])
        lines = [" ".join(line.split()) for line in "".join(msg.pieces).split(BREAK)]
        meta: dict[str, Any] = {}
        tapbacks = [" ".join(t.split()) for t in msg.tapbacks if t.strip()]
        if tapbacks:
            meta["tapbacks"] = tapbacks
        if msg.media:
            meta["media"] = True
        rec = self.turns.record(Turn(thread=self.thread, author=" ".join("".join(msg.sender).split()), when=when,
                                     text="\n".join(line for line in lines if line), metadata=meta))
        if rec is not None:
            self.out.append(rec)


def parse_page(path: Path, report: ImportReport, turns: Turns | None = None) -> Iterator[Record]:
    """Records of one imessage-exporter page; bad input (a time that is no date, a page cut short, bytes that are no
    UTF-8): a one-line ImportFormatError."""
    where = str(path)
    page = _Page(where, path.stem, turns or Turns(NAME, report))
    yield from feed_file(path, page)
    if page.open:
        raise ImportFormatError(f"page cut short (inside message {page.n + 1})", where, page.getpos()[0])
    if not page.n and not report.skipped_system:
        raise ImportFormatError("no iMessage message in this page", where)
