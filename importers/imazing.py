"""Messages as iMazing exports them from an iPhone (iMessage, SMS, WhatsApp) to CSV: a file per conversation, a
header ``Chat Session, Message Date, Delivered Date, Read Date, Edited Date, Service, Type, Sender ID, Sender Name,
Status, Replying to, Subject, Text, Attachment, Attachment type`` and a row per message (line breaks inside its
quotes). Alone or a folder of them.

The layout was written from memory of the app, not from a file at hand (tests/fixtures/unseen28/README.md): columns
are found by their names, in any order. ``Type`` "Outgoing" rows are the owner's (``from_me``; iMazing writes no name
for them: "me"), "Notification" rows are service lines; an incoming row's speaker is its Sender Name, else its Sender
ID. A row with no text but an attachment is media; an attachment beside words goes to ``metadata["attachments"]``,
the message replied to to ``metadata["quote"]``, an edited one is marked ``edited``. Times are the computer's wall
time (no zone said: naive). The chat is the Chat Session, else the file's name. A CSV cut inside a quoted field, a
date that is no date, a file of no message: a one-line error naming the file and the line."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from importers import ImportFormatError, ImportReport, Record
from importers.chatturns import MEDIA, SYSTEM, Turn, Turns

NAME = "imazing"
_MEANINGS: dict[str, tuple[str, ...]] = {
    "chat": ("chatsession", "conversation", "chat"),
    "date": ("messagedate", "date"),
    "type": ("type", "direction"),
    "text": ("text", "message", "body"),
    "sender": ("sendername",),
    "sender_id": ("senderid",),
    "service": ("service",),
    "edited": ("editeddate",),
    "reply": ("replyingto",),
    "attachment": ("attachment", "attachments"),
}
_NEEDED = ("date", "type", "text")
_OWNER = {"outgoing", "sent", "fromme"}
_SERVICE = {"notification", "system", "status", "info"}
_FORMATS = ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%m/%d/%Y %I:%M:%S %p", "%m/%d/%Y %H:%M:%S", "%d/%m/%Y %H:%M:%S")


def _key(name: str) -> str:
    return re.sub(r"[^a-z]", "", name.lower())


def columns(header: list[str]) -> dict[str, int] | None:
    """Each meaning's column in ``header``; None unless the date, type and text are there and a sender column too."""
    found: dict[str, int] = {}
    for i, name in enumerate(header):
        k = _key(name)
        for meaning, names in _MEANINGS.items():
            if meaning not in found and k in names:
                found[meaning] = i
                break
    if not all(m in found for m in _NEEDED) or not ({"sender", "sender_id"} & found.keys()):
        return None
    return found


def is_head(head: str) -> bool:
    """Whether a CSV's first line is iMazing's message header (a chat session and a message date among its names)."""
    first = head.lstrip("\ufeff").split("\n", 1)[0].strip("\r")
    try:
        header = next(csv.reader([first]))
    except (csv.Error, StopIteration):
        return False
    keys = {_key(h) for h in header}
    return {"chatsession", "messagedate"} <= keys and columns(header) is not None


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of one iMazing CSV, or of each in a folder; bad input: a one-line ImportFormatError."""
    turns = Turns(NAME, report)
    if path.is_dir():
        files = [p for p in sorted(path.iterdir()) if p.is_file() and p.suffix.lower() == ".csv" and _is_file(p)]
        if not files:
            raise ImportFormatError("folder holds no iMazing message export (a CSV of Chat Session, Message Date, …)",
                                    str(path))
    else:
        files = [path]
    for p in files:
        with p.open("rb") as raw:
            yield from _csv(raw, str(p), p.stem, turns)
    if not report.messages_seen:
        raise ImportFormatError("no message in this iMazing export (only its header)", str(path))


def _is_file(path: Path) -> bool:
    try:
        with path.open("rb") as fh:
            return is_head(fh.read(4096).decode("utf-8", "replace"))
    except OSError:
        return False


def _csv(raw: IO[bytes], where: str, stem: str, turns: Turns) -> Iterator[Record]:
    fh = io.TextIOWrapper(raw, encoding="utf-8-sig", newline="")  # type: ignore[arg-type]
    reader = csv.reader(fh, strict=True)
    try:
        header = next(reader, None)
        col = columns(header) if header else None
        if header is None or col is None:
            raise ImportFormatError("no header of iMazing's message export (Message Date, Type, Text, Sender Name)",
                                    where, 1)
        width = max(col.values()) + 1
        for row in reader:
            if not any(cell.strip() for cell in row):
                continue
            line = reader.line_num
            if len(row) < width:
                raise ImportFormatError(f"{len(row)} fields, the header names {len(header)}", where, line)
            rec = _row(row, col, where, line, stem, turns)
            if rec is not None:
                yield rec
    except UnicodeDecodeError as exc:
        raise ImportFormatError(f"not UTF-8 text ({exc.reason}); export the messages again", where,
                                reader.line_num + 1) from None
    except csv.Error as exc:
        what = "cut inside a quoted field" if "unexpected end of data" in str(exc) else "invalid CSV"
        raise ImportFormatError(f"{what} ({exc})", where, reader.line_num) from None


def _row(row: list[str], col: dict[str, int], where: str, line: int, stem: str, turns: Turns) -> Record | None:
    def cell(meaning: str) -> str:
        return row[col[meaning]].strip() if meaning in col and col[meaning] < len(row) else ""

    when = _time(cell("date"), where, line)
    kind = _key(cell("type"))
    if kind in _SERVICE:
        turns.skip(SYSTEM)
        return None
    text = row[col["text"]]
    attachment = cell("attachment")
    if not text.strip() and attachment:
        turns.skip(MEDIA)  # a photo, a voice message: no words
        return None
    owner = kind in _OWNER
    author = "me" if owner else cell("sender") or cell("sender_id") or cell("chat") or stem
    meta: dict[str, Any] = {}
    if owner:
        meta["from_me"] = True
    if cell("service"):
        meta["service"] = cell("service")
    if cell("reply"):
        meta["quote"] = cell("reply")
    if cell("edited"):
        meta["edited"] = True
    if attachment:
        meta["attachments"] = [attachment]
    return turns.record(Turn(thread=cell("chat") or stem, author=author, when=when, text=text, metadata=meta,
                             line=line))


def _time(value: str, where: str, line: int) -> datetime:
    for fmt in _FORMATS:
        try:
            return datetime.strptime(value, fmt)
        except ValueError:
            continue
    raise ImportFormatError(f'"{value[:40]}" is no date', where, line)
