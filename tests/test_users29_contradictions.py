"""users29 finding 4: a contradiction stayed open after one of its two memories became history — replaced by a
third (``update``) or the loser of another contradiction resolved — so ``contradictions`` and ``stats`` asked the
user about a value nothing current says any more. Now it is settled (``superseded``) when its side is replaced.
Real subprocesses on a real file."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli_subprocess

HASH = {"MEM_EMBEDDER": "hash"}


def _ok(db: str, *args: str) -> dict:
    proc = run_cli_subprocess("--db", db, *args, env=HASH)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout)["data"]


def _open(db: str) -> list[tuple[int, int]]:
    return [(c["memory_a"], c["memory_b"]) for c in _ok(db, "contradictions")["contradictions"]]


def test_a_side_replaced_by_an_update_settles_its_open_contradiction(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    _ok(db, "store", "Dana's flight lands at 4pm on Friday", "--source", "email")
    assert _ok(db, "store", "Dana's flight lands at 6pm on Friday", "--source", "calendar")["contradicts"] == [1]
    assert _open(db) == [(1, 2)]
    got = _ok(db, "update", "1", "Dana's flight lands at 5pm on Friday")
    assert got["supersedes"] == [1]
    assert (1, 2) not in _open(db)
    assert all(1 not in pair for pair in _open(db))
    assert _ok(db, "stats")["open_contradictions"] == len(_open(db))
    everything = {(c["memory_a"], c["memory_b"]): c["status"]
                  for c in _ok(db, "contradictions", "--status", "all")["contradictions"]}
    assert everything[(1, 2)] == "superseded"


def test_resolving_one_contradiction_settles_the_losers_others(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    _ok(db, "store", "Dana's flight lands at 4pm on Friday", "--source", "email")
    _ok(db, "store", "Dana's flight lands at 6pm on Friday", "--source", "calendar")
    assert _ok(db, "store", "Dana's flight lands at 7pm on Friday", "--source", "sms")["contradicts"] == [1, 2]
    pairs = {(c["memory_a"], c["memory_b"]): c["id"] for c in _ok(db, "contradictions")["contradictions"]}
    assert sorted(pairs) == [(1, 2), (1, 3), (2, 3)]
    assert _ok(db, "contradictions", "--resolve", str(pairs[(1, 2)]), "--keep", "2")["superseded"] == 1
    assert _open(db) == [(2, 3)]
    assert _ok(db, "stats")["open_contradictions"] == 1
