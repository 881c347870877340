"""A plan said again in one conversation is one line of "Coming up" (lead, session 7): "they're offering June 18",
"ok June 18 then" and "the barn confirmed Friday June 18 in writing" were three lines; a bare "ok June 18 then"
is none now, one event named again the same day is one; two events of one day, or a reply about that day, stay. End to end: a WhatsApp export imported into a real SQLite store
(the real model: the decision reads the plans' cosines), consolidated, briefed."""
from __future__ import annotations

from datetime import datetime
from pathlib import Path

import memory_core as core
from memengine import brief_upcoming, consolidate, graph_rank, ingest


def _shown(tmp_path: Path, turns: list[tuple[str, str, str]], now: datetime) -> list[str]:
    """``(mm/dd/yy, h:mm AM, author, text)`` turns imported as a US WhatsApp export, consolidated, briefed at
    ``now``: the texts "Coming up" shows, in its order."""
    path = tmp_path / "chat.txt"
    path.write_text("".join(f"{when} - {who}: {text}\n" for when, who, text in turns), encoding="utf-8")
    store = core.MemoryStore(tmp_path / "mem.db")
    try:
        ingest.import_path(store, path, "whatsapp")
        consolidate.run(store, phases=[p for p in consolidate.ALL_PHASES if p != "decay"], now=now, keep_backups=0)
        text = {int(i): str(c) for i, c in store.conn.execute("SELECT id, content FROM memories")}
        up = graph_rank.brief(store, 2000, now=now)["sections"]["upcoming"]
        return [text[int(u["id"])].split(": ", 1)[1] for u in up]
    finally:
        store.close()


WEDDING = [("8/8/26, 4:50 PM", "Renee", "I'll ask the barn for Friday June 11 2027 and hold it"),
           ("8/8/26, 4:52 PM", "Alex", "perfect"),
           ("8/20/26, 6:02 PM", "Jordan", "florist wants a deposit by Friday"),
           ("10/14/26, 9:00 AM", "Renee", "bad news: Willow Creek double booked June 11. They're offering June 18 "
                                           "at the same rate or a refund"),
           ("10/14/26, 9:02 AM", "Alex", "WHAT"),
           ("10/14/26, 9:20 AM", "Alex", "she says yes. ok June 18 then"),
           ("10/14/26, 9:25 PM", "Renee", "done, the barn confirmed Friday June 18 in writing and took 500 off"),
           ("10/15/26, 8:10 AM", "Renee", "I moved the Creekside hotel block to the 18th, same rate")]


def test_a_bare_restatement_of_the_day_is_no_line_of_its_own(tmp_path: Path) -> None:
    shown = _shown(tmp_path, WEDDING, datetime(2026, 11, 27, 9, 0))
    # "ok June 18 then" names nothing but the day; the two that name the venue share no word ("Willow Creek" /
    # "the barn"): they stay two rather than risk folding two events
    assert sorted(s for s in shown if "June 18" in s) == [
        "bad news: Willow Creek double booked June 11. They're offering June 18 at the same rate or a refund",
        "done, the barn confirmed Friday June 18 in writing and took 500 off"]
    assert "I moved the Creekside hotel block to the 18th, same rate" in shown  # a change of its own: it stays
    assert not any("June 11" in s and "June 18" not in s for s in shown)


def test_a_bare_restatement_keeps_the_plan_that_names_the_event(tmp_path: Path) -> None:
    shown = _shown(tmp_path, [("1/10/27, 6:00 PM", "Maya", "dinner at Casa Verde on Saturday January 16?"),
                              ("1/10/27, 6:05 PM", "Sam", "yes! Saturday January 16 then")],
                   datetime(2027, 1, 11, 9, 0))
    assert shown == ["dinner at Casa Verde on Saturday January 16?"]


def test_one_event_said_again_the_same_day_is_one_line(tmp_path: Path) -> None:
    shown = _shown(tmp_path, [("1/10/27, 6:00 PM", "Maya", "shall we try Casa Verde for dinner on Saturday January 16?"),
                              ("1/10/27, 6:02 PM", "Sam", "love it"),
                              ("1/10/27, 9:40 PM", "Maya", "Casa Verde confirmed our table for Saturday January 16, 8pm")],
                   datetime(2027, 1, 11, 9, 0))
    assert shown == ["Casa Verde confirmed our table for Saturday January 16, 8pm"]


def test_a_reply_about_the_same_day_does_not_hide_the_plan(tmp_path: Path) -> None:
    shown = _shown(tmp_path, [("11/19/26, 7:00 PM", "Elena", "Christmas: Mum wants everyone at her house on the 25th, "
                                                             "lunch at 13:00"),
                              ("11/19/26, 7:10 PM", "Sofia", "I'm with Marco's family on the 25th, I'll come on the 26th")],
                   datetime(2026, 11, 20, 9, 0))
    assert "Christmas: Mum wants everyone at her house on the 25th, lunch at 13:00" in shown


def test_two_events_of_one_day_named_by_name_stay_two(tmp_path: Path) -> None:
    shown = _shown(tmp_path, [("3/1/27, 8:00 PM", "Ana", "Luca's football match is Saturday March 13 at 10"),
                              ("3/1/27, 8:01 PM", "Ben", "ok"),
                              ("3/1/27, 8:03 PM", "Ana", "and lunch at Nonna's on Saturday March 13 at 1pm")],
                   datetime(2027, 3, 2, 9, 0))
    assert sorted(shown) == ["Luca's football match is Saturday March 13 at 10",
                             "and lunch at Nonna's on Saturday March 13 at 1pm"]


def test_one_plan_said_again_days_later_is_not_folded(tmp_path: Path) -> None:
    """Only one conversation's restatements fold: a week later it is news again (RESTATED_DAYS)."""
    assert brief_upcoming.RESTATED_DAYS == 1
    shown = _shown(tmp_path, [("5/3/27, 7:00 PM", "Ines", "piano recital at the Aula, Friday May 28"),
                              ("5/12/27, 7:00 PM", "Tom", "reminder: recital at the Aula Friday May 28, doors at 6")],
                   datetime(2027, 5, 13, 9, 0))
    assert len(shown) == 2
