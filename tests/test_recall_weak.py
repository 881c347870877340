"""recall's `weak` flag: an agent can tell "nothing relevant" from a hit (memengine/recall/confidence.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli

from memengine.recall import confidence


def test_coverage_counts_query_words_found_by_prefix() -> None:
    assert confidence.coverage(["oscar", "meetings"], "Oscar prefers morning meetings") == 1.0
    assert confidence.coverage(["oscar", "meetings"], "[8 May] Ana: a meeting, Oscar said") == 1.0  # meeting(s)
    assert confidence.coverage(["oscar", "meetings"], "Flew to Rome") == 0.0
    assert confidence.coverage(["deploy", "rules"], "The deployment rules changed") == 1.0
    assert confidence.coverage(["gpu", "driver"], "The GPU crashed") == 0.5
    assert confidence.coverage([], "anything") == 0.0


@pytest.mark.parametrize(("cosine", "cover", "weak"), [
    (0.05, 0.0, True), (0.39, 0.34, True), (0.40, 0.0, False), (0.1, 0.5, False), (None, 0.0, True),
    (None, 0.5, False), (0.9, 1.0, False),
])
def test_weak_needs_both_signals_low(cosine: float | None, cover: float, weak: bool) -> None:
    assert confidence.is_weak(cosine, cover) is weak


def _recall(*args: str) -> list[dict]:
    res = run_cli("recall", *args, "--no-touch", "--json")
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)["data"]["results"]


def test_after_forgetting_the_only_oscar_memory_the_remaining_result_is_weak(db_path: Path) -> None:
    oscar = json.loads(run_cli("store", "Oscar prefers morning meetings").stdout)["data"]["id"]
    run_cli("store", "Flew to Rome", "--type", "episodic")
    before = _recall("Oscar meetings")
    assert [(r["id"], r["weak"]) for r in before][0] == (oscar, False)
    assert run_cli("forget", str(oscar)).returncode == 0
    after = _recall("Oscar meetings")
    assert [(r["content"], r["weak"]) for r in after] == [("Flew to Rome", True)]
    keyword = _recall("Rome", "--strategy", "keyword")  # keyword-only: the words decide
    assert [(r["content"], r["weak"]) for r in keyword] == [("Flew to Rome", False)]
    got = json.loads(run_cli("get", str(oscar)).stdout)["data"]
    assert "weak" not in got  # only recall results carry it


def test_with_the_real_model_an_unrelated_store_gives_weak_results_and_a_paraphrase_does_not(tmp_path: Path) -> None:
    from embedder import OnnxEmbedder
    from memory_core import MemoryStore

    s = MemoryStore(tmp_path / "real.db", embedder=OnnxEmbedder(cache_dir=tmp_path / "cache"))
    s.store("Oscar prefers morning meetings", "semantic")
    s.store("The deploy pipeline runs on GitHub Actions", "semantic")
    s.store("Flew to Rome", "episodic")
    hit = s.recall("what time of day does Oscar like to meet?", k=1, touch=False).results[0]
    assert hit.content == "Oscar prefers morning meetings" and hit.weak is False
    nothing = s.recall("What is the recommended dose of ibuprofen for a child?", k=3, touch=False).results
    assert nothing and all(m.weak for m in nothing)
    s.close()


@pytest.mark.parametrize("strategy", ["hybrid", "graph", "activation"])
def test_every_strategy_marks_a_result_that_does_not_speak_of_the_query_weak(db_path: Path, strategy: str) -> None:
    oscar = json.loads(run_cli("store", "Oscar prefers morning meetings").stdout)["data"]["id"]
    rome = json.loads(run_cli("store", "Flew to Rome", "--type", "episodic").stdout)["data"]["id"]
    assert run_cli("link", str(oscar), str(rome), "--type", "explicit").returncode == 0  # the walk reaches Rome
    got = {r["id"]: r["weak"] for r in _recall("Oscar meetings", "--strategy", strategy)}
    assert got[oscar] is False
    assert got[rome] is (strategy == "hybrid")  # the walk reached Rome from a real match: not noise
    assert run_cli("forget", str(oscar)).returncode == 0
    after = _recall("Oscar meetings", "--strategy", strategy)
    assert all(r["weak"] is True for r in after)
