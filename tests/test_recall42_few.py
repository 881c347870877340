"""Round 42: a side with only a few keyword hits keeps their ratio to the best (few_scores.py), and a recall that
found by keywords only says so in the strategy it reports (the CLI's JSON, real subprocesses)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import run_cli_subprocess

from memengine.recall.config import RecallConfig
from memengine.recall.few_scores import all_notes, few_scale, parse_few
from memengine.recall.fusion import normalise_scores
from memengine.recall.pipeline import ran_strategy


def _minmax(d: dict[int, float]) -> dict[int, float]:
    return normalise_scores(d, "minmax")


def test_parse_few_reads_each_mode_and_refuses_the_rest() -> None:
    assert parse_few("") == ("", 0.0, 0)
    assert parse_few("ratio:5") == ("ratio", 0.0, 5)
    assert parse_few("floor:0.25:10") == ("floor", 0.25, 10)
    for bad in ("ratio", "ratio:x", "floor:1.0:5", "floor:0.2", "zscore:5"):
        with pytest.raises(ValueError, match="few-scores mode"):
            parse_few(bad)


def test_two_hits_keep_their_ratio_where_min_max_gave_the_lower_zero() -> None:
    two = {7: 4.0, 9: 3.84}
    assert _minmax(two) == {7: 1.0, 9: 0.0}
    assert few_scale(two, "ratio:5", _minmax) == {7: 1.0, 9: pytest.approx(0.96)}
    # floor: the lowest found keeps the floor, the order and spread of min-max above it
    assert few_scale({1: 4.0, 2: 2.0, 3: 3.0}, "floor:0.25:10", _minmax) == {1: 1.0, 2: 0.25, 3: 0.625}


def test_enough_scores_are_min_max_as_before_and_edge_cases() -> None:
    five = {1: 5.0, 2: 4.0, 3: 3.0, 4: 2.0, 5: 1.0}
    assert few_scale(five, "ratio:5", _minmax) == _minmax(five)  # 5 scores: not "fewer than 5"
    assert few_scale({1: 2.0, 2: 2.0}, "ratio:5", _minmax) == {1: 1.0, 2: 1.0}
    assert few_scale({1: 0.5, 2: -0.1}, "ratio:5", _minmax) == {1: 1.0, 2: 0.0}  # a negative cosine: nothing shared
    assert few_scale({1: -0.2, 2: -0.4}, "ratio:5", _minmax) == _minmax({1: -0.2, 2: -0.4})  # no positive top
    assert few_scale({}, "ratio:5", _minmax) == {}
    assert few_scale({1: 4.0, 2: 1.0}, "", _minmax) == {1: 1.0, 2: 0.0}


NOTES = ["Warehouse: Unit 4, Leith Walk.",
         "The warehouse moved in March to a bigger unit on Gorgie Road; the keys are with Sam at the office.",
         "Van insurance renews on 1 June with Admiral.",
         "Payroll runs on the 25th through Xero.",
         "Sam's mobile is 07700 900123."]


def test_a_store_gives_the_lower_of_two_hits_its_share_of_the_top(store) -> None:  # type: ignore[no-untyped-def]
    ids = [store.store(t).id for t in NOTES]
    shipped = store.recall("where is the warehouse?", k=5, touch=False, explain=True)
    kw = {m.id: m.explain for m in shipped.results if m.explain and m.explain["keyword_bm25"] is not None}
    assert set(kw) == {ids[0], ids[1]}
    top, low = sorted(kw.values(), key=lambda e: -e["keyword_bm25"])
    assert top["keyword_norm"] == 1.0
    assert low["keyword_norm"] == pytest.approx(low["keyword_bm25"] / top["keyword_bm25"], abs=1e-3)
    assert 0.0 < low["keyword_norm"] < 1.0
    before = store.recall("where is the warehouse?", k=5, touch=False, explain=True,
                          config=replace(RecallConfig(), kw_few=""))  # round 41's min-max: the lower hit at 0
    norms = sorted(m.explain["keyword_norm"] for m in before.results if m.id in kw and m.explain)
    assert norms == [0.0, 1.0]


def test_bm25_at_the_idf_floor_and_chat_turns_stay_min_max(store) -> None:  # type: ignore[no-untyped-def]
    # two floor-level bm25 (a word held by half of the rows or more): their ratio says nothing
    floor = {1: 2.1e-6, 2: 1.7e-6}
    assert few_scale(floor, "ratio:20", _minmax, 1e-3) == {1: 1.0, 2: 0.0}
    assert few_scale({1: 0.8, 2: 2.1e-6}, "ratio:20", _minmax, 1e-3) == {1: 1.0, 2: pytest.approx(2.6e-6, rel=0.01)}
    from memengine.records import NewMemory

    note = store.store("The warehouse moved to Gorgie Road").id
    turn = store.store_many([NewMemory(content="Ana: the warehouse is in Leith", memory_type="episodic",
                                       source="chat", ref="t/0", author="Ana", thread="t", position=0)]).ids[0]
    rows = store._candidates([note, turn])
    assert all_notes({note: 1.0}, rows) and not all_notes({note: 1.0, turn: 0.5}, rows)
    assert not all_notes({99: 1.0}, rows)  # not among the candidates: nothing known, min-max


def test_ran_strategy_names_what_ran() -> None:
    assert ran_strategy("hybrid", True) == "hybrid"
    assert ran_strategy("hybrid", False) == "keyword"
    assert ran_strategy("vector", False) == "keyword"
    assert ran_strategy("keyword", False) == "keyword"
    assert ran_strategy("vector", True) == "vector"


def _recall(db: str, *extra: str, env: dict[str, str]) -> dict:
    proc = run_cli_subprocess("--db", db, "recall", "warehouse Gorgie", *extra, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout)


def test_degraded_recall_reports_keyword_in_the_cli_json(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    none, hashed = {"MEM_EMBEDDER": "none"}, {"MEM_EMBEDDER": "hash"}
    for text in NOTES[:2]:
        assert run_cli_subprocess("--db", db, "store", text, env=hashed).returncode == 0
    out = _recall(db, env=none)
    assert out["data"]["strategy"] == "keyword" and out["data"]["degraded"] == "no-vectors"
    assert any("keyword search only" in w for w in out["warnings"])
    assert out["data"]["results"][0]["content"] == NOTES[1]
    assert _recall(db, "--strategy", "vector", env=none)["data"]["strategy"] == "keyword"
    assert _recall(db, "--strategy", "keyword", env=none)["data"]["strategy"] == "keyword"
    ok = _recall(db, env=hashed)  # the model back: hybrid, nothing degraded
    assert ok["data"]["strategy"] == "hybrid" and "degraded" not in ok["data"]
    assert _recall(db, "--strategy", "vector", env=hashed)["data"]["strategy"] == "vector"
