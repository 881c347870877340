"""users29 finding 3: two sources disagreeing stay both current (an open contradiction) and ``store`` says
``contradicts`` — but recall, all a later session reads, said nothing: 4pm (email), 6pm (calendar) and the user's
"now lands at 7pm" came back in that order, unmarked. Now each result an open contradiction pairs with a current
memory carries ``contradicts: [ids]`` (SKILL.md: ask the user); once resolved, none. Real subprocesses, a real file."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli_subprocess

HASH = {"MEM_EMBEDDER": "hash"}


def _ok(db: str, *args: str) -> dict:
    proc = run_cli_subprocess("--db", db, *args, env=HASH)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout)["data"]


def _marks(db: str, query: str) -> dict[int, list[int] | None]:
    return {r["id"]: r.get("contradicts") for r in _ok(db, "recall", query, "-k", "5")["results"]}


def test_recall_marks_what_an_open_contradiction_pairs_until_it_is_resolved(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    _ok(db, "store", "Dana's flight lands at 4pm on Friday", "--source", "email")
    _ok(db, "store", "Dana's flight lands at 6pm on Friday", "--source", "calendar")
    assert _ok(db, "store", "Dana's flight lands at 7pm on Friday", "--source", "sms")["contradicts"] == [1, 2]
    _ok(db, "store", "The office plant is called Gerald")
    assert _marks(db, "when does Dana's flight land?") == {1: [2, 3], 2: [1, 3], 3: [1, 2], 4: None}
    pairs = {(c["memory_a"], c["memory_b"]): c["id"] for c in _ok(db, "contradictions")["contradictions"]}
    _ok(db, "contradictions", "--resolve", str(pairs[(1, 2)]), "--keep", "2")  # #1 is history now
    assert _marks(db, "when does Dana's flight land?") == {2: [3], 3: [2], 4: None}
    _ok(db, "contradictions", "--resolve", str(pairs[(2, 3)]), "--keep", "3")
    assert _marks(db, "when does Dana's flight land?") == {3: None, 4: None}
