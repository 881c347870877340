"""users32 finding 4: after a wrong new value of a fact was forgotten (SKILL.md: "wrong: `mem.py forget ID`"), the
value it had replaced is current again, yet `recall --history` still said it was ``superseded_by`` the forgotten id
(and, after a later update, ``[forgotten, newer]``). Real subprocesses of ``mem.py``, a fresh store, the hash embedder."""

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


def _marks(db: Path, query: str) -> list[tuple[int, list[int], list[int]]]:
    """(id, superseded_by, supersedes) of each result of ``recall QUERY --history``, in order."""
    return [(int(r["id"]), r["superseded_by"], r["supersedes"])
            for r in _ok(db, "recall", query, "--history")["results"]]


def test_a_forgotten_version_is_not_what_replaced_the_current_one(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    right = _ok(db, "store", "The office wifi password is tiger-43")["id"]
    wrong = _ok(db, "store", "The office wifi password is lion-77")["id"]
    assert _ok(db, "forget", str(wrong))["current_again"] == [right]
    assert _marks(db, "office wifi password") == [(right, [], [])]  # was superseded_by [wrong]
    newer = _ok(db, "update", str(right), "The office wifi password is bear-12")["id"]
    # the newer version first, then the one it replaced, which names only it (was [wrong, newer])
    assert _marks(db, "office wifi password") == [(newer, [], [right]), (right, [newer], [])]
    # restoring the wrong one brings its link back: it replaced #right again (as users31's restore says)
    assert _ok(db, "restore", str(wrong))["status"] == "active"
    marks = {i: by for i, by, _ in _marks(db, "office wifi password")}
    assert marks[right] == [wrong, newer]
