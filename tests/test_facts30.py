"""facts30: guards of the learned same-slot decision (memengine/fact_slot.py).

Two people's facts in two languages, each clearly its own, are never one slot to the learned decision
(memengine/fact_langs.py): a Dutch freelancer's news is no German provider switch, however near the
multilingual model puts them. Sentences of my own (not held-out 9's).
"""
from __future__ import annotations

from pathlib import Path

import pytest

import memory_core as core
from memengine import fact_langs, fact_slot
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
