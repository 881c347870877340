"""The second-chance update detector (memengine/fact_cue.py): a sentence that says its value
changed supersedes the fact it updates even when the frame rules (memengine/facts.py) find no
alignment; additions, other people, details of the same thing and restatements never do.

The cosine is the caller's (the real model's at write time); here it is given, so every
expectation is exact and model-free. Every labelled look-alike of every pair set in tests/data
and bench/data is checked at cosine 0.95 (the lexical rules must hold on their own)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import memory_core as core
from memengine import fact_cue, fact_vacated, supersession

ROOT = Path(__file__).resolve().parents[1]
PAIR_FILES = sorted((ROOT / "tests" / "data").glob("fact_pairs_*.jsonl")) + [
    ROOT / "tests" / "data" / "contradiction_pairs.jsonl", ROOT / "bench" / "data" / "fact_cue_dev.jsonl"]

# (old, new): updates the frame rules miss and the cue rule reads. Written for this test, not
# taken from the bench sets.
UPDATES = [
    ("The yoga studio charges 18 dollars per class.", "New price at the yoga studio: 21 dollars per class."),
    ("Our landlord is Mr. Hughes.", "Mr. Hughes sold the building; our landlord is now Redbrick Homes."),
    ("Zoe's school is Riverside Primary.", "Zoe switched schools; she's at Oakfield School now."),
    ("My GP is Dr. Mensah.", "I'm registered with Dr. Varga as my GP now."),
    ("I drive a blue Ford Focus.", "Swapped the Ford for a Kia Niro in May."),
    ("The team offsite is on October 4.", "The team offsite got pushed back to October 18."),
    ("Liam is allergic to penicillin.", "Liam is not allergic to penicillin after all."),
    ("Aisha works at Barclays as an analyst.", "Aisha left Barclays and joined Monzo."),
    ("Kenji is vegetarian.", "Kenji started eating fish again, so he's pescatarian now."),
    ("I take the 6:50 train to work.", "I take the 7:25 train instead these days."),
    ("Le loyer du studio est de 640 euros.", "Le propriétaire a augmenté le loyer à 690 euros."),
    ("El alquiler del local es de 1200 euros.", "La dueña subió el alquiler a 1350 euros."),
    ("Die Monatskarte kostet 49 Euro.", "Der Verkehrsverbund hat die Monatskarte auf 58 Euro erhöht."),
    ("O Pedro trabalha na Sonae.", "O Pedro saiu da Sonae e entrou na Jerónimo Martins."),
    ("Mi dentista es el doctor Salas.", "Ahora voy a la doctora Ortega como dentista."),
    ("Je suis végétarienne.", "J'ai recommencé à manger du poisson, je suis pescétarienne maintenant."),
    ("Grandma lives in a bungalow in Crewe.", "Grandma moved into sheltered housing in Nantwich."),
    ("The dinner on Friday is at Luigi's.", "We switched the dinner to the Blue Lagoon."),
    ("Eu trabalho na Vodafone.", "Saí da Vodafone e entrei na NOS."),
]

# (old, new): look-alikes that must never supersede (additions, other people, details of the
# same thing, restatements, requests).
LOOKALIKES = [
    ("The yoga studio charges 18 dollars per class.", "The yoga studio also sells a 10-class pass for 150 dollars."),
    ("Our landlord is Mr. Hughes.", "Mr. Hughes now collects the rent on the 3rd."),
    ("Zoe's school is Riverside Primary.", "Zoe's cousin switched to Oakfield School this year."),
    ("My GP is Dr. Mensah.", "Dr. Mensah's surgery is now closed on Fridays."),
    ("I drive a blue Ford Focus.", "My sister drives a Kia Niro now."),
    ("The team offsite is on October 4.", "Please book the coach for the October 4 offsite."),
    ("Liam is allergic to penicillin.", "Liam is also allergic to latex."),
    ("Aisha works at Barclays as an analyst.", "Aisha's husband left Barclays and joined Monzo."),
    ("Kenji is vegetarian.", "Kenji started a vegetarian supper club."),
    ("I take the 6:50 train to work.", "The 6:50 train is often delayed now."),
    ("The team offsite is on October 4.", "The team offsite is still on October 4."),
    ("Le loyer du studio est de 640 euros.", "Ma sœur paie aussi 640 euros de loyer."),
    ("El alquiler del local es de 1200 euros.", "El alquiler del local sigue siendo de 1200 euros."),
    ("Die Monatskarte kostet 49 Euro.", "Meine Tochter hat jetzt auch eine Monatskarte."),
    ("O Pedro trabalha na Sonae.", "A mulher do Pedro saiu da Sonae e entrou na Jerónimo Martins."),
    ("Mi dentista es el doctor Salas.", "El doctor Salas ahora no trabaja los viernes."),
    ("Je suis végétarienne.", "Je suis toujours végétarienne, depuis dix ans maintenant."),
    ("I'm vegetarian.", "My daughter is vegan now."),
    ("Grandma lives in a bungalow in Crewe.", "Grandma's neighbour moved to Nantwich."),
    ("Ben works at Acme in Crewe.", "Ben moved to Nantwich."),
    ("The 8:10 bus is usually full.", "I take the 8:35 bus instead now."),
]


@pytest.mark.parametrize(("old", "new"), UPDATES)
def test_updates_supersede_and_never_the_other_way(old: str, new: str) -> None:
    verdict = fact_cue.detect(old, new, 0.7)
    assert verdict is not None and verdict.kind == "cue" and 0.6 <= verdict.confidence <= 0.8, (old, new, verdict)
    assert fact_cue.detect(new, old, 0.7) is None  # the old sentence states no change


@pytest.mark.parametrize(("old", "new"), LOOKALIKES)
def test_lookalikes_never_supersede(old: str, new: str) -> None:
    assert fact_cue.detect(old, new, 0.95) is None
    assert fact_cue.detect(new, old, 0.95) is None


def test_cosine_gate_and_unknown_cosine() -> None:
    old, new = UPDATES[0]
    assert fact_cue.detect(old, new, fact_cue.MIN_COSINE) is not None
    assert fact_cue.detect(old, new, fact_cue.MIN_COSINE - 0.01) is None
    assert fact_cue.detect(old, new, None) is None  # no cosine: never on words alone


def test_reasons_read_well() -> None:
    v = fact_cue.detect("The yoga studio charges 18 dollars per class.",
                        "New price at the yoga studio: 21 dollars per class.", 0.7)
    assert v is not None and v.reason == "'New': new value for 'yoga studio class': 18 -> 21"
    v = fact_cue.detect("Aisha works at Barclays as an analyst.", "Aisha left Barclays and joined Monzo.", 0.7)
    assert v is not None and v.reason == "'left': 'aisha barclays' is now monzo"
    v = fact_cue.detect("Liam is allergic to penicillin.", "Liam is not allergic to penicillin after all.", 0.9)
    assert v is not None and v.reason == "'after all': 'liam allergic penicillin' no longer holds as stated"


@pytest.mark.parametrize(("old", "new"), [
    ("The sprint review is on Friday", "The sprint planning was moved to Monday"),
    ("The front door code is 4455.", "The back door code is now 9911."),
    ("My work phone number is 020 7946 0000.", "My home phone number is now 020 7946 1111."),
    ("La contraseña del wifi de casa es gato-1.", "La contraseña del wifi de la oficina ahora es perro-2."),
    ("Der Code für die Haustür ist 1234.", "Der Code für die Garage ist jetzt 5678."),
    ("The Monday class costs 12 euros.", "The Tuesday class now costs 15 euros."),
    ("The 8:10 bus is usually full.", "I take the 8:35 bus instead now."),
])
def test_another_thing_of_the_same_kind_is_never_superseded(old: str, new: str) -> None:
    # each names the thing with a word or value of its own: two things, whatever the cosine
    assert fact_cue.detect(old, new, 0.95) is None


@pytest.mark.parametrize(("old", "new"), [
    ("The gym opens at 6am.", "The gym now closes at 11pm."),
    ("The flight departs at 9:15.", "The flight now lands at 13:40."),
    ("El súper abre a las 9:00.", "El súper ahora cierra a las 21:00."),
    ("The team has 8 engineers.", "The team now has 3 designers."),
    ("Tom's birthday is on June 2.", "Tom's wedding anniversary is now on June 20."),
])
def test_another_slot_of_the_same_thing_is_never_superseded(old: str, new: str) -> None:
    assert fact_cue.detect(old, new, 0.95) is None


@pytest.mark.parametrize(("text", "kind"), [
    ("The password is now swan-7", "now"), ("Nouveau code du portail : 1234", "new"), ("Neuer Türcode: 8826", "new"),
    ("She left Oracle", "verb"), ("He stopped working with Ana", "habit"), ("Volvió a comer carne", "habit"),
    ("A reunião foi adiada para sexta", "verb"), ("After the ISP swap the page moved", "noun"),
    ("Je ne bois plus de café", "now"), ("Wir nutzen jetzt Linear", "now"), ("I take the bus instead", "now"),
])
def test_cues_in_five_languages(text: str, kind: str) -> None:
    cue = fact_cue.find_cue(text)
    assert cue is not None and cue.kind == kind, (text, cue)


@pytest.mark.parametrize("text", [
    "The password is swan-7", "She also left Oracle", "He started a blog",
    "The 7:42 train is usually late", "Bring a salad", "Paul is on the left", "Ana tiene otra casa ahora",
])
def test_no_cue(text: str) -> None:
    assert fact_cue.find_cue(text) is None


def test_inflections_are_derived() -> None:
    from memengine import fact_cue_lexicon as C

    assert {"switch", "switches", "switched", "switching", "postponed", "delayed", "swapped"} <= C.CHANGE_VERBS
    assert {"change", "changee", "changees", "aplazo", "aplazado", "aplazaron", "adiou", "adiada"} <= C.CHANGE_VERBS
    assert C.en_forms("swap") == {"swap", "swaps", "swapped", "swapping"}
    assert C.en_forms("delay") == {"delay", "delays", "delayed", "delaying"}
    # forms that are another common word are not change verbs: "para" (for), "bajo" (under), "une" (a)
    assert not {"para", "bajo", "une", "entre", "sao", "lower", "relevant"} & (
        C.CHANGE_VERBS | C.HOLDER_VERBS | C.HABIT_VERBS | C.MOTION_VERBS | C.LEAVE_VERBS)


def test_no_labelled_lookalike_of_any_set_supersedes() -> None:
    """Every negative pair of every labelled set, read by the cue rule alone at cosine 0.95."""
    count = 0
    for path in PAIR_FILES:
        for line in path.read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            if not r["label"]:
                count += 1
                assert fact_cue.detect(r["a"], r["b"], 0.95) is None, (path.name, r)
    assert count > 200


def test_plan_uses_the_cue_with_the_given_cosine() -> None:
    # (round 9: UPDATES[7], "left Barclays", is the frame rules' now: a value given up; facts32: UPDATES[2], "Zoe
    # switched schools", is read without a cosine by fact_crossed's attribute noun; UPDATES[1] needs the cue)
    old, new = UPDATES[1]
    row = (5, old, "2026-01-01T00:00:00", "user")
    out = supersession.plan(9, new, "2026-02-01T00:00:00", [(row, None)], new_source="user", cosines={5: 0.7})
    assert [(d.winner, d.loser, d.verdict.kind) for d in out] == [(9, 5, "cue")]
    # (facts38: without a cosine the cue says nothing; "Mr. Hughes sold the building" is read by memengine/fact_vacated.py,
    # the older's value ended by an event, the slot filled anew, which needs none)
    alone = supersession.plan(9, new, "2026-02-01T00:00:00", [(row, None)], new_source="user")
    assert [d.verdict.kind for d in alone] == ["slot"] and alone[0].verdict.reason.startswith(fact_vacated.REASON)
    assert supersession.plan(9, new, "2026-02-01T00:00:00", [(row, 0.7)], new_source="user")[0].loser == 5


def test_store_supersedes_through_the_cue(store: core.MemoryStore) -> None:
    # the hash embedder of the tests: these share enough words for a cosine of 0.73
    old = store.store("The climbing gym membership is 35 euros a month.").id
    res = store.store("New climbing gym membership price: 42 euros a month.")
    assert res.supersedes == [old]
    got = store.get(old)
    assert got is not None and got.valid_to is not None
    chain = store.conn.execute("SELECT kind, status FROM contradictions").fetchall()
    assert [tuple(r) for r in chain] == [("cue", "superseded")]


def test_store_keeps_an_addition(store: core.MemoryStore) -> None:
    old = store.store("The climbing gym membership is 35 euros a month.").id
    res = store.store("The climbing gym membership also has a 10 euros day pass.")
    assert res.supersedes == [] and res.superseded_by is None
    got = store.get(old)
    assert got is not None and got.valid_to is None


def test_long_input_is_read_up_to_the_cap() -> None:
    long = "The rent is now 900 euros " + "and more words " * 2000
    assert len(fact_cue.tokens(long)) == 401  # (memories are short: the first 2000 characters)
    v = fact_cue.detect("The rent is 800 euros", long, 0.9)
    assert v is not None and v.reason == "'now': new value for 'rent': 800 -> 900"


@pytest.mark.parametrize(("text", "cue"), [
    ("Also the install moved, Meyer can only come on 17 November now because of a delivery delay.", "now"),
    ("Also, the install moved to 17 November", "moved"),
    ("Oh and also the standup moved to 10", "moved"),
    ("Also Ana moved to Berlin", "moved"),
    ("Auch der Termin ist jetzt verschoben", "jetzt"),
])
def test_an_also_opening_a_sentence_hides_no_change(text: str, cue: str) -> None:
    """"Also" before the subject adds a piece of news or another subject, not a second value."""
    found = fact_cue.find_cue(text)
    assert found is not None and found.words == cue


@pytest.mark.parametrize("text", [
    "Also uses Vim now", "we now also accept cards", "uses Vim too now", "Also a second repo now",
    "We also moved the standup to 10", "Wir nutzen jetzt auch Linear",
])
def test_an_also_beside_the_value_still_adds(text: str) -> None:
    assert fact_cue.find_cue(text) is None
