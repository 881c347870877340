"""Skype chats as Skype's "Export files and chat history" writes them (Microsoft Teams (free) exports the same file,
zipped): messages.json (in the export's .tar or zip, or alone) of {"userId", "exportDate", "conversations": [{"id",
"displayName", "threadProperties": {"topic"},
"MessageList": [...]}]}, each message with its originalarrivaltime (ISO 8601, UTC), messagetype, content (HTML-ish:
<b>, <ss type="smile">:)</ss>, <at id="…">Name</at>, <quote>…</quote>, entities), from and displayName.

Words are RichText and Text messages (tags dropped, a quoted message left out: marked ``reply``); pictures, videos,
files, contacts and locations (RichText/UriObject, RichText/Media_…) are media; calls, members added or gone, topic
changes and other events are system. The owner (userId) is "me" when the message names no sender. The export lists
a conversation's newest message first: each conversation's turns are put in time order (one conversation in memory at
a time; the file is streamed)."""

from __future__ import annotations

import html
import io
import re
import tarfile
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from importers import ImportFormatError, ImportReport, Record
from importers.chatturns import MEDIA, SYSTEM, Turn, Turns, iso_date, json_errors_where, stream_json, text_of

NAME = "skype"
HEAD_RES = (re.compile(r'"userId"\s*:'), re.compile(r'"conversations"\s*:\s*[\[{]'))  # ({: damaged, said by the reader)
Opener = Callable[[], AbstractContextManager[IO[bytes]]]
_LIST = "conversations.item.MessageList"
_WORDS = {"richtext", "text", "richtext/html"}
_MEDIA_PREFIXES = ("richtext/uriobject", "richtext/media_", "richtext/files", "richtext/contacts", "richtext/location")
_QUOTE_RE = re.compile(r"<quote\b[^>]*>.*?</quote>", re.DOTALL | re.IGNORECASE)
_AT_RE = re.compile(r"<at\b[^>]*>(.*?)</at>", re.DOTALL | re.IGNORECASE)
_EDIT_RE = re.compile(r"<e_m\b[^>]*/?>(?:</e_m>)?", re.IGNORECASE)
_TAG_RE = re.compile(r"</?[A-Za-z][^<>]*>")
# Teams writes its messages as HTML paragraphs (RichText/Html): a paragraph or a line break ends a line
_LINE_END_RE = re.compile(r"</(?:p|div|li)>\s*(?=<(?:p|div|li|ul|ol)\b)|<br\s*/?>", re.IGNORECASE)


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of a Skype export (messages.json, its folder, or the export's .tar); bad input: a one-line
    ImportFormatError."""
    if path.is_dir():
        path = path / "messages.json"
        if not path.is_file():
            raise ImportFormatError("folder holds no messages.json of a Skype export", str(path.parent))
    if tarfile.is_tarfile(path):
        yield from _records(_tar_opener(path), f"{path}!messages.json", Turns(NAME, report))
        return
    with path.open("rb") as fh:
        zipped = fh.read(4) == b"PK\x03\x04"
    if zipped:  # Microsoft Teams (free) exports the same messages.json, zipped
        from importers._tree import Tree

        tree = Tree(path)
        name = next((n for n in tree.names if n.rsplit("/", 1)[-1] == "messages.json"), None)
        if name is None:
            raise ImportFormatError("zip holds no messages.json of a Skype or Teams export", str(path))
        yield from _records(lambda: tree.open(name), tree.where(name), Turns(NAME, report))
        return
    yield from _records(lambda: path.open("rb"), str(path), Turns(NAME, report))


def _tar_opener(path: Path) -> Opener:
    @contextmanager
    def open_it() -> Iterator[IO[bytes]]:
        try:
            with tarfile.open(path) as tf:
                member = next((m for m in tf if m.isfile() and m.name.rsplit("/", 1)[-1] == "messages.json"), None)
                if member is None:
                    raise ImportFormatError("tar archive holds no messages.json of a Skype export", str(path))
                fh = tf.extractfile(member)
                if fh is None:
                    raise ImportFormatError("messages.json in the tar archive cannot be read", str(path))
                with fh:
                    yield io.BufferedReader(fh, 1 << 16)  # type: ignore[arg-type,type-var]
        except (tarfile.TarError, EOFError) as exc:
            raise ImportFormatError(f"malformed tar archive ({exc})", str(path)) from None
    return open_it


def _records(opener: Opener, where: str, turns: Turns) -> Iterator[Record]:
    owner = ""
    conv: dict[str, str] = {}
    pending: list[Turn] = []
    n = 0
    with json_errors_where(where), opener() as raw:
        for kind, prefix, value in stream_json(raw, where, lambda p: p == _LIST):
            if kind == "open" and prefix == "conversations":
                raise ImportFormatError('"conversations" is an object, not the list of conversations', where)
            if kind == "open" and prefix == "conversations.item":
                yield from _flush(pending, turns)
                pending, conv = [], {}
            elif kind == "value" and prefix == "userId":
                owner = text_of(value)
            elif kind == "value" and prefix in ("conversations.item.id", "conversations.item.displayName",
                                                "conversations.item.threadProperties.topic"):
                conv[prefix.rsplit(".", 1)[-1]] = text_of(value)
            elif kind == "notlist":
                raise ImportFormatError(f'conversation {conv.get("id", "")[:60]!r}: "MessageList" is not a list', where)
            elif kind == "item":
                n += 1
                turn = _message(value, conv, owner, turns, f"message {n}", where)
                if turn is not None:
                    pending.append(turn)
    yield from _flush(pending, turns)


def _flush(pending: list[Turn], turns: Turns) -> Iterator[Record]:
    """A conversation's turns, oldest first (the export lists the newest first)."""
    for turn in sorted(pending, key=lambda t: t.when or datetime.min):
        rec = turns.record(turn)
        if rec is not None:
            yield rec


def _who(ident: str) -> str:
    """An id as the sender's name when nothing better names it: "8:live:ana.sousa" -> "ana.sousa"."""
    ident = ident.rsplit("/", 1)[-1]
    return re.sub(r"^\d+:(?:live:)?", "", ident) or ident


def _message(msg: Any, conv: dict[str, str], owner: str, turns: Turns, what: str, where: str) -> Turn | None:
    if not isinstance(msg, dict):
        turns.report.skipped_malformed += 1
        turns.report.warn(f"{where}: {what}: a {type(msg).__name__}, not a message; skipped")
        return None
    when = iso_date(msg.get("originalarrivaltime"), f'{what}: "originalarrivaltime"', where)
    mtype = text_of(msg.get("messagetype")).lower()
    content = text_of(msg.get("content"))
    props: dict[str, Any] = msg["properties"] if isinstance(msg.get("properties"), dict) else {}
    if props.get("deletetime"):
        turns.skip(SYSTEM)
        return None
    if mtype.startswith(_MEDIA_PREFIXES):
        turns.skip(MEDIA)
        return None
    if mtype not in _WORDS:
        turns.skip(SYSTEM)  # Event/Call, ThreadActivity/…, Notice, PopCard …
        return None
    sender = text_of(msg.get("from")).rsplit("/", 1)[-1]
    thread = conv.get("topic") or conv.get("displayName") or _who(conv.get("id", "")) or "Skype"
    author = text_of(msg.get("displayName")).strip()
    if not author:
        if owner and sender == owner:
            author = "me"
        elif sender == conv.get("id") and conv.get("displayName"):
            author = conv["displayName"]
        else:
            author = _who(sender) or "Unknown"
    meta: dict[str, Any] = {}
    if props.get("edittime"):
        meta["edited"] = True
    if _QUOTE_RE.search(content):
        meta["reply"] = True
    ident = text_of(msg.get("id")).strip()
    return Turn(thread=thread, author=author, when=when, text=skype_text(content), metadata=meta,
                ref=f"{NAME}:{conv.get('id', '')}:{ident}" if ident else None)


def skype_text(content: str) -> str:
    """Skype's HTML-ish content as a reader sees it: a quoted message dropped, mentions as "@Name", Teams' paragraphs
    and line breaks as lines, tags dropped, entities unescaped."""
    text = _QUOTE_RE.sub("", content)
    text = _EDIT_RE.sub("", text)
    text = _LINE_END_RE.sub("\n", text)
    text = _AT_RE.sub(lambda m: "@" + m.group(1), text)
    text = _TAG_RE.sub("", text)
    return html.unescape(text)
