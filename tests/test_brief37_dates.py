"""Brief, round 37 (brief37): a day said with its weekday beside a booked day, and "Tomorrow" in a title.

A family moves a lunch booked for "el sábado 14 de marzo" to "domingo 15" in a message of 2 February: the next
Sunday the 15th is 15 February, but the day moved is said beside the day it moves, and its weekday fits March's 15th.
A book club reads "Tomorrow, and Tomorrow, and Tomorrow": a title, no day."""

from __future__ import annotations

from datetime import date

import pytest

from memengine import brief_dates, brief_thingmonth

_BOOKED = [("Lucía: la comida de la abuela es el sábado 14 de marzo en Casa Paco", date(2026, 1, 20))]


def test_a_weekday_day_beside_a_booked_day_takes_its_month() -> None:
    assert brief_dates.plan_days("¿La pasamos al domingo 15? El tío trabaja el sábado", date(2026, 2, 2),
                                 _BOOKED) == [date(2026, 3, 15)]
    assert brief_dates.plan_days("Ok so Sunday the 15th then?", date(2026, 2, 2),
                                 [("lunch is sat 14th March at the Crown", date(2026, 1, 20))]) == [date(2026, 3, 15)]
    # no booked day beside it, or a weekday that does not fit the booked month: the next such day, as before
    assert brief_dates.plan_days("¿La pasamos al domingo 15?", date(2026, 2, 2), []) == [date(2026, 2, 15)]
    assert brief_dates.plan_days("¿Y el lunes 16?", date(2026, 2, 2), _BOOKED) == [date(2026, 3, 16)]
    assert brief_dates.plan_days("¿Y el viernes 20?", date(2026, 2, 2), _BOOKED) == [date(2026, 2, 20)]


def test_beside_booked_off_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(brief_thingmonth, "BESIDE", False)
    assert brief_dates.plan_days("¿La pasamos al domingo 15? El tío trabaja el sábado", date(2026, 2, 2),
                                 _BOOKED) == [date(2026, 2, 15)]


def test_tomorrow_capitalised_inside_a_sentence_is_a_title() -> None:
    written = date(2026, 2, 3)
    assert brief_dates.plan_days("next book: Tomorrow, and Tomorrow, and Tomorrow by Gabrielle Zevin", written) == []
    assert brief_dates.plan_days("Tomorrow at 8 then?", written) == [date(2026, 2, 4)]
    assert brief_dates.plan_days("we finished Tomorrow and Tomorrow, meeting tomorrow at 8", written) == \
        [date(2026, 2, 4)]
