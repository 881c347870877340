"""users35 sweep (a store moved between machines), real processes — a check that held, kept as a guard: memories
stored through a ``mem.py serve`` that is then stopped (SIGTERM) are in ``memory.db`` itself, so a person who copies
that one file to the new machine (the ``-wal`` beside it left behind) has them all. The ``-wal`` file stays on disk
with frames in it, which is what made it worth checking: its frames are already folded into the file.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _env(db: Path, runtime: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("MEM_NO_SERVER", "PYTHONPATH")}
    env.update({"MEM_DB": str(db), "XDG_RUNTIME_DIR": str(runtime), "MEM_EMBEDDER": "hash"})
    env.update(extra)
    return env


def _file_alone(db: Path, tmp_path: Path) -> list[str]:
    """The memories a copy of the file alone (no -wal beside it) holds."""
    moved = tmp_path / "moved" / "memory.db"
    moved.parent.mkdir()
    shutil.copyfile(db, moved)
    with sqlite3.connect(moved) as conn:
        return [str(r[0]) for r in conn.execute("SELECT content FROM memories ORDER BY id")]


def test_a_stopped_server_leaves_every_memory_in_the_file(tmp_path: Path, runtime_dir: Path) -> None:
    db = tmp_path / "memory.db"
    env = _env(db, runtime_dir)
    first = subprocess.run([sys.executable, str(ROOT / "mem.py"), "--json", "store", "written before the server"],
                           env={**env, "MEM_NO_SERVER": "1"}, capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    proc = subprocess.Popen([sys.executable, str(ROOT / "mem.py"), "serve", "--json"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert proc.stdout is not None
        assert json.loads(proc.stdout.readline())["ok"] is True
        for text in ("The boiler service is on 12 March", "Ana's new number ends 201"):
            res = subprocess.run([sys.executable, str(ROOT / "mem.py"), "--json", "store", text], env=env,
                                 capture_output=True, text=True, timeout=120)
            assert res.returncode == 0, res.stderr
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
    assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""
    assert _file_alone(db, tmp_path) == ["written before the server", "The boiler service is on 12 March",
                                         "Ana's new number ends 201"]
