"""users33 finding 1: the MIDDLE version of a fact forgotten (tiger-43 -> lion-77 -> bear-12, the user says lion-77
was never right: ``forget 2``). A recall about the past said tiger-43 was ``superseded_by`` the forgotten #2, and
``recall --history`` listed tiger-43 first, ``superseded_by: []``, above the current bear-12. The forgotten version
is now looked through: what replaced it replaced the one before. Real subprocesses of ``mem.py``, the hash embedder."""

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


def _chain(db: Path) -> tuple[int, int, int]:
    ids = [_ok(db, "store", f"The office wifi password is {v}")["id"] for v in ("tiger-43", "lion-77", "bear-12")]
    assert _ok(db, "get", str(ids[2]))["valid_to"] is None
    assert _ok(db, "forget", str(ids[1]))["status"] == "deleted"
    return ids[0], ids[1], ids[2]


def test_history_looks_through_a_forgotten_middle_version(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    old, wrong, now = _chain(db)
    got = [(r["id"], r["superseded_by"], r["supersedes"])
           for r in _ok(db, "recall", "office wifi password", "--history")["results"]]
    # the current value first, then the one it stands in for now (was: [(old, [], []), (now, [], [wrong])])
    assert got == [(now, [], [old]), (old, [now], [])]


def test_a_question_about_the_past_names_what_stands_now(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    old, wrong, now = _chain(db)
    for query in ("what was the office wifi password before?", "when did the office wifi password change?"):
        results = _ok(db, "recall", query)["results"]
        marks = {r["id"]: r.get("superseded_by") for r in results}
        assert set(marks) == {old, now}, query
        assert marks[old] == [now], query  # was [wrong]: a forgotten memory
        for r in results:  # no mark names the forgotten version
            for key in ("superseded_by", "supersedes", "possibly_outdated_by"):
                assert wrong not in (r.get(key) or []), (query, r["id"], key)


def test_restoring_the_middle_version_brings_the_chain_back(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    old, wrong, now = _chain(db)
    assert _ok(db, "restore", str(wrong))["status"] == "active"
    got = {r["id"]: (r["superseded_by"], r["supersedes"])
           for r in _ok(db, "recall", "office wifi password", "--history")["results"]}
    assert got == {now: ([], [wrong]), wrong: ([now], [old]), old: ([wrong], [])}
