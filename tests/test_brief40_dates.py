"""Brief, round 40 (brief40): a bare "the 18th" said after "sun 18th" is the 18th that weekday placed (the next
month's when this month's 18th is no Sunday), and a bare day said in the same exchange as such days takes their
month when it is still ahead."""

from __future__ import annotations

from datetime import date

import pytest

from memengine import brief_dates

# 1 June 2026 is a Monday: "sat 20th" is 20 June (a Saturday); "fri 3rd" is 3 July (3 June is a Wednesday)
_CTX = [("the vet can see Biscuit fri 3rd at 9, shall I book?", date(2026, 6, 1))]


def test_the_same_day_said_with_its_weekday_a_day_before() -> None:
    assert brief_dates.plan_days("booked the vet for the 3rd", date(2026, 6, 2), _CTX) == [date(2026, 7, 3)]
    # in the other languages too: "vendredi 3" is 3 July
    assert brief_dates.plan_days("ok pour le 3", date(2026, 6, 2),
                                 [("le véto peut le voir vendredi 3 à 9h", date(2026, 6, 1))]) == [date(2026, 7, 3)]


def test_a_bare_day_in_the_exchange_takes_the_weekdays_month() -> None:
    # "the 9th" has no mention of its own: the exchange's weekday-placed day put the talk in July (9 July, ahead)
    assert brief_dates.plan_days("fine, I'm back from Porto on the 9th anyway", date(2026, 6, 2), _CTX) == \
        [date(2026, 7, 9)]
    # without that exchange: the next 9th, as before
    assert brief_dates.plan_days("fine, I'm back from Porto on the 9th anyway", date(2026, 6, 2), []) == \
        [date(2026, 6, 9)]
    # a weekday's day in this month leaves a later bare day alone when that day has gone by: the next such day
    assert brief_dates.plan_days("and on the 1st?", date(2026, 6, 2), [("sat 20th works", date(2026, 6, 2))]) == \
        [date(2026, 7, 1)]


def test_switched_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(brief_dates, "WEEKDAY_MONTH", False)
    assert brief_dates.plan_days("booked the vet for the 3rd", date(2026, 6, 2), _CTX) == [date(2026, 6, 3)]
