"""users26 finding 8 (users25 #11): ``mem.py doctor`` on a damaged file, or one whose indexes are out of step, exited
8 / 1 with an envelope saying ``"ok": true`` (the report had been written): an agent testing ``ok``, as SKILL.md
teaches, read a healthy store. The envelope now says ``"ok": false`` with an ``error`` as every failure does, and
still carries the report in ``data``. Real subprocesses on real files."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli_subprocess
from test_doctor_fix import _out_of_step

import memory_core as core


def test_doctor_on_a_damaged_file_is_a_failure_with_its_report(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    db.write_bytes(b"this is a note someone saved under the memory's name, not a database" * 4)
    proc = run_cli_subprocess("--db", str(db), "doctor")
    assert proc.returncode == 8
    lines = proc.stdout.splitlines()
    assert len(lines) == 1
    env = json.loads(lines[0])
    assert env["ok"] is False and env["command"] == "doctor"
    assert env["error"]["code"] == "damaged" and str(db) in env["error"]["message"]
    assert env["data"]["ok"] is False and env["data"]["sqlite_header"] is False


def test_doctor_finding_problems_is_a_failure_and_the_fix_is_a_success(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    s = core.MemoryStore(db)
    s.store("an ordinary memory", dedup=False)
    s.close()
    _out_of_step(db, 2)
    proc = run_cli_subprocess("--db", str(db), "doctor")
    assert proc.returncode == 1
    env = json.loads(proc.stdout)
    assert env["ok"] is False and env["error"]["code"] == "problems_found"
    assert "memories_hash16" in env["error"]["message"] and "mem.py doctor --fix" in env["error"]["message"]
    assert env["data"]["problems"]
    fixed = run_cli_subprocess("--db", str(db), "doctor", "--fix")
    assert fixed.returncode == 0
    env = json.loads(fixed.stdout)
    assert env["ok"] is True and "error" not in env and env["data"]["ok"] is True
    healthy = json.loads(run_cli_subprocess("--db", str(db), "doctor").stdout)
    assert healthy["ok"] is True and "error" not in healthy
