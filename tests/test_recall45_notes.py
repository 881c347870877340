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


def test_notes_recent_reads_its_spec_and_refuses_the_rest() -> None:
    from memengine.recall.notes_recent import parse_recent, wants_now

    assert parse_recent("") == ("", 0.0)
    assert parse_recent("now:0.05") == ("now", 0.05)
    assert parse_recent("all:0.1") == ("all", 0.1)
    for bad in ("now", "soon:0.1", "now:x", "all:0", "all:2"):
        with pytest.raises(ValueError, match="notes_recent"):
            parse_recent(bad)
    assert wants_now("who covers the workshop at the moment?") and wants_now("Dove si fanno le riunioni adesso?")
    assert not wants_now("who covers the workshop?")


def _cand(i: int, day: str, score: float, thread: str | None = None):  # type: ignore[no-untyped-def]
    from memengine.records import Candidate

    c = Candidate((i, f"note {i}", None, thread, None, day, "{}", 1.0, 0.5, "agent"))
    c.score = score
    return c


def test_notes_recent_nudges_the_later_of_alike_notes_only_when_asked_for_now() -> None:
    from memengine.recall.notes_recent import later_nudged

    def ranked(query: str, spec: str, thread: str | None = None) -> list[int]:
        cands = [_cand(1, "2026-01-05", 1.10, thread), _cand(2, "2026-03-01", 1.08, thread),
                 _cand(3, "2026-02-01", 0.70, thread)]
        return [c.id for c in later_nudged(cands, 3, query, spec)]

    assert ranked("who covers the workshop now?", "now:0.05") == [2, 1, 3]  # 1.08 + 0.05 over 1.10 + 0
    assert ranked("who covers the workshop now?", "now:0.01") == [1, 2, 3]  # a clear lead stays
    assert ranked("who covers the workshop?", "now:0.05") == [1, 2, 3]  # not asked for now
    assert ranked("who covers the workshop?", "all:0.05") == [2, 1, 3]
    assert ranked("who covered the workshop before Dev?", "all:0.05") == [1, 2, 3]  # the past is asked
    assert ranked("who covers the workshop now?", "") == [1, 2, 3]  # off
    assert ranked("who covers the workshop now?", "now:0.05", thread="chat-1") == [1, 2, 3]  # chat turns: never
