"""Telegram Desktop's web pages of a chat (``messages.html``, ``messages2.html``, ...), read page after page: a
"joined" message (one that follows its author's last without a name) takes the author of the message before it,
even across pages; day headers are no messages; service lines (creations, invitations, pins) are counted as
system; a message of a photo, video or sticker only as media; a forward is the words of who forwarded it, the
original sender in metadata; a reply links to the message it answers. A time's title says its offset since 2022
("02.04.2024 18:00:12 UTC+02:00": aware), not before (naive)."""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from html.parser import HTMLParser
from typing import IO

from importers import ImportFormatError, Record
from importers._textlines import looks_binary
from importers.chatturns import SYSTEM, Turn, Turns

MAX_PAGE_BYTES = 64 * 1024 * 1024  # a page of the export holds about 1,000 messages (under 2 MB); past this: refused
_TITLE_RE = re.compile(r"(\d{1,2})\.(\d{1,2})\.(\d{4}) (\d{1,2}):(\d{2})(?::(\d{2}))?(?: UTC([+-])(\d{2}):(\d{2}))?")
_ID_RE = re.compile(r"message(-?\d+)$")
_GOTO_RE = re.compile(r"#go_to_message(\d+)")
_VOID = frozenset({"br", "img", "meta", "link", "hr", "input", "source", "wbr", "col", "area", "base", "embed"})


@dataclass
class _Message:
    mid: str
    service: bool
    title: str = ""
    author: str = ""
    forwarded_from: str = ""
    text: list[str] = field(default_factory=list)
    reply_to: str = ""
    media: list[str] = field(default_factory=list)
    line: int = 0


class _Page(HTMLParser):
    """One page's chat name and messages, in order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.chat = ""
        self.messages: list[_Message] = []
        self._stack: list[str] = []  # per open element: its role ("" for none)
        self._capture: str = ""  # the role whose words are being gathered
        self._buf: list[str] = []
        self._msg: _Message | None = None
        self._msg_depth = -1
        self._forward_depth = -1
        self._media_depth = -1

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        classes = set(a.get("class", "").split())
        if tag == "br":
            if self._capture:
                self._buf.append("\n")
            return
        if tag == "a" and self._msg is not None:
            href = a.get("href", "")
            goto = _GOTO_RE.search(href)
            if "reply_to" in self._stack and goto:
                self._msg.reply_to = goto.group(1)
            elif self._media_depth >= 0 and href and not href.startswith(("#", "http")):
                self._msg.media.append(href)
        if tag in _VOID:
            return
        role = ""
        if tag == "div":
            role = self._div_role(classes, a)
        elif tag == "span" and "details" in classes and self._capture == "from_name":
            role = "hidden"
        self._stack.append(role)

    def _div_role(self, classes: set[str], a: dict[str, str]) -> str:
        if "message" in classes and _ID_RE.match(a.get("id", "")):
            mid = _ID_RE.match(a["id"]).group(1)  # type: ignore[union-attr]
            self._msg = _Message(mid=mid, service="service" in classes, line=self.getpos()[0])
            self.messages.append(self._msg)
            self._msg_depth = len(self._stack)
            return "message"
        if self._msg is None:
            if "text" in classes and "bold" in classes and not self.chat:
                self._start("chat")
                return "chat"
            return ""
        if "forwarded" in classes and "body" in classes:
            self._forward_depth = len(self._stack)
            return "forwarded"
        if "media_wrap" in classes:
            self._media_depth = len(self._stack)
            self._msg.media.append("media")
            return "media"
        if "date" in classes and "details" in classes and not self._msg.title:
            self._msg.title = a.get("title", "")
            return "date"
        if "reply_to" in classes:
            return "reply_to"
        if "from_name" in classes:
            self._start("from_name")
            return "from_name"
        if "text" in classes and self._media_depth < 0:
            self._start("text")
            return "text"
        return ""

    def _start(self, role: str) -> None:
        self._capture = role
        self._buf = []

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br" and self._capture:
            self._buf.append("\n")
        elif tag != "br":
            self.handle_starttag(tag, attrs)
            if tag not in _VOID:
                self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID or not self._stack:
            return
        role = self._stack.pop()
        depth = len(self._stack)
        if role and role == self._capture:
            words = _words(self._buf)
            self._capture = ""
            if role == "chat":
                self.chat = words
            elif self._msg is not None and role == "from_name":
                if self._forward_depth >= 0:
                    self._msg.forwarded_from = words
                else:
                    self._msg.author = words
            elif self._msg is not None and role == "text":
                self._msg.text.append(words)
        if depth == self._forward_depth:
            self._forward_depth = -1
        if depth == self._media_depth:
            self._media_depth = -1
        if depth == self._msg_depth:
            self._msg, self._msg_depth = None, -1

    def handle_data(self, data: str) -> None:
        if self._capture and "hidden" not in self._stack[-1:]:
            self._buf.append(data)


def _words(parts: list[str]) -> str:
    """Gathered words: the page's own line breaks and runs of blanks are one space; a <br> is a line break."""
    lines = [re.sub(r"\s+", " ", chunk).strip() for chunk in "".join(p if p == "\n" else p.replace("\n", " ")
                                                                       for p in parts).split("\n")]
    return "\n".join(lines).strip("\n")


def _when(title: str) -> datetime | None:
    m = _TITLE_RE.search(title)
    if not m:
        return None
    day, month, year, hour, minute = (int(m.group(i)) for i in range(1, 6))
    try:
        when = datetime(year, month, day, hour, minute, int(m.group(6) or 0))
    except ValueError:
        return None
    if m.group(7):
        offset = timedelta(hours=int(m.group(8)), minutes=int(m.group(9)))
        when = when.replace(tzinfo=timezone(offset if m.group(7) == "+" else -offset))
    return when


def records(pages: list[tuple[Callable[[], AbstractContextManager[IO[bytes]]], str]], turns: Turns) -> Iterator[Record]:
    """The records of one chat's pages, in page order."""
    author = ""
    for opener, where in pages:
        with opener() as raw:
            data = raw.read(MAX_PAGE_BYTES + 1)
        if len(data) > MAX_PAGE_BYTES:
            raise ImportFormatError(f"page larger than {MAX_PAGE_BYTES} bytes", where)
        if looks_binary(data):
            raise ImportFormatError("binary data, not a web page", where)
        page = _Page()
        page.feed(io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="replace").read())
        page.close()
        if not page.chat and not page.messages:
            raise ImportFormatError("no Telegram chat in this page (no <div class=\"message\">)", where)
        chat = page.chat or "Telegram chat"
        for m in page.messages:
            if m.mid.startswith("-"):
                continue  # a day's header
            if m.service:
                turns.skip(SYSTEM)
                continue
            author = m.author or author
            when = _when(m.title)
            if when is None:
                raise ImportFormatError(f"message {m.mid}: its date {m.title[:40]!r} is no date", where, m.line)
            meta: dict[str, object] = {}
            if m.media:
                meta["media"] = [x for x in m.media if x != "media"] or ["media"]
            if m.forwarded_from:
                meta["forwarded_from"] = m.forwarded_from
            links = []
            if m.reply_to:
                meta["reply_to"] = int(m.reply_to)
                links.append((f"telegram:{chat}:{m.reply_to}", "explicit"))
            rec = turns.record(Turn(thread=chat, author=author or "Unknown", when=when, text="\n".join(m.text),
                                    ref=f"telegram:{chat}:{m.mid}", metadata=meta, links=links, line=m.line))
            if rec is not None:
                yield rec
