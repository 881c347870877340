"""WeChat chats as MemoTrace (留痕, formerly WeChatMsg) writes them as web pages, one per chat
("聊天记录/<chat>/<chat>.html"): the page's script holds ``const chatMessages = [ … ];``, an object per message as
its ``exporter_html.py`` writes them — JavaScript, not JSON (``{ type:1, text: '…',is_send:0,avatar_path:'…',
timestamp:1712057412,is_chatroom:0,displayname:'李娜'}``, strings HTML-escaped then JavaScript-escaped); a JSON
array (quoted keys) is read the same.

``type`` is WeChat's: 1 text; 3 photo, 43 video, 47 sticker, 42 contact card, 48 location: media; 34 voice: its
``voice_to_text`` when the phone transcribed it (``metadata["voice"]``), else media; 49 an app message (``sub_type``
57 a reply, its ``refer_text`` the quote; 6 a file: media; a link: its title and ``link_url``); 0, 10000 and 10002
service lines (recalls, joins). ``is_send`` 1 marks the owner (``from_me``); the speaker is ``displayname`` ("me"
where it is empty). ``timestamp`` is the instant in epoch seconds: UTC (the page says no zone; its browser shows
local time). The chat is named by the file. A page cut inside its messages, not UTF-8, or with a message whose
time is no time: a one-line error naming the file and the line."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from importers import ImportFormatError, Record
from importers._common import head_matches
from importers._textlines import read_utf8
from importers.chatturns import MEDIA, SYSTEM, Turn, Turns, epoch, text_of

MARK_RE = re.compile(r"\bchatMessages\s*=\s*\[")
SNIFF_BYTES = 1 << 20  # how far into a page its script is looked for (its styles come first)
MAX_BYTES = 512 * 1024 * 1024
_MEDIA_TYPES = {3, 42, 43, 47, 48}
_SERVICE_TYPES = {0, 10000, 10002}
_WS_RE = re.compile(r"(?:\s|//[^\n]*|/\*.*?\*/)*", re.DOTALL)
_KEY_RE = re.compile(r"[A-Za-z_$][\w$]*")
_NUMBER_RE = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_STRINGS = {"'": re.compile(r"'((?:[^'\\\n]|\\.)*)'", re.DOTALL), '"': re.compile(r'"((?:[^"\\\n]|\\.)*)"', re.DOTALL)}
_ESCAPE_RE = re.compile(r"\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|\n|.)", re.DOTALL)
_SIMPLE = {"n": "\n", "r": "\r", "t": "\t", "b": "\b", "f": "\f", "v": "\v", "0": "\0", "\n": ""}
_HALF_RE = re.compile("[\ud800-\udfff]")
_WORDS = {"true": True, "false": False, "null": None, "undefined": None}


def is_page_head(head: str) -> bool:
    """Whether a page's first bytes hold MemoTrace's message list."""
    return bool(MARK_RE.search(head))


def is_page(path: Path) -> bool:
    """Whether ``path`` is a web page holding MemoTrace's message list in its first ``SNIFF_BYTES``."""
    return head_matches(path, lambda head: is_page_head(head.decode("utf-8", "replace")), SNIFF_BYTES)


def records(path: Path, turns: Turns) -> Iterator[Record]:
    """The records of one MemoTrace page."""
    where = str(path)
    text = read_utf8(path, MAX_BYTES, "page", ", though MemoTrace writes UTF-8; export the chat again")
    m = MARK_RE.search(text)
    if m is None:
        raise ImportFormatError("no MemoTrace message list (const chatMessages = [ … ]) in this page", where)
    thread = path.stem
    reader = _Literal(text, m.end() - 1, where)
    for n, msg in enumerate(reader.messages(), start=1):
        rec = _message(msg, n, thread, turns, where, reader.line_at(reader.last))
        if rec is not None:
            yield rec


def _message(msg: Any, n: int, thread: str, turns: Turns, where: str, line: int) -> Record | None:
    if not isinstance(msg, dict):
        raise ImportFormatError(f"message {n}: not an object", where, line)
    stamp = msg.get("timestamp")
    number = stamp if isinstance(stamp, (int, float)) and not isinstance(stamp, bool) else text_of(stamp)
    scale = 1000.0 if isinstance(number, (int, float)) and number > 1e12 else 1.0
    when = epoch(number, scale, f'message {n}: "timestamp"', f"{where}:{line}")
    try:
        kind = int(msg.get("type"))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        kind = -1
    if kind in _SERVICE_TYPES:
        turns.skip(SYSTEM)
        return None
    words = _unescape(text_of(msg.get("text")))
    meta: dict[str, Any] = {}
    if kind in _MEDIA_TYPES:
        turns.skip(MEDIA)
        return None
    if kind == 34:
        words = _unescape(text_of(msg.get("voice_to_text")))
        if not words.strip():
            turns.skip(MEDIA)
            return None
        meta["voice"] = True
    elif kind == 49:
        sub = text_of(msg.get("sub_type")).strip()
        if sub == "6" or words.startswith("./"):
            turns.skip(MEDIA)  # a file sent: its path, no words
            return None
        if sub == "57" and text_of(msg.get("refer_text")).strip():
            meta["quote"] = _unescape(text_of(msg.get("refer_text")))
        url = text_of(msg.get("link_url") or msg.get("url")).strip()
        if url and url not in words:
            words = f"{words} {url}".strip()
    elif kind != 1 and words.startswith("./"):
        turns.skip(MEDIA)  # a kind this reader does not know whose text is a file's path
        return None
    mine = text_of(msg.get("is_send")).strip() in ("1", "True", "true")
    if mine:
        meta["from_me"] = True
    author = _unescape(text_of(msg.get("displayname") or msg.get("display_name"))).strip() or (
        "me" if mine else thread)
    return turns.record(Turn(thread=thread, author=author, when=when, text=words, metadata=meta, line=line))


def _unescape(text: str) -> str:
    """A MemoTrace string as a reader sees it: its HTML escapes read (the JavaScript ones were read by the parser)."""
    return html.unescape(text) if "&" in text else text


class _Literal:
    """A reader of the JavaScript array literal at ``start`` of ``text``: yields its items one at a time."""

    def __init__(self, text: str, start: int, where: str) -> None:
        self.text, self.pos, self.where, self.last = text, start, where, start
        self._counted = (0, 1)  # (a position, its line): lines are counted on from the last one asked

    def line_at(self, pos: int) -> int:
        at, line = self._counted
        if pos < at:
            at, line = 0, 1
        line += self.text.count("\n", at, pos)
        self._counted = (pos, line)
        return line

    def fail(self, what: str) -> ImportFormatError:
        if self.pos >= len(self.text):
            return ImportFormatError("the page ends inside its messages (cut?)", self.where, self.line_at(self.pos))
        return ImportFormatError(f"{what} in the message list ({self.text[self.pos:self.pos + 20]!r})", self.where,
                                 self.line_at(self.pos))

    def skip(self) -> None:
        self.pos = _WS_RE.match(self.text, self.pos).end()  # type: ignore[union-attr]

    def messages(self) -> Iterator[Any]:
        self.pos += 1  # the "["
        while True:
            self.skip()
            if self.pos >= len(self.text):
                raise self.fail("")
            ch = self.text[self.pos]
            if ch == "]":
                return
            if ch == ",":
                self.pos += 1
                continue
            self.last = self.pos
            yield self.value(0)

    def value(self, depth: int) -> Any:
        if depth > 20:
            raise self.fail("nested too deep")
        self.skip()
        if self.pos >= len(self.text):
            raise self.fail("")
        ch = self.text[self.pos]
        if ch in _STRINGS:
            m = _STRINGS[ch].match(self.text, self.pos)
            if m is None:
                if ch not in self.text[self.pos + 1:]:
                    self.pos = len(self.text)  # the page ends inside the string
                raise self.fail("a string not closed")
            self.pos = m.end()
            if "\\" not in m.group(1):
                return m.group(1)
            out = _ESCAPE_RE.sub(_escape, m.group(1))
            # "\ud83d\ude4b": a pair of UTF-16 halves is one character
            return out.encode("utf-16", "surrogatepass").decode("utf-16", "replace") if _HALF_RE.search(out) else out
        if ch == "{":
            return self.object(depth)
        if ch == "[":
            self.pos += 1
            items: list[Any] = []
            while True:
                self.skip()
                if self.pos < len(self.text) and self.text[self.pos] == "]":
                    self.pos += 1
                    return items
                if self.pos < len(self.text) and self.text[self.pos] == ",":
                    self.pos += 1
                    continue
                items.append(self.value(depth + 1))
        m = _NUMBER_RE.match(self.text, self.pos)
        if m:
            self.pos = m.end()
            num = m.group(0)
            return int(num) if re.fullmatch(r"-?\d+", num) else float(num)
        m = _KEY_RE.match(self.text, self.pos)
        if m and m.group(0) in _WORDS:
            self.pos = m.end()
            return _WORDS[m.group(0)]
        raise self.fail("not a value")

    def object(self, depth: int) -> dict[str, Any]:
        self.pos += 1
        out: dict[str, Any] = {}
        while True:
            self.skip()
            if self.pos >= len(self.text):
                raise self.fail("")
            ch = self.text[self.pos]
            if ch == "}":
                self.pos += 1
                return out
            if ch == ",":
                self.pos += 1
                continue
            if ch in _STRINGS:
                key = self.value(depth + 1)
            else:
                m = _KEY_RE.match(self.text, self.pos)
                if m is None:
                    raise self.fail("not a key")
                key, self.pos = m.group(0), m.end()
            self.skip()
            if self.pos >= len(self.text) or self.text[self.pos] != ":":
                raise self.fail("no ':' after a key")
            self.pos += 1
            out[str(key)] = self.value(depth + 1)


def _escape(m: re.Match[str]) -> str:
    code = m.group(1)
    if code.startswith("u{"):
        return _char(int(code[2:-1], 16))
    if code[0] in "ux" and len(code) > 1:
        return _char(int(code[1:], 16))
    return _SIMPLE.get(code, code)


def _char(n: int) -> str:
    return chr(n) if n < 0x110000 else "\ufffd"
