"""facts42: the older's state denied as lasting (memengine/fact_denied.py): "no longer", "not … any more", "ya no",
"nicht mehr", "ne … plus", "não … mais", "geen … meer". Examples invented here, none from a held-out set."""

from __future__ import annotations

from pathlib import Path

import pytest

import memory_core as core
from memengine import fact_denied


@pytest.fixture(autouse=True)
def switched_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reading is on by default; a switch left in the environment must not turn it off here."""
    monkeypatch.setenv("MEM_DENIED", "1")


@pytest.mark.parametrize(("clause", "lasting"), [
    ("The library doesn't open till 10 any more", True),
    ("Marta no longer runs the Tuesday club", True),
    ("El mercado ya no abre los lunes", True),
    ("Die Bäckerei hat sonntags nicht mehr geöffnet", True),
    ("Le club ne se réunit plus le jeudi", True),
    ("O ginásio não abre mais aos sábados", True),
    ("Er is geen markt meer op woensdag", True),
    ("La palestra non apre più la domenica", True),
    ("No market this Wednesday", False),  # a negation alone: nothing lasting
    ("The fee is no more than 20 euros", False),  # "no more than": a bound, not "any more"
    ("Morgen gibt es keinen Markt", False),
    ("Im Park ist doch nicht das Fest", False),  # "doch nicht": after all, no lasting state
])
def test_a_lasting_negation_needs_its_particle(clause: str, lasting: bool) -> None:
    assert fact_denied.lasting_negation(clause) is lasting


@pytest.mark.parametrize(("old", "new"), [
    ("The library opens at 9am", "The library doesn't open till 10 any more, the council cut the hours"),
    ("The Tuesday club is run by Marta", "Marta no longer runs the Tuesday club, Jorge does"),
    ("El mercado abre los lunes", "El mercado ya no abre los lunes, abre los martes"),
    ("Die Bäckerei hat sonntags geöffnet", "Sonntags hat die Bäckerei nicht mehr geöffnet"),
    ("Le club se réunit le jeudi", "Le club ne se réunit plus le jeudi"),
    ("Er is een markt op woensdag", "Er is geen markt meer op woensdag"),
    ("My dentist is Dr Okafor", "Dr Okafor isn't my dentist any more, I go to Dr Lee"),
])
def test_the_older_state_denied_is_read(old: str, new: str) -> None:
    got = fact_denied.denied(old, new, 0.6)
    assert got is not None and got.kind == "slot" and got.reason.startswith(fact_denied.REASON)


@pytest.mark.parametrize("new", [
    "No market this Wednesday, the square is being resurfaced",  # a negation for one time
    "The market in Hove no longer opens on Wednesdays",  # someone else's: a name the older does not say
    "My sister's market no longer opens on Wednesdays",  # someone else's: a relation the older does not say
    "The flower stall no longer comes to the Wednesday market",  # another thing denied: words of its own
    "The market might not open on Wednesdays any more",  # not asserted
    "The Wednesday market is also on Saturdays now",  # one more
])
def test_look_alikes_beside_a_negation_are_not_read(new: str) -> None:
    assert fact_denied.denied("The market opens on Wednesdays", new, 0.6) is None


def test_an_older_of_two_states_and_its_owner_alone_are_not_read() -> None:
    # (one of two states denied: the older says more; the owner's name alone is no word of the slot)
    assert fact_denied.denied("Ines lives in Porto and works at the city library",
                              "Ines no longer works at the library", 0.6) is None
    assert fact_denied.denied("Ines has her health cover with Medis", "Ines no longer does night shifts", 0.6) is None
    assert fact_denied.denied("The hygienist works Tuesdays and Thursdays",
                              "The hygienist doesn't work Tuesdays any more", 0.6) is not None


def test_an_older_that_is_itself_a_denial_is_not_denied_again() -> None:
    assert fact_denied.denied("Marta doesn't coach Ben any more", "Ben doesn't ride the 12 bus any more", 0.6) is None


def test_the_share_constant_and_the_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    old, new = "The library opens at 9am", "The library doesn't open till 10 any more"
    assert fact_denied.denied(old, new, None) is not None  # (a word candidate: no cosine asked)
    assert fact_denied.denied(old, new, 0.6, min_share=9.0) is None
    monkeypatch.setenv("MEM_DENIED", "0")
    assert fact_denied.denied(old, new, 0.6) is None


@pytest.fixture(scope="module")
def emb(tmp_path_factory: pytest.TempPathFactory) -> object:
    from embedder import OnnxEmbedder

    return OnnxEmbedder(cache_dir=tmp_path_factory.mktemp("model-cache"))


def _store(path: Path, emb: object, olders: list[str], write: str) -> tuple[dict[str, int], core.StoreResult]:
    s = core.MemoryStore(path, embedder=emb)  # type: ignore[arg-type]
    try:
        ids = {t: s.store(t, "semantic").id for t in olders}
        return ids, s.store(write, "semantic")
    finally:
        s.close()


def test_a_store_retires_the_denied_older_and_not_with_the_switch_off(tmp_path: Path, emb: object,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    old = "The leisure centre's sauna opens at 8am"
    olders = [old, "The gym closes at 10pm", "Swimming lessons are on Saturdays"]
    write = "The leisure centre's sauna doesn't open till 11 any more, not enough people came early"
    ids, res = _store(tmp_path / "m.db", emb, olders, write)
    assert res.supersedes == [ids[old]]
    monkeypatch.setenv("MEM_DENIED", "0")
    _, off = _store(tmp_path / "off.db", emb, olders, write)
    assert ids[old] not in (off.supersedes or [])


def test_a_store_keeps_the_older_beside_a_one_time_negation(tmp_path: Path, emb: object) -> None:
    old = "The leisure centre's sauna opens at 8am"
    ids, res = _store(tmp_path / "m.db", emb, [old, "The gym closes at 10pm"],
                      "The sauna won't open at all this Sunday, the heater is being serviced")
    assert ids[old] not in (res.supersedes or [])


def test_a_label_the_newer_opens_with_names_the_denied_slot() -> None:
    old = "Le pulizie della scala le fa la signora Anna"
    assert fact_denied.denied(old, "Pulizie della scala: la signora Anna non può più, le fa l'impresa Lindo", 0.6) is not None
    assert fact_denied.denied(old, "Giardino: la signora Anna non può più venire", 0.6) is None  # another label


@pytest.mark.parametrize(("old", "new"), [
    # (one statement of a note of several changed: read alone, the rest untouched makes it a link, not a retirement)
    ("Druckerpapier bestellen wir bei Büroring, Kundennummer 5521.",
     "Papier kommt jetzt von Lyreco, Büroring hatte zu lange Lieferzeiten."),
    ("The caretaker is Bogdan, he comes on Mondays.", "Bogdan no longer does the caretaking, we use Estates Direct"),
])
def test_one_statement_of_a_note_is_read_alone(old: str, new: str) -> None:
    from memengine import fact_note_parts

    got = fact_note_parts.one_part(old, new, 0.6)
    assert got is not None and got.reason.startswith(fact_note_parts.REASONS)


def test_one_statement_reading_needs_several_and_has_a_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    from memengine import fact_note_parts

    assert fact_note_parts.one_part("The caretaker is Bogdan", "Bogdan no longer does the caretaking", 0.6) is None
    assert fact_note_parts.one_part("The caretaker is Bogdan, he comes on Mondays.",
                                    "Bogdan is on holiday this week, Estates Direct cover", 0.6) is None  # a while
    monkeypatch.setenv("MEM_NOTE_PARTS", "0")
    assert fact_note_parts.one_part("The caretaker is Bogdan, he comes on Mondays.",
                                    "Bogdan no longer does the caretaking, we use Estates Direct", 0.6) is None


def test_a_german_compound_is_read_by_its_head() -> None:
    from memengine import fact_reason_value

    old = "Druckerpapier bestellen wir bei Büroring"
    assert fact_reason_value.replaced(old, "Papier kommt jetzt von Lyreco, Büroring hatte zu lange Lieferzeiten", 0.6) \
        is not None
    # (English writes no compound as one word: "paper" is no head of "newspaper")
    assert fact_reason_value.replaced("The newspaper is delivered by Hollis", "Paper comes from Smith now, Hollis "
                                      "kept being late", 0.6) is None
