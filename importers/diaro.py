"""Diaro's backup (``DiaroBackup.xml``, alone or in the ``Diaro_<date>.zip`` the app writes beside its
``media/``): one XML document of tables — ``diaro_folders``, ``diaro_tags``, ``diaro_locations``,
``diaro_entries``, ``diaro_attachments`` — a row ``<r>`` of one element per column. An entry has its ``uid``, its
``date`` (ms since 1970, UTC) and the ``tz_offset`` it was written in ("+01:00"), a ``title``, its ``text``, a
``folder_uid``, ``tags`` as ",uid,uid," and a ``location_uid``.

An entry is one episodic memory, "Title: text" (the text alone when it has no title), at its own moment on the
clock of its own offset (an entry written at 04:00 in Boston is of that day there), tagged by its tags' titles, the
place it was written ending it (``[place: Allotment, Rua das Flores 12, Lisboa]``), its folder and photos in the
metadata. Streamed with ElementTree's iterparse (each row dropped once read); the entries wait for the
end of the document only so that folders, tags and places listed after them are named too. A document that is no
well-formed XML fails in one line naming it and its line. Parsers here are pure: no SQL."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import IO, Any, cast

from importers import ImportFormatError, ImportReport, Record
from importers._common import DEFAULT_MAX_MEMBER_BYTES, ZIP_ERRORS, is_junk_member, open_zip
from importers._zips import _Limited

NAME = "diaro"
BACKUP = "DiaroBackup.xml"
_OFFSET_RE = re.compile(r"^(?:GMT|UTC)?\s*([+-])(\d{1,2}):?(\d{2})$")
MAX_ENTRIES = 1_000_000


def _offset(value: str) -> timezone | None:
    m = _OFFSET_RE.match(value.strip())
    if m is None:
        return None
    minutes = int(m.group(2)) * 60 + int(m.group(3))
    return timezone((-1 if m.group(1) == "-" else 1) * timedelta(minutes=minutes)) if minutes < 24 * 60 else None


def _when(ms: str, offset: str) -> datetime | None:
    """An entry's moment (``date`` in ms, UTC) on its own ``tz_offset``'s clock; UTC when the offset is unreadable."""
    try:
        when = datetime.fromtimestamp(int(ms.strip()) / 1000, tz=timezone.utc)
    except (ValueError, OverflowError, OSError):
        return None
    zone = _offset(offset)
    return when.astimezone(zone) if zone is not None else when


def _rows(stream: IO[bytes], where: str) -> Iterator[tuple[str, dict[str, str], int]]:
    """(table name, the row's columns, its line) of every ``<r>`` of the document, streamed."""
    parser: ET.XMLPullParser[Any] = ET.XMLPullParser(events=("start", "end"))
    table = ""
    line = 1
    try:
        while chunk := stream.read(1 << 16):
            parser.feed(chunk)
            for event, elem in cast(Iterator[tuple[str, Any]], parser.read_events()):
                if not isinstance(elem, ET.Element):
                    continue
                if event == "start" and elem.tag == "table":
                    table = elem.get("name", "")
                elif event == "end" and elem.tag == "r":
                    yield table, {str(c.tag): (c.text or "") for c in elem}, line
                    elem.clear()
            line += chunk.count(b"\n")
        parser.close()
    except ET.ParseError as exc:
        raise ImportFormatError(f"not a well-formed Diaro backup ({' '.join(str(exc).split())[:120]})", where,
                                exc.position[0] if exc.position else None) from None


def _open(path: Path) -> tuple[IO[bytes], str]:
    """The backup's XML as a stream, and its name in errors: the file, or the zip's DiaroBackup.xml member."""
    if path.is_dir():
        path = path / BACKUP
        if not path.is_file():
            raise ImportFormatError(f"folder holds no {BACKUP}", str(path.parent))
    with path.open("rb") as fh:
        zipped = fh.read(4) == b"PK\x03\x04"
    if not zipped:
        return path.open("rb"), str(path)
    zf = open_zip(path, str(path))
    member = next((i for i in zf.infolist() if not is_junk_member(i.filename)
                   and i.filename.rsplit("/", 1)[-1].lower() == BACKUP.lower()), None)
    if member is None:
        zf.close()
        raise ImportFormatError(f"zip holds no {BACKUP}", str(path))
    where = f"{path}!{member.filename}"
    try:
        raw = zf.open(member)
    except ZIP_ERRORS as exc:
        zf.close()
        raise ImportFormatError(f"cannot read zip member ({exc})", where) from None
    return io.BufferedReader(_Limited(raw, DEFAULT_MAX_MEMBER_BYTES, where), 1 << 16), where


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """The entries of a Diaro backup (see the module's words); bad input raises a one-line ImportFormatError."""
    stream, where = _open(path)
    folders: dict[str, str] = {}
    tags: dict[str, str] = {}
    places: dict[str, str] = {}
    photos: dict[str, int] = {}
    entries: list[tuple[dict[str, str], int]] = []
    with stream:
        for table, row, line in _rows(stream, where):
            uid = row.get("uid", "").strip()
            if table == "diaro_folders":
                folders[uid] = row.get("title", "").strip()
            elif table == "diaro_tags":
                tags[uid] = row.get("title", "").strip()
            elif table == "diaro_locations":
                places[uid] = ", ".join(dict.fromkeys(v for v in (row.get("title", "").strip(),
                                                                  row.get("address", "").strip()) if v))
            elif table == "diaro_attachments":
                entry = row.get("entry_uid", "").strip()
                photos[entry] = photos.get(entry, 0) + 1
            elif table == "diaro_entries":
                if len(entries) >= MAX_ENTRIES:
                    raise ImportFormatError(f"more than {MAX_ENTRIES} entries", where)
                entries.append((row, line))
    if not entries and not folders and not tags:
        raise ImportFormatError("no Diaro entries (no diaro_entries table)", where)
    for row, line in entries:
        report.messages_seen += 1
        uid = row.get("uid", "").strip() or f"line{line}"
        title, text = row.get("title", "").strip(), row.get("text", "").strip()
        if not title and not text:
            if photos.get(uid):
                report.skipped_media += 1
            else:
                report.skipped_empty += 1
            continue
        when = _when(row.get("date", ""), row.get("tz_offset", ""))
        if when is None:
            report.warn(f"{where}: entry {uid!r} has an unreadable date {row.get('date', '')[:40]!r}; kept undated", line)
        place = places.get(row.get("location_uid", "").strip(), "")
        body = "\n".join(p for p in (text, f"[place: {place}]" if place else "") if p)
        names = [tags[t] for t in row.get("tags", "").split(",") if t.strip() and tags.get(t.strip())]
        metadata: dict[str, Any] = {"app": "diaro", "title": title}
        if folders.get(row.get("folder_uid", "").strip()):
            metadata["folder"] = folders[row["folder_uid"].strip()]
        if photos.get(uid):
            metadata["photos"] = photos[uid]
        if row.get("mood", "").strip():
            metadata["mood"] = row["mood"].strip()
        yield Record(content=f"{title}: {body}" if title and body else title or body, ref=f"{NAME}:{uid}", source=NAME,
                     memory_type="episodic", event_at=when, thread=metadata.get("folder") or "Diaro", tags=names,
                     metadata=metadata, line=line)
