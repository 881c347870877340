"""times1: the cases of bench/data/times1_cases.md, through real subprocesses of ``mem.py`` (hash embedder), each
in the user's zone (``TZ``): imported chats and stored notes filtered by the user's days, and the brief's "today",
"tomorrow", "in N days" and weekday names on the user's clock (memengine/timekind.py). Written before the fix; on
main f44ba96 the cases marked so in the table fail.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli_subprocess

LA, TOKYO, NY = "America/Los_Angeles", "Asia/Tokyo", "America/New_York"

WHATSAPP_NEW_YEAR = """12/31/20, 11:50 PM - Ana: Almost midnight here
1/1/21, 12:05 AM - Ana: Happy new year!! fireworks everywhere
1/1/21, 7:59 AM - Ben: Morning after the fireworks
1/1/21, 8:30 AM - Ana: Brunch at ten?
"""


def _mem(db: Path, tz: str, *args: str) -> Any:
    proc = run_cli_subprocess("--db", str(db), "--json", *args, env={"MEM_EMBEDDER": "hash", "TZ": tz})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])["data"]


def _listed(db: Path, tz: str, *flags: str) -> list[str]:
    """The single turns and notes ``list`` gives (a chat's episodes, several turns in one, left out)."""
    rows = _mem(db, tz, "list", "--limit", "100", *flags)["memories"]
    return sorted(r["content"] for r in rows if "\n" not in r["content"])


def _imported(tmp_path: Path, tz: str, text: str, name: str = "wa.txt") -> Path:
    db = tmp_path / "m.db"
    chat = tmp_path / name
    chat.write_text(text, encoding="utf-8")
    _mem(db, tz, "import", str(chat))
    return db


NEW_YEAR = ["Ana: Brunch at ten?", "Ana: Happy new year!! fireworks everywhere", "Ben: Morning after the fireworks"]


def test_whatsapp_new_year_west_of_utc_is_in_2021(tmp_path: Path) -> None:
    db = _imported(tmp_path, LA, WHATSAPP_NEW_YEAR)
    assert _listed(db, LA, "--since", "2021") == NEW_YEAR
    assert _listed(db, LA, "--until", "2020") == ["Ana: Almost midnight here"]
    assert _listed(db, LA, "--since", "2021-01-01", "--until", "2021-01-01") == NEW_YEAR
    found = _mem(db, LA, "recall", "fireworks new year", "--since", "2021")["results"]
    assert {r["content"] for r in found if "\n" not in r["content"]} >= {NEW_YEAR[1], NEW_YEAR[2]}


def test_whatsapp_new_year_east_of_utc_is_in_2021(tmp_path: Path) -> None:
    db = _imported(tmp_path, TOKYO, WHATSAPP_NEW_YEAR)
    assert _listed(db, TOKYO, "--since", "2021") == NEW_YEAR
    assert _listed(db, TOKYO, "--until", "2020") == ["Ana: Almost midnight here"]


def test_whatsapp_dst_edges_are_on_their_day(tmp_path: Path) -> None:
    # 2:30 AM on 14 March 2021 never showed on a New York clock; 1:30 AM on 7 November showed twice
    db = _imported(tmp_path, NY, "3/14/21, 2:30 AM - Ana: clocks jumped, still up\n"
                                 "3/14/21, 9:00 AM - Ben: slept through it\n"
                                 "11/7/21, 1:30 AM - Ana: the extra hour again\n"
                                 "11/7/21, 11:00 PM - Ben: night\n")
    assert _listed(db, NY, "--since", "2021-03-14", "--until", "2021-03-14") == [
        "Ana: clocks jumped, still up", "Ben: slept through it"]
    assert _listed(db, NY, "--since", "2021-11-07", "--until", "2021-11-07") == [
        "Ana: the extra hour again", "Ben: night"]
    assert _listed(db, NY, "--until", "2021-03-13") == []


def test_store_at_a_moment_stays_a_moment(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    _mem(db, LA, "store", "New year toast with the neighbours", "--type", "episodic", "--at", "2021-01-01 00:05")
    assert _listed(db, LA, "--since", "2021") == ["New year toast with the neighbours"]
    assert _listed(db, LA, "--until", "2020") == []
    assert _listed(db, TOKYO, "--since", "2021-01-01", "--until", "2021-01-01") == [
        "New year toast with the neighbours"]  # 08:05 UTC is 17:05 in Tokyo: the same day there


@pytest.mark.parametrize("tz", [LA, TOKYO])
def test_store_at_a_bare_day_keeps_its_day(tmp_path: Path, tz: str) -> None:
    db = tmp_path / "m.db"
    _mem(db, tz, "store", "Flew to Rome", "--type", "episodic", "--at", "2021-03-01")
    assert _listed(db, tz, "--since", "2021-03-01", "--until", "2021-03-01") == ["Flew to Rome"]
    assert _listed(db, tz, "--until", "2021-02-28") == []
    assert _listed(db, tz, "--since", "2021-03-02") == []


def test_chatgpt_epoch_times_are_moments(tmp_path: Path) -> None:
    # 2021-01-01T05:00Z: 21:00 on New Year's Eve in Los Angeles
    node = {"id": "u1", "parent": "root", "children": [], "message": {
        "id": "u1", "author": {"role": "user", "name": None}, "create_time": 1609477200.0,
        "content": {"content_type": "text", "parts": ["What time do the fireworks start tonight?"]},
        "metadata": {}}}
    conv = [{"id": "c1", "title": "Fireworks", "create_time": 1609477200.0, "update_time": 1609477200.0,
             "current_node": "u1", "mapping": {"root": {"id": "root", "parent": None, "children": ["u1"],
                                                        "message": None}, "u1": node}}]
    db = _imported(tmp_path, LA, json.dumps(conv), "conversations.json")
    assert _listed(db, LA, "--until", "2020") == ["User: What time do the fireworks start tonight?"]
    assert _listed(db, LA, "--since", "2021") == []


def test_telegram_unixtime_is_a_moment(tmp_path: Path) -> None:
    # "date" is the exporter's wall clock, "date_unixtime" the moment: 2020-12-31T15:30Z, 00:30 in Tokyo
    export = {"name": "Ana", "type": "personal_chat", "id": 1, "messages": [
        {"id": 1, "type": "message", "date": "2021-01-01T00:30:00", "date_unixtime": "1609428600",
         "from": "Ana", "from_id": "user1", "text": "Happy new year from Tokyo"}]}
    db = _imported(tmp_path, TOKYO, json.dumps(export), "result.json")
    assert _listed(db, TOKYO, "--since", "2021") == ["Ana: Happy new year from Tokyo"]
    assert _listed(db, LA, "--since", "2021") == []  # 07:30 on 31 December in Los Angeles


def _upcoming(db: Path, tz: str, now: str) -> list[str]:
    brief = _mem(db, tz, "brief", "--now", now)
    return [i["text"] for i in brief["sections"]["upcoming"]]


def test_brief_auckland_early_monday(tmp_path: Path) -> None:
    """users33 finding 5: Monday 30 November 03:22 in Auckland (Sunday 14:22 UTC)."""
    db, tz = tmp_path / "m.db", "Pacific/Auckland"
    _mem(db, tz, "store", "Dentist appointment tomorrow at 9am with Dr. Okoro", "--type", "episodic",
         "--at", "2026-11-30 03:22")
    _mem(db, tz, "store", "Flight to Lisbon on December 3 at 7:40", "--type", "episodic", "--at", "2026-11-30 03:23")
    assert _upcoming(db, tz, "2026-11-30 03:30") == [
        "2026-11-30 #1 Dentist appointment tomorrow at 9am with Dr. Okoro (→ 2026-12-01, tomorrow)",
        "2026-11-30 #2 Flight to Lisbon on December 3 at 7:40 (→ 2026-12-03, in 3 days)"]


def test_brief_los_angeles_sunday_evening(tmp_path: Path) -> None:
    """Sunday 29 November 20:00 in Los Angeles is Monday 04:00 UTC."""
    db = tmp_path / "m.db"
    _mem(db, LA, "store", "Call the plumber tomorrow morning", "--type", "episodic", "--at", "2026-11-29 19:00")
    _mem(db, LA, "store", "Dinner with Sam on Tuesday", "--type", "episodic", "--at", "2026-11-29 19:05")
    assert _upcoming(db, LA, "2026-11-29 20:00") == [
        "2026-11-29 #1 Call the plumber tomorrow morning (→ 2026-11-30, tomorrow)",
        "2026-11-29 #2 Dinner with Sam on Tuesday (→ 2026-12-01, in 2 days)"]


def test_brief_berlin_just_after_midnight(tmp_path: Path) -> None:
    db, tz = tmp_path / "m.db", "Europe/Berlin"
    _mem(db, tz, "store", "Pay the rent tomorrow", "--type", "episodic", "--at", "2026-11-30 00:20")
    assert _upcoming(db, tz, "2026-11-30 00:30") == ["2026-11-30 #1 Pay the rent tomorrow (→ 2026-12-01, tomorrow)"]
    assert _upcoming(db, tz, "2026-12-01 00:30") == ["2026-11-30 #1 Pay the rent tomorrow (→ 2026-12-01, today)"]


def test_brief_imported_chat_late_evening_west(tmp_path: Path) -> None:
    """A WhatsApp turn at 23:30 (the chat's wall clock), read at 23:45 the same evening in Los Angeles."""
    db = _imported(tmp_path, LA, "12/1/26, 11:20 PM - Ben: are we still on?\n"
                                 "12/1/26, 11:30 PM - Ana: Dentist tomorrow at 9, then lunch at Rosa's\n")
    got = _upcoming(db, LA, "2026-12-01 23:45")
    assert got == ["2026-12-01 #2 Ana: Dentist tomorrow at 9, then lunch at Rosa's (→ 2026-12-02, tomorrow)"]


def test_brief_across_the_dst_change(tmp_path: Path) -> None:
    """US clocks fell back on Sunday 1 November 2026: 23:30 that night is Monday 07:30 UTC."""
    db = tmp_path / "m.db"
    _mem(db, LA, "store", "Flight to Denver on November 3", "--type", "episodic", "--at", "2026-10-31 23:00")
    assert _upcoming(db, LA, "2026-11-01 23:30") == [
        "2026-10-31 #1 Flight to Denver on November 3 (→ 2026-11-03, in 2 days)"]


def test_brief_in_utc_reads_as_before(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    _mem(db, "UTC", "store", "Dentist appointment tomorrow at 9am", "--type", "episodic", "--at", "2026-11-29 14:22")
    assert _upcoming(db, "UTC", "2026-11-29 15:00") == [
        "2026-11-29 #1 Dentist appointment tomorrow at 9am (→ 2026-11-30, tomorrow)"]
