"""Where a warm server's recall time goes beyond the engine: each step of the two warm paths, in-process.

    .venv/bin/python bench/transport_steps.py --store /tmp/scl/scale-100000.v1.db [--runs 40] [--dir /tmp/transport]

Opens a copy of the store (recalls that reinforce write to it) as `mem serve` / `mem mcp` open it
(``memengine.cli.servers._open_warm``: warmed, collector frozen), then runs each LoCoMo question (bench/common.py's
questions, as agent_latency.py asks them) through every step below, the steps in rotating order so
that none always runs first on a cold cache. Wall p50 / p95 and CPU (process time, all threads) per call:

* ``engine``: ``store.recall(q, k=10, touch=False)``, the floor;
* ``reinforce``: ``store.touch(ids)`` of that recall's results alone (the write a touching recall adds:
  one ``BEGIN IMMEDIATE`` transaction, an UPDATE per result and the co-retrieval edges);
* ``data``: ``mem.recall_data`` (engine + ``to_dict`` of each result), no touch;
* ``json``: ``json.dumps`` of the envelope ``data`` makes (what `--json` prints);
* ``socket body``: ``servers.run_captured(["--json", "recall", q, "--no-touch"])``, what the socket server
  runs per call (argv parse, click contexts, stdout capture, JSON), and ``+ touch`` without ``--no-touch``;
* ``mcp body``: ``servers.run_direct("recall", ...)`` plus the lean results and the tool result's JSON,
  what the MCP ``recall`` tool runs per call (it reinforces, as an agent's recall does).

The difference between a body and a round trip measured by agent_latency.py is the transport
(socket or stdio, the SDK's dispatch, the client's own work).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import shutil
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as mem.py's servers run (before numpy loads)

from bench.common import log, percentile  # noqa: E402


def copy_store(src: Path, folder: Path) -> Path:
    """A copy of ``src`` (and its -wal/-shm) in ``folder``: the original stays untouched."""
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / f"steps-{src.name}"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
        if Path(f"{src}{suffix}").exists():
            shutil.copyfile(f"{src}{suffix}", f"{db}{suffix}")
    return db


BLOCK = 250  # calls per block: past MAX_CHANGES (4000 rows), so the checkpointer also folds during a stream


def reinforcement_tail(store: Any, queries: list[str], touches: int) -> None:
    """The reinforcement write of ``touches`` recalls (their results, replayed in turn), in blocks
    of BLOCK alternating between SQLite's automatic checkpoint (a commit that leaves the log at 1000
    pages folds it: copy and fsync inside that call) and the server's checkpointer
    (memengine/walcheckpoint.py: between calls). Wall p50 / p99 / max, and the calls over 5 ms."""
    from memengine.cli import servers
    from memengine.walcheckpoint import Checkpointer

    ids = [[m.id for m in store.recall(q, k=10, touch=False).results] for q in queries]
    if servers._CALLS.checkpointer is not None:  # (block by block below)
        servers._CALLS.checkpointer.close()
        servers._CALLS.checkpointer = None
    wall: dict[str, list[float]] = {"automatic (in the commit)": [], "checkpointer (between calls)": []}
    cpu = {k: 0.0 for k in wall}
    for b in range(0, touches, BLOCK):
        name = list(wall)[(b // BLOCK) % 2]
        cp = Checkpointer(store.path, store.conn) if name.startswith("checkpointer") else None
        if cp is not None:
            cp.start()
        for i in range(b, min(b + BLOCK, touches)):
            if cp is not None:
                cp.begin()
            c0, t0 = time.process_time(), time.perf_counter()
            store.touch(ids[i % len(ids)])
            wall[name].append((time.perf_counter() - t0) * 1000)
            cpu[name] += (time.process_time() - c0) * 1000
            if cp is not None:
                cp.end()
            time.sleep(0.002)  # an MCP client's turn between two calls (~1-2 ms measured)
        if cp is not None:
            cp.close()
    print(f"\n| reinforcement write, {touches} calls | wall p50 / p99 / max ms | CPU ms/call (this thread) | calls > 5 ms |")
    print("|---|---|---|---|")
    for name, ms in wall.items():
        print(f"| {name} | {statistics.median(ms):.2f} / {percentile(ms, 99):.2f} / {max(ms):.2f} | "
              f"{cpu[name] / len(ms):.2f} | {sum(x > 5 for x in ms)} |")
    print(f"load average at end {os.getloadavg()[0]:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--store", type=Path, required=True)
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--touches", type=int, default=1000, help="reinforcement writes timed (checkpoint tail)")
    ap.add_argument("--dir", type=Path, default=Path("/tmp/mem-transport-steps"), help="where the copy lives")
    args = ap.parse_args()
    os.environ.pop("MEM_EMBEDDER", None)
    import click

    import mem
    from bench.agent_latency import locomo_questions
    from memengine.cli import servers
    from memengine.cli.common import Ctx
    from memengine.mcp_server import lean_result

    db = copy_store(args.store, args.dir)
    queries = locomo_questions(args.runs + 3)
    print(f"load average at start {os.getloadavg()[0]:.2f}")
    try:
        with click.Context(mem.cli, obj=Ctx(str(db), True)):
            store = servers._open_warm()
        for q in queries[:3]:
            servers.run_captured(["--json", "recall", q])

        def engine(q: str) -> Any:
            return store.recall(q, k=10, touch=False)

        def data(q: str) -> Any:
            return mem.recall_data(store, q)

        def reinforce(q: str, ids: list[int]) -> None:
            store.touch(ids)

        def mcp_body(q: str) -> str:
            code, env = servers.run_direct("recall", {"query": q, "k": 10, "strategy": "hybrid", "types": [], "tags": [],
                                                  "sources": [], "since": None, "until": None, "explain": False,
                                                  "with_context": False, "include_archived": False, "history": False,
                                                  "as_of": None})
            env["data"]["results"] = [lean_result(r) for r in env["data"]["results"]]
            return json.dumps(env["data"], ensure_ascii=False)

        steps: dict[str, Callable[[str], Any]] = {
            "engine": engine,
            "data": data,
            "socket body (--no-touch)": lambda q: servers.run_captured(["--json", "recall", q, "--no-touch"]),
            "socket body + touch": lambda q: servers.run_captured(["--json", "recall", q]),
            "mcp body (touch)": mcp_body,
        }
        wall: dict[str, list[float]] = {k: [] for k in [*steps, "reinforce", "json"]}
        cpu: dict[str, float] = {k: 0.0 for k in wall}
        gcs: dict[str, int] = {k: 0 for k in wall}
        names = list(steps)
        for i, q in enumerate(queries[3:3 + args.runs]):
            for name in names[i % len(names):] + names[:i % len(names)]:
                g0 = sum(s["collections"] for s in gc.get_stats())
                c0, t0 = time.process_time(), time.perf_counter()
                out = steps[name](q)
                wall[name].append((time.perf_counter() - t0) * 1000)
                cpu[name] += (time.process_time() - c0) * 1000
                gcs[name] += sum(s["collections"] for s in gc.get_stats()) - g0
                if name == "engine":
                    ids = [m.id for m in out.results]
                    c0, t0 = time.process_time(), time.perf_counter()
                    reinforce(q, ids)
                    wall["reinforce"].append((time.perf_counter() - t0) * 1000)
                    cpu["reinforce"] += (time.process_time() - c0) * 1000
                if name == "data":
                    env = {"ok": True, "command": "recall", "took_ms": 1.0, "data": out[0]}
                    c0, t0 = time.process_time(), time.perf_counter()
                    json.dumps(env, ensure_ascii=False, default=str)
                    wall["json"].append((time.perf_counter() - t0) * 1000)
                    cpu["json"] += (time.process_time() - c0) * 1000
        print(f"| step (100 = {args.store.name}) | wall p50 / p95 ms | CPU ms/call | GC collections/call |")
        print("|---|---|---|---|")
        for name, ms in wall.items():
            print(f"| {name} | {statistics.median(ms):.2f} / {percentile(ms, 95):.2f} | {cpu[name] / len(ms):.2f} | "
                  f"{gcs[name] / len(ms):.2f} |")
        print(f"load average at end {os.getloadavg()[0]:.2f}")
        reinforcement_tail(store, queries[3:3 + args.runs], args.touches)
    finally:
        if Ctx.warm_store is not None:
            Ctx.warm_store.close()
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        log("copy removed")


if __name__ == "__main__":
    main()
