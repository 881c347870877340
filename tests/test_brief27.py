"""Brief, round 27 (brief27): the brief of a store of an agent's OWN notes (bench/data/brief_heldout20). What reached
users: the People section of an assistant's notes held the user and one plumber, not the manager, the teammate, the
sister or the partner the notes named with a role ("Dana Whitfield is Priya's engineering manager", "Paco es la
pareja de Lucía", "Jonas' Kollegin Sabine Roth"); the nightly decay had archived the notes that told their news
("Marta ha tenido al bebé"); a person's quoted news was a value a later note updates ("Mia wird um 16:00 Uhr
abgeholt"), or nobody's, a sentence's article read as a name ("La boda de Irene Soler …")."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest

import memory_core as core
from memengine import (
    brief,
    brief_keyfacts,
    brief_namedpeople,
    brief_naming,
    consolidate,
    graph_rank,
    summarize,
    topic_names,
    writes,
)


@pytest.mark.parametrize("text, name", [
    ("Dana Whitfield is Priya's engineering manager.", "Dana Whitfield"),
    ("Marco Bellini is Priya's teammate on the billing service.", "Marco Bellini"),
    ("Paco es la pareja de Lucía; es profesor de música.", "Paco"),
    ("Théo Moreau est l'apprenti de Claire, en CAP boulanger.", "Théo Moreau"),
    ("La amiga de Lucía, Irene Soler, se casa el 12 de septiembre.", "Irene Soler"),
    ("Jonas' Kollegin Sabine Roth hat das Projekt übernommen.", "Sabine Roth"),
    ("Davide Ferri, collega di dottorato di Giulia, si sposa il 20 giugno.", "Davide Ferri"),
    ("Entretien avec Herrn Demir am Montag.", "Demir"),
])
def test_a_role_said_with_a_copula_a_possessive_or_inside_a_capitalised_span_is_evidence(text: str,
                                                                                          name: str) -> None:
    assert brief_namedpeople._mentions(text).get(name, 0) >= brief_namedpeople.EVIDENCE_MIN


@pytest.mark.parametrize("text, name", [
    ("Bristol is the city where the meetup is.", "Bristol"),        # no role after the copula
    ("The Moulin Girard est le fournisseur de farine.", "Moulin Girard"),  # a role a firm holds is no role here
])
def test_a_copula_without_a_persons_role_is_no_evidence(text: str, name: str) -> None:
    assert brief_namedpeople._mentions(text).get(name, 0) == 0


NOTES = [  # (days after the first, type, importance, text): an assistant's notes in Spanish, as stored
    (0, "semantic", 0.9, "La usuaria se llama Lucía Ferrer y vive en Valencia."),
    (1, "semantic", 0.6, "Marta es la hermana de Lucía; está embarazada."),
    (2, "semantic", 0.6, "Paco es la pareja de Lucía; es profesor de música."),
    (3, "episodic", 0.5, "Paco y Lucía han reservado una casa rural en Cangas de Onís."),
    (5, "episodic", 0.5, "La amiga de Lucía, Irene Soler, se casa el 12 de septiembre en Xàtiva."),
    (31, "episodic", 0.5, "Marta ha tenido al bebé: un niño, Leo, 3,4 kilos."),
    (70, "episodic", 0.6, "La boda de Irene Soler en Xàtiva fue ayer; Lucía dio el discurso."),
]


@pytest.fixture
def notes_brief(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict:
    """The brief of NOTES stored one by one at their days (the clock too), consolidated 10 weeks on: the nightly
    decay archives the episodic notes older than five weeks."""
    start = datetime(2026, 6, 1, 9, 0)
    store = core.MemoryStore(db_path)
    try:
        for days, kind, imp, text in NOTES:
            at = start + timedelta(days=days)
            monkeypatch.setattr(writes, "utcnow", lambda at=at: at)
            store.store(text, kind, source="agent", importance=imp, event_at=at)
        now = start + timedelta(days=71)
        consolidate.run(store, now=now, keep_backups=0)
        archived = store.conn.execute("SELECT count(*) FROM memories WHERE status = 'archived' AND level = 0").fetchone()
        assert archived[0] >= 2  # (the decay ran: Marta's baby and the wedding's plan are archived)
        return graph_rank.brief(store, 2000, now=now)
    finally:
        store.close()


def test_people_the_notes_name_with_a_role_are_in_people_with_news_the_decay_archived(notes_brief: dict) -> None:
    people = {i["text"].split(":")[0]: i["text"] for i in notes_brief["sections"]["people"]}
    assert {"Marta", "Paco", "Irene Soler"} <= set(people)
    # Marta's news is the archived note of her baby, not her pregnancy
    assert "bebé" in people["Marta"] and "embarazada" not in people["Marta"]
    # the wedding told after it, though the note opens with "La": Irene's news
    assert "fue ayer" in people["Irene Soler"]
    # the user the notes name comes last, without a quote (the topics show her notes)
    assert list(people)[-1] == "Lucía Ferrer" and brief_namedpeople.STATE_SEP not in people["Lucía Ferrer"]


def test_a_persons_news_is_never_a_fact_a_later_note_may_update(db_path: Path, monkeypatch: pytest.MonkeyPatch
                                                                ) -> None:
    start = datetime(2026, 3, 2, 8, 0)
    notes = [(0, "Jonas ist mit Anna verheiratet; ihre Tochter Mia geht in die Kita Sonnenblume."),
             (0, "Mia wird aus der Kita um 16:00 Uhr abgeholt, meistens von Jonas."),
             (3, "Oma Gisela holt Mia freitags aus der Kita ab."),
             (39, "Die Kita schließt jetzt früher: Mia muss um 15:30 Uhr abgeholt werden.")]
    store = core.MemoryStore(db_path)
    try:
        ids = []
        for days, text in notes:
            at = start + timedelta(days=days)
            monkeypatch.setattr(writes, "utcnow", lambda at=at: at)
            ids.append(store.store(text, "semantic", source="agent", importance=0.7, event_at=at).id)
        people, news = brief_namedpeople._named(store, set(), outdated=())
        assert news["Mia"][0] == ids[1]  # (without the links: the 16:00 note, the most important then newest)
        people, news = brief_namedpeople._named(store, set(), outdated={ids[1]})
        assert "Mia" in {p[0] for p in people} and news.get("Mia", (0, ""))[0] != ids[1]
    finally:
        store.close()


@pytest.mark.parametrize("text, name", [
    ("La usuaria se llama Lucía Ferrer, vive en Valencia.", "Lucía Ferrer"),
    ("Der Nutzer heißt Jonas Becker, wohnt in München.", "Jonas Becker"),
    ("L'utilisatrice s'appelle Claire Dubois ; elle tient une boulangerie.", "Claire Dubois"),
    ("L'utente è Giulia Conti, dottoranda a Bologna.", "Giulia Conti"),
])
def test_the_user_named_by_the_notes_is_a_person_in_every_language(text: str, name: str) -> None:
    assert brief_namedpeople._mentions(text).get(name, 0) >= brief_namedpeople.EVIDENCE_MIN


def test_groups_saying_counts_the_groups_where_two_members_say_a_word() -> None:
    lisbon = ["Lisbon trip: flights booked for 15 May", "the Lisbon trip airbnb is in Alfama", "tram 28 in Lisbon"]
    camping = ["camping trip in July, Llyn Gwynant", "the camping trip kit list", "Llyn Gwynant campsite booked"]
    saying = topic_names.groups_saying([lisbon, camping])
    assert saying["trip"] == 2 and saying["lisbon"] == 1 and saying["alfama"] == 0
    own = topic_names.said_twice(lisbon)
    rarity = topic_names.apart(lambda k: 1.0, saying, own)
    assert rarity(("lisbon",)) == 1.0 and rarity(("lisbon", "trip")) == 0.5  # "trip" is said by the other group too
    # a stored label that names nobody but a person
    assert topic_names.names_nobody("Marini", {"marini"}, frozenset())
    assert not topic_names.names_nobody("prof. Marini's course", {"marini"}, frozenset({"prof"}))


def test_a_word_said_in_most_of_a_notes_store_names_no_topic(store: core.MemoryStore,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The user's name, in most notes of an assistant's store, is no topic's name: the topic is named by what its
    own notes share (a group that says "Brigitte" in every note and "Moulin Girard" in three)."""
    mill = ["Brigitte reçoit la farine du Moulin Girard le mardi.", "Brigitte a commandé au Moulin Girard du sarrasin.",
            "Le Moulin Girard augmente ses prix, Brigitte râle.", "Brigitte range la réserve le soir."]
    rest = [f"Brigitte a noté la recette {w} du carnet." for w in
            ("fougasse", "brioche", "baguette", "ficelle", "tourte", "couronne", "miche", "bâtard", "épi", "boule")]
    rest += [f"Le carnet de recettes, page {w}." for w in ("seigle", "épeautre", "levain", "sarrasin", "maïs", "orge")]
    rest += ["Brigitte ferme le mercredi.", "Brigitte cherche une vendeuse."]
    pool = [(i + 1, t, "2026-01-05", "agent", None, 0.0) for i, t in enumerate(mill + rest)]
    key = [(None, 0)] * len(mill) + [(None, 1)] * len(rest)
    assert sum("Brigitte" in t for t in mill + rest) > brief.COMMON_NAME_SHARE * len(pool)
    shells = brief._Shells(store, pool, key)
    shells.stop[None] = summarize.stopwords_for(mill)
    assert "brigitte" in shells.common
    # the stored label "Brigitte" names nobody but the user: the group is named anew, by what its members share
    assert shells._named((None, 0), mill, "Brigitte") == "Moulin Girard"
    monkeypatch.setattr(brief_naming, "COMMON_NAME_MIN", 10**6)  # (a small pool: no word is common, the label stays)
    shells = brief._Shells(store, pool, key)
    shells.stop[None] = summarize.stopwords_for(mill)
    assert not shells.common and shells._named((None, 0), mill, "Brigitte") == "Brigitte"


def test_a_label_sharing_a_word_with_a_name_given_gives_way_to_the_word_that_tells_it_apart(
        store: core.MemoryStore) -> None:
    lisbon = ["Lisbon trip is happening, flights booked", "sorting my Lisbon flights tonight",
              "Lisbon trip airbnb booked in Alfama", "back from the Lisbon trip, Alfama was unreal"]
    camping = ["camping trip in July? a campsite at Llyn Gwynant", "Llyn Gwynant campsite is booked",
               "the camping trip kit list: tent, stove", "camping trip: we leave Friday"]
    pool = [(i + 1, t, "2026-03-03", "chat", None, 0.0) for i, t in enumerate(camping + lisbon)]
    key = [(None, 0)] * len(camping) + [(None, 1)] * len(lisbon)
    shells = brief._Shells(store, pool, key)
    shells.stop[None] = summarize.stopwords_for(camping + lisbon)
    shells.taken, shells.taken_words = {"camping trip"}, frozenset({"camping", "trip"})
    other = shells._named((None, 1), lisbon, "Lisbon trip")
    assert other in ("Lisbon", "Alfama") and "trip" not in other.lower()  # (what the camping trip does not say)
    assert shells._named((None, 1), lisbon, "Lisbon flights") == "Lisbon flights"  # (no word given: kept)


def test_a_plan_still_ahead_shows_under_coming_up_after_the_nightly_decay_archived_its_note(
        db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    start = datetime(2026, 2, 13, 12, 0)
    store = core.MemoryStore(db_path)
    try:
        at = start
        monkeypatch.setattr(writes, "utcnow", lambda: at)
        wedding = store.store("Davide Ferri, collega di dottorato di Giulia, si sposa il 20 giugno a Modena.",
                              "episodic", source="agent", importance=0.5, event_at=at).id
        now = datetime(2026, 5, 15, 9, 0)  # (three months on: the note is archived, the wedding is ahead)
        consolidate.run(store, now=now, keep_backups=0)
        status = store.conn.execute("SELECT status FROM memories WHERE id = ?", (wedding,)).fetchone()[0]
        assert status == "archived"
        out = graph_rank.brief(store, 2000, now=now)
    finally:
        store.close()
    lines = [i["text"] for i in out["sections"]["upcoming"]]
    assert any(f"#{wedding} " in line and "(→ 2026-06-20, in 36 days)" in line for line in lines)


def test_a_lesser_fact_a_later_one_replaces_is_shown_nowhere(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Notes of importance 0.6 are no key facts: the older car stood in a topic under the note that it was sold."""
    start = datetime(2026, 6, 3, 9, 0)
    notes = [(0, "Lucía tiene un Seat Ibiza de 2012, color rojo."),
             (1, "Paco es la pareja de Lucía; es profesor de música."),
             (78, "Lucía ha vendido el Seat Ibiza y ahora tiene un Toyota Corolla híbrido.")]
    store = core.MemoryStore(db_path)
    try:
        ids = []
        for days, text in notes:
            at = start + timedelta(days=days)
            monkeypatch.setattr(writes, "utcnow", lambda at=at: at)
            ids.append(store.store(text, "semantic", source="agent", importance=0.6, event_at=at, dedup=False).id)
        monkeypatch.setattr(brief_keyfacts, "similarities", lambda _s, got: __import__("numpy").array(
            [[1.0 if a == b else (0.65 if {a, b} == {ids[0], ids[2]} else 0.2) for b in got] for a in got]))
        assert brief_keyfacts.lesser_updates(store) == {ids[0]}
    finally:
        store.close()


def test_news_weeks_later_and_about_as_important_replaces_a_persons_news_and_the_user_comes_last() -> None:
    assert brief_namedpeople._later_news("2026-07-24T08:15", "2026-06-04T12:00", 0.5, 0.6)  # (7 weeks, 0.1 less)
    assert not brief_namedpeople._later_news("2026-09-14T09:10", "2026-09-01T09:10", 0.6, 0.7)  # (2 weeks)
    assert not brief_namedpeople._later_news("2026-08-24T09:10", "2026-06-01T09:10", 0.5, 0.9)  # (far less)
    users: set[str] = set()
    brief_namedpeople._mentions("La usuaria se llama Lucía Ferrer, vive en Valencia.", users)
    brief_namedpeople._mentions("Paco es la pareja de Lucía.", users)
    assert users == {"Lucía Ferrer"}
