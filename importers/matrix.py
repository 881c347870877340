"""Matrix rooms as Element's "Export chat" writes them in JSON ("matrix - <room> - Chat Export - <time>.json"): the
room's name, creator, topic, export date and exporter, then ``messages``, the room's events as the server sent them
(type, sender, content, origin_server_ts in ms, event_id, room_id, unsigned). Streamed one event at a time.

An ``m.room.message`` of text (m.text, m.notice from bots, m.emote) is a turn; of a file (m.image, m.file, m.video,
m.audio; m.sticker events) media. A reply's quoted fallback ("> <@ana:matrix.org> …" lines and the blank line after)
goes to metadata; an edit (``m.relates_to`` of rel_type m.replace) is a turn of its new words, marked edited. Member
events name the senders (their display name at that time; a sender never named keeps their Matrix id); they,
reactions, redacted messages, topics and the room's state are service lines, and so are encrypted events the export
could not decrypt (said once in a warning). Times are instants (UTC). Element's HTML and plain-text exports are
read by :mod:`importers.matrix_text` and :mod:`importers.matrix_html`."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from importers import ImportFormatError, ImportReport, Record
from importers._common import head_matches
from importers.chatturns import MEDIA, SYSTEM, Turn, Turns, epoch, json_errors_where, stream_json, text_of

NAME = "matrix"
KEYS_RE = (re.compile(r'"room_name"\s*:'), re.compile(r'"exported_by"\s*:|"export_date"\s*:|"room_creator"\s*:'))
_FILE_RE = re.compile(r"^matrix - (.+) - Chat Export - [\dT:.-]+Z?$")
_TEXT = {"m.text", "m.notice", "m.emote"}
_FALLBACK_RE = re.compile(r"^> <[^>\n]+> ?")
_LOCALPART_RE = re.compile(r"^@([^:\s]+):\S+$")  # "@kofi:matrix.org": "kofi"


def is_export_head(head: str) -> bool:
    """Whether a JSON file's first bytes are an Element room export."""
    return all(k.search(head) for k in KEYS_RE)


def _is_html_export(path: Path) -> bool:
    """Whether ``path`` is Element's HTML export: a page of it, the folder holding its pages, or its zip."""
    from importers import apps35

    if path.is_dir():
        return bool(apps35.element_pages(path))
    if path.suffix.lower() in (".html", ".htm"):
        return head_matches(path, lambda h: apps35.is_element_page(h.decode("utf-8", "replace")), 1 << 17)
    return path.suffix.lower() == ".zip"


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of one Element JSON export (or its plain text: :mod:`importers.matrix_text`), or of each in a folder;
    bad input: a one-line ImportFormatError."""
    from importers import matrix_html, matrix_text

    if _is_html_export(path):  # Element's HTML export (a page, its folder, its zip): importers.matrix_html
        yield from matrix_html.parse(path, report)
        return
    if path.is_file() and matrix_text.is_export_name(path):
        yield from matrix_text.parse(path, report)
        return
    if path.is_dir():
        files = [p for p in sorted(path.glob("*.txt")) if matrix_text.is_export_name(p)]
        for p in sorted(path.glob("*.json")):
            with p.open("rb") as fh:
                if is_export_head(fh.read(65536).decode("utf-8", "replace")):
                    files.append(p)
        if not files:
            raise ImportFormatError("folder holds no Element (Matrix) export (\"matrix - <room> - Chat Export - ….json\")",
                                    str(path))
        for p in files:
            yield from parse(p, report)
        return
    where = str(path)
    m = _FILE_RE.match(path.stem)
    thread = m.group(1) if m else path.stem
    turns = Turns(NAME, report)
    names: dict[str, str] = {}
    encrypted = 0
    n = 0
    with path.open("rb") as raw, json_errors_where(where):
        for event, prefix, value in stream_json(raw, where, lambda p: p == "messages"):
            if event == "notlist":
                raise ImportFormatError('"messages" is not a list', where)
            if event == "value" and prefix == "room_name" and isinstance(value, str) and value.strip():
                thread = value.strip()
            if event != "item":
                continue
            n += 1
            if not isinstance(value, dict):
                raise ImportFormatError(f"event {n} is not an object", where)
            rec, locked = _event(value, n, thread, names, turns, where)
            encrypted += locked
            if rec is not None:
                yield rec
    if encrypted:
        report.warn(f"{encrypted} encrypted event{'s' if encrypted > 1 else ''} the export could not read; left out")
    if not report.messages_seen:
        raise ImportFormatError("no Matrix event in this export", where)


def _event(ev: dict[str, Any], n: int, thread: str, names: dict[str, str], turns: Turns, where: str
           ) -> tuple[Record | None, int]:
    when: datetime = epoch(ev.get("origin_server_ts"), 1000, f'event {n}: "origin_server_ts"', where)
    kind = text_of(ev.get("type"))
    sender = text_of(ev.get("sender"))
    content: dict[str, Any] = ev["content"] if isinstance(ev.get("content"), dict) else {}
    if kind == "m.room.member":
        key = text_of(ev.get("state_key")) or sender
        name = content.get("displayname")
        if isinstance(name, str) and name.strip() and content.get("membership") in ("join", "invite"):
            names[key] = name.strip()
        turns.skip(SYSTEM)
        return None, 0
    if kind == "m.room.encrypted":
        turns.skip(SYSTEM)
        return None, 1
    if kind == "m.sticker":
        turns.skip(MEDIA)
        return None, 0
    unsigned: dict[str, Any] = ev["unsigned"] if isinstance(ev.get("unsigned"), dict) else {}
    if kind != "m.room.message" or not content or "redacted_because" in unsigned:
        turns.skip(SYSTEM)  # the room's state, reactions, redactions, calls
        return None, 0
    meta: dict[str, Any] = {}
    relates: dict[str, Any] = content["m.relates_to"] if isinstance(content.get("m.relates_to"), dict) else {}
    new = content.get("m.new_content")
    if relates.get("rel_type") == "m.replace" and isinstance(new, dict):
        meta["edited"] = True
        meta["replaces"] = text_of(relates.get("event_id"))
        content = new
    msgtype = text_of(content.get("msgtype"))
    body = text_of(content.get("body"))
    if msgtype not in _TEXT:
        turns.skip(MEDIA if msgtype else SYSTEM)  # a file; an event of no msgtype
        return None, 0
    if isinstance(relates.get("m.in_reply_to"), dict) and body.startswith("> "):
        lines = body.split("\n")
        quote = []
        while lines and lines[0].startswith(">"):
            quote.append(_FALLBACK_RE.sub("", lines.pop(0)).removeprefix("> ").removeprefix(">"))
        while lines and not lines[0].strip():
            lines.pop(0)
        meta["quote"] = "\n".join(quote).strip()
        body = "\n".join(lines)
    if msgtype == "m.emote":
        meta["emote"] = True
    elif msgtype == "m.notice":
        meta["notice"] = True  # a bot's message
    room, eid = text_of(ev.get("room_id")), text_of(ev.get("event_id"))
    ref = f"{NAME}:{room}:{eid}" if room and eid else None
    author = names.get(sender)
    if not author:  # no member event named them (an export "from a date"): the id's user part, the id in metadata
        author = _LOCALPART_RE.sub(r"\1", sender)
        if author != sender:
            meta["sender_id"] = sender
    return turns.record(Turn(thread=thread, author=author, when=when, text=body, ref=ref, metadata=meta)), 0
