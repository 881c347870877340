"""Snapchat's chats from "My Data" (``json/chat_history.json``; the download's folder, its zip, the file). Two
layouts: since 2023 an object of chats — a friend's username or a group's id — each a list of messages newest first
(``From``, ``Media Type``, ``Created`` "2024-03-14 18:05:00 UTC", ``Content``, ``Conversation Title`` for a group,
``IsSender``); before, "Received Saved Chat History" and "Sent Saved Chat History" (``From`` or ``To``, ``Text``),
the owner unnamed in the sent ones ("me").

A chat is read oldest first (one chat in memory at a time; the older layout's two lists are merged by chat). A row of
no words — a snap, a voice note (NOTE), a sticker, a shared story, a location — is media; a STATUS… row (a screenshot
taken, a member removed, a message erased) is a system line. Times are UTC. Where the export names the owner (their
username in ``From``, ``IsSender`` true) the name stays, ``from_me`` in metadata. The web page of the same download
(html/chat_history.html) is refused by :mod:`importers.kinds`, saying to download JSON."""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import ijson

from importers import ImportFormatError, ImportReport, Record
from importers._jsonstream import DEFAULT_MAX_JSON_BYTES, _json_errors, _opened
from importers._zips import ZIP_OPEN_ERRORS, is_junk_member, is_zip
from importers.chatturns import MEDIA, SYSTEM, Turn, Turns, text_of

NAME = "snapchat"
FILE = "chat_history.json"
_OLD_KEYS = ("Received Saved Chat History", "Sent Saved Chat History")
_CREATED_RE = re.compile(r"^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})(?:\.\d+)? ?(UTC|GMT|Z)?$")
HEAD_RE = re.compile(r'^\s*\{\s*"(?:[^"\\]|\\.){1,200}"\s*:\s*\[\s*\{\s*"(?:From|To)"\s*:\s*"[^"]*"\s*,\s*'
                     r'"Media Type"\s*:')


def is_export_head(head: str) -> bool:
    """Whether a JSON text starts as chat_history.json (its first chat's first message: From/To, then Media Type)."""
    return bool(HEAD_RE.match(head.lstrip("\ufeff")))


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of a Snapchat download (folder, zip) or its chat_history.json; bad input: a one-line error."""
    source = _source(path)
    where = str(source[0])  # the file, or the zip
    turns = Turns(NAME, report)
    with _opened(source, DEFAULT_MAX_JSON_BYTES) as fh, _json_errors(where):
        old: dict[str, list[tuple[datetime, int, dict[str, Any], bool]]] = {}
        for key, value in ijson.kvitems(fh, "", use_float=True):
            if not isinstance(value, list):
                raise ImportFormatError(f"chat {key[:80]!r} is not a list of messages", where)
            if key in _OLD_KEYS:
                sent = key == _OLD_KEYS[1]
                for n, row in enumerate(value, start=1):
                    msg = _row(row, n, key, where)
                    other = text_of(msg.get("To" if sent else "From")).strip() or "Unknown"
                    old.setdefault(other, []).append((_created(msg, n, key, where), len(old.get(other, ())), msg, sent))
                continue
            title = next((t for r in value if isinstance(r, dict) and (t := text_of(r.get("Conversation Title")).strip())),
                         key)  # a group's name (its key is an id); a friend's chat: the username
            rows = [(_created(_row(row, n, key, where), n, key, where), -n, row) for n, row in enumerate(value, start=1)]
            rows.sort(key=lambda r: (r[0], r[1]))  # oldest first; one time: the file's order, newest first, reversed
            for when, _, row in rows:
                rec = _message(row, when, title, turns, False)
                if rec is not None:
                    yield rec
        for chat, kept in old.items():
            for when, _, msg, sent in sorted(kept, key=lambda r: (r[0], r[1])):
                rec = _message(msg, when, chat, turns, sent)
                if rec is not None:
                    yield rec
    if not report.messages_seen:
        raise ImportFormatError("no Snapchat chat in this file", where)


def _source(path: Path) -> tuple[Path, str | None]:
    """The chat_history.json of a download: (file, None), or (zip, member)."""
    if path.is_dir():
        for rel in (f"json/{FILE}", FILE):
            if (path / rel).is_file():
                return path / rel, None
        raise ImportFormatError(f"folder holds no Snapchat {FILE} (json/{FILE})", str(path))
    if is_zip(path):
        try:
            with zipfile.ZipFile(path) as zf:
                names = [n for n in zf.namelist() if not is_junk_member(n) and n.rsplit("/", 1)[-1] == FILE]
        except ZIP_OPEN_ERRORS as exc:
            raise ImportFormatError(f"malformed zip archive ({exc})", str(path)) from None
        if not names:
            raise ImportFormatError(f"zip holds no Snapchat {FILE}", str(path))
        return path, sorted(names, key=lambda n: (n.count("/"), n))[0]
    return path, None


def _row(row: Any, n: int, chat: str, where: str) -> dict[str, Any]:
    if not isinstance(row, dict):
        raise ImportFormatError(f"chat {chat[:80]!r}, message {n}: not an object", where)
    return row


def _created(row: dict[str, Any], n: int, chat: str, where: str) -> datetime:
    """A message's time: "Created" ("2024-03-14 18:05:00 UTC"), UTC."""
    value = row.get("Created")
    m = _CREATED_RE.match(value.strip()) if isinstance(value, str) else None
    try:
        if m:
            return datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S").replace(tzinfo=timezone.utc)
    except ValueError:
        pass
    raise ImportFormatError(f'chat {chat[:80]!r}, message {n}: "Created" is no date ({str(value)[:40]!r})', where)


def _message(row: dict[str, Any], when: datetime, chat: str, turns: Turns, sent: bool) -> Record | None:
    """The record of one row (None for a service or media row, counted)."""
    kind = text_of(row.get("Media Type")).strip().upper()
    if kind.startswith("STATUS"):
        turns.skip(SYSTEM)
        return None
    words = text_of(row.get("Content") if "Content" in row else row.get("Text"))
    if kind not in ("TEXT", "") and not words.strip():
        turns.skip(MEDIA)
        return None
    meta: dict[str, Any] = {}
    if kind not in ("TEXT", ""):
        meta["media_type"] = kind.lower()
    if row.get("IsSender") is True:
        meta["from_me"] = True
    author = "me" if sent else text_of(row.get("From")).strip()
    return turns.record(Turn(thread=chat, author=author, when=when, text=words, metadata=meta))
