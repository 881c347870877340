"""The warm path: one-shot CLI calls handed to `mem serve` over its Unix socket, and the silent fallback.

Real processes: a `mem.py serve` subprocess and one-shot `mem.py` subprocesses. To prove a call
was answered by the server (and not in-process), the one-shot client runs with a `click` that
cannot be imported: a handed-over call exits before the CLI's imports, an in-process one fails.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def poison(tmp_path: Path) -> Path:
    """A folder whose `click` raises on import: on PYTHONPATH it breaks only the in-process CLI."""
    d = tmp_path / "poison" / "click"
    d.mkdir(parents=True)
    (d / "__init__.py").write_text("raise ImportError('in-process CLI used')\n")
    return d.parent


def _env(db: Path, runtime: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("MEM_NO_SERVER", "PYTHONPATH")}
    env.update({"MEM_DB": str(db), "XDG_RUNTIME_DIR": str(runtime)})
    env.update(extra)
    return env


def _cli(args: list[str], env: dict[str, str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "mem.py"), *args], env=env, input=stdin, capture_output=True,
                          text=True, timeout=120, cwd=ROOT)


def _envelope(res: subprocess.CompletedProcess[str]) -> dict:
    out = json.loads(res.stdout)
    out.pop("took_ms", None)
    return out


@pytest.fixture
def server(tmp_path: Path, runtime_dir: Path) -> Iterator[tuple[subprocess.Popen[str], dict, Path]]:
    db = tmp_path / "served.db"
    proc = subprocess.Popen([sys.executable, str(ROOT / "mem.py"), "serve", "--json"], env=_env(db, runtime_dir),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert proc.stdout is not None
    ready = json.loads(proc.stdout.readline())
    assert ready["ok"] is True, proc.stderr.read() if proc.stderr else ""
    yield proc, ready["data"], db
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=30)


def test_the_server_answers_with_the_same_json_as_in_process(server, tmp_path: Path, runtime_dir: Path,
                                                             poison: Path) -> None:
    proc, info, db = server
    sock = Path(info["socket"])
    assert info["db"] == str(db.resolve()) and sock.parent.parent == runtime_dir
    assert stat.S_IMODE(sock.stat().st_mode) == 0o600 and stat.S_IMODE(sock.parent.stat().st_mode) == 0o700
    warm = _env(db, runtime_dir, PYTHONPATH=str(poison))  # only the server can answer these
    alone = tmp_path / "alone.db"
    cold = _env(alone, runtime_dir, MEM_NO_SERVER="1")
    for args, stdin in ((["store", "Oscar prefers morning meetings", "--type", "semantic"], None),
                        (["store", "-", "--tag", "travel", "--at", "2024-05-02"], "Flew to Rome\n"),
                        (["store", "Oscar prefers morning meetings"], None)):  # deduplicated
        a, b = _cli(args, warm, stdin), _cli(args, cold, stdin)
        assert a.returncode == b.returncode == 0, a.stderr + b.stderr
        assert _envelope(a) == _envelope(b)
    # recall and get on the served file, through the server and in-process
    direct = _env(db, runtime_dir, MEM_NO_SERVER="1")
    for args in (["recall", "Oscar meetings", "--no-touch", "-k", "2"], ["get", "2"], ["recall", "Rome", "--explain",
                                                                                          "--no-touch"]):
        a, b = _cli(args, warm), _cli(args, direct)
        assert a.returncode == b.returncode == 0, a.stderr + b.stderr
        assert _envelope(a) == _envelope(b)
        assert a.stderr == b.stderr == ""
    missing = _cli(["get", "99"], warm)  # errors and exit codes come through too
    assert missing.returncode == 3 and _envelope(missing)["error"]["code"] == "not_found"
    usage = _cli(["recall", "x", "-k", "0"], warm)
    assert usage.returncode == 2 and _envelope(usage)["error"]["code"] == "usage"


def test_calls_fall_back_in_process_when_the_server_cannot_serve_them(server, runtime_dir: Path, poison: Path) -> None:
    proc, info, db = server
    poisoned = _env(db, runtime_dir, PYTHONPATH=str(poison))
    assert _cli(["stats"], poisoned).returncode == 0  # handed over
    for env in (_env(db, runtime_dir, PYTHONPATH=str(poison), MEM_NO_SERVER="1"),  # asked not to
                _env(db, runtime_dir, PYTHONPATH=str(poison), MEM_KEYWORD_INDEX="0")):  # another configuration
        res = _cli(["stats"], env)
        assert res.returncode == 1 and "in-process CLI used" in res.stderr
    plain = _cli(["stats", "--plain"], poisoned)  # people get the in-process rich output
    assert plain.returncode == 1 and "in-process CLI used" in plain.stderr
    other = _cli(["stats"], _env(db.with_name("other.db"), runtime_dir, PYTHONPATH=str(poison)))  # another file
    assert other.returncode == 1 and "in-process CLI used" in other.stderr


def test_a_killed_server_leaves_calls_working_in_process(server, runtime_dir: Path) -> None:
    proc, info, db = server
    env = _env(db, runtime_dir)
    stored = _cli(["store", "The disk on db-7 was full"], env)
    assert _envelope(stored)["data"] == {"id": 1, "deduplicated": False, "supersedes": []}
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert Path(info["socket"]).exists()  # stale: nobody listens
    res = _cli(["recall", "disk full", "--no-touch"], env)
    assert res.returncode == 0, res.stderr
    assert [r["id"] for r in _envelope(res)["data"]["results"]] == [1]
    stored = _cli(["store", "-"], env, stdin="Rebooted db-7\n")  # stdin read for the server reaches the fallback
    assert _envelope(stored)["data"] == {"id": 2, "deduplicated": False, "supersedes": []}
    assert _envelope(_cli(["get", "2"], env))["data"]["content"] == "Rebooted db-7"


def test_a_second_server_for_the_same_file_is_refused_and_sigterm_removes_the_socket(server, runtime_dir: Path) -> None:
    proc, info, db = server
    second = subprocess.run([sys.executable, str(ROOT / "mem.py"), "serve", "--json"], env=_env(db, runtime_dir),
                            capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert second.returncode == 6
    assert json.loads(second.stdout)["error"]["code"] == "locked"
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 0
    assert not Path(info["socket"]).exists()


def test_invalid_utf8_on_stdin_or_argv_gets_the_same_one_line_error_either_way(server, tmp_path: Path,
                                                                                runtime_dir: Path) -> None:
    proc, info, db = server
    results = []
    for env in (_env(db, runtime_dir), _env(db, runtime_dir, MEM_NO_SERVER="1")):
        cmd = [sys.executable, str(ROOT / "mem.py"), "store", "-"]
        res = subprocess.run(cmd, env=env, input=b"caf\xe9 au lait\n", capture_output=True, timeout=120, cwd=ROOT)
        arg = subprocess.run([sys.executable.encode(), str(ROOT / "mem.py").encode(), b"recall", b"caf\xe9"], env=env,
                             capture_output=True, timeout=120, cwd=ROOT)
        results.append([(r.returncode, json.loads(r.stdout)["error"]["code"]) for r in (res, arg)])
    assert results[0] == results[1] == [(1, "invalid_input"), (results[0][1][0], results[0][1][1])]
    assert results[0][1][0] != 0


def test_a_handed_over_call_imports_nothing_it_does_not_use(server, runtime_dir: Path) -> None:
    """Before the handover, the CLI loads only what the interpreter has and the two C modules it
    needs (a handed-over call is mostly interpreter start: ~10 ms of imports was a quarter of it)."""
    proc, info, db = server
    res = subprocess.run([sys.executable, "-X", "importtime", str(ROOT / "mem.py"), "stats", "--json"],
                         env=_env(db, runtime_dir), capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert res.returncode == 0 and json.loads(res.stdout)["ok"] is True
    imported = {line.split("|")[-1].strip() for line in res.stderr.splitlines() if line.startswith("import time:")}
    baseline = subprocess.run([sys.executable, "-X", "importtime", "-c", "pass"], capture_output=True, text=True,
                              timeout=120)
    before = {line.split("|")[-1].strip() for line in baseline.stderr.splitlines() if line.startswith("import time:")}
    # (_sha2 on Python >= 3.12, _sha256 before: the C sha256 that hashlib wraps)
    assert imported - before <= {"__future__", "memengine", "memengine.handoff", "_socket", "_sha2", "_sha256"}
    assert "memengine.handoff" in imported
