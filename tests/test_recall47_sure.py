"""Round 47: ``weak`` on an agent's notes reads the cosine and the keyword side's bm25 times the share of the
question's words said (notes_sure.py); chat turns and keyword-only recall keep confidence.py's rule."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest

import memory_core as core
from memengine.recall.confidence import coverage, is_weak
from memengine.recall.config import RecallConfig
from memengine.recall.notes_sure import BM25_WEIGHT, FLOOR, mark_weak_notes, sure


def _result(mid: int, content: str, thread: str | None = None) -> SimpleNamespace:
    return SimpleNamespace(id=mid, content=content, thread=thread, metadata={}, source="user", weak=None)


def test_sure_adds_bm25_times_the_share_of_words() -> None:
    assert sure(0.3, 2.0, 0.5) == pytest.approx(0.3 + BM25_WEIGHT * 2.0 * 0.5)
    assert sure(0.3, 2.0, 0.0) == pytest.approx(0.3)


def test_a_note_is_weak_under_the_floor_and_a_chat_turn_is_left_alone() -> None:
    terms = ["boiler", "service"]
    close = _result(1, "Boiler service booked with Dave for 3 May.")  # cosine 0.35, bm25 2.0, both words: 0.75
    one_word = _result(2, "Bill Turner moves to Cromer in June.")  # cosine 0.35, bm25 2.2, no word of the question
    far = _result(3, "Bins go out on Wednesday night.")  # cosine 0.45, no keyword match: 0.45 < FLOOR
    turn = _result(4, "boiler's fine now", thread="chat-1")  # a chat turn: not read here
    results = [close, one_word, far, turn]
    mark_weak_notes(results, terms, {1: 0.35, 2: 0.35, 3: 0.45, 4: 0.1}, {1: 2.0, 2: 2.2})
    assert FLOOR > 0.45
    assert (close.weak, one_word.weak, far.weak, turn.weak) == (False, True, True, None)


@pytest.fixture
def store(db_path, real):  # type: ignore[no-untyped-def]
    s = core.MemoryStore(db_path, embedder=real)
    for text in ["The gas boiler was serviced by Dave Price on 3 March; next service due March next year.",
                 "Council tax for the house is band D, paid by direct debit on the 1st.",
                 "Window cleaner comes on the last Monday of the month, £20.",
                 "The car's MOT is due in September at Kwik Fit on Station Road."]:
        s.store(text)
    yield s
    s.close()


def test_an_off_topic_question_stays_weak(store) -> None:  # type: ignore[no-untyped-def]
    res = store.recall("Which Kubernetes namespace runs the payment workers?", k=3, touch=False).results
    assert res and all(m.weak for m in res)


def test_the_note_about_the_question_is_not_weak(store) -> None:  # type: ignore[no-untyped-def]
    res = store.recall("when is the boiler service due?", k=3, touch=False).results
    assert res[0].content.startswith("The gas boiler") and res[0].weak is False


def test_off_keeps_the_old_rule(store) -> None:  # type: ignore[no-untyped-def]
    res = store.recall("car MOT garage", k=4, touch=False, explain=True,
                       config=replace(RecallConfig(), notes_weak=0.0)).results
    assert res
    for m in res:
        assert m.weak == is_weak(m.explain["cosine"], coverage(["car", "mot", "garage"], m.content))
