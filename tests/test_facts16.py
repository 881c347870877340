"""Round 16: facts that change. Another activity on the same day is a second fact, not the first one's new
value (memengine/fact_instance.py); the older's slot named in words of the newer's own supersedes at its
own threshold (memengine/fact_slot.py's ``rephrased`` band); a number's measured noun is no verb. Pairs of this file's own: none from tests/data/fact_heldout20.jsonl (the
round's blind set) nor from the lead's probes."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import pair_outcome

from memengine import fact_instance, fact_slot, facts, supersession
from memengine.fact_change_words import change_words
from memengine.fact_slot_weights import WEIGHTS


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


@pytest.mark.parametrize(("old", "new", "superseded"), [
    # the number's noun is what it measures, not the verb: another quantity of the same thing
    ("The build box has 64 GB of RAM", "The build box has 1 TB of storage", False),
    ("The build box has 64 GB of RAM", "The build box has 128 GB of RAM", True),
])
def test_a_measured_noun_is_not_a_verb_swapped(old: str, new: str, superseded: bool) -> None:
    assert _rules_supersede(old, new) is superseded


def test_doing_it_anew_is_a_change_said_in_every_language() -> None:
    for old, new in (("The mobile app is written in Kotlin", "we rewrote the mobile app in Flutter"),
                     ("The tests use Mocha", "we ported the tests to Vitest"),
                     ("L'appli est écrite en PHP", "on a réécrit l'appli en Go"),
                     ("La web está hecha con Django", "reescribimos la web en Rails"),
                     ("Die App ist in Java geschrieben", "die App wurde in Kotlin umgeschrieben"),
                     ("L'app è scritta in Java", "l'app è stata riscritta in Kotlin")):
        assert change_words(old, new)[0], new


REPHRASED = [
    # the older's slot in words of the newer's own: a synonym, a related phrase, the verb that takes the value
    ("The docs site is hosted on Netlify", "we serve the docs site from Vercel now"),
    ("The queue retention is 7 days", "messages are now kept for 14 days"),
    ("The mobile app is written in Kotlin", "we rewrote the mobile app in Flutter"),
    ("The nightly export runs at 1am", "the data dump now starts at 3am"),
]
NOT_REPHRASED = [
    ("Ana works at Globex in Porto", "Ana moved to Braga"),  # which of a person's relations changed?
    ("Mein Puls liegt bei 60", "Bei meinem Mann jetzt bei 72"),  # someone else's (a German spouse)
    ("I drive a Toyota Yaris", "sold my scooter, I take the tram more now"),  # another thing given up
    ("Mum's GP is Dr Hassan", "my GP is Dr Lee now"),  # mine after someone else's
    ("The weekly sync is at 10", "the weekly design sync is at 11 now"),  # a word of its own on the thing
    ("The nightly export runs at 1am", "the nightly export runs at 1am"),  # no value replaced
]


@pytest.mark.parametrize(("old", "new"), REPHRASED)
def test_rephrased_names_the_older_slot_in_other_words(old: str, new: str) -> None:
    assert fact_slot.rephrased(fact_slot.features(old, new, 0.6, 0.6), old, new)


@pytest.mark.parametrize(("old", "new"), NOT_REPHRASED)
def test_rephrased_leaves_other_things_out(old: str, new: str) -> None:
    assert not fact_slot.rephrased(fact_slot.features(old, new, 0.6, 0.6), old, new)


def test_the_rephrased_band_supersedes_between_the_band_and_the_threshold() -> None:
    w = WEIGHTS
    assert w["may_update"] <= w["rephrase_threshold"] < w["threshold"]
    old, new = REPHRASED[0]
    pair = fact_slot.features(old, new, 0.6, 0.6)
    assert fact_slot.threshold_for(pair, w, old, new) == w["rephrase_threshold"]
    assert fact_slot.threshold_for(pair, w) == w["threshold"]  # (the texts are needed to read the shape)
    old, new = NOT_REPHRASED[0]
    assert fact_slot.threshold_for(fact_slot.features(old, new, 0.6, 0.6), w, old, new) == w["threshold"]


# --------------------------------------------------------------------------- with the real model

@pytest.mark.parametrize(("old", "new", "superseded"), [
    *((old, new, False) for old, new in SAME_DAY_OTHER_ACTIVITY[:2]),
    ("The build box has 64 GB of RAM", "The build box has 1 TB of storage", False),
    ("Ana works at Globex in Porto", "Ana moved to Braga", False),
])
def test_real_model_store_path(real, tmp_path: Path, old: str, new: str,  # type: ignore[no-untyped-def]
                               superseded: bool) -> None:
    assert pair_outcome(tmp_path / "r.db", old, new, real) == (superseded, False)
