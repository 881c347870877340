"""A warm server's writes: WAL checkpoints between calls (walcheckpoint), and nothing lost when it is killed.

Real SQLite files; the durability test runs a real `mem.py serve` subprocess, hands it touching
recalls over its socket, kills it with SIGKILL (no clean close, no last checkpoint) and counts
every reinforcement in the file afterwards.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

import memory_core as core
from memengine import handoff
from memengine.walcheckpoint import Checkpointer

ROOT = Path(__file__).resolve().parents[1]
FACTS = [f"Host db-{i} runs {service} on port {8000 + i}" for i, service in
         enumerate(["postgres", "redis", "nginx", "kafka", "minio", "grafana", "vault", "consul"] * 4)]
QUERIES = ["which host runs postgres", "redis port", "nginx on db", "kafka host", "port of vault",
           "grafana dashboards host", "consul", "minio storage host"]


@pytest.fixture
def runtime_dir() -> Iterator[Path]:
    d = Path(tempfile.mkdtemp(prefix="mem-rt-", dir="/tmp"))  # short: a socket path must fit ~104 bytes
    yield d
    shutil.rmtree(d, ignore_errors=True)


def _filled(db: Path) -> None:
    s = core.MemoryStore(db)
    try:
        for fact in FACTS:
            s.store(fact, dedup=False)
    finally:
        s.close()


def _frames(db: Path) -> tuple[int, int]:
    """(frames in the log, frames of it already folded into the file), from another connection."""
    conn = core.sqlite3.connect(str(db))
    try:
        busy, log, folded = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        assert busy == 0
        return log, folded
    finally:
        conn.close()


def test_the_checkpointer_owns_the_checkpoints_and_folds_the_log_on_close(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    _filled(db)
    s = core.MemoryStore(db)
    try:
        cp = Checkpointer(s.path, s.conn, every=10_000, most=100_000, idle=3600.0)  # no pause will ever be long enough
        cp.start()
        assert s.conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
        for q in QUERIES * 3:
            cp.begin()
            s.recall(q, k=5)  # reinforces: a write transaction per call
            cp.end()
        assert cp.checkpoints == 0  # nothing was due: the calls' commits never folded the log themselves
        log, folded = _frames(db)  # (this fold is another connection's; the checkpointer does the same on close)
        assert log > 0 and folded == log
        cp.begin()
        s.recall(QUERIES[0], k=5)
        cp.end()
        cp.close()
        assert cp.checkpoints == 1  # what the last call wrote, folded on close
        assert s.conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 1000  # given back
    finally:
        s.close()


def test_when_a_checkpoint_is_due(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    _filled(db)
    s = core.MemoryStore(db)
    try:
        cp = Checkpointer(s.path, s.conn, every=100, most=400, quiet=0.05, idle=30.0)
        assert cp._wait() is None  # nothing written
        cp._seen = cp._done + 10
        cp._in_call = True
        assert cp._wait() == 0.05  # a call runs: look again later (its end notifies)
        cp._in_call = False
        cp._last_end = time.monotonic() + 1000  # (as if the last call ended in 1000 s: the whole pause is ahead)
        assert 1000 < cp._wait() <= 1030  # a small change: folded after the idle pause
        cp._seen = cp._done + 100  # SQLite's cadence reached: after a short pause
        assert 1000 < cp._wait() <= 1000.05
        cp._last_end = 0.0  # the pause is over: now
        assert cp._wait() == 0.0
        cp._in_call = True
        cp._seen = cp._done + 400  # at the bound: now, even during a call
        assert cp._wait() == 0.0
    finally:
        s.close()


def test_a_killed_server_keeps_every_reinforcement_and_memory(tmp_path: Path, runtime_dir: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "served.db"
    _filled(db)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime_dir))
    monkeypatch.delenv("MEM_NO_SERVER", raising=False)
    env = {**os.environ, "MEM_DB": str(db)}
    proc = subprocess.Popen([sys.executable, str(ROOT / "mem.py"), "serve", "--json"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert proc.stdout is not None
        assert json.loads(proc.stdout.readline())["ok"] is True
        returned: Counter[int] = Counter()
        for q in QUERIES * 8:  # reinforcing recalls: ~64 write transactions, none folded by its own commit
            got = handoff.try_handoff(["--db", str(db), "recall", q, "-k", "5", "--json"])
            assert got is not None and got[0] == 0, got
            returned.update(r["id"] for r in json.loads(got[1])["data"]["results"])
        stored = handoff.try_handoff(["--db", str(db), "store", "Host db-99 was retired on Friday", "--json"])
        assert stored is not None and stored[0] == 0, stored
        new_id = json.loads(stored[1])["data"]["id"]
    finally:
        proc.send_signal(signal.SIGKILL)  # no close, no last checkpoint: what the log holds is all there is
        proc.wait(timeout=30)
    s = core.MemoryStore(db)
    try:
        assert s.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        counts = dict(s.conn.execute("SELECT id, access_count FROM memories").fetchall())
        assert len(counts) == len(FACTS) + 1 and s.get(new_id).content == "Host db-99 was retired on Friday"
        assert {mid: n for mid, n in counts.items() if n} == dict(returned)  # every reinforcement, exactly
    finally:
        s.close()
