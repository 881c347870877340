"""A long-lived server and the write-ahead log other processes write to.

* An idle server holds no read snapshot: after every kind of handed-over call (including failing
  ones), another process writes, and an outside PASSIVE checkpoint folds every frame, a TRUNCATE
  empties the log (real `mem.py serve` and writer subprocesses).
* The log stays bounded while readers never pause (memengine/walcheckpoint.py: TRUNCATE past the bound).
* A call that leaves a transaction open is rolled back at its end.

No sleeps that assume a quiet machine: conditions are polled with a deadline.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import memory_core as core
from memengine import handoff
from memengine.walcheckpoint import Checkpointer

sqlite3 = core.sqlite3  # the store's own SQLite: two copies of SQLite in one process break each other's locks

ROOT = Path(__file__).resolve().parents[1]
FACTS = [f"Host db-{i} runs {svc} on port {8000 + i}; Oscar set it up" for i, svc in
         enumerate(["postgres", "redis", "nginx", "kafka", "minio", "grafana", "vault", "consul"] * 5)]
WRITER = """
import sys, memory_core as core
s = core.MemoryStore(sys.argv[1])
for i in range(int(sys.argv[2])):
    s.store(f"outside write {i}: the nightly backup of shard {i} finished", dedup=False)
s.close()
"""


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


def poll(condition: Callable[[], object], deadline: float = 60.0) -> object:
    """``condition()`` once it is truthy, else its last value after ``deadline`` seconds."""
    stop = time.monotonic() + deadline
    while True:
        got = condition()
        if got or time.monotonic() > stop:
            return got
        time.sleep(0.02)


def checkpoint(db: Path, mode: str) -> tuple[int, int, int]:
    conn = sqlite3.connect(db, timeout=10)
    try:
        busy, log, folded = conn.execute(f"PRAGMA wal_checkpoint({mode})").fetchone()
        return int(busy), int(log), int(folded)
    finally:
        conn.close()


def _wal_size(db: Path) -> int:
    wal = Path(f"{db}-wal")
    return wal.stat().st_size if wal.exists() else 0


def _served(db: Path, runtime_dir: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "MEM_DB": str(db), "XDG_RUNTIME_DIR": str(runtime_dir)}
    env.pop("MEM_NO_SERVER", None)
    proc = subprocess.Popen([sys.executable, str(ROOT / "mem.py"), "serve", "--json"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert proc.stdout is not None
    assert json.loads(proc.stdout.readline())["ok"] is True
    return proc


def _write_outside(db: Path, n: int) -> None:
    env = {**os.environ, "MEM_NO_SERVER": "1"}
    w = subprocess.run([sys.executable, "-c", WRITER, str(db), str(n)], env=env, cwd=ROOT, capture_output=True,
                       text=True, timeout=300)
    assert w.returncode == 0, w.stderr


CALLS = [
    ["recall", "which host runs postgres", "-k", "5"], ["recall", "Oscar kafka", "--strategy", "graph"],
    ["recall", "port", "--context", "--history"], ["recall", "db-3", "--strategy", "keyword"],
    ["recall", "backup shard", "--strategy", "activation", "--explain"], ["get", "3"], ["get", "99999"],
    ["stats"], ["brief"], ["surface", "Oscar moved redis to another host"], ["store", "Host db-77 runs etcd"],
    ["forget", "5"], ["restore", "5"], ["link", "1", "2"], ["unlink", "1", "2"], ["path"],
    ["recall", "\"unbalanced", "--strategy", "keyword"], ["recall", "x", "--since", "not a date"],
]


def test_an_idle_server_holds_no_read_snapshot(tmp_path: Path, runtime_dir: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Every kind of handed-over call, then another process writes 200 times: once the server is idle an
    outside checkpoint folds every frame and TRUNCATE empties the log; the server still answers."""
    db = tmp_path / "served.db"
    _filled(db)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime_dir))
    monkeypatch.delenv("MEM_NO_SERVER", raising=False)
    proc = _served(db, runtime_dir)
    try:
        codes = []
        for argv in CALLS * 2:
            got = handoff.try_handoff(["--db", str(db), *argv, "--json"])
            assert got is not None, argv  # (answered by the server, not in-process)
            codes.append(got[0])
        assert codes.count(0) >= len(CALLS) * 2 - 6 and set(codes) - {0} <= {1, 3}, codes  # not found, bad input
        _write_outside(db, 200)
        # the server's reinforcement and checkpoints end by themselves; a snapshot held for good never does
        folded = poll(lambda: (lambda r: r[0] == 0 and r[1] == r[2])(checkpoint(db, "PASSIVE")))
        assert folded, checkpoint(db, "PASSIVE")
        assert poll(lambda: checkpoint(db, "TRUNCATE")[0] == 0) and _wal_size(db) == 0
        got = handoff.try_handoff(["--db", str(db), "recall", "nightly backup shard 7", "-k", "3", "--json"])
        assert got is not None and got[0] == 0
        assert any("shard 7" in r["content"] for r in json.loads(got[1])["data"]["results"])
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("SELECT count(*) FROM memories").fetchone()[0] == len(FACTS) + 1 + 200
    finally:
        conn.close()


def test_the_log_stays_bounded_while_readers_never_pause(tmp_path: Path) -> None:
    """A reader that never pauses keeps SQLite from starting the log over after each fold: the log grows
    with every commit. Past its bound the checkpointer folds and empties it (TRUNCATE)."""
    db = tmp_path / "m.db"
    _filled(db)
    s = core.MemoryStore(db)
    bound = 256 << 10
    cp = Checkpointer(s.path, s.conn, bound=bound, watch=0.01)
    stop = threading.Event()

    def read() -> None:  # back-to-back short reads, as a server answering recalls without a pause
        conn = sqlite3.connect(db, timeout=10)
        while not stop.is_set():
            conn.execute("SELECT count(*), max(id) FROM memories").fetchone()
        conn.close()

    readers = [threading.Thread(target=read) for _ in range(2)]
    try:
        cp.start()
        for t in readers:
            t.start()
        w = sqlite3.connect(db, timeout=10, isolation_level=None)
        for i in range(400):
            w.execute("INSERT INTO _mem_meta(key, value) VALUES (?, ?)", (f"probe{i}", "x" * 2000))
        w.close()
        assert poll(lambda: cp.truncates >= 1), "the log was never emptied"
        stop.set()
        for t in readers:
            t.join()
        assert poll(lambda: _wal_size(db) <= bound), _wal_size(db)
    finally:
        stop.set()
        cp.close()
        s.close()


def test_a_call_that_leaves_a_transaction_open_is_rolled_back_at_its_end(tmp_path: Path,
                                                                       capfd: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "m.db"
    _filled(db)
    s = core.MemoryStore(db)
    cp = Checkpointer(s.path, s.conn)
    try:
        cp.start()
        cp.begin()
        s.conn.execute("BEGIN IMMEDIATE")
        s.conn.execute("UPDATE memories SET importance = 0.9 WHERE id = 1")
        cp.end()
        assert not s.conn.in_transaction and cp.rolled_back == 1
        assert "left a transaction open; rolled back" in capfd.readouterr().err
        other = sqlite3.connect(db, timeout=0.1)  # the write lock is free again
        other.execute("UPDATE memories SET importance = 0.1 WHERE id = 2")
        other.commit()
        assert other.execute("SELECT importance FROM memories WHERE id IN (1, 2) ORDER BY id").fetchall() == [
            (0.5,), (0.1,)]
        other.close()
    finally:
        cp.close()
        s.close()
