"""facts39: two things of one kind told apart by their labels (memengine/fact_identifier.py, a veto of
memengine/supersession.py's ``vetoed``). Pure readings and the rules-only plan (no model); the stored outcome with the
real model is bench/fact_crowded.py --heldout tests/data/fact_crowded_heldout17.jsonl and bench/note_links.py."""

from __future__ import annotations

import pytest

from memengine import fact_identifier, supersession


def _plan(old: str, new: str, sim: float | None = None) -> list[tuple[int, int, bool]]:
    """The rules-only plan (no model) of ``new`` against one older fact stored a month before: (winner, loser, maybe)."""
    got = supersession.plan(2, new, "2026-02-01T00:00:00", [((1, old, "2026-01-01T00:00:00", "agent"), sim)],
                            new_source="agent")
    return [(d.winner, d.loser, d.maybe) for d in got]


@pytest.mark.parametrize(("text", "things"), [
    ("Flat B at 14 Elm Road is let to Greta Lindqvist, rent £875 a month.", {("flat", "B")}),
    ("Rent for Flat A goes up to £995 from 1 April; Tom and Aisha agreed by email.", {("flat", "A")}),
    ("Van 2 had its MOT on Tuesday", {("van", "2")}),
    ("Huisje 1 kost 95 euro per nacht", {("huisje", "1")}),
    ("The red tractor is a Massey Ferguson 5713", {("tractor", "colour:red")}),
    ("El tractor rojo lo revisa el taller de Ramón", {("tractor", "colour:rojo")}),
    ("Barn B stores the hay since the roof of Barn A blew off", {("barn", "B"), ("barn", "A")}),
    ("Kennel block C is being built for the dogs", {("block", "C")}),
    ("Dr Moreau moved to the branch surgery, consult room 2 is Dr Lewis's now", {("room", "2")}),
    # values, not names: after a copula or a preposition of place, a version, a time, an age, a range
    ("User's classroom is Lab 3", set()),
    ("Weekly group meeting: Mondays at 10:00 in room B214.", set()),
    ("Moved the rabbits from Kennel A to Kennel B", set()),
    ("El servidor de staging usa Node 18", set()),
    ("The gateway listens on port 8080", set()),
    ("Peter turns 75 on 12 December", set()),
    ("Il mio turno è dalle 7 alle 15", set()),
    ("Open van 9 tot 5", set()),
])
def test_the_things_a_sentence_names(text: str, things: set[tuple[str, str]]) -> None:
    assert fact_identifier.named_things(text) == things


@pytest.mark.parametrize(("old", "new"), [
    ("Flat B at 14 Elm Road is let to Greta Lindqvist, rent £875 a month.",
     "Rent for Flat A goes up to £995 from 1 April; Tom and Aisha agreed by email."),
    ("Plot 9 is rented by the user for £40 a year", "Plot 14 is rented for £45 a year now"),
    ("Room 2 is the quiet room", "Room 3 is the quiet room from Monday"),
    ("The blue van is serviced at Kwik Fit", "The white van is serviced at the Ford dealer now"),
    ("De rode trekker is een Fendt", "De groene trekker is nu een Deutz"),
])
def test_another_thing_of_one_kind_is_no_update(old: str, new: str) -> None:
    assert fact_identifier.another_thing(old, new).startswith("another thing of the kind")
    assert supersession.vetoed(old, new)
    assert _plan(old, new) == []


@pytest.mark.parametrize(("old", "new"), [
    ("Plot 9 is rented for £40 a year", "Plot 9 is rented for £45 a year now"),  # the same thing
    ("User's classroom is Lab 3", "User's classroom is Lab 5 now"),  # the label is the value
    ("Weekly group meeting: Mondays at 10:00 in room B214.", "The group meeting moved to Wednesdays, in room C101."),
    ("Barn A stores the hay", "Barn B stores the hay since the roof of Barn A blew off"),  # names the older's too
    ("El servidor de staging usa Node 18", "staging usa Node 22"),  # a version
    ("The gateway listens on port 8080", "The gateway listens on port 9090"),
    ("User's locker number is 31", "Gave up locker 31 and took locker 8 near the door"),
])
def test_one_thing_or_a_label_as_value_is_no_veto(old: str, new: str) -> None:
    assert fact_identifier.another_thing(old, new) == ""
