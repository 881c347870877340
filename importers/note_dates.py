"""Dates of notes, for :mod:`importers.markdown` and the note readers beside it: ISO dates and times in front
matter, headings and file names (a ``Z`` or ``+02:00`` after a front matter time makes it a moment), Unix
times in s/ms/µs, dates written with a month name in any language (:func:`written_date`), daily notes' file
names (``2024-03-12``, ``2024_03_12``, Roam's ``March 12th, 2024``) and Zettelkasten ids before a title."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone
from typing import Any

from importers import written_dates

_DATE_RE = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2}))?)?(?!\d)")
# "Z", "+02:00", and Jekyll's " +0900" (a space before the offset)
_ZONE_RE = re.compile(r"(?:\.\d+)? ?(Z|([+-])(\d{2}):?(\d{2}))(?![\w:])", re.IGNORECASE)
# Daily notes: 2024-03-12 (Obsidian), 2024_03_12 (Logseq journals), 2024.03.12; an HHMM may follow.
_FILE_DATE_RE = re.compile(
    r"(?<!\d)(?P<y>\d{4})(?P<sep>[-_.])(?P<mo>\d{2})(?P=sep)(?P<d>\d{2})(?:[-_ ]?(?P<h>\d{2})(?P<mi>\d{2})(?!\d))?")


def _to_datetime(value: Any, zoned: bool = False) -> datetime | None:
    """The first date (and time) in ``value``; with ``zoned`` (front matter values) a ``Z`` or
    ``+02:00`` after the time makes it timezone-aware (in a heading "14:00-15:00" is a range)."""
    if isinstance(value, datetime):
        return value
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return _epoch(float(value))
    if not isinstance(value, str):
        return None
    m = _DATE_RE.search(value)
    if not m:
        return None
    y, mo, d, h, mi, s = m.groups()
    try:
        when = datetime(int(y), int(mo), int(d), int(h or 0), int(mi or 0), int(s or 0))
    except ValueError:
        return None
    # "2023-11-05T10:00:00Z" / "+02:00": a moment, not a local time
    zone = _ZONE_RE.match(value, m.end()) if h and zoned else None
    if zone:
        if zone.group(1).upper() == "Z":
            return when.replace(tzinfo=timezone.utc)
        sign = -1 if zone.group(2) == "-" else 1
        offset = timedelta(hours=int(zone.group(3)), minutes=int(zone.group(4)))
        return when.replace(tzinfo=timezone(sign * offset))
    return when


def _epoch(value: float) -> datetime | None:
    """A Unix time in seconds, milliseconds (Dendron's ``created: 1710234000000``) or microseconds
    (Google Keep), told by its size; None for a number that is none of them (a year, a count)."""
    for scale in (1, 1_000, 1_000_000):
        if 1e9 <= value / scale < 1e10:  # 2001-09-09 .. 2286: any note's time
            return datetime.fromtimestamp(value / scale, tz=timezone.utc)
    return None


# Front matter keys that date a note, by the tools that write them (Obsidian, Jekyll/Hugo, Notion, Bear).
# Keys are compared without case, spaces, "_" or "-": created_at, createdAt, "Creation Date", created-on ...
_FRONT_DATE_KEYS = ("date", "created", "createdat", "creationdate", "datecreated", "createdtime", "createdon",
                    "creationtime", "createddate", "published", "day")
_YEAR_RE = re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)")
_NUMBER_RUN_RE = re.compile(r"\d+")


def garbled_front_date(front: dict[str, Any]) -> str | None:
    """The value of a dating key of ``front`` that is a garbled date (:func:`garbled`), for a warning; else None."""
    lowered = {re.sub(r"[\s_-]", "", str(k).lower()): v for k, v in front.items()}
    return next((v for v in (lowered.get(k) for k in _FRONT_DATE_KEYS) if isinstance(v, str) and garbled(v)), None)


def _front_date(front: dict[str, Any]) -> datetime | None:
    """The date a note's front matter gives: ISO (``2024-03-12``, ``2023-11-05T10:00:00Z``) or
    written out (``March 12, 2024``, ``12. März 2024 9:15``) under a dating key."""
    lowered = {re.sub(r"[\s_-]", "", str(k).lower()): v for k, v in front.items()}
    for key in _FRONT_DATE_KEYS:
        value = lowered.get(key)
        when = _to_datetime(value, True) or _written_date(value)
        if when is not None:
            return when
    return None


# A number run into Latin letters that are no ordinal or clock suffix ("1m5", "2O18", "1O:00": a typo, a
# misread scan, damage) is no date: dateparser drops the letters and guesses ("Mar 1m5, 2018" read as 1 May
# 2018, "1O:00" as 01:00) after trying every locale (1.5 s on its first call).
_GARBLED_RE = re.compile(r"[a-z]\d|\d(?!(?:st|nd|rd|th|er|re|e|am|pm|h)(?![a-z]))[a-z]", re.IGNORECASE)
_GLUED_TIME_RE = re.compile(r"(?<=\d)[hT](?=\d)")  # French "18h30", ISO's "2024-03-14T18:30": no damage


def garbled(value: str) -> bool:
    """True when ``value`` holds a number run into letters that make it no date (:data:`_GARBLED_RE`)."""
    return _GARBLED_RE.search(_GLUED_TIME_RE.sub(" ", value)) is not None


def written_date(value: Any) -> datetime | None:
    """A date written with a month name and a 4-digit year, in any language CLDR or dateparser knows
    (:mod:`importers.written_dates` first, at a fraction of dateparser's cost; it also reads what dateparser
    does not: "14 Μαρτίου 2024 στις 9:10:00 μ.μ.", "klo 21.10.00", "2024年3月14日"); numeric day/month orders
    are ambiguous and relative words ("yesterday") no date, so neither is read."""
    if not isinstance(value, str) or len(value) > 80 or not _YEAR_RE.search(value):
        return None
    when = written_dates.written_date(value)  # first: dateparser tries every locale, 16 ms a date
    # (a date needs its day's number besides the year: "Taxes 2023", "Trip to Porto 2024" — a note's name — are
    # never sent to dateparser, which would try every locale to say so)
    if when is None and re.search(r"[^\W\d_]{3}", value) and not garbled(value) and len(_NUMBER_RUN_RE.findall(value)) >= 2:
        import dateparser  # only for such notes: most front matter dates are ISO

        when = dateparser.parse(value, settings={"REQUIRE_PARTS": ["day", "month", "year"],
                                                 "RETURN_AS_TIMEZONE_AWARE": False})
    return when.replace(microsecond=0) if when is not None else None


_written_date = written_date


# Obsidian's unique note creator (and Zettelkasten tools) name a note by its creation minute:
# "202403120915 Boiler quote" (Zettlr's default id adds the second: "20240312091500"). The id dates the note
# and is no part of its title.
_ZETTEL_RE = re.compile(r"^(?P<y>(?:19|20)\d{2})(?P<mo>\d{2})(?P<d>\d{2})(?P<h>\d{2})(?P<mi>\d{2})(?P<s>\d{2})?(?!\d)\s*")


def _zettel(stem: str) -> tuple[str, datetime | None]:
    """(title, creation time) of a note named "YYYYMMDDHHmm Title"; (stem, None) otherwise."""
    m = _ZETTEL_RE.match(stem)
    if not m:
        return stem, None
    try:
        y, mo, d, h, mi = (int(m.group(k)) for k in ("y", "mo", "d", "h", "mi"))
        when = datetime(y, mo, d, h, mi, int(m.group("s") or 0))
    except ValueError:
        return stem, None
    return stem[m.end():].strip() or stem, when


# Denote (Emacs) names a note "IDENTIFIER==SIGNATURE--TITLE__KEYWORDS": "20240314T180112--boiler-service__home_maintenance"
_DENOTE_RE = re.compile(r"^(?P<y>\d{4})(?P<mo>\d{2})(?P<d>\d{2})T(?P<h>\d{2})(?P<mi>\d{2})(?P<s>\d{2})"
                        r"(?:==[^-_]+)?(?:--(?P<title>[^_]+?))?(?:__(?P<keywords>[^.]+))?$")


def name_parts(stem: str) -> tuple[str, datetime | None, list[str]]:
    """(title, creation time, keywords) a note's file name says: a Denote name's identifier, title words (its
    hyphens spaces) and keywords (its "_"-joined tags), a Zettelkasten id's time (:func:`_zettel`), else the stem."""
    m = _DENOTE_RE.match(stem)
    if m is None:
        return (*_zettel(stem), [])
    try:
        y, mo, d, h, mi, sec = (int(m.group(k)) for k in ("y", "mo", "d", "h", "mi", "s"))
        when = datetime(y, mo, d, h, mi, sec)
    except ValueError:
        return stem, None, []
    title = (m.group("title") or "").replace("-", " ").strip() or stem
    return title, when, [k for k in (m.group("keywords") or "").split("_") if k]


def _file_date(stem: str) -> datetime | None:
    m = _FILE_DATE_RE.search(stem)
    if not m:
        # Roam's daily pages are named by the date written out: "March 12th, 2024"
        return _written_date(stem) if re.fullmatch(r"[\w ,.'-]{6,40}", stem) else None
    y, mo, d, h, mi = m.group("y", "mo", "d", "h", "mi")
    try:
        return datetime(int(y), int(mo), int(d), int(h or 0), int(mi or 0))
    except ValueError:
        return None
