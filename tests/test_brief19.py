"""Brief, round 15 (brief19): topic names by shape beyond the languages brief17 tested. A group whose language is
not told (a chat mixing English with Italian or Portuguese, short lines) is cut into runs by English's stop words
alone, so "il tecnico ha chiamato", "voo foi cancelado", "bella giornata", "que dia lindo" became topic names, and
"max", "circa", "mín" one-word names. Told by shape (memengine/topic_shape.py), from what the brief knows of each
language: a finite "be" / "have" inside a name, a word the members' own text writes as a verb (right after an
auxiliary, a negation, a clitic or subject pronoun: "ha chiamato", "non dice"), a lower-case adjective of praise
("bella", "lindo"), a limit's word. Good odd names stay: "Casa Verde beach", "Costa Nova", "TAP", "Bella Vista",
"Fehler F28", "mercato centrale" (ends as a participle does, never written as a verb)."""

from __future__ import annotations

from datetime import datetime

import pytest
from conftest import chat_turns

import memory_core as core
from memengine import consolidate, graph_rank, summarize, topic_names

RARE = topic_names.idf(lambda w: 1, 10)


def named(texts: list[str]) -> str:
    return topic_names.name(texts, summarize.STOPWORDS, set(), RARE)  # the language not told: English's stop words


IT_BOILER = [
    "il tecnico ha chiamato, the boiler needs a new pump",
    "ok so il tecnico ha chiamato again? the boiler is still noisy",
    "boiler pump costs circa 300 euro, il tecnico ha chiamato the supplier",
    "Marco non dice niente about the boiler, typical. Marco dice always the same",
    "boiler fixed, max 2 hours of work. il tecnico ha chiamato to confirm",
]
IT_KAYAK = [
    "bella giornata today, let's take the kayak out",
    "bella giornata indeed, the kayak is in the garage",
    "another bella giornata, kayak again at Casa Verde beach",
    "bella giornata! Casa Verde beach with the kayak",
]
PT_FLIGHT = [
    "o voo foi cancelado, TAP sent an email about the refund",
    "the flight foi cancelado again? TAP is a joke",
    "TAP says the refund takes mín 10 days, voo foi cancelado",
]
PT_BEACH = [
    "que dia lindo, beach at Costa Nova later",
    "que dia lindo! Costa Nova beach then",
    "que dia lindo again, Costa Nova beach with the kids",
]


@pytest.mark.parametrize("phrase, texts", [
    ("tecnico ha chiamato", IT_BOILER), ("ha chiamato", IT_BOILER), ("Marco dice", IT_BOILER),
    ("bella giornata", IT_KAYAK), ("voo foi cancelado", PT_FLIGHT), ("voo cancelado", PT_FLIGHT),
    ("que dia lindo", PT_BEACH), ("dia lindo", PT_BEACH), ("mooi weer", ["mooi weer vandaag", "echt mooi weer"]),
    ("max", IT_BOILER), ("circa", IT_BOILER), ("mín", PT_FLIGHT), ("approx", ["approx 20 people, approx 3 hours"]),
])
def test_a_clause_an_evaluation_or_a_limit_names_no_topic(phrase: str, texts: list[str]) -> None:
    assert not topic_names.name_shaped(phrase, texts)


@pytest.mark.parametrize("phrase, texts", [
    ("Casa Verde beach", IT_KAYAK), ("Costa Nova", PT_BEACH), ("TAP", PT_FLIGHT), ("boiler pump", IT_BOILER),
    ("Bella Vista", ["dinner at Bella Vista", "Bella Vista again on Friday", "Bella Vista is booked"]),
    ("mercato centrale", ["il mercato centrale apre alle 8", "al mercato centrale ha comprato il pesce",
                          "il mercato centrale è chiuso lunedì"]),
    ("Fehler F28", ["die Therme zeigt Fehler F28", "Fehler F28 schon wieder"]),
])
def test_good_odd_names_stay(phrase: str, texts: list[str]) -> None:
    assert topic_names.name_shaped(phrase, texts)


def test_the_subject_is_named_not_the_clause() -> None:
    assert named(IT_BOILER) == "boiler"
    assert named(PT_FLIGHT) == "TAP"
    assert named(PT_BEACH) == "Costa Nova"


@pytest.mark.parametrize("thread, rows, good, bad", [
    ("amici", [(1, 9, "Marco", IT_BOILER[0]), (1, 10, "Giulia", IT_BOILER[1]), (2, 20, "Marco", IT_BOILER[2]),
               (3, 21, "Giulia", IT_BOILER[3]), (5, 19, "Marco", IT_BOILER[4]),
               (6, 9, "Giulia", IT_KAYAK[0]), (6, 10, "Marco", IT_KAYAK[1]), (7, 11, "Giulia", IT_KAYAK[2]),
               (8, 11, "Marco", IT_KAYAK[3])],
     {"boiler"}, ("chiamato", "giornata", "bella", "dice", "circa", "max")),
    ("amigos", [(1, 9, "Ana", PT_FLIGHT[0]), (1, 10, "Rui", PT_FLIGHT[1]), (2, 20, "Ana", PT_FLIGHT[2]),
                (3, 21, "Rui", PT_BEACH[0]), (4, 9, "Ana", PT_BEACH[1]), (5, 10, "Rui", PT_BEACH[2])],
     {"TAP", "Costa Nova"}, ("foi", "cancelado", "lindo", "que", "mín")),
])
def test_consolidate_and_brief_name_a_mixed_chat_by_its_subjects(
        store: core.MemoryStore, thread: str, rows: list[tuple[int, int, str, str]], good: set[str],
        bad: tuple[str, ...]) -> None:
    chat_turns(store, thread, sorted((f"2026-09-{d:02d}T{h:02d}:00:00", who, text) for d, h, who, text in rows))
    consolidate.run(store, now=datetime(2026, 9, 19), keep_backups=0)
    labels = [str(r[0]) for r in store.conn.execute("SELECT label FROM clusters WHERE status = 'active'")]
    brief = graph_rank.brief(store, 2000, now=datetime(2026, 9, 19))
    names = labels + [t["name"] for t in brief["topics"]]
    # (brief34: a one-word name is widened to the phrase a turn says it in: "boiler pump" names the boiler's topic)
    assert all(any(g == t["name"] or t["name"].startswith(g + " ") for t in brief["topics"]) for g in good), names
    for word in bad:
        assert not any(word in n.lower().split() for n in names), (word, names)
