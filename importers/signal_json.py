"""Signal Desktop chats as the `signal-export` tool writes them in JSON: a ``data.json`` in each chat's folder (beside
its chat.md), the chat's messages as JSON lines (one object a line) or as one array, each
``{"date": "2024-03-13 19:02:00", "sender": "Me", "body": …, "quote": …, "sticker": …, "reactions": [{"name",
"emoji"}], "attachments": [{"name", "path", …}]}``.

The layout was written from memory of the tool, not from a file at hand (tests/fixtures/unseen29/README.md): the
reader takes the words it knows and the few spellings near them (``text`` for the body, ``author``/``from`` for the
sender, ``timestamp`` for the date). Times are the computer's wall time (naive, as the markdown's), aware when the
date says its offset; "Me" (the owner) as written. A quote goes to ``metadata["quote"]``, reactions to
``metadata["reactions"]`` ("Ana: ❤️"), an attachment or a sticker without words is media. The chat is the folder's
name. A line that is no JSON object, a date that is no date: a one-line error naming the file and the line."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from importers import ImportFormatError, Record
from importers._textlines import iter_lines
from importers.chatturns import Turn, Turns, iso_date, json_errors_where, listed, stream_json, text_of

NAME = "data.json"
# The first message's keys, as the file starts: a date of signal-export's shape, a sender and a body.
_HEAD_RE = re.compile(r'^\s*\[?\s*\{\s*"date"\s*:\s*"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}')
_DATE_KEYS = ("date", "timestamp")
_SENDER_KEYS = ("sender", "author", "from")
_BODY_KEYS = ("body", "text")


def is_head(head: str) -> bool:
    """Whether a file's first bytes are signal-export's data.json: its first message's date, sender and body."""
    head = head.lstrip("\ufeff")
    first = head[:2000]
    return bool(_HEAD_RE.match(first)) and re.search(r'"sender"\s*:', first) is not None \
        and re.search(r'"body"\s*:', first) is not None


def records(path: Path, turns: Turns) -> Iterator[Record]:
    """The records of one data.json (JSON lines or one array); bad input: a one-line ImportFormatError."""
    where = str(path)
    thread = path.parent.name or path.stem
    with path.open("rb") as raw:
        start = raw.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n")
    if not start:
        raise ImportFormatError("empty file", where)
    if not is_head(start.decode("utf-8", "replace")):
        raise ImportFormatError('not signal-export\'s data.json (expected a {"date", "sender", "body"} object a '
                                "message)", where, 1)
    if start.startswith(b"["):
        with json_errors_where(where), path.open("rb") as raw:
            for i, (kind, _prefix, value) in enumerate(stream_json(raw, where, lambda p: p == ""), start=1):
                if kind == "item":
                    yield from _message(value, thread, turns, where, i)
        return
    with path.open("rb") as raw:
        for ln in iter_lines(raw, where):
            text = ln.text.lstrip("\ufeff").strip()
            if not text:
                continue
            try:
                value = json.loads(text)
            except (ValueError, RecursionError):
                raise ImportFormatError("invalid or truncated JSON line", where, ln.no) from None
            if not isinstance(value, dict):
                raise ImportFormatError(f"a JSON line that is a {type(value).__name__}, not a message", where, ln.no)
            yield from _message(value, thread, turns, where, ln.no)


def _first(msg: dict[str, Any], keys: tuple[str, ...]) -> Any:
    return next((msg[k] for k in keys if msg.get(k) not in (None, "")), None)


def _message(msg: Any, thread: str, turns: Turns, where: str, no: int) -> Iterator[Record]:
    if not isinstance(msg, dict):
        turns.report.skipped_malformed += 1
        turns.report.warn(f"{where}: message {no} is a {type(msg).__name__}, not an object; skipped")
        return
    when: datetime = iso_date(_first(msg, _DATE_KEYS), f'message {no}: "date"', where)
    meta: dict[str, Any] = {}
    quote = text_of(msg.get("quote")).strip()
    if quote:
        meta["quote"] = quote
    media = [text_of(a.get("name") or a.get("fileName") or a.get("path")) or "attachment"
             for a in listed(msg.get("attachments")) if isinstance(a, dict)]
    sticker = text_of(msg.get("sticker")).strip()
    if sticker:
        media.append(f"sticker {sticker}")
    if media:
        meta["media"] = media
    reactions = [f"{text_of(r.get('name'))}: {text_of(r.get('emoji'))}".strip(": ")
                 for r in listed(msg.get("reactions")) if isinstance(r, dict)]
    if reactions:
        meta["reactions"] = reactions
    author = text_of(_first(msg, _SENDER_KEYS)).strip() or "Unknown"
    rec = turns.record(Turn(thread=thread, author=author, when=when, text=text_of(_first(msg, _BODY_KEYS)),
                            metadata=meta, line=no))
    if rec is not None:
        yield rec
