"""Microsoft Copilot's activity history, as the Microsoft privacy dashboard exports it (account.microsoft.com >
Privacy > Copilot > Export): a CSV, ``Conversation,Time,Author,Message``, a row per message (a message's line breaks
inside its quotes), alone, in a folder or in the export's zip (``Copilot/…csv``). The column names are found by
their meaning (conversation or title, time or timestamp, author or role, message or text), in any order: the
dashboard's exact names were not at hand when this was written. The person's messages ("User", "Human", "You") are
the owner's (``from_me``, "User"), the assistant's ("Copilot", "AI", "Bot", "Assistant") are "Copilot"'s; another
author keeps its name. Times as written: ISO 8601 with its offset (a time with none stays the wall time it says).
A CSV cut inside a quoted field, a time that is no time, a file of no message: a one-line error naming the file."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from importers import ImportFormatError, ImportReport, Record
from importers._tree import Tree
from importers.chatturns import Turn, Turns, iso_date

NAME = "copilot"
_MEANINGS: dict[str, tuple[str, ...]] = {
    "conversation": ("conversation", "conversationtitle", "conversationname", "title", "thread", "chat", "topic"),
    "time": ("time", "timestamp", "date", "datetime", "created", "createdat", "createdtime", "createddate"),
    "author": ("author", "role", "sender", "from", "speaker"),
    "message": ("message", "text", "content", "body", "messagetext"),
}
_USER = {"user", "human", "you", "me", "prompt"}
_ASSISTANT = {"copilot", "ai", "bot", "assistant", "bing", "model", "microsoftcopilot", "response"}
_WALL_FORMATS = ("%m/%d/%Y %I:%M:%S %p", "%m/%d/%Y %H:%M:%S", "%Y-%m-%d %H:%M:%S", "%d/%m/%Y %H:%M:%S")


def _key(name: str) -> str:
    return re.sub(r"[^a-z]", "", name.lower())


def columns(header: list[str]) -> dict[str, int] | None:
    """Each meaning's column in ``header`` (the first name that says it), or None when one is missing."""
    found: dict[str, int] = {}
    for i, name in enumerate(header):
        k = _key(name)
        for meaning, names in _MEANINGS.items():
            if meaning not in found and k in names:
                found[meaning] = i
                break
    return found if len(found) == len(_MEANINGS) else None


def is_head(name: str, head: str) -> bool:
    """Whether a CSV is Copilot's activity history: its header holds the four meanings and either the file is named
    for Copilot or the header is exactly "Conversation,Time,Author,Message" (in some order)."""
    first = head.lstrip("\ufeff").split("\n", 1)[0].strip("\r")
    try:
        header = next(csv.reader([first]))
    except (csv.Error, StopIteration):
        return False
    if columns(header) is None:
        return False
    return "copilot" in name.lower() or sorted(_key(h) for h in header) == ["author", "conversation", "message", "time"]


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of the CSV, or of the Copilot CSVs of a folder or zip; bad input: a one-line ImportFormatError."""
    turns = Turns(NAME, report)
    if path.is_file() and path.suffix.lower() == ".csv":
        with path.open("rb") as raw:
            yield from _csv(raw, str(path), turns)
    else:
        tree = Tree(path)
        names = []
        for name in (n for n in tree.names if n.lower().endswith(".csv")):
            with tree.open(name) as fh:
                if is_head(name.rsplit("/", 1)[-1], fh.read(4096).decode("utf-8", "replace")):
                    names.append(name)
        if not names:
            raise ImportFormatError("no Copilot activity history (a CSV of Conversation, Time, Author, Message)",
                                    str(path))
        for name in names:
            with tree.open(name) as raw:
                yield from _csv(raw, tree.where(name), turns)
    if not report.messages_seen:
        raise ImportFormatError("no message in this Copilot activity history (only its header)", str(path))


def _csv(raw: IO[bytes], where: str, turns: Turns) -> Iterator[Record]:
    fh = io.TextIOWrapper(raw, encoding="utf-8-sig", newline="")  # type: ignore[arg-type]
    reader = csv.reader(fh, strict=True)
    try:
        header = next(reader, None)
        col = columns(header) if header else None
        if header is None or col is None:
            raise ImportFormatError("no header of Copilot's activity history (Conversation, Time, Author, Message)",
                                    where, 1)
        names = {m: header[i].strip() for m, i in col.items()}
        width = max(col.values()) + 1
        for row in reader:
            if not any(cell.strip() for cell in row):
                continue
            line = reader.line_num
            if len(row) < width:
                raise ImportFormatError(f"{len(row)} fields, the header names {len(header)}", where, line)
            when = _time(row[col["time"]], f'"{names["time"]}"', where, line)
            said = row[col["author"]].strip()
            who = _key(said)
            author = "User" if who in _USER else "Copilot" if who in _ASSISTANT else said or "Unknown"
            metadata: dict[str, Any] = {"from_me": True} if author == "User" else {}
            thread = row[col["conversation"]].strip() or "Copilot"
            rec = turns.record(Turn(thread=thread, author=author, when=when, text=row[col["message"]],
                                    metadata=metadata, line=line))
            if rec is not None:
                yield rec
    except UnicodeDecodeError as exc:
        raise ImportFormatError(f"not UTF-8 text ({exc.reason}); export the history again", where,
                                reader.line_num + 1) from None
    except csv.Error as exc:
        what = "cut inside a quoted field" if "unexpected end of data" in str(exc) else "invalid CSV"
        raise ImportFormatError(f"{what} ({exc})", where, reader.line_num) from None


def _time(value: str, what: str, where: str, line: int) -> datetime:
    """The row's time: ISO 8601 (its offset kept), else a wall time as Windows writes one (naive: it says no zone)."""
    try:
        return iso_date(value, what, where)
    except ImportFormatError:
        for fmt in _WALL_FORMATS:
            try:
                return datetime.strptime(value.strip(), fmt)
            except ValueError:
                continue
        raise ImportFormatError(f"{what} is no date ({value.strip()[:40]!r})", where, line) from None
