"""facts35 (the facts34 lane): the words of an agent's notes that held clear updates back — a note's label
("Update:", "Decided:"), "still" said of another part, when the change starts ("as of October", "from January"), a
reason or an end said of the older's value in a clause of its own. Pure readings and the rules-only plan (no model);
the stored outcome with the real model is bench/fact_crowded.py --heldout tests/data/fact_crowded_heldout13.jsonl."""

from __future__ import annotations

import pytest

from memengine import fact_effective, fact_full_name, fact_kept, fact_left_clause, fact_note_label, supersession


@pytest.mark.parametrize(("text", "out"), [
    ("Update: broadband is now Community Fibre, 500 Mbps", "Broadband is now Community Fibre, 500 Mbps"),
    ("Decided: Rosa comes every Monday from next week", "Rosa comes every Monday from next week"),
    ("FYI - the standup is at 9:30 now", "The standup is at 9:30 now"),
    ("Mise à jour : la réunion est le mardi", "La réunion est le mardi"),
    ("Aktualisierung: Backups laufen um 4 Uhr", "Backups laufen um 4 Uhr"),
    # no label: a subject's label, a cue, a word too few, a label word inside the sentence
    ("Drucker im Büro: Brother MFC-L3770", "Drucker im Büro: Brother MFC-L3770"),
    ("New printer: HP Color LaserJet", "New printer: HP Color LaserJet"),
    ("Update: done", "Update: done"),
    ("The update server is on Hetzner", "The update server is on Hetzner"),
])
def test_a_note_label_is_taken_off(text: str, out: str) -> None:
    assert fact_note_label.unlabelled(text) == out


@pytest.mark.parametrize(("old", "new", "out"), [
    ("Deploys are frozen on Fridays after 15:00", "Deploys are frozen from Thursday 17:00 now; staging still deploys "
     "from develop", "Deploys are frozen from Thursday 17:00 now"),
    ("The safety officer is Mehmet Yilmaz", "The safety officer is Hannah Cole now; waste is still collected on "
     "Fridays", "The safety officer is Hannah Cole now"),
    ("UK shipping is free on orders over £40", "Free UK shipping starts at £50 now; the Etsy listings still mirror "
     "Shopify", "Free UK shipping starts at £50 now"),
])
def test_still_of_another_part_is_taken_off(old: str, new: str, out: str) -> None:
    assert fact_kept.without(old, new) == out


@pytest.mark.parametrize(("old", "new"), [
    # no head of its own: the veto stays (held-out 11)
    ("Arjun plays football on Saturdays", "Arjun is in Year 5 now, still at Ashley Down"),
    # the head is the older's own, saying something the older does not
    ("The staging server runs Debian 11", "Prod runs Debian 12 now; staging is still on the old kernel"),
    # "still" in the first clause: the sentence says its value stays
    ("User banks with Nationwide", "User still banks with Nationwide, only the savings moved to Chase"),
    ("The accounts are kept in Xero", "Xero still holds the accounts; receipts are scanned with Dext"),
])
def test_still_kept_where_it_is_about_the_older(old: str, new: str) -> None:
    assert fact_kept.without(old, new) == new


@pytest.mark.parametrize(("old", "new", "out"), [
    ("Infrastructure is managed with Terraform 1.5", "Terraform is on 1.7 as of October", "Terraform is on 1.7"),
    ("The shop runs on Shopify, Basic plan", "As of April, the shop is on the Shopify Grow plan",
     "The shop is on the Shopify Grow plan"),
    ("The group's reference manager is Zotero", "Paperpile is the group's reference manager from January",
     "Paperpile is the group's reference manager"),
    ("Oligos are ordered from IDT", "Oligos come from Sigma as of November, IDT's shipping got too slow",
     "Oligos come from Sigma, IDT's shipping got too slow"),
    ("The lab's budget code is RX-4410", "The budget code changed to RX-5120 as of the new grant year",
     "The budget code changed to RX-5120"),
    # kept: the older states a time (the phrase may be the value); a bare weekday; "from now on"; a left month
    ("Deploys are frozen on Fridays", "Deploys are frozen from Thursday now", "Deploys are frozen from Thursday now"),
    ("Rosa comes every other Thursday", "Rosa comes every Monday from next week",
     "Rosa comes every Monday from next week"),
    ("Oligos are ordered from IDT", "Oligos come from Sigma from now on", "Oligos come from Sigma from now on"),
    ("The launch is on 3 May", "The launch moved from January to March", "The launch moved from January to March"),
])
def test_when_the_change_starts_is_no_value(old: str, new: str, out: str) -> None:
    assert fact_effective.without(old, new) == out


@pytest.mark.parametrize(("old", "new", "left"), [
    ("Groceries are delivered by Tesco on Sunday mornings",
     "Groceries come from Sainsbury's now because Tesco kept substituting things", "tesco"),
    ("FBS is bought from Gibco", "FBS is bought from Sigma now since Gibco's lot was back-ordered", "gibco"),
    ("The status page is hosted on Statuspage.io", "No more Statuspage.io, the status page is on Instatus now",
     "statuspage.io"),
    ("The group's electronic lab notebook is Benchling",
     "No more Benchling, the notebook is LabArchives since the licence was cut", "benchling"),
    ("Statistics are done in GraphPad Prism", "Stats are done in R now; Prism is no longer licensed", "prism"),
])
def test_the_older_value_said_left_for_a_reason_or_ended(old: str, new: str, left: str) -> None:
    assert fact_left_clause.left_in_clause(old, new) == left


@pytest.mark.parametrize(("old", "new"), [
    # a pause, not an end; nothing new named beside the end
    ("The streaming subscriptions are Netflix and Disney+",
     "No more Disney+ over the summer, we watch Apple TV until September"),
    ("The streaming subscriptions are Netflix and Disney+", "No more Disney+, it is paused"),
    # the value named again as taken
    ("Builds run on Jenkins", "Builds moved to Drone last year, back on Jenkins now because Drone kept failing"),
])
def test_no_left_value(old: str, new: str) -> None:
    assert fact_left_clause.left_in_clause(old, new) == ""


def _plan(old: str, new: str) -> list[supersession.Decision]:
    """The rules-only plan (no model) of ``new`` against one older fact, the older stored a month before."""
    return supersession.plan(2, new, "2026-02-01T00:00:00", [((1, old, "2026-01-01T00:00:00", "agent"), None)],
                             new_source="agent")


@pytest.mark.parametrize(("old", "new"), [
    ("User's broadband is with BT, 150 Mbps", "Update: broadband is now Community Fibre, 500 Mbps"),
    ("The cleaner, Rosa, comes every other Thursday", "Decided: Rosa comes every Monday from next week"),
    ("The group's reference manager is Zotero", "Decided: Paperpile is the group's reference manager from January"),
    ("Deploys are frozen on Fridays after 15:00",
     "Deploys are frozen from Thursday 17:00 now; staging still deploys from develop"),
])
def test_the_rules_retire_the_older(old: str, new: str) -> None:
    got = _plan(old, new)
    assert [(d.winner, d.loser, d.maybe) for d in got] == [(2, 1, False)]


@pytest.mark.parametrize(("old", "new"), [
    ("Staging is deployed automatically from the develop branch",
     "Deploys are frozen from Thursday 17:00 now; staging still deploys from develop"),
    ("The -80 freezer is in room B214", "The -80 freezer is still in B214, the alarm was fixed"),
    ("Dr Sarah Lindqvist is the PI", "Dr Maria Lindqvist is the PI of the neighbouring lab"),
    ("TLS certificates are issued by cert-manager with Let's Encrypt",
     "Update: cert-manager was upgraded to 1.14, still issuing from Let's Encrypt"),
])
def test_look_alikes_retire_nothing(old: str, new: str) -> None:
    assert _plan(old, new) == []


@pytest.mark.parametrize(("old", "new", "why"), [
    ("Peter Whitfield lives in Adelaide", "Jenny Whitfield moved to Perth", "another bearer of whitfield: jenny / peter"),
    ("Lucy Tran packs the orders on weekdays", "Mai Tran packs the orders at the Bristol pop-up",
     "another bearer of tran: mai / lucy"),
    # one person; a surname alone; the other's given name said; no full name in a row
    ("Peter Whitfield lives in Adelaide", "Peter Whitfield moved to Perth", ""),
    ("Whitfield lives in Adelaide", "Jenny Whitfield moved to Perth", ""),
    ("Peter Whitfield lives in Adelaide", "Peter and Jenny Whitfield moved to Perth", ""),
    ("User's husband Emeka Okafor works at Arup", "Obi Okafor, Emeka's brother, now works at Arup as a surveyor", ""),
])
def test_a_shared_surname_is_not_the_same_person(old: str, new: str, why: str) -> None:
    assert fact_full_name.another_bearer(old, new) == why


def test_a_shared_surname_retires_nothing() -> None:
    assert _plan("Peter Whitfield lives in Adelaide", "Jenny Whitfield moved to Perth") == []
    assert [(d.winner, d.loser) for d in _plan("Peter Whitfield lives in Adelaide", "Peter Whitfield moved to Perth")] \
        == [(2, 1)]
