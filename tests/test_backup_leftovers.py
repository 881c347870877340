"""A copy killed half-way leaves nothing behind for long (agent week, bench/agent_week.py; real processes,
SIGKILL at a chosen point, real files).

- `mem.py backup` killed during its copy left `backups/.<name>.<pid>.mem-tmp`, as large as the store, forever
  (nothing ever removed it: 100 MB per killed backup at 100k).
- `consolidate` wrote its backup straight under its final name: killed during the copy, a half-written file was
  listed by `restore --list` as the newest consolidate backup and counted by the retention as one of the 3 kept.
- `doctor --full` (its snapshot copy, memengine/fts_check.py) killed during its check left a copy of the store in
  TMPDIR.

Each process here is stopped at the point its copy is written (the copy function wrapped to wait on stdin), then
killed with SIGKILL: the test does not depend on timing. The next run of a command that writes there removes what
a dead process left (its pid is in the name); a live process's files are never touched.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from conftest import ROOT, run_cli_subprocess

import memory_core as core

# Runs mem.py's main with one copy function wrapped: after it writes its file, say so and wait (to be killed).
STOPPED = r"""
import sys
sys.path.insert(0, sys.argv[1])
import importlib
module, name = sys.argv[2].rsplit(".", 1)
mod = importlib.import_module(module)
real = getattr(mod, name)
def stopped(*args, **kwargs):
    out = real(*args, **kwargs)
    print("copied", flush=True)
    sys.stdin.read()
    return out
setattr(mod, name, stopped)
import mem
mem.main(sys.argv[3:])
"""


def _filled(db: Path, n: int = 60) -> None:
    with core.MemoryStore(db) as s:
        s.store_many([core.NewMemory(content=f"note {i}: the garden gate and Lisbon number {i}", ref=f"r{i}",
                                     memory_type="semantic") for i in range(n)])


def _killed_after_copy(target: str, *args: str, env: dict[str, str] | None = None) -> int:
    """Run mem.py ARGS with ``target`` (module.function) stopped after its copy; SIGKILL it there; its pid."""
    proc = subprocess.Popen([sys.executable, "-c", STOPPED, str(ROOT), target, *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, MEM_NO_SERVER="1", **(env or {})))
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    if line != "copied":
        proc.kill()
        raise AssertionError(f"never reached the copy: {line!r} {proc.stderr.read() if proc.stderr else ''}")
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    return proc.pid


def _ok(proc: subprocess.CompletedProcess[str]) -> dict:
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout)["data"]


def test_a_killed_backup_leaves_its_temporary_copy_only_until_the_next_backup(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    _filled(db)
    pid = _killed_after_copy("memengine.privfile.vacuum_into", "--db", str(db), "backup")
    left = [p.name for p in (tmp_path / "backups").iterdir()]
    assert any(name.endswith(f".{pid}.mem-tmp") for name in left), left  # what the kill leaves
    assert _ok(run_cli_subprocess("--db", str(db), "restore", "--list"))["backups"] == []
    made = _ok(run_cli_subprocess("--db", str(db), "backup"))
    assert sorted(p.name for p in (tmp_path / "backups").iterdir()) == [Path(made["path"]).name]


def test_a_live_backups_temporary_copy_is_not_touched(tmp_path: Path) -> None:
    """A file of a process that is still running (here: this test's own pid) stays."""
    db = tmp_path / "memory.db"
    _filled(db)
    folder = tmp_path / "backups"
    folder.mkdir()
    mine = folder / f".memory.db.20260101T000000.backup.db.{os.getpid()}.mem-tmp"
    mine.write_bytes(b"in progress")
    _ok(run_cli_subprocess("--db", str(db), "backup"))
    assert mine.exists()


def test_a_consolidate_killed_during_its_backup_leaves_no_file_under_a_backups_name(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    _filled(db)
    with core.MemoryStore(db) as s:
        s.store_many([core.NewMemory(content=f"we planted tomatoes and basil in the garden beds {i}",
                                     memory_type="episodic", source="test", ref=f"g{i}", thread="chat")
                      for i in range(8)])
    _ok(run_cli_subprocess("--db", str(db), "consolidate", "--keep-backups", "0"))  # clusters, no copy
    with core.MemoryStore(db) as s:  # a forgotten cluster member: the cascade has work, a backup comes first
        s.forget(s.conn.execute("SELECT memory_id FROM cluster_members LIMIT 1").fetchone()[0])
    _killed_after_copy("memengine.privfile.vacuum_into", "--db", str(db), "consolidate", "--keep-backups", "3")
    folder = tmp_path / "backups"
    named = [p.name for p in folder.iterdir() if not p.name.startswith(".")] if folder.exists() else []
    assert named == [], named  # a copy not finished is never under a backup's name
    assert _ok(run_cli_subprocess("--db", str(db), "restore", "--list"))["backups"] == []
    _ok(run_cli_subprocess("--db", str(db), "consolidate", "--keep-backups", "3"))
    assert not [p.name for p in folder.iterdir() if p.name.endswith((".mem-tmp", "-journal"))]


def test_a_killed_doctor_full_leaves_its_snapshot_copy_only_until_the_next_doctor(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    _filled(db)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {"TMPDIR": str(tmp)}
    pid = _killed_after_copy("memengine.fts_check._fts5_check", "--db", str(db), "doctor", "--full", env=env)
    left = [p.name for p in tmp.iterdir()]
    assert len(left) == 1 and left[0].startswith(f"mem-doctor-{pid}-"), left
    rep = _ok(run_cli_subprocess("--db", str(db), "doctor", "--full", env=env))
    assert rep["ok"] is True and "snapshot copy" in rep["fts_check"]
    assert list(tmp.iterdir()) == []
