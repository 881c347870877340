"""Round 46 of issue 19: "when" asked by a later clause of a two-part question gets the time prior
(priors.WHEN_CLAUSE_RE, RecallConfig.time_words "en:clause", chosen by bench/recall46_pool.py)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from memengine.recall.priors import asks_when
from memory_core import MemoryStore, NewMemory, RecallConfig


def test_default_reads_a_later_clause_and_any_language_in_the_turns() -> None:
    assert RecallConfig().time_words == "en+:clause"


@pytest.mark.parametrize("question", [
    "How did Eoin get to Newcastle, and when did he arrive?",
    "Where is Marco's new job and when does he start?",
    "How much was each share, and by when did it have to be sent?",
    "Which tune-up race did Dev do and what time?",
    "Wo hat Mila einen Platz bekommen, und ab wann?",
])
def test_a_later_clause_asks_when(question: str) -> None:
    assert asks_when(question, "en:clause")
    assert not asks_when(question, "en")  # the head-only rule before round 46


@pytest.mark.parametrize("question", [
    "What do we do when there's no hot water?",  # a condition, not a question about time
    "What could we organise when our friend is back?",
    "Where is Marco's new job?",
])
def test_no_later_clause_asks_when(question: str) -> None:
    assert not asks_when(question, "en:clause")


def test_head_and_other_languages_unchanged() -> None:
    assert asks_when("When did Hugo get his licence?", "en:clause")
    assert asks_when("Quand est l'anniversaire de mamie ?", "all:clause")
    assert not asks_when("Quand est l'anniversaire de mamie ?", "en:clause")


def _time_prior(store: MemoryStore, query: str, cfg: RecallConfig) -> dict[str, float]:
    res = store.recall(query, k=10, touch=False, config=cfg, explain=True)
    return {m.content: (m.explain or {}).get("priors", {}).get("time", 0.0) for m in res.results}


def test_the_turn_saying_a_day_gains_the_time_prior(tmp_path: Path) -> None:
    store = MemoryStore(str(tmp_path / "m.db"))
    try:
        day = "Marco: i start on the 1st of april, office in Torino"
        other = "Marco: the new job is at a bank in Torino"
        store.store_many([NewMemory(content=day, author="Marco", thread="fam"),
                          NewMemory(content=other, author="Marco", thread="fam")])
        q = "Where is Marco's new job in Torino and when does he start?"
        now = _time_prior(store, q, RecallConfig())
        before = _time_prior(store, q, replace(RecallConfig(), time_words="en+"))
        assert before[day] == 0.0 and before[other] == 0.0
        assert now[day] > 0.0  # the turn saying a day ("1st of april") gains once the clause asks when
        assert now[other] == 0.0
    finally:
        store.close()


def test_an_english_when_question_reads_a_portuguese_month(tmp_path: Path) -> None:
    store = MemoryStore(str(tmp_path / "m.db"))
    try:
        day = "Bia: minha mãe vem em dezembro, chega no T2 de manhã"
        other = "Bia: minha mãe quer ver Dublin e Galway"
        store.store_many([NewMemory(content=day, author="Bia", thread="dub"),
                          NewMemory(content=other, author="Bia", thread="dub")])
        q = "When does Bia's mum land in Dublin?"
        now = _time_prior(store, q, RecallConfig())
        english = _time_prior(store, q, replace(RecallConfig(), time_words="en:clause"))
        assert now[day] > 0.0 and now[other] == 0.0  # "dezembro" read as a month
        assert english[day] == 0.0  # the English-only table reads no Portuguese month
        # the question side stays English: a Portuguese "quando" question is no "when" question under en+
        assert not asks_when("quando chega a mãe da Bia?", "en+:clause")
        assert asks_when("quando chega a mãe da Bia?", "all:clause")
    finally:
        store.close()
