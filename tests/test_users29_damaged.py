"""users29 finding 2: one zeroed page inside the vector tables (sqlite-vec's own) made recall and store exit 70
``internal error OperationalError: chunks iter error (a bug: please report it …)``: sqlite-vec reports a page it
cannot read as a plain SQL error, not as SQLITE_CORRUPT. Now such an error on a file whose ``quick_check`` fails is
``damaged`` (exit 8) with the one-line advice, like every other damaged page. Real subprocesses, a real file."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from conftest import run_cli_subprocess

HASH = {"MEM_EMBEDDER": "hash"}


def _zero_root_page(db: Path, table: str) -> None:
    con = sqlite3.connect(db)
    page_size = con.execute("PRAGMA page_size").fetchone()[0]
    root = con.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0]
    con.close()
    with open(db, "r+b") as fh:
        fh.seek((root - 1) * page_size)
        fh.write(bytes(page_size))


@pytest.mark.parametrize("table", ["vec_memories_chunks", "vec_memories_vector_chunks00"])
def test_a_zeroed_vector_page_is_damage_not_a_bug(tmp_path: Path, table: str) -> None:
    db = tmp_path / "m.db"
    for text in ("Oscar prefers morning meetings", "The office wifi password is tiger-43"):
        proc = run_cli_subprocess("--db", str(db), "store", text, env=HASH)
        assert proc.returncode == 0, proc.stdout + proc.stderr
    _zero_root_page(db, table)
    for args in (("recall", "wifi password"), ("store", "The boiler was serviced in March")):
        proc = run_cli_subprocess("--db", str(db), *args, env=HASH)
        out = json.loads(proc.stdout)
        assert proc.returncode == 8, proc.stdout + proc.stderr
        assert out["error"]["code"] == "damaged"
        message = out["error"]["message"]
        assert message.startswith(f"{db.name}: the database is damaged (") or \
            message.startswith(f"{db}: the database is damaged (")
        assert "mem.py doctor --recover NEW.db" in message and "mem.py restore --list" in message
        assert "Traceback" not in proc.stderr


def test_the_same_error_on_a_healthy_file_stays_a_bug(tmp_path: Path) -> None:
    from memengine import dbfile
    from memengine.db import raw_connect
    from memengine.db import sqlite3 as driver

    db = tmp_path / "m.db"
    proc = run_cli_subprocess("--db", str(db), "store", "Oscar prefers morning meetings", env=HASH)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    exc = driver.OperationalError("chunks iter error")
    assert dbfile.damaged_under_extension(exc, db, raw_connect) is False
    _zero_root_page(db, "vec_memories_chunks")
    assert dbfile.damaged_under_extension(exc, db, raw_connect) is True
    assert dbfile.damaged_under_extension(driver.OperationalError("no such column: x"), db, raw_connect) is False


@pytest.mark.parametrize("damage", ["truncate", "zero_vector_page"])
def test_doctor_on_a_damaged_file_says_what_it_found_not_to_run_doctor(tmp_path: Path, damage: str) -> None:
    db = tmp_path / "m.db"
    for text in ("Oscar prefers morning meetings", "The office wifi password is tiger-43"):
        assert run_cli_subprocess("--db", str(db), "store", text, env=HASH).returncode == 0
    if damage == "truncate":
        size = db.stat().st_size
        with open(db, "r+b") as fh:
            fh.truncate(size // 2)
    else:
        _zero_root_page(db, "vec_memories_vector_chunks00")
    proc = run_cli_subprocess("--db", str(db), "doctor", env=HASH)
    assert proc.returncode == 8, proc.stdout + proc.stderr
    out = json.loads(proc.stdout)
    message = out["error"]["message"]
    assert out["error"]["code"] == "damaged" and out["data"]["ok"] is False
    assert "run `mem.py doctor`" not in message and "\n" not in message
    assert "doctor found: " in message and "`mem.py doctor --recover NEW.db` to salvage what can be read" in message
    assert out["data"]["problems"]
