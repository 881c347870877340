"""What a session-start ``brief`` costs at 100k / 1M memories, before and after, in one run.

For each store given, two copies go into ``--work`` (the originals are never opened): one for
this tree, one for ``--base DIR`` (another code tree, e.g. ``git archive main | tar -x -C DIR``;
each tree migrates its own copy, so a newer schema never meets older code). Then, alternating
trees, ``--runs`` fresh processes per tree each open the store, load the tokenizer, and time
``graph_rank.brief`` (budget 2000, a fixed ``now``) twice: the first call (what a one-shot
``mem.py brief`` pays) and a second one in the same process (an MCP server's). Times are the
calling thread's CPU seconds (``time.thread_time``; the brief runs on one thread), medians
and ranges, with the load average at the start and the end; the two trees' brief texts are
compared (the speed work must not change what the brief says).

    .venv/bin/python bench/brief_speed.py /tmp/scl/scale-100000.v1.db /tmp/scl/scale-1000000.v1.db \\
        --base /tmp/brief3/base --work /tmp/brief3/speed --runs 5

``--keep`` leaves the copies in ``--work`` (a 1M copy is 2.5 GB: they are deleted by default).
``--consolidate`` consolidates the store first (untimed, once, with the base tree; both trees then
brief copies of it): a store an agent has used for a while is consolidated nightly, and brief then
reads clusters and ranks (the 100k store takes ~70 CPU-s).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
NOW = "2026-11-26T12:00:00"
BUDGET = 2000


def worker(tree: str, db: str) -> None:
    """In a fresh process: open the store with ``tree``'s code, time two briefs, print JSON."""
    sys.path.insert(0, tree)
    from datetime import datetime

    import memory_core
    from memengine import graph_rank

    store = memory_core.MemoryStore(db)
    graph_rank.token_counter(store)  # the tokenizer loads once per process, whatever the store
    now = datetime.fromisoformat(NOW)
    out: dict[str, Any] = {}
    for call in ("first", "second"):
        t0, w0 = time.thread_time(), time.perf_counter()
        res = graph_rank.brief(store, BUDGET, now=now)
        out[call] = {"cpu": time.thread_time() - t0, "wall": time.perf_counter() - w0}
    out["text"] = res["text"]
    out["tokens"] = res["tokens"]
    print(json.dumps(out))


def _run(tree: Path, db: Path) -> dict[str, Any]:
    r = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", str(tree), str(db)],
                       capture_output=True, text=True, check=False)
    if r.returncode != 0:
        raise SystemExit(f"brief_speed: worker failed on {db} ({tree}):\n{r.stderr[-2000:]}")
    return dict(json.loads(r.stdout.strip().splitlines()[-1]))


def _mem(tree: Path, db: Path, command: str) -> None:
    r = subprocess.run([sys.executable, str(tree / "mem.py"), "--db", str(db), "--json", command],
                       capture_output=True, text=True, cwd=tree, check=False)
    if r.returncode != 0:
        raise SystemExit(f"brief_speed: {command} on {db} failed:\n{r.stderr[-2000:]}")


def _prepare(trees: dict[str, Path], src: Path, copies: dict[str, Path], consolidate: bool) -> None:
    """A copy per tree; consolidated once, by the first tree (the base: its schema is the older)."""
    first = next(iter(trees))
    shutil.copyfile(src, copies[first])
    if consolidate:
        _mem(trees[first], copies[first], "consolidate")
        shutil.rmtree(copies[first].parent / "backups", ignore_errors=True)  # consolidate's own backup
    for name, tree in trees.items():
        if name != first:
            shutil.copyfile(copies[first], copies[name])
        _mem(tree, copies[name], "stats")  # opening migrates the copy to this tree's schema (untimed)


def _fmt(xs: list[float]) -> str:
    return f"{statistics.median(xs):.3f} ({min(xs):.3f}–{max(xs):.3f})"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("stores", nargs="*", type=Path)
    ap.add_argument("--base", type=Path, help="another code tree to compare with (same run, alternating)")
    ap.add_argument("--work", type=Path, default=Path("/tmp/brief_speed"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--keep", action="store_true", help="keep the copies in --work")
    ap.add_argument("--consolidate", action="store_true", help="consolidate each copy first (untimed)")
    ap.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        worker(*args.worker)
        return 0
    if not args.stores:
        ap.error("give at least one store")
    trees = {"this tree": ROOT}
    if args.base:
        trees = {"base": args.base.resolve(), "this tree": ROOT}
    args.work.mkdir(parents=True, exist_ok=True)
    print(f"load average at start: {os.getloadavg()}", file=sys.stderr)
    rows = []
    for src in args.stores:
        copies = {name: args.work / f"{src.stem}.{i}.db" for i, name in enumerate(trees)}
        try:
            print(f"preparing {', '.join(map(str, copies.values()))}", file=sys.stderr)
            _prepare(trees, src, copies, args.consolidate)
            res: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
            load0 = os.getloadavg()[0]
            for i in range(args.runs):
                for name, tree in trees.items():
                    res[name].append(_run(tree, copies[name]))
                print(f"  {src.name} run {i + 1}: " + ", ".join(
                    f"{n} {r[-1]['first']['cpu']:.3f}/{r[-1]['second']['cpu']:.3f}" for n, r in res.items()),
                    file=sys.stderr)
            load1 = os.getloadavg()[0]
            texts = {name: r[0]["text"] for name, r in res.items()}
            same = len(set(texts.values())) == 1
            for name, r in res.items():
                rows.append((src.name, name, _fmt([x["first"]["cpu"] for x in r]),
                             _fmt([x["second"]["cpu"] for x in r]), _fmt([x["first"]["wall"] for x in r]),
                             f"{load0:.1f} → {load1:.1f}", "identical" if same else "DIFFERENT"))
                print("  | " + " | ".join(rows[-1]) + " |", file=sys.stderr)
            if not same and args.base:
                for name, t in texts.items():
                    (args.work / f"{src.stem}.{name.replace(' ', '_')}.md").write_text(t, encoding="utf-8")
                print(f"  the texts differ: see {args.work}/{src.stem}.*.md", file=sys.stderr)
        finally:
            if not args.keep:
                for p in copies.values():
                    for q in (p, Path(f"{p}-wal"), Path(f"{p}-shm"), Path(f"{p}.consolidate.lock")):
                        q.unlink(missing_ok=True)
    print("| store | tree | first call CPU s | second call CPU s | first call wall s | load | text |")
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
