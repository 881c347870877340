"""Tinder's "Download My Data": data.json (alone, in its folder or zip) whose "Messages" list holds, per match, its
match_id ("Match 1") and the messages the owner sent ({"to", "from": "You", "message", "sent_date": "Sat, 02 Mar
2024 21:14:07 GMT", "type", "fixed_height" for a GIF}). Usage, photos and the rest are no conversation.

Only the owner's messages are in it, each marked "You": the owner is "me" (``from_me``). A match is a chat ("Tinder
Match 1": the download names no one); its messages in time order. Words are HTML-escaped ("caf&eacute;"): unescaped.
A GIF without words is media. The file is streamed: one match in memory at a time. Times are UTC."""

from __future__ import annotations

import html
from collections.abc import Iterator
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

from importers import ImportFormatError, ImportReport, Record
from importers._tree import Tree
from importers.chatturns import Turn, Turns, json_errors_where, stream_json, text_of

NAME = "tinder"
FILE = "data.json"
HEAD_KEYS = ('"match_id"', '"app_opens"', '"swipes_likes"', '"swipes_passes"')


def is_head(name: str, head: str) -> bool:
    """Whether a JSON file is Tinder's data.json: by its name and a key only Tinder writes in its first bytes."""
    return name.lower() == FILE and head.lstrip("\ufeff \t\r\n").startswith("{") and any(k in head for k in HEAD_KEYS)


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of data.json, its folder or its zip; bad input: a one-line ImportFormatError."""
    turns = Turns(NAME, report)
    if path.is_file() and path.suffix.lower() == ".json":
        with path.open("rb") as raw:
            yield from _records(raw, str(path), turns)
        return
    tree = Tree(path)
    name = next((n for n in tree.names if n.rsplit("/", 1)[-1].lower() == FILE), None)
    if name is None:
        raise ImportFormatError(f"no {FILE} of a Tinder download", str(path))
    with tree.open(name) as raw:
        yield from _records(raw, tree.where(name), turns)


def _records(raw: Any, where: str, turns: Turns) -> Iterator[Record]:
    found = False
    with json_errors_where(where):
        for kind, prefix, value in stream_json(raw, where, lambda p: p == "Messages"):
            if kind == "notlist":
                raise ImportFormatError('"Messages" is not a list', where)
            if kind == "item":
                found = True
                yield from _match(value, where, turns)
            elif kind == "value" and prefix == "Messages":
                found = True
    if not found:
        raise ImportFormatError('no "Messages" of a Tinder data.json', where)


def _match(match: Any, where: str, turns: Turns) -> Iterator[Record]:
    """One match's messages in time order."""
    if not isinstance(match, dict):
        raise ImportFormatError("a match of \"Messages\" is not an object", where)
    mid = text_of(match.get("match_id")).strip() or "match"
    messages = match.get("messages")
    if messages is None:
        return
    if not isinstance(messages, list):
        raise ImportFormatError(f'{mid}: "messages" is not a list', where)
    timed = []
    for i, msg in enumerate(messages, start=1):
        if not isinstance(msg, dict):
            raise ImportFormatError(f"{mid}, message {i}: not an object", where)
        timed.append((_date(msg.get("sent_date"), f"{mid}, message {i}", where), i, msg))
    thread = f"Tinder {mid}"
    for when, _i, msg in sorted(timed, key=lambda t: (t[0], t[1])):
        metadata: dict[str, Any] = {"from_me": True, "match_id": mid}
        gif = text_of(msg.get("fixed_height")).strip()
        if gif or text_of(msg.get("type")).lower() == "gif":
            metadata["media"] = True
            if gif:
                metadata["gif"] = gif
        rec = turns.record(Turn(thread=thread, author="me", when=when, metadata=metadata,
                                text=html.unescape(text_of(msg.get("message")))))
        if rec is not None:
            yield rec


def _date(value: Any, what: str, where: str) -> datetime:
    try:
        if isinstance(value, str) and value.strip():
            when = parsedate_to_datetime(value.strip())
            return when if when.tzinfo else when.replace(tzinfo=timezone.utc)  # ("-0000": GMT all the same)
    except (TypeError, ValueError, IndexError, OverflowError):
        pass
    raise ImportFormatError(f'{what}: "sent_date" is no date ({str(value)[:40]!r})', where)
