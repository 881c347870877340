"""Facts that change, with the real MiniLM model (the fake embedder cannot tell paraphrases)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import memory_core as core
from embedder import OnnxEmbedder

STREAM = [json.loads(line) for line in
          (Path(__file__).parent / "data" / "fact_updates.jsonl").read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One model cache for the module: the int8 form is derived once, not per test."""
    return tmp_path_factory.mktemp("model-cache")


def test_updates_are_kept_and_recalled_first_and_paraphrases_reinforce(tmp_path: Path, cache: Path) -> None:
    s = core.MemoryStore(tmp_path / "real.db", embedder=OnnxEmbedder(cache_dir=cache))
    updates = [r for r in STREAM if r["kind"] == "update"]
    olds = {r["old"]: s.store(r["old"]).id for r in updates}
    for r in updates:
        res = s.store(r["new"])
        assert not res.deduplicated and res.supersedes == [olds[r["old"]]], r
    for r in updates:
        top = s.recall(r["query"], k=3, touch=False).results
        assert top[0].content == r["new"], (r["query"], [m.content for m in top])
        hist = [m.content for m in s.recall(r["query"], k=5, touch=False, history=True).results]
        assert r["old"] in hist and hist.index(r["old"]) > hist.index(r["new"])
    # paraphrases past the cosine bar reinforce, whatever the old rule would have done
    emb = s.embedder
    assert emb is not None
    merged = 0
    for r in [x for x in STREAM if x["kind"] == "paraphrase"]:
        a, b = emb.embed([r["old"], r["new"]])
        if float(a @ b) < core.NEAR_DUP_COSINE:
            continue
        fresh = core.MemoryStore(tmp_path / f"p{merged}.db", embedder=emb)
        first = fresh.store(r["old"]).id
        again = fresh.store(r["new"])
        assert again.deduplicated and again.id == first, r
        fresh.close()
        merged += 1
    assert merged >= 10
    s.close()
