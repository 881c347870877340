"""facts40: one write, one slot (memengine/fact_one_slot.py and supersession._one_slot)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import memory_core as core
from memengine import fact_one_slot, facts, supersession

# three olders: two say one slot (their vectors near), one another thing (orthogonal)
VECS = {"a": np.array([1.0, 0.0, 0.0]), "a2": np.array([0.9, 0.436, 0.0]), "b": np.array([0.0, 0.0, 1.0])}


def fake_embed(texts: list[str]) -> np.ndarray:
    return np.stack([VECS[t] for t in texts])


def test_apart_keeps_the_nearest_and_what_says_its_slot() -> None:
    texts = {1: "a", 2: "a2", 3: "b"}
    # the nearest to the write is 1: 2 says its slot (cosine 0.9), 3 another thing (0.0)
    assert fact_one_slot.apart([1, 2, 3], {1: 0.8, 2: 0.6, 3: 0.7}, texts, fake_embed) == {3}
    # the nearest is 3: both others are apart from it
    assert fact_one_slot.apart([1, 2, 3], {1: 0.5, 2: 0.6, 3: 0.9}, texts, fake_embed) == {1, 2}
    # a word-found candidate (no cosine) is never the nearest over one with a cosine
    assert fact_one_slot.apart([1, 3], {1: None, 3: 0.4}, texts, fake_embed) == {1}
    # one older, or no embedder: nothing to choose
    assert fact_one_slot.apart([1], {1: 0.8}, texts, fake_embed) == set()
    assert fact_one_slot.apart([1, 3], {1: 0.8, 3: 0.7}, texts, None) == set()


def test_apart_off_by_the_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEM_ONE_SLOT", "0")
    assert fact_one_slot.apart([1, 3], {1: 0.8, 3: 0.7}, {1: "a", 3: "b"}, fake_embed) == set()


def _d(new: int, old: int, maybe: bool = False, open_: bool = False) -> supersession.Decision:
    return supersession.Decision(new, old, "2026-01-01", facts.Verdict("slot", f"r{old}", 0.8), open=open_, maybe=maybe)


def test_one_slot_keeps_the_other_thing_as_it_was() -> None:
    cands = [((1, "a", "2025", "agent"), 0.8), ((2, "a2", "2025", "agent"), 0.6), ((3, "b", "2025", "agent"), None)]
    sure = [_d(9, 1), _d(9, 2), _d(9, 3), _d(9, 4, maybe=True)]
    got = supersession._one_slot(9, sure, cands + [((4, "b", "2025", "agent"), 0.9)], {3: 0.7}, fake_embed)
    assert got == [sure[0], sure[1], sure[3]]  # (a may_update link is no retirement: neither chosen nor dropped)
    # one retirement, an open contradiction or a decision where an older wins: untouched
    one = [_d(9, 1), _d(9, 3, open_=True), _d(3, 9)]
    assert supersession._one_slot(9, one, cands, {3: 0.7}, fake_embed) == one


@pytest.fixture(scope="module")
def emb(tmp_path_factory: pytest.TempPathFactory) -> object:
    from embedder import OnnxEmbedder

    return OnnxEmbedder(cache_dir=tmp_path_factory.mktemp("model-cache"))


def test_a_move_retires_where_the_server_is_not_what_it_runs(tmp_path: Path, emb: object) -> None:
    # (tests/data/fact_crowded_heldout3.jsonl: the move retired the OS and the Java version with the place)
    s = core.MemoryStore(tmp_path / "m.db", embedder=emb)  # type: ignore[arg-type]
    ids = {t: s.store(t, "semantic").id for t in ("The build server runs Debian 12", "The build server is hosted in Frankfurt",
                                                   "The build server uses Java 17 for the pipelines",
                                                   "The build server has 8 CPU cores")}
    res = s.store("The build server moved to Amsterdam", "semantic")
    assert res.supersedes == [ids["The build server is hosted in Frankfurt"]]
    live = {r[0] for r in s.conn.execute("SELECT content FROM memories WHERE valid_to IS NULL")}
    assert {"The build server runs Debian 12", "The build server uses Java 17 for the pipelines"} <= live
    s.close()
