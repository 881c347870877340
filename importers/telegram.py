"""Telegram Desktop's exports ("Export chat history", "Export Telegram data"): its machine-readable JSON
(``result.json``: one chat, or the whole account with ``chats.list`` and ``left_chats.list``) and its web pages
(``messages.html``, ``messages2.html``, ...: :mod:`importers.telegram_html`); a file, its folder or a zip of it.

A message's text is a string or a list of strings and entity objects (``{"type": "bold", "text": ...}``): their
words joined, a ``text_link`` followed by where it points. Service messages (joins, invitations, pins, calls,
renames) are counted as system lines and left out; a photo, sticker, voice note, location or file without words
as media. A reply links to the message it answers; a forward keeps who it came from in metadata. In a forum, a
message's topic (its reply chain up to the topic's creation; its name as it was then) goes to ``metadata["topic"]``.

Times: ``date`` is the exporting computer's wall time; ``date_unixtime`` (since 2022) the instant: kept together
as an aware time in the zone the export was written in. Refs are ``telegram:<chat id>:<message id>``, stable
across exports of the same chat.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from importers import ImportFormatError, ImportReport, Record, apps35
from importers._zips import (
    DEFAULT_MAX_MEMBER_BYTES,
    ZIP_OPEN_ERRORS,
    _Limited,
    check_member_name,
    is_junk_member,
    is_zip,
)
from importers.chatturns import (
    SYSTEM,
    Turn,
    Turns,
    epoch,
    iso_date,
    json_errors_where,
    listed,
    stream_json,
    text_of,
    zoned,
)

NAME = "telegram"
_CHAT_LISTS = ("messages", "chats.list.item.messages", "left_chats.list.item.messages")
_CHAT_PREFIXES = {"", "chats.list.item", "left_chats.list.item"}
PAGE_RE = re.compile(r"messages(\d*)\.html", re.IGNORECASE)
# What the app calls the chats that have no name in the export
_UNNAMED = {"saved_messages": "Saved Messages", "replies": "Replies"}
_MEDIA_KEYS = ("photo", "file", "location_information", "contact_information", "place_name", "game_title",
               "invoice_information", "live_location_period_seconds")


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of a Telegram export (file, folder or zip); bad input raises a one-line ImportFormatError."""
    from importers import telegram_html

    turns = Turns(NAME, report)
    if path.is_file() and _is_copy(path):
        from importers import telegram_copy

        report.variant["layout"] = "copied text"
        yield from telegram_copy.records(path, turns)
        return
    if path.is_dir() and (files := apps35.telegram_copies(path)):  # a folder of chats copied as text: each read
        from importers import telegram_copy

        report.variant["layout"] = "copied text"
        for file in files:
            yield from telegram_copy.records(file, turns)
        return
    copies = _zipped_copies(path) if path.is_file() and is_zip(path) else []
    if copies:  # a zip of chats copied as text (nothing else of an export in it)
        from importers import telegram_copy

        report.variant["layout"] = "copied text"
        for member in copies:
            yield from telegram_copy.records(Path(member), turns, zip_opener(path, member), f"{path}!{member}")
        return
    json_sources, page_groups = _sources(path)
    for opener, where in json_sources:
        report.variant.setdefault("layout", "json")
        yield from _json_records(opener, where, turns)
    for pages in page_groups:
        report.variant.setdefault("layout", "html")
        yield from telegram_html.records(pages, turns)


Opener = Callable[[], AbstractContextManager[IO[bytes]]]  # opens one file of the export as a binary stream


def _sources(path: Path) -> tuple[list[tuple[Opener, str]], list[list[tuple[Opener, str]]]]:
    """(the JSON files, the chats' page groups) of an export: a result.json, a page (its chat's pages beside it),
    a folder (result.json, or every folder of pages below it), or a zip of any of these."""
    file = str(path)
    if path.is_dir():
        result = path / "result.json"
        if result.is_file():
            return [(_file_opener(result), str(result))], []
        groups: dict[Path, list[Path]] = {}
        for page in sorted(path.rglob("messages*.html")):
            if PAGE_RE.fullmatch(page.name):
                groups.setdefault(page.parent, []).append(page)
        jsons = sorted(p for p in path.rglob("result.json"))
        if not groups and not jsons:
            raise ImportFormatError("folder holds no result.json nor messages.html of a Telegram export", file)
        # Telegram Desktop's "Both": a chat's pages beside (or below) the result.json holding it are read once
        covered = {p.parent for p in jsons}
        return ([(_file_opener(p), str(p)) for p in jsons],
                [[(_file_opener(p), str(p)) for p in _page_order(pages)] for where, pages in sorted(groups.items())
                 if not covered & {where, *where.parents}])
    if is_zip(path):
        return _zip_sources(path)
    if PAGE_RE.fullmatch(path.name) or path.suffix.lower() in (".html", ".htm"):
        pages = [p for p in path.parent.iterdir() if PAGE_RE.fullmatch(p.name)] if PAGE_RE.fullmatch(path.name) \
            else [path]
        return [], [[(_file_opener(p), str(p)) for p in _page_order(pages)]]
    return [(_file_opener(path), file)], []


def _is_copy(path: Path) -> bool:
    """A chat copied as text: its first line is "Name, [date time]" (not JSON, not a page, not a zip)."""
    from importers.telegram_copy import HEADER_RE

    with path.open("rb") as fh:
        head = fh.read(4096).decode("utf-8", "replace").lstrip("\ufeff \t\r\n")
    return bool(HEADER_RE.match(head.split("\n", 1)[0].rstrip("\r")))


def _zipped_copies(path: Path) -> list[str]:
    """The members of a zip that are chats copied as text, when the zip holds no result.json nor page."""
    from importers.telegram_copy import HEADER_RE

    try:
        with zipfile.ZipFile(path) as zf:
            names = [n for n in zf.namelist() if not is_junk_member(n)]
            bases = [n.rsplit("/", 1)[-1].lower() for n in names]
            if "result.json" in bases or any(PAGE_RE.fullmatch(b) for b in bases):
                return []
            found = []
            for name in names:
                if name.lower().endswith(".txt"):
                    check_member_name(name, str(path))
                    with zf.open(name) as fh:
                        head = fh.read(4096).decode("utf-8", "replace").lstrip("\ufeff \t\r\n")
                    if HEADER_RE.match(head.split("\n", 1)[0].rstrip("\r")):
                        found.append(name)
            return found
    except ZIP_OPEN_ERRORS as exc:
        raise ImportFormatError(f"malformed zip archive ({exc})", str(path)) from None


def _page_order(pages: list[Path]) -> list[Path]:
    """messages.html, messages2.html, ..., messages10.html: by number, not by name."""
    def number(p: Path) -> int:
        m = PAGE_RE.fullmatch(p.name)
        return int(m.group(1) or 1) if m else 0
    return sorted(pages, key=number)


def _file_opener(p: Path) -> Opener:
    return lambda: p.open("rb")


def zip_opener(path: Path, member: str) -> Opener:
    """Opens ``member`` of the zip ``path`` as a size-capped stream (zip bombs), closing the zip with it."""
    @contextmanager
    def open_it() -> Iterator[IO[bytes]]:
        with zipfile.ZipFile(path) as zf, zf.open(member) as raw:
            yield io.BufferedReader(_Limited(raw, DEFAULT_MAX_MEMBER_BYTES, f"{path}!{member}"), 1 << 16)
    return open_it


def _zip_sources(path: Path) -> tuple[list[tuple[Opener, str]], list[list[tuple[Opener, str]]]]:
    file = str(path)
    try:
        with zipfile.ZipFile(path) as zf:
            names = [n for n in zf.namelist() if not is_junk_member(n)]
    except ZIP_OPEN_ERRORS as exc:
        raise ImportFormatError(f"malformed zip archive ({exc})", file) from None
    for name in names:
        check_member_name(name, file)

    jsons = sorted(n for n in names if n.rsplit("/", 1)[-1].lower() == "result.json")
    groups: dict[str, list[str]] = {}
    for n in names:
        base = n.rsplit("/", 1)[-1]
        m = PAGE_RE.fullmatch(base)
        if m:
            groups.setdefault(n[: len(n) - len(base)], []).append(n)
    if not jsons and not groups:
        raise ImportFormatError("zip holds no result.json nor messages.html of a Telegram export", file)
    page_groups = [[(zip_opener(path, n), f"{file}!{n}") for n in sorted(
        members, key=lambda n: int(PAGE_RE.fullmatch(n.rsplit("/", 1)[-1]).group(1) or 1))]  # type: ignore[union-attr]
        for _, members in sorted(groups.items())]
    return [(zip_opener(path, n), f"{file}!{n}") for n in jsons], ([] if jsons else page_groups)


def _json_records(opener: Opener, where: str, turns: Turns) -> Iterator[Record]:
    header: dict[str, Any] = {}
    chat = ""
    chat_id = ""
    forum = _Forum()  # a forum's topics (none in other chats)
    with json_errors_where(where), opener() as raw:
        for kind, prefix, value in stream_json(raw, where, lambda p: p in _CHAT_LISTS):
            if kind == "open" and prefix in _CHAT_PREFIXES:
                header = {}
                forum = _Forum()
            elif kind == "value":
                parent, _, key = prefix.rpartition(".")
                if key in ("name", "type", "id") and parent in _CHAT_PREFIXES:
                    header[key] = value
            elif kind == "notlist":
                raise ImportFormatError(f'chat {text_of(header.get("name"))!r}: "messages" is not a list', where)
            elif kind == "item":
                chat = _chat_name(header)
                chat_id = text_of(header.get("id")) or chat
                rec = _message(value, chat, chat_id, where, turns, forum)
                if rec is not None:
                    yield rec
    if not turns.report.messages_seen and not header and not chat:
        raise ImportFormatError("no Telegram chat in this JSON (no \"messages\" list)", where)


def _chat_name(header: dict[str, Any]) -> str:
    name = text_of(header.get("name")).strip()
    if name:
        return name
    kind = text_of(header.get("type"))
    return _UNNAMED.get(kind) or (f"Telegram chat {header['id']}" if header.get("id") is not None else "Telegram chat")


class _Forum:
    """A forum's topics as its messages go by: which topic each message is in, and each topic's name now."""

    def __init__(self) -> None:
        self.root: dict[int, int] = {}  # message id -> the id of its topic's creation
        self.name: dict[int, str] = {}  # a topic's creation id -> its name now

    def topic(self, msg: dict[str, Any]) -> str | None:
        """The name of the topic ``msg`` is in, at its time: a topic's creation starts one, a message replying to a
        message in a topic is in it, a rename (itself in the topic) renames it from then on. None outside a forum."""
        mid, reply = msg.get("id"), msg.get("reply_to_message_id")
        if not isinstance(mid, int) or isinstance(mid, bool):
            return None
        action = msg.get("action") if msg.get("type") == "service" else None
        if action == "topic_created" and msg.get("title"):
            self.root[mid] = mid
            self.name[mid] = text_of(msg["title"])
            return self.name[mid]
        root = self.root.get(reply) if isinstance(reply, int) and not isinstance(reply, bool) else None
        if root is None:
            return None
        self.root[mid] = root
        if action == "topic_edit" and msg.get("new_title"):
            self.name[root] = text_of(msg["new_title"])
        return self.name[root]


def _message(msg: Any, chat: str, chat_id: str, where: str, turns: Turns,
             forum: _Forum | None = None) -> Record | None:
    if not isinstance(msg, dict):
        turns.report.skipped_malformed += 1
        turns.report.warn(f"chat {chat!r}: a message that is {type(msg).__name__}, not an object; skipped")
        return None
    mid = text_of(msg.get("id"))
    what = f"chat {chat!r}, message {mid or '?'}"
    topic = forum.topic(msg) if forum is not None and (forum.root or msg.get("action") == "topic_created") else None
    if msg.get("type") == "service":
        turns.skip(SYSTEM)
        return None
    when = _when(msg, f'{what}: "date"', where)
    meta: dict[str, Any] = {}
    if topic:
        meta["topic"] = topic
    media = _media(msg)
    if media:
        meta["media"] = media
    if msg.get("edited"):
        meta["edited"] = True
    if msg.get("forwarded_from"):
        meta["forwarded_from"] = text_of(msg["forwarded_from"])
    if msg.get("author"):
        meta["signature"] = text_of(msg["author"])
    if msg.get("via_bot"):
        meta["via_bot"] = text_of(msg["via_bot"])
    text = entities_text(msg.get("text"))
    if not text.strip() and isinstance(msg.get("poll"), dict):
        text = _poll(msg["poll"])
    links: list[tuple[str, str]] = []
    reply = msg.get("reply_to_message_id")
    if isinstance(reply, int) and not isinstance(reply, bool):
        meta["reply_to"] = reply
        links.append((f"{NAME}:{chat_id}:{reply}", "explicit"))
    author = msg.get("from")
    name = text_of(author).strip() if author is not None else "Deleted Account"
    ref = f"{NAME}:{chat_id}:{mid}" if mid else None
    return turns.record(Turn(thread=chat, author=name or "Deleted Account", when=when, text=text, ref=ref,
                             metadata=meta, links=links))


def _when(msg: dict[str, Any], what: str, where: str) -> datetime:
    local = iso_date(msg.get("date"), what, where)
    unix = msg.get("date_unixtime")
    if unix is None or local.tzinfo is not None:
        return local
    return zoned(local, epoch(unix, 1, what.replace('"date"', '"date_unixtime"'), where))


def _media(msg: dict[str, Any]) -> list[str]:
    found = []
    for key in _MEDIA_KEYS:
        value = msg.get(key)
        if value:
            found.append(value if isinstance(value, str) and key in ("photo", "file") else key.split("_")[0])
    if msg.get("media_type") and not found:
        found.append(text_of(msg["media_type"]))
    return found


def _poll(poll: dict[str, Any]) -> str:
    answers = [text_of(a.get("text")) for a in listed(poll.get("answers")) if isinstance(a, dict)]
    question = text_of(poll.get("question"))
    return f"Poll: {question}" + (" — " + " / ".join(answers) if answers else "")


def entities_text(text: Any) -> str:
    """A message's text: a string, or a list of strings and entity objects whose words are joined (a text_link's
    target after its words, in parentheses, when they differ)."""
    if isinstance(text, str):
        return text
    if not isinstance(text, list):
        return ""
    parts = []
    for part in text:
        if isinstance(part, str):
            parts.append(part)
        elif isinstance(part, dict):
            words = text_of(part.get("text"))
            href = text_of(part.get("href"))
            parts.append(f"{words} ({href})" if part.get("type") == "text_link" and href and href != words else words)
    return "".join(parts)
