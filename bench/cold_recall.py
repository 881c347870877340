"""One-shot CLI recall, this checkout against another (before/after), in one alternating run.

    .venv/bin/python bench/cold_recall.py --db /tmp/x/new-100000.db \
        --before-repo /tmp/old-checkout --before-db /tmp/x/old-100000.db --runs 12

Each run starts a new ``mem.py --db DB recall QUERY --json -k 5`` process (as an agent's
shell call does) for each side in turn, so both sides see the same machine load; queries
cycle through bench/latency.py's synthetic queries. Printed per side: p50/p95 of the wall
time and of the process CPU time (user + sys, from wait4: steadier than wall on a busy
machine), and whether both sides returned the same ids. The two stores must hold the same
memories (copies of one file; each side migrates its own copy as its code needs).
``--env NAME=VALUE`` sets a variable for the "after" side only (e.g. MEM_SIGNPLANE_MIN_ROWS=
1000000000 times this checkout with the exact scan).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import REPO, emit_json, log, percentile  # noqa: E402
from bench.latency import synthetic_queries  # noqa: E402


def one(repo: Path, db: Path, query: str, env: dict[str, str]) -> tuple[float, float, list[int]]:
    """(wall s, CPU s, result ids) of one recall process."""
    python = repo / ".venv" / "bin" / "python"
    t0 = time.perf_counter()
    proc = subprocess.Popen([str(python), str(repo / "mem.py"), "--db", str(db), "recall", query, "--json", "-k", "5"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    out = proc.stdout.read() if proc.stdout else b""
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        err = proc.stderr.read().decode() if proc.stderr else ""
        raise SystemExit(f"{repo}: recall failed ({proc.returncode}): {err[-400:]}")
    ids = [r["id"] for r in json.loads(out)["data"]["results"]]
    return wall, usage.ru_utime + usage.ru_stime, ids


def stats(xs: list[float]) -> dict[str, float]:
    return {"p50_s": round(percentile(xs, 50), 3), "p95_s": round(percentile(xs, 95), 3)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", required=True, type=Path, help="store for this checkout")
    ap.add_argument("--before-repo", type=Path, help="the other checkout (default: this one, exact scan forced)")
    ap.add_argument("--before-db", type=Path, help="its copy of the store (default: --db)")
    ap.add_argument("--runs", type=int, default=12)
    ap.add_argument("--env", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--json", metavar="OUT")
    args = ap.parse_args(argv)
    base = dict(os.environ)
    base.pop("PYTHONDONTWRITEBYTECODE", None)  # users run compiled bytecode (make setup compiles it)
    after_env = dict(base, **dict(e.split("=", 1) for e in args.env))
    before_repo = args.before_repo or REPO
    before_env = base if args.before_repo else dict(base, MEM_SIGNPLANE_MIN_ROWS=str(10**12))
    sides = {"before": (before_repo, args.before_db or args.db, before_env), "after": (REPO, args.db, after_env)}
    queries = synthetic_queries(max(args.runs, 1))
    for repo, db, env in sides.values():  # warm-up: bytecode compiled, migrations applied, pages cached
        one(repo, db, queries[0], env)
    res: dict[str, Any] = {"loadavg_start": os.getloadavg(), "runs": args.runs, "db": str(args.db)}
    wall: dict[str, list[float]] = {s: [] for s in sides}
    cpu: dict[str, list[float]] = {s: [] for s in sides}
    same = 0
    for i in range(args.runs):
        got = {}
        for name, (repo, db, env) in sides.items():
            w, c, ids = one(repo, db, queries[i], env)
            wall[name].append(w)
            cpu[name].append(c)
            got[name] = ids
        same += got["before"] == got["after"]
        log(f"  run {i + 1}: " + ", ".join(f"{s} {wall[s][-1]:.2f} s (cpu {cpu[s][-1]:.2f})" for s in sides))
    for name in sides:
        res[name] = {"wall": stats(wall[name]), "cpu": stats(cpu[name])}
    res["same_top5"] = f"{same}/{args.runs}"
    res["loadavg_end"] = os.getloadavg()
    emit_json(res, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
