"""users30 #1: a `mem.py store` of a fact imported the fact decisions' ~80 modules (~250 patterns compiled) inside its
``BEGIN IMMEDIATE``: the write lock held ~95 ms of CPU per CLI call (3–4 ms warm), ~1 s of wall at 12× load, while
a nightly consolidate and other agents waited — eight such stores beside consolidate exited 4 `busy` after 40 s in
loaded full suites. Now the imports come before the lock (memengine/write_warm.py). Each test runs the real command
line in a fresh interpreter (the cold process is the point), with ``memengine.db.write_tx`` wrapped to report the
modules imported while it holds the lock; the CPU figures are in bench/users30_locks.py."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

from conftest import ROOT, run_cli_subprocess

# The command line as mem.py runs it, with every imported write_tx reporting what was imported while it held the lock.
_WRAPPED_CLI = r"""
import contextlib, json, sys
sys.path.insert(0, sys.argv[1])
from memengine.recache import install
install()
import memcli
from memengine import db
original = db.write_tx
inside = []

@contextlib.contextmanager
def reporting(conn):
    with original(conn) as c:
        before = set(sys.modules)
        yield c
        inside.append(sorted(m for m in set(sys.modules) - before if m.startswith("memengine")))

for mod in list(sys.modules.values()):
    if getattr(mod, "write_tx", None) is original:
        mod.write_tx = reporting
try:
    memcli.main(sys.argv[2:])
finally:
    sys.stderr.write("\nLOCKED-IMPORTS " + json.dumps(inside) + "\n")
"""


def _store_reporting(*args: str) -> tuple[dict, list[list[str]]]:
    proc = subprocess.run([sys.executable, "-c", _WRAPPED_CLI, str(ROOT), *args], capture_output=True, text=True,
                          timeout=120, cwd=str(ROOT))
    line = [x for x in proc.stderr.splitlines() if x.startswith("LOCKED-IMPORTS ")]
    assert line, proc.stdout + proc.stderr
    return json.loads(proc.stdout), json.loads(line[-1].split(" ", 1)[1])


def test_a_fact_store_imports_nothing_while_it_holds_the_write_lock(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    assert run_cli_subprocess("--db", db, "store", "The wifi password at the office is tiger-42").returncode == 0
    out, inside = _store_reporting("--db", db, "store", "The wifi password at the office is tiger-43")
    assert out["ok"] and out["data"]["supersedes"] == [1]  # the decision itself is unchanged
    assert inside == [[]]


def test_an_explicit_correction_and_an_update_import_nothing_under_the_lock(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    for text in ("Priya owns the billing migration", "The staging database is db-stage-4"):
        assert run_cli_subprocess("--db", db, "store", text).returncode == 0
    out, inside = _store_reporting("--db", db, "store", "Priya owns the billing migration now, with Omar",
                                   "--supersede", "1")
    assert out["ok"] and 1 in out["data"]["supersedes"] and inside == [[]]
    out, inside = _store_reporting("--db", db, "update", "2", "The staging database is db-stage-5")
    assert out["ok"] and out["data"]["supersedes"] == [2] and inside == [[]]
    conn = sqlite3.connect(db)
    current = [r[0] for r in conn.execute("SELECT content FROM memories WHERE valid_to IS NULL ORDER BY id")]
    conn.close()
    assert current == ["Priya owns the billing migration now, with Omar", "The staging database is db-stage-5"]
