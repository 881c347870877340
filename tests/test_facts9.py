"""Facts that change, round 9: Italian read as a language of its own, an owner left unsaid, a purpose or
a kind of value beside the slot, a first clause that denies. Pairs written for these tests (none from
tests/data/fact_heldout12.jsonl, the round's blind set)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memengine import fact_scope, facts
from memengine.fact_tokens import guess_lang
from memory_core import MemoryStore

UPDATES = [
    # Italian: copula "è" read from its accent, weekdays, "adesso", change verbs, "non ... più"
    ("Il turno di Giulia è il sabato", "il turno di Giulia è passato alla domenica"),
    ("Vado in palestra il martedì", "adesso vado in palestra il giovedì"),
    ("La lezione di chitarra è alle 17", "la lezione di chitarra è stata anticipata alle 16"),
    ("Bevo il caffè", "non bevo più il caffè, solo tè"),
    ("Il corso d'inglese costa 90 euro", "il corso d'inglese adesso costa 110 euro"),
    # an owner left unsaid keeps the older's
    ("The twins' swimming lesson starts at 4pm", "swimming lesson starts at 4:30pm"),
    ("La guardería de los niños abre a las 8", "Este curso la guardería abre a las 7:30"),
    ("Grandpa's physio is on Mondays", "physio is now on Fridays"),
    # a school year or a season as the change's time
    ("Mon fils prend le bus de 7h20", "Mon fils prend le bus de 7h35 depuis la rentrée"),
    # a first clause that denies, whatever the second adds
    ("Je fume", "je ne fume plus, j'ai arrêté en janvier"),
    # the older's value given up, whatever comes instead (names typed in lower case)
    ("Priya works at the town hall", "priya quit the town hall, she's freelancing now"),
    ("we stream music on deezer", "cancelled deezer, it's all on tidal now"),
    ("Jana arbeitet bei Aldi", "jana hat bei aldi gekündigt, jetzt ist sie bei rewe"),
    ("lavoro in banca", "ho lasciato la banca, ora faccio la maestra"),
    # since when, or what brought the change, is no word of the frame
    ("Der Chor probt montags", "Der Chor probt seit diesem Monat donnerstags"),
    ("Ich trinke Kaffee", "trinke seit zwei wochen keinen kaffee mehr"),
    ("My partner's bus leaves at 7:10", "the bus leaves at 7:25 with the new timetable"),
]

LOOKALIKES = [
    # another purpose, another kind of value, another owner named, another course
    ("Je prends le vélo pour aller au bureau", "je prends le vélo pour aller à la piscine"),
    ("Tomo el tren para ir al trabajo", "tomo el tren para ir a casa de mi abuela"),
    ("I read 30 pages a night", "I read in bed 4"),
    ("My uncle's rent is 700", "my rent is now 750"),
    ("The twins' swimming lesson starts at 4pm", "my swimming lesson starts at 4:30pm"),
    ("Il corso di yoga è il lunedì", "il corso di pilates è il mercoledì"),
    ("Il turno di Giulia è il sabato", "se il turno passa alla domenica non posso venire"),
    # a disposal by someone else, of something else, or across a clause
    ("Ich arbeite bei Aldi", "Jana hat bei Aldi gekündigt und ist jetzt bei Rewe"),
    ("Priya works at the town hall", "Tom quit the town hall, so now Priya runs it alone"),
    ("Priya works at the town hall", "Priya left her keys at the town hall"),
    ("Priya works at the town hall", "priya didn't quit the town hall"),
    ("Our treasurer is Omar", "Sam left, so now Omar is the secretary"),
    # Italian words that are names or content elsewhere stay content
    ("Sue manages the CI pipeline", "Ed manages the CI pipeline now"),
]


@pytest.mark.parametrize(("old", "new"), UPDATES)
def test_update_supersedes(old: str, new: str) -> None:
    assert facts.compare(old, new) is not None


@pytest.mark.parametrize(("old", "new"), LOOKALIKES[:-1])
def test_lookalike_does_not(old: str, new: str) -> None:
    assert facts.compare(old, new) is None


def test_italian_is_a_language() -> None:
    assert guess_lang("il corso di yoga è il martedì") == "it"
    assert guess_lang("La guardería de los niños abre a las 8") == "es"
    assert guess_lang("A aula de natação é às terças") == "pt"
    # "Sue", "Ed", "CI" are no Italian function words
    assert [w.key for w in facts.analyse(LOOKALIKES[-1][1]).words] == ["ed", "manages", "ci", "pipeline"]
    assert [w.key for w in facts.analyse(LOOKALIKES[-1][0]).words][0] == "sue"


def test_italian_negation_only_in_italian() -> None:
    assert facts.analyse("Mai is our designer").negations == []
    assert facts.analyse("She works for a non-profit").negations == []
    assert facts.analyse("non mangio mai carne").polarity == 1


def test_owner() -> None:
    assert fact_scope.owner("The kids' school starts at 8:15") == ("other", frozenset({"kids"}))
    assert fact_scope.owner("school starts at 8:40") == ("", frozenset())
    assert fact_scope.owner("my rent is 950")[0] == "self"
    assert fact_scope.owner_dropped("Grandpa's physio is on Mondays", "physio is on Fridays")
    assert not fact_scope.owner_dropped("Grandpa's physio is on Mondays", "my physio is on Fridays")


def test_purpose_words() -> None:
    f = facts.analyse("je prends le vélo pour aller à la piscine")
    piscine = next(i for i, w in enumerate(f.words) if w.key == "piscine")
    velo = next(i for i, w in enumerate(f.words) if w.key == "velo")
    assert fact_scope.purpose_words(f, [piscine]) and not fact_scope.purpose_words(f, [velo])


def test_store_supersedes_italian_and_dropped_owner(tmp_path: Path) -> None:
    """In a real store: the Italian update and the unsaid owner supersede; another purpose does not."""
    s = MemoryStore(tmp_path / "m.db")
    try:
        a = s.store("Vado in palestra il martedì").id
        res = s.store("adesso vado in palestra il giovedì")
        assert res.supersedes == [a]
        b = s.store("The twins' swimming lesson starts at 4pm").id
        res = s.store("swimming lesson starts at 4:30pm")
        assert res.supersedes == [b]
        c = s.store("Je prends le vélo pour aller au bureau").id
        res = s.store("je prends le vélo pour aller à la piscine")
        assert res.supersedes == [] and not res.deduplicated
        assert s.get(c) is not None and s.get(c).valid_to is None  # type: ignore[union-attr]
    finally:
        s.close()
