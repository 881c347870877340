"""Round 44 of issue 19: the length prior of a chat turn weighed apart from a note's (RecallConfig.w_length_thread),
and thin.py at three content words by default — both chosen by the pooled leave-one-set-out (bench/recall44_pool.py)."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

from memengine.recall.config import LENGTH_FULL_WORDS, W_LENGTH, W_LENGTH_THREAD
from memory_core import MemoryStore, NewMemory, RecallConfig


def _length(store: MemoryStore, query: str, cfg: RecallConfig) -> dict[str, float]:
    res = store.recall(query, k=10, touch=False, config=cfg, explain=True)  # (explain rounds to 4 places)
    return {m.content: (m.explain or {}).get("priors", {}).get("length", 0.0) for m in res.results}


def test_defaults() -> None:
    assert (W_LENGTH, W_LENGTH_THREAD) == (0.1, 0.15)
    cfg = RecallConfig()
    assert (cfg.w_length, cfg.w_length_thread, cfg.thin_words) == (0.1, 0.15, 3)


def test_a_chat_turn_takes_the_thread_weight_and_a_note_keeps_w_length(tmp_path: Path) -> None:
    store = MemoryStore(str(tmp_path / "m.db"))
    try:
        turn = "the ferry to orkney costs 190 return for the van"  # 10 words
        note = "the orkney ferry is too pricey for the van this year"  # 11 words
        store.store_many([NewMemory(content=f"Jess: {turn}", author="Jess", thread="trip"),
                          NewMemory(content=note)])
        got = _length(store, "orkney ferry van", RecallConfig())
        want_turn = 0.15 * min(1.0, math.log1p(10) / math.log1p(LENGTH_FULL_WORDS))
        want_note = 0.1 * min(1.0, math.log1p(11) / math.log1p(LENGTH_FULL_WORDS))
        assert round(got[f"Jess: {turn}"], 4) == round(want_turn, 4)
        assert round(got[note], 4) == round(want_note, 4)
        # None: the chat turn falls back to w_length (the rule before round 44)
        before = _length(store, "orkney ferry van", replace(RecallConfig(), w_length_thread=None))
        assert round(before[f"Jess: {turn}"], 4) == round(0.1 * math.log1p(10) / math.log1p(LENGTH_FULL_WORDS), 4)
    finally:
        store.close()
