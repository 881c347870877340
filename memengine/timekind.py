"""Kinds of time: one moment read one way, a user's day read on the user's clock.

A row's time is ``coalesce(event_at, created_at)``, and ``time_kind`` (migration m016) says what ``event_at`` holds:

* ``utc`` — a moment in UTC: ``created_at`` always; ``store --at "2021-01-01 00:05"`` (read on the user's clock and
  converted); an export that carries a zone (ChatGPT's and Claude's epoch seconds, Telegram's ``date_unixtime``);
* ``floating`` — a wall clock as a zone-less chat export wrote it (WhatsApp's ``1/1/21, 12:05 AM``): the clock
  on the wall where it was said, which this module takes for the user's clock (no zone to convert from);
* ``day`` — a bare day (``store --at 2025-03-01``): no instant, its day as written.

The user's clock is the process's local zone (``TZ``, else the system's): what ``--at``/``--since``/``--until`` are
read on (memengine/cli/dates.py). Here a row's time becomes the user's wall clock (:func:`user_clock`,
:func:`when_sql`) and its day; a user's bound (a UTC moment, as the CLI hands it) becomes the comparison each kind
needs (:func:`bound_sql`); and "today" is the user's day of the brief's clock (:func:`today`). When the user's zone
is UTC all year, every function is the identity and the SQL is what it was before m016 (same plans, same results).
"""

from __future__ import annotations

import time
from datetime import date, datetime, timezone
from typing import Any

UTC = "utc"
FLOATING = "floating"
DAY = "day"
KINDS = (UTC, FLOATING, DAY)
_ISO = "%Y-%m-%dT%H:%M:%S"  # memengine.timeparse.ISO_FMT (the stored form)


def zone_is_utc() -> bool:
    """Whether the user's clock is UTC all year (``TZ`` unset on a UTC machine, ``TZ=UTC``): then nothing converts.

    Read from the C library's zone (``time.tzset`` keeps it current), the one SQLite's ``'localtime'`` uses."""
    return time.timezone == 0 and time.altzone == 0


def to_user(utc: datetime) -> datetime:
    """A naive UTC moment as the user's naive wall clock."""
    if zone_is_utc():
        return utc
    return utc.replace(tzinfo=timezone.utc).astimezone().replace(tzinfo=None)


def from_user(local: datetime) -> datetime:
    """The user's naive wall clock as a naive UTC moment (a time the clock skipped reads as the hour before's)."""
    if zone_is_utc():
        return local
    return local.astimezone(timezone.utc).replace(tzinfo=None)


def user_clock(when: str | datetime, kind: str | None) -> datetime:
    """A row's time (stored text or datetime) as the user's wall clock: a UTC moment converted, a floating wall
    clock or a bare day as written."""
    at = when if isinstance(when, datetime) else datetime.fromisoformat(str(when)[:19])
    return to_user(at) if (kind or UTC) == UTC else at


def user_day(when: str | datetime, kind: str | None) -> date:
    """The user's day of a row's time (:func:`user_clock`'s date)."""
    return user_clock(when, kind).date()


def today(now: datetime) -> date:
    """The user's day at ``now`` (naive UTC, the brief's clock).

    The brief cache's clock (memengine/briefcache.py) answers ``user_date`` itself, noting the read as a day's."""
    own = getattr(type(now), "user_date", None)  # (on the type: the clock notes every attribute read on it)
    if own is not None:
        return own(now)  # type: ignore[no-any-return]
    return to_user(now).date()


def written(event_at: datetime | None, given: str | None = None) -> str:
    """The kind a write stores: none or an aware time is ``utc`` (converted to UTC on the way in); a naive time is
    the ``given`` kind (importers: ``floating``; ``store --at`` a bare day: ``day``), else ``utc`` as before m016."""
    if event_at is None or event_at.tzinfo is not None:
        return UTC
    if given is not None and given not in KINDS:
        raise ValueError(f"time kind must be one of {', '.join(KINDS)} (got {given!r})")
    return given or UTC


def when_sql(alias: str = "m") -> str:
    """SQL for a row's time on the user's clock, in the stored form (``YYYY-MM-DDTHH:MM:SS``): a UTC moment
    through SQLite's ``'localtime'`` (the C library's zone, as :func:`to_user`), the other kinds as written.
    In a SELECT list only: an ORDER BY or WHERE on it would not use the indexes on the stored times."""
    a = f"{alias}." if alias else ""
    plain = f"coalesce({a}event_at, {a}created_at)"
    if zone_is_utc():
        return plain
    return f"CASE WHEN {a}time_kind = 'utc' THEN strftime('{_ISO}', {plain}, 'localtime') ELSE {a}event_at END"


def bound_sql(alias: str, op: str, bound: datetime) -> tuple[str, list[Any]]:
    """The filter ``row time <op> bound`` (``op``: ``>=`` or ``<=``) for ``bound`` a UTC moment on the user's clock
    (what memengine/cli/dates.py hands ``--since``/``--until``): a UTC row against the moment, a floating or a day
    row against the user's wall clock at it, so a WhatsApp message at 00:05 on New Year's Day is in ``--since 2021``
    wherever the user is.

    The first clause is the one before m016, widened to the earlier (``>=``) or later (``<=``) of the two bounds:
    it keeps the index on ``coalesce(event_at, created_at)``; the second decides each row by its kind."""
    if op not in (">=", "<="):
        raise ValueError(f"op must be >= or <= (got {op!r})")
    plain = f"coalesce({alias}.event_at, {alias}.created_at)"
    if bound.tzinfo is not None:
        bound = bound.astimezone(timezone.utc).replace(tzinfo=None)
    utc = bound.strftime(_ISO)
    if zone_is_utc():
        return f"{plain} {op} ?", [utc]
    local = to_user(bound).strftime(_ISO)
    wide = min(utc, local) if op == ">=" else max(utc, local)
    return (f"{plain} {op} ? AND (CASE WHEN {alias}.time_kind = 'utc' THEN {plain} {op} ? "
            f"ELSE {alias}.event_at {op} ? END)", [wide, utc, local])
