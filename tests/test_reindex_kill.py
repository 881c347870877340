"""`mem.py reindex` killed at any point leaves a store that recalls as before, and a re-run completes.

A reindex with the model the vectors were made by (a refresh: the model file re-downloaded, a check of the
vectors) used to delete every vector first and then embed 256 memories a transaction: killed meanwhile (a
reboot, the OOM killer, Ctrl-C twice), recall went on with most memories unreachable by meaning, silently,
until the next reindex. Real processes, a real file, ``kill -9``.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import memory_core as core

ROOT = Path(__file__).resolve().parents[1]


def _vectors(db: Path) -> tuple[int, int]:
    c = core.sqlite3.connect(str(db), timeout=30)
    try:  # (vec0's own rowid table: readable without the extension)
        return (int(c.execute("SELECT count(*) FROM vec_memories_rowids").fetchone()[0]),
                int(c.execute("SELECT count(*) FROM memories").fetchone()[0]))
    finally:
        c.close()


def _reindex_killed_when(env: dict[str, str], ready: Callable[[], bool]) -> None:
    """`mem.py reindex` in its own process, killed with SIGKILL as soon as ``ready()`` holds (polled while it runs);
    fails if it finished first."""
    proc = subprocess.Popen([sys.executable, str(ROOT / "mem.py"), "reindex"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while proc.poll() is None:
            if ready():
                proc.send_signal(signal.SIGKILL)
                break
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
    assert proc.returncode == -signal.SIGKILL, "the reindex finished before it could be killed"


def test_a_reindex_killed_midway_leaves_every_vector_and_a_rerun_completes(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    s = core.MemoryStore(db)
    s.store_many([core.NewMemory(content=f"note {i}: the garden, the bicycle and the trip to Lisbon number {i}",
                                 ref=f"n{i}") for i in range(3000)])
    s.close()
    have, total = _vectors(db)
    assert have == total == 3000
    env = {**os.environ, "MEM_DB": str(db), "MEM_NO_SERVER": "1"}
    wal = Path(f"{db}-wal")
    start = wal.stat().st_size if wal.exists() else 0
    # killed once it has written ~1 MB: some transactions in, most not
    _reindex_killed_when(env, lambda: (wal.stat().st_size if wal.exists() else 0) > start + (1 << 20))
    assert _vectors(db) == (3000, 3000)  # every memory still found by meaning
    done = subprocess.run([sys.executable, str(ROOT / "mem.py"), "doctor"], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["data"]["problems"] == []
    again = subprocess.run([sys.executable, str(ROOT / "mem.py"), "reindex"], env=env, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["data"]["embedded"] == 3000 and _vectors(db) == (3000, 3000)


def _set_model(db: Path, model: str) -> None:
    c = core.sqlite3.connect(str(db), timeout=30)
    try:
        c.execute("UPDATE _mem_meta SET value = ? WHERE key = 'embedding_model'", (model,))
        c.commit()
    finally:
        c.close()


def _run(env: dict[str, str], *argv: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, str(ROOT / "mem.py"), *argv, "--json"] if argv[0] == "recall" else
                          [sys.executable, str(ROOT / "mem.py"), *argv], env=env, capture_output=True, text=True,
                          timeout=600)
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert isinstance(out, dict)
    return out


def test_a_model_change_reindex_killed_midway_is_loud_and_a_rerun_finishes_only_what_is_left(tmp_path: Path) -> None:
    """Another model's vectors must all go before this model's come in (they cannot stand side by side), so a
    model-change reindex killed midway leaves memories without a vector. Until it is finished, every recall
    says so (and how many), doctor says what to run, and `mem.py reindex` resumes: it embeds only what is
    left (and the context vectors), not everything again."""
    db = tmp_path / "memory.db"
    n = 5000
    s = core.MemoryStore(db)
    s.store_many([core.NewMemory(content=f"note {i}: the garden, the bicycle and the trip to Lisbon number {i}",
                                 ref=f"n{i}") for i in range(n)])
    s.close()
    _set_model(db, "an-older-model-384")  # the vectors were made by another model: a reindex replaces them all
    env = {**os.environ, "MEM_DB": str(db), "MEM_NO_SERVER": "1"}
    # killed once the old vectors are gone and some new ones are in
    _reindex_killed_when(env, lambda: 0 < _vectors(db)[0] < n - 1000)
    have, total = _vectors(db)
    assert 0 < have < total == n
    got = _run(env, "recall", "bicycle trip to Lisbon")
    assert got["ok"] is True
    warned = [w for w in got.get("warnings", []) if "reindex" in w]
    assert len(warned) == 1 and f"{n - have} of {n}" in warned[0] and "mem.py reindex" in warned[0], got
    doc = _run(env, "doctor")
    assert any("reindex" in p and "interrupted" in p for p in doc["data"]["problems"]), doc["data"]["problems"]
    again = _run(env, "reindex")
    assert again["ok"] is True and again["data"]["resumed"] is True
    assert again["data"]["embedded"] == n - have  # only what was left
    assert _vectors(db) == (n, n)
    got = _run(env, "recall", "bicycle trip to Lisbon")
    assert not [w for w in got.get("warnings", []) if "reindex" in w], got
    assert _run(env, "doctor")["data"]["problems"] == []
