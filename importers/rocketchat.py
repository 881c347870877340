"""Rocket.Chat's "Export my data" in JSON (My Account > Preferences > My Data): a file per room named by the room
(``general.json``, a direct message by the other's username), one JSON object per line: ``{"msg", "username", "ts"}``
(ISO 8601, UTC), ``"type"`` on service lines (joined, left, topic changed: left out as system), ``"attachments"``
(a message that is only a file: media). Read as one room file, a folder of them or the export's zip; a room's file
is streamed a line at a time. Rocket.Chat names every sender by username and marks no owner; the room is the file's
name. A line that is no JSON object, or whose ``ts`` is no time, is a one-line error naming the file and the line."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from importers import ImportFormatError, ImportReport, Record
from importers._aichat import any_time
from importers._textlines import capped_lines
from importers._tree import Tree
from importers.chatturns import SYSTEM, Turn, Turns, text_of

NAME = "rocketchat"
_KEYS = ("msg", "username", "ts")
_KEY_RES = tuple(re.compile(rf'(?<!\\)"{k}"\s*:') for k in _KEYS)


def is_room_head(head: str) -> bool:
    """Whether a file's first bytes are a Rocket.Chat room's: its first line a JSON object holding ``msg``,
    ``username`` and ``ts`` (read as JSON when whole in ``head``, else by its keys)."""
    first = head.lstrip("\ufeff \t\r\n").split("\n", 1)[0]
    if not first.startswith("{"):
        return False
    try:
        obj = json.loads(first)
    except ValueError:
        return "\n" not in head.lstrip("\ufeff \t\r\n") and all(r.search(first) for r in _KEY_RES)  # cut by the read
    return isinstance(obj, dict) and all(k in obj for k in _KEYS) and not isinstance(obj.get("msg"), (dict, list))


def _head(fh: IO[bytes]) -> str:
    return fh.read(16384).decode("utf-8", "replace")


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of a room file (JSON lines, or the HTML form: :mod:`importers.rocketchat_html`), a folder or the zip
    of them; bad input: a one-line ImportFormatError."""
    from importers import rocketchat_html

    turns = Turns(NAME, report)
    if path.is_file() and path.suffix.lower() in (".json", ".html", ".htm"):
        with path.open("rb") as fh:
            if path.suffix.lower() == ".json":
                yield from _room(fh, path.stem, str(path), turns)
            else:
                yield from rocketchat_html.room(fh, path.stem, str(path), turns)
        if not report.messages_seen:
            raise ImportFormatError("no message in this Rocket.Chat room", str(path))
        return
    tree = Tree(path)
    rooms = []
    for name in (n for n in tree.names if n.lower().endswith((".json", ".html", ".htm"))):
        page = not name.lower().endswith(".json")
        with tree.open(name) as fh:
            if rocketchat_html.is_room_head(_head(fh)) if page else is_room_head(_head(fh)):
                rooms.append(name)
            elif not page:
                report.warn(f"{tree.where(name)}: no Rocket.Chat room (its first line holds no msg, username, ts); "
                            "left out")
    if not rooms:
        raise ImportFormatError("no room file (.json, a message per line, or .html) of a Rocket.Chat export",
                                str(path))
    for name in rooms:
        with tree.open(name) as fh:
            if name.lower().endswith(".json"):
                yield from _room(fh, Path(name).stem, tree.where(name), turns)
            else:
                yield from rocketchat_html.room(fh, Path(name).stem, tree.where(name), turns)


def _room(fh: IO[bytes], room: str, where: str, turns: Turns) -> Iterator[Record]:
    """A room's messages, a line at a time (a line past MAX_LINE_CHARS bytes refused by its number)."""
    for lineno, raw in capped_lines(fh, where):
        text = raw.decode("utf-8", "replace").lstrip("\ufeff").strip()
        if not text:
            continue
        try:
            msg = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise ImportFormatError(f"not a JSON object ({str(exc)[:60]})", where, lineno) from None
        if not isinstance(msg, dict):
            raise ImportFormatError(f"not a JSON object (a {type(msg).__name__})", where, lineno)
        when = any_time(msg.get("ts"), '"ts"', where, lineno)
        if text_of(msg.get("type") or msg.get("t")).strip():
            turns.skip(SYSTEM)  # joined, left, topic changed, a message removed: Rocket.Chat's service lines
            continue
        metadata: dict[str, Any] = {"room": room}
        files = [text_of(a.get("title") or a.get("name")) for a in msg.get("attachments") or [] if isinstance(a, dict)] \
            if isinstance(msg.get("attachments"), list) else []
        if files:
            metadata["attachments"] = [f for f in files if f][:50]
            metadata["media"] = True
        author = text_of(msg.get("username")).strip() or "Unknown"
        rec = turns.record(Turn(thread=room, author=author, when=when, text=text_of(msg.get("msg")),
                                metadata=metadata, line=lineno))
        if rec is not None:
            yield rec
