"""A backup copy on read-only media (a mounted backup disk, a read-only share) opens for reading: recall, stats
and get work, a write fails with one line, and nothing is created beside the copy (serve12; bench/agent_week.py
--edges found `recall` on such a copy failing with exit 9: the copy is in rollback-journal mode and opening it
switched it to WAL, a write; memengine/db.py now reads such a file as it is where it cannot be written)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import run_cli, run_cli_subprocess

import memory_core as core


@contextlib.contextmanager
def read_only_place(folder: Path) -> Iterator[Path]:
    """``folder`` seen read-only: a read-only bind mount as root where mounting works (what a user has), else the
    folder and its files made immutable (root) or chmod-ed (a user); yields the folder to use."""
    if os.geteuid() != 0:
        files = list(folder.iterdir())
        for f in files:
            f.chmod(0o444)
        folder.chmod(0o555)
        try:
            yield folder
        finally:
            folder.chmod(0o755)
            for f in files:
                f.chmod(0o644)
        return
    where = folder.with_name(folder.name + "-ro")
    where.mkdir()
    mounted = (subprocess.run(["mount", "--bind", str(folder), str(where)], capture_output=True).returncode == 0
               and subprocess.run(["mount", "-o", "remount,bind,ro", str(where)], capture_output=True).returncode == 0)
    if mounted:
        try:
            yield where
        finally:
            subprocess.run(["umount", str(where)], check=True)
        return
    subprocess.run(["umount", str(where)], capture_output=True)
    if shutil.which("chattr") is None:
        pytest.skip("root, and neither a read-only mount nor chattr: cannot make the copy read-only")
    paths = [*folder.iterdir(), folder]
    if any(subprocess.run(["chattr", "+i", str(p)], capture_output=True).returncode for p in paths):
        pytest.skip("chattr +i not supported on this file system")
    try:
        yield folder
    finally:
        for p in paths:
            subprocess.run(["chattr", "-i", str(p)], check=True)


def _store(db: Path) -> None:
    for text in ("Oscar prefers morning meetings", "the gateway deploy failed on Friday", "Ana moved to Lisbon"):
        assert run_cli("--db", str(db), "store", text).returncode == 0


def _journal_mode(db: Path) -> str:
    """The file's journal mode as its header says (bytes 18-19: 2 in WAL), read without opening it."""
    return "wal" if db.read_bytes()[18:20] == b"\x02\x02" else "delete"


def _reads_work_and_writes_fail(copy: Path) -> None:
    before = sorted(p.name for p in copy.parent.iterdir())
    # (real processes: the read-only spell a process notes about a folder must not leak from another call)
    p = run_cli_subprocess("--db", str(copy), "recall", "Oscar meetings", "-k", "2")
    assert p.returncode == 0, p.stdout + p.stderr
    env = json.loads(p.stdout)
    assert env["data"]["results"][0]["content"] == "Oscar prefers morning meetings"
    assert env["warnings"] == [f"{copy}: read-only, so the recalled memories were not reinforced"]
    for args in (["stats"], ["get", "1"]):
        p = run_cli_subprocess("--db", str(copy), *args)
        assert p.returncode == 0 and json.loads(p.stdout)["ok"] is True, (args, p.stdout, p.stderr)
    assert json.loads(run_cli_subprocess("--db", str(copy), "stats").stdout)["data"]["memories"] == 3
    p = run_cli_subprocess("--db", str(copy), "store", "a new fact")
    assert p.returncode == 9 and p.stderr == "", (p.stdout, p.stderr)
    err = json.loads(p.stdout)["error"]
    assert err["code"] == "read_only" and str(copy) in err["message"] and "\n" not in err["message"]
    if copy.parent.name.endswith("-ro"):  # (a real read-only mount: chmod cannot help)
        assert "is on a read-only mount" in err["message"], err
    assert sorted(p.name for p in copy.parent.iterdir()) == before  # no -wal, -shm or -journal appeared


def test_a_backup_copy_reads_on_a_read_only_mount(tmp_path: Path) -> None:
    db, out = tmp_path / "memory.db", tmp_path / "usb"
    _store(db)
    out.mkdir()
    assert run_cli("--db", str(db), "backup", str(out / "copy.db")).returncode == 0
    # (rollback-journal mode, as VACUUM INTO writes it: read-only looks at a backup, restore's, leave no side
    # files beside it, which a WAL copy's would: a read-only connection cannot remove the -wal it made)
    assert _journal_mode(out / "copy.db") == "delete"
    assert sorted(p.name for p in out.iterdir()) == ["copy.db"]
    with read_only_place(out) as ro:
        _reads_work_and_writes_fail(ro / "copy.db")


def test_a_copy_made_with_sqlite_reads_on_a_read_only_mount(tmp_path: Path) -> None:
    # (sqlite3's .backup / VACUUM INTO by hand: rollback-journal mode too)
    db, out = tmp_path / "memory.db", tmp_path / "usb"
    _store(db)
    out.mkdir()
    conn = core.connect(db)
    conn.execute("VACUUM INTO ?", (str(out / "copy.db"),))
    conn.close()
    assert _journal_mode(out / "copy.db") == "delete"
    with read_only_place(out) as ro:
        _reads_work_and_writes_fail(ro / "copy.db")
