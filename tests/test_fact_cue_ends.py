"""The cue rule: a bare time is the start of a thing, and words on the statement ("actually",
"the doctor says") are no qualifier of the thing."""
from __future__ import annotations

import pytest

from memengine import fact_cue, facts


@pytest.mark.parametrize(("old", "new", "expected"), [
    ("The choir rehearses at 19:00 on Mondays", "Choir rehearsal starts at 19:30 from now on",
     "'now': new value for 'choir rehearses': 19:00 -> 19:30"),
    ("I'm allergic to shellfish", "The doctor says I'm not actually allergic to shellfish after all",
     "'after all': 'allergic shellfish' no longer holds as stated"),
])
def test_updates(old: str, new: str, expected: str) -> None:
    verdict = fact_cue.detect(old, facts.analyse(new), 0.8)
    assert verdict is not None and verdict.reason == expected


@pytest.mark.parametrize(("old", "new"), [
    ("The library is at 9:00 on Saturdays", "The library now closes at 17:00 on Saturdays"),  # the other end
    ("The flight to Oslo is at 7:40", "The flight to Oslo now lands at 9:55"),
    ("The gym opens at 6:00", "The gym now closes at 23:00"),
])
def test_other_end_is_no_update(old: str, new: str) -> None:
    assert fact_cue.detect(old, facts.analyse(new), 0.8) is None


@pytest.mark.parametrize(("text", "dates"), [
    ("Priya stepped down; Marco is leading the data team now", []),  # a name, not "março"
    ("Marco lives in Porto", []),
    ("A reunião é em março", ["marco"]),
    ("Die Miete steigt am 3. März", ["Marz"]),
    ("The rent goes up in March", ["March"]),
])
def test_a_month_spelt_with_an_accent_needs_it_or_a_day(text: str, dates: list[str]) -> None:
    assert [v.text for v in facts.analyse(text).values if v.kind == "date"] == dates
