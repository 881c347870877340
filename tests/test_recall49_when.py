"""Round 49: asked WHEN, a later note holding no time is no newer version above the note holding one
(memengine/recall/notes_kind.py, notes.newer_notes_first ``when``)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

import pytest

import memory_core as core
from memengine.recall.config import RecallConfig
from memengine.recall.notes_kind import asks_time, holds_time


def test_questions_asking_for_a_time_in_several_languages() -> None:
    for q in ("when is choir practice?", "What time does the gym open?", "what day does the milk arrive?",
              "quando começaram as obras na cozinha?", "a che ora sono le prove del coro?", "Wann ist die Probe?",
              "Düğün ne zaman?"):
        assert asks_time(q), q
    for q in ("who runs the choir now?", "how much is the rent?", "where does the committee meet?"):
        assert not asks_time(q), q


def test_a_text_holds_a_time_by_digit_weekday_or_month() -> None:
    assert holds_time("As obras na cozinha começam a 2 de fevereiro")
    assert holds_time("Lowther Dairy switched delivery to Wednesdays")
    assert holds_time("Le prove sono il martedì sera")
    assert holds_time("Meeting moved to next Tuesday")
    assert not holds_time("Paolo Rossi si è trasferito; adesso dirige il coro Giulia Bianchi.")
    assert not holds_time("O Sr. Almeida partiu o pé; quem dirige a obra agora é o filho, o Tiago.")


CHOIR = ["Le prove del coro sono il martedì alle 20; il direttore è Paolo Rossi.",
         "La quota annuale è di 60 euro.",
         "Paolo Rossi si è trasferito; adesso dirige il coro Giulia Bianchi.",
         "Il concerto di Natale è il 20 dicembre."]


@pytest.fixture
def choir(db_path, real):  # type: ignore[no-untyped-def]
    s = core.MemoryStore(db_path, embedder=real)
    ids = [s.store(t, "semantic", source="agent", importance=0.6, event_at=datetime(2026, 2, 1 + 5 * i, 9)).id
           for i, t in enumerate(CHOIR)]
    yield s, ids
    s.close()


def test_asked_when_the_note_holding_the_time_stays_first(choir: Any) -> None:
    s, ids = choir
    q = "a che ora sono le prove del coro?"
    on = s.recall(q, k=3, touch=False).results
    off = s.recall(q, k=3, touch=False, config=replace(RecallConfig(), notes_when=False)).results
    assert on[0].id == ids[0] and not on[0].possibly_outdated
    # off, the director's change is read as the rehearsal note's newer version and goes above it, marking it
    assert off[0].id == ids[2] and off[1].id == ids[0] and off[1].possibly_outdated


def test_asked_who_the_later_note_still_goes_first(choir: Any) -> None:
    s, ids = choir
    res = s.recall("chi dirige il coro adesso?", k=3, touch=False).results
    assert res[0].id == ids[2]
