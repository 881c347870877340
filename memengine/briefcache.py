"""The session-start brief kept in the store between calls: the same reply, without making it again.

A cold ``mem.py brief`` spent ~0.3 s of CPU at 100k memories making a selection that depends only on the
store, the clock, the code and the settings. This module keeps the last brief of each token budget in the
store itself (``_brief_cache``, migration m014) and gives it back, byte for byte, while none of those moved:

* **the store**: ``_mem_version`` is a counter that triggers move with every write to a table the brief
  reads (memengine/migration_sql.py, M014_BRIEF_CACHE_SQL: which tables, and why the others need none).
  WAL keeps no per-transaction change counter a reader could compare, hence triggers. A brief is kept only
  when the counter did not move while it was made (a write of another process meanwhile: not kept), and is
  read back only at the counter it was made at (one statement: one snapshot). A recall moves it (its
  reinforcement writes access counts, which the brief reads); ``stats``, ``get`` and ``brief`` do not.
* **the clock**: the selection is handed a clock (:class:`_Clock`) that notes how it is read. A brief that
  read it otherwise than by its day, by ``now - timedelta`` of whole days (a "since" bound on stored times) or
  by ``now - <a datetime>`` (an age in days) is not kept. A kept brief holds until the UTC or the user's day changes, while no
  stored time of ``memories`` lies between a bound it used and that bound now (else the rows a ``>=`` or ``<``
  on it selects would differ; one scan when it is read back), and while every age it took stays within the
  same whole number of days (the ages are compared with whole days: graph_rank's 7).
* **the code and settings**: the files of every module loaded when it was made (path, size, mtime), the
  model folder's files, the Python version and the ``MEM_*`` settings; any of them changed: made again.

``MEM_BRIEF_CACHE=0`` switches it off. Kept only where the store can be written without waiting (a
read-only file or a held write lock: the brief is made every time, as before).
"""

from __future__ import annotations

import json
import math
import os
import sqlite3
import sys
import time
from collections.abc import Callable
from datetime import date, datetime, timedelta, timezone
from typing import Any

from memengine import db, timekind

# the store's driver (sqlean, whose errors are not the standard module's) and the standard one (a caller's own)
_ERRORS = (db.sqlite3.Error, sqlite3.Error)

ENV = "MEM_BRIEF_CACHE"
_IGNORED_ENV = ("MEM_DB", "MEM_NO_SERVER", ENV)  # (which file, which transport: not what a brief says)
FORMAT = 1
_ISO = "%Y-%m-%dT%H:%M:%S"  # memengine.timeparse.ISO_FMT: the stored times' form (to the second)
_TIME_COLUMNS = ("created_at", "updated_at", "event_at", "valid_from", "valid_to", "last_accessed_at",
                 "decay_ref_at")


def enabled() -> bool:
    """Whether briefs are kept (``MEM_BRIEF_CACHE`` unset or not one of 0/no/off/false)."""
    return os.environ.get(ENV, "1").strip().lower() not in ("0", "no", "off", "false")


_Day = date  # (inside _Clock, ``date`` names its method)


class _Clock(datetime):
    """``now`` for one selection, noting each way it is read (``_clock_reads``): ``("date",)``, ``("minus",
    timedelta)``, ``("age", datetime)``, or ``("other", what)`` for anything else (then nothing is kept)."""

    _clock_reads: list[tuple[Any, ...]]
    _clock_plain: datetime

    @classmethod
    def of(cls, now: datetime) -> _Clock:
        """A clock that reads as ``now`` (naive UTC)."""
        c = cls(now.year, now.month, now.day, now.hour, now.minute, now.second, now.microsecond)
        c._clock_reads = []
        c._clock_plain = now
        return c

    def _note(self, *read: Any) -> None:
        object.__getattribute__(self, "_clock_reads").append(read)

    def __getattribute__(self, name: str) -> Any:
        if not name.startswith(("_clock", "_note")) and name not in ("date", "user_date", "__class__", "__dict__"):
            object.__getattribute__(self, "_clock_reads").append(("other", name))
        return super().__getattribute__(name)

    def date(self) -> date:  # type: ignore[override]
        self._note("date")
        return object.__getattribute__(self, "_clock_plain").date()  # type: ignore[no-any-return]

    def user_date(self) -> _Day:
        """The user's day at this clock (memengine.timekind.today reads it so): a read by the day, as ``date``."""
        self._note("date")
        return timekind.to_user(object.__getattribute__(self, "_clock_plain")).date()

    def __sub__(self, other: Any) -> Any:
        plain = object.__getattribute__(self, "_clock_plain")
        if isinstance(other, timedelta):
            self._note("minus", other)
        elif isinstance(other, datetime):
            self._note("age", other)
        else:
            self._note("other", "-")
        return plain - other

    def _other(self, what: str) -> datetime:
        self._note("other", what)
        return object.__getattribute__(self, "_clock_plain")  # type: ignore[no-any-return]

    def __rsub__(self, other: Any) -> Any:
        return other - self._other("rsub")

    def __add__(self, other: Any) -> Any:
        return self._other("add") + other

    __radd__ = __add__

    def __lt__(self, other: Any) -> bool:
        return self._other("compare") < other  # type: ignore[no-any-return]

    def __le__(self, other: Any) -> bool:
        return self._other("compare") <= other  # type: ignore[no-any-return]

    def __gt__(self, other: Any) -> bool:
        return self._other("compare") > other  # type: ignore[no-any-return]

    def __ge__(self, other: Any) -> bool:
        return self._other("compare") >= other  # type: ignore[no-any-return]

    def __eq__(self, other: object) -> bool:
        return self._other("compare") == other

    def __ne__(self, other: object) -> bool:
        return self._other("compare") != other

    def __hash__(self) -> int:
        return hash(self._other("hash"))

    def __str__(self) -> str:
        return str(self._other("str"))

    def __repr__(self) -> str:
        return repr(self._other("repr"))

    def __format__(self, spec: str) -> str:
        return format(self._other("format"), spec)

    def __reduce__(self) -> Any:
        return self._other("reduce").__reduce__()


def _utcnow() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


def _day(now: datetime) -> str:
    """What a kept brief holds for: the UTC day and the user's, in the user's zone (a brief made in Auckland names
    other days than one made in Lisbon at the same moment: memengine/timekind.py)."""
    return f"{now.date().isoformat()} {timekind.to_user(now).date().isoformat()} {time.tzname} {time.timezone} {time.altzone}"


def _settings() -> dict[str, str]:
    return {k: v for k, v in sorted(os.environ.items()) if k.startswith("MEM_") and k not in _IGNORED_ENV}


def _files() -> list[list[Any]]:
    """[path, size, mtime_ns] of every loaded module's file and of the model folder's files."""
    from memengine.paths import data_file

    paths = {str(getattr(m, "__file__", None) or "") for m in list(sys.modules.values())}
    models = data_file("models")
    if models.is_dir():
        paths.update(str(p) for p in models.iterdir())
    out = []
    for p in sorted(x for x in paths if x):
        try:
            st = os.stat(p)
        except OSError:
            continue
        out.append([p, st.st_size, st.st_mtime_ns])
    return out


def _same_files(files: list[list[Any]]) -> bool:
    for p, size, mtime in files:
        try:
            st = os.stat(p)
        except OSError:
            return False
        if st.st_size != size or st.st_mtime_ns != mtime:
            return False
    return True


def _days(age: timedelta) -> tuple[int, int]:
    x = age.total_seconds() / 86400.0
    return math.floor(x), math.ceil(x)


def _version(conn: Any) -> int | None:
    try:
        row = conn.execute("SELECT n FROM _mem_version").fetchone()
    except _ERRORS:  # a store m014 could not reach (opened read-only before it): nothing kept
        return None
    return None if row is None else int(row[0])


def lookup(conn: Any, budget: int, now: datetime) -> dict[str, Any] | None:
    """The brief of ``budget`` kept at the store's current version, if it still holds at ``now``; else None."""
    try:
        row = conn.execute("SELECT c.entry FROM _brief_cache c JOIN _mem_version v ON c.version = v.n "
                           "WHERE c.budget = ?", (budget,)).fetchone()
    except _ERRORS:
        return None
    if row is None:
        return None
    try:
        entry = json.loads(row[0])
        if entry.get("format") != FORMAT or entry["python"] != sys.version or entry["settings"] != _settings():
            return None
        made = datetime.fromisoformat(entry["made"])
        if now < made or _day(now) != entry["day"]:
            return None
        spans = [((now - timedelta(seconds=seconds)).strftime(_ISO), bound) for seconds, bound in entry["since"]]
        if _crossed(conn, [(bound, later) for later, bound in spans if later != bound]):
            return None
        for at in entry["ages"]:
            then = datetime.fromisoformat(at)
            if _days(now - then) != _days(made - then):
                return None
        if not _same_files(entry["files"]):
            return None
        data: dict[str, Any] = entry["data"]
        return data
    except (ValueError, KeyError, TypeError, OverflowError, *_ERRORS):
        return None


def _crossed(conn: Any, spans: list[tuple[str, str]]) -> bool:
    """Whether a stored time of ``memories`` (any of _TIME_COLUMNS) lies in one of ``spans`` (from, to), both ends
    included: a row a comparison with the bound selected then and not now, or the reverse. One scan, on a hit
    only (~25 ms at 100k memories: created_at has no index; a miss pays nothing for it)."""
    if not spans:
        return False
    terms = " OR ".join(f"{c} BETWEEN ?{2 * i + 1} AND ?{2 * i + 2}" for i in range(len(spans)) for c in _TIME_COLUMNS)
    args = [x for span in spans for x in span]
    return conn.execute(f"SELECT EXISTS (SELECT 1 FROM memories WHERE {terms})", args).fetchone()[0] == 1


def save(conn: Any, budget: int, version: int, clock: _Clock, data: dict[str, Any]) -> bool:
    """Keep ``data`` (the brief of ``budget`` made with ``clock`` at store version ``version``); False when it
    cannot be: the clock read otherwise than the module docstring says, the store moved meanwhile, a write
    lock held elsewhere, a read-only file. Never raises for the store's sake (only a cache)."""
    reads = object.__getattribute__(clock, "_clock_reads")
    made: datetime = object.__getattribute__(clock, "_clock_plain")
    if any(r[0] == "other" for r in reads):
        return False
    spans = sorted({r[1] for r in reads if r[0] == "minus"})
    if any(s.seconds or s.microseconds for s in spans):
        return False  # (a bound of whole days moves its day with the clock's: the day check covers it; another not)
    ages = sorted({r[1].isoformat() for r in reads if r[0] == "age"})
    try:
        text = json.dumps({"format": FORMAT, "made": made.isoformat(), "day": _day(made),
                           "since": [[s.total_seconds(), (made - s).strftime(_ISO)] for s in spans], "ages": ages,
                           "python": sys.version, "settings": _settings(), "files": _files(), "data": data},
                          ensure_ascii=False, default=str)
    except (ValueError, TypeError, OverflowError, *_ERRORS):
        return False
    try:
        timeout = conn.execute("PRAGMA busy_timeout").fetchone()[0]
    except _ERRORS:
        return False
    began = False
    try:
        conn.execute("PRAGMA busy_timeout = 0")  # (a writer elsewhere: skip, never wait for a cache)
        conn.execute("BEGIN IMMEDIATE")
        began = True
        if _version(conn) != version:
            conn.execute("ROLLBACK")
            return False
        conn.execute("DELETE FROM _brief_cache WHERE version != ?", (version,))
        conn.execute("INSERT OR REPLACE INTO _brief_cache(budget, version, entry) VALUES (?, ?, ?)",
                     (budget, version, text))
        conn.execute("COMMIT")
        return True
    except _ERRORS:
        if began:
            try:
                conn.execute("ROLLBACK")
            except _ERRORS:
                pass
        return False
    finally:
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(timeout)}")
        except _ERRORS:
            pass


def brief(conn: Any, budget: int, make: Callable[[datetime], dict[str, Any]]) -> dict[str, Any]:
    """The brief of ``budget``: the kept one when it still holds (module docstring), else ``make(now)``,
    kept for the next call. ``make`` is the selection (graph_rank.brief) given the clock as ``now``."""
    now = _utcnow()
    if not enabled():
        return make(now)
    kept = lookup(conn, budget, now)
    if kept is not None:
        return kept
    version = _version(conn)
    clock = _Clock.of(now)
    data = make(clock)
    if version is not None and _version(conn) == version:
        save(conn, budget, version, clock, data)
    return data
