"""Facts that change, round 10: one-off exceptions are no updates (memengine/fact_occasion.py). Pairs written
for these tests (none from tests/data/fact_heldout13.jsonl, the round's blind set)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memengine import fact_cue, fact_occasion, fact_slot, fact_stated, facts
from memory_core import MemoryStore

# (old, new, why): the newer tells one day, one occasion or one absence; the standing value holds
EXCEPTIONS = [
    ("The hardware store opens at 8am", "the hardware store opens at 10 on sunday", "one day's value"),
    ("The hardware store opens at 8am", "the hardware store opens at 10 on sundays", "one day's value"),
    ("The climbing gym closes at 10pm", "tonight the climbing gym closes at 8", "one day"),
    ("Orchestra rehearsal is on Tuesdays", "orchestra rehearsal is on thursday this week", "one day"),
    ("Orchestra rehearsal is on Tuesdays", "next tuesday orchestra rehearsal is at the church hall", "one day"),
    ("The canteen serves lunch until 2pm", "on christmas eve the canteen serves lunch until noon", "holiday"),
    ("The canteen serves lunch until 2pm", "exceptionally the canteen serves lunch until 3pm", "exception"),
    ("I report to Lena Fischer", "I report to Paolo Conti while lena is on leave", "stand-in"),
    ("I report to Lena Fischer", "Paolo Conti is covering for Lena until friday", "stand-in"),
    ("La poste ouvre à 9h", "demain la poste ouvre à 10h", "one day"),
    ("La poste ouvre à 9h", "le samedi la poste ouvre à 10h", "one day's value"),
    ("El mercado abre a las 8", "el mercado abre a las 10 el domingo", "one day's value"),
    ("El mercado abre a las 8", "por el festivo el mercado abre a las 10", "holiday"),
    ("Die Bäckerei öffnet um 6 Uhr", "Morgen öffnet die Bäckerei erst um 8", "one day"),
    ("Die Bäckerei öffnet um 6 Uhr", "Am Sonntag öffnet die Bäckerei erst um 8", "one day's value"),
    ("Mein Chef ist Herr Lang", "Solange Herr Lang im Urlaub ist, berichte ich an Frau Roth", "stand-in"),
    ("O mercado abre às 7h", "hoje o mercado abre às 9h", "one day"),
    ("O mercado abre às 7h", "no sábado o mercado abre às 9h", "one day's value"),
    ("Il museo chiude alle 19", "domani il museo chiude alle 17", "one day"),
    ("Il museo chiude alle 19", "a ferragosto il museo chiude alle 13", "holiday"),
]

# the marker is when the change starts, its new value, or the older is itself one dated occasion
STANDING = [
    ("The hardware store opens at 8am", "the hardware store opens at 7:30 from monday"),
    ("The hardware store opens at 8am", "starting tomorrow the hardware store opens at 7:30"),
    ("Orchestra rehearsal is on Tuesdays", "orchestra rehearsal moved to thursdays"),
    ("Die Bäckerei öffnet um 6 Uhr", "Ab Montag öffnet die Bäckerei erst um 7"),
    ("La poste ouvre à 9h", "à partir de demain la poste ouvre à 8h30"),
    ("O mercado abre às 7h", "a partir de amanhã o mercado abre às 6h"),
    ("Il museo chiude alle 19", "da domani il museo chiude alle 18"),
    ("The streaming plan is 12.99 a month", "the streaming plan went up to 14.99 this month"),
    ("The vet appointment is on June 3", "the vet appointment got moved to tomorrow"),
    ("Nuestra directora es Elena", "Marta ha remplazado a Elena como directora"),
]


@pytest.mark.parametrize(("old", "new", "why"), EXCEPTIONS)
def test_one_off_read(old: str, new: str, why: str) -> None:
    assert fact_occasion.one_off(old, new) == why


@pytest.mark.parametrize(("old", "new", "why"), EXCEPTIONS)
def test_one_off_never_supersedes(old: str, new: str, why: str) -> None:
    assert facts.compare(old, new) is None
    assert facts.restated(old, new) is None
    assert fact_cue.detect(old, new, 0.9) is None
    assert fact_slot.features(old, new, 0.9, 0.9).veto == "occasion"


@pytest.mark.parametrize(("old", "new"), STANDING)
def test_standing_change_is_no_exception(old: str, new: str) -> None:
    assert fact_occasion.one_off(old, new) == ""


@pytest.mark.parametrize(("old", "new"), STANDING[:-3])
def test_standing_change_supersedes(old: str, new: str) -> None:
    assert facts.compare(old, new) is not None


def test_store_keeps_the_standing_value(tmp_path: Path) -> None:
    """In a real store: a one-day exception leaves the standing fact current; a change from a day supersedes."""
    s = MemoryStore(tmp_path / "m.db")
    try:
        a = s.store("The hardware store opens at 8am").id
        res = s.store("the hardware store opens at 10 on sunday")
        assert res.supersedes == [] and not res.deduplicated and res.superseded_by is None
        assert s.get(a).valid_to is None  # type: ignore[union-attr]
        b = s.store("I report to Lena Fischer").id
        res = s.store("I report to Paolo Conti while lena is on leave")
        assert res.supersedes == [] and s.get(b).valid_to is None  # type: ignore[union-attr]
    finally:
        s.close()
    s = MemoryStore(tmp_path / "n.db")
    try:
        a = s.store("The hardware store opens at 8am").id
        res = s.store("the hardware store opens at 7:30 from monday")
        assert res.supersedes == [a]
    finally:
        s.close()


# --------------------------------------------------------------------------- updates said otherwise

# (old, new): a correction, a German separable verb, whom one reports to, a slot changed for another
STATED_UPDATES = [
    ("Piano lessons are on Mondays at 4", "correction: piano lessons are on tuesdays, not mondays"),
    ("Piano lessons are on Mondays at 4", "oops, I meant piano lessons are at 5 on mondays"),
    ("Le club de lecture est le jeudi", "pardon, je voulais dire : le club de lecture est le vendredi"),
    ("La clase de pilates es los lunes", "perdón, me equivoqué: la clase de pilates es los martes, no los lunes"),
    ("Der Baumarkt öffnet um 8 Uhr", "Der Baumarkt macht jetzt erst um 9 Uhr auf"),
    ("Die Bücherei schließt um 18 Uhr", "Die Bücherei macht seit Oktober schon um 17 Uhr zu"),
    ("Mein Abteilungsleiter ist Herr Simon", "Herr Simon ist gegangen, ich berichte jetzt an Frau Demir"),
    ("Ma cheffe est Aurélie", "Aurélie est partie, je dépends maintenant de Malik"),
    ("Il mio capo è Stefano", "stefano ha cambiato reparto, ora rispondo a Elisa"),
    ("Mi supervisora es Beatriz", "Beatriz se jubiló y ahora le reporto a Ramón"),
    ("My line manager is Gemma Hart", "gemma moved teams, I report to Felix Gray now"),
    ("Mon ostéo c'est Julie", "j'ai changé d'ostéo, je vais chez Marc maintenant"),
    ("Mi peluquera es Rosa", "me cambié de peluquera, ahora voy con Inés"),
    ("Meu pediatra é o dr. Lucas", "troquei de pediatra, agora vamos na dra. Helena"),
    ("Unser Tierarzt ist Dr. Kern", "wir haben den Tierarzt gewechselt, jetzt gehen wir zu Dr. Falk"),
    ("A aula de dança é às quartas", "a aula de dança passou pra sexta"),
]
STATED_LOOKALIKES = [
    ("Die Bücherei öffnet um 9 Uhr", "Die Bücherei macht um 18 Uhr zu"),  # the other end
    ("Mein Abteilungsleiter ist Herr Simon", "Herr Braun ist gegangen, ich berichte jetzt an Frau Demir"),
    ("Mein Zahnarzt ist Dr. Kern", "Dr. Kern ist gegangen, ich berichte jetzt an Frau Demir"),
    ("Mon ostéo c'est Julie", "ma sœur a changé d'ostéo, elle va chez Marc"),
    ("Mon ostéo c'est Julie", "j'ai changé le rendez-vous chez l'ostéo"),
    ("Le dentiste de mon fils est le docteur Petit", "j'ai changé de dentiste, je vais chez le docteur Roy"),
    ("La salle de sport coûte 30 euros", "j'ai changé de salle de sport, je vais à celle du centre"),
    ("Piano lessons are on Mondays at 4", "sorry, can't make piano lessons on monday"),
]


@pytest.mark.parametrize(("old", "new"), STATED_UPDATES)
def test_stated_update_supersedes(old: str, new: str) -> None:
    assert facts.compare(fact_stated.stated(old), fact_stated.stated(new)) is not None


@pytest.mark.parametrize(("old", "new"), STATED_LOOKALIKES)
def test_stated_lookalike_does_not(old: str, new: str) -> None:
    assert facts.compare(fact_stated.stated(old), fact_stated.stated(new)) is None


def test_stated_forms() -> None:
    assert fact_stated.stated("correction: piano lessons are on tuesdays, not mondays") == \
        "piano lessons are on tuesdays"
    assert fact_stated.stated("Der Baumarkt macht jetzt erst um 9 Uhr auf") == "Der Baumarkt öffnet jetzt erst um 9 Uhr"
    assert fact_stated.stated("Ab Montag fängt der Kurs um 8 an") == "Ab Montag beginnt der Kurs um 8"
    assert fact_stated.stated("I take the bus, not anymore the train") == "I take the bus, not anymore the train"
    assert fact_stated.stated("I mean it") == "I mean it"
    assert fact_stated.stated("Ana said the gym opens at 7, not 8") == "the gym opens at 7"


def test_store_reads_a_correction_and_a_report(tmp_path: Path) -> None:
    """In a real store: a correction and a new boss reported to supersede; a look-alike swap does not."""
    s = MemoryStore(tmp_path / "m.db")
    try:
        a = s.store("Piano lessons are on Mondays at 4").id
        res = s.store("correction: piano lessons are on tuesdays, not mondays")
        assert res.supersedes == [a]
        b = s.store("Ma cheffe est Aurélie").id
        res = s.store("Aurélie est partie, je dépends maintenant de Malik")
        assert res.supersedes == [b]
        c = s.store("Le dentiste de mon fils est le docteur Petit").id
        res = s.store("j'ai changé de dentiste, je vais chez le docteur Roy")
        assert res.supersedes == [] and s.get(c).valid_to is None  # type: ignore[union-attr]
    finally:
        s.close()
