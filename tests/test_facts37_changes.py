"""facts37: changes told by what happened rather than by "now": the older's slot named in another word form
("recorded in …" / "Recording now happens at …"), a provider or a place left ("done with BT", "we're off EDF", "moved
out of Elm Road"), a thing lost, stolen or broken and another got, a relationship ended. Pure readings and the
rules-only plan (no model); the stored outcome with the real model is
bench/fact_crowded.py --heldout tests/data/fact_crowded_heldout15.jsonl."""

from __future__ import annotations

import pytest

from memengine import fact_breakup, fact_ended, fact_named_switch, fact_passed, fact_person, fact_wordform, supersession


def _plan(old: str, new: str, sim: float | None = None) -> list[tuple[int, int, bool]]:
    """The rules-only plan (no model) of ``new`` against one older fact stored a month before: (winner, loser, maybe)."""
    got = supersession.plan(2, new, "2026-02-01T00:00:00", [((1, old, "2026-01-01T00:00:00", "agent"), sim)],
                            new_source="agent")
    return [(d.winner, d.loser, d.maybe) for d in got]


@pytest.mark.parametrize(("old", "new", "why"), [
    ("The newsletter is printed by Inkwell Press", "Printing is done by Lulu now",
     "the older's slot said in another word form: printing (printed) -> lulu"),
    ("Orders are delivered by DPD", "Delivery now goes through Evri",
     "the older's slot said in another word form: delivery (delivered) -> evri"),
    ("The vlog is filmed in the garage", "Filming now happens in the attic",
     "the older's slot said in another word form: filming (filmed) -> attic"),
    ("The garden is maintained by GreenThumb", "Maintenance of the garden is now done by Acorn Gardens",
     "the older's slot said in another word form: maintenance (maintained) -> acorn"),
])
def test_the_slot_in_another_word_form(old: str, new: str, why: str) -> None:
    got = fact_wordform.moved(old, new)
    assert got is not None and got.reason == why


@pytest.mark.parametrize(("old", "new"), [
    ("The wedding photos are printed at Boots", "Rhona's printing is done at Snappy Snaps"),
    ("Parcels are delivered by Royal Mail", "Delivery of the new sofa is on Friday"),
    ("Meetings are hosted on Zoom", "Hosting the workshop at the library next week"),
    ("Meetings are hosted on Zoom", "Hosting the live show at the Stand in March"),
    ("The shop's stock is counted on Sundays", "Counting the stock takes three hours"),
    ("Orders are delivered by DPD", "Delivery goes through Evri until Monday"),
    ("Orders are delivered by DPD", "Delivery might go through Evri"),
])
def test_another_thing_in_the_word_form_is_no_change(old: str, new: str) -> None:
    assert fact_wordform.moved(old, new) is None
    assert _plan(old, new, 0.45) == []


@pytest.mark.parametrize(("old", "new"), [
    ("Payments go through PayPal", "Finished with PayPal; payments run through Stripe"),
    ("User lives at 5 Elm Road, Bristol", "Moved out of Elm Road; new address is 22 Harbour View"),
    ("User's phone is a Pixel 6", "Lost the Pixel on the train; got an iPhone 14"),
    ("User's watch is a Casio F91W", "The Casio got nicked at the gym, bought a Seiko 5"),
    ("User's kettle is a Russell Hobbs", "The Russell Hobbs got knocked over and broke; bought a Bosch kettle"),
])
def test_a_value_left_lost_or_broken_and_another_named(old: str, new: str) -> None:
    got = fact_ended.ended(old, new)
    assert got is not None and got.reason.startswith(fact_ended.REASON)
    assert _plan(old, new) == [(2, 1, False)]


@pytest.mark.parametrize(("old", "new"), [
    ("User's phone is a Pixel 6", "Lost my Pixel's charger, bought a new Anker one"),
    ("User's car is a Honda Jazz", "Mum's car was written off; she bought a Skoda Fabia"),
    ("User's bike is a Trek FX3", "The Trek's chain broke"),
    ("User's broadband is with BT", "BT is off for maintenance tonight"),
    ("The bar account stays with the Co-op", "Done with the Co-op; the club banks with Triodos now"),
    ("User lives at 5 Elm Road, Bristol", "Moved the bikes out of the shed on Elm Road"),
])
def test_a_part_someone_elses_or_an_exception_ends_nothing(old: str, new: str) -> None:
    assert fact_ended.ended(old, new) is None


@pytest.mark.parametrize("text", ["Done with BT, broadband is from Zen now", "We're off EDF, switched to Octopus",
                                  "Split up with Maya"])
def test_an_opening_word_of_an_end_is_no_person(text: str) -> None:
    assert fact_person.subject_names(text) == frozenset()


@pytest.mark.parametrize(("old", "new", "why"), [
    ("User's girlfriend is Maya", "Broke up with Maya last month; seeing someone named Leo now",
     "a relationship ended: user / maya"),
    ("User is married to Sam", "Sam and I got divorced; I'm with Jordan now", "a relationship ended: user / sam"),
    ("Ana's boyfriend is Pete", "Ana and Pete split up", "a relationship ended: ana / pete"),
])
def test_a_relationship_ended(old: str, new: str, why: str) -> None:
    got = fact_breakup.ended(old, new)
    assert got is not None and got.reason == why
    assert _plan(old, new, 0.42) == [(2, 1, False)]


@pytest.mark.parametrize(("old", "new"), [
    ("User's girlfriend is Maya", "Maya's sister broke up with her boyfriend"),
    ("User's girlfriend is Maya", "Might break up with Maya"),
    ("User's girlfriend is Maya", "My friend Jo split up with her husband"),
    ("User's partner is Tom", "Jo split up with Tom"),
    ("Ana's boyfriend is Pete", "Ana's sister split up with Pete's cousin"),
    ("Ana's boyfriend is Pete", "Pete split up with Lola"),
])
def test_someone_elses_or_a_planned_break_up_is_none(old: str, new: str) -> None:
    assert fact_breakup.ended(old, new) is None


def test_a_break_up_retires_no_other_fact_by_its_now() -> None:
    cands = [((1, "Morag's partner is Kenny", "2026-01-01T00:00:00", "agent"), None),
             ((3, "Morag is secretary of the regional association too", "2026-01-01T00:00:00", "agent"), None)]
    got = supersession.plan(2, "Morag and Kenny broke up; she's with Alasdair now", "2026-02-01T00:00:00", cands,
                            new_source="agent")
    assert [(d.winner, d.loser, d.maybe) for d in got] == [(2, 1, False)]


@pytest.mark.parametrize(("old", "new"), [
    ("The volunteers are coordinated by Helen", "Helen handed the volunteers over to Raj"),
    ("The rota is managed by Priya", "Priya handed the rota to Dan"),
    ("Choir rehearsals are led by Mr Hughes", "Mr Hughes passed the choir rehearsals on to Ms Ortiz"),
])
def test_a_task_passed_on_by_its_holder_said_last(old: str, new: str) -> None:
    got = fact_passed.passed_on(old, new)
    assert got is not None and got.reason.startswith("handed over")
    assert _plan(old, new) == [(2, 1, False)]


@pytest.mark.parametrize(("old", "new"), [
    ("The rota is managed by Priya", "Priya handed the keys to Dan"),
    ("The rota is managed by Priya", "Sam handed the rota to Dan"),
])
def test_another_thing_or_giver_passes_nothing(old: str, new: str) -> None:
    assert fact_passed.passed_on(old, new) is None


def test_an_older_weighing_a_switch_names_no_value_left() -> None:
    assert fact_named_switch.switched("Rhona is thinking of leaving Vodafone for Three",
                                      "We're off Vodafone, ported to Three") is None
    assert _plan("Thinking of leaving EDF for Octopus", "We're off EDF, switched to Octopus") == []


def test_a_persons_thing_the_newer_does_not_name_is_not_ended() -> None:
    assert fact_ended.ended("Maya's mum is done with BT", "Done with BT, broadband comes from Zen now") is None
    assert fact_ended.ended("User's broadband is with BT", "Done with BT, broadband comes from Zen now") is not None


def test_a_narrower_word_form_subject_is_another_thing() -> None:
    assert fact_wordform.moved("Orders are shipped with Royal Mail", "Shipping of the big orders goes through DPD") is None
    assert fact_wordform.moved("Orders are shipped with Royal Mail", "Shipping of the orders goes through DPD") is not None
