"""Facebook's and Instagram's chats as web pages ("Download your information" in HTML): each
``messages/inbox/<chat>/message_N.html`` holds the chat's messages newest first, each a block (``div.pam …
uiBoxWhite``) of three parts: the sender (a div; an ``<h2>`` on Instagram), the content (its words, a photo or a video,
a shared link, reactions as a list) and the time ("Mar 16, 2024 9:15:02 am"; Instagram's without seconds; an account
in another language writes its own month names, read by :func:`importers.written_dates.written_date`). The blocks'
class names change between years; their order of parts does not, and is what is read here.

Times are the viewer's wall time (naive: the page says no zone). A page read for its chat gives what
:mod:`importers.messenger` reads from a chat's JSON: its title and its messages in the JSON's words (``sender_name``,
``content``, ``photos``, ``reactions``), so a chat reads the same whichever format the download was asked in; Meta's
mojibake ("Ã©", and "Ù…" where the page names bytes 0x80-0x9F by number) is read back."""

from __future__ import annotations

import re
from datetime import datetime
from html.parser import HTMLParser
from typing import Any

from importers import ImportFormatError
from importers._htmlchat import BREAK, VOID
from importers.written_dates import written_date

PAGE_RE = re.compile(r'<div class="pam [^"]*\buiBoxWhite\b')
_FORMATS = ("%b %d, %Y %I:%M:%S %p", "%b %d, %Y %I:%M %p", "%b %d, %Y, %I:%M:%S %p", "%b %d, %Y, %I:%M %p",
            "%B %d, %Y %I:%M:%S %p", "%B %d, %Y %I:%M %p", "%d %b %Y, %H:%M", "%d %b %Y %H:%M:%S", "%b %d, %Y %H:%M")
_MEDIA_TAGS = {"img": "photos", "video": "videos", "audio": "audio_files"}
_REACTION_RE = re.compile(r"^([^\w\s]+)\s*(.+)$")
_BLOCK_TAGS = frozenset({"div", "p", "li", "h1", "h2", "h3", "ul", "table", "tr"})


def is_page_head(head: str) -> bool:
    """Whether a web page is a chat of Meta's download (a message block of its classes)."""
    return bool(PAGE_RE.search(head))


def page(where: str, data: bytes) -> tuple[str, list[tuple[datetime, dict[str, Any]]]]:
    """The chat's title and its messages (time, message in the JSON's words) in the page's order (newest first)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ImportFormatError(f"not UTF-8 text ({exc.reason})", where) from None
    reader = _Blocks(where)
    try:
        reader.feed(text.replace(BREAK, ""))
        reader.close()
    except AssertionError as exc:  # html.parser's own complaint about broken markup
        raise ImportFormatError(f"broken web page ({exc})", where) from None
    if reader.block is not None or not reader.ended:
        raise ImportFormatError(f"page cut short (inside message {len(reader.messages) + 1})", where,
                                reader.getpos()[0])
    return mojibake("".join(reader.title).strip()), reader.messages


def mojibake(text: str) -> str:
    """Meta's mojibake read back: each UTF-8 byte written as its own character, Latin-1 ("Ã©") or, where a page's
    numeric references name bytes 0x80-0x9F, Windows-1252 ("â€™", "Ù…"); other text is kept as it is."""
    if text.isascii():
        return text
    raw = bytearray()
    for ch in text:
        code = ord(ch)
        if code < 256:
            raw.append(code)
        elif ch in _CP1252:
            raw.append(_CP1252[ch])
        else:
            return text
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return text


_CP1252 = {bytes([b]).decode("cp1252"): b for b in range(0x80, 0xA0) if b not in (0x81, 0x8D, 0x8F, 0x90, 0x9D)}


class _Part:
    """One part of a message block: its text, its reactions, its media."""

    def __init__(self) -> None:
        self.pieces: list[str] = []
        self.reactions: list[str] = []
        self.media: list[str] = []
        self.in_list = 0

    def words(self) -> str:
        lines = [" ".join(line.split()) for line in "".join(self.pieces).replace("\n", BREAK).split(BREAK)]
        return "\n".join(line for line in lines if line)


class _Blocks(HTMLParser):
    """The page's message blocks, each read into a message as its parts close."""

    def __init__(self, where: str) -> None:
        super().__init__(convert_charrefs=True)
        self.where = where
        self.title: list[str] = []
        self.in_title = False
        self.depth = 0
        self.block: int | None = None  # the depth the open block started at
        self.parts: list[_Part] = []
        self.messages: list[tuple[datetime, dict[str, Any]]] = []
        self.ended = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if tag == "title":
            self.in_title = True
        if tag in VOID:
            self._void(tag)
            return
        self.depth += 1
        classes = values.get("class", "").split()
        if self.block is None and tag == "div" and "uiBoxWhite" in classes and "pam" in classes:
            self.block, self.parts = self.depth, []
        elif self.block is not None and self.depth == self.block + 1:
            self.parts.append(_Part())
        elif self.block is not None and self.parts and tag in ("ul", "ol"):
            self.parts[-1].in_list += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._void(tag)

    def _void(self, tag: str) -> None:
        if self.block is None or not self.parts:
            return
        if tag == "br":
            self.parts[-1].pieces.append(BREAK)
        elif tag in _MEDIA_TAGS:
            self.parts[-1].media.append(_MEDIA_TAGS[tag])

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self.in_title = False
        if tag == "html":
            self.ended = True
        if tag in VOID:
            return
        if self.block is not None and self.parts:
            part = self.parts[-1]
            if tag in ("ul", "ol") and part.in_list:
                part.in_list -= 1
            elif tag in _BLOCK_TAGS:
                part.pieces.append(BREAK)
        if self.block is not None and self.depth == self.block:
            self._message()
            self.block = None
        self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.in_title:
            self.title.append(data)
        if self.block is None or not self.parts:
            return
        part = self.parts[-1]
        if part.in_list:
            part.reactions.append(data)
        else:
            part.pieces.append(data)

    def _message(self) -> None:
        n = len(self.messages) + 1
        if len(self.parts) < 2:
            raise ImportFormatError(f"message {n}: a block of {len(self.parts)} part(s), not sender, words, "
                                    "time", self.where, self.getpos()[0])
        stamp = self.parts[-1].words()
        when = _when(stamp)
        if when is None:
            raise ImportFormatError(f"message {n}: the time {stamp[:40]!r} is no date", self.where,
                                    self.getpos()[0])
        body = self.parts[1:-1]
        msg: dict[str, Any] = {"sender_name": mojibake(self.parts[0].words()), "_utf8": True,
                               "content": mojibake("\n".join(w for w in (p.words() for p in body) if w))}
        for part in body:
            for kind in part.media:
                msg.setdefault(kind, []).append({})
        reactions = [r.strip() for p in body for r in p.reactions if r.strip()]
        if reactions:
            msg["reactions"] = [_reaction(r) for r in reactions]
        self.messages.append((when, msg))


def _reaction(text: str) -> dict[str, str]:
    """"❤️Ana Sousa" as the JSON writes a reaction: the emoji and who gave it."""
    m = _REACTION_RE.match(text)
    return {"reaction": m.group(1), "actor": mojibake(m.group(2).strip())} if m else {"reaction": text, "actor": ""}


def _when(stamp: str) -> datetime | None:
    """A block's time: English as Meta writes it ("Mar 16, 2024 9:15:02 am"), else a date in the account's
    language."""
    value = " ".join(stamp.split())
    for fmt in _FORMATS:
        try:
            return datetime.strptime(value.upper() if "%p" in fmt else value, fmt)
        except ValueError:
            continue
    try:
        return written_date(value) if len(value) < 80 else None
    except ValueError:
        return None
