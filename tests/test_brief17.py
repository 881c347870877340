"""Brief, round 14 (brief17): a topic name is a name a person would write, not an adverbial, a clause or a stray
word. Unseen chats' topics were named "wenn's nochmal ausfällt", "direkt vorm Haus", "laut Plan", "flashing EA229
upstairs", and the memories in no topic "overnight", "upfront", "warm" (of "520 warm"). A name is told apart by its own
shape (memengine/topic_shape.py), in the languages the brief reads: a leading preposition, conjunction or fused
preposition + article, a clitic ("wenn's"), an adverb or unit at an end, a preposition inside after no noun, a
lower-case head where the members write nouns capitalised; one word that is an adverb, a unit or a measure. What a
rejected name leaves falls to the next candidate (its own words too: "Haus" of "direkt vorm Haus"), else "mixed
subjects" / "Other memories". Good names that look odd stay: "Windows error 0x8007045D" sentence-initial, "Casa
Verde" written only "Casa Verde's", "adoption agency forms", "Flat 3B", "Picos de Europa", "Haus am See"."""

from __future__ import annotations

from datetime import datetime

import pytest
from conftest import chat_turns

import memory_core as core
from memengine import consolidate, graph_rank, summarize, topic_names

RARE = topic_names.idf(lambda w: 1, 10)


def named(texts: list[str], stop: frozenset[str] | None = None) -> str:
    return topic_names.name(texts, summarize.stopwords_for(texts) if stop is None else stop, set(), RARE)


BIKE = [
    "Mein Lastenrad stand heute früh nicht mehr direkt vorm Haus, das grüne Urban Arrow",
    "Direkt vorm Haus ist echt kein Platz, wir brauchen einen Fahrradbügel im Hof",
    "Die Polizei sagt, das Lastenrad taucht meistens nie wieder auf",
    "Ich schreib der Hausverwaltung wegen dem Fahrradbügel, dann steht keins mehr direkt vorm Haus",
    "Ab Montag stehen die Bügel im Hof, dann kommt das neue Lastenrad nicht mehr direkt vorm Haus hin",
]
OUTAGE = [
    "Das Internet ist seit heute Nacht weg, die FritzBox blinkt nur rot",
    "wenn's nochmal ausfällt, ruf ich die Hotline an, das ist schon das dritte Mal",
    "Techniker war da, die Störung war ein Kabel im Keller, die FritzBox läuft wieder",
    "wenn's nochmal ausfällt, will ich eine Gutschrift. Laut Vertrag sind es 100 Mbit",
    "Wie gesagt, wenn's nochmal ausfällt ruf ich an. Die Störung ist im Verteiler",
]
PARTY = [
    "Zum Hoffest am Samstag ab 15 Uhr, laut Plan bis 22 Uhr",
    "laut Plan dürfen wir im Hof grillen, das Hoffest wird super",
    "Danke für das schöne Hoffest, laut Plan war um 22 Uhr Schluss",
]


def test_a_clause_or_an_adverbial_names_no_topic() -> None:
    assert named(BIKE) == "Lastenrad"  # not "direkt vorm Haus", nor "Hof" of "im Hof" (a place, as "in the calendar")
    assert named(OUTAGE) == "FritzBox"  # not "wenn's nochmal ausfällt"
    assert named(PARTY) == "Hoffest"  # not "laut Plan", nor "Uhr"


# members written as German is: its nouns capitalised (a lower-case word is no noun there)
DE = ["Die Katze sitzt wieder auf dem Balkon und der Nachbar ruft die Polizei", "Der Techniker kommt am Montag"]


@pytest.mark.parametrize("phrase, german", [
    ("direkt vorm Haus", True), ("mehr direkt vorm", True), ("laut Plan", True), ("wenn's nochmal ausfällt", True),
    ("nochmal ausfällt", True), ("Habt ihr das", True), ("Tür gelegt", True),
    ("flashing EA229 upstairs", False), ("landlord asap", False), ("broadband dropped overnight", False),
    ("plotter died completely", False), ("absolutely gorgeous", False),
    ("cold showers till", False), ("al lado del río", False), ("acaso llevamos frontales", False), ("euros ida", False),
    ("vers Lyon", False), ("tout de suite", False),
])
def test_shapes_of_phrases(phrase: str, german: bool) -> None:
    texts = [f"so {phrase}, again", f"and {phrase} today"] + (DE if german else [])
    assert not topic_names.name_shaped(phrase, texts)


@pytest.mark.parametrize("phrase, texts", [
    ("Windows error 0x8007045D", ["Windows error 0x8007045D again after the update",
                                  "Windows error 0x8007045D means the disk could not be read"]),
    ("Casa Verde", ["Casa Verde's owner called", "booked Casa Verde's big room"]),
    ("adoption agency forms", ["adoption agency forms are due", "sent the adoption agency forms"]),
    ("Flat 3B", ["water coming into Flat 3B", "Flat 3B's ceiling has a patch"]),
    ("Picos de Europa", ["los Picos de Europa en diciembre", "ruta por los Picos de Europa"]),
    ("Haus am See", ["Wir mieten das Haus am See im August", "Das Haus am See hat vier Zimmer"]),
    ("Fehler F28", ["Die Therme zeigt Fehler F28", "Fehler F28 heißt, die Zündung klappt nicht"]),
    ("gas valve", ["the boiler needs a new gas valve", "gas valve fitted"]),
    ("Hackney Half", ["Hackney Half is Sunday", "HACKNEY HALF DONE"]),
    ("Voix du Rhône", ["la chorale Les Voix du Rhône", "répétition des Voix du Rhône"]),
    ("Les Voix du Rhône", ["la chorale Les Voix du Rhône", "Les Voix du Rhône chantent"]),
])
def test_good_names_that_look_odd_keep_their_shape(phrase: str, texts: list[str]) -> None:
    assert topic_names.name_shaped(phrase, texts)


@pytest.mark.parametrize("word, texts", [
    ("overnight", ["the deploy workers ran out of memory overnight", "three deploys failed overnight",
                   "after the overnight failures the workers got 1GB"]),
    ("upfront", ["they send 300 requests upfront", "announced to customers upfront", "asks for a reason upfront"]),
    ("200ms", ["health checks time out after 200ms", "checks that take longer than 200ms are logged"]),
    ("Uhr", ["Techniker kommt zwischen 12 und 16 Uhr", "Hoffest ab 15 Uhr im Hof", "um 17 Uhr beim Mieterverein"]),
    ("warm", ["Die Miete ist jetzt 520 warm", "520 warm ist zu viel für die Wohnung", "Die Wohnung kostet 520 warm"]),
    ("nochmal", ["Wenn es nochmal ausfällt, rufe ich an", "Das Internet ist nochmal weg", "Ich frag nochmal nach"]),
    ("asap", ["ring the landlord asap", "can he get someone out asap"]),
    ("euros", ["3 noches por 540 euros", "700 euros en total", "38 euros ida y vuelta"]),
])
def test_an_adverb_a_unit_or_a_measure_names_no_topic(word: str, texts: list[str]) -> None:
    assert not topic_names.used_as_subject(word, texts)


@pytest.mark.parametrize("word, texts", [
    ("Keller", ["Das Kabel im Keller war durch", "Der Keller ist nass", "Wer schließt den Keller auf?"]),
    ("boat", ["the boat needs a new engine", "sold it, no more boat"]),
    ("router", ["the router is faulty", "a new router arrives Tuesday"]),
    ("Lastenrad", BIKE),
])
def test_nouns_stay_subjects(word: str, texts: list[str]) -> None:
    assert topic_names.used_as_subject(word, texts)


def test_a_group_of_stray_words_is_other_memories() -> None:
    texts = ["broadband dropped overnight again", "the Greenstar is banging overnight again",
             "ran out of memory overnight"]
    assert named(texts) == topic_names.MIXED


def test_consolidate_and_brief_name_a_german_chat_by_its_subjects(store: core.MemoryStore) -> None:
    turns = [(f"2026-09-{d:02d}T{h:02d}:00:00", who, text) for d, h, who, text in [
        (1, 9, "Malte", BIKE[0]), (1, 10, "Jonas", BIKE[1]), (3, 20, "Malte", BIKE[2]), (3, 21, "Jonas", BIKE[3]),
        (15, 19, "Jonas", BIKE[4]),
        (1, 8, "Greta", OUTAGE[0]), (1, 9, "Aylin", OUTAGE[1]), (1, 12, "Greta", OUTAGE[2]),
        (1, 13, "Aylin", OUTAGE[3]), (7, 8, "Aylin", OUTAGE[4]),
    ]]
    chat_turns(store, "hausgruppe", sorted(turns))
    consolidate.run(store, now=datetime(2026, 9, 19), keep_backups=0)
    labels = [str(r[0]) for r in store.conn.execute("SELECT label FROM clusters WHERE status = 'active'")]
    brief = graph_rank.brief(store, 2000, now=datetime(2026, 9, 19))
    names = labels + [t["name"] for t in brief["topics"]]
    assert names, "consolidate made no topic"
    for bad in ("vorm", "wenn's", "nochmal", "direkt", "laut", "Uhr", "Mbit"):
        assert not any(bad.lower() in n.lower().split() for n in names), (bad, names)


def test_english_notes_full_of_product_names_are_not_judged_as_german() -> None:
    # most words after "the" are capitalised here too, but no noun of English is capitalised for being a noun
    texts = ["The Windows agent build fails on the Windows runner with error 0x80070005 when it signs the MSI",
             "Tomasz moved the certificate into the runner's machine store; the Windows runner signs the MSI again",
             "The Windows agent build fails again with MSB3073 on the Windows runner after the SDK update"]
    assert topic_names.name_shaped("Windows runner", texts)
    assert topic_names.name_shaped("Windows agent build", texts)


def test_a_conjunction_left_by_its_clitic_is_no_name() -> None:
    # "wenn's" spelled without its "'s" (a run's possessive is dropped) is "wenn": no subject
    texts = ["wenn's nochmal ausfällt, ruf ich die Hotline an", "wenn's nochmal ausfällt, will ich eine Gutschrift",
             "Wie gesagt, wenn's nochmal ausfällt ruf ich an"]
    assert named(texts) == topic_names.MIXED
    assert not topic_names.name_shaped("wenn", texts)


def test_no_before_a_word_is_a_determiner_not_a_place() -> None:
    # Portuguese "no" ("in the") is no place word where it is the determiner "no" ("no exams this week")
    assert topic_names.used_as_subject("exams", ["no exams until June", "the exams start Monday",
                                                 "good luck with the exams"])
