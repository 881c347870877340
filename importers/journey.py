"""Journey's export (journey.cloud), read by the markdown importer (:mod:`importers.markdown`).

Journey writes a zip of one JSON file per entry, ``<date_journal>-<hex>.json``, beside the entry's photos:
``{"text": ..., "type": "markdown" | "html", "date_journal": <ms since 1970, UTC>, "date_modified": ...,
"timezone": "Atlantic/Madeira", "address": ..., "lat": ..., "lon": ..., "tags": [...], "photos": [...],
"weather": {...}, "mood": 0, "favourite": false, "id": ...}``. An entry is an episodic memory, as Day One's:
its words (Markdown as written; HTML read as a note page is, :func:`importers.html_notes.to_lines`), its
address as its place, dated by ``date_journal``, titled "Journey" (entries have no title, as Day One's
untitled entries are titled by their journal). Photos, weather and mood are no words of the user's."""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from importers import ImportFormatError, ImportReport, Record, html_notes
from importers._common import head_matches

HEAD_BYTES = 4096
MAX_ENTRY_BYTES = 16 * 1024 * 1024  # one entry (its words; the photos are files of their own)
TITLE = "Journey"
_HEAD_RE = re.compile(rb'^\s*\{')
_KEYS_RE = (re.compile(rb'"date_journal"\s*:\s*-?\d'), re.compile(rb'"text"\s*:\s*"'))
_UNSET = 1e300  # Journey writes Double.MAX_VALUE (1.79e308) for a place or temperature it does not have


def is_export_head(head: bytes) -> bool:
    """True when the first bytes of a file are those of a Journey entry (an object with ``date_journal``
    and ``text``)."""
    head = head.lstrip(b"\xef\xbb\xbf")
    return bool(_HEAD_RE.match(head)) and all(k.search(head) for k in _KEYS_RE)


def is_export(path: Path) -> bool:
    """True for a Journey entry's ``.json`` (by its first bytes)."""
    return path.suffix.lower() == ".json" and head_matches(path, is_export_head, HEAD_BYTES)


def _when(value: Any) -> datetime | None:
    """``date_journal`` (milliseconds since 1970, UTC) as a time; None when absent or no time."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        return datetime.fromtimestamp(value / 1000, tz=timezone.utc)
    except (OverflowError, OSError, ValueError):
        return None


def records(file: Path, rel: str, report: ImportReport) -> list[Record]:
    """The entry of one Journey ``.json`` file as a record (none when it holds no words)."""
    if file.stat().st_size > MAX_ENTRY_BYTES:
        raise ImportFormatError(f"Journey entry over {MAX_ENTRY_BYTES} bytes", str(file))
    try:
        entry = json.loads(file.read_bytes().decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ImportFormatError(f"invalid Journey entry ({' '.join(str(exc).split())[:200]})", str(file)) from None
    if not isinstance(entry, dict) or not isinstance(entry.get("text"), str):
        raise ImportFormatError("invalid Journey entry (field 'text' is no text)", str(file))
    report.messages_seen += 1
    raw = entry["text"]
    lines = html_notes.to_lines(raw, file.stem) if str(entry.get("type") or "").lower() == "html" else \
        raw.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(ln.rstrip() for ln in lines)).strip()
    if not text:
        if entry.get("photos"):
            report.skipped_media += 1
        else:
            report.skipped_empty += 1
        return []
    place = str(entry.get("address") or "").strip()
    body = "\n".join(p for p in (text, f"[place: {place}]" if place else "") if p)
    meta: dict[str, Any] = {"path": rel, "title": TITLE, "app": "journey"}
    if isinstance(entry.get("timezone"), str) and entry["timezone"]:
        meta["time_zone"] = entry["timezone"]
    if entry.get("favourite") is True:
        meta["starred"] = True
    lat, lon = entry.get("lat"), entry.get("lon")
    if isinstance(lat, (int, float)) and isinstance(lon, (int, float)) and abs(lat) < _UNSET and abs(lon) < _UNSET:
        meta["location"] = {"lat": lat, "lon": lon}
    tags = [str(t).strip() for t in entry.get("tags") or [] if str(t).strip()]
    when = _when(entry.get("date_journal"))
    if when is None and entry.get("date_journal") not in (None, ""):  # a damaged date is said, not guessed
        report.warn(f"{rel}: unreadable date {str(entry.get('date_journal'))[:80]!r}; no date")
    ident = str(entry.get("id") or file.stem)
    return [Record(content=f"{TITLE}: {body}", ref=f"markdown:journey:{ident}", source="markdown", memory_type="episodic",
                   event_at=when, thread=rel, position=0, tags=tags,
                   metadata=meta, line=1)]
