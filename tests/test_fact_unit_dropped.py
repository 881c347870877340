"""A newer message that drops the old fact's unit ("1450 a month" / "now 1525") still updates it,
and only when the bare number is told as the new value (memengine/fact_align._unit_dropped)."""

from __future__ import annotations

import pytest

from memengine import facts

UPDATES = [
    ("My commute is 40 minutes", "commute is now 25"),
    ("The gym membership is 55 dollars a month", "they raised the gym membership to 62"),
    ("O aluguel é 1200 reais por mês", "o aluguel subiu para 1350"),
]

NOT_UPDATES = [
    ("The hike is 12 km", "the hike is now on day 2"),  # a number naming a day, not the distance
    ("Leo weighs 30 kg", "Leo is 9"),  # another slot, told with no change
    ("The bus takes 20 minutes", "the bus is the 42"),
    ("The drive to Porto takes 3 hours", "the drive to Porto is 300"),
    ("My commute is 40 minutes", "commute is now 40"),  # the same number: nothing changed
    ("I run 5 km and do 20 push-ups", "now 30 push-ups"),  # two numbers in the old fact: which one?
]


@pytest.mark.parametrize(("old", "new"), UPDATES)
def test_a_dropped_unit_still_updates(old: str, new: str) -> None:
    verdict = facts.compare(old, new)
    assert verdict is not None and verdict.kind == "number"


@pytest.mark.parametrize(("old", "new"), NOT_UPDATES)
def test_a_bare_number_not_told_as_the_new_value_is_no_update(old: str, new: str) -> None:
    assert facts.compare(old, new) is None
