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
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
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


def _cli(db: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """A one-shot CLI run in its own process, never handed over."""
    env = {**os.environ, "MEM_NO_SERVER": "1"}
    return subprocess.run([sys.executable, str(ROOT / "mem.py"), "--db", str(db), *argv, "--json"], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def _served_store(db: Path, content: str) -> int:
    got = handoff.try_handoff(["--db", str(db), "store", content, "--json"])
    assert got is not None and got[0] == 0, got
    return int(json.loads(got[1])["data"]["id"])


def _contents(db: Path) -> set[str]:
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return {r[0] for r in conn.execute("SELECT content FROM memories")}
    finally:
        conn.close()


@pytest.mark.parametrize("first", ["server", "cli"])
def test_a_file_replaced_under_the_server_is_reopened(tmp_path: Path, runtime_dir: Path,
                                                      monkeypatch: pytest.MonkeyPatch, first: str) -> None:
    """A backup put back with os.replace (a new inode at the path): the server notices (at its next call, or
    on its own within 0.5 s: then the old file's log is emptied before the CLI opens the new file), closes
    the old file and serves the new one: nothing stored afterwards, through it or the CLI, is lost."""
    db = tmp_path / "served.db"
    _filled(db)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime_dir))
    monkeypatch.delenv("MEM_NO_SERVER", raising=False)
    proc = _served(db, runtime_dir)
    try:
        _served_store(db, "Before the backup: the VPN moved to wg0")
        assert _cli(db, "store", "Before the backup, from the CLI: the NAS is named atlas").returncode == 0
        copy = tmp_path / "copy.db"
        assert _cli(db, "backup", str(copy)).returncode == 0
        _served_store(db, "After the backup, lost by the restore: the printer is on floor 3")
        assert _wal_size(db) > 0  # (the old file's log, which SQLite would replay into the new file)
        os.replace(copy, db)  # the restore
        if first == "cli":
            assert poll(lambda: _wal_size(db) == 0), _wal_size(db)  # the server emptied it by itself
            done = _cli(db, "store", "After the restore, from the CLI: backups run at 02:00")
            assert done.returncode == 0, done.stderr
        _served_store(db, "After the restore: the staging host is kiwi")
        if first == "server":
            assert _cli(db, "store", "After the restore, from the CLI: backups run at 02:00").returncode == 0
        got = handoff.try_handoff(["--db", str(db), "recall", "backups 02:00 staging kiwi", "-k", "10", "--json"])
        assert got is not None and got[0] == 0
        found = {r["content"] for r in json.loads(got[1])["data"]["results"]}
        assert {"After the restore: the staging host is kiwi", "After the restore, from the CLI: backups run at 02:00"} <= found
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
    assert proc.returncode == 0
    assert proc.stderr is not None and "was replaced while serving" in proc.stderr.read()
    contents = _contents(db)
    assert {"Before the backup: the VPN moved to wg0", "Before the backup, from the CLI: the NAS is named atlas",
            "After the restore: the staging host is kiwi", "After the restore, from the CLI: backups run at 02:00"} <= contents
    assert "After the backup, lost by the restore: the printer is on floor 3" not in contents
    assert len(contents) == len(FACTS) + 4


def test_compact_and_imports_while_serving_lose_nothing(tmp_path: Path, runtime_dir: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """compact (VACUUM, in place: the schema cookie moves, the inode stays) and an import by other processes:
    the server serves on, and every memory stored by anyone is in the file and found by its recalls."""
    db = tmp_path / "served.db"
    _filled(db)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime_dir))
    monkeypatch.delenv("MEM_NO_SERVER", raising=False)
    proc = _served(db, runtime_dir)
    lines = tmp_path / "notes.jsonl"
    lines.write_text("".join(json.dumps({"content": f"Imported note {i}: rack {i} holds the zeppelin switch"}) + "\n"
                             for i in range(30)))
    try:
        ids = [_served_store(db, "Served before compact: the DNS is on pihole")]
        assert _cli(db, "forget", str(ids[0] - 1)).returncode == 0
        done = _cli(db, "compact")
        assert done.returncode == 0, done.stderr
        ids.append(_served_store(db, "Served after compact: the proxy is squid"))
        assert _cli(db, "import", str(lines)).returncode == 0
        got = handoff.try_handoff(["--db", str(db), "recall", "zeppelin switch rack 7", "-k", "3", "--json"])
        assert got is not None and got[0] == 0
        assert json.loads(got[1])["data"]["results"][0]["content"] == "Imported note 7: rack 7 holds the zeppelin switch"
        got = handoff.try_handoff(["--db", str(db), "get", str(ids[1]), "--json"])
        assert got is not None and json.loads(got[1])["data"]["content"] == "Served after compact: the proxy is squid"
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
    assert proc.stderr is not None and "replaced" not in proc.stderr.read()  # (in place: nothing to reopen)
    assert len(_contents(db)) == len(FACTS) + 2 + 30


def test_a_file_migrated_by_a_newer_mem_is_refused_by_the_running_server(tmp_path: Path, runtime_dir: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A newer mem's migration lands while the server runs: every call is refused with newer_schema (exit 11),
    one line, as this version's one-shot run refuses the file; nothing is written with stale assumptions."""
    db = tmp_path / "served.db"
    _filled(db)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime_dir))
    monkeypatch.delenv("MEM_NO_SERVER", raising=False)
    proc = _served(db, runtime_dir)
    try:
        _served_store(db, "Before the upgrade: the wiki is on bookstack")
        _migrate_newer(db)
        before = _contents(db)
        for argv in (["store", "After the upgrade: must not be written"], ["recall", "wiki"], ["stats"]):
            got = handoff.try_handoff(["--db", str(db), *argv, "--json"])
            assert got is not None and got[0] == 11, (argv, got)
            err = json.loads(got[1])["error"]
            assert err["code"] == "newer_schema" and "m999_future" in err["message"] and "\n" not in err["message"]
        alone = _cli(db, "stats")  # this version in-process: the same refusal
        assert alone.returncode == 11 and json.loads(alone.stdout)["error"]["code"] == "newer_schema"
        assert _contents(db) == before
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)


def _migrate_newer(db: Path) -> None:
    newer = sqlite3.connect(db, timeout=10, isolation_level=None)  # what a newer mem's migration does
    try:
        newer.execute("BEGIN IMMEDIATE")
        newer.execute("CREATE TABLE future_things (id INTEGER PRIMARY KEY, what TEXT)")
        newer.execute("INSERT INTO _mem_migrations(name, applied_at) VALUES ('m999_future', '2027-01-01T00:00:00Z')")
        newer.execute("COMMIT")
    finally:
        newer.close()


def test_the_mcp_server_refuses_its_tools_once_a_newer_mem_migrated_the_file(tmp_path: Path, runtime_dir: Path) -> None:
    import anyio
    from mcp import Client, StdioServerParameters

    db = tmp_path / "m.db"
    _filled(db)
    env = {**os.environ, "MEM_DB": str(db), "XDG_RUNTIME_DIR": str(runtime_dir)}
    params = StdioServerParameters(command=sys.executable, args=[str(ROOT / "mem.py"), "mcp", "--no-socket"], env=env,
                                   cwd=str(ROOT))

    async def steps() -> list[tuple[bool, dict]]:
        async with Client(params, read_timeout_seconds=120) as client:
            ok = await client.call_tool("recall", {"query": "postgres", "k": 3})
            assert not ok.is_error, ok.content
            _migrate_newer(db)
            out = []
            for name, args in (("recall", {"query": "postgres", "k": 3}), ("store", {"content": "must not land"})):
                res = await client.call_tool(name, args)
                out.append((res.is_error, json.loads(res.content[0].text)))
            return out

    for is_error, error in anyio.run(steps):
        assert is_error and error["code"] == "newer_schema" and error["exit_code"] == 11, error
        assert "m999_future" in error["message"]
    assert "must not land" not in _contents(db)
