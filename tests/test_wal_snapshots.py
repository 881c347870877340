"""Nothing of mem holds a read snapshot for as long as someone else decides (memengine/walbound.py says why
that matters: no frame after the oldest snapshot can be folded, so a steady writer's log grows without bound).

Each test makes a real process (or thread) sit in the place it could hold one, then has another connection
commit and run a TRUNCATE checkpoint that waits for the readers of the moment: it empties the log only if
nobody holds an older snapshot.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import memory_core as core
from memengine import keyword_index

ROOT = Path(__file__).resolve().parents[1]


def _fill(db: Path, n: int, size: int = 900) -> None:
    s = core.MemoryStore(db)
    try:
        s.store_many([core.NewMemory(content=f"note {i}: " + "the garden gate and the VPN gateway " * (size // 36),
                                     ref=f"r{i}") for i in range(n)])
    finally:
        s.close()


def _log_emptied(db: Path) -> tuple[int, int, int]:
    """Commit twice from a fresh connection, then TRUNCATE waiting up to 15 s for readers: (busy, log, folded).

    15 s, not less: the server's own short reads after a call can take seconds on a
    loaded 2-CPU machine (3 s failed there twice); a snapshot held between calls holds for good and still fails.

    The driver mem uses (another SQLite library in the same process would not see this process's locks)."""
    c = core.sqlite3.connect(str(db), isolation_level=None, timeout=10)
    try:
        for i in range(2):
            c.execute("BEGIN IMMEDIATE")
            c.execute("INSERT OR REPLACE INTO _mem_meta(key, value) VALUES ('snapshot-probe', ?)", (str(i),))
            c.execute("COMMIT")
        c.execute("PRAGMA busy_timeout = 15000")
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
        assert proc.stderr is not None
        rest = proc.stdout.read()  # (not communicate(): it reads the pipe itself, past what readline buffered)
        err = proc.stderr.read()
        proc.wait(timeout=120)
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


class _Between:
    """A ``cancel`` event for ``keyword_index._build_base`` that runs ``action`` at its ``at``-th look
    (it looks once per term, between the term ranges' reads): never cancels."""

    def __init__(self, at: int, action: Callable[[], None]) -> None:
        self.at, self.action, self.looks = at, action, 0

    def is_set(self) -> bool:
        self.looks += 1
        if self.looks == self.at:
            self.action()
        return False


WORDS = ("garden tomato bicycle repair lisbon trip parser crash meeting budget painting dog adopt school concert "
         "guitar recipe bread sourdough marathon training knee doctor python release deadline invoice").split()


def _notes(store: core.MemoryStore, n: int, seed: int, thread: str | None = None) -> None:
    rng = random.Random(seed)
    for i in range(n):
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 14)))
        if thread is None:
            store.store(f"note {seed}-{i}: {text}", dedup=False)
        else:
            store.store(text, "episodic", author="Ana", thread=thread, position=1000 * seed + i, dedup=False)


def test_the_keyword_index_build_lets_the_log_be_emptied_between_its_reads(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A warm process builds its keyword index for seconds to a minute (100k: ~15 s at load 8); in one read
    transaction, no writer could empty the log meanwhile. Between two term ranges nothing is held now."""
    monkeypatch.setattr(keyword_index, "READ_SECONDS", 0.0)  # a read per 16 terms: a look between two reads
    db = tmp_path / "memory.db"
    s = core.MemoryStore(db)
    _notes(s, 60, 1)
    seen: list[tuple[int, int, int]] = []
    base = keyword_index._build_base(db, core.FTS_WEIGHTS, _Between(5, lambda: seen.append(_log_emptied(db))))
    s.close()
    assert base is not None and base.nrow == 60
    assert seen == [(0, 0, 0)]


def test_a_keyword_index_built_while_rows_change_between_its_reads_equals_fts5(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows inserted, edited, forgotten and given new neighbours (a chat turn changes its neighbours'
    context) between the build's reads: after its first sync the index gives FTS5's rows and scores."""
    monkeypatch.setattr(keyword_index, "READ_SECONDS", 0.0)
    db = tmp_path / "memory.db"
    s = core.MemoryStore(db)
    _notes(s, 80, 2)
    _notes(s, 30, 3, thread="chat-1")
    other = core.MemoryStore(db)  # another writer, as another process would be

    def change() -> None:
        _notes(other, 25, 4)  # new rows (ids past the build's sizes)
        _notes(other, 6, 5, thread="chat-1")  # new turns: their neighbours' context changes
        other.update(3, "garden bicycle sourdough rewritten completely")
        other.forget(7)
        other.conn.execute("DELETE FROM memories WHERE id = 9")  # a hard delete (FTS row gone)

    index = keyword_index.KeywordIndex(db, core.FTS_WEIGHTS)
    base = keyword_index._build_base(db, core.FTS_WEIGHTS, _Between(6, change))
    assert base is not None
    index._next = base
    queries = [[w] for w in WORDS] + [["garden", "bicycle"], ["sourdough", "rewritten"], ["note"], ["python", "dog"]]
    w = ", ".join(str(x) for x in core.FTS_WEIGHTS)
    for words in queries:
        got = index.search(s.conn, words, 1000)
        assert got is not None, words
        match = " OR ".join(core.quote_fts(x) for x in words)
        ref = {int(r[0]): float(r[1]) for r in s.conn.execute(
            f"SELECT rowid, -bm25(memories_fts, {w}) FROM memories_fts WHERE memories_fts MATCH ?", (match,))}
        assert {r for r, _ in got} == set(ref), words
        for rid, score in got:
            assert score == pytest.approx(ref[rid], rel=1e-6), (words, rid)
    assert index.stats()["delta_rows"] > 25
    other.close()
    s.close()


def test_an_idle_mcp_server_holds_no_snapshot_between_calls(tmp_path: Path, runtime_dir: Path) -> None:
    """`mem mcp` between an agent's calls (seconds to hours): after each kind of call the log can be emptied
    (the server's warm store, its keyword index build and its checkpointer hold nothing meanwhile)."""
    pytest.importorskip("mcp")
    import anyio
    from mcp import Client, StdioServerParameters

    db = tmp_path / "memory.db"
    _fill(db, 40, size=120)
    env = {"MEM_EMBEDDER": os.environ["MEM_EMBEDDER"], "XDG_RUNTIME_DIR": str(runtime_dir),
           "XDG_CACHE_HOME": os.environ["XDG_CACHE_HOME"]}
    params = StdioServerParameters(command=sys.executable, args=[str(ROOT / "mem.py"), "--db", str(db), "mcp"],
                                   env=env, cwd=str(ROOT))
    calls = [("recall", {"query": "garden gate"}), ("store", {"content": "the NAS is named atlas"}),
             ("get", {"id": 1}), ("brief", {}), ("stats", {}), ("surface", {"utterance": "the VPN gateway"}),
             ("recall", {"query": "atlas", "k": 3})]
    seen: list[tuple[str, tuple[int, int, int]]] = []

    async def main() -> None:
        async with Client(params, read_timeout_seconds=120) as client:
            for name, args in calls:
                result = await client.call_tool(name, args)
                assert result.is_error is False, (name, result.content)
                seen.append((name, await anyio.to_thread.run_sync(_log_emptied, db)))

    anyio.run(main)
    assert seen == [(name, (0, 0, 0)) for name, _ in calls]


def test_an_idle_serve_holds_no_snapshot_between_handed_over_calls(tmp_path: Path, runtime_dir: Path) -> None:
    """`mem serve` between one-shot calls handed over its socket: after each kind, the log can be emptied."""
    db = tmp_path / "memory.db"
    _fill(db, 40, size=120)
    env = {k: v for k, v in os.environ.items() if k not in ("MEM_NO_SERVER", "PYTHONPATH")}
    env.update({"MEM_DB": str(db), "XDG_RUNTIME_DIR": str(runtime_dir)})
    proc = subprocess.Popen([sys.executable, str(ROOT / "mem.py"), "serve", "--json"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    seen = []
    calls = [["recall", "garden gate"], ["store", "the NAS is named atlas"], ["get", "1"], ["brief"], ["stats"],
             ["surface", "the VPN gateway"], ["forget", "2"], ["restore", "2"], ["recall", "atlas", "-k", "3"]]
    try:
        assert proc.stdout is not None and json.loads(proc.stdout.readline())["ok"] is True
        for args in calls:
            done = subprocess.run([sys.executable, str(ROOT / "mem.py"), *args], env=env, capture_output=True,
                                  text=True, timeout=120, cwd=ROOT)
            assert done.returncode == 0, (args, done.stderr)
            seen.append((args[0], _log_emptied(db)))
    finally:
        proc.terminate()
        proc.wait(timeout=60)
    assert seen == [(args[0], (0, 0, 0)) for args in calls]
