"""Element's (Matrix) "Export chat" as plain text ("matrix - <room> - Chat Export - <time>.txt"): a line per event,
"<date as the browser's locale writes it> - <Name>: <words>" — the lines of a WhatsApp chat, read by
:mod:`importers.whatsapp` (its locales, 12- and 24-hour clocks, day or month first) and made the room's turns here:
the room is the file name's (a later export of the same room gives the same memories), a reply's quoted start
("<Ana Sousa "Olá a todos…"> words") goes to metadata (reply_to, quote). Lines of no sender — the room created, a
member joined, a rename, "* Rui waves", "Rui sent an image. (Media omitted)" — are left out as system lines (the text
says no more of them). A date that is no date refuses the file (WhatsApp's reader skips it with a warning)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from importers import ImportFormatError, ImportReport, Record
from importers.chatturns import Turn, Turns

NAME = "matrix"
FILE_RE = re.compile(r"^matrix - (.+) - Chat Export - [\dT:.-]+Z?$")
_REPLY_RE = re.compile(r'^<([^<>"\n]{1,200}?)(?: "([^"\n]*)")?> ')
_BAD_DATE = "invalid date/time"
_DATE_RE = re.compile(r"^(\d{1,2})/(\d{1,2})/\d{4}, \d{1,2}:\d{2}:\d{2}\s?(AM|PM|am|pm)? - ")


def _date_order(path: Path, lines: int = 2000) -> str | None:
    """"mdy" for dates only the US writes: slashes, no number over 12 to say otherwise, and an upper-case AM/PM
    (en-US's toLocaleString; en-AU and en-IN write "pm", day first); else None (WhatsApp's reader decides)."""
    firsts = seconds = upper = 0
    with path.open("rb") as fh:
        for n, raw in enumerate(fh):
            if n >= lines:
                break
            m = _DATE_RE.match(raw.decode("utf-8", "replace").lstrip("\ufeff"))
            if m:
                firsts += int(m.group(1)) > 12
                seconds += int(m.group(2)) > 12
                upper += m.group(3) in ("AM", "PM")
    return "mdy" if upper and not firsts and not seconds else None


def is_export_name(path: Path) -> bool:
    """Whether ``path`` is named as Element names a room's text export."""
    return path.suffix.lower() == ".txt" and bool(FILE_RE.match(path.stem))


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """The room's turns; bad input (a line of no date, a date that is no date): a one-line ImportFormatError."""
    from importers import whatsapp

    m = FILE_RE.match(path.stem)
    room = m.group(1) if m else path.stem
    turns = Turns(NAME, report)
    part = ImportReport(report.file, "whatsapp")
    made = 0
    order = _date_order(path)
    for rec in whatsapp.parse(path, part, thread=room, **({"date_order": order} if order else {})):
        made += 1
        author = rec.author or "Unknown"
        text = rec.content[len(author) + 2:] if rec.content.startswith(f"{author}: ") else rec.content
        meta: dict[str, Any] = {k: v for k, v in rec.metadata.items() if k not in ("chat",)}
        reply = _REPLY_RE.match(text)
        if reply:
            meta["reply_to"] = reply.group(1)
            if reply.group(2):
                meta["quote"] = reply.group(2)
            text = text[reply.end():]
        out = turns.record(Turn(thread=room, author=author, when=rec.event_at, text=text, metadata=meta, line=rec.line))
        if out is not None:
            yield out
    bad = next((w for w in part.warnings if _BAD_DATE in w), None)
    if bad is not None:
        raise ImportFormatError(bad.rsplit("; ", 1)[0])  # (the warning names the file and the line)
    part.messages_seen -= made  # (counted again by this reader's turns)
    part.variant = {}
    report.absorb(part)
