"""facts43: a single occurrence never retires a standing fact (memengine/fact_one_off.py), and the older's holder
said ended fills its slot anew whatever the newer's frame word (memengine/fact_vacated.py over another role's guard).
Examples invented here, none from a held-out set."""

from __future__ import annotations

from pathlib import Path

import pytest

import memory_core as core
from memengine import fact_one_off, fact_vacated

STANDING = "Choir practice is on Wednesday evenings in the church hall"


@pytest.mark.parametrize(("new", "why"), [
    ("Choir practice was cancelled this Wednesday because of the ice", "one day"),
    ("Choir practice didn't happen last Wednesday, the hall was flooded", "a day past"),
    ("Choir was moved to Thursday just this week for the wedding", "exception"),
    ("No choir today, the organist is ill", "one day"),
    ("Die Chorprobe fiel gestern wegen Glatteis aus", "a day past"),
    ("La prova del coro è saltata ieri per la neve", "a day past"),
    ("Koorrepetitie gaat vanavond niet door vanwege de storm", "one day"),
    ("El ensayo del coro se suspendió ayer por la lluvia", "a day past"),
])
def test_one_occurrence_is_read(new: str, why: str) -> None:
    assert fact_one_off.one_off(STANDING, new) == why


@pytest.mark.parametrize("new", [
    "Choir practice is on Thursday evenings now",  # a new standing value
    "From this week choir practice is on Thursdays",  # when the change starts
    "Choir practice moved to the school hall last week, the church roof is being fixed",  # a move told on its day
    "Since last week choir practice is on Thursdays",
    "We switched choir practice to Thursdays yesterday, it's Thursdays from now on",  # a lasting state said
    "Choir practice is on Thursday evenings, Wednesday clashed with bingo",
])
def test_a_change_told_with_its_day_is_no_one_off(new: str) -> None:
    assert fact_one_off.one_off(STANDING, new) == ""


def test_an_ending_said_of_the_older_value_is_a_change_and_of_its_subject_an_occurrence() -> None:
    old = "Our accountant is Ruth Okoye"
    assert fact_one_off.one_off(old, "Ruth Okoye retired at Christmas; our books are with Dana Pell now") == ""
    assert fact_one_off.one_off("I ride a red Vespa", "Swapped the Vespa for an e-bike last week") == ""
    assert fact_one_off.one_off("The quiz night is on Thursdays at the Swan",
                                "The quiz night was cancelled at Christmas") == "holiday"


def test_an_older_of_one_day_is_corrected_by_its_own_day() -> None:
    old = "The parents' evening is on 14 March at 6pm"  # (itself one day: a day said from today is no exception)
    assert fact_one_off.one_off(old, "The parents' evening is at 7pm now, not 6pm") == ""
    assert fact_one_off.one_off("The plumber comes this Friday", "The plumber comes this Friday at 3 instead") == ""


def test_a_stand_in_is_read_apart() -> None:
    old = "The head gardener is Malik"
    new = "Malik is on paternity leave, Jo is head gardener until he's back"
    assert fact_one_off.one_off(old, new) == "" and fact_one_off.stand_in(old, new)


def test_a_month_after_the_ending_verb_is_when_it_ended() -> None:
    got = fact_vacated.vacated("My daughter's tutor is Mr Fenwick",
                               "Mr Fenwick retired in June; Ella goes to the Kumon centre now")
    assert got is not None and got.reason.startswith(fact_vacated.REASON)
    assert fact_vacated.vacated("My daughter's tutor is Mr Fenwick", "Mr Fenwick sold Greenacre in June") is None


@pytest.fixture(scope="module")
def emb(tmp_path_factory: pytest.TempPathFactory) -> object:
    from embedder import OnnxEmbedder

    return OnnxEmbedder(cache_dir=tmp_path_factory.mktemp("model-cache"))


def _store(path: Path, emb: object, olders: list[str], writes: list[str]) -> tuple[dict[str, int], list[core.StoreResult]]:
    s = core.MemoryStore(path, embedder=emb)  # type: ignore[arg-type]
    try:
        ids = {t: s.store(t, "semantic").id for t in olders}
        return ids, [s.store(w, "semantic") for w in writes]
    finally:
        s.close()


def test_a_store_keeps_the_current_day_beside_a_cancelled_occurrence(tmp_path: Path, emb: object) -> None:
    old = "Toddler swim sessions run on Monday mornings at the lido"
    ids, (up, once) = _store(tmp_path / "m.db", emb, [old, "The lido café opens at 8am"], [
        "Toddler swim sessions are on Friday mornings now, the lido needs Mondays for the school galas",
        "Toddler swim session was cancelled this Monday because of the frost"])
    assert up.supersedes == [ids[old]]
    assert not once.supersedes and not once.may_update and once.superseded_by is None
    s = core.MemoryStore(tmp_path / "m.db", embedder=emb)  # type: ignore[arg-type]
    try:
        live = {int(r[0]) for r in s.conn.execute("SELECT id FROM memories WHERE valid_to IS NULL")}
    finally:
        s.close()
    assert up.id in live and once.id in live


def test_a_store_retires_the_ended_holder_when_the_frame_word_changes(tmp_path: Path, emb: object) -> None:
    old = "My daughter's tutor is Mr Fenwick"
    ids, (res,) = _store(tmp_path / "m.db", emb, [old, "The car is insured with Direct Line"],
                         ["Mr Fenwick retired in June; Ella goes to the Kumon centre on Hill Street now"])
    assert res.supersedes == [ids[old]]


@pytest.mark.parametrize(("old", "new"), [
    ("The garage door code is 3391", "Garage door: 7720"),
    ("A large oat latte costs £3.60", "Large oat latte: £3.85"),
    ("The club's kit is made by Kappa", "Club kit: Macron"),
    ("El gimnasio abre a las 7", "Gimnasio: abre a las 8"),
    ("Le code du portail est 4512", "Code portail : 7781"),
])
def test_a_terse_label_with_a_new_value_is_read(old: str, new: str) -> None:
    from memengine import fact_terse

    got = fact_terse.terse(old, new)
    assert got is not None and got.kind == "slot" and got.reason.startswith(fact_terse.REASON)


@pytest.mark.parametrize("new", [
    "Shed door: 7720",  # another door: a word of its own
    "Garage door: 3391",  # the older's value said again
    "Jen's garage door: 7720",  # someone else's
    "Garage door might be: 7720",  # not asserted
    "Garage door code today: 7720",  # one time
    "The garage door code is 7720 and the shed's is 1180",  # no label shape
])
def test_look_alikes_of_a_terse_label_are_not_read(new: str) -> None:
    from memengine import fact_terse

    assert fact_terse.terse("The garage door code is 3391", new) is None


def test_a_stand_in_is_a_probable_update_only() -> None:
    old = "The head gardener is Malik Osei"
    got = fact_one_off.stood_in(old, "Malik is on paternity leave, Jo Brandt is head gardener until he's back")
    assert got is not None and got.kind == "may_update"
    assert fact_one_off.stood_in(old, "Malik is on paternity leave") is None  # nobody holds the slot instead
    assert fact_one_off.stood_in(old, "Jo Brandt is head gardener now") is None  # no absence: not a stand-in
