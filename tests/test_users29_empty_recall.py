"""users29 (users27 #9): the first ``recall`` after install, on an empty store, prepared the int8 model (~3.8–5 CPU-s,
"mem: preparing the int8 model for this machine") to answer ``count: 0``. Now an empty store answers at once without
loading the model: here the model path points nowhere, and no model load is even tried (no degraded warning).
Real subprocesses, a real file; the CPU figures are in bench/users29_first_recall.py."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli_subprocess

MISSING = {"MEM_MODEL_PATH": "/nonexistent/users29/model.onnx", "MEM_EMBEDDER": "onnx"}


def test_an_empty_store_answers_recall_without_the_model(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    proc = run_cli_subprocess("--db", db, "recall", "what did Ana say about the trip?", env=MISSING)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = json.loads(proc.stdout)
    assert out["data"] == {"query": "what did Ana say about the trip?", "strategy": "hybrid", "count": 0,
                           "results": []}
    # no degraded warning (no model load was tried); only users36's line saying the store is empty and which it is
    assert out["warnings"] == [f"{db}: no memories in this store yet (another store? --db or MEM_DB names the file; "
                               "mem.py store or mem.py import fills it)"]
    assert "preparing" not in proc.stderr
    bad = run_cli_subprocess("--db", db, "recall", "x", "--strategy", "nope", env=MISSING)  # input still checked
    assert bad.returncode in (1, 2) and json.loads(bad.stdout)["error"]["code"] in ("usage", "invalid_input")


def test_once_something_is_stored_recall_uses_the_model_again(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    assert run_cli_subprocess("--db", db, "store", "Ana booked the train to Leeds", env=MISSING).returncode == 0
    proc = run_cli_subprocess("--db", db, "recall", "train to Leeds", env=MISSING)
    out = json.loads(proc.stdout)
    assert proc.returncode == 0 and out["data"]["degraded"] == "no-vectors"
    assert [r["content"] for r in out["data"]["results"]] == ["Ana booked the train to Leeds"]


def test_an_empty_store_still_checks_filters_and_raw_syntax(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    for args in (["recall", "NEAR(", "--raw"], ["recall", "trip", "--type", "nonsense"]):
        proc = run_cli_subprocess("--db", db, *args, env=MISSING)
        assert proc.returncode in (1, 2), proc.stdout + proc.stderr
        assert json.loads(proc.stdout)["error"]["code"] in ("invalid_input", "usage")
