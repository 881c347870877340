"""facts30: guards of the learned same-slot decision (memengine/fact_slot.py).

Two people's facts in two languages, each clearly its own, are never one slot to the learned decision
(memengine/fact_langs.py): a Dutch freelancer's news is no German provider switch, however near the
multilingual model puts them. Sentences of my own (not held-out 9's).
"""
from __future__ import annotations

from pathlib import Path

import pytest

import memory_core as core
from memengine import (
    fact_attr,
    fact_dose,
    fact_langs,
    fact_only,
    fact_person,
    fact_purpose,
    fact_quit,
    fact_slot,
    facts,
)
from memengine.fact_slot_weights import WEIGHTS


@pytest.mark.parametrize(("old", "new", "other"), [
    ("Wiebke arbeitet seit Mai bei der Sparkasse in Kiel", "Joost is bij de gemeente Delft gaan werken", "de/nl"),
    ("Joost neemt elke avond 5 mg melatonine voor het slapen", "Al padre de Nuria le han subido el enalapril a 20 mg",
     "nl/es"),
    ("Nuria vive con su hermana en el centro de Cádiz", "Lorenzo si è trasferito con la sorella a Bari", "es/it"),
    ("Lorenzo ha comprato una Panda usata", "Wiebke hat sich einen gebrauchten Polo gekauft", "es+it/de"),  # a tie names both
    ("Joost neemt elke avond 5 mg melatonine", "Nuria toma enalapril", None),  # too few function words
    # one language, or too few function words to tell: the score decides as before
    ("A equipa usa o Slack", "A equipa mudou do Slack para o Teams", None),
    ("Nuria toma 10 mg de cetirizina", "O Tiago toma 10 mg de cetirizina na primavera", None),  # es / pt: 1 word apart
    ("Das Café schließt um 18 Uhr", "Das Café schließt seit Oktober schon um 17 Uhr", None),
    ("my coffee order is an oat latte", "what's tom's coffee order again, oat latte?", None),
    ("La cena con i suoceri è sabato 9", "la cena coi suoceri l'abbiamo rimandata a sabato 16", None),
    ("Wiebke fährt Rad", "Joost fietst", None),  # no function word at all
])
def test_other_language(old: str, new: str, other: str | None) -> None:
    assert fact_langs.other_language(old, new) == other


def test_two_languages_is_a_veto_of_the_learned_decision() -> None:
    old, new = "Wiebke hat ihren Stromvertrag bei den Stadtwerken Kiel", "Joost is voor zichzelf begonnen als fotograaf"
    assert fact_slot.features(old, new, 0.8, 0.8).veto == "language"
    # (one language: no veto of this kind)
    assert fact_slot.features(old, "Wiebke hat jetzt Strom von Naturstrom", 0.8, 0.8).veto is None


def test_real_model_a_dutch_write_retires_no_german_fact(real, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert real.model_id == WEIGHTS["model_id"]
    s = core.MemoryStore(tmp_path / "m.db", embedder=real)
    try:
        first = s.store("Wiebke ist zu Naturstrom als Stromanbieter gewechselt", "semantic").id
        res = s.store("Joost is voor zichzelf begonnen als freelance fotograaf", "semantic")
        assert first not in res.supersedes and first not in res.may_update
    finally:
        s.close()


# --------------------------------------------------------------------------- which attribute (fact_attr)

@pytest.mark.parametrize(("old", "new", "apart"), [
    ("Femi works as a paramedic in Croydon", "Femi and Kofi are moving to Brighton", "work/home"),
    ("Greta arbeitet bei einer Versicherung in Köln", "Greta und Ole wohnen jetzt in Bonn", "work/home"),
    ("Ole fährt mit der Straßenbahn zur Arbeit", "Ole und Greta sind nach Bonn gezogen", "commute/home"),
    ("Mia va à l'école Jules Ferry", "Mia habite chez son père depuis septembre", "school/home"),
    # left to the score: a new job may say where one is now, teaching is work, one attribute in common
    ("Femi lives in Croydon", "femi's in leeds now, new job", None),
    ("Kofi trabaja en un banco", "Kofi dejó el banco y ahora da clases en un instituto", None),
    ("Greta fährt mit dem Rad zur Arbeit", "Greta fährt jetzt mit dem Bus zur Arbeit", None),
    ("Femi is a paramedic", "Femi moved to Brighton", None),  # no word names the job
])
def test_other_attribute(old: str, new: str, apart: str | None) -> None:
    assert fact_attr.other_attribute(old, new) == apart


def test_another_attribute_is_a_veto_of_the_learned_decision() -> None:
    old, new = "Femi works as a paramedic in Croydon", "Femi and Kofi are moving to Brighton"
    assert fact_slot.features(old, new, 0.8, 0.8).veto == "attribute"


# --------------------------------------------------------------------------- a switch for one purpose (fact_purpose)

def test_a_switch_for_one_purpose_keeps_the_other_fact_holding_the_value() -> None:
    olders = {1: "Dario tracks his team's bugs in Trello", 2: "Dario keeps his recipes in Trello",
              3: "Dario's laptop is a ThinkPad"}
    got = fact_purpose.narrowed("Dario moved from Trello to Jira for bug tracking", olders)
    assert (got.dropped, got.flagged) == (frozenset({2, 3}), frozenset())
    # no purpose named, or none of the olders says it: nobody can tell which -> both flagged, none retired
    got = fact_purpose.narrowed("Dario moved from Trello to Jira for the new client", {1: olders[1], 2: olders[2]})
    assert (got.dropped, got.flagged) == (frozenset(), frozenset({1, 2}))
    # one older holds the value: it stands; an older not holding it was read through a loose alias: dropped
    got = fact_purpose.narrowed("Ana est passée de Photoshop à Affinity pour le boulot",
                                {7: "Ana retouche ses photos sous Photoshop au bureau", 8: "Ana est graphiste"})
    assert (got.dropped, got.flagged) == (frozenset({8}), frozenset())
    # a write naming no value it left: nothing narrowed
    assert fact_purpose.narrowed("Dario uses Jira now", olders).dropped == frozenset()


def test_real_model_a_switch_for_one_purpose_retires_only_that_fact(real, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    s = core.MemoryStore(tmp_path / "p.db", embedder=real)
    try:
        bugs = s.store("Dario tracks his team's bugs in Trello", "semantic").id
        recipes = s.store("Dario keeps his recipes in Trello", "semantic").id
        res = s.store("Dario switched from Trello to Jira for bug tracking", "semantic")
        assert bugs in res.supersedes and recipes not in res.supersedes
    finally:
        s.close()


# --------------------------------------------------------------------------- a dose changed (fact_dose)

@pytest.mark.parametrize(("old", "new", "why"), [
    ("Nils takes 25 mg of atenolol at breakfast", "The cardiologist upped his atenolol to 50 mg", "25 -> 50 (atenolol)"),
    ("Greta nimmt 50 Mikrogramm Levothyroxin", "Der Arzt hat Greta auf 75 Mikrogramm Levothyroxin gesetzt, jetzt",
     "0.05 -> 0.075 (levothyroxin)"),
    ("Ines neemt 5 mg prednison per dag", "De longarts heeft de prednison verlaagd naar 2,5 mg", "5 -> 2.5 (prednison)"),
    ("Nils takes 25 mg of atenolol at breakfast", "Nils takes 25 mg of atenolol at breakfast, with water", None),
    ("Nils takes 25 mg of atenolol", "Nils also takes 10 mg of amlodipine now", None),  # another substance
    ("Nils takes 25 mg of atenolol", "Should we raise the atenolol to 50 mg?", None),  # a question
    ("Nils takes 25 mg of atenolol", "Nils takes 50 mg of atenolol at night", None),  # no change said: a second dose
])
def test_dose_changed(old: str, new: str, why: str | None) -> None:
    got = fact_dose.changed(old, new)
    assert (got.split(": ", 1)[1] if got else None) == why


# --------------------------------------------------------------------------- a rule restricted (fact_only)

@pytest.mark.parametrize(("old", "new", "restricted"), [
    ("The cleaners come every weekday morning", "The cleaners now come only on Mondays", True),
    ("Der Chor probt dienstags und freitags", "Der Chor probt jetzt nur noch freitags", True),
    ("Nour travaille au siège tous les jours", "Nour ne travaille plus au siège que le jeudi", True),
    ("Il mercato è aperto tutti i giorni", "Il mercato adesso è aperto solo il sabato", True),
    ("The cleaners come every weekday morning", "This week only the cleaners come on Friday", False),  # one occasion
    ("O treino de andebol é segunda e quarta", "o treino de ténis é só à quarta", False),  # another training
    ("The cleaners come every weekday morning", "my sister's cleaners come only on Mondays", False),  # someone else's
    ("Nour fait du vélo le dimanche", "Nour ne travaille plus au siège que le jeudi", False),  # person + light verb
])
def test_rule_restricted(old: str, new: str, restricted: bool) -> None:
    assert bool(fact_only.restricted(old, new)) is restricted


def test_an_elided_name_is_the_same_person() -> None:
    # "L'équipe d'Inès": the name after the elided article is Inès (was read as another person, a veto)
    assert fact_person.other_person("L'atelier d'Anaïs ouvre le lundi", "L'atelier d'Anaïs n'ouvre plus que le mardi") == ""


def test_a_dutch_participle_with_its_object_after_it() -> None:
    # "is gestopt met hockey": the object after the participle (before, the object was read before it only)
    got = fact_quit.gave_up("Joris tennist elke dinsdag bij LTC Zeist", "Joris is gestopt met tennis en doet nu judo")
    assert got is not None and got.reason == "activity given up: tennis"
    assert fact_quit.gave_up("Joris heeft een tuintje bij de volkstuin", "Joris heeft zijn tuintje opgezegd") is not None


def test_dutch_weekdays_and_day_parts_are_days() -> None:
    days = [(v.kind, v.norm) for v in facts.analyse("Het spreekuur is verschoven naar donderdagochtend").values]
    assert days == [("weekday", (3,))]
    assert [(v.kind, v.norm) for v in facts.analyse("Der Kurs ist jetzt Mittwochabends").values] == [("weekday", (2,))]
