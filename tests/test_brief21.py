"""Brief, round 17 (brief21): brief20's name checks made cheaper without changing a name. A group's judge keeps the
places of each word it asks (a greeting's, a feeling's and a subject's test read the same places), each word's
verb verdict, and tells whether a verb form is among the members' words by their joined text before it splits
them. These tests pin that the shortcuts answer as the full reads do."""

from __future__ import annotations

import pytest

from memengine import summarize, topic_names, topic_shape

TEXTS = [
    "[2026-03-02 09:10] Ana: a festa foi cancelada, o tetto perde",
    "Ana: o tetto perdeva água desde ontem; parties and the party's cake",
    "Bruno: Happy birthday Carla! the calendar is full",
    "Carla: the calendar’s full again, put it in the calendar",
    "Bruno: the leaks are back, it was leaking all night",
]


def _full_places(texts: list[str], word: str) -> list[tuple[str, int]]:
    """Every place a word (folded) is written, read the long way (brief20's): every word folded of each member that
    holds the key without its last letter."""
    key = topic_names.fold(word)
    stem = key[:-1] if len(key) > 3 else key
    out = []
    for t in texts:
        if stem not in t.lower():
            continue
        body = topic_names._STAMP.sub("", t, count=1)
        low = [m.group(0).lower() for m in topic_names._WORD.finditer(body)]
        out.extend((body, i) for i, w in enumerate(low) if topic_names.fold(w) == key)
    return out


@pytest.mark.parametrize("word", ["party", "parties", "calendar", "tetto", "leaks", "aby", "abies", "perde", "x"])
def test_kept_places_are_every_place(word: str) -> None:
    texts = TEXTS + ["the abies grow here, abies again"]
    judge = topic_names._SubjectJudge(texts)
    got = [(body, i) for body, _s, _l, i in judge.occurrences(word)]
    assert got == _full_places(texts, word)
    assert judge.occurrences(word) is judge.occurrences(word)  # asked once per group


@pytest.mark.parametrize("form", ["perdeva", "leaking", "leaked", "perder", "calendar", "calenda", "ful", "full",
                                  "tetto", "etto", "carla", "calendar’s", "2026", "09"])
def test_vocabulary_answers_as_the_split_words(form: str) -> None:
    lowered = [t.lower() for t in TEXTS]
    words = frozenset(w for t in lowered for w in topic_names._WORD.findall(t))
    assert (form in topic_names._Vocabulary(lowered)) == (form in words)


@pytest.mark.parametrize("phrase", ["tetto perde", "leaks", "calendar", "party", "Happy birthday", "birthday",
                                    "festa foi cancelada", "calendar full"])
def test_a_judge_asked_twice_answers_the_same(phrase: str) -> None:
    stop = summarize.stopwords_for(TEXTS)
    judge = topic_names._SubjectJudge(TEXTS, stop)
    first = judge.subject(phrase)
    assert judge.subject(phrase) == first == topic_names.name_shaped(phrase, TEXTS, stop)


def test_verb_by_stem_reads_a_container() -> None:
    vocab = topic_names._Vocabulary(["it was leaking all night"])
    assert topic_shape.verb_by_stem("leaks", vocab, ["english"])
    assert not topic_shape.verb_by_stem("leaks", topic_names._Vocabulary(["the leaks again"]), ["english"])
