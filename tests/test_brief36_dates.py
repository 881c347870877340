"""Brief, round 36 (brief36): a bare day of a change takes the month the same exchange's bare days were read in.

"so the gîte has to be from the 6th now, not the 4th", right after "the ferry people moved us to the 5th" (a ferry
booked for 3 August): 6 August, though the gîte was never booked by name; a day said with no change, or a change days
later, keeps the next such day. The thing a day is of is named in the day's own sentence (no list of "bad news" words),
and months and weekdays are told by brief_dates (``is_calendar``), not spelled again."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from pathlib import Path

import pytest

import memory_core as core
from memengine import brief_dates, brief_thingmonth, graph_rank


def _ctx(*turns: tuple[str, str]) -> list[tuple[str, date]]:
    return [(t, date.fromisoformat(d)) for t, d in turns]


# newest first, as the brief reads them
_FERRY = _ctx(("Sam: the ferry people moved us to the 5th", "2026-05-10"),
              ("Jo: great, send me the booking ref", "2026-02-02"),
              ("Sam: ferry booked, Portsmouth to Caen, 3 august", "2026-02-02"))


def test_a_change_in_the_exchange_takes_the_month_its_days_were_read_in() -> None:
    assert brief_dates.plan_days("Sam: the ferry people moved us to the 5th", date(2026, 5, 10), _FERRY[1:]) == \
        [date(2026, 8, 5)]  # (brief35: the ferry's own booking)
    text = "Jo: so the gîte has to be from the 6th now, not the 4th"
    assert brief_dates.plan_days(text, date(2026, 5, 10), _FERRY) == [date(2026, 8, 6)]
    assert brief_dates.negated_days(text, date(2026, 5, 10), _FERRY) == {date(2026, 8, 4)}


def test_what_the_exchange_rule_leaves_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """No change said ("my dentist is the 20th"), a change three days after the exchange, the switch off: the next
    such day (or none, for a bare day nothing placed), as before."""
    assert brief_dates.plan_days("Jo: my dentist is on the 20th", date(2026, 5, 10), _FERRY) == [date(2026, 5, 20)]
    later = brief_dates.plan_days("Jo: the gîte moved us to the 6th", date(2026, 5, 13), _FERRY)
    assert later == [date(2026, 6, 6)]
    monkeypatch.setattr(brief_thingmonth, "EXCHANGE", False)
    assert brief_dates.plan_days("Jo: so the gîte has to be from the 6th now, not the 4th", date(2026, 5, 10),
                                 _FERRY) == [date(2026, 6, 6)]


def test_a_day_earlier_in_the_same_text_gives_the_month() -> None:
    """"moved our outbound to the 3rd, same time. return still the 17th": the 17th is the October of the 3rd."""
    ctx = _ctx(("Cerys: tokyo!!! flights booked for october, ANA from heathrow", "2026-01-08"))
    text = "Cerys: email from ANA: they've moved our outbound to the 3rd, same time. we fly home the 17th now"
    assert brief_dates.plan_days(text, date(2026, 4, 14), ctx) == [date(2026, 10, 3), date(2026, 10, 17)]


def test_sentence_and_calendar() -> None:
    text = "Jun: bad news part 2, half my friends are away on the 14th. can we do the party on the 21st instead"
    assert brief_thingmonth.sentence_at(text, text.index("21st")) == " can we do the party on the 21st instead"
    assert brief_thingmonth.sentence_at("a. b", 0) == "a"
    assert brief_thingmonth.sentence_at("Hollis rang, kitchen now starts the 27th", 30) == \
        "Hollis rang, kitchen now starts the 27th"
    assert all(brief_dates.is_calendar(w) for w in ("march", "tues", "thurs", "saturday", "samstag", "domingo"))
    assert not any(brief_dates.is_calendar(w) for w in ("ferry", "party", "monday's", "sunday roast"))


def test_coming_up_dates_the_gite_in_august_from_a_real_store(db_path: Path) -> None:
    turns = [(datetime(2026, 2, 2, 19, 0), "Sam", "ferry booked, Portsmouth to Caen, 3 august"),
             (datetime(2026, 2, 2, 19, 5), "Jo", "great, send me the booking ref"),
             (datetime(2026, 5, 10, 12, 0), "Sam", "the ferry people moved us to the 5th"),
             (datetime(2026, 5, 10, 12, 10), "Jo", "so the gîte has to be from the 6th now, not the 4th")]
    store = core.MemoryStore(db_path)
    try:
        for k, (at, author, text) in enumerate(turns):
            store.store(f"{author}: {text}", "episodic", source="whatsapp", thread="fr", position=k, author=author,
                        event_at=at + timedelta(seconds=k))
        coming = [i["text"] for i in graph_rank.brief(store, 1500, now=datetime(2026, 5, 11, 9))["sections"]["upcoming"]]
    finally:
        store.close()
    gite = [t for t in coming if "gîte" in t]
    assert gite and "→ 2026-08-06" in gite[0], coming
