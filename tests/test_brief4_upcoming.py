"""The brief's "Coming up": days a memory planned (memengine/brief_dates.py), plans still ahead soonest
first, plans gone by marked, a moved plan shown once (memengine/brief_upcoming.py)."""

from __future__ import annotations

from datetime import date, datetime

import pytest

import memory_core as core
from memengine import brief_dates, graph_rank

W = date(2026, 11, 19)  # a Thursday


@pytest.mark.parametrize(("text", "days"), [
    ("Booked the dentist for 3 December at 9:00", [date(2026, 12, 3)]),
    ("at 9:00 on 3rd of December", [date(2026, 12, 3)]),
    ("December 3 at 10:00, then January 5th, 2027", [date(2026, 12, 3), date(2027, 1, 5)]),
    ("Der Bauantrag muss bis zum 30. Oktober eingereicht sein", [date(2026, 10, 30)]),
    ("la fête est le 13 mars, on réserve", [date(2027, 3, 13)]),
    ("nos vemos el 3 de diciembre", [date(2026, 12, 3)]),
    ("release 2026-12-01 at noon", [date(2026, 12, 1)]),
    ("on May 3rd, 2027", [date(2027, 5, 3)]),
    ("you may 3 times, march 4 people", []),  # the verbs "may" and "march" are no months
    ("he arrives on the 24th in the evening", [date(2026, 11, 24)]),
    ("garage said Monday 7th", [date(2026, 12, 7)]),  # the next 7th that is a Monday
    ("Christmas: everyone at Mum's on the 25th", [date(2026, 12, 25)]),
    ("receipts by the 10th of each month, the 3rd working day, the 5th floor", []),
    ("see you tomorrow", [date(2026, 11, 20)]),
    ("by Tuesday please, not on Fridays", [date(2026, 11, 24)]),
    ("we had 12 people at 10:30", []),
])
def test_named_days(text: str, days: list[date]) -> None:
    assert brief_dates.named_days(text, W) == days


def test_plan_days_are_the_days_after_the_writing_and_notes_say_when() -> None:
    assert brief_dates.plan_days("arrived on 19 November, leaves on 2 December", W) == [date(2026, 12, 2)]
    assert brief_dates.plan_days("the parcel came on 12 November", W) == []
    today = date(2026, 11, 20)
    assert brief_dates.when_note([date(2026, 12, 3)], today) == " (→ 2026-12-03, in 13 days)"
    assert brief_dates.when_note([date(2026, 11, 21)], today) == " (→ 2026-11-21, tomorrow)"
    assert brief_dates.when_note([date(2026, 10, 16), date(2026, 11, 20)], today) == " (→ 2026-11-20, today)"
    assert brief_dates.when_note([date(2026, 10, 9), date(2026, 10, 16)], today) == " (2026-10-16: past)"
    assert brief_dates.when_note([], today) == ""


NOW = datetime(2026, 11, 20, 9, 0)


def _plans(store: core.MemoryStore) -> dict[str, int]:
    ids = {}
    for key, text, at, thread in (
            ("dentist", "Booked a dentist appointment with Dr Costa on 3 December at 9:00", "2026-11-09", None),
            ("talk", "Rita speaks at Pixels Camp on 27 November at 14:30 in Lisbon", "2026-10-28", None),
            ("proto", "The loyalty app prototype is due on 16 October for the review", "2026-10-01", None),
            ("dinner_old", "Flat christmas dinner on Saturday 19 December at ours", "2026-11-08", "flat"),
            ("dinner_new", "Flat christmas dinner moved to Sunday 20 December at ours", "2026-11-17", "flat"),
            ("vat", "The VAT return for the last quarter is due on 15 February", "2026-11-13", None)):
        ids[key] = store.store(text, "episodic" if thread else "semantic", thread=thread, author="Lotte" if thread
                               else None, importance=0.5, event_at=datetime.fromisoformat(at + "T10:00:00"),
                               dedup=False).id
    return ids


def test_coming_up_lists_plans_ahead_by_day_and_marks_the_past(store: core.MemoryStore) -> None:
    ids = _plans(store)
    data = graph_rank.brief(store, 2000, now=NOW)
    up = data["sections"]["upcoming"]
    assert [i["text"] for i in up] == [
        f"2026-10-28 #{ids['talk']} Rita speaks at Pixels Camp on 27 November at 14:30 in Lisbon"
        " (→ 2026-11-27, in 7 days)",
        f"2026-11-09 #{ids['dentist']} Booked a dentist appointment with Dr Costa on 3 December at 9:00"
        " (→ 2026-12-03, in 13 days)",
        f"2026-11-17 #{ids['dinner_new']} Flat christmas dinner moved to Sunday 20 December at ours"
        " (→ 2026-12-20, in 30 days)",
        f"2026-11-13 #{ids['vat']} The VAT return for the last quarter is due on 15 February"
        " (→ 2027-02-15, in 87 days)"]
    assert [i["why"]["day"] for i in up] == ["2026-11-27", "2026-12-03", "2026-12-20", "2027-02-15"]
    assert data["text"].split("\n")[:2] == ["# Briefing", "### Coming up"]
    shown = {i["id"]: i["text"] for i in data["chosen"]}
    assert ids["dinner_old"] not in shown  # moved by the newer plan of the same chat: shown nowhere
    assert shown[ids["proto"]].endswith("due on 16 October for the review (2026-10-16: past)")
    assert len(shown) == len(data["chosen"])  # each memory once


def test_coming_up_keeps_to_its_share_and_the_budget(store: core.MemoryStore) -> None:
    for day in range(1, 29):
        store.store(f"Plan number {day}: the team review of module {day * 7} is on {day} December", "semantic",
                    importance=0.5, event_at=datetime(2026, 11, 19, 10, 0), dedup=False)
    data = graph_rank.brief(store, 300, now=NOW)
    up = data["sections"]["upcoming"]
    assert 1 <= len(up) <= 8 and sum(i["tokens"] for i in up) <= 0.12 * 300
    days = [i["why"]["day"] for i in up]
    assert days == sorted(days) and days[0] == "2026-12-01"
    assert data["tokens"] <= 300
