"""Day One journals, as its JSON export writes them (read by the markdown importer,
:mod:`importers.markdown`): ``Journal.json`` (named after the journal) beside ``photos/``, in a zip or
a folder, ``{"metadata": {"version": "1.0"}, "entries": [...]}``; an entry has a ``uuid``, a
``creationDate`` (UTC), its ``text`` in Markdown with Day One's escapes (``\\.``, ``\\!``) and its
pictures as ``![](dayone-moment://<id>)``, ``tags``, ``starred``, a ``location``.

An entry is one episodic memory (a journal says what happened): "Title: text" when its first line is
a heading, else "Journal: text", dated by its creation (on its own ``timeZone``'s clock), tagged by its tags; the
place it was written ends it (``[place: Casa da Ana, Lisbon]``). Pictures are media, not text: an entry of pictures only
is counted in ``skipped_media``.

Its older plain-text export (``Journal.txt``: tab-indented Date/Location/Weather/Tags fields heading each
entry) is read the same way, an entry a memory (:func:`text_records`)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from importers import ImportFormatError, ImportReport, Record, written_dates
from importers._common import head_matches, iso_time, sha1_hex, split_lines

HEAD_BYTES = 64 * 1024
MAX_EXPORT_BYTES = 256 * 1024 * 1024
_HEAD_RE = re.compile(rb'^\s*\{\s*"metadata"\s*:\s*\{[^{}]*"version"[^{}]*\}\s*,\s*"entries"\s*:')
# Day One escapes Markdown's punctuation ("4821\\.", "10\\:00"): any ASCII punctuation, as CommonMark reads it
_ESCAPE_RE = re.compile(r"\\([!\"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~])")
_MOMENT_RE = re.compile(r"!\[[^\]\n]*\]\(dayone-moment:/*[^)\s]*\)")


def is_export_head(head: bytes) -> bool:
    """True when the first bytes of a file are those of a Day One journal export."""
    return bool(_HEAD_RE.match(head.lstrip(b"\xef\xbb\xbf")))


# the plain-text export's first line: a tab-indented field (named in any language) whose value holds a year
_TEXT_HEAD_RE = re.compile(rb"^(?:\xef\xbb\xbf)?[\r\n]*\t[^\t:\r\n]{1,60}:\t[^\r\n]{0,200}?\d{4}")


def is_text_head(head: bytes) -> bool:
    """True when the first bytes of a ``.txt`` are those of Day One's plain-text export (:func:`text_records`)."""
    return bool(_TEXT_HEAD_RE.match(head))


def is_export(path: Path) -> bool:
    """True for a Day One journal (``Journal.json``), by its first bytes."""
    return head_matches(path, is_export_head, HEAD_BYTES)



def _place(entry: dict[str, Any]) -> str:
    loc = entry.get("location")
    if not isinstance(loc, dict):
        return ""
    parts = [str(loc.get(k) or "").strip() for k in ("placeName", "localityName")]
    return ", ".join(dict.fromkeys(p for p in parts if p))


def _local(when: datetime | None, zone: Any) -> datetime | None:
    """``when`` (UTC, as Day One writes it) on the clock of the entry's own ``timeZone`` ("America/New_York"): the
    same moment, with the offset the writer lived in — an entry written at 21:05 in Boston is of the 11th, not the
    12th it is in UTC. A zone this machine does not know leaves the time in UTC."""
    if when is None or when.tzinfo is None or not isinstance(zone, str) or not 0 < len(zone) <= 64:
        return when
    try:
        return when.astimezone(ZoneInfo(zone.strip()))
    except (ZoneInfoNotFoundError, ValueError, OSError):  # "GMT+0100", a name no tz database holds, a bad path
        return when


def _entry(entry: dict[str, Any], journal: str, rel: str, position: int) -> Record | None:
    """One entry's record, or None when it holds no words (pictures only, or nothing)."""
    text = _ESCAPE_RE.sub(r"\1", _MOMENT_RE.sub("", str(entry.get("text") or ""))).strip()
    text = re.sub(r"\n{3,}", "\n\n", re.sub(r"[ \t]+(?=\n|$)", "", text))  # no spaces left where a moment was
    if not text:
        return None
    lines = text.split("\n")
    title = journal
    if lines[0].startswith("# "):
        title, text = lines[0][2:].strip(), "\n".join(lines[1:]).strip()
    place = _place(entry)
    body = "\n".join(p for p in (text, f"[place: {place}]" if place else "") if p)
    uuid = str(entry.get("uuid") or f"{rel}:{position}")
    metadata: dict[str, Any] = {"path": rel, "title": title, "app": "dayone", "journal": journal}
    if entry.get("starred") is True:
        metadata["starred"] = True
    if isinstance(entry.get("timeZone"), str):
        metadata["time_zone"] = entry["timeZone"]
    tags = [str(t).strip() for t in entry.get("tags") or [] if str(t).strip()]
    return Record(content=f"{title}: {body}" if body else title, ref=f"markdown:dayone:{uuid}", source="markdown", memory_type="episodic",
                  event_at=_local(iso_time(entry.get("creationDate")), entry.get("timeZone")), thread=rel, position=position, tags=tags,
                  metadata=metadata, line=1)


def records(file: Path, rel: str, report: ImportReport) -> list[Record]:
    """The entries of one journal export, each an episodic memory (see the module docstring)."""
    if file.stat().st_size > MAX_EXPORT_BYTES:
        raise ImportFormatError(f"Day One export over {MAX_EXPORT_BYTES} bytes", str(file))
    try:
        data = json.loads(file.read_bytes().decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ImportFormatError(f"invalid Day One export ({' '.join(str(exc).split())[:200]})", str(file)) from None
    entries = data.get("entries") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise ImportFormatError("invalid Day One export (no 'entries' list)", str(file))
    out: list[Record] = []
    for entry in entries:
        if not isinstance(entry, dict):
            report.skipped_malformed += 1
            continue
        report.messages_seen += 1
        rec = _entry(entry, file.stem, rel, len(out))
        if rec is None:
            if entry.get("photos") or entry.get("videos") or "dayone-moment:" in str(entry.get("text") or ""):
                report.skipped_media += 1
            else:
                report.skipped_empty += 1
            continue
        stamp = entry.get("creationDate")
        if rec.event_at is None and stamp not in (None, ""):  # a damaged date is said, not dropped in silence
            report.warn(f"{rel}: unreadable date {str(stamp)[:80]!r}; no date")
        out.append(rec)
    return out


# Day One's plain-text export (``Journal.txt``, older apps): each entry under a block of tab-indented fields,
# "\tDate:\t14 March 2024 at 21:10:00 WET", then "\tLocation:\t…", "\tWeather:\t…", "\tTags:\t…", a blank line,
# and the entry's words up to the next date field. The app names the fields in its own language ("\tDatum:\t",
# "\tFecha:\t", "\tДата:\t", "\t日付:\t"): the block's first field is always the date, whatever its name; the
# place and the tags are told by their names (below), or, for names no table holds, by the order Day One writes
# the fields in (:func:`_learn_names`); any other field (the weather) is no fact of the user's.
_FIELD_RE = re.compile(r"^\t(?P<key>[^\W\d_][^\t:]{0,29}):\t(?P<value>.*)$")
_ZONE_RE = re.compile(r"\s+(?:[A-Z]{2,5}|GMT[+-]\d{1,2}(?::?\d{2})?|UTC[+-]\d{1,2}(?::?\d{2})?)$")
# The names Day One's languages give the Location and Tags fields (case-folded; the words the apps of those
# languages use for "place" and "tags" where Day One's own were not at hand).
_PLACE_NAMES = frozenset("""location ort standort ubicación localización lugar localização local lieu emplacement
    luogo posizione locatie plaats sted plats placering sijainti paikka helyszín hely lokalizacja miejsce
    umístění poloha miesto locație lokacija lokacioni konum yer местоположение местонахождение место розташування
    місцезнаходження місце местоположба τοποθεσία מיקום موقع الموقع مکان स्थान ตำแหน่ง lokasi 場所 位置 地点
    위치 장소""".split()) | {"vị trí"}
_TAG_NAMES = frozenset("""tags tag schlagwörter stichwörter etiquetas étiquettes etichette labels label tagi
    etiketler tunnisteet címkék štítky etichete oznake oznaky taggar tagger emneord merker теги метки мітки
    теґи ознаки ετικέτες תגיות وسوم العلامات برچسب‌ها टैग แท็ก thẻ tanda タグ 标签 標籤 태그""".split())


def _field(fields: dict[str, str], names: frozenset[str], learnt: frozenset[str] = frozenset()) -> str:
    return next((v for k, v in fields.items() if k.casefold() in names or k in learnt), "")


# the weather field's value holds a temperature ("9°C Cloudy", "Bewölkt, -2 °C"); a coordinate's degrees
# ("38.7223° N") are no temperature
_TEMPERATURE_RE = re.compile(r"(?<![\d.,])[-−]?\d{1,3}(?:[.,]\d)?\s*°(?!\s*[NSEW](?![^\W\d_]))")
_TAG_SPLIT_RE = re.compile(r"[,،、，]")  # the comma of the app's language between tags


def _learn_names(blocks: list[dict[str, str]], date_key: str) -> tuple[frozenset[str], frozenset[str]]:
    """(place names, tag names) of the fields no table knows, told by the order Day One writes an entry's
    fields in whatever their names, Date, Location, Weather, Tags: the weather is the field whose values are
    temperatures ("9°C Cloudy"); an unknown field before the weather or a known tags field, or after a known
    place field, is the place; one after the weather or a known place, or before a known tags field, the tags;
    with none of those in a block, its only two unknown fields are the place then the tags. Votes over the
    whole journal decide (an entry may lack any field); one linear pass over each block's fields."""
    weather = {k for fields in blocks for k, v in fields.items() if k != date_key and _TEMPERATURE_RE.search(v)}
    votes: dict[str, int] = {}  # > 0: the place, < 0: the tags
    for fields in blocks:
        keys = [k for k in fields if k != date_key]
        kinds = ["w" if k in weather else "p" if k.casefold() in _PLACE_NAMES else "t" if k.casefold() in _TAG_NAMES
                 else "" for k in keys]
        unknown = [i for i, kind in enumerate(kinds) if not kind]
        if not unknown:
            continue
        anchors = [(i, kind) for i, kind in enumerate(kinds) if kind]
        if not anchors:
            if len(unknown) == 2:
                votes[keys[unknown[0]]] = votes.get(keys[unknown[0]], 0) + 1
                votes[keys[unknown[1]]] = votes.get(keys[unknown[1]], 0) - 1
            continue
        first = {kind: next((i for i, k in anchors if k == kind), None) for kind in "wpt"}
        for i in unknown:
            vote = 0
            if first["w"] is not None:
                vote = 1 if i < first["w"] else -1
            elif first["p"] is not None and i > first["p"]:
                vote = -1
            elif first["t"] is not None and i < first["t"]:
                vote = 1
            if vote:
                votes[keys[i]] = votes.get(keys[i], 0) + vote
    places = frozenset(k for k, v in votes.items() if v > 0)
    tags = frozenset(k for k, v in votes.items() if v < 0)
    return places, tags


def text_records(text: str, journal: str, rel: str, report: ImportReport,
                 read_date: Callable[[str], datetime | None]) -> list[Record] | None:
    """The entries of a Day One plain-text export, one episodic memory each as the JSON export's are
    (:func:`_entry`): dated by its date field (the block's first; the local time as written: a zone
    abbreviation such as WET is ambiguous and dropped; ``read_date`` reads the written date), tagged by its
    tags, its location its place, in whatever language the fields are named; the weather is no fact of the
    user's. None when ``text`` is no such export (its first line is no field, or no date field holds a
    date): then it is a plain note."""
    first = _FIELD_RE.match(text[:1024].lstrip("\r\n").split("\n", 1)[0].rstrip("\r"))
    if first is None:
        return None  # every .txt note passes here: told by its first line, before any split
    date_key = first.group("key")
    lines = split_lines(text)
    entries: list[tuple[dict[str, str], list[str]]] = []  # (fields, body lines) of each entry
    for line in lines:
        field = _FIELD_RE.match(line)
        if field and field.group("key") == date_key:
            entries.append(({}, []))
        if field and entries and not entries[-1][1]:  # a field of the block heading the entry
            entries[-1][0].setdefault(field.group("key"), field.group("value").strip())
        elif entries:
            entries[-1][1].append(line)
    # the CLDR reader first: it reads Day One's dates as dateparser does at a fraction of its cost (dateparser
    # tries every locale on each date: 16 ms a date, minutes for a journal of years), which stays the fallback
    dates = [written_dates.written_date(v) or read_date(v) for v in (_ZONE_RE.sub("", f.get(date_key, "")) for f, _ in entries)]
    if not any(dates):
        return None
    places, tag_keys = _learn_names([f for f, _ in entries], date_key)
    out: list[Record] = []
    seen: dict[str, int] = {}
    for (fields, body_lines), when in zip(entries, dates, strict=True):
        report.messages_seen += 1
        body = re.sub(r"\n{3,}", "\n\n", "\n".join(ln.rstrip() for ln in body_lines)).strip()
        if not body:
            report.skipped_empty += 1
            continue
        place = _field(fields, _PLACE_NAMES, places)
        key = f"{when.isoformat() if when else ''}:{sha1_hex(body)[:12]}"
        n = seen[key] = seen.get(key, -1) + 1
        tags = [t.strip() for t in _TAG_SPLIT_RE.split(_field(fields, _TAG_NAMES, tag_keys)) if t.strip()]
        out.append(Record(content=f"{journal}: {body}" + (f"\n[place: {place}]" if place else ""),
                          ref=f"markdown:dayone:{rel}:{key}:{n}", source="markdown", memory_type="episodic",
                          event_at=when, thread=rel, position=len(out), tags=tags,
                          metadata={"path": rel, "title": journal, "app": "dayone", "journal": journal}, line=1))
    return out
