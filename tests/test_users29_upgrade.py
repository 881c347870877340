"""users29 finding 5: a store written by an older mem (migrations m001–m005) opened by today's was migrated in
place — ten migrations, nothing lost — but with no copy of the file as it was and no word said: no older mem with
the newer-schema check can open it again, and nothing says so. Now the first process to upgrade it keeps
``backups/<name>.<time>.pre-migrate.db`` (checked like any backup, listed by ``restore --list``, never pruned) and
says so on stderr, once, however many processes open it at the same moment. Real subprocesses, real files."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

from conftest import ROOT, run_cli_subprocess

from memengine import migrations
from memengine.db import connect

HASH = {"MEM_EMBEDDER": "hash"}
FACTS = ["Oscar prefers morning meetings", "Allergic to penicillin", "To restart the gateway: openclaw gateway restart"]


def _old_store(db: Path, upto: str = "m005_int8_vectors") -> None:
    old = connect(db)
    assert migrations.migrate(old, upto=upto)[-1] == upto
    for i, text in enumerate(FACTS, 1):  # rows as that release wrote them
        old.execute("INSERT INTO memories(id, content, content_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
                    (i, text, f"h{i}", "2026-11-20T10:00:00", "2026-11-20T10:00:00"))
    old.close()


def _names(db: Path) -> list[str]:
    with closing(sqlite3.connect(db)) as c:
        return [r[0] for r in c.execute("SELECT name FROM _mem_migrations ORDER BY name")]


def test_two_processes_open_an_old_store_at_once_one_copy_is_kept(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    _old_store(db)
    env = {**__import__("os").environ, **HASH, "MEM_NO_SERVER": "1"}
    procs = [subprocess.Popen([sys.executable, str(ROOT / "mem.py"), "--db", str(db), *args], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=env, cwd=str(ROOT))
             for args in (["stats"], ["list"])]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    assert json.loads(outs[0][0])["data"]["memories"] == 3 and json.loads(outs[1][0])["data"]["total"] == 3
    copies = sorted((tmp_path / "backups").glob("memory.db.*.pre-migrate.db"))
    assert len(copies) == 1
    said = [line for _, err in outs for line in err.splitlines() if "written by an older mem" in line]
    assert said == [f"mem: {db} was written by an older mem: upgrading it (11 migrations, m006_context_far … "
                    f"m016_time_kind); the file as it was is kept in {copies[0]}"]
    assert _names(db) == sorted(name for name, _ in migrations.MIGRATIONS)  # each once (a primary key)
    assert _names(copies[0]) == sorted(name for name, _ in migrations.MIGRATIONS[:5])
    with closing(sqlite3.connect(copies[0])) as c:
        assert [r[0] for r in c.execute("SELECT content FROM memories ORDER BY id")] == FACTS
    listed = run_cli_subprocess("--db", str(db), "restore", "--list", env=HASH)
    assert listed.returncode == 0, listed.stdout + listed.stderr
    kinds = {b["name"]: (b["kind"], b["memories"]) for b in json.loads(listed.stdout)["data"]["backups"]}
    assert kinds == {copies[0].name: ("pre-migrate", 3)}
    again = run_cli_subprocess("--db", str(db), "stats", env=HASH)
    assert again.returncode == 0 and "older mem" not in again.stderr
    assert len(list((tmp_path / "backups").glob("*.db"))) == 1


def test_a_new_store_and_an_empty_old_one_get_no_copy(tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    proc = run_cli_subprocess("--db", str(db), "store", "Oscar prefers morning meetings", env=HASH)
    assert proc.returncode == 0 and "older mem" not in proc.stderr
    empty = tmp_path / "empty.db"
    with closing(connect(empty)) as old:
        migrations.migrate(old, upto="m005_int8_vectors")
    proc = run_cli_subprocess("--db", str(empty), "stats", env=HASH)
    assert proc.returncode == 0 and "older mem" not in proc.stderr
    assert not (tmp_path / "backups").exists()


def test_a_copy_that_cannot_be_written_stops_the_upgrade(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    _old_store(db, upto="m012_people_threads")
    (tmp_path / "backups").write_text("a file where the folder should be")
    proc = run_cli_subprocess("--db", str(db), "stats", env=HASH)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert json.loads(proc.stdout)["error"]["message"] == f"{tmp_path / 'backups'}: is not a folder"
    assert _names(db) == sorted(name for name, _ in migrations.MIGRATIONS[:12])  # nothing migrated
