"""users25 finding 1 (high) and 9: a store moved by ``mem.py export`` and ``mem.py import jsonl`` kept every
memory but lost what they say of each other. A replaced fact came back current ("The wifi password is lion-12"
answered beside "... tiger-43") and hand-made links were gone. The export now names, by origin, the memories each
one supersedes and the links it was given, and when it was itself replaced; the import restores them once every
line is in. Real subprocesses, real files (bench/data/users25_findings.md)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli_subprocess


def _ok(*args: str) -> dict:
    proc = run_cli_subprocess(*args)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout)["data"]


def _moved_store(tmp_path: Path) -> tuple[Path, Path, dict[str, int]]:
    """A store with a replaced fact and a causal link, exported and imported into a new file."""
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    ids = {
        "oscar": _ok("--db", str(a), "store", "Oscar prefers morning meetings")["id"],
        "lion": _ok("--db", str(a), "store", "The office wifi password is lion-12")["id"],
    }
    ids["tiger"] = _ok("--db", str(a), "store", "The office wifi password is tiger-43",
                       "--supersede", str(ids["lion"]))["id"]
    ids["rome"] = _ok("--db", str(a), "store", "Flew to Rome for the Oscar offsite", "--type", "episodic",
                      "--at", "2025-03-01")["id"]
    _ok("--db", str(a), "link", str(ids["oscar"]), str(ids["rome"]), "--type", "causal")
    dump = tmp_path / "all.jsonl"
    proc = run_cli_subprocess("--db", str(a), "export")
    assert proc.returncode == 0, proc.stderr
    dump.write_text(proc.stdout, encoding="utf-8")
    assert _ok("--db", str(b), "import", "jsonl", str(dump))["memories_added"] == 4
    return a, b, ids


def _ids_by_text(db: Path) -> dict[str, int]:
    proc = run_cli_subprocess("--db", str(db), "export")
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    return {r["content"]: int(r["origin"].split(":")[1]) for r in rows}


def test_a_replaced_fact_stays_history_in_the_copy(tmp_path: Path) -> None:
    a, b, ids = _moved_store(tmp_path)
    here = _ids_by_text(b)
    lion, tiger = here["The office wifi password is lion-12"], here["The office wifi password is tiger-43"]
    found = _ok("--db", str(b), "recall", "office wifi password", "--no-touch")["results"]
    assert [r["content"] for r in found if "wifi" in r["content"]] == ["The office wifi password is tiger-43"]
    old_here, old_there = _ok("--db", str(b), "get", str(lion)), _ok("--db", str(a), "get", str(ids["lion"]))
    assert old_here["superseded_by"] == [tiger]
    assert old_here["valid_to"] == old_there["valid_to"] is not None
    assert _ok("--db", str(b), "get", str(tiger))["supersedes"] == [lion]


def test_a_hand_made_link_travels_with_the_memories(tmp_path: Path) -> None:
    _a, b, _ids = _moved_store(tmp_path)
    here = _ids_by_text(b)
    oscar, rome = here["Oscar prefers morning meetings"], here["Flew to Rome for the Oscar offsite"]
    edges = _ok("--db", str(b), "graph", str(oscar))["edges"]
    assert [(e["source"], e["target"], e["type"], e["weight"]) for e in edges] == [(oscar, rome, "causal", 0.8)]


def test_reimport_and_a_second_move_keep_the_history(tmp_path: Path) -> None:
    _a, b, _ids = _moved_store(tmp_path)
    again = _ok("--db", str(b), "import", "jsonl", str(tmp_path / "all.jsonl"))
    assert (again["memories_added"], again["skipped_duplicates"]) == (0, 4)
    # the copy's own export, moved once more: the chain holds through a store that imported it
    proc = run_cli_subprocess("--db", str(b), "export")
    (tmp_path / "b.jsonl").write_text(proc.stdout, encoding="utf-8")
    c = tmp_path / "c.db"
    assert _ok("--db", str(c), "import", "jsonl", str(tmp_path / "b.jsonl"))["memories_added"] == 4
    here = _ids_by_text(c)
    lion, tiger = here["The office wifi password is lion-12"], here["The office wifi password is tiger-43"]
    assert _ok("--db", str(c), "get", str(lion))["superseded_by"] == [tiger]


def test_a_bad_relation_field_is_one_line_naming_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"content": "fine"}\n{"content": "x", "supersedes": "3"}\n', encoding="utf-8")
    proc = run_cli_subprocess("--db", str(tmp_path / "m.db"), "import", "jsonl", str(bad))
    assert proc.returncode == 1
    err = json.loads(proc.stdout)["error"]
    assert err["message"] == (f"{bad}:2: field 'supersedes' must be a list of origins "
                              "('<16 hex digits>:<memory id>')")
    assert _ok("--db", str(tmp_path / "m.db"), "stats")["memories"] == 0  # nothing half-written
