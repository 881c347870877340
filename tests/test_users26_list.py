"""users26 finding 9 (users25 #13): ``mem.py list``, what an agent new to mem types first, was "No such command".
It lists memories, most recently stored first, current ones by default, with recall's filters, a page at a time;
JSON ``data.memories`` / ``data.total`` for agents, a table for people. Real subprocesses on a real file."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli_subprocess


def _run(db: Path, *args: str) -> dict:
    proc = run_cli_subprocess("--db", str(db), *args)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout)["data"]


def _filled(tmp_path: Path) -> tuple[Path, dict[str, int]]:
    db = tmp_path / "m.db"
    ids = {
        "oscar": _run(db, "store", "Oscar prefers morning meetings")["id"],
        "gateway": _run(db, "store", "To restart the gateway: openclaw gateway restart", "--type", "procedural",
                        "--tag", "infra")["id"],
        "rome": _run(db, "store", "Flew to Rome for the offsite", "--type", "episodic", "--at", "2025-03-01")["id"],
        "lion": _run(db, "store", "The office wifi password is lion-12")["id"],
    }
    ids["tiger"] = _run(db, "store", "The office wifi password is tiger-43", "--supersede", str(ids["lion"]))["id"]
    ids["landlord"] = _run(db, "store", "Our landlord is Mr. Okafor")["id"]
    _run(db, "forget", str(ids["landlord"]))
    return db, ids


def test_list_shows_current_memories_newest_first_a_page_at_a_time(tmp_path: Path) -> None:
    db, ids = _filled(tmp_path)
    data = _run(db, "list")
    assert [m["id"] for m in data["memories"]] == [ids["tiger"], ids["rome"], ids["gateway"], ids["oscar"]]
    assert data["total"] == 4 and data["count"] == 4 and data["offset"] == 0 and data["limit"] == 20
    assert data["memories"][0]["content"] == "The office wifi password is tiger-43"
    page = _run(db, "list", "-n", "2", "--offset", "2")
    assert [m["id"] for m in page["memories"]] == [ids["gateway"], ids["oscar"]] and page["total"] == 4
    assert [m["id"] for m in _run(db, "list", "--oldest", "-n", "1")["memories"]] == [ids["oscar"]]


def test_list_filters_as_recall_does(tmp_path: Path) -> None:
    db, ids = _filled(tmp_path)
    assert [m["id"] for m in _run(db, "list", "--type", "procedural")["memories"]] == [ids["gateway"]]
    assert [m["id"] for m in _run(db, "list", "--tag", "infra")["memories"]] == [ids["gateway"]]
    assert [m["id"] for m in _run(db, "list", "--until", "2025-03-01")["memories"]] == [ids["rome"]]
    history = [m["id"] for m in _run(db, "list", "--history")["memories"]]
    assert history == [ids["tiger"], ids["lion"], ids["rome"], ids["gateway"], ids["oscar"]]
    forgotten = _run(db, "list", "--forgotten")["memories"]
    assert [(m["id"], m["status"]) for m in forgotten] == [(ids["landlord"], "deleted")]


def test_list_as_a_table_and_its_errors(tmp_path: Path) -> None:
    db, ids = _filled(tmp_path)
    proc = run_cli_subprocess("--db", str(db), "--plain", "list", "-n", "2")
    assert proc.returncode == 0
    assert "The office wifi password is tiger-43" in proc.stdout and "Oscar" not in proc.stdout
    assert "1-2 of 4 (next: --offset 2)" in proc.stderr
    empty = run_cli_subprocess("--db", str(tmp_path / "new.db"), "--plain", "list")
    assert empty.returncode == 0 and empty.stdout.strip() == 'no memories yet (mem.py store "...")'
    bad = run_cli_subprocess("--db", str(db), "list", "--since", "blorp")
    assert bad.returncode == 1 and len(bad.stdout.splitlines()) == 1
    assert json.loads(bad.stdout)["error"]["message"].startswith("--since: cannot understand the date 'blorp'")
