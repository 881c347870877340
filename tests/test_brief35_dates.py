"""Brief, round 35 (brief35): a day said by its number alone takes its month from what the chat said about the thing.

"tap changed the flight to the 15th", written on 30 April, of a flight booked "14 june": 15 June, not 15 May;
"ANA moved our outbound to the 3rd", written in April of a flight booked in January "for october": 3 October;
"i'm at a wedding on the 4th" right after "its now 4-5 july": 4 July; "stick with the 27th" after "kitchen now starts
the 27th" (of a refit set for "6th july"): 27 July."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from pathlib import Path

import pytest

import memory_core as core
from memengine import brief_dates, brief_thingmonth, brief_upcoming, graph_rank


def _ctx(*turns: tuple[str, str]) -> list[tuple[str, date]]:
    return [(t, date.fromisoformat(d)) for t, d in turns]


_FLIGHT = _ctx(("Ana: GP says yes with assistance booked", "2026-04-18"),
               ("Rui: i'll book it. tap from gatwick, 14 june", "2026-04-18"))
_KITCHEN = _ctx(("Cerys: do it. I'm done with that oven", "2026-02-20"),
                ("Dan: kitchen quote from Hollis Fitters came in, £6,200 all in. they can start 6th july", "2026-02-20"))


def test_a_bare_day_takes_the_month_of_the_thing_booked() -> None:
    """The flight's month, the kitchen's month (a bare "the 27th" with no preposition too), a range's first day."""
    assert brief_dates.plan_days("Rui: tap changed the flight to the 15th, same time", date(2026, 4, 30),
                                 _FLIGHT) == [date(2026, 6, 15)]
    assert brief_dates.plan_days("Dan: Hollis rang, kitchen now starts the 27th not the 6th", date(2026, 6, 3),
                                 _KITCHEN) == [date(2026, 7, 27)]
    cava = _ctx(("Priya: fine by me", "2026-05-21"), ("Niamh: cava moved us, its now 4-5 july not june", "2026-05-21"))
    assert brief_dates.plan_days("Callum: i'm at a wedding on the 4th", date(2026, 5, 21), cava) == [date(2026, 7, 4)]
    tokyo = _ctx(("Cerys: £780 each", "2026-01-08"),
                 ("Cerys: tokyo!!! flights booked for october, ANA from heathrow", "2026-01-08"))
    assert brief_dates.plan_days("Cerys: email from ANA: they've moved our outbound to the 3rd", date(2026, 4, 14),
                                 tokyo) == [date(2026, 10, 3)]


def test_a_day_said_again_is_placed_as_it_was_first() -> None:
    """"stick with the 27th", said right after "kitchen now starts the 27th": the 27th that turn meant (July's)."""
    ctx = _ctx(("Cerys: shall we just push it to after tokyo?", "2026-06-03"),
               ("Dan: Hollis rang, kitchen now starts the 27th not the 6th", "2026-06-03")) + _KITCHEN
    assert brief_dates.plan_days("Dan: no, stick with the 27th", date(2026, 6, 3), ctx) == [date(2026, 7, 27)]


def test_what_the_thing_rule_leaves_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """No word shared with the booking, a deadline ("by the 1st"), a booking whose month is gone by, and the switch
    off: the next such day, as before."""
    assert brief_dates.plan_days("Ana: dentist moved to the 15th", date(2026, 4, 30), _FLIGHT) == [date(2026, 5, 15)]
    assert brief_dates.plan_days("Rui: pay the tap flight by the 1st", date(2026, 4, 30), _FLIGHT) == [date(2026, 5, 1)]
    past = _ctx(("Rui: tap from gatwick, 14 april", "2026-03-01"))
    assert brief_dates.plan_days("Rui: tap changed the flight to the 15th", date(2026, 4, 30), past) == \
        [date(2026, 5, 15)]
    # no change said: the day is not the booking's ("interview on the 17th" beside a job that starts in May)
    job = _ctx(("Hannah: if I get the physio job at Leeds General I start in May", "2026-03-01"))
    assert brief_dates.plan_days("Hannah: applied for the physio job at Leeds General, interview on the 17th",
                                 date(2026, 3, 3), job) == [date(2026, 3, 17)]
    monkeypatch.setattr(brief_thingmonth, "THING_MONTH", False)
    assert brief_dates.plan_days("Rui: tap changed the flight to the 15th, same time", date(2026, 4, 30),
                                 _FLIGHT) == [date(2026, 5, 15)]


def test_thing_words() -> None:
    """The words that may name the thing: no stop word, word of change or time, month, or author prefix."""
    assert brief_thingmonth.thing_words("Rui: tap changed the flight to the 15th, same time") == {"tap", "flight"}
    assert brief_thingmonth.thing_words("Ana: moved it to next week instead") == frozenset()
    assert brief_thingmonth.thing_words("Sarah: pour mon anniv, samedi 24", brief_dates.is_calendar) == {"anniv"}


def test_coming_up_reads_the_flight_in_june_from_a_real_store(db_path: Path) -> None:
    """Through the brief on a real store (turns more than CONTEXT_DAYS apart: the booking three months before)."""
    turns = [(date(2026, 1, 8), "Cerys", "tokyo!!! flights booked for october. ANA from heathrow"),
             (date(2026, 1, 8), "Dan", "actual tokyo"),
             (date(2026, 3, 30), "Cerys", "Bex's hen do is booked, Bath spa day sat 16th may"),
             (date(2026, 4, 14), "Cerys", "email from ANA: they've moved our outbound to the 3rd, same time")]
    store = core.MemoryStore(db_path)
    try:
        for k, (day, author, text) in enumerate(turns):
            store.store(f"{author}: {text}", "episodic", source="whatsapp", thread="cd", position=k, author=author,
                        event_at=datetime(day.year, day.month, day.day, 20) + timedelta(minutes=k))
        coming = [i["text"] for i in graph_rank.brief(store, 1500, now=datetime(2026, 4, 15, 9))["sections"]["upcoming"]]
    finally:
        store.close()
    outbound = [t for t in coming if "outbound" in t]
    assert outbound and "→ 2026-10-03" in outbound[0], coming


def test_the_booking_a_change_gave_its_month_leaves_coming_up(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """"tap changed the flight to the 15th" moves "tap from gatwick, 14 june" (the turn that gave the 15th its month):
    Coming up shows the 15 June line only; with the thing rule off, both lines (the 15th read as 15 May)."""
    turns = [(datetime(2026, 4, 18, 14, 30), "Ana", "dad wants to go to Porto for tia Lurdes's 80th"),
             (datetime(2026, 4, 18, 14, 35), "Rui", "i'll book it. tap from gatwick, 14 june"),
             (datetime(2026, 4, 30, 8, 15), "Rui", "tap changed the flight to the 15th, same time"),
             (datetime(2026, 4, 30, 8, 16), "Ana", "fine")]
    store = core.MemoryStore(db_path)
    try:
        for k, (at, author, text) in enumerate(turns):
            store.store(f"{author}: {text}", "episodic", source="whatsapp", thread="sibs", position=k, author=author,
                        event_at=at)
        now = datetime(2026, 5, 13, 9)
        coming = [i["text"] for i in graph_rank.brief(store, 1500, now=now)["sections"]["upcoming"]]
        monkeypatch.setattr(brief_thingmonth, "THING_MONTH", False)
        base = [i["text"] for i in graph_rank.brief(store, 1500, now=now)["sections"]["upcoming"]]
    finally:
        store.close()
    assert len(coming) == 1 and "the 15th" in coming[0] and "→ 2026-06-15" in coming[0], coming
    assert any("14 june" in t for t in base) and any("→ 2026-05-15" in t for t in base), base


def test_instead_in_the_same_exchange_moves_the_plan_before_it(db_path: Path, monkeypatch: pytest.MonkeyPatch
                                                                ) -> None:
    """"cava moved us, its now 4-5 july" / "i'm at a wedding on the 4th" / "we got 11-12 july instead": Coming up
    keeps the wedding and the 12th, not the 5th; a plan days before "instead" stays; EXCHANGE_TURNS 0: all three."""
    turns = [(datetime(2026, 5, 21, 19, 10), "Niamh", "cava moved us, its now 4-5 july not june"),
             (datetime(2026, 5, 21, 19, 11), "Priya", "fine by me"),
             (datetime(2026, 5, 21, 19, 13), "Callum", "i'm at a wedding on the 4th"),
             (datetime(2026, 5, 21, 19, 20), "Niamh", "asked them, we got 11-12 july instead"),
             (datetime(2026, 5, 21, 19, 21), "Callum", "sound")]
    store = core.MemoryStore(db_path)
    try:
        for k, (at, author, text) in enumerate(turns):
            store.store(f"{author}: {text}", "episodic", source="whatsapp", thread="band", position=k, author=author,
                        event_at=at)
        now = datetime(2026, 5, 22, 9)
        got = graph_rank.brief(store, 1500, now=now)
        coming = [i["text"] for i in got["sections"]["upcoming"]]
        people = [ln for ln in got["text"].splitlines() if ln.startswith("- Niamh:")]
        monkeypatch.setattr(brief_upcoming, "EXCHANGE_TURNS", 0)
        base = [i["text"] for i in graph_rank.brief(store, 1500, now=now)["sections"]["upcoming"]]
    finally:
        store.close()
    assert not any("4-5 july" in t for t in coming), coming
    assert any("11-12 july instead" in t for t in coming) and any("wedding on the 4th" in t for t in coming), coming
    assert any("4-5 july" in t for t in base), base
    assert people and not any("4-5 july" in ln for ln in people), people  # a moved plan is no one's news


def test_the_day_replaced_gives_the_month_not_a_turn_sharing_bad_news() -> None:
    """The lead's blind house-share chat: "bad news part 2, half my friends are away on the 14th. can we do the party
    on the 21st instead", said on 6 March after "yes!! 14th march" and Beth's "bad news. ... moving out end of april":
    the 21st is March's (the month of the 14th it replaces), not April's ("bad news" names no thing)."""
    ctx = _ctx(("Beth: bad news. i got the job in manchester. i'll be moving out end of april", "2026-03-04"),
               ("Jun: yes!! 14th march. small thing tho", "2026-02-22"),
               ("Ana: jun your birthday is the 14th right? party here on the saturday?", "2026-02-22"))
    text = "Jun: bad news part 2, half my friends are away on the 14th. can we do the party on the 21st instead"
    assert date(2026, 3, 21) in brief_dates.plan_days(text, date(2026, 3, 6), ctx)
    assert date(2026, 4, 21) not in brief_dates.named_days(text, date(2026, 3, 6), ctx)
    # (brief36) the thing is named in the day's own sentence: the party, not "bad news" (no word list of its own)
    assert brief_thingmonth.thing_words(brief_thingmonth.sentence_at(text, text.index("the 21st"))) == {"party"}

