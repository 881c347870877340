"""WhatsApp "Export chat" parser.

Message headers are recognised from a table of layouts (:data:`LAYOUTS`), one picked per
file from its first lines (:func:`pick_layout`):

* ``[date, time] Name: text`` (iOS, bracketed), ``date, time - Name: text`` (Android,
  dashed), ``date, time: Name: text`` (old iOS, 2013-2016, legacy colon), each also with
  the time first (``[14:56:01, 3/18/22] Name: text``);
* dates in any order (day-month-year, month-day-year, year-month-day), decided over the
  whole file (a field > 12 disambiguates; otherwise the order with the fewest backwards
  jumps wins), 2- or 4-digit years, ``/ . -`` or ``年 月 日`` separators; an explicit
  ``date_order="dmy"|"mdy"|"ymd"`` option overrides the guess;
* calendars (:mod:`importers.clock`): the Buddhist era (``3/18/2565 BE``, or years past
  2400), the Japanese imperial eras (``R4/3/18``, ``令和4/3/18``), Solar Hijri (years
  1300-1424) and lunar Hijri (1425-1499), Gregorian otherwise; digits of any script;
* a connector word between date and time (``12/03/2023 à 09:15``, ``12.3.2023 klo 9.15``);
* 24h and 12h clocks, the 12-hour marker before or after the time, in any language
  WhatsApp speaks: ``PM``, ``p. m.``, ``午後``, ``ص``/``م``, ``上午``/``下午``, and day-period
  phrases (``9:15 in the morning``, ``de la mañana``, ``nachm.``), from CLDR via Babel;
  dot times (``9.55``), seconds or not.

Also: invisible marks (U+200E/U+200F/U+202A-U+202E, BOM, NBSP, U+202F), CRLF/LF mixes,
multi-line messages with blank lines; system lines (encryption notices, joins, leaves,
subject/icon changes, number changes, deleted messages, security codes, timers) in several
languages are skipped and counted; media placeholders (``<Media omitted>``, ``image
omitted``, ``<attached: x.jpg>``, ``x.jpg (file attached)`` and localized variants) go to
``metadata["media"]``, never into memory text. ``.txt`` files and ``.zip`` exports
(``_chat.txt`` or the only ``.txt``, ``__MACOSX`` ignored, nested zips searched); a zip of
several exports gives every chat, each its own thread.

Bounded: the file is streamed twice (dates, then messages), a line at a time; a line over
``MAX_LINE_CHARS`` or a message over ``MAX_MESSAGE_CHARS``/``MAX_MESSAGE_LINES`` is refused
with a warning naming its line, never cut silently.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from importers import ImportFormatError, ImportReport, Record, clock, kinds, whatsapp_files
from importers._common import (
    DEFAULT_MAX_MEMBER_BYTES,
    INVISIBLE_MARKS,
    MAX_LINE_CHARS,
    MAX_MESSAGE_CHARS,
    MAX_MESSAGE_LINES,
    Line,
    legacy_codec,
    sha1_hex,
    strip_marks_fast,
    windows_1252,
)

# --- the header layouts -------------------------------------------------------------------

# A date: three numeric fields, an optional era before (Japanese) or after (Buddhist).
_DATE = (
    rf"(?:(?P<era_pre>{clock.era_pattern('prefixes')})\s?)?"
    r"(?P<date>\d{1,4}(?:\s?[./-]\s?|年)\d{1,2}(?:\s?[./-]\s?|月)\d{1,4}(?:\.|日)?)(?:\s?г\.)?"  # bg: "12.03.23 г."
    rf"(?:\s?(?P<era_post>{clock.era_pattern('suffixes')}))?"
)
# "09 h 15" and, with seconds, "18 h 01 min 12 s": Canadian French (CLDR's fr_CA short and medium times)
_TIME = r"(?P<time>\d{1,2}(?:[:.]|\s?h\s?)\d{2}(?:[:.]\d{2}|\s?min\s?\d{2}\s?s)?)"
# A 12-hour marker: one to four words of letters (with dots and combining marks), checked
# against CLDR's words afterwards (clock.known_marker): "PM", "p. m.", "in the morning", "ص".
_LETTER = r"[^\W\d_]"
# Combining marks are no letters to ``\w``: the vowel signs and viramas of Indic, Thai, Lao,
# Tibetan, Myanmar and Khmer words ("ਬਾ.ਦੁ.", "หลังเที่ยง", "अपराह्न") and the accents of decomposed
# Latin/Greek/Cyrillic, Hebrew points and Arabic harakat. Whole script blocks are let in after
# a first letter (their digits excepted): the words are checked against CLDR's afterwards.
_MARKS = ("\u0300-\u036f\u0483-\u0489\u0591-\u05c7\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed"
          "\u0900-\u0dff\u0e00-\u0eff\u0f00-\u0fff\u1000-\u109f\u1780-\u17ff\u200c\u200d")
# Hebrew abbreviations hold a gershayim or geresh between letters ("אחה״צ", on some phones "אחה"צ").
# (the marks' branch takes no letter: a letter of those blocks matched by two branches made a Thai line that is no
# header take exponential time to refuse, "10:30\tสมชาย ใจดี\t…" of a LINE export)
_WORD = rf"{_LETTER}(?:{_LETTER}|\.|(?!\w)[{_MARKS}]|[\u05f3\u05f4\"'](?={_LETTER}))*"
_MARKER = rf"{_WORD}(?:\s{_WORD}){{0,3}}"
_CLOCK = rf"(?:(?P<pre>{_MARKER})\s?)?{_TIME}(?:\s?(?P<post>{_MARKER}))?"
# A word some languages put between the date and the time: "12/03/2023 à 09:15" (French),
# "12.3.2023 klo 9.15" (Finnish), "12/03/2023 às 09:15" (Portuguese), "kl. 09.15" (Nordic).
# Without it such a word would be read as a 12-hour marker (and warned about).
CONNECTORS = ("à", "às", "as", "a las", "a les", "klo", "kello", "kl.", "kl", "um", "at", "alle", "om", "o", "в", "lúc")
_CONNECT = "(?:" + "|".join(re.escape(w) for w in sorted(CONNECTORS, key=len, reverse=True)) + r")\s+"
_JOIN = rf"[,،]?\s*(?:{_CONNECT})?"


@dataclass(frozen=True)
class Layout:
    """One way WhatsApp writes a message header; ``pattern`` matches the header only (the
    author and text follow at ``match.end()``)."""

    name: str
    platform: str  # "ios" | "android", reported in the import summary
    pattern: re.Pattern[str]


LAYOUTS = (
    Layout("bracketed", "ios", re.compile(rf"\[{_DATE}{_JOIN}{_CLOCK}\]\s?")),
    Layout("dashed", "android", re.compile(rf"{_DATE}{_JOIN}{_CLOCK}\s+[-–]\s")),
    Layout("bracketed, time first", "ios", re.compile(rf"\[{_CLOCK}[,،]?\s*{_DATE}\]\s?")),
    Layout("dashed, time first", "android", re.compile(rf"{_CLOCK}[,،]?\s*{_DATE}\s+[-–]\s")),
    # iPhone 2013 ("3/14/13 6:01:12 PM: Ana: hi") and Windows Phone 2014 wrote it without the comma
    Layout("legacy colon", "ios", re.compile(rf"{_DATE}(?:,\s*|\s+){_CLOCK}:\s")),
)
# After a legacy colon header, a sender and a colon: a log's "2024-03-13 15:00:01: server started" has none.
_SENDER_RE = re.compile(r"[^:\n]{1,80}:\s")
SNIFF_LINES = 200  # non-empty lines read to pick the layout
SNIFF_CHARS = 4_000_000  # ... or this many characters, whichever comes first
DEDUPE_WINDOW = 4096  # distinct minutes remembered to number repeated identical messages

_DATE_SEP_RE = re.compile(r"\s?[./-]\s?|年|月")
_TIME_SEP_RE = re.compile(r"[:.]|\s?h\s?|\s?min\s?")
_TILDE_RE = re.compile(r"^~\s*")
_AUTHOR_RE = re.compile(r"^(?P<author>[^:\n\"“”„«»‘‚‹›「」『』]{1,100}?):(?: (?P<text>.*)|\s*$)", re.DOTALL)  # no quote in a name
# iOS writes a group's notices under the group's name, the notice starting with U+200E (U+200F): a name may hold a
# colon ("[…] Lisbon: March: \u200eAna added Ben"), and then the mark, not the first colon, ends it.
_IOS_GROUP_NOTICE_RE = re.compile(r"^([^\n\"“”„«»‘‚‹›「」『』]{1,100}?): ?[\u200e\u200f](?P<notice>.*)$", re.DOTALL)

from importers.whatsapp_words import (  # noqa: E402  (the word tables, moved out of the parser)
    _ATTACHED_RE,
    _EDITED_RE,
    _SYSTEM_BODY_RE,
    _SYSTEM_LINE_RE,
    _media_line,
    bare_omitted,
    edited_tail,
    placeholder,
)

thread_name = whatsapp_files.thread_name  # re-exported: the chat's name from an export's file name


@dataclass
class _Entry:
    line: int
    date: str
    era: clock.Era | None
    time: str
    marker: str | None
    rest: str  # text after the header, marks stripped
    raw_rest: str  # the same with its marks (media placeholders are told by U+200E)
    more: list[str] = field(default_factory=list)
    chars: int = 0
    refused: str | None = None  # why the message is refused (over a cap), if it is
    head: str = ""  # the header itself ("12/03/2024, 09:15 - "), marks stripped
    who: str | None = "\x00"  # the sender (:func:`_who`), "\x00" until asked


def _raw_offset(raw: str, clean_index: int) -> int:
    """Index in ``raw`` of the character at ``clean_index`` of its mark-stripped text."""
    n = 0
    for i, ch in enumerate(raw):
        if ch in INVISIBLE_MARKS:
            continue
        if n == clean_index:
            return i
        n += 1
    return len(raw)


def _header(layout: Layout, raw: str, no: int) -> _Entry | None:
    clean = strip_marks_fast(raw)
    m = layout.pattern.match(clean)
    if m is None:
        return None
    end = m.end()
    raw_rest = raw[end:] if len(clean) == len(raw) else raw[_raw_offset(raw, end):]
    era_word = m.group("era_pre") or m.group("era_post")
    era = clock.era_by_word(era_word) if era_word else None
    return _Entry(no, m.group("date"), era, m.group("time"), m.group("pre") or m.group("post"), clean[end:], raw_rest,
                  head=clean[:end])


def pick_layout(lines: list[str]) -> Layout | None:
    """The layout most of these (first) lines' headers follow; None when no line has one."""
    best: Layout | None = None
    best_hits = 0
    cleaned = [strip_marks_fast(ln) for ln in lines if ln.strip()]
    for layout in LAYOUTS:
        hits = sum(1 for ln in cleaned if layout.pattern.match(ln))
        if hits > best_hits:
            best, best_hits = layout, hits
    return best


def sniff(lines: list[str]) -> bool:
    """True when enough of these first lines are WhatsApp headers to call the file a chat."""
    clean = [ln for ln in lines if ln.strip()]
    layout = pick_layout(clean)
    if layout is None:
        return False
    heads = [m for m in (layout.pattern.match(strip_marks_fast(ln)) for ln in clean) if m]
    if layout.name == "legacy colon":
        # "date time: " without the comma is a log line too: a quarter at least must name a sender (a group's
        # first lines can be mostly notices of people added, which name none)
        bare = [m for m in heads if "," not in m.string[m.end("date"):m.start("time")]]
        if bare and sum(1 for m in bare if _SENDER_RE.match(m.string, m.end())) * 4 < len(bare):
            return False
    # A chat whose first message is long (a pasted list of 60 lines) has few headers among its
    # first lines; that it starts with one says as much.
    return len(heads) >= max(1, len(clean) // 4) or layout.pattern.match(strip_marks_fast(clean[0])) is not None


def _date_fields(date: str) -> tuple[str, str, str]:
    parts = _DATE_SEP_RE.split(date.strip().rstrip(".日"))
    return parts[0], parts[1], parts[2]


def _make_date(order: str, fields: tuple[str, str, str], calendar: str = "gregorian",
               era: clock.Era | None = None) -> tuple[int, int, int]:
    a, b, c = fields
    if order == "ymd":
        y, mo, d = a, b, c
    elif order == "mdy":
        mo, d, y = a, b, c
    else:
        d, mo, y = a, b, c
    year = int(y)
    if era is not None and era.calendar in ("japanese", "roc"):
        year += era.offset
    elif calendar == "roc":
        year += clock.MINGUO_OFFSET
    elif era is not None or calendar == "buddhist":
        if len(y) <= 2:
            year += 2500  # a two-digit Buddhist year: 65 is 2565 BE
        year += clock.BUDDHIST_OFFSET
    elif calendar in ("persian", "islamic"):
        return clock.to_gregorian(calendar, year, int(mo), int(d))
    elif len(y) <= 2:
        year += 2000  # WhatsApp exists since 2009: two-digit years are all 20xx
    return year, int(mo), int(d)


_PLAIN_MARKERS = frozenset({None, "AM", "PM", "am", "pm", "a.m.", "p.m.", "a. m.", "p. m."})


class _DateStats:
    """What the date-order and calendar decisions need, gathered header by header in O(1)
    memory (a chat of millions of messages costs the same as one of ten)."""

    def __init__(self) -> None:
        self.n = 0
        self.four_first = 0
        self.minguo_first = 0  # a three-digit first field: a Minguo year (113/3/12), see clock.MINGUO_YEARS
        self.first_big = False
        self.second_big = False
        self.jumps = {"dmy": 0, "mdy": 0}
        self.prev: dict[str, tuple[int, int, int] | None] = {"dmy": None, "mdy": None}
        self.first_date = ""
        self.japanese = 0
        self.buddhist_word = 0
        self.max_year = {0: 0, 2: 0}  # largest 4-digit value in the first and last field
        self.min_short_year = {0: 100, 2: 100}  # smallest 2-digit value there
        self.max_short = {0: -1, 2: -1}  # and the largest
        self.twelve = False
        self.markers = clock.MarkerEvidence()  # which 12-hour marker is which, told by the file
        self.padded = False  # a day or month field written with a leading zero ("03")
        # What US English iOS never writes: a 4-digit year last ("3/11/2026") or a 12-hour marker other than
        # AM/PM ("م", "오후"); either rules out its month-first default.
        self.not_us = False
        self.lower_marker = False  # a marker other than upper-case AM/PM ("am", "a.m."): en_AU, en_IN, es_US write them
        self.seconds = False
        self.dot_time = False

    def add(self, e: _Entry) -> None:
        f = _date_fields(e.date)
        if not self.n:
            self.first_date = e.date
        self.n += 1
        self.four_first += len(f[0]) == 4
        self.minguo_first += len(f[0]) == 3 and int(f[0]) in clock.MINGUO_YEARS
        self.first_big = self.first_big or int(f[0]) > 12
        self.second_big = self.second_big or int(f[1]) > 12
        for order in ("dmy", "mdy"):
            cur = _make_date(order, f)
            if cur[1] > 12 or cur[2] > 31:
                self.jumps[order] += 2
            prev = self.prev[order]
            if prev is not None and cur < prev:
                self.jumps[order] += 1
            self.prev[order] = cur
        if e.era is not None:
            if e.era.calendar == "japanese":
                self.japanese += 1
            elif e.era.calendar == "roc":
                self.minguo_first += 1 if len(f[0]) != 3 else 0  # counted once
            else:
                self.buddhist_word += 1
        for i in (0, 2):
            if len(f[i]) == 4:
                self.max_year[i] = max(self.max_year[i], int(f[i]))
            elif len(f[i]) <= 2:
                self.min_short_year[i] = min(self.min_short_year[i], int(f[i]))
                self.max_short[i] = max(self.max_short[i], int(f[i]))
        self.twelve = self.twelve or bool(e.marker)
        if e.marker not in _PLAIN_MARKERS:  # AM/PM need no evidence: the others' order is followed
            self.markers.add(e.date, e.marker, int(e.time[:2]) if e.time[1:2].isdigit() else int(e.time[:1]))
        self.not_us = self.not_us or len(f[2]) == 4 or e.marker not in _PLAIN_MARKERS
        self.lower_marker = self.lower_marker or bool(e.marker) and e.marker not in ("AM", "PM")
        if not self.padded:
            self.padded = (len(f[0]) == 2 and f[0][0] == "0") or (len(f[1]) == 2 and f[1][0] == "0")
        self.seconds = self.seconds or e.time.count(":") + e.time.count(".") == 2
        self.dot_time = self.dot_time or "." in e.time

    def order(self, override: str | None, ios: bool) -> tuple[str, str]:
        """The date order for the whole file and why."""
        if override:
            if override not in ("dmy", "mdy", "ymd"):
                raise ImportFormatError(f"date_order must be dmy, mdy or ymd, not {override!r}")
            return override, "option"
        if self.japanese > self.n / 2:
            return "ymd", "Japanese era year first"
        if self.minguo_first > self.n / 2:
            return "ymd", "3-digit Minguo year first"
        if self.four_first > self.n / 2:
            return "ymd", "4-digit first field"
        # "23. 3. 12." (yy. M. d.): a last field below 09 is no year of WhatsApp (2009-) but a
        # day, so the year comes first when the first field can be one.
        if self.min_short_year[2] < 9 and 9 <= self.min_short_year[0] and self.max_short[0] <= datetime.now().year % 100:
            return "ymd", "2-digit year first (a last field below 09 is a day)"
        if self.first_big and not self.second_big:
            return "dmy", "day > 12 in first field"
        if self.second_big and not self.first_big:
            return "mdy", "day > 12 in second field"
        # Undecided (or contradictory): the order under which the chat goes back in time least.
        dmy, mdy = self.jumps["dmy"], self.jumps["mdy"]
        if dmy != mdy:
            return ("dmy", "fewer backward jumps") if dmy < mdy else ("mdy", "fewer backward jumps")
        sep = re.search(r"[./-]", self.first_date)
        # US English writes unpadded "3/11/26" with a 12-hour clock in upper-case AM/PM, on iOS and Android alike (the
        # phone's short date, CLDR's patterns). A file with no AM/PM at all is a 24-hour locale (es, it, de … write the
        # same unpadded date): day first. Lower-case "am"/"a.m." beside an unpadded date is en_AU's, en_NZ's, en_SG's,
        # es_US's, all day first; en_IN and en_GB pad the day. (layouts30: the Android half and the lower-case
        # exception, written from what this author knows of CLDR's patterns, not from exports at hand.)
        if sep and sep.group() == "/" and not self.padded and not self.not_us and self.twelve and not self.lower_marker:
            return "mdy", f"ambiguous: unpadded US-style {'iOS ' if ios else ''}date with upper-case AM/PM"
        return "dmy", DEFAULTED + " to day first"

    def calendar(self, order: str, today: datetime) -> tuple[str, str]:
        """The calendar for the whole file and why: an era word wins, then years no Gregorian
        WhatsApp date can have (past 2400, or two-digit years in the future)."""
        if self.japanese:
            return "japanese", "era name"
        if self.minguo_first > self.n / 2:
            return "roc", f"Minguo years {clock.MINGUO_YEARS.start}-{clock.MINGUO_YEARS.stop - 1} first (year + 1911)"
        if self.buddhist_word:
            return "buddhist", "era name"
        pos = 0 if order == "ymd" else 2
        if self.max_year[pos] >= 2400:
            return "buddhist", "years past 2400"
        if self.max_year[pos] in clock.PERSIAN_YEARS:
            return "persian", f"years {clock.PERSIAN_YEARS.start}-{clock.PERSIAN_YEARS.stop - 1} (Solar Hijri)"
        if self.max_year[pos] in clock.ISLAMIC_YEARS:
            return "islamic", (f"years {clock.ISLAMIC_YEARS.start}-{clock.ISLAMIC_YEARS.stop - 1} (lunar Hijri, "
                               "tabular: a day off the Umm al-Qura calendar possible)")
        short = self.min_short_year[pos]
        # 2-digit years: Gregorian ones are 09..this year; Buddhist 52 (2552 BE = 2009) upwards.
        if short != 100 and short >= 52 and short > today.year % 100 + 1:
            return "buddhist", "two-digit years past this year"
        return "gregorian", "default"


MIN_YEAR, MAX_YEAR = 1970, 2100  # a phone whose clock was reset says 1970; nothing says year 240


def _timestamp(e: _Entry, order: str, calendar: str, markers: dict[str, bool] | None = None) -> datetime:
    year, month, day = _make_date(order, _date_fields(e.date), calendar, e.era)
    parts = [int(p) for p in _TIME_SEP_RE.split(e.time.rstrip(" s"))]
    hour, minute = parts[0], parts[1]
    second = parts[2] if len(parts) > 2 else 0
    if e.marker:
        hour = clock.hour_24(hour, e.marker, markers) if markers else clock.to_24h(hour, e.marker)
    if not MIN_YEAR <= year <= MAX_YEAR:  # a damaged line ("3/12/240"), not a phone's clock
        raise ValueError(f"year {year}")
    return datetime(year, month, day, hour, minute, second)


class _Dedupe:
    """Numbers identical messages (same minute, author and text) so each keeps its own ref.

    Only the last DEDUPE_WINDOW distinct timestamps are remembered: repeats sit next to
    each other in a chat, and the memory this takes stays bounded on any file.
    """

    def __init__(self) -> None:
        self._seen: OrderedDict[str, dict[tuple[str, str], int]] = OrderedDict()

    def number(self, iso: str, author: str, digest: str) -> int:
        bucket = self._seen.get(iso)
        if bucket is None:
            bucket = self._seen[iso] = {}
            if len(self._seen) > DEDUPE_WINDOW:
                self._seen.popitem(last=False)
        n = bucket.get((author, digest), 0)
        bucket[(author, digest)] = n + 1
        return n


MAX_SPEAKERS = 5000  # distinct senders counted in pass 1 (a group has at most 1024 members)


def _speaker(rest: str) -> str | None:
    """The sender's name as written after the header ("~ Ana" is "Ana"), or None."""
    m = _AUTHOR_RE.match(rest)
    return _TILDE_RE.sub("", m.group("author")).strip() if m else None


def _who(e: _Entry) -> str | None:
    """:func:`_speaker` of an entry, read once."""
    if e.who == "\x00":
        e.who = _speaker(e.rest)
    return e.who


def _acted_by_speaker(author: str, speakers: dict[str, int] | None) -> bool:
    """True for a group event that names its actor before a colon, in a language no pattern
    knows: "Ayşe bu grubu topluluğa ekledi: Komşular" (Turkish for "Ayşe added this group to the
    community: Komşular") reads as a message from "Ayşe bu grubu topluluğa ekledi". Such a
    "sender" is heard once, and is a real sender's name followed by three or more words."""
    if not speakers or speakers.get(author, 0) != 1:
        return False
    words = author.split()
    return any(speakers.get(" ".join(words[:k]), 0) for k in range(1, len(words) - 2))


# iOS names a document's pages after it ("Boarding pass.pdf • 1 page", "• 3 Seiten"); its file is "00000008-<name>".
_PAGES_RE = re.compile(r"\s*•\s*\d+\s+\w+\s*$")
_IOS_FILE_PREFIX_RE = re.compile(r"^\d{8}-")


def _no_file_names(lines: list[str], media: list[str]) -> list[str]:
    """``lines`` without those that only name an attached file: a document's caption is its file name (Android
    writes it on the line after "(file attached)", iOS before "<attached: …>" with its page count); no words."""
    names = {_IOS_FILE_PREFIX_RE.sub("", m).strip().lower() for m in media}
    return [ln for ln in lines if _PAGES_RE.sub("", ln).strip().lower() not in names]


def _record(e: _Entry, when: datetime, thread: str, position: int, dedupe: _Dedupe,
            report: ImportReport, ios: bool = False, speakers: dict[str, int] | None = None) -> Record | None:
    """The record of one message, or None (system line, media only, empty), counted."""
    m = _AUTHOR_RE.match(e.rest)
    if ios and m is not None and not e.more and ("\u200e" in e.raw_rest or "\u200f" in e.raw_rest) \
            and ":" in (m.group("text") or ""):
        named = _IOS_GROUP_NOTICE_RE.match(e.raw_rest)
        said = strip_marks_fast(named.group("notice")).strip() if named else ""
        if named and len(named.group(1)) > len(m.group("author")) and "://" not in said \
                and _media_line(named.group("notice"), said) is None:
            report.skipped_system += 1  # a notice of a group whose name holds a colon (see _IOS_GROUP_NOTICE_RE)
            return None
    author_raw = m.group("author") if m else None
    if m is None or _SYSTEM_LINE_RE.search(author_raw or "") or '"' in (author_raw or "") or "“" in (author_raw or "") \
            or _acted_by_speaker(_TILDE_RE.sub("", author_raw or "").strip(), speakers):
        report.skipped_system += 1
        return None
    author = _TILDE_RE.sub("", author_raw or "").strip()
    first = m.group("text") or ""
    raw_first = e.raw_rest.split(":", 1)[1] if ":" in e.raw_rest else first
    body_lines = [first.rstrip(), *e.more]
    raw_lines = [raw_first, *e.more]
    whole = "\n".join(body_lines).strip()
    check = whole.lower().rstrip(".").strip()
    # iOS writes group events as messages of the group (or contact) whose text starts with
    # U+200E: "[..] Family: \u200eMum added Dad". A person's own text never starts so.
    ios_event = raw_first.lstrip(" ").startswith(("\u200e", "\u200f")) and not e.more
    # In an iOS export every notice (deleted message, missed call, security code, joins, in any
    # language) is one line starting with U+200E; of such lines only media placeholders and
    # shared locations/links (a URL) are a person's.
    # (U+200F in right-to-left locales: Hebrew, Arabic, Persian iOS.)
    notice = (ios and ios_event and "://" not in whole
              and _media_line(raw_first, whole) is None and not _EDITED_RE.search(whole)
              and _ATTACHED_RE.search(whole) is None)  # "\u200eBoarding pass.pdf • 1 page \u200e<attached: …>"
    if notice or _SYSTEM_BODY_RE.search(check) or (ios_event and _SYSTEM_LINE_RE.search(whole)):
        report.skipped_system += 1
        return None
    edited = False
    media: list[str] = []
    kept: list[str] = []
    last = len(body_lines) - 1
    for i, (raw_line, line) in enumerate(zip(raw_lines, body_lines, strict=True)):
        if line.endswith(">") and _EDITED_RE.search(line):
            line = _EDITED_RE.sub("", line)
            raw_line = _EDITED_RE.sub("", raw_line)
            edited = True
        elif i == last and line.endswith(">"):
            unmarked = edited_tail(line)  # a marker of a script without capitals: it closes the message
            if unmarked is not None:  # the raw line ends as the clean one does: cut at its own last "<"
                line, raw_line, edited = unmarked, raw_line[:raw_line.rfind("<")].rstrip(" "), True
        # Android writes a view-once photo or video as the bare word "null".
        found = ["view once"] if line.strip() == "null" and len(body_lines) == 1 else _media_line(raw_line, line)
        if found is None and ios and len(body_lines) == 1 and bare_omitted(line):
            found = [line.strip()]  # an iOS placeholder whose U+200E mark an editor dropped
        if found is None and len(body_lines) == 1 and placeholder(line):
            found = [line.strip()[1:-1].strip()]  # "<Медиумите се изоставени>": a placeholder of any language
        if found is not None:
            media.extend(found)
            continue
        # Inline "<attached: x>" after a caption on the same line.
        inline = [a.group("file").strip() for a in _ATTACHED_RE.finditer(line)]
        if inline:
            media.extend(inline)
            line = _ATTACHED_RE.sub("", line).rstrip()
        kept.append(line)
    if media and kept:
        kept = _no_file_names(kept, media)
    body = "\n".join(kept).strip("\n").rstrip()
    body = body.strip() if "\n" not in body else body
    if not body.strip():
        if media:
            report.skipped_media += 1
        else:
            report.skipped_empty += 1
        return None
    iso = when.isoformat()
    digest = sha1_hex(body)
    n = dedupe.number(iso, author, digest)
    metadata: dict[str, Any] = {"chat": thread}
    if media:
        metadata["media"] = media
    if edited:
        metadata["edited"] = True
    return Record(
        content=f"{author}: {body}",
        ref=f"whatsapp:{thread}:{iso}:{author}:{digest[:12]}:{n}",
        source="whatsapp",
        memory_type="episodic",
        event_at=when,
        author=author,
        thread=thread,
        position=position,
        metadata=metadata,
        line=e.line,
    )


def _entries(lines: Iterator[Line], layout: Layout, report: ImportReport | None) -> Iterator[_Entry]:
    """Messages (header + continuation lines) in file order, each within the caps; a message
    over a cap comes out with ``refused`` set and without its text."""
    cur: _Entry | None = None
    preamble = 0
    for ln in lines:
        e = _header(layout, ln.text, ln.no)
        if e is not None:
            if cur is not None:
                yield cur
            elif preamble and report is not None:
                report.warn(f"{preamble} line(s) before the first message header ignored", 1)
            cur = e
            cur.chars = ln.length
            if ln.overlong:
                cur.refused = f"a line of {ln.length} characters (cap {MAX_LINE_CHARS})"
                cur.rest = cur.raw_rest = ""
            continue
        if cur is None:
            if ln.text.strip():
                preamble += 1
            continue
        if cur.refused:
            cur.chars += ln.length
            continue
        cur.chars += ln.length
        if ln.overlong:
            cur.refused = f"a line of {ln.length} characters (cap {MAX_LINE_CHARS})"
        elif cur.chars > MAX_MESSAGE_CHARS:
            cur.refused = f"more than {MAX_MESSAGE_CHARS} characters"
        elif len(cur.more) >= MAX_MESSAGE_LINES:
            cur.refused = f"more than {MAX_MESSAGE_LINES} lines"
        if cur.refused:
            cur.more.clear()
            cur.rest = cur.raw_rest = ""
            continue
        cur.more.append(strip_marks_fast(ln.text).rstrip())
    if cur is not None:
        yield cur


def _survey(opener: Callable[[], IO[bytes]], file: str) -> tuple[Layout, _DateStats, dict[str, int]]:
    """Pass 1: the layout (from the first lines), then the dates and senders of every header, to
    decide the date order and calendar over the whole file."""
    first = whatsapp_files.first_lines(opener, file, SNIFF_LINES, SNIFF_CHARS)
    layout = pick_layout(first)
    if layout is None:
        # say what the file is when its shape tells (a note, a Telegram copy, a log ...): a lone .txt in a
        # zip comes here, tried as the chat it usually is
        base = Path(file.rsplit("!", 1)[-1]).name.lower()
        what = kinds.text_kind("\n".join(first), Path(base).suffix)
        if what and what.startswith("plain text") and (base == "_chat.txt" or "whatsapp" in base):
            what = None  # named as WhatsApp names its chats: a chat cut or broken, not a note
        raise ImportFormatError("no WhatsApp message header found (expected '[date, time] Name: text' or "
                                "'date, time - Name: text')" + (f": {what}" if what else ""), file, 1)
    stats = _DateStats()
    speakers: dict[str, int] = {}
    for e in _entries(whatsapp_files.lines(opener, file), layout, None):
        stats.add(e)
        who = _who(e)
        if who is not None and (who in speakers or len(speakers) < MAX_SPEAKERS):
            speakers[who] = speakers.get(who, 0) + 1
    return layout, stats, speakers


def parse(path: Path, report: ImportReport, **options: Any) -> Iterator[Record]:
    """Parse a WhatsApp export (.txt or .zip) into episodic records, one per message; a zip of
    several exports gives every chat, each its own thread (``variant["chats"]``).

    Options: ``date_order`` ("dmy"|"mdy"|"ymd"), ``thread`` (chat name override, one chat only),
    ``max_member_bytes`` (zip member / file size limit, default 512 MB).
    """
    path = Path(path)
    max_bytes = int(options.get("max_member_bytes") or DEFAULT_MAX_MEMBER_BYTES)
    with ExitStack() as stack:
        sources = whatsapp_files.sources(path, max_bytes, stack)
        if options.get("thread") and len(sources) > 1:
            raise ImportFormatError(f"--thread names one chat; this zip holds {len(sources)}", str(path))
        for i, (file, opener, thread) in enumerate(sources):
            yield from _chat(file, opener, str(options.get("thread") or thread), report, options, i == 0)
        if len(sources) > 1:
            report.variant["chats"] = [thread for _, _, thread in sources]


def _chat(file: str, opener: Callable[[], IO[bytes]], thread: str, report: ImportReport, options: dict[str, Any],
          first: bool) -> Iterator[Record]:
    """The records of one chat; the report's variant describes the first chat of the export."""
    try:
        layout, stats, speakers = _survey(opener, file)
    except ImportFormatError as exc:
        if not exc.reason.startswith("not UTF-8"):
            raise
        # A chat re-saved by Notepad as "ANSI": read as Windows-1252, loudly, not refused (or,
        # UTF-8 with a few damaged bytes, as UTF-8 with those replaced).
        codec, name = legacy_codec(opener)
        report.warn(f"{exc.reason.split(';')[0]}; read as {name}", exc.line)
        opener = windows_1252(opener, codec)
        layout, stats, speakers = _survey(opener, file)
    order, reason = stats.order(options.get("date_order"), layout.platform == "ios")
    calendar, calendar_reason = stats.calendar(order, datetime.now())
    if calendar in ("persian", "islamic") and reason.startswith("ambiguous"):
        order, reason = "dmy", "ambiguous: day first, as in the Hijri calendars' locales"
    markers = stats.markers.inferred() if stats.twelve else {}
    if not reason.startswith(DEFAULTED):  # a guess is not kept: its chat's "03/12" stays unread by the brief
        report.date_orders[thread] = order
    if first:
        report.variant.update(
            {
                "platform": layout.platform,
                "layout": layout.name,
                "date_order": order,
                "date_order_reason": reason,
                "calendar": calendar,
                "clock": "12h" if stats.twelve else "24h",
                "seconds": stats.seconds,
                "dot_time": stats.dot_time,
                "chat": thread,
            }
        )
        if calendar != "gregorian":
            report.variant["calendar_reason"] = calendar_reason
        if markers:  # markers no table knows, read from the order of the messages
            report.variant["markers"] = {stats.markers.written[k]: "pm" if pm else "am" for k, pm in markers.items()}
    # Pass 2: the messages, streamed.
    dedupe = _Dedupe()
    position = 0
    unknown_markers: set[str] = set()
    damage: list[tuple[int, str]] = []  # a copy damaged on the way (NULs, a character cut): said once each
    entries = _entries(whatsapp_files.lines(opener, file, damage), layout, report)
    for e in _pasted(_in_time_order(entries, order, calendar, markers), order, calendar, markers):
        report.messages_seen += 1
        if e.refused:
            report.skipped_oversized += 1
            report.warn(f"message refused: {e.refused}; split it in the export or import it by hand", e.line)
            continue
        if e.marker and e.marker not in unknown_markers and not clock.known_marker(e.marker) \
                and clock.normalise_marker(e.marker) not in markers:
            unknown_markers.add(e.marker)
            report.warn(f"unknown 12-hour marker {e.marker!r}: hours read as written", e.line)
        try:
            when = _timestamp(e, order, calendar, markers)
        except ValueError:
            report.warn(f"invalid date/time {e.date} {e.time} for date order {order}; message skipped", e.line)
            continue
        rec = _record(e, when, thread, position, dedupe, report, layout.platform == "ios", speakers)
        if rec is not None:
            position += 1
            yield rec
    for line, what in damage:
        report.warn(what, line)


DEFAULTED = "ambiguous: defaulted"  # the start of the reason of a date order nothing in the file decided
OUT_OF_ORDER = 3600  # seconds a header may stray from its neighbours' times and still be one


def _in_time_order(entries: Iterator[_Entry], order: str, calendar: str,
                   markers: dict[str, bool] | None = None) -> Iterator[_Entry]:
    """``entries`` with the header-shaped lines of a message put back into it.

    A line of a message can look like a header ("15/03/2024, 11:00 - pick up the parcel" in a
    pasted plan); without a sender it would be read as a group event and dropped. WhatsApp writes
    its events when they happen, so one dated more than OUT_OF_ORDER before the message above it or
    after the header below it, with no event words, is text of the message above.
    """

    def when(e: _Entry) -> float | None:
        try:
            return _timestamp(e, order, calendar, markers).timestamp()
        except ValueError:
            return None

    out: _Entry | None = None  # the message not yet given out (a line may still join it)
    held: _Entry | None = None  # an author-less header, waiting for the next header's time
    for e in entries:
        if held is not None:
            t_held, t_out, t_next = when(held), when(out) if out else None, when(e)
            if out is not None and t_held is not None and t_out is not None and t_next is not None and (
                    t_held < t_out - OUT_OF_ORDER or t_held > t_next + OUT_OF_ORDER):
                out.more.extend([held.head + held.rest, *held.more])
            else:
                if out is not None:
                    yield out
                out = held
            held = None
        if (out is not None and not out.refused and not e.refused and _who(e) is None and _who(out) is not None
                and not _SYSTEM_LINE_RE.search(e.rest)):
            held = e
            continue
        if out is not None:
            yield out
        out = e
    if held is not None:  # the last header of the file: nothing after it to compare with
        if out is not None:
            yield out
        out = held
    if out is not None:
        yield out


def _pasted(entries: Iterator[_Entry], order: str, calendar: str, markers: dict[str, bool] | None = None) -> Iterator[_Entry]:
    """``entries`` with a sender's header that a person pasted from another chat put back into the message above.

    "Copying Oscar's message:" followed by "20/03/2024, 09:00 - Oscar: I'll come at 9" reads as a message of
    Oscar's; but WhatsApp writes messages in the order they came, so a header dated more than OUT_OF_ORDER
    away from the message above it, between two headers that agree with each other (within OUT_OF_ORDER),
    is a line of the message above. Only a header of another day than the message above is looked at (a
    same-day stamp cannot be told from a reply), one at a time. A chat whose times jump about (a phone's
    clock set wrong, messages that came late: real exports have them) keeps its headers unless the
    headers around the stray one are that close.
    """

    def when(e: _Entry) -> float | None:
        try:
            return _timestamp(e, order, calendar, markers).timestamp()
        except ValueError:
            return None

    out: _Entry | None = None  # the message not yet given out
    held: _Entry | None = None  # a header of another day, far from ``out``: pasted or the chat moving on
    t_out = t_held = None
    for e in entries:
        if held is not None:
            t_next = when(e)
            assert out is not None and t_out is not None and t_held is not None
            if t_next is not None and abs(t_next - t_out) <= OUT_OF_ORDER and (  # and the message stays within its caps
                    out.chars + held.chars <= MAX_MESSAGE_CHARS and len(out.more) + 1 + len(held.more) <= MAX_MESSAGE_LINES):
                out.more.extend([held.head + held.rest, *held.more])
                out.chars += held.chars
            else:
                yield out
                out, t_out = held, t_held
            held = None
        if (out is not None and not out.refused and not e.refused and e.date != out.date and _who(e) is not None
                and _who(out) is not None):
            t_out = when(out) if t_out is None else t_out
            t_e = when(e)
            if t_out is not None and t_e is not None and abs(t_e - t_out) > OUT_OF_ORDER:
                held, t_held = e, t_e
                continue
        if out is not None:
            yield out
        out, t_out = e, None
    if out is not None:
        yield out
    if held is not None:  # the last header of the file: nothing after it to compare with
        yield held

