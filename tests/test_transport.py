"""A warm server's writes: WAL checkpoints between calls (walcheckpoint), a recall's reinforcement
after its reply (serving), the same results as in-process, and what a kill may lose.

Real SQLite files and real `mem.py serve` / `mem.py mcp` subprocesses: touching recalls handed over
its socket (or sent as MCP tool calls) against the same calls in-process on a copy of the file, and a
SIGKILL (no clean close, no last checkpoint, no reinforcement left for later) before counting every
reinforcement in the file.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
from conftest import run_cli, stored

import memory_core as core
from memengine import handoff
from memengine.walcheckpoint import Checkpointer

ROOT = Path(__file__).resolve().parents[1]
FACTS = [f"Host db-{i} runs {service} on port {8000 + i}" for i, service in
         enumerate(["postgres", "redis", "nginx", "kafka", "minio", "grafana", "vault", "consul"] * 4)]
QUERIES = ["which host runs postgres", "redis port", "nginx on db", "kafka host", "port of vault",
           "grafana dashboards host", "consul", "minio storage host"]


def _filled(db: Path) -> None:
    stored(db, FACTS)


def _frames(db: Path, deadline: float = 60.0) -> tuple[int, int]:
    """(frames in the log, frames of it folded into the file) by another connection's PASSIVE checkpoint,
    polled until it folds every frame (or ``deadline`` seconds pass).

    A reader that still holds an older snapshot keeps the frames after it back: the keyword index's
    first build reads the store in one snapshot on a thread of its own (started by the second recall),
    which on a loaded host can outlast the calls (7 of 122 frames folded). It ends by itself, so its
    end is waited for, never slept on; a snapshot held for good still fails here."""
    conn = core.sqlite3.connect(str(db))
    try:
        stop = time.monotonic() + deadline
        while True:
            busy, log, folded = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            if (busy == 0 and folded == log) or time.monotonic() > stop:
                return log, folded
            time.sleep(0.01)
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


TIME_FIELDS = ("last_accessed_at", "decay_ref_at")  # the clock of the call that reinforced


def _served(db: Path, runtime_dir: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "MEM_DB": str(db), "XDG_RUNTIME_DIR": str(runtime_dir)}
    env.pop("MEM_NO_SERVER", None)
    proc = subprocess.Popen([sys.executable, str(ROOT / "mem.py"), "serve", "--json"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert proc.stdout is not None
    assert json.loads(proc.stdout.readline())["ok"] is True
    return proc


def _timeless(envelope: dict) -> dict:
    """Without the clock's fields: in each recall result, and in `get`'s memory (whose last access is the
    previous recall's, written by the server after its reply: a second later on a loaded host)."""
    envelope.pop("took_ms", None)
    data = envelope.get("data", {})
    for r in [*data.get("results", []), data]:
        for f in TIME_FIELDS:
            r.pop(f, None)
    return envelope


def test_touching_recalls_handed_over_answer_as_in_process_call_after_call(tmp_path: Path, runtime_dir: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Each recall reinforces what it returns, which moves the next recall's strength prior and counts:
    the server leaves that write for after the reply, yet every answer is the in-process one."""
    db, alone = tmp_path / "served.db", tmp_path / "alone.db"
    _filled(db)
    shutil.copyfile(db, alone)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime_dir))
    monkeypatch.delenv("MEM_NO_SERVER", raising=False)
    proc = _served(db, runtime_dir)
    try:
        calls = [["recall", q, "-k", "4", "--json"] for q in QUERIES[:4] * 2] + [["get", "1", "--json"]]
        calls.insert(3, ["recall", QUERIES[0], "-k", "4", "--history", "--json"])  # (not the fast argv form)
        for argv in calls:
            got = handoff.try_handoff(["--db", str(db), *argv])
            assert got is not None and got[0] == 0, got
            here = run_cli("--db", str(alone), *argv, env={"MEM_NO_SERVER": "1"})
            assert here.returncode == 0, here.stderr
            assert _timeless(json.loads(got[1])) == _timeless(json.loads(here.stdout)), argv
        assert json.loads(got[1])["data"]["access_count"] > 0  # (the reinforcement did reach the file)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)


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
        # a store: its own write inside the call, and (first) the last recall's reinforcement
        stored = handoff.try_handoff(["--db", str(db), "store", "Host db-99 was retired on Friday", "--json"])
        assert stored is not None and stored[0] == 0, stored
        new_id = json.loads(stored[1])["data"]["id"]
        last = handoff.try_handoff(["--db", str(db), "recall", "retired host", "-k", "5", "--json"])
        assert last is not None and last[0] == 0, last
        last_ids = Counter(r["id"] for r in json.loads(last[1])["data"]["results"])
    finally:
        proc.send_signal(signal.SIGKILL)  # no close, no last checkpoint: what the log holds is all there is
        proc.wait(timeout=30)
    s = core.MemoryStore(db)
    try:
        assert s.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        counts = dict(s.conn.execute("SELECT id, access_count FROM memories").fetchall())
        assert len(counts) == len(FACTS) + 1 and s.get(new_id).content == "Host db-99 was retired on Friday"
        # every reinforcement, exactly; the last call's may have been waiting for after its reply (lost
        # whole, or there whole: one transaction)
        found = {mid: n for mid, n in counts.items() if n}
        assert found in (dict(returned), dict(returned + last_ids)), (found, returned, last_ids)
    finally:
        s.close()


def test_mcp_recalls_see_the_reinforcement_of_the_one_before(tmp_path: Path, runtime_dir: Path) -> None:
    import anyio
    from mcp import Client, StdioServerParameters

    db = tmp_path / "m.db"
    _filled(db)
    env = {**os.environ, "MEM_DB": str(db), "XDG_RUNTIME_DIR": str(runtime_dir)}
    params = StdioServerParameters(command=sys.executable, args=[str(ROOT / "mem.py"), "mcp", "--no-socket"], env=env,
                                   cwd=str(ROOT))

    async def steps() -> list[dict]:
        async with Client(params, read_timeout_seconds=120) as client:
            out = []
            for _ in range(3):
                res = await client.call_tool("recall", {"query": QUERIES[0], "k": 3, "full": True})
                assert not res.is_error, res.content
                out.append(res.structured_content)
            return out

    first, second, third = anyio.run(steps)
    assert [r["id"] for r in first["results"]] == [r["id"] for r in third["results"]]
    for a, b, c in zip(first["results"], second["results"], third["results"]):
        assert (b["access_count"], c["access_count"]) == (a["access_count"] + 1, a["access_count"] + 2)
    s = core.MemoryStore(db)  # the server exited when its client closed stdin: the last one was written too
    try:
        for r in first["results"]:
            assert s.get(r["id"]).access_count == r["access_count"] + 3
    finally:
        s.close()


def test_calls_run_what_waits_before_the_next_call_and_stop_deferring_after_a_failed_write() -> None:
    from memengine.serving import Calls

    calls, ran = Calls(), []
    with calls.one(defer=True):
        later = calls.later()
        assert later is not None
        later.append(lambda: ran.append("first") or [])
    assert ran == []  # left for after the reply
    holder = threading.Thread(target=lambda: calls.lock.acquire() and (held.set(), done.wait(), calls.lock.release()))
    held, done = threading.Event(), threading.Event()
    holder.start()
    held.wait()
    calls.after_reply()  # another call holds the store: not now...
    assert ran == []
    done.set()
    holder.join()
    with calls.one(defer=False):  # ...but before the next call's own work
        assert ran == ["first"] and calls.later() is None
    with calls.one(defer=True):
        calls.later().append(lambda: ran.append("failed") or ["read-only, so the recalled memories were not reinforced"])
    calls.after_reply()
    assert ran == ["first", "failed"] and calls.deferring is False
    with calls.one(defer=True):
        assert calls.later() is None  # from now on the call writes (and warns) itself
    calls.close()
