"""Round 17: facts that change. An older note that says several things (an agent's description of a
project, a person, a server) is not retired by a newer note about one of its attributes: the two are
linked ``may_update`` instead (memengine/fact_untouched.py, memengine/supersession.py). Pairs of this
file's own, agent-style, EN / DE / FR / ES."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import pair_links

from memengine import fact_cue, fact_mood, fact_untouched, supersession
from memengine.fact_change_words import change_words

# (a description, then one attribute of it): the older states facts the newer neither repeats nor changes
DESCRIPTION_THEN_ATTRIBUTE = [
    ("Fernway is the React Native app of Fernway Trails (trail maps, bookings of guided hikes); the repo is "
     "github.com/fernway/app and releases go out through EAS.", "The app is on Expo SDK 50 with React Native 0.73."),
    ("Marta is our backend lead; she lives in Lisbon and owns the deploy pipeline.", "Marta lives in Porto now."),
    ("The build server is build-01, a Hetzner AX102 with 128 GB RAM, running Ubuntu 22.04; it also hosts the "
     "Grafana dashboards.", "The build server runs Ubuntu 24.04 now."),
    ("Mercure est le service de notifications : écrit en Rust, il tourne sur Fly.io et envoie les e-mails via "
     "Postmark.", "Mercure tourne sur Render maintenant."),
    ("Kestrel ist die Android-App von Kestrel Bikes; das Repo liegt auf gitlab.com/kestrel/app und die Releases "
     "laufen über Fastlane.", "Die Kestrel-App nutzt jetzt Kotlin 2.0."),
    ("Lucía es la jefa de producto; trabaja desde Valencia y lleva el roadmap de pagos.",
     "Lucía trabaja ahora desde Madrid."),
]

# one statement on each side, or a newer that touches every statement of the older: as before
ONE_THING = [
    ("The team standup is at 9:15 every day", "the standup is at 9:30"),
    ("Marta lives in Lisbon", "Marta lives in Porto now"),
    ("My dentist is Dr. Kim at the St. Mary clinic", "My dentist is Dr. Lee now"),
    ("The API runs on Node 18 and is deployed on Heroku", "The API runs on Node 20 and is deployed on Fly.io"),
    ("Le loyer est de 950 euros par mois", "Le loyer passe à 1 000 euros par mois"),
]


@pytest.mark.parametrize(("old", "new"), DESCRIPTION_THEN_ATTRIBUTE)
def test_a_statement_the_newer_does_not_touch_is_found(old: str, new: str) -> None:
    assert fact_untouched.untouched(old, new) != ""


@pytest.mark.parametrize(("old", "new"), ONE_THING)
def test_one_thing_or_every_statement_touched(old: str, new: str) -> None:
    assert fact_untouched.untouched(old, new) == ""


def test_statements_split_at_clause_marks_not_inside_values() -> None:
    parts = fact_untouched.statements("Marta is our backend lead; she lives in Lisbon and owns the deploy pipeline.")
    assert parts == (("marta", "backend", "lead"), ("lives", "lisbon"), ("owns", "deploy", "pipeline"))
    # a dot in an address or a version, a comma in a number, an abbreviation: no clause mark
    assert len(fact_untouched.statements("The repo is github.com/x/app v0.73 with 1,200 stars at St. Mary")) == 1


def test_the_rule_path_is_demoted_to_may_update() -> None:
    """The cue rule reads "lives ... now" as Marta's new home: a link, not a retirement (fake cosines: the
    rule path only)."""
    old, new = DESCRIPTION_THEN_ATTRIBUTE[1]
    row = (1, old, "2026-01-01T00:00:00", None)
    decisions = supersession.plan(2, new, "2026-02-01T00:00:00", [(row, 0.8)])
    assert [(d.winner, d.loser, d.maybe) for d in decisions] == [(2, 1, True)]
    assert "the older says more" in decisions[0].verdict.reason
    one_old, one_new = ONE_THING[1]
    row = (1, one_old, "2026-01-01T00:00:00", None)
    decisions = supersession.plan(2, one_new, "2026-02-01T00:00:00", [(row, 0.8)])
    assert [(d.winner, d.loser, d.maybe) for d in decisions] == [(2, 1, False)]


# a revert as agents write it: the slot back on an earlier value
REVERTS = [
    ("We upgraded to Expo SDK 51", "Rolled back to SDK 50"),
    ("CI moved to Buildkite", "CI is back on GitHub Actions"),
    ("The app's state moves to Zustand", "Reverted the Zustand migration: the app is back on Redux Toolkit"),
    ("L'API tourne sur Fly.io", "On est revenus sur Heroku pour l'API"),
    ("Die App nutzt jetzt Zustand", "Wir sind zurück auf Redux Toolkit"),
]


@pytest.mark.parametrize(("old", "new"), REVERTS)
def test_a_revert_is_a_change_said(old: str, new: str) -> None:
    cue = fact_cue.find_cue(new)
    assert cue is not None and cue.kind == "now"
    assert change_words(old, new)[1]


@pytest.mark.parametrize(("old", "new"), [
    ("Tom is on leave this week", "Tom is back on Monday"),
    ("The dentist appointment is on May 3", "I go back to the dentist on June 10"),
])
def test_back_with_a_day_after_it_is_no_revert(old: str, new: str) -> None:
    row = (1, old, "2026-01-01T00:00:00", None)
    assert supersession.plan(2, new, "2026-02-01T00:00:00", [(row, 0.8)]) == []


def test_a_revert_with_a_new_value_supersedes_on_the_rule_path() -> None:
    old, new = REVERTS[0]
    row = (1, old, "2026-01-01T00:00:00", None)
    decisions = supersession.plan(2, new, "2026-02-01T00:00:00", [(row, 0.8)])
    assert [(d.winner, d.loser, d.maybe) for d in decisions] == [(2, 1, False)]


@pytest.mark.parametrize(("text", "mood"), [
    ("Wir wollen dem Server nächstes Jahr 64 GB RAM geben", "plan"),
    ("we want to move CI to Buildkite next quarter", "plan"),
    ("On va passer à Postgres 16 le mois prochain", "plan"),
    ("Queremos migrar la base de datos el año que viene", "plan"),
    # a want without a time to come is a preference; a time to come without a want is a scheduled change
    ("Ich will kein Fleisch mehr essen", ""),
    ("The rent goes up to 1,300 next month", ""),
    ("Der Server hat jetzt 64 GB RAM", ""),
])
def test_a_plan_with_a_want_and_a_time_to_come(text: str, mood: str) -> None:
    assert fact_mood.unasserted(text) == mood


# --------------------------------------------------------------------------- with the real model

@pytest.mark.parametrize(("old", "new"), DESCRIPTION_THEN_ATTRIBUTE[:4])
def test_real_model_description_not_retired(real, tmp_path: Path, old: str, new: str) -> None:  # type: ignore[no-untyped-def]
    superseded, _flagged = pair_links(tmp_path / "r.db", old, new, real)
    assert not superseded


@pytest.mark.parametrize(("old", "new"), REVERTS[:2])
def test_real_model_revert_supersedes(real, tmp_path: Path, old: str, new: str) -> None:  # type: ignore[no-untyped-def]
    assert pair_links(tmp_path / "r.db", old, new, real) == (True, False)


def test_real_model_description_flagged(real, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    old, new = DESCRIPTION_THEN_ATTRIBUTE[1]  # (the rules read an update of one attribute: flagged)
    assert pair_links(tmp_path / "r.db", old, new, real) == (False, True)
