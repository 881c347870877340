"""users32 finding 5: a store moved by `export --include-deleted` and `import jsonl` (README: "round-trips") brought
back a wrong value the user had forgotten as what replaced the right one: the value that forget had made current
again (users31's `current_again`) became history on the new machine, and a default recall found nothing about the
fact. Real subprocesses of ``mem.py`` (JSON through a pipe), two fresh stores, the hash embedder."""

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


def _found(db: Path, query: str) -> list[str]:
    return [str(r["content"]) for r in _ok(db, "recall", query)["results"]]


def test_a_forgotten_update_moved_with_the_store_replaces_nothing(tmp_path: Path) -> None:
    laptop, desktop = tmp_path / "laptop.db", tmp_path / "desktop.db"
    right = "The office wifi password is tiger-43"
    wrong = "The office wifi password is lion-77"
    _ok(laptop, "store", right)
    wrong_id = _ok(laptop, "store", wrong)["id"]
    assert _ok(laptop, "forget", str(wrong_id))["current_again"] == [1]
    _ok(laptop, "store", "Oscar prefers morning meetings")
    export = tmp_path / "all.jsonl"
    proc = run_cli_subprocess("--db", str(laptop), "export", "--include-deleted", env=HASH)
    assert proc.returncode == 0, proc.stderr
    export.write_text(proc.stdout, encoding="utf-8")
    _ok(desktop, "import", "jsonl", str(export))
    assert _found(desktop, "office wifi password")[:1] == [right]  # was: nothing about the wifi at all
    got = {str(m["content"]): m for m in _ok(desktop, "list", "--forgotten")["memories"]}
    assert set(got) == {wrong}  # still forgotten, as on the laptop
    here = {m["content"]: m["id"] for m in _ok(desktop, "list")["memories"]}
    one = _ok(desktop, "get", str(here[right]))
    assert one["valid_to"] is None and one["superseded_by"] == []
    assert [v.get("status") for v in one["versions"]] == ["deleted", None]  # the chain kept, the wrong one marked
    # restoring the wrong one on the new machine does what it does on the old: it replaces the right one again
    _ok(desktop, "restore", str(got[wrong]["id"]))
    assert _found(desktop, "office wifi password")[:1] == [wrong]
    # and importing the file again changes nothing
    _ok(desktop, "import", "jsonl", str(export))
    assert _found(desktop, "office wifi password")[:1] == [wrong]
