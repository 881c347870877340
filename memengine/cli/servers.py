"""The command line's servers: ``mem.py serve`` (one-shot calls handed over a socket) and ``mem.py mcp`` (MCP on
stdio), and the warm path they share: the store opened once and warmed, one call at a time on it
(memengine/serving.py), CLI calls run in process (:func:`run_captured`) or, for the MCP server's hot tools,
without the CLI's parser (:func:`run_direct`). Loaded when a server starts (memcli.LAZY_COMMANDS): a one-shot
call never imports it."""

from __future__ import annotations

import gc
import importlib
import inspect
import io
import os
import re
import sys
import threading
from collections.abc import Callable, Sequence
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import click

import memory_core as core
from memengine.cli.common import Ctx, current_ctx, emit, entry
from memengine.cli.errors import error_of
from memengine.cli.recall_body import recall_data
from memengine.serving import Calls

DEFAULT_GC_THRESHOLD = (700, 10, 10)  # CPython's: what a server's calls run with (mem.py raised it for one-shot calls)


def _commands() -> list[str]:
    """The command line's commands (the root group of the call running)."""
    ctx = click.get_current_context().find_root()
    return ctx.command.list_commands(ctx) if isinstance(ctx.command, click.Group) else []


# one call at a time on the warm store (socket callers and MCP tools alike), checkpoints between
# calls, a recall's reinforcement after its reply (memengine/serving.py)
_CALLS = Calls()
_RUN_LOCK = _CALLS.lock


def run_captured(argv: list[str], stdin: bytes | None = None, defer: bool = False) -> tuple[int, str, str]:
    """Run the CLI in this process on the warm store as a one-shot call would: (exit code, stdout, stderr).

    ``defer``: the caller runs ``_CALLS.after_reply()`` once the reply is out (memengine/serving.py)."""
    from memengine import handoff

    out, err = io.StringIO(), io.StringIO()
    code = 0
    with _CALLS.one(defer):
        db = _CALLS.path  # (a call reads the store inside one(): it reopens it if its file was replaced)
        saved_stdin = sys.stdin
        sys.stdin = handoff.stdin_from(stdin or b"")
        try:
            with redirect_stdout(out), redirect_stderr(err):
                try:
                    entry()(["--db", str(db), *argv])
                except SystemExit as exc:
                    code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
                except Exception:  # a bug: what the one-shot process would print, and its exit status
                    import traceback

                    err.write(traceback.format_exc())
                    code = 1
        finally:
            sys.stdin = saved_stdin
    return code, out.getvalue(), err.getvalue()


def _choice(value: str, choices: Sequence[str], option: str) -> None:
    """click's refusal of a value outside ``choices`` (a usage error, exit 2), for calls that skip click."""
    if value not in choices:
        raise click.UsageError(f"Invalid value for '{option}': {value!r} is not one of "
                               f"{', '.join(repr(c) for c in choices)}.")


def _recall_direct(s: core.MemoryStore, args: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    _choice(args.get("strategy", "hybrid"), core.ALL_STRATEGIES, "--strategy")
    for t in args.get("types", ()):
        _choice(t, core.MEMORY_TYPES, "--type")
    data, warnings, _ = recall_data(s, **args)
    return data, warnings


DIRECT: dict[str, Callable[[core.MemoryStore, dict[str, Any]], tuple[dict[str, Any], list[str]]]] = {
    "recall": _recall_direct,
}


def run_direct(command: str, args: dict[str, Any], defer: bool = False) -> tuple[int, dict[str, Any]]:
    """Run a command of :data:`DIRECT` on the warm store without the CLI's parser and JSON round
    trip (the MCP server's hot tools): (exit code, the envelope ``--json`` prints, without
    ``command``/``took_ms``), with the same data, warnings and error codes as the CLI call
    (``defer``: as for :func:`run_captured`)."""
    with _CALLS.one(defer):
        try:
            warm = Ctx.warm_store
            if _CALLS.refused is not None or warm is None:
                raise (_CALLS.refused or core.IOFailure(f"{_CALLS.path}: not open")).with_traceback(None)
            data, warnings = DIRECT[command](warm, args)
        except (Exception, KeyboardInterrupt) as exc:
            code, message, exit_code = error_of(exc, _CALLS.path)
            return exit_code, {"ok": False, "error": {"code": code, "message": message}}
    envelope: dict[str, Any] = {"ok": True, "data": data}
    if warnings:
        envelope["warnings"] = warnings
    return 0, envelope


def _new_warm_store(db: Path | None) -> tuple[core.MemoryStore, Callable[[], None]]:
    """Open the store for a server (checkpointer, file watch) and the function that warms it (under the lock)."""
    from memengine.db import opened_read_only
    from memengine.storewatch import StoreWatch
    from memengine.walcheckpoint import Checkpointer

    Ctx.serving = _CALLS
    s = core.MemoryStore(db, fast_start=False)
    Ctx.warm_store = s
    _CALLS.path = s.path
    watch = StoreWatch(s.path, s.conn)
    def fresh() -> None:
        change = watch.check(s.conn)
        if change is not None:  # "replaced" (another file at the path) or "restored" (a backup copied into it)
            _reopen_warm(s, same_file=change == "restored")

    _CALLS.fresh = fresh
    # WAL checkpoints on a thread of their own, not in the commit of whichever call crosses the line; it
    # also looks at the path, and a file replaced there is reopened at once, not at the next call
    _CALLS.checkpointer = Checkpointer(s.path, s.conn, on_replaced=_CALLS.check_now)
    _CALLS.checkpointer.start()
    # a store that cannot take the write reinforces inside the call: its warning is in the reply
    _CALLS.deferring = not opened_read_only(s.path) and os.access(s.path, os.W_OK)

    def warm() -> None:
        with _RUN_LOCK:
            s.warm_up()
            s.recall("warm up", k=1, touch=False)  # loads the embedding model now, not in the first call
            preload_recall(s)
            preload_writes(s)
            preload_brief()
            # what the warm-up built lives as long as the server: out of the collector's sight, so
            # that no call pays for a full collection over it (~100k objects: 15-30 ms)
            gc.collect()
            gc.freeze()
            gc.set_threshold(*DEFAULT_GC_THRESHOLD)  # (mem.py raised it for one-shot calls)
    return s, warm


# a function-level import: ``from memengine[.x] import a, b`` (also in parentheses)
_LAZY_IMPORT = re.compile(r"^[ \t]+from (memengine(?:\.\w+)*) import (\([^)]*\)|[^\n]*)", re.M)
_TOP_IMPORT = re.compile(r"^from (memengine(?:\.\w+)*) import (\([^)]*\)|[^\n]*)", re.M)  # (the same at a file's top)


# questions of the shapes recall's steps read (a time, an amount, the value first said), asked once at warm-up
WARM_QUESTIONS = ("When did we move it, and how much was it at first?",)

# where a store's work begins: the modules a write runs (writes.py's dedup and supersession, a live thread's
# episodes, the reply's rendering); what they import inside functions is followed from their source
WRITE_MODULES = ("memengine.writes", "memengine.supersession", "memengine.chat_episodes", "memengine.cli.facts")

# where a brief's work begins (graph_rank imports the selection when a brief runs)
BRIEF_MODULES = ("memengine.graph_rank", "memengine.brief")

# an older fact and its update (a new value for its slot), decided once at warm-up (in memory, nothing written)
WARM_FACTS = (("The wifi password is tiger-42", "The wifi password is now tiger-43"),)


def _imports_in(path: Path, top: bool = False) -> set[str]:
    """The memengine modules (or names of them) the file at ``path`` imports inside its functions (``top``:
    at its top too)."""
    out: set[str] = set()
    text = path.read_text(encoding="utf-8")
    for module, names in _LAZY_IMPORT.findall(text) + (_TOP_IMPORT.findall(text) if top else []):
        if module != "memengine":
            out.add(module)
            continue
        for name in names.strip("()").replace("\n", " ").split(","):
            if name.split():
                out.add(f"memengine.{name.split()[0]}")
    return out


def recall_imports() -> list[str]:
    """The memengine modules the recall package imports inside its functions, read from its source: its
    steps import what they need when they first run, so that a one-shot call never pays for a step it
    does not run."""
    from memengine import recall

    out: set[str] = set()
    for path in sorted(Path(recall.__file__).parent.glob("*.py")):
        out |= _imports_in(path)
    return sorted(out)


def _followed(start: Sequence[str], top: bool = False) -> list[str]:
    """``start`` and, transitively, the memengine modules each imports inside its functions (``top``: at its top
    too), read from the source, so that a new step's module is found without a list to keep."""
    root = Path(__file__).resolve().parents[2]
    seen: set[str] = set()
    todo = list(start)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        path = root.joinpath(*name.split(".")).with_suffix(".py")
        if path.is_file():  # (``from memengine import f`` names a function: nothing to read)
            todo += sorted(_imports_in(path, top) - seen)
    return sorted(m for m in seen if root.joinpath(*m.split(".")).with_suffix(".py").is_file())


def write_imports() -> list[str]:
    """The memengine modules a store may import on first use: :data:`WRITE_MODULES` and what they import
    inside functions, transitively (supersession's rules import the fact modules they ask)."""
    return _followed(WRITE_MODULES)


def brief_imports() -> list[str]:
    """The memengine modules a brief may import on first use: :data:`BRIEF_MODULES` and what they import, at
    their top (the selection's helpers) or inside functions, transitively."""
    return _followed(BRIEF_MODULES, top=True)


def _load_modules(names: Sequence[str]) -> None:
    """Import ``names`` and build their tables of no argument (cached builders: lexicons, patterns)."""
    for name in names:
        try:
            module = importlib.import_module(name)
        except ImportError:  # (``from memengine import f``: a function, not a module)
            continue
        for fn in list(vars(module).values()):
            # a table built on first use (a cached function of no argument: a lexicon, its patterns)
            if callable(fn) and hasattr(fn, "cache_info") and getattr(fn, "__module__", None) == name \
                    and not inspect.signature(fn).parameters:
                fn()


def preload_recall(s: core.MemoryStore) -> None:
    """What a recall loads on first use, loaded while a server warms up instead of inside an agent's first
    calls: the modules of the recall steps (the first recall that ran the update steps imported ~15
    modules, ~55 ms of CPU at 100k) and ``tokenizers``' tokenizer, which embeds the non-ASCII queries
    (~30 ms, in the first call that asked "café"). Results are unchanged: only when the cost is paid moves."""
    from memengine import recall

    folder = Path(recall.__file__).parent
    names = [f"memengine.recall.{p.stem}" for p in sorted(folder.glob("*.py")) if p.stem != "__init__"]
    _load_modules([*names, *recall_imports()])
    for question in WARM_QUESTIONS:  # the question-shape patterns, compiled on first use
        s.recall(question, k=10, touch=False)
    load = getattr(s.embedder, "load_tokenizer", None)  # (an embedder without one tokenizes all in one way)
    if load is not None:
        try:
            load()
        except Exception:  # (the call that needs it says why, as it did before)
            pass


def preload_writes(s: core.MemoryStore) -> None:
    """What a store loads on first use, loaded at warm-up: the modules of the write path (:func:`write_imports`:
    a first fact's supersession imported ~40 modules and compiled their patterns, ~50-100 ms of CPU in an
    agent's first ``store``), then one decision of :data:`WARM_FACTS` by ``supersession.plan`` (the patterns its
    rules compile on first use), in memory: nothing is written, no result changes (every cache on the way is of a
    pure function of its text)."""
    from memengine import facts, supersession
    from memengine.timeparse import to_iso, utcnow

    _load_modules(write_imports())
    now = to_iso(utcnow()) or ""
    emb = s.embedder
    for old, new in WARM_FACTS:
        facts.same_fact(old, new)
        supersession.query_terms(new)
        vecs = s.embed_or_none([old, new])
        cos = {-1: float(vecs[0] @ vecs[1])} if vecs is not None else {}
        supersession.plan(0, new, now, [((-1, old, now, "agent"), cos.get(-1))], new_source="agent", cosines=cos,
                          embed=s.embed_or_none, model_id=emb.model_id if emb is not None else None)


def preload_brief() -> None:
    """What a brief loads on first use, loaded at warm-up (an agent's session starts with one): the modules of
    the selection, its helpers', and their tables of no argument (the language word lists, patterns). No
    brief is made (it reads the whole store): only the imports and tables move, no result changes."""
    _load_modules(brief_imports())


def _reopen_warm(old: core.MemoryStore, same_file: bool = False) -> None:
    """The file at the store's path was replaced (memengine/storewatch.py): close every connection to the
    old one first (the last close folds its log and removes the -wal the new file must not inherit), then
    open and warm the new one, before the call that noticed runs. ``same_file``: a backup was restored into
    the file in place (memengine/restore.py): its log is the file's own, only what is in memory is stale."""
    from memengine.storewatch import empty_old_log

    if _CALLS.checkpointer is not None:  # (first: its checkpoint of the old log would keep the one below out)
        _CALLS.checkpointer.close()
        _CALLS.checkpointer = None
    if not same_file:
        empty_old_log(old.path, old.conn)  # (MemError if another process keeps the old file's log: refused, retried)
    _CALLS.drop_later()  # (a reinforcement for the content replaced)
    old.close()
    Ctx.warm_store = None
    what = "restored from a backup" if same_file else "replaced"
    print(f"mem: {old.path} was {what} while serving; reopening it", file=sys.__stderr__, flush=True)
    _CALLS.fresh = lambda: _new_warm_store(old.path)[1]()  # (if the new file fails to open: each call tries again)
    _CALLS.fresh()


def _open_warm(background: bool = False) -> core.MemoryStore:
    """Open the store once for a server and warm it (matrices, keyword index, the model)."""
    s, warm = _new_warm_store(current_ctx().db)
    if background:  # the MCP handshake must not wait; the first call does (it takes the lock)
        threading.Thread(target=warm, name="mem-warm-up", daemon=True).start()
    else:
        warm()
    return s


def _socket_server(s: core.MemoryStore) -> Any:
    from memengine import handoff, handoff_server

    try:
        server = handoff_server.Server(s.path, lambda argv, stdin: run_captured(argv, stdin, defer=True),
                                       after_reply=_CALLS.after_reply)
        server.bind()
    except handoff.HandoffError as exc:
        raise core.LockedError(str(exc)) from exc
    return server


@click.command()
def serve() -> None:
    """Keep the memory file open and warm: one-shot calls (JSON output) hand themselves to it.

    Listens on an owner-only Unix socket for this database file only (no network); a
    `mem.py recall ... --json` then answers in milliseconds instead of ~0.4 s, with the
    same output. Calls fall back to running in-process when no server answers.
    Stop it with Ctrl-C or SIGTERM. MEM_NO_SERVER=1 keeps a call in-process.

    \b
    Example:
      mem.py serve &     # then: mem.py recall "deploy rules" --json
    """
    import signal

    s = _open_warm()
    server = _socket_server(s)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    emit({"socket": str(server.path), "db": str(s.path), "pid": os.getpid()},
         lambda: click.echo(f"serving {s.path} on {server.path} (Ctrl-C stops)"))
    sys.stdout.flush()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
        _CALLS.close()


@click.command()
@click.option("--no-socket", is_flag=True, help="Do not also serve one-shot CLI calls over the local socket.")
def mcp(no_socket: bool) -> None:
    """Run the MCP server on stdio, for Claude Desktop, Claude Code and other MCP hosts.

    Tools: store, recall, get, forget, restore, update, pin, unpin, brief, surface, link, stats. The store is
    opened once and warmed; one-shot CLI calls for the same file are served too (see serve).

    \b
    Example (Claude Code):
      claude mcp add mem -- mem --db ~/agent/memory.db mcp
    """
    from memengine import handoff, mcp_server

    s = _open_warm(background=True)
    server = None
    if not no_socket:
        try:
            server = _socket_server(s)
            server.start()
        except (core.MemError, handoff.HandoffError) as exc:
            click.echo(f"mem mcp: one-shot calls not served ({exc})", err=True)
            server = None
    choices = {"memory_types": core.MEMORY_TYPES, "strategies": core.ALL_STRATEGIES, "edge_types": core.EDGE_TYPES}
    try:
        mcp_server.run_stdio(run_captured, choices, update_tools="update" in _commands(),
                             direct=run_direct, lock=_RUN_LOCK, after_reply=_CALLS.after_reply)
    finally:
        if server is not None:
            server.close()
        _CALLS.close()
