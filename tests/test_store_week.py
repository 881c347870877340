"""Faults an agent's week (bench/agent_week.py) met in storage, each with real processes on a real file.

1. Two agents in one chat each say "ok" (`store "ok" --thread C --author A --type episodic`, SKILL.md's way, no
   `--at`): the second turn was merged into the first author's ("deduplicated": true), a lost event; so was the
   same reply in another chat.
2. `export` gives a memory without a ref the ref `hash:<its text>`: two memories of one text (a fact stored as
   semantic and as procedural, two chat turns) shared it, and `import jsonl` of that export kept only the first
   (import is idempotent by source and ref): a memory lost in the round trip README promises.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from conftest import run_cli_subprocess


def _data(proc) -> dict:
    assert proc.returncode == 0, proc.stdout + proc.stderr
    env = json.loads(proc.stdout)
    assert env["ok"] is True
    return env["data"]


def _turn(db: Path, text: str, thread: str, author: str) -> dict:
    return _data(run_cli_subprocess("--db", str(db), "store", text, "--thread", thread, "--author", author,
                                    "--type", "episodic"))


def test_the_same_reply_by_two_authors_is_two_turns(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    a = _turn(db, "ok", "chat-1", "ana")
    b = _turn(db, "ok", "chat-1", "bob")
    c = _turn(db, "ok", "chat-2", "ana")
    assert (a["deduplicated"], b["deduplicated"], c["deduplicated"]) == (False, False, False)
    assert len({a["id"], b["id"], c["id"]}) == 3
    rows = sqlite3.connect(db).execute("SELECT id, thread, author, position FROM memories ORDER BY id").fetchall()
    assert rows == [(a["id"], "chat-1", "ana", 0), (b["id"], "chat-1", "bob", 1), (c["id"], "chat-2", "ana", 0)]


def test_a_turn_stored_again_by_its_author_is_still_deduplicated(tmp_path: Path) -> None:
    """A retried call (the agent did not see the reply) must not add the turn twice."""
    db = tmp_path / "m.db"
    a = _turn(db, "see you at 8", "chat-1", "ana")
    again = _turn(db, "see you at 8", "chat-1", "ana")
    assert (again["id"], again["deduplicated"]) == (a["id"], True)


def test_export_import_keeps_memories_that_share_a_text(tmp_path: Path) -> None:
    db, copy = tmp_path / "m.db", tmp_path / "copy.db"
    _data(run_cli_subprocess("--db", str(db), "store", "sounds good", "--type", "semantic"))
    _data(run_cli_subprocess("--db", str(db), "store", "sounds good", "--type", "procedural"))
    _turn(db, "ok", "chat-1", "ana")
    _turn(db, "ok", "chat-1", "bob")
    _data(run_cli_subprocess("--db", str(db), "store", "Flew to Rome", "--type", "episodic", "--at", "2026-03-01"))
    _data(run_cli_subprocess("--db", str(db), "store", "Flew to Rome", "--type", "episodic", "--at", "2026-05-01"))
    exported = run_cli_subprocess("--db", str(db), "export")
    assert exported.returncode == 0
    lines = exported.stdout.splitlines()
    assert len(lines) == 6
    refs = [json.loads(line)["ref"] for line in lines]
    assert len(set(refs)) == 6, refs
    dump = tmp_path / "all.jsonl"
    dump.write_text(exported.stdout, encoding="utf-8")
    first = _data(run_cli_subprocess("--db", str(copy), "import", "jsonl", str(dump)))
    assert (first["memories_added"], first["skipped_duplicates"]) == (6, 0)
    again = _data(run_cli_subprocess("--db", str(copy), "import", "jsonl", str(dump)))
    assert (again["memories_added"], again["skipped_duplicates"]) == (0, 6)
    # the copy holds the same memories, each under a ref naming the store and the id it came from (serve13)
    mine = [json.loads(line) for line in lines]
    theirs = [json.loads(line) for line in run_cli_subprocess("--db", str(copy), "export").stdout.splitlines()]
    assert [{k: v for k, v in r.items() if k not in ("ref", "origin")} for r in theirs] == \
        [{k: v for k, v in r.items() if k not in ("ref", "origin")} for r in mine]
    assert [r["ref"] for r in theirs] == [f"hash:{r['ref'].split(':')[1]}@{r['origin']}" for r in mine]
    assert run_cli_subprocess("--db", str(db), "export").stdout == exported.stdout  # the same refs each time


def test_export_ref_of_a_lone_text_is_unchanged(tmp_path: Path) -> None:
    """A memory whose text no older memory has keeps the ref earlier exports gave it (`hash:` + 24 hex digits):
    files exported before still import idempotently."""
    db = tmp_path / "m.db"
    _data(run_cli_subprocess("--db", str(db), "store", "Oscar prefers morning meetings"))
    (line,) = run_cli_subprocess("--db", str(db), "export").stdout.splitlines()
    ref = json.loads(line)["ref"]
    h = sqlite3.connect(db).execute("SELECT content_hash FROM memories").fetchone()[0]
    assert ref == f"hash:{h[:24]}"
