"""Daylio's "Export entries" (CSV), the mood journal's only readable export: a row an entry, newest first,
``full_date,date,weekday,time,mood,activities,note_title,note`` (older exports have no ``note_title``), the time
as the phone's clock wrote it ("21:30", "9:05 pm"), no zone (naive: the phone's local time), the activities
joined by " | ", a note of several lines quoted.

An entry is one episodic memory, dated by its own day and time: its title and note, then its mood and activities
("Mood: rad. Activities: friends, cooking") — an entry of a mood and no words is still an entry, its mood its
words. Activities are its tags. The ref is the entry's day and minute (a later export holds the same entries:
nothing is added twice; two entries of one minute are numbered in the file's order). A row whose date cannot be
read is kept undated and said; a row of too few columns is said and skipped. Parsers here are pure: no SQL."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from importers import ImportFormatError, ImportReport, Record
from importers._common import decode_text, head_matches
from importers.apps35 import DAYLIO_HEAD_RE

NAME = "daylio"
MAX_EXPORT_BYTES = 64 * 1024 * 1024  # years of daily entries are a few MB
_TIME_RE = re.compile(r"^(\d{1,2}):(\d{2})(?::\d{2})?\s*([AaPp])?\.?\s*[Mm]?\.?$")
_BREAK_RE = re.compile(r"<br\s*/?>", re.IGNORECASE)
_NEEDED = ("full_date", "time", "mood")


def _when(day: str, clock: str) -> datetime | None:
    """The entry's local time from its ``full_date`` ("2024-03-14") and ``time`` ("21:30", "9:05 pm")."""
    m = _TIME_RE.match(clock.strip())
    try:
        when = datetime.strptime(day.strip(), "%Y-%m-%d")
    except ValueError:
        return None
    if m is None:
        return None
    hour, minute = int(m.group(1)), int(m.group(2))
    if m.group(3):  # a 12-hour clock
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if m.group(3) in "Pp" else 0)
    if hour > 23 or minute > 59:
        return None
    return when.replace(hour=hour, minute=minute)


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """The entries of a Daylio CSV export, or of a folder of them (an entry two exports hold is read once: the
    newer export's); bad input raises a one-line ImportFormatError."""
    if not path.is_dir():
        yield from _entries(path, report)
        return
    files = sorted((p for p in path.iterdir() if p.suffix.lower() == ".csv" and p.is_file() and not p.name.startswith(".")
                    and head_matches(p, lambda h: bool(DAYLIO_HEAD_RE.match(_head(h))), 4096)), reverse=True)
    if not files:
        raise ImportFormatError("folder holds no Daylio CSV export", str(path))
    done: set[str] = set()
    for file in files:  # daylio_export_2024_03_14.csv before daylio_export_2023_12_31.csv: the newer first
        for rec in _entries(file, report):
            if rec.ref not in done:
                done.add(rec.ref)
                yield rec


def _head(raw: bytes) -> str:
    return raw.decode("utf-16" if raw.startswith((b"\xff\xfe", b"\xfe\xff")) else "utf-8", "replace")


def _entries(path: Path, report: ImportReport) -> Iterator[Record]:
    file = str(path)
    if path.stat().st_size > MAX_EXPORT_BYTES:
        raise ImportFormatError(f"Daylio export over {MAX_EXPORT_BYTES} bytes", file)
    text = decode_text(path.read_bytes(), file)
    rows = csv.reader(io.StringIO(text, newline=""))
    header = [h.strip().lower() for h in next(rows, [])]
    if not all(h in header for h in _NEEDED):
        raise ImportFormatError("not Daylio's CSV export (no full_date, time and mood columns)", file, 1)
    col = {h: i for i, h in enumerate(header)}
    seen: dict[str, int] = {}
    line = 1
    for row in rows:
        line_at = line + 1
        line += 1 + sum(cell.count("\n") for cell in row)
        if not any(cell.strip() for cell in row):
            continue
        report.messages_seen += 1
        if len(row) < len(header):
            report.skipped_malformed += 1
            report.warn(f"{file}: an entry of {len(row)} columns, not {len(header)} (the file cut?); skipped", line_at)
            continue

        def cell(name: str, row: list[str] = row) -> str:
            return row[col[name]].strip() if name in col else ""
        when = _when(cell("full_date"), cell("time"))
        if when is None:
            report.warn(f"{file}: unreadable date {cell('full_date')!r} {cell('time')!r}; kept undated", line_at)
        mood = cell("mood")
        activities = [a.strip() for a in cell("activities").split("|") if a.strip()]
        note = _BREAK_RE.sub("\n", cell("note")).strip()
        title = cell("note_title")
        feeling = f"Mood: {mood}." if mood else ""
        if activities:
            feeling += (" " if feeling else "") + f"Activities: {', '.join(activities)}."
        words = f"{title}: {note}" if title and note else title or note  # "Title: text", as every note app's
        body = "\n".join(p for p in (words, feeling) if p)
        if not body:
            report.skipped_empty += 1
            continue
        key = f"{cell('full_date')}T{when.strftime('%H:%M') if when else cell('time')}"
        n = seen.get(key, 0)
        seen[key] = n + 1
        metadata: dict[str, Any] = {"app": "daylio", "mood": mood}
        if activities:
            metadata["activities"] = activities
        yield Record(content=body, ref=f"{NAME}:{key}" + (f":{n}" if n else ""), source=NAME, memory_type="episodic",
                     event_at=when, thread="Daylio", tags=activities, metadata=metadata, line=line_at)
