"""Brief, round 36 (brief36): topic headings are the nouns and names of the chat's language, not its verbs and
adjectives, and a person the chat talks about heads no topic.

Spanish, Portuguese, French and Italian put a noun right after its determiner and what is said of it after the noun
("el piso está libre", "a van sai caro", "no pasa nada"): a word two places after a determiner is no noun there, and a
determiner is one of the language's own (every language's list held Dutch "de" and English "no")."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import memory_core as core
from memengine import brief, graph_rank, summarize, topic_subject
from memengine.topic_subject import _SubjectJudge

_ES = ["Marta: el coche sale caro, mejor el tren", "Pablo: no pasa nada, el taller está cerrado hasta el lunes",
       "Marta: la casa rural está libre el puente", "Pablo: reservo la casa rural?", "Marta: el tren sale a las 9",
       "Pablo: vale, la casa y el tren", "Marta: el taller me llama mañana, no pasa nada"]
_PT = ["Ana: a van sai caro no sábado", "Rui: a pousada fica livre no domingo", "Ana: a pousada tem piscina?",
       "Rui: tem sim, e a van sai mais barato no domingo", "Ana: fechado, pousada e van no domingo"]
_FR = ["Léa: le train part à 8h, la salle est libre après", "Tom: la salle est grande, le train part tôt",
       "Léa: je réserve la salle et le train"]


@pytest.mark.parametrize("texts, nouns, others", [
    (_ES, ["coche", "tren", "casa", "taller"], ["sale", "pasa", "libre", "caro"]),
    (_PT, ["van", "pousada"], ["sai", "livre", "caro"]),
    (_FR, ["train", "salle"], ["part", "libre"]),
])
def test_head_first_languages_are_judged_by_their_own_determiners(texts: list[str], nouns: list[str],
                                                                   others: list[str],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(topic_subject, "HEAD_FIRST_JUDGE", True)
    judge = _SubjectJudge(texts, summarize.stopwords_for(texts))
    assert judge.head_first is not None
    assert [w for w in nouns if not judge.subject(w)] == []
    assert [w for w in others if judge.subject(w)] == []
    monkeypatch.setattr(topic_subject, "HEAD_FIRST_JUDGE", False)  # the base: two words apart, every language's list
    base = _SubjectJudge(texts, summarize.stopwords_for(texts))
    assert base.head_first is None and any(base.subject(w) for w in others)


def test_english_and_german_are_judged_as_before() -> None:
    """A noun two words after its determiner is still one where adjectives come first ("the new deploy days")."""
    en = ["Sam: the new deploy days are tuesdays", "Jo: the new deploy days suit me", "Sam: deploy days it is"]
    judge = _SubjectJudge(en, summarize.stopwords_for(en))
    assert judge.head_first is None and judge.subject("deploy")


_ROOM = [("Kat", "posted the spare room online, 650 a month"),
         ("Kat", "two viewings: a teacher called Ravi and a guy called Olly"), ("Dev", "ravi seemed lovely"),
         ("Sol", "olly wanted to bring his drum kit lol"), ("Kat", "so ravi or olly?"), ("Dev", "ravi"), ("Sol", "ravi"),
         ("Kat", "ok telling ravi, he moves in on the 1st")]


@pytest.mark.parametrize("on", [True, False])
def test_people_the_chat_talks_about_name_no_topic(db_path: Path, monkeypatch: pytest.MonkeyPatch, on: bool) -> None:
    """Ravi and Olly, two people viewing a room, have People lines of their own ("named in 6 turns"): their names are
    kept out of the topics' names, as the chat's authors' are (off: only the names the notes name)."""
    monkeypatch.setattr(brief, "TALKED_NAME_NO_TOPIC", on)
    store = core.MemoryStore(db_path)
    got: dict[str, set[str]] = {}
    real = brief._topics

    def topics(*args: Any) -> Any:
        got["named"] = set(args[-1])
        return real(*args)

    monkeypatch.setattr(brief, "_topics", topics)
    try:
        for k, (author, text) in enumerate(_ROOM):
            store.store(f"{author}: {text}", "episodic", source="whatsapp", thread="h", position=k, author=author,
                        event_at=datetime(2026, 3, 2, 19) + timedelta(minutes=k))
        people = [i["text"] for i in graph_rank.brief(store, 1500, now=datetime(2026, 3, 3, 9))["sections"]["people"]]
    finally:
        store.close()
    assert any(p.startswith("Ravi: named in") for p in people), people
    assert got["named"] == ({"ravi", "olly"} if on else set())


def test_a_languages_own_verb_cues(monkeypatch: pytest.MonkeyPatch) -> None:
    """Spanish "he"/"has" (haber) and "no", and the Romance object clitics, are cues a verb follows in a group of that
    language only ("he mirado hoteles" is no name; "he" is English's pronoun elsewhere)."""
    es = ["Lucía: he mirado hoteles en la ribeira", "Andrés: yo también he mirado hoteles, son caros",
          "Lucía: me pasas el enlace?"]
    monkeypatch.setattr(topic_subject, "HEAD_FIRST_JUDGE", True)
    assert not _SubjectJudge(es, summarize.stopwords_for(es)).subject("mirado hoteles")
    en = ["Sam: he booked hotels in Leeds", "Jo: he booked hotels twice"]
    assert "he" not in _SubjectJudge(en, summarize.stopwords_for(en)).verb_cues
    monkeypatch.setattr(topic_subject, "HEAD_FIRST_JUDGE", False)
    assert _SubjectJudge(es, summarize.stopwords_for(es)).subject("mirado hoteles")


_HEN = [("Meg", "deposit sent for the cottage"), ("Ffi", "sorry only just seeing this, sending mine tonight"),
        ("Jas", "sorry sent now"), ("Ffi", "sorry sent now too"), ("Meg", "so sorry to chase, bev still owes hers"),
        ("Jas", "bev says she'll pay friday"), ("Meg", "bev sent it!"), ("Ffi", "yay, all paid")]


def test_chat_filler_is_no_person_talked_about(db_path: Path) -> None:
    """"sorry sent now", "sorry only just seeing this": "sorry" is no lower-case name (the lead's blind hen-do chat
    listed "Sorry" in People, named in 3 turns); "bev" is."""
    from memengine import brief_talkedcues

    texts = [t for _a, t in _HEN]
    assert "sorry" not in brief_talkedcues.lower_names(texts, set()) and "bev" in brief_talkedcues.lower_names(texts, set())
    store = core.MemoryStore(db_path)
    try:
        for k, (author, text) in enumerate(_HEN):
            store.store(f"{author}: {text}", "episodic", source="whatsapp", thread="hen", position=k, author=author,
                        event_at=datetime(2026, 5, 2, 19) + timedelta(minutes=k))
        people = [i["text"] for i in graph_rank.brief(store, 1500, now=datetime(2026, 5, 3, 9))["sections"]["people"]]
    finally:
        store.close()
    assert not any(p.lower().startswith("sorry") for p in people), people
