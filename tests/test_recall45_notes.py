"""Round 45: an agent's later note naming a top note's subject again with no change word goes above it when their
vectors are close (notes.py, ``RecallConfig.notes_same_cos``); one noun in two forms is not read as two people."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import pytest

import memory_core as core
from memengine.recall.config import RecallConfig
from memengine.recall.notes import _other_people

FILLER = ["Council tax for the house is band D.", "Window cleaner comes on the last Monday of the month, £20.",
          "Bins go out on Wednesday night; recycling every other week.", "The car's MOT is due in September."]

# (older, later restating it with no change word, the question): written for this test, not from any set
PAIRS = [
    ("The dog's hydrotherapy sessions are at Paws Pool in Hebden Bridge.",
     "Paws Pool signed the dog off hydrotherapy: walks only from here, no more pool visits.",
     "where does the dog go for hydrotherapy?"),
    ("Paper 2 draft is with Priya for comments on the methods section.",
     "Priya returned paper 2 with comments: methods section needs the sampling design spelled out.",
     "where is paper 2?"),
]


@pytest.fixture
def store(db_path, real):  # type: ignore[no-untyped-def]
    """A store with the real MiniLM vectors: the pairing reads their closeness."""
    s = core.MemoryStore(db_path, embedder=real)
    yield s
    s.close()


def _ranked(store, older: str, later: str, question: str, same: float):  # type: ignore[no-untyped-def]
    first = store.store(older, event_at=datetime(2026, 3, 1)).id
    for day, text in enumerate(FILLER, start=2):
        store.store(text, event_at=datetime(2026, 3, day))
    second = store.store(later, event_at=datetime(2026, 3, 20)).id
    res = store.recall(question, k=5, touch=False, config=replace(RecallConfig(), notes_same_cos=same))
    return first, second, res.results


@pytest.mark.parametrize(("older", "later", "question"), PAIRS)
def test_a_later_note_restating_the_subject_goes_first_and_marks_the_older(store, older, later,  # type: ignore[no-untyped-def]
                                                                           question) -> None:
    first, second, results = _ranked(store, older, later, question, RecallConfig().notes_same_cos)
    assert [m.id for m in results[:2]] == [second, first]
    assert results[1].possibly_outdated is True and results[1].possibly_outdated_by == [second]
    assert not results[0].possibly_outdated


@pytest.mark.parametrize(("older", "later", "question"), PAIRS)
def test_switched_off_the_older_worded_like_the_question_stays_first(store, older, later,  # type: ignore[no-untyped-def]
                                                                     question) -> None:
    first, second, results = _ranked(store, older, later, question, 0.0)
    assert [m.id for m in results[:2]] == [first, second]
    assert not results[0].possibly_outdated


def test_two_notes_of_another_subject_sharing_words_are_not_paired(store) -> None:  # type: ignore[no-untyped-def]
    # two rare words shared ("dalle", "alle" of two times), vectors apart: neither is a version of the other
    older, later = "Il check-in è dalle 15 alle 19 alla reception.", "La colazione si serve dalle 8 alle 10 in terrazza."
    _ranked(store, older, later, "a che ora è il check-in?", RecallConfig().notes_same_cos)
    on = store.recall("a che ora è il check-in?", k=5, touch=False).results
    off = store.recall("a che ora è il check-in?", k=5, touch=False,
                       config=replace(RecallConfig(), notes_same_cos=0.0)).results
    assert [m.id for m in on] == [m.id for m in off]
    assert not any(m.possibly_outdated for m in on)


def test_one_noun_in_two_forms_is_not_two_people() -> None:
    assert not _other_people("Glaze buckets are kept on the metal shelf by the back door.",
                             "Glazes now live in the new cupboard under the stairs.")
    assert _other_people("Oscar prefers morning meetings.", "Ana prefers written summaries of meetings.")
    assert not _other_people("Oscar prefers morning meetings.", "Oscar's meetings now start at ten; Ana agrees.")
