"""The CLI's date options (``--at``, ``--since``, ``--until``, ``--as-of``): what a person types, as the stored times.

Two things the phrase parser (memengine/timeparse.py) cannot know, because they depend on the option:

* **A date names a period.** ``--until 2025-06-05`` means "to the end of 5 June" (``--help``: "at or before this
  date"), ``--since 2025`` "from 1 January 2025", ``--until Q3 2025`` "to 30 September". A day, a month
  (``2025-06``, ``June 2025``), a quarter and a year given alone are read as the period they name: ``--until`` takes
  its last second, the others its first. (Before, ``--until 2025-06-05`` left out 5 June after midnight, and a year
  alone read as today's month and day in that year.) A dotted date is day first (``5.6.2025`` is 5 June).
* **Stored times are UTC** (``created_at``, and what ``--at`` with an offset is converted to), but a phrase is
  read on the user's clock: "1 hour ago" in Tokyo is nine hours away from the same instant in UTC. Every value is
  read in local time and converted to UTC, so ``--since "1 hour ago"`` finds what was stored a minute ago
  wherever the user is; a bare day given to ``--at`` ("Flew to Rome" ``--at 2025-03-01``) keeps its day (it
  names no instant, and converted it would show as the day before east of UTC).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

from memengine import timeparse

_MONTHS = {m[:3]: i + 1 for i, m in enumerate(timeparse.MONTHS)}
_YEAR = re.compile(r"\s*(\d{4})\s*")
_QUARTER = re.compile(r"\s*(?:q([1-4])[\s/-]*(\d{4})|(\d{4})[\s/-]*q([1-4]))\s*", re.IGNORECASE)
_ISO_MONTH = re.compile(r"\s*(\d{4})-(\d{1,2})\s*")
_NAMED_MONTH = re.compile(r"\s*([a-z]{3,9})\.?,?\s+(\d{4})\s*|\s*(\d{4})\s+([a-z]{3,9})\s*", re.IGNORECASE)
_DOTTED = re.compile(r"\s*(\d{1,2})\.(\d{1,2})\.(\d{4}|\d{2})\s*")
# a phrase that names a moment, not a day: a clock time, "now", "… ago", "noon"
_INSTANT = re.compile(r"\d:\d|\d\s*[ap]\.?m\b|\b(?:now|ago|noon|midnight|hours?|minutes?|seconds?)\b|\d[tT]\d",
                      re.IGNORECASE)
FILTERS = ("--since", "--until", "--as-of")


def _month(name: str) -> int | None:
    return _MONTHS.get(name[:3].lower()) if name.lower()[:3] in _MONTHS and (
        name.lower() in timeparse.MONTHS or len(name) <= 4) else None


def period(value: str) -> tuple[datetime, datetime] | None:
    """The first and the last second of the calendar period ``value`` names alone (a year, a quarter, a
    month, a dotted day), local time; None for anything else."""
    start: datetime | None = None
    if m := _YEAR.fullmatch(value):
        start, end = datetime(int(m[1]), 1, 1), datetime(int(m[1]) + 1, 1, 1)
    elif m := _QUARTER.fullmatch(value):
        q, y = (int(m[1]), int(m[2])) if m[1] else (int(m[4]), int(m[3]))
        start = datetime(y, 3 * q - 2, 1)
        end = datetime(y + (q == 4), (3 * q) % 12 + 1, 1)
    else:
        ym: tuple[int, int | None] | None = None
        if m := _ISO_MONTH.fullmatch(value):
            ym = int(m[1]), int(m[2])
        elif m := _NAMED_MONTH.fullmatch(value):
            ym = (int(m[2]), _month(m[1])) if m[1] else (int(m[3]), _month(m[4]))
        if ym is not None and ym[1] is not None and 1 <= ym[1] <= 12:
            y, mo = ym[0], ym[1]
            start, end = datetime(y, mo, 1), datetime(y + (mo == 12), mo % 12 + 1, 1)
        elif m := _DOTTED.fullmatch(value):
            year = int(m[3]) + (2000 if len(m[3]) == 2 else 0)
            try:
                start = datetime(year, int(m[2]), int(m[1]))
            except ValueError:
                raise timeparse.DateParseError(f"{value.strip()!r} is no day (a dotted date is day.month.year)") from None
            end = start + timedelta(days=1)
    if start is None:
        return None
    return start, end - timedelta(seconds=1)


def _utc(local: datetime) -> datetime:
    """A naive local time as naive UTC (how times are stored); an aware one converted."""
    return local.astimezone(timezone.utc).replace(tzinfo=None)


def at_kind(value: str) -> str:
    """What ``--at value`` stores (memengine/timekind.py): ``day`` for a day or a period named alone (its first day,
    as written), ``utc`` for a moment (converted to UTC by :func:`parse`). Raises as :func:`parse` does."""
    if period(value) is not None:
        return "day"
    when = timeparse.parse_when(value)
    if when.tzinfo is not None or when.time() != datetime.min.time() or _INSTANT.search(value):
        return "utc"
    return "day"


def parse(value: str, field: str) -> datetime:
    """``value`` given to the option ``field``, as a naive UTC time (module docstring). Raises
    :class:`timeparse.DateParseError` when it is no date."""
    span = period(value)
    if span is None:
        when = timeparse.parse_when(value)
        if when.tzinfo is not None:
            return _utc(when)
        if when.time() != datetime.min.time() or _INSTANT.search(value):
            return _utc(when)  # a moment on the user's clock
        span = (when, when + timedelta(days=1, seconds=-1))  # a day
    start, end = span
    if field not in FILTERS:
        return start  # --at: the period's first day, as written (no instant to convert)
    return _utc(end if field == "--until" else start)
