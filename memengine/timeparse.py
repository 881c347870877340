"""Dates for memories: parse ``--at`` values and resolve relative dates inside text.

"tomorrow I fly to Rome" written on 11 March is about 12 March: we resolve such
phrases against the memory's event time at store time and keep the result both in
metadata and in the keyword index (``date_terms``), so "what did I do on 12 March"
finds it. The in-text resolver is a small regex pass (fast enough for imports of
millions of messages); ``--at`` falls back to ``dateparser`` for free-form phrases,
imported only when needed because it costs ~120 ms.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone

MONTHS = [
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
]
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_MONTH_ABBR = {m[:3]: i + 1 for i, m in enumerate(MONTHS)} | {"sept": 9}
_NUM_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "couple of": 2, "few": 3, "several": 3,
}

ISO_FMT = "%Y-%m-%dT%H:%M:%S"


class DateParseError(ValueError):
    """A date the user gave that we cannot understand."""


def utcnow() -> datetime:
    """Current UTC time, naive, to the second (how timestamps are stored)."""
    return datetime.now(timezone.utc).replace(tzinfo=None, microsecond=0)


def to_iso(dt: datetime | None) -> str | None:
    """Stored form: naive ISO-8601 to the second; aware datetimes are converted to UTC."""
    if dt is None:
        return None
    if dt.tzinfo is not None:
        dt = dt.astimezone(timezone.utc).replace(tzinfo=None)
    return dt.replace(microsecond=0).strftime(ISO_FMT)


def from_iso(text: str | None) -> datetime | None:
    """Parse a stored timestamp (tolerates a date alone and a trailing Z)."""
    if not text:
        return None
    return datetime.fromisoformat(text.rstrip("Z")).replace(tzinfo=None)


def hours_between(a: str | None, b: str | None) -> float:
    """Hours from ``a`` to ``b`` (ISO times; negative when ``b`` is earlier); 0 when either is unknown or unreadable
    (recall's steps that read "a later turn within N hours/days" treat an undated turn as near)."""
    if not a or not b:
        return 0.0
    try:
        return (datetime.fromisoformat(b) - datetime.fromisoformat(a)).total_seconds() / 3600
    except ValueError:
        return 0.0


def parse_when(text: str, now: datetime | None = None) -> datetime:
    """Parse an ``--at``/``--since`` value: ISO dates first, then natural phrases.

    Natural phrases ("yesterday 3pm", "last Friday", "2 days ago") are resolved
    against ``now`` (default: local time now).
    """
    raw = text.strip()
    if not raw:
        raise DateParseError("empty date")
    try:
        dt = datetime.fromisoformat(raw.replace("Z", "+00:00"))
        return dt
    except ValueError:
        pass
    base = now or datetime.now().replace(microsecond=0)
    quick = _quick_phrase(raw.lower(), base)
    if quick is not None:
        return quick
    import dateparser  # slow import: only for phrases our quick path does not know

    settings = {"RELATIVE_BASE": base, "PREFER_DATES_FROM": "past", "RETURN_AS_TIMEZONE_AWARE": False}
    dt = dateparser.parse(raw, settings=settings, languages=["en"])
    if dt is None:
        raise DateParseError(f"cannot understand the date {text!r} (try ISO like 2024-03-12 or 'yesterday 3pm')")
    return dt


_TIME_RE = re.compile(r"\b(?:at\s+)?(\d{1,2})(?::(\d{2}))?\s*(am|pm)\b|\b(?:at\s+)?(\d{1,2}):(\d{2})\b")


def _apply_time(phrase: str, day: datetime) -> datetime:
    m = _TIME_RE.search(phrase)
    if not m:
        return day.replace(hour=0, minute=0, second=0)
    if m.group(3):
        hour = int(m.group(1)) % 12 + (12 if m.group(3) == "pm" else 0)
        minute = int(m.group(2) or 0)
    else:
        hour, minute = int(m.group(4)), int(m.group(5))
    if hour > 23 or minute > 59:
        return day.replace(hour=0, minute=0, second=0)
    return day.replace(hour=hour, minute=minute, second=0)


def _quick_phrase(phrase: str, now: datetime) -> datetime | None:
    words = phrase.split()
    if not words:
        return None
    head = words[0]
    if head in ("now",):
        return now
    if head in ("today", "tonight"):
        return _apply_time(phrase, now)
    if head == "yesterday":
        return _apply_time(phrase, now - timedelta(days=1))
    if head == "tomorrow":
        return _apply_time(phrase, now + timedelta(days=1))
    m = re.match(r"^(last|next|this)\s+(\w+)", phrase)
    if m and m.group(2) in WEEKDAYS:
        target = WEEKDAYS.index(m.group(2))
        delta = target - now.weekday()
        if m.group(1) == "last":
            delta = delta - 7 if delta >= 0 else delta
        elif m.group(1) == "next":
            delta = delta + 7 if delta <= 0 else delta
        return _apply_time(phrase, now + timedelta(days=delta))
    m = re.match(r"^(\d+|an?|one|two|three|four|five|six|seven|ten)\s+(minute|hour|day|week|month|year)s?\s+ago$", phrase)
    if m:
        n = int(m.group(1)) if m.group(1).isdigit() else _NUM_WORDS[m.group(1)]
        unit = m.group(2)
        if unit == "minute":
            return now - timedelta(minutes=n)
        if unit == "hour":
            return now - timedelta(hours=n)
        return now - _span(unit, n)
    return None


def _span(unit: str, n: int) -> timedelta:
    return {"day": timedelta(days=n), "week": timedelta(weeks=n), "month": timedelta(days=30 * n),
            "year": timedelta(days=365 * n), "weekend": timedelta(weeks=n)}[unit]


@dataclass(frozen=True)
class ResolvedDate:
    """A relative phrase in a text and the date (or period start) it refers to."""

    phrase: str
    day: date
    granularity: str  # day | week | month | year


# Every alternative starts with a digit or one of the letters t y l n p c a o f s e: the lookahead
# lets the engine pass over other positions at once (an episode's 4,000 characters: 1.2 -> 0.7 ms),
# matching exactly what the plain alternation matches (IGNORECASE folds the class as it folds the words).
_REL_RE = re.compile(
    r"(?=[\dtylnpcaofse])(?:"
    r"\b(?P<simple>today|tonight|yesterday|tomorrow|the day before yesterday|the day after tomorrow)\b"
    r"|\b(?P<dir>last|next|this|past|coming)\s+(?P<unit>week|weekend|month|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday|summer|winter|spring)\b"
    r"|\b(?P<num>\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|a couple of|a few|few|several)\s+(?P<unit2>day|week|month|year)s?\s+(?P<dir2>ago|later|from now)\b"
    r"|\bon\s+(?P<wd>monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b)",
    re.IGNORECASE,
)


def resolve_relative(text: str, anchor: datetime) -> list[ResolvedDate]:
    """Find relative date phrases in ``text`` and resolve them against ``anchor``.

    >>> [r.day.isoformat() for r in resolve_relative("tomorrow I fly to Rome", datetime(2024, 3, 11))]
    ['2024-03-12']
    """
    out: list[ResolvedDate] = []
    base = anchor.date()
    for m in _REL_RE.finditer(text):
        phrase = m.group(0).lower()
        if m.group("simple"):
            offs = {"today": 0, "tonight": 0, "yesterday": -1, "tomorrow": 1,
                    "the day before yesterday": -2, "the day after tomorrow": 2}[phrase]
            out.append(ResolvedDate(phrase, base + timedelta(days=offs), "day"))
        elif m.group("dir"):
            direction = m.group("dir").lower()
            unit = m.group("unit").lower()
            sign = -1 if direction in ("last", "past") else (1 if direction in ("next", "coming") else 0)
            if unit in WEEKDAYS:
                delta = WEEKDAYS.index(unit) - base.weekday()
                if sign < 0:
                    delta = delta - 7 if delta >= 0 else delta
                elif sign > 0:
                    delta = delta + 7 if delta <= 0 else delta
                out.append(ResolvedDate(phrase, base + timedelta(days=delta), "day"))
            elif unit in ("week", "weekend"):
                monday = base - timedelta(days=base.weekday()) + timedelta(weeks=sign)
                start = monday + timedelta(days=5) if unit == "weekend" else monday
                out.append(ResolvedDate(phrase, start, "week"))
            elif unit == "month":
                y, mo = base.year, base.month + sign
                y, mo = (y - 1, 12) if mo < 1 else ((y + 1, 1) if mo > 12 else (y, mo))
                out.append(ResolvedDate(phrase, date(y, mo, 1), "month"))
            elif unit == "year":
                out.append(ResolvedDate(phrase, date(base.year + sign, 1, 1), "year"))
            else:  # seasons: northern-hemisphere start months, year by direction
                start_month = {"spring": 3, "summer": 6, "winter": 12}[unit]
                year = base.year + (sign if sign else 0)
                out.append(ResolvedDate(phrase, date(year, start_month, 1), "month"))
        elif m.group("num"):
            raw = m.group("num").lower()
            if raw.startswith("a ") and raw != "a ":  # "a couple of", "a few"
                raw = raw[2:]
            n = int(raw) if raw.isdigit() else _NUM_WORDS.get(raw, 1)
            unit = m.group("unit2").lower()
            sign = -1 if m.group("dir2").lower() == "ago" else 1
            try:
                day = base + sign * _span(unit, n)
            except OverflowError:
                continue
            out.append(ResolvedDate(phrase, day, "day" if unit == "day" else unit))
        elif m.group("wd"):
            # "on Friday" in past-tense chat usually means the most recent one; we
            # index the nearest occurrence either side, which both match by week.
            delta = WEEKDAYS.index(m.group("wd").lower()) - base.weekday()
            out.append(ResolvedDate(phrase, base + timedelta(days=delta), "day"))
    return out


def date_terms(dt: date | datetime, granularity: str = "day") -> list[str]:
    """Keyword-index terms for a date: ISO, month name, year, weekday (as granularity allows)."""
    d = dt.date() if isinstance(dt, datetime) else dt
    terms = [str(d.year), MONTHS[d.month - 1]]
    if granularity in ("day", "week"):
        terms += [d.isoformat(), f"{MONTHS[d.month - 1]} {d.day}", str(d.day)]
    if granularity == "day":
        terms.append(WEEKDAYS[d.weekday()])
    return terms


def index_dates(text: str, event_at: datetime | None) -> tuple[str, list[dict[str, str]]]:
    """The ``date_terms`` column and metadata entries for a memory.

    Includes the event date itself (so date questions match undated text) and every
    relative phrase resolved against it.
    """
    terms: list[str] = []
    resolved: list[dict[str, str]] = []
    if event_at is not None:
        terms += date_terms(event_at)
        for r in resolve_relative(text, event_at):
            terms += date_terms(r.day, r.granularity)
            resolved.append({"phrase": r.phrase, "date": r.day.isoformat(), "granularity": r.granularity})
    uniq = list(dict.fromkeys(terms))  # first occurrence of each, in order
    return " ".join(uniq), resolved


_MONTH_NAMES = "|".join([m.capitalize() for m in MONTHS] + [m[:3].capitalize() for m in MONTHS] + ["Sept"])
_ORD = r"(?:st|nd|rd|th)?"
_QUERY_DATE_RES = (  # most specific first; each match is masked before the next pattern runs
    ("day", re.compile(rf"\b(?P<d>\d{{1,2}}){_ORD}\s+(?:of\s+)?(?P<m>{_MONTH_NAMES})\.?,?\s*(?P<y>\d{{4}})\b")),
    ("day", re.compile(rf"\b(?P<m>{_MONTH_NAMES})\.?\s+(?P<d>\d{{1,2}}){_ORD}\s*,?\s*(?P<y>\d{{4}})\b")),
    ("day", re.compile(r"\b(?P<y>\d{4})-(?P<mn>\d{2})-(?P<d>\d{2})\b")),
    ("month", re.compile(rf"\b(?P<m>{_MONTH_NAMES})\.?,?\s+(?P<y>\d{{4}})\b")),
    ("year", re.compile(r"\b(?P<y>(?:19|20)\d{2})\b")),
)


@dataclass(frozen=True)
class DateSpan:
    """A calendar period named in a query: [start, end] inclusive."""

    start: date
    end: date
    granularity: str  # day | month | year

    def contains(self, d: date) -> bool:
        return self.start <= d <= self.end

    def overlaps(self, start: date, end: date) -> bool:
        return start <= self.end and self.start <= end


def _month_num(name: str) -> int:
    return _MONTH_ABBR[name[:4].lower() if name.lower().startswith("sept") else name[:3].lower()]


def query_dates(text: str) -> list[DateSpan]:
    """Explicit calendar dates in a question: "on 16 November, 2023", "in May 2023", "in 2024".

    Only absolute dates (a relative "last summer" would need the asker's now, which a
    recall over old conversations does not have). Month names must be capitalised, so
    the verb "may" is not May.

    >>> [(s.start.isoformat(), s.granularity) for s in query_dates("What did Tim say on 8th December, 2023?")]
    [('2023-12-08', 'day')]
    """
    spans: list[DateSpan] = []
    rest = text
    for gran, rx in _QUERY_DATE_RES:
        for m in rx.finditer(rest):
            g = m.groupdict()
            try:
                y = int(g["y"])
                if gran == "year":
                    spans.append(DateSpan(date(y, 1, 1), date(y, 12, 31), "year"))
                    continue
                mo = int(g["mn"]) if g.get("mn") else _month_num(g["m"])
                if gran == "month":
                    nxt = date(y + (mo == 12), mo % 12 + 1, 1)
                    spans.append(DateSpan(date(y, mo, 1), nxt - timedelta(days=1), "month"))
                else:
                    d = date(y, mo, int(g["d"]))
                    spans.append(DateSpan(d, d, "day"))
            except (ValueError, KeyError):
                continue
        rest = rx.sub(lambda mm: " " * len(mm.group(0)), rest)
    return spans
