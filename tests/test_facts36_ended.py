"""facts36: changes an agent's notes tell by what happened to the old value — ended by a verb ("the Epson died; a
Canon replaced it"), the older's thing redone in another ("Rewrote the docs site in Docusaurus") — a note label naming
another thing of the older's kind ("New staff wifi: …"), and the moods that hold a plan back ("Plan for May: …", "may
switch"). Pure readings and the rules-only plan (no model); the stored outcome with the real model is
bench/fact_crowded.py --heldout tests/data/fact_crowded_heldout14.jsonl."""

from __future__ import annotations

import pytest

from memengine import (
    fact_after_event,
    fact_ended,
    fact_label_thing,
    fact_label_value,
    fact_mood,
    fact_person,
    supersession,
)


@pytest.mark.parametrize(("old", "new", "why"), [
    # ended, its value named as the ending verb's subject, another named in another clause
    ("The shop's label printer is an Epson TM-T20", "The Epson died last week; a Canon LBP6030 replaced it",
     "the older's value ended, another named: epson -> canon"),
    ("Support tickets are handled in Freshdesk", "Freshdesk archived; tickets are answered in Help Scout",
     "the older's value ended, another named: freshdesk -> help"),
    ("The bookkeeper is Marion Fry at Fry & Daughters", "Marion retired in June; Chen Wei does the books",
     "the older's value ended, another named: marion -> chen"),
    # ended as the object of the verb
    ("Nadia's tablet is an old iPad Air", "Bought a Galaxy Tab S9 to replace the iPad",
     "the older's value ended, another named: ipad -> galaxy"),
    ("User's savings are with Marcus", "Opened an account with Chip and closed the Marcus one",
     "the older's value ended, another named: marcus -> chip"),
    ("The garden shed has a padlock with a key", "Replaced the padlock with a combination lock",
     "the older's value ended, another named: padlock -> combination"),
    # the older's thing redone in another
    ("The docs site is built with Jekyll", "Rewrote the docs site in Docusaurus",
     "the older's thing redone in another: docusaurus (rewrote)"),
    ("The company domains are registered with GoDaddy", "Transferred the domains to Porkbun",
     "the older's thing redone in another: porkbun (transferred)"),
    ("The CI runners use Python 3.10", "Upgraded the CI runners to Python 3.12",
     "the older's thing redone in another: 3.12 (upgraded)"),
    ("User's watch is a Garmin Forerunner 245", "Upgraded to a Garmin Forerunner 965 for the marathon",
     "the older's thing redone in another: 965 (upgraded)"),
])
def test_the_older_value_ended_or_its_thing_redone(old: str, new: str, why: str) -> None:
    got = fact_ended.ended(old, new)
    assert got is not None and got.reason == why and got.kind == "slot"


@pytest.mark.parametrize(("old", "new"), [
    # ended for a while, or a stand-in
    ("Payroll is run by Kate Moss", "Kate is on leave until June; Omar runs payroll meanwhile"),
    ("The van is a Ford Transit", "The Transit is in the garage this week, we hired a Vivaro"),
    ("Tom takes lisinopril every morning", "Lisinopril was stopped for three days before the operation"),
    # a second one, another's, a part of it, another thing of the kind
    ("User cycles on a Specialized Allez", "Bought a second bike, a Brompton, for the train"),
    ("User's phone is a Pixel 7", "Upgraded Maya's phone to a Pixel 8"),
    ("User's phone is a Pixel 7", "Maya upgraded her phone to a Pixel 8"),
    ("The TV is a 50-inch Sony Bravia", "Upgraded the TV's remote to a Sofabaton U2"),
    ("The car is an old Volvo V70", "Replaced the Volvo's clutch, it should last a few more years"),
    ("The dining table is a pine table from IKEA", "Sold the spare pine chairs to Jonas"),
    # a plan, the older's own thing that is not the redone one, the older's subject ended
    ("The reports server is hosted at OVH", "Might transfer the domains to Porkbun next year"),
    ("The docs site theme uses Bootstrap 4", "Rewrote the docs site in Docusaurus"),
    ("The boiler is serviced by Warmworks every May", "Replaced the old boiler with a heat pump from Octopus"),
    # an older that is itself a change told, or about someone whose thing the newer leaves unsaid
    ("Rebuilt the blog's archive page in plain HTML", "Greta sold the blog to Medium Ltd; Yusuf runs it"),
    ("Greta keeps her bakery rota in Trello", "Trello boards archived; projects are tracked in Linear"),
])
def test_look_alikes_end_nothing(old: str, new: str) -> None:
    assert fact_ended.ended(old, new) is None


def _plan(old: str, new: str) -> list[supersession.Decision]:
    """The rules-only plan (no model) of ``new`` against one older fact, the older stored a month before."""
    return supersession.plan(2, new, "2026-02-01T00:00:00", [((1, old, "2026-01-01T00:00:00", "agent"), None)],
                             new_source="agent")


@pytest.mark.parametrize(("old", "new"), [
    ("The shop's label printer is an Epson TM-T20", "The Epson died last week; a Canon LBP6030 replaced it"),
    ("User's savings are with Marcus", "Opened an account with Chip and closed the Marcus one"),
    ("The docs site is built with Jekyll", "Rewrote the docs site in Docusaurus"),
])
def test_the_rules_retire_the_older(old: str, new: str) -> None:
    assert [(d.winner, d.loser, d.maybe) for d in _plan(old, new)] == [(2, 1, False)]


@pytest.mark.parametrize(("old", "new"), [
    ("User's savings are with Marcus", "Plan for spring: move the savings from Marcus to Chip"),
    ("Tom's partner Ana drives a Seat Ibiza", "Ana is test-driving a Polo and may swap the Ibiza for it"),
    ("The office wifi is called Heron, password grey-gull-19", "New staff wifi: Heron-Staff, password kestrel-44"),
])
def test_look_alikes_retire_nothing(old: str, new: str) -> None:
    assert _plan(old, new) == []


@pytest.mark.parametrize(("old", "new", "why"), [
    ("The office wifi is called Heron, password grey-gull-19", "New staff wifi: Heron-Staff, password kestrel-44",
     "another wifi named by the note's label: staff / office"),
    ("The front door key code is 4471", "Back door code: 9902",
     "another code named by the note's label: back / front key"),
])
def test_a_label_naming_another_thing_of_the_kind(old: str, new: str, why: str) -> None:
    assert fact_label_thing.another_labelled(old, new) == why


@pytest.mark.parametrize(("old", "new"), [
    ("The office wifi is called Heron, password grey-gull-19", "New wifi password: kestrel-44"),
    ("The repository's default branch is master", "default git branch: main"),
    ("Il responsabile del frontend è Luca", "lead frontend: Giulia"),
    ("Tom's phone number is 555-0101", "Tom has a new number: 555-0199"),
    ("Der Internetanschluss ist Telekom VDSL 100", "Internet: Glasfaser, 500 Mbit"),
])
def test_a_label_of_the_same_thing_is_no_veto(old: str, new: str) -> None:
    assert fact_label_thing.another_labelled(old, new) == ""


@pytest.mark.parametrize(("text", "mood"), [
    ("Plan for Q2: move the payroll from Sage to Xero", "plan"),
    ("Plan: switch CI to Buildkite", "plan"),
    ("Ana is test-driving a Polo and may swap the Ibiza for it", "hypothesis"),
    ("Falls der Server ausfällt, rufen wir Jens an", "hypothesis"),
    # asserted: a plan's name, the month, English "falls"
    ("Plan: Grow, 79 dollars a month", ""),
    ("Since May the gym opens at 6", ""),
    ("the rent went up in may to 950", ""),
    ("The falls prevention team visits on Thursdays", ""),
    ("Her birthday falls on a Monday this year", ""),
])
def test_moods_of_a_plan(text: str, mood: str) -> None:
    assert fact_mood.unasserted(text) == mood


@pytest.mark.parametrize(("text", "names"), [
    ("Opened a Starling account and closed the Halifax one", frozenset()),
    ("Booked the Vauxhall in for its MOT", frozenset()),
    # a name ending in "-ed" before the French "a" is still the subject
    ("Fred a changé de banque", frozenset({"fred"})),
])
def test_a_past_verb_opening_a_note_is_no_name(text: str, names: frozenset[str]) -> None:
    assert fact_person.subject_names(text) == names


@pytest.mark.parametrize(("new", "old", "state"), [
    ("The office was sold last year; the landlord is now Grange Estates", "We rent the office from Mr Hale",
     "The landlord is now Grange Estates"),
    ("With the merger, the payroll provider is Sage", "The payroll provider is Moorepay", "The payroll provider is Sage"),
    ("Ruth was promoted to lead; the new on-call engineer is Sami", "The on-call engineer is Ruth",
     "The new on-call engineer is Sami"),
    # no event before it, a task passed from one person to another (fact_handover's own), one clause only
    ("Ruth is on holiday, Sami covers on-call", "The on-call engineer is Ruth", ""),
    ("Ruth left, so now Sami is our on-call engineer", "The on-call engineer is Ruth", ""),
    ("The landlord is now Grange Estates", "We rent the office from Mr Hale", ""),
    # the older is someone else's: whose landlord the event told, the clause alone no longer says
    ("The office was sold last year; the landlord is now Grange Estates", "Nora's landlord is Mr Hale", ""),
])
def test_the_state_after_the_event(new: str, old: str, state: str) -> None:
    assert fact_after_event.state_after(new, old) == state


@pytest.mark.parametrize(("old", "new", "why"), [
    ("User's VPN is NordVPN", "VPN: Mullvad these days",
     "the older's slot as a note's label, another value: nordvpn -> mullvad"),
    ("The office's accountant is Sara Lind", "Accountant: Tomas Berg from March",
     "the older's slot as a note's label, another value: sara -> tomas"),
])
def test_the_older_slot_as_a_label(old: str, new: str, why: str) -> None:
    got = fact_label_value.labelled(old, new)
    assert got is not None and got.reason == why


@pytest.mark.parametrize(("old", "new"), [
    ("User's VPN is NordVPN", "VPN for work: Mullvad"),
    ("User's VPN is NordVPN", "Also a second VPN: Mullvad"),
    ("User's VPN is NordVPN", "VPN: NordVPN, renewed for two years"),
    ("The office wifi is called Heron", "New staff wifi: Heron-Staff"),
])
def test_a_label_of_another_slot_or_the_same_value(old: str, new: str) -> None:
    assert fact_label_value.labelled(old, new) is None


def test_a_new_label_the_older_says_nothing_of() -> None:
    assert fact_label_thing.another_labelled("User's VPN is NordVPN", "New office printer: Canon, toner T09") \
        == "the note's new office printer is another thing"
    assert fact_label_thing.another_labelled("The office printer is an HP", "New office printer: Canon") == ""


@pytest.mark.parametrize(("old", "new", "why"), [
    ("Receipts are scanned with Dext", "Receipt scanning moved to Hubdoc", ""),
    ("Invoices are sent from Sage", "Invoicing moved to Xero this spring", ""),
    ("Daniel works at Ocado", "Daniela works at Tesco now", "another person: ['daniela'] / ['daniel']"),
])
def test_one_noun_in_two_forms_is_no_two_people(old: str, new: str, why: str) -> None:
    assert fact_person.other_person(old, new) == why


@pytest.mark.parametrize(("old", "new", "why"), [
    ("The allotment is bed 7 at Cowley Road", "Gave up bed 7 and took on bed 12 at Cowley Road",
     "the older's value ended, another named: 7 -> 12"),
])
def test_a_number_after_the_older_word(old: str, new: str, why: str) -> None:
    got = fact_ended.ended(old, new)
    assert got is not None and got.reason == why


def test_a_number_after_another_word_is_no_end() -> None:
    assert fact_ended.ended("User runs in Saucony Ride 7 shoes", "Gave up bed 7 and took on bed 12") is None


def test_one_of_the_value_swapped_is_no_end() -> None:
    assert fact_ended.ended("I'm on the late shift, 2pm to 10pm", "I swapped one late shift with Ravi, so friday I'm on "
                            "the early") is None
