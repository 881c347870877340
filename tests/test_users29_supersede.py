"""users29 finding 1: an agent corrects a fact by the id it saw days ago (SKILL: ``store "new text" --supersede 3``),
but #3 was already replaced (#8 by ``update 3``). ``--supersede 3`` superseded #3 only: #8 and the correction both
stayed current — a fork (an open contradiction, recall ranking the older first). Now the correction supersedes the
current versions of the fact too. Real subprocesses on a real file."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli_subprocess

HASH = {"MEM_EMBEDDER": "hash"}


def _ok(db: str, *args: str) -> dict:
    proc = run_cli_subprocess("--db", db, *args, env=HASH)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout)["data"]


def test_supersede_an_old_id_replaces_the_current_version_too(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    # texts the automatic detection does not pair: only the explicit corrections link them
    assert _ok(db, "store", "Deploys happen on Tuesdays")["id"] == 1
    assert _ok(db, "update", "1", "We ship after QA signs off on Thursday")["supersedes"] == [1]
    got = _ok(db, "store", "Release day moved to Friday mornings", "--supersede", "1")
    assert got["id"] == 3
    assert got["supersedes"] == [1, 2]
    assert "contradicts" not in got
    current = _ok(db, "list")
    assert [m["id"] for m in current["memories"]] == [3]
    assert _ok(db, "contradictions")["count"] == 0
    assert [v["id"] for v in _ok(db, "get", "1")["versions"]] == [3, 2, 1]


def test_update_of_an_old_id_after_a_supersede_leaves_one_current_version(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    _ok(db, "store", "Guest network: lemon-12")
    _ok(db, "store", "Visitors now get the code printed at reception", "--supersede", "1")
    got = _ok(db, "update", "1", "Ask Maria for the visitor login")
    assert got["supersedes"] == [1, 2]
    assert "contradicts" not in got
    assert [m["content"] for m in _ok(db, "list")["memories"]] == ["Ask Maria for the visitor login"]


def test_supersede_a_current_id_is_unchanged_and_a_forgotten_version_is_not_revived(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    _ok(db, "store", "Standup is at 9:30 in room B")
    _ok(db, "store", "The daily sync happens over video now", "--supersede", "1")
    _ok(db, "forget", "2")
    got = _ok(db, "store", "Morning meeting cancelled for December", "--supersede", "1")
    assert got["supersedes"] == [1]  # #2 is forgotten: not a current version to replace
    assert _ok(db, "get", "2")["status"] == "deleted"
