"""`doctor` names another program's transaction that holds the write-ahead log (real processes, real files).

A read transaction left open by another program (a `sqlite3` shell after `BEGIN; SELECT ...`, a script
that never commits) keeps every frame written after its snapshot in the log: no checkpoint can fold them,
the log grows with each write until it ends, and nothing of mem can empty it (memengine/walbound.py).
doctor says so in one line with the process that holds it and what to do; once it ends, the line goes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import stored, write_lock_held

ROOT = Path(__file__).resolve().parents[1]

HOLDER = """
import sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN")
print(c.execute("SELECT count(*) FROM memories").fetchone()[0], flush=True)
sys.stdin.read()  # holds the transaction until the test closes stdin
c.execute("COMMIT")
"""



def _doctor(db: Path) -> dict[str, object]:
    env = {**os.environ, "MEM_NO_SERVER": "1", "MEM_EMBEDDER": "hash"}
    done = subprocess.run([sys.executable, str(ROOT / "mem.py"), "--db", str(db), "doctor", "--json"],
                          env=env, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)["data"]
    assert isinstance(data, dict)
    return data


def _held_lines(data: dict[str, object]) -> list[str]:
    notes = data["notes"]
    assert isinstance(notes, list)
    return [n for n in notes if "read transaction" in n]


def test_doctor_names_the_process_whose_open_read_transaction_holds_the_log(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    stored(db, [f"note {i}: the garden gate code is {1000 + i}" for i in range(5)])
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(db)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "5"
        stored(db, [f"later note {i}: the wifi password is hunter{i}" for i in range(5)])
        data = _doctor(db)
        lines = _held_lines(data)
        assert len(lines) == 1, data["notes"]
        assert f"pid {holder.pid}" in lines[0] and "commit or close" in lines[0], lines[0]
        assert data["log_held_by"] == [holder.pid]
        assert data["ok"] is True  # a note, not a problem of the file
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=60)
    assert holder.returncode == 0
    stored(db, ["after: the printer is on floor 3"])
    data = _doctor(db)
    assert _held_lines(data) == [] and data["log_held_by"] == []


def test_doctor_says_nothing_of_a_log_nobody_holds(tmp_path: Path) -> None:
    """Another process connected but idle (no transaction): the log folds; no line, nobody named."""
    db = tmp_path / "memory.db"
    stored(db, [f"note {i}: the boiler service is due in month {i}" for i in range(5)])
    idle = subprocess.Popen([sys.executable, "-c", "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\n"
                             "c.execute('SELECT count(*) FROM memories').fetchone()\nprint('up', flush=True)\n"
                             "sys.stdin.read()", str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert idle.stdout is not None and idle.stdout.readline().strip() == "up"
        stored(db, [f"later note {i}: the boiler pressure is {i}.5 bar" for i in range(5)])
        data = _doctor(db)
        assert _held_lines(data) == [] and data["log_held_by"] == []
    finally:
        assert idle.stdin is not None
        idle.stdin.close()
        idle.wait(timeout=60)


def test_doctor_names_the_process_that_holds_the_write_lock(tmp_path: Path) -> None:
    """An open write transaction in another program: every writer waits for it; doctor says who, once."""
    db = tmp_path / "memory.db"
    stored(db, [f"note {i}: the attic key is in drawer {i}" for i in range(5)])
    with write_lock_held(db) as holder:
        data = _doctor(db)
        notes = data["notes"]
        assert isinstance(notes, list)
        lines = [n for n in notes if "write lock" in n]
        assert len(lines) == 1 and f"pid {holder.pid}" in lines[0] and "commit or close" in lines[0], notes
        assert data["write_lock_held_by"] == [holder.pid]
    data = _doctor(db)
    assert data["write_lock_held_by"] == [] and not [n for n in data["notes"] if "write lock" in n]
