"""Round 16: facts that change. Another activity on the same day is a second fact, not the first one's new
value (memengine/fact_instance.py). Pairs of this file's own: none from tests/data/fact_heldout20.jsonl (the
round's blind set) nor from the lead's probes."""

from __future__ import annotations

import pytest

from memengine import fact_instance, facts, supersession


def _rules_supersede(old: str, new: str) -> bool:
    """Whether the rule path (``supersession.rules`` and its vetoes) retires ``old`` for ``new``."""
    verdict = supersession.rules(old, facts.analyse(new), new, 0.8, 0.8)
    return verdict is not None and not supersession.vetoed(old, new)


SAME_DAY_OTHER_ACTIVITY = [
    ("Lena rows 8 km on Thursdays", "Lena swims 2 km on Thursdays"),
    ("On Fridays I play tennis for 2 hours", "On Fridays I play chess for 1 hour"),
    ("My daughter has piano at 4pm on Wednesdays", "My daughter has swimming at 5pm on Wednesdays"),
    ("Jonas läuft dienstags 10 km", "Jonas schwimmt dienstags 2 km"),
    ("Le samedi, Léa court 6 km", "Le samedi, Léa nage 1 km"),
]


@pytest.mark.parametrize(("old", "new"), SAME_DAY_OTHER_ACTIVITY)
def test_another_activity_the_same_day_is_not_the_older_value(old: str, new: str) -> None:
    assert fact_instance.another_instance(old, new) == "activity"
    assert not _rules_supersede(old, new)


@pytest.mark.parametrize(("old", "new"), [
    # the same activity with another amount or time, or a change said: the slot's new value
    ("Lena rows 8 km on Thursdays", "Lena rows 10 km on Thursdays"),
    ("My daughter has piano at 4pm on Wednesdays", "My daughter's piano is at 5pm on Wednesdays now"),
    ("On Fridays I play tennis for 2 hours", "On Fridays I play tennis for 90 minutes"),
    # a correction without an amount names no second activity
    ("Le dîner chez Paul est jeudi", "vendredi, pas jeudi"),
])
def test_the_same_activity_with_a_new_value_still_supersedes(old: str, new: str) -> None:
    assert fact_instance.another_instance(old, new) == ""
    assert _rules_supersede(old, new)
