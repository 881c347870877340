"""WeChat chats as WechatExporter (BlueMatthew's, which reads an iPhone's iTunes backup) writes them as web pages: a
folder per account with ``index.html`` (the list of chats) and a page per chat, ``<chat>.html``, its files in
``<chat>_files/``. The page fills the app's HTML templates: a message is a ``div`` whose classes hold ``msg`` and the
side of its bubble (``left``, or ``right`` for the owner), with the sender's name, the time ("2024-04-02 19:30:12",
the computer's local time, no zone: kept naive) and the bubble (text in a ``<pre>``, or a photo, voice message,
video, sticker, link share); a service line (a recall, an invitation) is a ``msg`` ``notice``.

The layout was written from memory of the exporter, not from a page at hand (tests/fixtures/unseen28/README.md): the
reader finds each part by its meaning — a class naming the name (``nickname``, ``name``, ``sender``), the time
(``time``, ``date``), the words (``bubble``, ``content``, ``text``) — rather than by one exact template. ``data-type``
(WeChat's message type) says a photo (3), voice (34), video (43) or sticker (47) when the bubble has no words. A shared
link is its title and description, the link in ``metadata["url"]``. The chat is named by the page's title, else its
file. A page cut inside a message, not UTF-8, or with a time that is no time: a one-line error naming the file and
the line. A page that loads its messages asynchronously (a frame and scripts) is read through :mod:`importers.wechat_async`."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from importers import ImportFormatError, Record, wechat_async
from importers._common import head_matches
from importers._htmlchat import BREAK, VOID, ClassTree, feed_file, words
from importers.chatturns import MEDIA, SYSTEM, Turn, Turns

# a message's div: "msg" and a side among its classes; the page's time format near it
_MSG_DIV_RE = re.compile(r'<div\s+class="(?=[^"]*\bmsg\b)(?=[^"]*\b(?:left|right|notice)\b)[^"]*"', re.IGNORECASE)
_STAMP_RE = re.compile(r"\b\d{4}-\d{2}-\d{2} \d{1,2}:\d{2}(?::\d{2})?\b")
_GENERATOR_RE = re.compile(r'<meta\s+name="generator"\s+content="WechatExporter', re.IGNORECASE)
SNIFF_BYTES = 64 * 1024
_NAME_CLASSES = ("nickname", "name", "sender", "username")
_TIME_CLASSES = ("time", "date", "timestamp")
_BODY_CLASSES = ("bubble", "content", "msgc", "text")
_REST_CLASSES = ("duration", "length", "size", "avatar")  # a voice message's length, a file's size: no words
_MEDIA_TAGS = {"img", "audio", "video", "source"}
_DURATION_RE = re.compile(r'^\d{1,4}(?:[:.]\d{1,2})?\s*(?:"|″|\'\'|s|sec|秒)?$')
_MEDIA_TYPES = {"3", "34", "43", "47", "42", "48"}
_SERVICE_TYPES = {"10000", "10002", "0"}
_TITLE_SUFFIX_RE = re.compile(r"\s*[-–|]\s*WechatExporter\s*$", re.IGNORECASE)


def is_page_head(head: str) -> bool:
    """Whether a page's first bytes are WechatExporter's chat: message divs with a side, and its time stamps (or its
    generator's name with a message div)."""
    if not _MSG_DIV_RE.search(head):  # (or, loading its messages asynchronously, its own scripts: wechat_async)
        return bool(_GENERATOR_RE.search(head) and wechat_async.OWN_SCRIPT_RE.search(head))
    return bool(_GENERATOR_RE.search(head) or _STAMP_RE.search(head))


def is_page(path: Path) -> bool:
    """Whether ``path`` is a chat page of WechatExporter (by its first ``SNIFF_BYTES``)."""
    return head_matches(path, lambda head: is_page_head(head.decode("utf-8", "replace")), SNIFF_BYTES)


def is_account_index(path: Path) -> bool:
    """Whether ``path`` is the ``index.html`` of an account's folder of WechatExporter pages (it lists the chats:
    importing it imports them)."""
    if path.name.lower() != "index.html":
        return False
    try:
        pages = sorted(p for p in path.parent.iterdir() if p.suffix.lower() in (".html", ".htm") and p != path)
    except OSError:
        return False
    return any(is_page(p) for p in pages[:5])


class _Page(ClassTree):
    """Each message div as a dict of its pieces (name, time, words), its side, type, files and link."""

    def __init__(self) -> None:
        super().__init__()
        self.msg: dict[str, Any] | None = None
        self.depth = 0
        self.title: list[str] = []
        self.in_title = False
        self.pre = 0
        self.fields: list[str] = []  # the part of the message each element open inside it is in (innermost last)
        self.scripts: list[str] = []  # the scripts the page loads (its messages, loaded asynchronously)

    def opened(self, tag: str, attrs: dict[str, str], classes: frozenset[str]) -> None:
        if tag == "title" and self.msg is None:
            self.in_title = True
            return
        if tag == "script" and attrs.get("src") and self.msg is None:
            self.scripts.append(attrs["src"])
            return
        lowered = frozenset(c.lower() for c in classes)
        if tag == "div" and "msg" in lowered and self.msg is None and lowered & {"left", "right", "notice"}:
            self.msg = {"name": [], "time": [], "body": [], "rest": [], "files": [], "url": "",
                        "right": "right" in lowered, "notice": "notice" in lowered or "system" in lowered,
                        "type": attrs.get("data-type", "").strip(), "line": self.getpos()[0],
                        "alt": ""}
            self.depth = len(self.stack)
            self.fields = []
            return
        if self.msg is None:
            return
        if tag not in VOID:
            self.fields.append(_field_of(lowered, self.fields[-1] if self.fields else "rest"))
        if tag == "pre":
            self.pre += 1
        elif tag == "br":
            self._piece(BREAK)
        elif tag in _MEDIA_TAGS:
            if self._field() == "body":
                self.msg["files"].append(attrs.get("src", "").rsplit("/", 1)[-1])
            elif not self.msg["alt"]:
                self.msg["alt"] = attrs.get("alt", "").strip()  # the avatar's: the sender, where no name is written
        elif tag == "a" and attrs.get("href", "").startswith(("http://", "https://")) and not self.msg["url"]:
            self.msg["url"] = attrs["href"]

    def closed(self, tag: str, classes: frozenset[str]) -> None:
        if tag == "title":
            self.in_title = False
            return
        if self.msg is None:
            return
        if tag == "pre":
            self.pre = max(0, self.pre - 1)
        if tag == "div" and len(self.stack) == self.depth:
            self.out.append(self.msg)
            self.msg = None
            return
        field = self._field()
        if tag not in VOID and self.fields:
            self.fields.pop()
        if tag in ("p", "div", "li", "pre") and field == "body":
            self._piece(BREAK)

    def text(self, data: str) -> None:
        if self.in_title:
            self.title.append(data)
        elif self.msg is not None:
            self._piece(data.replace("\n", BREAK) if self.pre else data)

    def _field(self) -> str:
        """The part of the message the text here is in: named by the innermost classed element open inside the
        message (the page's own wrappers outside it, a "content" among them, say nothing)."""
        return self.fields[-1] if self.fields else "rest"

    def _piece(self, data: str) -> None:
        assert self.msg is not None
        self.msg[self._field()].append(data)


def _field_of(classes: frozenset[str], outer: str) -> str:
    """The part of a message an element of ``classes`` holds: the one its classes name, else its parent's."""
    for f, names in (("rest", _REST_CLASSES), ("name", _NAME_CLASSES), ("time", _TIME_CLASSES),
                     ("body", _BODY_CLASSES)):
        if classes.intersection(names):
            return f
    return outer


def records(path: Path, turns: Turns) -> Iterator[Record]:
    """The records of one WechatExporter chat page; bad input: a one-line ImportFormatError."""
    where = str(path)
    page = _Page()
    thread = ""
    seen = 0
    for msg in feed_file(path, page):
        if not thread:
            thread = _TITLE_SUFFIX_RE.sub("", words(page.title)) or path.stem
        seen += 1
        rec = _message(msg, thread, turns, where)
        if rec is not None:
            yield rec
    if page.msg is not None:
        raise ImportFormatError("page cut inside a message (its end is missing); export the chat again", where,
                                page.msg["line"])
    if not seen:  # its messages loaded asynchronously, from its own scripts
        thread = _TITLE_SUFFIX_RE.sub("", words(page.title)) or path.stem
        for script in wechat_async.own_scripts(path, page.scripts):
            part = _Page()
            part.feed("".join(html.replace(BREAK, "") for html in wechat_async.message_html(script, where)))
            for msg in part.out:  # (a script's messages fed at once: a parser's feed costs per call)
                rec = _message(msg, thread, turns, where)
                if rec is not None:
                    yield rec
            if part.msg is not None:
                raise ImportFormatError(f"script {script.name} cut inside a message; export the chat again", where)


def _message(msg: dict[str, Any], thread: str, turns: Turns, where: str) -> Record | None:
    stamp = words(msg["time"]).replace(BREAK, " ")
    m = _STAMP_RE.search(stamp)
    if m is None:
        if msg["notice"] and not stamp:  # a notice without its time (a day's separator): a service line
            turns.skip(SYSTEM)
            return None
        raise ImportFormatError(f'"{stamp[:30]}" is no date', where, msg["line"])
    try:
        when = datetime.strptime(m.group(0), "%Y-%m-%d %H:%M:%S" if m.group(0).count(":") == 2 else "%Y-%m-%d %H:%M")
    except ValueError:
        raise ImportFormatError(f'"{m.group(0)}" is no date', where, msg["line"]) from None
    if msg["notice"] or msg["type"] in _SERVICE_TYPES:
        turns.skip(SYSTEM)
        return None
    text = words(msg["body"])
    if msg["files"] and _DURATION_RE.match(text):
        text = ""  # a voice message's or video's length beside its player
    if not text and (msg["files"] or msg["type"] in _MEDIA_TYPES):
        turns.skip(MEDIA)  # a photo, a voice message, a video, a sticker: no words
        return None
    name = words(msg["name"]) or msg["alt"] or ("me" if msg["right"] else thread)
    meta: dict[str, Any] = {}
    if msg["right"]:
        meta["from_me"] = True
    if msg["url"]:
        meta["url"] = msg["url"]
    if msg["files"] and text:
        meta["media"] = [f for f in msg["files"] if f]
    return turns.record(Turn(thread=thread, author=name, when=when, text=text, metadata=meta, line=msg["line"]))
