"""Shared fixtures: every test gets its own memory file and the fast fake embedder.

The fake (``HashEmbedder``) sits behind the real ``Embedder`` interface, so results
are exact and fast; tests marked ``real_model`` load the real MiniLM ONNX model.
``run_cli`` runs the CLI in this process (fast); ``run_cli_subprocess`` in a real one.
"""

from __future__ import annotations

import contextlib
import gc
import os
import shutil
import subprocess
import sys
import tempfile
import traceback
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click import formatting as click_formatting
from click.testing import CliRunner
from hypothesis import settings

# Hypothesis' per-example deadline (200 ms) is a wall-clock assertion: on a loaded 2-core machine a
# correct example can take longer. Tests never time the machine, so no deadline anywhere.
settings.register_profile("mem", deadline=None)
# Under CI (CI=true, as .ci/run sets it) the same examples every run: a property test that fails there fails on
# every run of that tree, never 1 run in 30, and no example database carries one run's finds into the next.
# Elsewhere the search stays random, so a developer's runs keep looking for new failures.
settings.register_profile("ci", deadline=None, derandomize=True, database=None, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI", "").lower() in ("1", "true", "yes") else "mem")

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = ROOT.parent / "shared" / "data"
sys.path.insert(0, str(ROOT))

_RUNNER = CliRunner()
# The warning filters a fresh interpreter starts with (python -W default/-X dev aside), first match wins.
_INTERPRETER_FILTERS: list[tuple[str, type[Warning], str]] = [
    ("default", DeprecationWarning, "__main__"), ("ignore", DeprecationWarning, ""),
    ("ignore", PendingDeprecationWarning, ""), ("ignore", ImportWarning, ""), ("ignore", ResourceWarning, "")]


def _print_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                   file: object = None, line: str | None = None) -> None:
    sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """An xdist worker's last tests and fixtures are done: the objects they left (~500k) are kept out of every
    later collection. pytest's unraisable-exception check collects them all at unconfigure, after the controller
    has asked the worker to exit (1.5-3 s each at load 12); past 5 s execnet sends the worker a SIGINT, which
    lands in that collection (in hypothesis' gc callback) and prints a KeyboardInterrupt traceback into the log."""
    del session
    if os.environ.get("PYTEST_XDIST_WORKER"):
        gc.freeze()


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEM_DB", str(tmp_path / "memory.db"))
    monkeypatch.setenv("MEM_EMBEDDER", os.environ.get("MEM_TEST_EMBEDDER", "hash"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "memory.db"


@pytest.fixture
def store(db_path: Path):
    import memory_core

    s = memory_core.MemoryStore(db_path)
    yield s
    s.close()


def run_cli(*args: str, input: str | None = None, env: dict[str, str] | None = None, timeout: float = 60,
            cwd: str | Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``mem.py ARGS`` in this process, as a subprocess would: same contract as :func:`run_cli_subprocess`.

    click's ``CliRunner`` swaps stdin/stdout/stderr for in-memory streams (not terminals, so
    the JSON envelope is the default, as through a pipe) and sets ``env`` for the call only.
    ``mem.main`` runs whole: its error mapping and ``sys.exit`` codes become ``returncode``;
    an uncaught exception becomes a traceback on stderr and exit code 1, as Python does.
    Each call starts from the interpreter's warning filters and the working directory the
    subprocess had (``cwd``, default the repo root). ``timeout`` is accepted for the same
    signature; only the subprocess enforces it.
    """
    del timeout
    import mem

    code = 0
    argv = [str(ROOT / "mem.py"), *args]
    saved_cwd, saved_argv = os.getcwd(), sys.argv
    with _RUNNER.isolation(input=input, env=env) as (out, err, _mixed):
        sys.argv = argv  # the program name in usage lines comes from argv[0], as in `python mem.py ...`
        # A subprocess sizes help from COLUMNS or the terminal; the runner forces 80.
        click_formatting.FORCED_WIDTH = None
        os.chdir(cwd if cwd is not None else ROOT)
        try:
            with warnings.catch_warnings():
                # pytest records warnings; a subprocess prints them to stderr under the default filters
                # (changing the filters also forgets which warnings were already shown).
                warnings.resetwarnings()
                for action, category, module in _INTERPRETER_FILTERS:
                    warnings.filterwarnings(action, category=category, module=module, append=True)  # type: ignore[arg-type]
                warnings.showwarning = _print_warning
                try:
                    mem.main(list(args))
                except SystemExit as exc:
                    code = _exit_status(exc.code)
                except BaseException:  # what an uncaught error does to a real process
                    traceback.print_exc(file=sys.stderr)
                    code = 1
        finally:
            os.chdir(saved_cwd)
            sys.argv = saved_argv
            sys.stdout.flush()
            sys.stderr.flush()
    return subprocess.CompletedProcess([sys.executable, *argv], code,
                                       out.getvalue().decode("utf-8"), err.getvalue().decode("utf-8", "replace"))


def _exit_status(code: object) -> int:
    """The process exit status ``sys.exit(code)`` gives: None is 0, an int itself, anything else printed and 1."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def run_cli_subprocess(*args: str, input: str | None = None, env: dict[str, str] | None = None,
                       timeout: float = 60, cwd: str | Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``mem.py`` in a real subprocess (JSON output, since stdout is a pipe).

    For tests where the process boundary is the point: kill -9, concurrency, cold start,
    the interpreter and its environment, OS-level stdin.
    """
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    return subprocess.run([sys.executable, str(ROOT / "mem.py"), *args], input=input, capture_output=True,
                          text=True, env=full_env, timeout=timeout, cwd=str(cwd if cwd is not None else ROOT))


@pytest.fixture
def runtime_dir() -> Iterator[Path]:
    """A runtime folder for servers' sockets, under /tmp: a Unix socket path must fit in ~104 bytes,
    and pytest's tmp_path may not (tests of handoff, MCP and the transport share it)."""
    d = Path(tempfile.mkdtemp(prefix="mem-rt-", dir="/tmp"))
    yield d
    shutil.rmtree(d, ignore_errors=True)


_WRITE_LOCK_HOLDER = """
import sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN IMMEDIATE")
c.execute("INSERT OR REPLACE INTO _mem_meta(key, value) VALUES ('held', '1')")
print("holding", flush=True)
sys.stdin.read()
c.execute("ROLLBACK")
"""


def stored(db: Path, texts: list[str]) -> None:
    """``texts`` stored one by one into ``db`` (no duplicate merging), the store closed again."""
    import memory_core as core

    s = core.MemoryStore(db)
    try:
        for text in texts:
            s.store(text, dedup=False)
    finally:
        s.close()


def pair_outcome(db: Path, old: str, new: str, embedder: object) -> tuple[bool, bool]:
    """``old`` then ``new`` stored into a new store at ``db`` with ``embedder``: whether the newer superseded
    the older, and whether it was merged into it as a duplicate."""
    import memory_core as core

    s = core.MemoryStore(db, embedder=embedder)
    try:
        first = s.store(old).id
        res = s.store(new)
        return first in res.supersedes, res.deduplicated
    finally:
        s.close()


def held_out_chat_rows(name: str, flag: str) -> list[dict[str, Any]]:
    """bench/data/<name>.jsonl checked well formed: >= 60 questions with unique ids, >= 15 multi-hop, >= 10 about
    a changed value, >= 20 carrying ``flag``, >= 4 chats, and every evidence / outdated snippet on exactly one
    line of its chat. Returns the rows for the round's own checks."""
    import json

    root = Path(__file__).resolve().parent.parent
    rows = [json.loads(line) for line in (root / f"bench/data/{name}.jsonl").read_text().splitlines()]
    assert len(rows) >= 60 and len({r["id"] for r in rows}) == len(rows)
    assert sum(r["category"] == "multi-hop" for r in rows) >= 15
    assert sum(r.get("kind") == "update" for r in rows) >= 10
    assert sum(bool(r.get(flag)) for r in rows) >= 20
    assert len({r["file"] for r in rows}) >= 4
    for r in rows:
        lines = (root / f"bench/data/{name}" / r["file"]).read_text(encoding="utf-8").splitlines()
        assert len(r["evidence"]) == len(r["evidence_text"])
        assert len(r.get("outdated", [])) == len(r.get("outdated_text", []))
        for snippet in [*r["evidence_text"], *r.get("outdated_text", [])]:
            assert sum(snippet in line for line in lines) == 1, (r["id"], snippet)
    return rows


def assert_held_out_refs(store: Any, name: str) -> None:
    """Each chat of bench/data/<name> imported into ``store``: every evidence / outdated ref of the set's
    questions is the importer's ref of a memory holding its snippet."""
    import json

    from memengine import ingest

    root = Path(__file__).resolve().parent.parent
    for path in sorted((root / f"bench/data/{name}").glob("*.txt")):
        ingest.import_path(store, path)
    for line in (root / f"bench/data/{name}.jsonl").read_text().splitlines():
        r = json.loads(line)
        pairs = [*zip(r["evidence"], r["evidence_text"]), *zip(r.get("outdated", []), r.get("outdated_text", []))]
        for ref, snippet in pairs:
            got = store.conn.execute("SELECT content FROM memories WHERE ref = ?", (ref,)).fetchone()
            assert got is not None and snippet in got[0], (r["id"], ref)


def pair_links(db: Path, old: str, new: str, embedder: object) -> tuple[bool, bool]:
    """``old`` then ``new`` stored into a new store at ``db`` with ``embedder``: whether the newer superseded
    the older, and whether it flagged it ``may_update`` instead."""
    import memory_core as core

    s = core.MemoryStore(db, embedder=embedder)
    try:
        first = s.store(old).id
        res = s.store(new)
        return first in res.supersedes, first in (getattr(res, "may_update", None) or [])
    finally:
        s.close()


@pytest.fixture(scope="session")
def real(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """The real MiniLM embedder, loaded once per test process (the fact tests that need the model share it)."""
    from embedder import OnnxEmbedder

    return OnnxEmbedder(cache_dir=tmp_path_factory.mktemp("model-cache"))


@contextlib.contextmanager
def write_lock_held(db: Path) -> Iterator[subprocess.Popen[str]]:
    """Another program holding ``db``'s write lock (an open write transaction) for the block's length."""
    holder = subprocess.Popen([sys.executable, "-c", _WRITE_LOCK_HOLDER, str(db)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        yield holder
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=60)


def cand(mid: int, author: str, text: str, position: int, when: str, score: float, thread: str = "t") -> Any:
    """A recall candidate of a hand-written chat turn ("Author: text") with its fused ``score`` (recall unit tests)."""
    from memengine.records import Candidate

    c = Candidate((mid, f"{author}: {text}", author, thread, position, when, "{}", 1.0, 0.5))
    c.score = score
    return c


def turns_after(thread: list[Any]):  # type: ignore[no-untyped-def]
    """A ``next_turns`` / ``later_turns`` over one hand-written thread (as the store's indexed range read gives
    them): each seed's turns within ``span`` positions after it."""
    def next_turns(seeds: list[Any], span: int) -> dict[int, list[Any]]:
        return {s.id: [c for c in thread if s.position is not None and c.position is not None
                       and s.position < c.position <= s.position + span] for s in seeds}
    return next_turns


def chat_turns(store: Any, thread: str, turns: list[tuple[str, str, str]]) -> list[int]:
    """Store ``(ISO time, author, text)`` chat turns of one thread as episodic memories ("Author: text"), every
    one kept (no dedup); their ids in order (the brief's tests of plans and reactions)."""
    from datetime import datetime

    return [store.store(f"{who}: {text}", "episodic", thread=thread, author=who, event_at=datetime.fromisoformat(at),
                        dedup=False).id for at, who, text in turns]


def exported(db: Path, out: Path) -> list[dict[str, Any]]:
    """``mem.py export`` of ``db`` through the CLI, written to ``out`` (for an import) and parsed line by line."""
    import json

    p = run_cli("--db", str(db), "export")
    assert p.returncode == 0, p.stderr
    out.write_text(p.stdout, encoding="utf-8")
    return [json.loads(line) for line in p.stdout.splitlines() if line.strip()]
