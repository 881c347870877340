"""facts38: changes said by an event that ends the older's value in any clause (memengine/fact_vacated.py), by a shift
in time anywhere with the older's slot said again (memengine/fact_shift.py), and a thing done for another person
(memengine/fact_helped.py). Pure readings and the rules-only plan (no model); the stored outcome with the real model
is bench/fact_crowded.py --heldout tests/data/fact_crowded_heldout16.jsonl (and bench/data/lead_probes19/facts30.jsonl)."""

from __future__ import annotations

import pytest

from memengine import fact_helped, fact_shift, fact_vacated, supersession


def _plan(old: str, new: str, sim: float | None = None) -> list[tuple[int, int, bool]]:
    """The rules-only plan (no model) of ``new`` against one older fact stored a month before: (winner, loser, maybe)."""
    got = supersession.plan(2, new, "2026-02-01T00:00:00", [((1, old, "2026-01-01T00:00:00", "agent"), sim)],
                            new_source="agent")
    return [(d.winner, d.loser, d.maybe) for d in got]


@pytest.mark.parametrize(("old", "new", "why"), [
    ("The office printer is a Canon Pixma", "The Canon kept jamming and finally failed; prints go to a Brother HL now",
     "canon (failed) -> brother"),
    ("Home insurance is with Direct Line", "Let the Direct Line cover expire; the house is insured by Aviva",
     "direct (let the direct line cover expire) -> aviva"),
    ("The choir's treasurer is Mr Banda", "Mr Banda handed the books over to Ruth Oyelowo in March",
     "banda (handed) -> ruth"),
    ("User's locker number is 31", "Gave up locker 31 and took locker 8 near the door", "31 (gave up) -> 8"),
    ("The club's kit sponsor is Hartley Motors", "Hartley Motors went bust, so Bayview Dental sponsors the kit",
     "hartley (went bust) -> bayview"),
    ("User's phone is a Moto G9", "Traded in the Moto G9 for a Pixel 8a", "moto (traded in) -> pixel"),
])
def test_the_older_value_vacated_and_the_slot_filled(old: str, new: str, why: str) -> None:
    got = fact_vacated.vacated(old, new)
    assert got is not None and got.reason == f"{fact_vacated.REASON}: {why}"
    assert _plan(old, new) == [(2, 1, False)]


@pytest.mark.parametrize(("old", "new"), [
    ("User's travel buddy is Jo", "Jo's car failed its MOT; she is borrowing a Fiat Panda"),  # whose: Jo's
    ("Home insurance is with Direct Line", "Maybe let the Direct Line cover expire and go to Aviva"),  # a plan
    ("User's phone is a Moto G9", "The Moto G9 broke, using an old Nokia until the repair"),  # a while
    ("User's phone is a Moto G9", "Sold the spare Moto G9 to Sam"),  # one more of a kind
    ("The choir's treasurer is Mr Banda", "Mr Banda is off sick, so Ruth does the books this week"),  # no ending
    ("Bought a second Canon for the studio", "The Canon failed; prints go to a Brother HL now"),  # the older: one more
    ("The surgery's landlord is Harbour Estates", "Dr Lee left Harbour Surgery; Dr Osei sees Walter now"),  # another name
    ("User's locker number is 31", "Locker 31 failed its check"),  # nothing new
])
def test_no_vacated_value(old: str, new: str) -> None:
    assert fact_vacated.vacated(old, new) is None


@pytest.mark.parametrize(("old", "new", "marker"), [
    ("The book club meets on the second Monday of the month",
     "Book club meetings are on the third Wednesday of the month going forward", "going forward"),
    ("Vegetables are ordered from Riverford", "Ordering the vegetables from Abel & Cole instead", "instead"),
    ("The gym opens at 6:00 on weekdays", "As of March the gym opening is 5:30 on weekdays", "as of march"),
    ("Choir practice is on Tuesday evenings", "Choir practice is on Thursday evenings from now on", "from now on"),
])
def test_a_shift_marker_anywhere_with_the_slot_said_again(old: str, new: str, marker: str) -> None:
    got = fact_shift.shifted(old, new)
    assert got is not None and f"{marker!r}" in got.reason
    assert _plan(old, new) == [(2, 1, False)]


@pytest.mark.parametrize(("old", "new"), [
    ("Choir practice is on Tuesday evenings", "Choir practice is on Thursday this week instead"),  # a while
    ("Choir practice is on Tuesday evenings", "Thinking of moving choir practice to Thursday from now on"),  # a plan
    ("Choir practice is on Tuesday evenings", "Junior choir practice is on Thursday evenings from now on"),  # another
    ("Vegetables are ordered from Riverford", "Sam's vegetables are ordered from Abel & Cole instead"),  # whose
    ("Vegetables are ordered from Riverford", "Also ordering fruit from Abel & Cole these days"),  # one more
    ("The gym opens at 6:00 on weekdays", "The pool is heated to 28 degrees these days"),  # another slot
])
def test_no_shift(old: str, new: str) -> None:
    assert fact_shift.shifted(old, new) is None


def test_a_thing_done_for_another_person_is_theirs() -> None:
    assert fact_helped.helped_other("User's locker number is 31", "Helped Priya move into locker 12") != ""
    assert fact_helped.helped_other("The club's coach is Priya Shah", "Helped Priya with the rota") == ""
    assert fact_helped.helped_other("User's locker number is 31", "Need help with locker 12") == ""
    assert supersession.vetoed("User's locker number is 31", "Helped Priya move into locker 12") != ""


@pytest.mark.parametrize(("old", "new"), [
    ("Our babysitter is Emma", "Emma left for college, so Chloe is our dog walker now"),  # another role filled
    ("Emma teaches third grade.", "Emma's son is in fifth grade this year."),  # another person's, a year marker
])
def test_another_role_or_whose_is_no_update(old: str, new: str) -> None:
    assert fact_vacated.vacated(old, new) is None and fact_shift.shifted(old, new) is None
    assert _plan(old, new) == []
