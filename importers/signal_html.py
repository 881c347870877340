"""Signal Desktop chats as the `signal-export` tool writes them as web pages (<chat>/index.html beside chat.md): each
message a ``div.msg`` holding ``span.date`` ("2024-04-18"), ``span.time`` ("20:01"), ``span.sender`` ("Me" for the
owner, as written) and ``span.body``; in the body a quoted message is a ``div.quote``, a picture, a voice note or a
video an ``img``/``audio``/``video`` (media), a line break a ``<br>``; reactions are ``span.reaction`` beside it.
Times are the computer's wall time (naive). The chat is the folder's name."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from importers import ImportFormatError, Record
from importers._htmlchat import BREAK, ClassTree, feed_file, words
from importers.chatturns import Turn, Turns

HEAD_RE = re.compile(r'<div class="msg[ "][^>]*>\s*<span class="date">', re.DOTALL)
_FIELDS = ("date", "time", "sender", "reaction", "quote", "body")
_MEDIA_TAGS = {"img", "audio", "video", "source"}


def is_page_head(head: str) -> bool:
    """Whether a page's first bytes are signal-export's (a ``div.msg`` opening on a ``span.date``)."""
    return bool(HEAD_RE.search(head)) and '<span class="sender">' in head


class _Page(ClassTree):
    def __init__(self) -> None:
        super().__init__()
        self.msg: dict[str, Any] | None = None
        self.depth = 0

    def opened(self, tag: str, attrs: dict[str, str], classes: frozenset[str]) -> None:
        if tag == "div" and "msg" in classes and self.msg is None:
            self.msg = {f: [] for f in _FIELDS} | {"media": [], "reactions": [], "line": self.getpos()[0]}
            self.depth = len(self.stack)
            return
        if self.msg is None:
            return
        if tag == "br":
            self._piece(BREAK)
        elif tag in _MEDIA_TAGS and self.inside("body"):
            src = attrs.get("alt") or attrs.get("src", "").rsplit("/", 1)[-1]
            if src and src not in self.msg["media"]:
                self.msg["media"].append(src)

    def closed(self, tag: str, classes: frozenset[str]) -> None:
        if self.msg is None:
            return
        if tag == "div" and "msg" in classes and len(self.stack) == self.depth:
            self.out.append(self.msg)
            self.msg = None
        elif "reaction" in classes:
            self.msg["reactions"].append(words(self.msg["reaction"]))
            self.msg["reaction"] = []
        elif tag in ("p", "div", "li") and self.inside("body"):
            self._piece(BREAK)

    def text(self, data: str) -> None:
        if self.msg is not None:
            self._piece(data)

    def _piece(self, data: str) -> None:
        assert self.msg is not None
        for f in ("date", "time", "sender", "reaction", "quote", "body"):  # the innermost field first
            if self.inside(f):
                self.msg[f].append(data)
                return


def parse_page(path: Path, turns: Turns) -> Iterator[Record]:
    """Records of one page of signal-export; bad input: a one-line ImportFormatError."""
    where = str(path)
    thread = path.parent.name if path.stem in ("index", "chat") else path.stem
    for msg in feed_file(path, _Page()):
        stamp = f"{words(msg['date'])} {words(msg['time'])}"
        try:
            when = datetime.strptime(stamp, "%Y-%m-%d %H:%M:%S" if stamp.count(":") == 2 else "%Y-%m-%d %H:%M")
        except ValueError:
            raise ImportFormatError(f"{stamp[:30]!r}: no such date", where, msg["line"]) from None
        meta: dict[str, Any] = {}
        quote = words(msg["quote"])
        if quote:
            meta["quote"] = quote
        if msg["media"]:
            meta["media"] = msg["media"]
        reactions = [r for r in msg["reactions"] if r]
        if reactions:
            meta["reactions"] = reactions
        rec = turns.record(Turn(thread=thread, author=words(msg["sender"]), when=when, text=words(msg["body"]),
                                metadata=meta, line=msg["line"]))
        if rec is not None:
            yield rec
