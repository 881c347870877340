"""users25 finding 17: ``mem.py unlink A B`` without ``--type`` removed every edge between two memories, the
``supersedes`` edge of a fact's versions too: the older version stayed history (``valid_to``) but lost its
successor (``get``: no ``superseded_by``, no ``versions``). History edges now stay unless named with ``--type``
(memengine/graph_nav.py). Real subprocesses on a real file."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli_subprocess


def _run(db: Path, *args: str) -> tuple[int, dict]:
    proc = run_cli_subprocess("--db", str(db), *args)
    return proc.returncode, json.loads(proc.stdout)


def test_unlink_without_a_type_keeps_a_facts_versions(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    assert _run(db, "store", "The gate code is 1234")[1]["data"]["id"] == 1
    assert _run(db, "update", "1", "The gate code is 5678")[1]["data"]["supersedes"] == [1]
    assert _run(db, "link", "2", "1", "--type", "causal")[0] == 0
    code, out = _run(db, "unlink", "2", "1")
    assert (code, out["data"]) == (0, {"source_id": 2, "target_id": 1, "removed": 1, "kept_history": 1})
    old = _run(db, "get", "1")[1]["data"]
    assert old["superseded_by"] == [2]
    assert [v["id"] for v in old["versions"]] == [2, 1]
    code, out = _run(db, "unlink", "2", "1")
    assert code == 3
    assert out["error"]["message"] == ("only history edges between #2 and #1 (supersedes or contradicts): they "
                                       "stay; name one with --type to remove it")
    code, out = _run(db, "unlink", "2", "1", "--type", "supersedes")  # named: removed, as before
    assert (code, out["data"]["removed"]) == (0, 1)
    assert _run(db, "get", "1")[1]["data"]["superseded_by"] == []
