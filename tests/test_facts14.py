"""Round 14: an update said plainly, with no change word, read as one template with a new value
(memengine/fact_template.py, memengine/fact_slot.py's template band), and a past value told with a
"when" clause (memengine/fact_mood.py). Pairs of this file's own (none from tests/data/fact_heldout18.jsonl,
the round's blind set)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import pair_outcome

from memengine import fact_mood, fact_scope, fact_slot, fact_template
from memengine.fact_slot_weights import WEIGHTS

DOSE = ("I take 40 mg of sertraline every day", "the doctor put me on 60 mg of sertraline")
KIN = ("I take 40 mg of sertraline every day", "my husband takes 60 mg of sertraline")
OTHER_BILL = ("Our water bill is 30 a month with Thames", "our gas bill is 34 a month")


def _f(old: str, new: str) -> dict[str, float]:
    return dict(zip(fact_template.NAMES, fact_template.features(old, new)))


def test_template_replaces_values_by_their_kind() -> None:
    # (the project's stop words, units and light verbs are no content: "take", "mg", "every day")
    assert fact_template.template("I take 40 mg of sertraline every day") == (("#num", "40"), ("sertraline", "sertraline"))
    assert [t for t, _ in fact_template.template("Standup is at 9:15 on Monday")] == ["standup", "#time", "#date"]


def test_a_new_dose_of_the_same_thing_is_one_template_with_a_new_value() -> None:
    f = _f(*DOSE)
    assert f["old_covered"] == 1.0 and f["unit_changed"] == 1.0 and f["aligned_changed"] == 1.0
    assert f["unit_same_value"] == f["enclosed_swap"] == f["changed_apart"] == f["head_modified"] == 0.0
    assert fact_slot.same_template(fact_slot.features(*DOSE, 0.8, 0.8)) is True


def test_another_thing_of_the_frame_is_not_one_template() -> None:
    # a word swapped inside the frame, a word put before the older's first word, a value kept
    # (German nouns after a preposition read as names: a name and a value changed together)
    assert _f("Wir zahlen 60 Euro für Miete im Monat", "Wir zahlen 40 Euro für Parken im Monat")["changed_apart"] == 1.0
    assert _f("The museum closes at 6pm", "the museum shop closes at 5pm")["enclosed_swap"] == 1.0
    assert _f("The gateway listens on port 8080", "The admin gateway listens on port 9090")["head_modified"] == 1.0
    assert _f("Jugamos al pádel los martes", "los martes jugamos al pádel y los jueves al tenis")["value_reused"] == 1.0
    assert _f("Le foot de Hugo c'est le mercredi à 14h", "le foot de Nathan c'est le samedi à 10h")["changed_apart"] == 1.0
    for old, new in (OTHER_BILL, ("The museum closes at 6pm", "the museum shop closes at 5pm")):
        assert fact_slot.same_template(fact_slot.features(old, new, 0.8, 0.8)) is False


def test_a_capital_letter_after_a_word_names_the_thing() -> None:
    # "A" is an article to the stop words: "Server A" / "Server B" read as one server with more RAM (lead, 27 Nov)
    assert fact_template.template("Server A has 32 GB of RAM")[:2] == (("server", "server"), ("#name", "a"))
    assert _f("Server A has 32 GB of RAM", "Server B has 64 GB of RAM")["changed_apart"] == 1.0
    # the letter as the only value changed stays one slot's new value; "I" is no identifier
    f = _f("my seat is in row F", "my seat is in row K")
    assert f["aligned_changed"] == 1.0 and f["changed_apart"] == 0.0
    assert [t for t, _ in fact_template.template("Yesterday I ran 5 km")] == ["ran", "#num"]


def test_the_template_band_sits_under_the_supersession_threshold() -> None:
    assert 0.0 < WEIGHTS["gate_threshold"] < WEIGHTS["may_update"] < WEIGHTS["threshold"]
    pair = fact_slot.features(*DOSE, 0.8, 0.8)
    assert fact_slot.threshold_for(pair) == WEIGHTS["gate_threshold"]
    assert fact_slot.threshold_for(fact_slot.features(*OTHER_BILL, 0.8, 0.8)) == WEIGHTS["threshold"]


def test_a_past_value_told_with_a_when_clause_is_an_anecdote() -> None:
    assert fact_mood.unasserted("council tax was 120 a month when we moved in") == "anecdote"
    assert fact_mood.unasserted("le loyer était de 700 euros quand on est arrivés") == "anecdote"
    assert fact_mood.unasserted("The meeting was moved to Friday when we talked") == ""  # a passive change
    assert fact_mood.unasserted("Council tax is 140 a month") == ""


def test_a_value_for_a_narrower_group_is_another_slot() -> None:
    # "for <group>" closing the newer, a group the older never names: a narrower slot (lead, 27 Nov)
    assert fact_scope.scope_added("The max upload size is 10 MB", "The max upload size is 100 MB for admins")
    assert fact_scope.scope_added("The cache TTL is 300 seconds", "The cache TTL is 60 seconds for session tokens")
    assert fact_scope.scope_added("Le forfait coûte 20 euros", "le forfait coûte 10 euros pour les étudiants")
    # how long, not for whom; a group the older names; the older closes the same way
    assert not fact_scope.scope_added("The gym costs 35 a month", "the gym is 42 a month for now")
    assert not fact_scope.scope_added("La cantine coûte 3,20 euros le repas", "la mairie a voté 3,50 euros le repas pour la cantine")
    assert not fact_scope.scope_added("The limit is 5 for admins", "The limit is 8 for admins")
    assert fact_slot.features("The cache TTL is 300 seconds", "The cache TTL is 60 seconds for session tokens",
                              0.9, 0.9).veto == "scope"


# --------------------------------------------------------------------------- with the real model

@pytest.mark.parametrize(("old", "new", "superseded"), [
    (*DOSE, True), (*KIN, False), (*OTHER_BILL, False),
    ("Mi casillero en el gimnasio es el 12", "mi casillero en el trabajo es el 48", False),
    ("Server A has 32 GB of RAM", "Server B has 64 GB of RAM", False),
    ("The cache TTL is 300 seconds", "The cache TTL is 60 seconds for session tokens", False),
])
def test_real_model_a_plain_update_supersedes_and_its_look_alikes_do_not(  # type: ignore[no-untyped-def]
        real, tmp_path: Path, old: str, new: str, superseded: bool) -> None:
    assert pair_outcome(tmp_path / "r.db", old, new, real) == (superseded, False)
