"""What an agent pays for a ``store``: over MCP (a warm ``mem.py mcp``) and as a cold ``mem.py store``, two trees
alternating call by call on their own copies of one store.

    .venv/bin/python bench/store_latency.py --store /tmp/mcp-alat/agent-100000.db --base /work/base-start
    .venv/bin/python bench/agent_latency.py --sizes 100000 --reuse DIR --base /work/base-start --store-calls 60

Two kinds of writes, each ``--runs`` calls:

* **chat**: LoCoMo turns (the last conversation's, in order) stored as an agent logs a live chat: episodic, one
  ``thread``, the speaker as ``author`` (dedup by event, the thread's context and episodes, no supersession);
* **fact**: the labelled fact pairs of tests/data (the older text, then the newer one), semantic, ``source``
  agent: each newer write is compared with its candidates and may supersede the older (the full supersession
  path: embedding, vector and word candidates, the decision, the writes).

Then ``--runs`` chat stores each followed by a recall (synthetic questions), the recall measured: what a store
costs the agent's next call (the warm server brings its in-memory state up to the write first).

Per tree and kind: wall p50 / p95 / p99, the server's CPU per call (all threads), its calling thread's CPU per
call (the event loop: ``schedstat``) and the **first** store's calling-thread CPU (what an agent's first write in a
fresh server pays: modules and tables the write path loads on first use). The cold CLI: a new ``python mem.py
store`` process per call (MEM_NO_SERVER=1), wall and its CPU. Both trees' stores get the same calls in the same
order, so every reply must be the same: printed as byte-identical MCP replies and equal CLI ``data``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import DEFAULT_LOCOMO, REPO, load_locomo, log, percentile  # noqa: E402

FACT_FILES = ("fact_heldout19.jsonl", "fact_heldout20.jsonl", "fact_heldout21.jsonl", "fact_heldout22.jsonl",
              "fact_pairs_dev14.jsonl", "fact_pairs_dev15.jsonl")
KINDS = ("chat", "fact")
# recalls asked first (each server's warm-up done; an agent's session starts with a recall or a brief)
WARM_QUERIES = ("what did we decide about the deploy", "Ivan knitting the café on Rua Augusta", "who owns billing")


def store_calls(kind: str, n: int) -> list[dict[str, Any]]:
    """``n`` store tool arguments of one kind (see the module docstring), the same on every run."""
    if kind == "fact":
        out: list[dict[str, Any]] = []
        for name in FACT_FILES:
            for line in (REPO / "tests" / "data" / name).read_text(encoding="utf-8").splitlines():
                r = json.loads(line) if line.strip() else {}
                if isinstance(r.get("a"), str) and isinstance(r.get("b"), str):
                    out += [{"content": r["a"], "type": "semantic", "source": "agent"},
                            {"content": r["b"], "type": "semantic", "source": "agent"}]
        return out[:n]
    convs, _ = load_locomo(DEFAULT_LOCOMO)
    turns = [t for t in convs[-1].turns if " ".join(t.text.split())]
    return [{"content": " ".join(t.text.split()), "type": "episodic", "source": "agent", "thread": "bench-live-chat",
             "author": t.speaker} for t in turns[:n]]


def cli_argv(args: dict[str, Any]) -> list[str]:
    """The ``mem.py store`` arguments of one store tool call."""
    argv = ["store", args["content"], "--type", args["type"], "--source", args["source"]]
    for key in ("thread", "author"):
        if key in args:
            argv += [f"--{key}", args[key]]
    return argv


def _cpu_ms(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def _thread_cpu_ms(pid: int) -> float:
    return int(Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()[0]) / 1e6


def _children_cpu_ms() -> float:
    import resource

    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r.ru_utime + r.ru_stime) * 1000


def triple(ms: list[float]) -> str:
    """p50 / p95 / p99 of ``ms``."""
    return f"{percentile(ms, 50):.1f} / {percentile(ms, 95):.1f} / {percentile(ms, 99):.1f}"


def copies(db: Path, trees: dict[str, Path], folder: Path, tag: str) -> dict[str, Path]:
    """Each tree's own copy of ``db`` (its -wal too) in ``folder``: stores write."""
    out = {}
    for k in trees:
        out[k] = folder / f"{tag}-{k}-{db.name}"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{out[k]}{suffix}").unlink(missing_ok=True)
            if Path(f"{db}{suffix}").exists():
                shutil.copyfile(f"{db}{suffix}", f"{out[k]}{suffix}")
    return out


def mcp_store_ab(dbs: dict[str, Path], trees: dict[str, Path], env: dict[str, str], runs: int,
                 warm_queries: list[str], queries: list[str]) -> list[str]:
    """Store tool calls of each kind to each tree's ``mem.py mcp``, alternating call by call, then ``runs`` chat
    stores each followed by a recall of ``queries`` (the recall measured: what a store costs the next call):
    markdown rows."""
    from contextlib import AsyncExitStack

    import anyio

    from bench.agent_latency import open_servers

    wall: dict[tuple[str, str], list[float]] = {}
    thread: dict[tuple[str, str], list[float]] = {}
    server: dict[tuple[str, str], float] = {}
    replies: dict[tuple[str, str], list[str]] = {}

    async def run() -> None:
        async with AsyncExitStack() as stack:
            sessions, pids = await open_servers(stack, trees, dbs, env)
            for q in warm_queries:  # waits for the warm-up (an agent's session starts with a recall or a brief)
                for k in trees:
                    await sessions[k].call_tool("recall", {"query": q})
            for kind in KINDS:
                calls = store_calls(kind, runs)
                for k in trees:
                    wall[kind, k], thread[kind, k], replies[kind, k] = [], [], []
                c0 = {k: _cpu_ms(pids[k]) for k in trees}
                for i, args in enumerate(calls):
                    for k in (list(trees) if i % 2 == 0 else list(trees)[::-1]):
                        c1, t0 = _thread_cpu_ms(pids[k]), time.perf_counter()
                        res = await sessions[k].call_tool("store", args)
                        wall[kind, k].append((time.perf_counter() - t0) * 1000)
                        thread[kind, k].append(_thread_cpu_ms(pids[k]) - c1)
                        if res.is_error:
                            raise SystemExit(f"MCP store on {trees[k]} failed: {res.content}")
                        replies[kind, k].append(res.content[0].text if res.content else "")  # type: ignore[union-attr]
                for k in trees:
                    server[kind, k] = (_cpu_ms(pids[k]) - c0[k]) / len(calls)
            # a recall right after a store (the server catches up with the write first)
            kind = "recall after a chat store"
            for k in trees:
                wall[kind, k], thread[kind, k], replies[kind, k] = [], [], []
            cpu = {k: 0.0 for k in trees}
            for i, args in enumerate(store_calls("chat", 2 * runs)[runs:]):  # (turns the first phase did not store)
                for k in (list(trees) if i % 2 == 0 else list(trees)[::-1]):
                    await sessions[k].call_tool("store", args)
                    c0[k], c1, t0 = _cpu_ms(pids[k]), _thread_cpu_ms(pids[k]), time.perf_counter()
                    res = await sessions[k].call_tool("recall", {"query": queries[i % len(queries)]})
                    wall[kind, k].append((time.perf_counter() - t0) * 1000)
                    thread[kind, k].append(_thread_cpu_ms(pids[k]) - c1)
                    cpu[k] += _cpu_ms(pids[k]) - c0[k]
                    if res.is_error:
                        raise SystemExit(f"MCP recall on {trees[k]} failed: {res.content}")
                    replies[kind, k].append(res.content[0].text if res.content else "")  # type: ignore[union-attr]
            for k in trees:
                server[kind, k] = cpu[k] / runs

    anyio.run(run)
    rows = []
    base, this = list(trees)
    for kind in (*KINDS, "recall after a chat store"):
        same = sum(a == b for a, b in zip(replies[kind, base], replies[kind, this]))
        print(f"MCP replies ({kind}) byte-identical in both trees: {same} / {len(replies[kind, base])}")
        for k in trees:
            rows.append(f"| {kind}: {k} | {triple(wall[kind, k])} | {server[kind, k]:.1f} | {triple(thread[kind, k][1:])} "
                        f"| {thread[kind, k][0]:.1f} |")
    return rows


def cold_store_ab(dbs: dict[str, Path], trees: dict[str, Path], env: dict[str, str], runs: int) -> list[str]:
    """A new ``python mem.py store`` process per call for each tree, alternating: markdown rows."""
    rows = []
    env = {**env, "MEM_NO_SERVER": "1"}
    base, this = list(trees)
    for k in trees:  # unmeasured: writes the bytecode cache
        subprocess.run([sys.executable, str(trees[k] / "mem.py"), "--db", str(dbs[k]), "--json", "stats"], env=env,
                       capture_output=True)
    for kind in KINDS:
        calls = store_calls(kind, runs)
        wall: dict[str, list[float]] = {k: [] for k in trees}
        cpu: dict[str, list[float]] = {k: [] for k in trees}
        data: dict[str, list[Any]] = {k: [] for k in trees}
        for i, args in enumerate(calls):
            for k in (list(trees) if i % 2 == 0 else list(trees)[::-1]):
                c0, t0 = _children_cpu_ms(), time.perf_counter()
                p = subprocess.run([sys.executable, str(trees[k] / "mem.py"), "--db", str(dbs[k]), "--json",
                                    *cli_argv(args)], env=env, capture_output=True, text=True)
                wall[k].append((time.perf_counter() - t0) * 1000)
                cpu[k].append(_children_cpu_ms() - c0)
                if p.returncode != 0:
                    raise SystemExit(f"store failed on {trees[k]}: {p.stdout!r} {p.stderr!r}")
                data[k].append(json.loads(p.stdout.splitlines()[-1])["data"])
        same = sum(a == b for a, b in zip(data[base], data[this]))
        print(f"cold CLI store data ({kind}) equal in both trees: {same} / {len(calls)}")
        for k in trees:
            rows.append(f"| {kind}: {k} | {triple(wall[k])} | {triple(cpu[k])} |")
    return rows


def store_ab(db: Path, trees: dict[str, Path], env: dict[str, str], runs: int, cold_runs: int,
             warm_queries: list[str], queries: list[str], folder: Path) -> None:
    """Print the MCP and the cold CLI store tables of two trees (``trees``: base first) on copies of ``db``."""
    dbs = copies(db, trees, folder, "mcp")
    try:
        print(f"\nstore over MCP, {db.name}, {runs} calls of each kind; load average {os.getloadavg()[0]:.2f}")
        print("| kind: tree | MCP store p50 / p95 / p99 ms | server CPU ms/call | calling thread CPU p50 / p95 / p99 ms "
              "| first store's calling thread CPU ms |")
        print("|---|---|---|---|---|")
        for row in mcp_store_ab(dbs, trees, env, runs, warm_queries, queries):
            print(row)
    finally:
        for p in dbs.values():
            for suffix in ("", "-wal", "-shm"):
                Path(f"{p}{suffix}").unlink(missing_ok=True)
    if cold_runs <= 0:
        return
    dbs = copies(db, trees, folder, "cold")
    try:
        print(f"\ncold `mem.py store` (MEM_NO_SERVER=1), {db.name}, {cold_runs} calls of each kind; load average "
              f"{os.getloadavg()[0]:.2f}")
        print("| kind: tree | wall p50 / p95 / p99 ms | process CPU p50 / p95 / p99 ms |")
        print("|---|---|---|")
        for row in cold_store_ab(dbs, trees, env, cold_runs):
            print(row)
    finally:
        for p in dbs.values():
            for suffix in ("", "-wal", "-shm"):
                Path(f"{p}{suffix}").unlink(missing_ok=True)
    print(f"load average at end {os.getloadavg()[0]:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--store", type=Path, required=True, help="the store to copy (never written)")
    ap.add_argument("--base", type=Path, required=True, help="a checkout of the older tree")
    ap.add_argument("--runs", type=int, default=60, help="MCP stores of each kind")
    ap.add_argument("--cold-runs", type=int, default=10, help="cold CLI stores of each kind (0: none)")
    args = ap.parse_args()
    from bench.agent_latency import cpu_flags, host_probe
    from bench.latency import synthetic_queries

    runtime = Path(tempfile.mkdtemp(prefix="mem-st-", dir="/tmp"))
    env = {k: v for k, v in os.environ.items() if k not in ("MEM_EMBEDDER", "MEM_DB", "MEM_NO_SERVER",
                                                            "PYTHONDONTWRITEBYTECODE")}
    env.update(XDG_RUNTIME_DIR=str(runtime), PYTHONPYCACHEPREFIX=str(runtime / "pycache"))
    print(f"CPU: {cpu_flags()}; load average at start {os.getloadavg()[0]:.2f}; {host_probe()}")
    folder = Path(tempfile.mkdtemp(prefix="mem-st-db-", dir=os.environ.get("TMPDIR", "/tmp")))
    try:
        log(f"{args.store.name}: base and this tree, alternating ...")
        store_ab(args.store, {"base": args.base.resolve(), "this": REPO}, env, args.runs, args.cold_runs,
                 list(WARM_QUERIES), synthetic_queries(args.runs, seed=29), folder)
    finally:
        shutil.rmtree(runtime, ignore_errors=True)
        shutil.rmtree(folder, ignore_errors=True)
    print(host_probe())


if __name__ == "__main__":
    main()
