"""users25 findings 2, 3, 4 and 8: the CLI's date options as a person types them (memengine/cli/dates.py).

* ``--until 2025-06-05`` ends with 5 June, not at its first second; a year, a quarter, a month alone name
  the period (``--since 2025`` was "from 28 November 2025", today's month and day);
* a dotted date is day first (``5.6.2025`` read 6 May);
* a phrase is read on the user's clock and compared with times stored in UTC: in Tokyo ``--since "1 hour ago"``
  found nothing stored a minute ago.

Real subprocesses on real files; the time zone is the subprocess's ``TZ``; no clock is asserted."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import run_cli_subprocess


def _ok(*args: str, tz: str = "UTC") -> dict:
    # (the module's fixture runs before conftest's autouse one names the test embedder: named here for all)
    proc = run_cli_subprocess(*args, env={"TZ": tz, "MEM_EMBEDDER": os.environ.get("MEM_TEST_EMBEDDER", "hash")})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout)["data"]


@pytest.fixture(scope="module")
def dated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four events around June 2025 and the turn of the year."""
    db = tmp_path_factory.mktemp("dates") / "m.db"
    for text, at in (("Kayak trip on the Dordogne", "2024-12-31 22:00"), ("Kayak rental paid back", "2025-06-05 14:30"),
                     ("Kayak club summer meeting", "2025-06-06 09:00"), ("Kayak sold to Ines", "2026-01-01 08:00")):
        _ok("--db", str(db), "store", text, "--type", "episodic", "--at", at)
    return db


def _found(db: Path, *window: str) -> list[str]:
    rows = _ok("--db", str(db), "recall", "kayak", "-k", "10", "--no-touch", *window)["results"]
    return sorted(r["content"] for r in rows)


def test_until_a_day_keeps_that_day(dated: Path) -> None:
    assert _found(dated, "--since", "2025-06-05", "--until", "2025-06-05") == ["Kayak rental paid back"]
    assert _found(dated, "--until", "5.6.2025") == ["Kayak rental paid back", "Kayak trip on the Dordogne"]


@pytest.mark.parametrize(("since", "until", "expected"), [
    ("2025", "2025", ["Kayak club summer meeting", "Kayak rental paid back"]),
    ("Q2 2025", "Q2 2025", ["Kayak club summer meeting", "Kayak rental paid back"]),
    ("June 2025", "2025-06", ["Kayak club summer meeting", "Kayak rental paid back"]),
    ("2024", "2024", ["Kayak trip on the Dordogne"]),
    ("2025-q3", "2026", ["Kayak sold to Ines"]),
])
def test_a_year_a_quarter_a_month_alone_are_the_period(dated: Path, since: str, until: str,
                                                        expected: list[str]) -> None:
    assert _found(dated, "--since", since, "--until", until) == expected


def test_a_dotted_date_is_day_first_and_a_wrong_one_is_one_line(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    mid = _ok("--db", db, "store", "Dentist appointment kept", "--at", "5.6.2025")["id"]
    assert _ok("--db", db, "get", str(mid))["event_at"] == "2025-06-05T00:00:00"
    assert _ok("--db", db, "store", "Year alone", "--at", "2025")["id"] != mid
    proc = run_cli_subprocess("--db", db, "store", "x", "--at", "32.1.2025")
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["error"]["message"] == ("--at: '32.1.2025' is no day "
                                                          "(a dotted date is day.month.year)")


@pytest.mark.parametrize("tz", ["Asia/Tokyo", "America/New_York"])
def test_a_relative_phrase_is_read_on_the_users_clock(tmp_path: Path, tz: str) -> None:
    db = str(tmp_path / "m.db")
    mid = _ok("--db", db, "store", "The parcel locker code is 4471", tz=tz)["id"]
    for window in (("--since", "1 hour ago"), ("--since", "today"), ("--since", "yesterday", "--until", "now")):
        rows = _ok("--db", db, "recall", "parcel locker code", "--no-touch", *window, tz=tz)["results"]
        assert [r["id"] for r in rows] == [mid], window
    # a bare day given to --at keeps its day wherever the user is
    day = _ok("--db", db, "store", "Flew to Rome", "--type", "episodic", "--at", "2025-03-01", tz=tz)["id"]
    assert _ok("--db", db, "get", str(day), tz=tz)["event_at"] == "2025-03-01T00:00:00"
