"""Nothing of mem holds a read snapshot for as long as someone else decides (memengine/walbound.py says why
that matters: no frame after the oldest snapshot can be folded, so a steady writer's log grows without bound).

Each test makes a real process (or thread) sit in the place it could hold one, then has another connection
commit and run a TRUNCATE checkpoint that waits for the readers of the moment: it empties the log only if
nobody holds an older snapshot.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import memory_core as core

ROOT = Path(__file__).resolve().parents[1]


def _fill(db: Path, n: int, size: int = 900) -> None:
    s = core.MemoryStore(db)
    try:
        s.store_many([core.NewMemory(content=f"note {i}: " + "the garden gate and the VPN gateway " * (size // 36),
                                     ref=f"r{i}") for i in range(n)])
    finally:
        s.close()


def _log_emptied(db: Path) -> tuple[int, int, int]:
    """Commit twice from a fresh connection, then TRUNCATE waiting up to 3 s for readers: (busy, log, folded)."""
    c = sqlite3.connect(str(db), isolation_level=None, timeout=10)
    try:
        for i in range(2):
            c.execute("BEGIN IMMEDIATE")
            c.execute("INSERT OR REPLACE INTO _mem_meta(key, value) VALUES ('snapshot-probe', ?)", (str(i),))
            c.execute("COMMIT")
        c.execute("PRAGMA busy_timeout = 3000")
        busy, log, folded = c.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        return int(busy), int(log), int(folded)
    finally:
        c.close()


def test_an_export_into_a_pipe_nobody_reads_holds_no_snapshot(tmp_path: Path) -> None:
    """`mem.py export | slow-reader`: the export blocks on its full pipe; it must not keep the store's log from
    being emptied meanwhile (it read the rows through one open statement, held while the pipe was full)."""
    db = tmp_path / "memory.db"
    _fill(db, 600)  # ~600 KB of JSON lines: far more than a pipe holds
    env = {**os.environ, "MEM_DB": str(db), "MEM_NO_SERVER": "1"}
    proc = subprocess.Popen([sys.executable, str(ROOT / "mem.py"), "export"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()  # it has started writing; nobody reads the rest for now
        assert first.startswith(b'{"content": "note 0:')
        assert _log_emptied(db) == (0, 0, 0)
        assert proc.poll() is None  # (still blocked on the pipe: the probe ran while it was)
        rest, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    lines = [first, *rest.splitlines()]
    c = sqlite3.connect(str(db))
    refs = [r for (r,) in c.execute("SELECT ref FROM memories WHERE status != 'deleted' ORDER BY id")]
    c.close()
    assert len(refs) > 500 and [json.loads(line)["ref"] for line in lines] == refs  # each once, in order
    assert err.decode().strip() == f"exported {len(refs)} memories"
