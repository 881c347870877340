"""users26 finding 2: a store moved by ``mem.py export`` → ``mem.py import jsonl`` lost what two facts say of each
other: an open contradiction (two sources disagreeing) left the copy's ``contradictions`` and its brief until the
next consolidate re-detected it, and a probable update (``may_update``) came back as two unrelated current facts.
The export now names both in ``links`` (``"type": "contradicts"`` with its kind and reason, ``"type":
"may_update"`` with its score) and the import restores them. Real subprocesses, real files."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli_subprocess


def _ok(*args: str, env: dict[str, str] | None = None) -> dict:
    proc = run_cli_subprocess(*args, env=env, timeout=180)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout)["data"]


def _move(tmp_path: Path, a: Path, env: dict[str, str] | None = None) -> Path:
    proc = run_cli_subprocess("--db", str(a), "export", env=env)
    assert proc.returncode == 0, proc.stderr
    dump, b = tmp_path / "all.jsonl", tmp_path / "b.db"
    dump.write_text(proc.stdout, encoding="utf-8")
    _ok("--db", str(b), "import", "jsonl", str(dump), env=env)
    return b


def test_an_open_contradiction_travels_with_its_reason(tmp_path: Path) -> None:
    a = tmp_path / "a.db"
    old = _ok("--db", str(a), "store", "Server db-7 has 64 GB of RAM", "--source", "ops")["id"]
    new = _ok("--db", str(a), "store", "Server db-7 has 32 GB of RAM", "--source", "inventory")
    assert new["contradicts"] == [old]
    there = _ok("--db", str(a), "contradictions")["contradictions"]
    assert len(there) == 1
    b = _move(tmp_path, a)
    here = _ok("--db", str(b), "contradictions")["contradictions"]
    assert [(c["content_a"], c["content_b"], c["kind"], c["reason"], c["status"]) for c in here] == \
        [(there[0]["content_a"], there[0]["content_b"], there[0]["kind"], there[0]["reason"], "open")]
    assert "Open contradictions" in _ok("--db", str(b), "brief")["text"]
    again = _move(tmp_path, a)  # the same file imported again: nothing doubled
    assert len(_ok("--db", str(again), "contradictions")["contradictions"]) == 1


def test_a_probable_update_travels(tmp_path: Path) -> None:
    model = {"MEM_EMBEDDER": "onnx"}  # (the learned same-slot reading needs the real model)
    a = tmp_path / "a.db"
    old = _ok("--db", str(a), "store", "Priya is allergic to peanuts", env=model)["id"]
    assert _ok("--db", str(a), "store", "Priya started a new job at Figma", env=model)["may_update"] == [old]
    b = _move(tmp_path, a, env=model)
    found = _ok("--db", str(b), "recall", "Priya", "--no-touch", env=model)["results"]
    marks = {r["content"]: (r.get("possibly_outdated"), r.get("may_update")) for r in found}
    job = next(r["id"] for r in found if "Figma" in r["content"])
    allergy = next(r["id"] for r in found if "peanuts" in r["content"])
    assert marks["Priya is allergic to peanuts"][0] is True
    assert marks["Priya started a new job at Figma"][1] == [allergy] and job != allergy
