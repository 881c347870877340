"""memengine/timekind.py in process: the user's clock is the C library's zone (TZ), the one SQLite's 'localtime'
uses; the two agree across DST changes, and with the zone UTC every function is the identity and the SQL the text
before m016."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from datetime import date, datetime

import pytest

from memengine import timekind
from memengine.db import connect


@pytest.fixture
def zone() -> Iterator[object]:
    before = os.environ.get("TZ")

    def set_zone(tz: str) -> None:
        os.environ["TZ"] = tz
        time.tzset()

    yield set_zone
    if before is None:
        os.environ.pop("TZ", None)
    else:
        os.environ["TZ"] = before
    time.tzset()


def test_utc_is_the_identity(zone) -> None:
    zone("UTC")
    assert timekind.zone_is_utc()
    at = datetime(2021, 1, 1, 8, 5)
    assert timekind.to_user(at) == at and timekind.from_user(at) == at
    assert timekind.when_sql("m") == "coalesce(m.event_at, m.created_at)"
    assert timekind.bound_sql("m", ">=", at) == ("coalesce(m.event_at, m.created_at) >= ?", ["2021-01-01T08:05:00"])


def test_a_zone_with_summer_time_is_not_utc(zone) -> None:
    zone("Europe/London")  # UTC in winter only
    assert not timekind.zone_is_utc()
    assert timekind.to_user(datetime(2021, 7, 1, 12, 0)) == datetime(2021, 7, 1, 13, 0)


def test_each_kind_on_the_users_clock(zone) -> None:
    zone("America/Los_Angeles")
    assert timekind.user_clock("2021-01-01T08:05:00", "utc") == datetime(2021, 1, 1, 0, 5)
    assert timekind.user_day("2021-01-01T05:00:00", "utc") == date(2020, 12, 31)
    assert timekind.user_day("2021-01-01T00:05:00", "floating") == date(2021, 1, 1)
    assert timekind.user_day("2021-03-01T00:00:00", "day") == date(2021, 3, 1)
    assert timekind.today(datetime(2026, 11, 30, 4, 0)) == date(2026, 11, 29)  # Sunday 20:00 there
    assert timekind.from_user(datetime(2021, 1, 1, 0, 5)) == datetime(2021, 1, 1, 8, 5)


def test_bounds_per_kind(zone) -> None:
    zone("Asia/Tokyo")
    sql, args = timekind.bound_sql("m", ">=", datetime(2020, 12, 31, 15, 0))  # 1 January 00:00 in Tokyo
    assert args == ["2020-12-31T15:00:00", "2020-12-31T15:00:00", "2021-01-01T00:00:00"]
    assert "m.time_kind = 'utc'" in sql
    sql, args = timekind.bound_sql("m", "<=", datetime(2020, 12, 31, 14, 59, 59))
    assert args == ["2020-12-31T23:59:59", "2020-12-31T14:59:59", "2020-12-31T23:59:59"]
    with pytest.raises(ValueError):
        timekind.bound_sql("m", "<", datetime(2021, 1, 1))


@pytest.mark.parametrize("tz", ["America/New_York", "Pacific/Auckland", "Asia/Kolkata", "Europe/Berlin"])
def test_sqlite_localtime_agrees_with_python_across_dst(zone, tz: str, tmp_path) -> None:
    zone(tz)
    conn = connect(tmp_path / "t.db")
    conn.execute("CREATE TABLE m (event_at TEXT, created_at TEXT, time_kind TEXT)")
    instants = [f"2021-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:00" for mo in (3, 4, 9, 10, 11) for d in (7, 14, 28, 31)
                if not (mo in (4, 9, 11) and d == 31) for h in (0, 1, 2, 6, 13, 23) for mi in (0, 30)]
    conn.executemany("INSERT INTO m VALUES (?, '2020-01-01T00:00:00', 'utc')", [(i,) for i in instants])
    conn.execute("INSERT INTO m VALUES ('2021-03-14T02:30:00', '2020-01-01T00:00:00', 'floating')")
    got = [r[0] for r in conn.execute(f"SELECT {timekind.when_sql('m')} FROM m")]
    want = [timekind.user_clock(i, "utc").strftime("%Y-%m-%dT%H:%M:%S") for i in instants] + ["2021-03-14T02:30:00"]
    assert got == want
