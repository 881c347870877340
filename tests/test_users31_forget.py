"""users31 finding 7: forgetting a wrong new value of a fact (SKILL.md: "wrong: `mem.py forget ID`") left the
value it had replaced as history, replaced by a memory nobody sees: recall answered nothing about the fact.
Real subprocesses of ``mem.py`` (JSON through a pipe), a fresh store, the hash embedder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import run_cli_subprocess

HASH = {"MEM_EMBEDDER": "hash"}


def _ok(db: Path, *args: str) -> dict[str, Any]:
    proc = run_cli_subprocess("--db", str(db), *args, env=HASH)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return dict(json.loads(proc.stdout)["data"])


def _found(db: Path, query: str, *extra: str) -> list[int]:
    return [int(r["id"]) for r in _ok(db, "recall", query, *extra)["results"]]


def test_forgetting_a_wrong_update_makes_the_old_value_the_answer_again(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    right = _ok(db, "store", "The office wifi password is tiger-43")["id"]
    wrong = _ok(db, "store", "The office wifi password is lion-77")  # misheard
    assert wrong["supersedes"] == [right]
    gone = _ok(db, "forget", str(wrong["id"]))
    assert gone == {"id": wrong["id"], "status": "deleted", "current_again": [right]}
    assert _found(db, "office wifi password") == [right]  # was []: nothing at all about the wifi
    got = _ok(db, "get", str(right))
    assert got["valid_to"] is None and got["superseded_by"] == []
    assert [(v["id"], v.get("status")) for v in got["versions"]] == [(wrong["id"], "deleted"), (right, None)]
    # restore undoes the forget: the wrong value replaces the old one again, as before
    assert _ok(db, "restore", str(wrong["id"]))["status"] == "active"
    assert _found(db, "office wifi password") == [wrong["id"]]
    again = _ok(db, "get", str(right))
    assert again["valid_to"] is not None and again["superseded_by"] == [wrong["id"]]


def test_only_the_version_it_replaced_comes_back_not_the_older_ones(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    first = _ok(db, "store", "The staging database is db-stage-3")["id"]
    second = _ok(db, "store", "The staging database is db-stage-4")
    third = _ok(db, "store", "The staging database is db-stage-5")
    assert second["supersedes"] == [first] and third["supersedes"] == [second["id"]]
    assert _ok(db, "forget", str(third["id"]))["current_again"] == [second["id"]]
    assert _found(db, "staging database") == [second["id"]]  # db-stage-3 stays history: db-stage-4 replaced it
    assert _ok(db, "get", str(first))["valid_to"] is not None


def test_a_version_something_else_still_replaces_stays_history(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    old = _ok(db, "store", "Lea owns the billing migration")["id"]
    new = _ok(db, "store", "Kim owns the billing migration now", "--supersede", str(old))["id"]
    newer = _ok(db, "store", "Bo owns the billing migration now", "--supersede", str(old))
    assert newer["supersedes"] == [old, new]  # (users29: an id already replaced: its current version too)
    assert _ok(db, "forget", str(new)) == {"id": new, "status": "deleted"}  # Bo's still replaces Lea's
    assert _found(db, "billing migration owner") == [newer["id"]]


def test_forgetting_a_plain_memory_says_nothing_more(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    mid = _ok(db, "store", "We had pizza at the offsite")["id"]
    assert _ok(db, "forget", str(mid)) == {"id": mid, "status": "deleted"}
    assert _ok(db, "forget", str(mid)) == {"id": mid, "status": "deleted"}  # twice: nothing changes


def test_forgetting_a_middle_version_brings_nothing_back(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    first = _ok(db, "store", "The staging database is db-stage-3")["id"]
    second = _ok(db, "store", "The staging database is db-stage-4")["id"]
    third = _ok(db, "store", "The staging database is db-stage-5")["id"]
    assert _ok(db, "forget", str(second)) == {"id": second, "status": "deleted"}  # history already: db-stage-5 stands
    assert _found(db, "staging database") == [third]
    assert _ok(db, "get", str(first))["valid_to"] is not None
    assert _ok(db, "restore", str(second))["status"] == "active"
    assert _found(db, "staging database") == [third]  # restoring history changes nothing current
