"""What an agent pays per memory call: one-shot CLI, MCP round trip, CLI handed to a warm server.

    .venv/bin/python bench/agent_latency.py [--sizes 10000,100000] [--runs 40] [--reuse /tmp/mem-agent-lat]
    .venv/bin/python bench/agent_latency.py --store /tmp/scl/scale-100000.v1.db [--runs 40]   # a real-text store
    .venv/bin/python bench/agent_latency.py --store DB --base /tmp/mem-base   # an older checkout, call by call

``--store DB`` measures an existing store (its copy: MCP recalls reinforce what they return)
with LoCoMo questions (bench/common.py's load_locomo, as scale.py asks them), e.g. scale.py's
100k LoCoMo-turn store, whose vectors are the real model's.

For each size, a database of synthetic notes (bench/latency.py's templates) whose stored
vectors are random unit vectors carrying the real model's id (embedding 100k texts with
MiniLM takes ~10 min on two cores; kNN cost does not depend on vector content). Queries
are embedded by the real model in every mode. Measured, p50 / p95 over ``--runs`` recalls
(``recall QUERY --json --no-touch``, k=10, hybrid):

* **one-shot cold**: a new ``python mem.py`` process per call, in-process (MEM_NO_SERVER=1);
* **MCP**: ``recall`` tool calls through the SDK's stdio client to ``mem.py mcp`` (warm);
* **handed over**: a new ``python mem.py`` process per call while ``mem.py serve`` runs: the
  whole process (interpreter start included), and the socket round trip alone
  (``handoff.try_handoff`` from this process: what the server adds to an interpreter start);
* **in-process**: ``store.recall`` on a warm store in this process (no transport: the floor the
  two warm paths stand on), the same queries (``--no-inprocess`` skips it: it loads the store here).

``--store-calls N`` (with ``--base``): the same trees' ``store`` beside their recall, N calls of each kind (chat
turns, facts that supersede) over MCP and ``--cold-runs`` cold ``mem.py store`` calls (bench/store_latency.py).

``--base DIR`` (a checkout of an older tree, e.g. ``git worktree add /tmp/mem-base main``) compares
the warm paths of both trees instead, alternating call by call on the same store (the only
comparison that survives a shared host's load), and ``store.recall`` in a process of each tree (the in-process
column; ``--no-inprocess`` skips it), with each server's CPU time per call (all its
threads) and the p50 / p95 / p99 of the CPU its calling thread (the one that runs the call: the MCP
server's event loop, the socket server's accepting thread) used per call, which a busy host
inflates far less than wall time (Linux ``schedstat``; it includes the reinforcement an MCP recall
runs after its reply, in whichever call's window it lands).

The processes started run as a user's Python does: imported modules' bytecode cached (in the
runtime folder: ``PYTHONPYCACHEPREFIX``; a harness's ``PYTHONDONTWRITEBYTECODE=1`` would recompile
every imported module in every process), with one unmeasured call first that writes the cache;
``--no-bytecode-cache`` keeps the caller's environment. ``mem.py`` itself is compiled by every
``python mem.py`` process either way (CPython never caches a script's bytecode): ~10 ms of CPU while
it held the CLI, well under 1 ms since it is only the entry point (the CLI is ``memcli.py``, cached).

Aims (issue 21): MCP and handed-over p95 <= 20 ms at 100k; one-shot cold <= 0.5 s.
Run it on a quiet machine: the 1-minute load average is printed with the numbers.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # the in-process column runs as mem.py's servers do (before numpy)

from bench.common import DEFAULT_LOCOMO, REPO, load_locomo, log, percentile  # noqa: E402
from bench.latency import RandomStoreEmbedder, build_db, synthetic_queries  # noqa: E402

AIMS = {"mcp_p95_ms": 20.0, "handed_p95_ms": 20.0, "cold_p95_s": 0.5}
MEM = str(REPO / "mem.py")


def cpu_flags() -> str:
    """Model name and the SIMD flags that matter for int8 inference and numpy."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return "unknown"
    model = re.search(r"model name\s*:\s*(.+)", text)
    flags = set(re.search(r"flags\s*:\s*(.+)", text).group(1).split()) if "flags" in text else set()  # type: ignore[union-attr]
    shown = [f for f in ("avx2", "avx512f", "avx512_vnni", "avx_vnni") if f in flags]
    return f"{model.group(1).strip() if model else '?'}; {' '.join(shown) or 'no avx2'}"


def host_probe(repeats: int = 5) -> str:
    """CPU ms of a fixed piece of work, the least of ``repeats`` (this thread's CPU: waiting for a core does not
    count): a dict-and-string loop in Python and an int8 scan of a 100k x 384 matrix in numpy. The same work
    on a slower host (a busy neighbour on the physical core, a shared cache) costs more CPU; printed at a
    run's start and end, it tells a host that runs slower this hour from code that got slower (the quiet
    reruns of 26-27 Nov: bench/README.md "serve16")."""
    import numpy as np

    rng = np.random.default_rng(7)
    matrix = rng.integers(-128, 127, size=(100_000, 384), dtype=np.int8)
    query = rng.integers(-128, 127, size=384, dtype=np.int8).astype(np.int16)

    def python_work() -> None:
        counts: dict[str, int] = {}
        for i in range(200_000):
            key = f"w{i % 5000}"
            counts[key] = counts.get(key, 0) + len(key)

    def numpy_work() -> None:
        int(np.argmax(matrix.astype(np.int16) @ query))

    def least(fn: Any) -> float:
        out = []
        for _ in range(repeats):
            c0 = time.thread_time()
            fn()
            out.append((time.thread_time() - c0) * 1000)
        return min(out)

    return f"host probe (fixed work, CPU ms, least of {repeats}): Python {least(python_work):.1f}, numpy {least(numpy_work):.1f}"


def stats_ms(ms: list[float]) -> dict[str, float]:
    return {"p50": round(statistics.median(ms), 1), "p95": round(percentile(ms, 95), 1), "n": len(ms)}


def one_shot(db: Path, queries: list[str], env: dict[str, str]) -> list[float]:
    # one call first, unmeasured: it writes the bytecode cache (as a user's first call after an install)
    subprocess.run([sys.executable, MEM, "--db", str(db), "recall", queries[0], "--json", "--no-touch"], env=env,
                   capture_output=True)
    out = []
    for q in queries:
        t0 = time.perf_counter()
        p = subprocess.run([sys.executable, MEM, "--db", str(db), "recall", q, "--json", "--no-touch"], env=env,
                           capture_output=True, text=True)
        out.append((time.perf_counter() - t0) * 1000)
        if p.returncode != 0:
            raise SystemExit(f"recall failed: {p.stdout or p.stderr}")
    return out


def handed_over(db: Path, queries: list[str], env: dict[str, str]) -> dict[str, Any]:
    from memengine import handoff

    proc = subprocess.Popen([sys.executable, MEM, "--db", str(db), "serve", "--json"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        ready = json.loads(proc.stdout.readline())
        if not ready.get("ok"):
            raise SystemExit(f"serve failed: {ready}")
        for q in queries[:3]:  # the first calls finish warming (caches, keyword index adoption)
            handoff.try_handoff(["--db", str(db), "recall", q, "--json", "--no-touch"])
        whole = one_shot(db, queries, env)
        socket_only = []
        saved = dict(os.environ)
        os.environ.update(env)
        try:
            for q in queries:
                t0 = time.perf_counter()
                got = handoff.try_handoff(["--db", str(db), "recall", q, "--json", "--no-touch"])
                socket_only.append((time.perf_counter() - t0) * 1000)
                if got is None or got[0] != 0:
                    raise SystemExit(f"handoff failed: {got}")
        finally:
            os.environ.clear()
            os.environ.update(saved)
        return {"whole": stats_ms(whole), "socket": stats_ms(socket_only)}
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def locomo_questions(limit: int) -> list[str]:
    """LoCoMo questions (categories 1-4, scale.py's order), one line each."""
    convs, _ = load_locomo(DEFAULT_LOCOMO)
    return [" ".join(q.question.split()) for c in convs for q in c.questions if q.category in (1, 2, 3, 4)][:limit]


def in_process(db: Path, queries: list[str]) -> dict[str, Any]:
    """``store.recall`` on a warm store in this process (k=10, hybrid, no touch)."""
    import memory_core as core

    store = core.MemoryStore(db, fast_start=False)
    try:
        store.warm_up()
        for q in queries[:3]:
            store.recall(q, k=10, touch=False)
        out = []
        for q in queries:
            t0 = time.perf_counter()
            store.recall(q, k=10, touch=False)
            out.append((time.perf_counter() - t0) * 1000)
        return stats_ms(out)
    finally:
        store.close()


def mcp_round_trips(db: Path, queries: list[str], env: dict[str, str]) -> dict[str, Any]:
    import anyio
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(command=sys.executable, args=[MEM, "--db", str(db), "mcp", "--no-socket"], env=env)

    async def run() -> list[float]:
        async with Client(params, read_timeout_seconds=600) as client:
            for q in queries[:3]:  # waits for the warm-up, then warms the caches
                await client.call_tool("recall", {"query": q})
            out = []
            for q in queries:
                t0 = time.perf_counter()
                res = await client.call_tool("recall", {"query": q})
                out.append((time.perf_counter() - t0) * 1000)
                if res.is_error:
                    raise SystemExit(f"MCP recall failed: {res.content}")
            return out

    return stats_ms(anyio.run(run))


def _cpu_ms(pid: int) -> float:
    """CPU time (user + system, all threads) a process has used so far, in ms (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def _thread_cpu_ms(pid: int, tid: int | None = None) -> float:
    """CPU time one thread of a process has used so far (its main thread by default), in ms: the
    scheduler's own count (``schedstat``, ns), not /proc/stat's 10 ms ticks, so one call can be read."""
    return int(Path(f"/proc/{pid}/task/{tid or pid}/schedstat").read_text().split()[0]) / 1e6


def _children_cpu_ms() -> float:
    import resource

    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r.ru_utime + r.ru_stime) * 1000


def ab_rounds(db: Path, queries: list[str], env: dict[str, str], trees: dict[str, Path], cold_runs: int,
              inprocess: bool = True) -> list[str]:
    """Each warm path of two trees (a base checkout and this one), call by call in alternation
    (base, this, this, base, ...), on one store: wall p50/p95 and the server's CPU per call, which
    a busy host inflates far less than wall time. Rows of a markdown table."""
    rows: list[str] = []
    # each tree its own copy of the store (MCP recalls reinforce what they return: writes)
    dbs: dict[str, Path] = {}
    for k in trees:
        dbs[k] = db.with_name(f"{db.name}.{k}")
        for suffix in ("", "-wal", "-shm"):
            src = Path(f"{db}{suffix}")
            if src.exists():
                shutil.copyfile(src, f"{dbs[k]}{suffix}")
    try:
        return _ab_rounds(dbs, queries, env, trees, cold_runs, rows, inprocess)
    finally:
        for k in trees:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{dbs[k]}{suffix}").unlink(missing_ok=True)


async def open_servers(stack: Any, trees: dict[str, Path], dbs: dict[str, Path], env: dict[str, str]
                       ) -> tuple[dict[str, Any], dict[str, int]]:
    """One stdio MCP server (``mem.py --db DB mcp --no-socket``) per tree on its own store, entered into ``stack``
    (an AsyncExitStack): their client sessions and process ids (for the server's CPU), by tree key."""
    from mcp import Client, StdioServerParameters

    sessions, pids = {}, {}
    for k, t in trees.items():
        params = StdioServerParameters(command=sys.executable, args=[str(t / "mem.py"), "--db", str(dbs[k]),
                                                                   "mcp", "--no-socket"], env=env)
        sessions[k] = await stack.enter_async_context(Client(params, read_timeout_seconds=600))
        found = subprocess.run(["pgrep", "-n", "-f", f"{t / 'mem.py'} --db {dbs[k]} mcp"], capture_output=True,
                               text=True).stdout.split()
        pids[k] = int(found[0])
    return sessions, pids


# One tree's warm store in a process of its own (``store.recall``, k=10, no touch, as in_process() runs it): a query
# a line on stdin, "wall_ms cpu_ms" a line on stdout (CPU: the whole process, every thread, during the call).
INPROCESS_WORKER = """
import os, sys, time
sys.path.insert(0, os.getcwd())
import memory_core as core
store = core.MemoryStore(sys.argv[1], fast_start=False)
store.warm_up()
print("ready", flush=True)
for line in sys.stdin:
    q = line.rstrip("\\n")
    c0, t0 = time.process_time(), time.perf_counter()
    store.recall(q, k=10, touch=False)
    print(f"{(time.perf_counter() - t0) * 1000} {(time.process_time() - c0) * 1000}", flush=True)
store.close()
"""


def inprocess_ab(dbs: dict[str, Path], queries: list[str], env: dict[str, str], trees: dict[str, Path]
                 ) -> dict[str, tuple[list[float], list[float]]]:
    """Each tree's ``store.recall`` on a warm store in a process of its own (the in-process column, the floor both
    warm paths stand on), call by call in alternation as the servers are: (wall ms, CPU ms) per call, by tree."""
    procs = {k: subprocess.Popen([sys.executable, "-c", INPROCESS_WORKER, str(dbs[k])], cwd=str(t), text=True,
                                 env={**env, "OPENBLAS_NUM_THREADS": "1"}, stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE) for k, t in trees.items()}
    out: dict[str, tuple[list[float], list[float]]] = {k: ([], []) for k in trees}
    try:
        for k, p in procs.items():
            assert p.stdout is not None and p.stdout.readline().strip() == "ready", f"in-process worker of {k}"

        def ask(k: str, q: str) -> tuple[float, float]:
            p = procs[k]
            assert p.stdin is not None and p.stdout is not None
            p.stdin.write(" ".join(q.split()) + "\n")
            p.stdin.flush()
            wall, cpu = p.stdout.readline().split()
            return float(wall), float(cpu)

        for q in queries[:3]:  # warms the caches, as the servers' first calls do
            for k in trees:
                ask(k, q)
        for i, q in enumerate(queries):
            for k in (list(trees) if i % 2 == 0 else list(trees)[::-1]):
                wall, cpu = ask(k, q)
                out[k][0].append(wall)
                out[k][1].append(cpu)
    finally:
        for p in procs.values():
            if p.stdin is not None:
                p.stdin.close()
            p.wait(timeout=60)
    return out


def _ab_rounds(dbs: dict[str, Path], queries: list[str], env: dict[str, str], trees: dict[str, Path],
               cold_runs: int, rows: list[str], inprocess: bool = True) -> list[str]:
    import importlib.util
    from contextlib import AsyncExitStack

    import anyio

    def order(i: int) -> list[str]:
        keys = list(trees)
        return keys if i % 2 == 0 else keys[::-1]

    runtimes = {k: str(Path(tempfile.mkdtemp(prefix="mem-rt-", dir="/tmp"))) for k in trees}
    servers = {k: subprocess.Popen([sys.executable, str(t / "mem.py"), "--db", str(dbs[k]), "serve", "--json"],
                                   env={**env, "XDG_RUNTIME_DIR": runtimes[k]}, stdout=subprocess.PIPE, text=True)
               for k, t in trees.items()}
    try:
        clients = {}
        for k, t in trees.items():  # each tree's own client module (its protocol and build id)
            spec = importlib.util.spec_from_file_location(f"handoff_{k}", t / "memengine" / "handoff.py")
            assert spec is not None and spec.loader is not None
            clients[k] = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(clients[k])
            assert servers[k].stdout is not None
            json.loads(servers[k].stdout.readline())
        saved = os.environ.get("XDG_RUNTIME_DIR")

        def call(k: str, q: str) -> float:
            os.environ["XDG_RUNTIME_DIR"] = runtimes[k]
            t0 = time.perf_counter()
            got = clients[k].try_handoff(["--db", str(dbs[k]), "recall", q, "--json", "--no-touch"])
            ms = (time.perf_counter() - t0) * 1000
            if got is None or got[0] != 0:
                raise SystemExit(f"handoff to {trees[k]} failed: {got}")
            return ms

        for q in queries[:3]:
            for k in trees:
                call(k, q)
        sock: dict[str, list[float]] = {k: [] for k in trees}
        sock_thread: dict[str, list[float]] = {k: [] for k in trees}  # the server's answering (main) thread
        cpu0 = {k: _cpu_ms(servers[k].pid) for k in trees}
        for i, q in enumerate(queries):
            for k in order(i):
                c0 = _thread_cpu_ms(servers[k].pid)
                sock[k].append(call(k, q))
                sock_thread[k].append(_thread_cpu_ms(servers[k].pid) - c0)
        sock_cpu = {k: (_cpu_ms(servers[k].pid) - cpu0[k]) / len(queries) for k in trees}
        whole: dict[str, list[float]] = {k: [] for k in trees}
        whole_cpu: dict[str, float] = {k: 0.0 for k in trees}
        for k in trees:  # unmeasured: writes the bytecode cache (see measure())
            subprocess.run([sys.executable, str(trees[k] / "mem.py"), "--db", str(dbs[k]), "recall", queries[0],
                            "--json", "--no-touch"], env={**env, "XDG_RUNTIME_DIR": runtimes[k]}, capture_output=True)
        for i, q in enumerate(queries[:cold_runs]):  # a new process per call, as a shell agent runs it
            for k in order(i):
                c0, t0 = _children_cpu_ms(), time.perf_counter()
                p = subprocess.run([sys.executable, str(trees[k] / "mem.py"), "--db", str(dbs[k]), "recall", q, "--json",
                                    "--no-touch"], env={**env, "XDG_RUNTIME_DIR": runtimes[k]}, capture_output=True)
                whole[k].append((time.perf_counter() - t0) * 1000)
                whole_cpu[k] += (_children_cpu_ms() - c0) / max(1, min(cold_runs, len(queries)))
                if p.returncode != 0:
                    raise SystemExit(f"recall failed: {p.stdout!r} {p.stderr!r}")
        if saved is None:
            os.environ.pop("XDG_RUNTIME_DIR", None)
        else:
            os.environ["XDG_RUNTIME_DIR"] = saved
    finally:
        for proc in servers.values():
            proc.terminate()
            proc.wait(timeout=60)
        for folder in runtimes.values():
            shutil.rmtree(folder, ignore_errors=True)

    mcp_thread: dict[str, list[float]] = {k: [] for k in trees}  # the server's event-loop (main) thread
    replies: dict[str, list[str]] = {k: [] for k in trees}  # each recall's reply text (the JSON an agent reads)

    async def mcp_ab() -> tuple[dict[str, list[float]], dict[str, float]]:
        async with AsyncExitStack() as stack:
            sessions, pids = await open_servers(stack, trees, dbs, env)
            for q in queries[:3]:
                for k in trees:
                    await sessions[k].call_tool("recall", {"query": q})
            out: dict[str, list[float]] = {k: [] for k in trees}
            c0 = {k: _cpu_ms(pids[k]) for k in trees}
            for i, q in enumerate(queries):
                for k in order(i):
                    c1 = _thread_cpu_ms(pids[k])
                    t0 = time.perf_counter()
                    res = await sessions[k].call_tool("recall", {"query": q})
                    out[k].append((time.perf_counter() - t0) * 1000)
                    mcp_thread[k].append(_thread_cpu_ms(pids[k]) - c1)
                    if res.is_error:
                        raise SystemExit(f"MCP recall on {trees[k]} failed: {res.content}")
                    replies[k].append(res.content[0].text if res.content else "")  # type: ignore[union-attr]
            return out, {k: (_cpu_ms(pids[k]) - c0[k]) / len(queries) for k in trees}

    mcp, mcp_cpu = anyio.run(mcp_ab)
    floor = inprocess_ab(dbs, queries, env, trees) if inprocess else {}

    def pair(ms: list[float]) -> str:
        d = stats_ms(ms)
        return f"{d['p50']} / {d['p95']} / {percentile(ms, 99):.1f}"

    # both trees' stores get the same calls in the same order (their reinforcement included): a change that
    # keeps every result keeps every reply's bytes (the scores' digits too)
    base_replies, this_replies = replies.values()
    same = sum(a == b for a, b in zip(base_replies, this_replies))
    ids = sum([r["id"] for r in json.loads(a)["results"]] == [r["id"] for r in json.loads(b)["results"]]
              for a, b in zip(base_replies, this_replies))
    print(f"MCP recall replies byte-identical in both trees: {same} / {len(base_replies)}; the same ids in the "
          f"same order: {ids} / {len(base_replies)}")
    for k, t in trees.items():
        rows.append(f"| {k} ({t}) | {pair(mcp[k])} | {mcp_cpu[k]:.1f} | {pair(mcp_thread[k])} | {pair(sock[k])} | "
                    f"{sock_cpu[k]:.1f} | {pair(sock_thread[k])} | {pair(whole[k])} | {whole_cpu[k]:.1f} | "
                    + (f"{pair(floor[k][0])} | {sum(floor[k][1]) / len(floor[k][1]):.1f} |" if k in floor else "- | - |"))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--cold-runs", type=int, default=15)
    ap.add_argument("--reuse", type=Path, default=None, help="keep the databases here and reuse them")
    ap.add_argument("--store", type=Path, default=None,
                    help="measure a copy of this existing store with LoCoMo questions (instead of --sizes)")
    ap.add_argument("--no-inprocess", action="store_true", help="skip the in-process column")
    ap.add_argument("--base", type=Path, default=None,
                    help="a checkout of an older tree (git worktree add /tmp/mem-base main): measure its warm paths "
                         "and this tree's, alternating call by call, instead of the usual columns")
    ap.add_argument("--store-calls", type=int, default=0,
                    help="with --base: also this many `store` calls of each kind (chat turns, facts) over MCP and "
                         "--cold-runs cold `mem.py store` calls, both trees alternating (bench/store_latency.py)")
    ap.add_argument("--no-bytecode-cache", action="store_true",
                    help="start processes as the caller's environment says (PYTHONDONTWRITEBYTECODE included)")
    args = ap.parse_args()
    os.environ.pop("MEM_EMBEDDER", None)
    from embedder import OnnxEmbedder

    real = OnnxEmbedder()
    real.embed(["warm up"])
    directory = args.reuse or Path(tempfile.mkdtemp(prefix="mem-agent-lat-"))
    directory.mkdir(parents=True, exist_ok=True)
    # the user's environment minus what would change the answer; a short runtime dir for the socket
    runtime = Path(tempfile.mkdtemp(prefix="mem-rt-", dir="/tmp"))
    try:
        measure(args, real, directory, runtime)
    finally:  # the databases (copies of a --store: hundreds of MB) stay only when asked to
        shutil.rmtree(runtime, ignore_errors=True)
        if args.reuse is None:
            shutil.rmtree(directory, ignore_errors=True)
        elif args.store is not None:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{directory / f'copy-{args.store.name}'}{suffix}").unlink(missing_ok=True)


def measure(args: argparse.Namespace, real: Any, directory: Path, runtime: Path) -> None:
    """The tables main() prints (see the module docstring)."""
    env = {k: v for k, v in os.environ.items() if k not in ("MEM_EMBEDDER", "MEM_DB", "MEM_NO_SERVER")}
    env["XDG_RUNTIME_DIR"] = str(runtime)
    if not args.no_bytecode_cache:
        # as a user's Python runs: imported modules' bytecode cached (a harness that sets
        # PYTHONDONTWRITEBYTECODE recompiles every module in every process: ~5 ms of a handed-over
        # call); the cache lives in the runtime folder, not in the tree
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(runtime / "pycache")
    want = max(args.runs, args.cold_runs) + 3
    print(f"CPU: {cpu_flags()}; {os.cpu_count()} cpus; load average at start {os.getloadavg()[0]:.2f}; "
          f"bytecode cache {'off' if 'PYTHONPYCACHEPREFIX' not in env else 'on'} in the processes started")
    print(host_probe())
    stores: list[tuple[str, Path, list[str]]] = []
    if args.store is not None:
        db = directory / f"copy-{args.store.name}"
        for suffix in ("", "-wal", "-shm"):  # a copy: MCP recalls write (reinforcement)
            src = Path(f"{args.store}{suffix}")
            if src.exists():
                shutil.copyfile(src, f"{db}{suffix}")
        stores.append((f"{args.store.name} (LoCoMo questions)", db, locomo_questions(want)))
    else:
        for n in (int(x) for x in args.sizes.split(",")):
            store, _ = build_db(directory / f"agent-{n}.db", n, RandomStoreEmbedder(real), reuse=args.reuse is not None,
                                seed=7)
            store.close()
            stores.append((f"{n:,}", directory / f"agent-{n}.db", synthetic_queries(want, seed=23)))
    if args.base is not None:
        trees = {"base": args.base.resolve(), "this": REPO}
        print(f"load average at start {os.getloadavg()[0]:.2f}")
        print("| tree | MCP recall p50 / p95 / p99 ms | MCP server CPU ms/call | its calling thread CPU p50 / p95 / p99 ms "
              "| socket round trip p50 / p95 / p99 ms | socket server CPU ms/call | its calling thread CPU p50 / p95 / p99 "
              "ms | handed-over process p50 / p95 / p99 ms | its CPU ms/call | in-process store.recall p50 / p95 / p99 ms "
              "| its CPU ms/call (all threads) |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        for label, db, queries in stores:
            log(f"{label}: base and this tree, alternating ...")
            for row in ab_rounds(db, queries[: args.runs], env, trees, args.cold_runs, not args.no_inprocess):
                print(row.replace("| base", f"| {label}: base", 1).replace("| this", f"| {label}: this", 1))
        for label, db, queries in stores if args.store_calls > 0 else []:
            from bench.store_latency import store_ab

            log(f"{label}: store, base and this tree, alternating ...")
            store_ab(db, trees, env, args.store_calls, args.cold_runs, queries[:3], queries[3:], directory)
        print(f"load average at end {os.getloadavg()[0]:.2f}; {host_probe()}")
        return
    rows = []
    for label, db, queries in stores:
        log(f"{label}: one-shot cold ...")
        cold = stats_ms(one_shot(db, queries[: args.cold_runs], {**env, "MEM_NO_SERVER": "1"}))
        log(f"{label}: handed over to mem serve ...")
        handed = handed_over(db, queries[: args.runs], env)
        log(f"{label}: MCP ...")
        mcp = mcp_round_trips(db, queries[: args.runs], env)
        inproc = None
        if not args.no_inprocess:
            log(f"{label}: in-process ...")
            inproc = in_process(db, queries[: args.runs])
        rows.append((label, cold, mcp, handed, inproc))
    print(f"load average at end {os.getloadavg()[0]:.2f}; {host_probe()}\n")
    print("| memories | one-shot cold p50 / p95 ms | MCP recall p50 / p95 ms | handed over, whole process p50 / p95 ms "
          "| handed over, socket round trip p50 / p95 ms | in-process store.recall p50 / p95 ms |")
    print("|---|---|---|---|---|---|")
    def pair(d: dict[str, Any] | None) -> str:
        return f"{d['p50']} / {d['p95']}" if d else "-"

    for label, cold, mcp, handed, inproc in rows:
        print(f"| {label} | {pair(cold)} | {pair(mcp)} | {pair(handed['whole'])} | {pair(handed['socket'])} | "
              f"{pair(inproc)} |")
    print(f"\naims: MCP and handed-over p95 <= {AIMS['mcp_p95_ms']} ms at 100k; one-shot cold <= "
          f"{AIMS['cold_p95_s']} s")


if __name__ == "__main__":
    main()
