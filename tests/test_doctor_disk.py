"""doctor on a disk that takes no more writes: it still diagnoses (the log's fold that cannot be written is
nothing to say about who holds the log), and it says how little room is left."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import memory_core as core
from memengine import backup as bk

ROOT = Path(__file__).resolve().parents[1]


def _writes_capped_at(size: int) -> None:
    """(in the child) files may not grow past ``size`` bytes: a write across it is cut short, as on a full
    disk, and SQLite's fold of the log into the file fails."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))


def test_doctor_runs_when_the_log_cannot_be_folded_into_the_file(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    s = core.MemoryStore(db)
    s.store("first note", dedup=False)
    s.close()
    s = core.MemoryStore(db)  # open while doctor runs: its frames stay in the log, for doctor's look to fold
    try:
        for i in range(20):
            s.store(f"note {i} " + f"word{i} " * 300, dedup=False)
        size = db.stat().st_size
        assert Path(f"{db}-wal").stat().st_size > 100_000
        env = dict(os.environ, MEM_NO_SERVER="1")
        done = subprocess.run([sys.executable, str(ROOT / "mem.py"), "--db", str(db), "doctor", "--json"],
                              capture_output=True, text=True, env=env, timeout=300, cwd=ROOT,
                              preexec_fn=lambda: _writes_capped_at(size + 1000))
        assert "Traceback" not in done.stderr, done.stderr
        out = json.loads(done.stdout)
        assert done.returncode == 0 and out["ok"] is True, out
        assert out["data"]["integrity"] == "ok" and out["data"]["problems"] == [] and out["data"]["log_held_by"] == []
        assert len(s.recall("note 3", k=3, touch=False).results) == 3  # the store is as it was
    finally:
        s.close()


def test_doctor_says_when_the_disk_is_nearly_full(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "memory.db"
    core.MemoryStore(db).close()
    report, notes = bk.doctor_notes(db, core.MemoryStore(db).conn, fix=False)
    assert report["disk_free_bytes"] > 0 and not [n for n in notes if "bytes free" in n]  # (this disk has room)

    class Usage:
        free = 12_345

    monkeypatch.setattr("shutil.disk_usage", lambda _: Usage)
    report, notes = bk.doctor_notes(db, core.MemoryStore(db).conn, fix=False)
    assert report["disk_free_bytes"] == 12_345
    need = db.stat().st_size + report["log_bytes"]
    assert f"only 12,345 bytes free on the disk holding {tmp_path}: new memories fail with disk_full when it runs " \
           f"out, and a backup there needs about {need:,}" in " ".join(notes)
