"""Facts that change, fourth round: five kinds of updates a probe of unseen pairs missed, and the
look-alikes that must not supersede. Rules in memengine/fact_roles.py (a role's new holder named
first), memengine/fact_clauses.py (a change told in two clauses), memengine/fact_when.py (a
leading time qualifier), memengine/fact_change.py (a change verb's object and agent) and
memengine/facts.py (measure nouns, "also" / "another", the subject before the verb)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import memory_core as core
from memengine import fact_clauses, fact_roles, facts
from memengine.fact_tokens import prepare, read_tokens

DATA = Path(__file__).parent / "data"
DEV6 = [json.loads(line) for line in (DATA / "fact_pairs_dev6.jsonl").read_text(encoding="utf-8").splitlines()]
HELD6 = [json.loads(line) for line in
         (DATA / "fact_pairs_dev6_heldout.jsonl").read_text(encoding="utf-8").splitlines()]
CLASSES = {"subject", "quantity", "event", "schedule", "relative"}


def flagged(rows: list[dict[str, object]]) -> tuple[int, int, int]:
    """(updates found, updates, false supersessions)."""
    found = sum(1 for r in rows if r["label"] and facts.compare(str(r["a"]), str(r["b"])) is not None)
    false = sum(1 for r in rows if not r["label"] and facts.compare(str(r["a"]), str(r["b"])) is not None)
    return found, sum(1 for r in rows if r["label"]), false


def test_dev6_shape() -> None:
    for rows in (DEV6, HELD6):
        assert {r["lang"] for r in rows} == {"en", "fr", "es", "de", "pt"}
        assert {r["class"] for r in rows} == CLASSES
        for r in rows:
            assert set(r) == {"a", "b", "label", "kind", "lang", "class"} and (r["kind"] is None) == (not r["label"])
    assert (len(DEV6), sum(bool(r["label"]) for r in DEV6)) == (105, 55)
    assert (len(HELD6), sum(bool(r["label"]) for r in HELD6)) == (39, 21)


@pytest.mark.parametrize("cls", sorted(CLASSES))
def test_dev6_no_false_supersession_in_any_class(cls: str) -> None:
    for r in DEV6 + HELD6:
        if r["class"] == cls and not r["label"]:
            assert facts.compare(r["a"], r["b"]) is None, r


def test_dev6_recall_floors() -> None:
    # tuned on dev6 (before this round: 14 of 55 updates, 7 false); dev6_heldout never tuned on
    # (before: 4 of 21, 2 false; after: 18 of 21, 0 false). Round 9: 53 (
    # "We reduced the kids' screen time to 1 hour a day": "2 hours ... a day" and "1 hour a day" are one rate now)
    assert flagged(DEV6) == (53, 55, 0)
    found, updates, false = flagged(HELD6)
    assert (updates, false) == (21, 0) and found >= 18


# --------------------------------------------------------------------------- 1. the new value first

@pytest.mark.parametrize(("old", "new"), [
    ("Our treasurer is Helen Park", "Omar Said replaced Helen Park as treasurer"),
    ("The club's captain is Lucas", "Mateo is now the club's captain"),
    ("Our vet is Dr. Sousa", "Dr. Almeida is our vet now"),
    ("Nina runs the night shift", "Felix took over the night shift from Nina"),
    ("Le trésorier est Paul Henry", "Anne Roy a remplacé Paul Henry comme trésorier"),
    ("Unser Trainer ist Herr Vogel", "Herr Kuhn ist jetzt unser Trainer"),
    ("La tutora del grupo es Elena", "Ahora la tutora del grupo es Sara"),
])
def test_a_new_holder_named_first_supersedes(old: str, new: str) -> None:
    v = facts.compare(old, new)
    assert v is not None and v.kind == "slot", (old, new, v)


@pytest.mark.parametrize(("old", "new"), [
    ("Our treasurer is Helen Park", "Omar Said is now our secretary"),  # another role
    ("Our vet is Dr. Sousa", "Dr. Sousa is our vet"),  # the same fact backwards
    ("The club's captain is Lucas", "Mateo is also a captain of the club"),
])
def test_another_role_or_the_same_holder_does_not(old: str, new: str) -> None:
    assert facts.compare(old, new) is None


def test_an_identity_stated_backwards_is_read_role_first() -> None:
    toks = fact_roles.reorder(read_tokens(prepare("Mrs. Okafor is now our landlord")), "en")
    assert [t.text for t in toks] == ["our", "landlord", "is", "now", "Mrs", "Okafor"]
    toks = fact_roles.reorder(read_tokens(prepare("Maria Chen replaced Daniel Brooks as CFO")), "en")
    assert [t.text for t in toks] == ["CFO", "replaced", "Daniel", "Brooks", "with", "Maria", "Chen"]
    assert facts.same_fact("Dr. Lee is our family doctor", "Our family doctor is Dr. Lee")


# --------------------------------------------------------------------------- 2. another noun, a new number

@pytest.mark.parametrize(("old", "new"), [
    ("I take 25mg of losartan", "My doctor raised my losartan dose to 50mg"),
    ("Je prends 10mg de mélatonine", "Le médecin a baissé ma dose de mélatonine à 5mg"),
    ("Ich nehme 20mg Citalopram", "Der Arzt hat meine Citalopram-Dosis auf 10mg reduziert"),
])
def test_a_dose_changed_by_someone_else_supersedes(old: str, new: str) -> None:
    v = facts.compare(old, new)
    assert v is not None and v.kind == "number", (old, new, v)


@pytest.mark.parametrize(("old", "new"), [
    ("I take 25mg of losartan", "My father takes 50mg of losartan"),
    ("I take 25mg of losartan", "I also take 10mg of amlodipine"),
    ("I drink 2 coffees a day", "My wife cut her coffee down to 1 a day"),
])
def test_someone_elses_dose_or_an_added_drug_does_not(old: str, new: str) -> None:
    assert facts.compare(old, new) is None


def test_a_glued_unit_is_a_quantity_and_a_measure_noun_is_the_number() -> None:
    f = facts.analyse("My lisinopril dose is 20mg")
    assert [w.key for w in f.words] == ["lisinopril"]
    assert [(v.kind, v.norm) for v in f.values] == [("number", ("grams", 0.02))]
    assert [(v.kind, v.norm) for v in facts.analyse("I run 5km").values] == [("number", ("metres", 5000.0))]


# --------------------------------------------------------------------------- 3-4. two clauses

@pytest.mark.parametrize(("old", "new", "kind"), [
    ("I ride a Trek road bike", "I sold the Trek and now ride a Canyon gravel bike", "slot"),
    ("Je travaille chez Renault", "J'ai quitté Renault et je travaille maintenant chez Airbus", "slot"),
    ("Trabajo en Mapfre", "Dejé Mapfre y ahora trabajo en Iberdrola", "slot"),
    ("My train to Glasgow arrives at 14:05", "My train to Glasgow is delayed and now arrives at 14:50", "time"),
    ("Le spectacle commence à 20h30", "Le spectacle est retardé, il commence à 21h", "time"),
    ("A entrega chega na segunda-feira", "A entrega atrasou e agora chega na quarta-feira", "date"),
])
def test_a_change_in_two_clauses_supersedes(old: str, new: str, kind: str) -> None:
    v = facts.compare(old, new)
    assert v is not None and v.kind == kind, (old, new, v)


@pytest.mark.parametrize(("old", "new"), [
    ("I ride a Trek road bike", "I sold my old scooter and now ride the bus"),  # not what was given up
    ("I ride a Trek road bike", "My son sold his Trek and now rides a Canyon"),  # someone else's
    ("We have a cat named Tom", "We adopted another cat named Jerry"),
    ("My train to Glasgow arrives at 14:05", "My train to Leeds is delayed and arrives at 14:50"),
    ("Le spectacle commence à 20h30", "Le spectacle des enfants commence à 18h"),
])
def test_two_clauses_about_something_else_do_not(old: str, new: str) -> None:
    assert facts.compare(old, new) is None


def test_clauses_and_who_they_speak_of() -> None:
    cl = fact_clauses.split("I sold the Civic and now drive a Tesla")
    assert cl is not None and [t.text for t in cl.first] == ["I", "sold", "the", "Civic"]
    assert [t.text for t in cl.second] == ["now", "drive", "a", "Tesla"]
    assert fact_clauses.split("Tom and Jerry live in Leeds") is None
    assert [fact_clauses.person(read_tokens(prepare(s), s)) for s in (
        "Tengo un Seat", "Vendí el Seat", "We sold it", "Our car is red", "Pedro vive en Vigo")] == [
        "1s", "1s", "1p", "1p", ""]
    assert fact_clauses.person(read_tokens(prepare("My son sold it")), pronoun_only=True) == ""


# --------------------------------------------------------------------------- 5. a move with a relative time

@pytest.mark.parametrize(("old", "new"), [
    ("My aunt lives in Perth", "My aunt moved to Adelaide this year"),
    ("Tomás vive en Cádiz", "Desde el mes pasado Tomás vive en Granada"),
    ("Lukas wohnt in Bremen", "Lukas ist letztes Jahr nach Kiel gezogen"),
])
def test_a_move_with_a_relative_time_supersedes(old: str, new: str) -> None:
    v = facts.compare(old, new)
    assert v is not None and v.kind == "place", (old, new, v)


@pytest.mark.parametrize(("old", "new"), [
    ("My aunt lives in Perth", "My uncle moved to Adelaide this year"),
    ("Tomás vive en Cádiz", "Tomás viajó a Granada el mes pasado"),
    ("Lukas wohnt in Bremen", "Lukas wohnt seit letztem Jahr in Bremen"),
    ("Lukas wohnt in Bremen", "Lukas' Schwester ist letztes Jahr nach Kiel gezogen"),
])
def test_a_trip_someone_else_or_the_same_city_does_not(old: str, new: str) -> None:
    assert facts.compare(old, new) is None


def test_a_leading_qualifier_is_no_word() -> None:
    assert [w.key for w in facts.analyse("Since last month Jake lives in Austin").words] == ["jake", "live", "austin"]
    assert [w.key for w in facts.analyse("Seit letztem Monat wohnt Katrin in Erfurt").words] == [
        "live", "katrin", "erfurt"]


# --------------------------------------------------------------------------- the store

def test_round4_updates_supersede_at_write_time(store: core.MemoryStore) -> None:
    landlord = store.store("Our landlord is Mr. Patel").id
    car = store.store("I drive a 2015 Honda Civic").id
    flight = store.store("My flight to Boston lands at 3:40pm").id
    other = store.store("My flight to Denver lands at 5:15pm").id
    assert store.store("Mrs. Okafor is now our landlord").supersedes == [landlord]
    assert store.store("I sold the Civic and now drive a Tesla Model 3").supersedes == [car]
    res = store.store("My flight to Boston is delayed and now lands at 5:15pm")
    assert res.supersedes == [flight] and store.get(other).valid_to is None


def test_round4_look_alikes_never_supersede_at_write_time(store: core.MemoryStore) -> None:
    ids = [store.store(t).id for t in ("I take 20mg of lisinopril daily", "Jake lives in Denver",
                                       "We have a dog named Rex")]
    for text in ("My wife takes 10mg of lisinopril daily", "I also take 10mg of atorvastatin",
                 "Jake visited Austin last month", "My brother moved to Austin this year",
                 "We got another dog, a puppy named Bo"):
        res = store.store(text)
        assert res.supersedes == [] and res.superseded_by is None, text
    assert all(store.get(i).valid_to is None for i in ids)


def test_consolidate_asks_no_other_detector_about_two_subjects() -> None:
    from memengine import consolidate

    a, b = "My flight to Boston lands at 3:40pm", "My flight to Denver lands at 5:15pm"
    assert facts.other_subjects(a, b) and not facts.other_subjects(a, "My flight to Boston lands at 5:15pm")
    assert consolidate._verdict(None, (a, b, a, b, 0.9)) is None
    v = consolidate._verdict(None, (a, "My flight to Boston lands at 5:15pm", a, "My flight to Boston lands at 5:15pm",
                                    0.9))
    assert v is not None and v.kind == "time"
