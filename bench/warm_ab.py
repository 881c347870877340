"""Warm hybrid recall, this checkout against another (before/after), one process per side and round.

    .venv/bin/python bench/warm_ab.py --db NEW.db --before-repo OLD_CHECKOUT --before-db OLD.db --rounds 2

Each side opens its copy of the store in a new process, calls ``warm_up()`` (vector matrices,
keyword index), recalls 10 queries to settle, then times 150 of bench/latency.py's synthetic
queries (hybrid, k=10, no reinforcement). Printed per side and round: p50/p95 (wall; and the CPU of the calling
thread, and of the whole process per call: the recall's worker threads too), warm-up time,
the vector matrices' bytes, peak RSS and the load average; and the share of top-10 ids both
sides returned.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import REPO, emit_json, log  # noqa: E402
from bench.latency import synthetic_queries  # noqa: E402

CHILD = r"""
import json, os, resource, sys, time
repo, db, qfile = sys.argv[1:4]
sys.path.insert(0, repo)
from memory_core import MemoryStore
qs = json.load(open(qfile))
s = MemoryStore(db)
t = time.perf_counter(); s.warm_up(); warm = time.perf_counter() - t
for q in qs[:10]:
    s.recall(q, k=10, touch=False)
lat, cpu, ids = [], [], []
p0 = time.process_time()
for q in qs:
    t = time.perf_counter(); c = time.thread_time(); r = s.recall(q, k=10, touch=False)
    lat.append((time.perf_counter() - t) * 1000); cpu.append((time.thread_time() - c) * 1000)
    ids.append([m.id for m in r.results])
proc_ms = (time.process_time() - p0) * 1000 / len(qs)
lat.sort(); cpu.sort()
mats = sum(getattr(m, "nbytes", 0) or (m.mat.nbytes + m.ids.nbytes) for m in s._matrices.values())
print(json.dumps({"p50_ms": round(lat[len(lat) // 2], 1), "p95_ms": round(lat[int(len(lat) * 0.95)], 1),
                  "thread_cpu_p50_ms": round(cpu[len(cpu) // 2], 1), "thread_cpu_p95_ms": round(cpu[int(len(cpu) * 0.95)], 1),
                  "process_cpu_ms_per_call": round(proc_ms, 1),
                  "warm_up_s": round(warm, 1), "matrices_mb": round(mats / 2**20, 1),
                  "rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
                  "load": round(os.getloadavg()[0], 1), "ids": ids}))
"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", required=True, type=Path)
    ap.add_argument("--before-repo", required=True, type=Path)
    ap.add_argument("--before-db", required=True, type=Path)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--json", metavar="OUT")
    args = ap.parse_args(argv)
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    env.pop("MEM_EMBEDDER", None)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(synthetic_queries(150), f)
    sides = {"before": (args.before_repo, args.before_db), "after": (REPO, args.db)}
    out: dict[str, Any] = {name: [] for name in sides}
    ids: dict[str, list[list[int]]] = {}
    for r in range(args.rounds):
        for name, (repo, db) in sides.items():
            proc = subprocess.run([str(repo / ".venv" / "bin" / "python"), "-c", CHILD, str(repo), str(db), f.name],
                                  capture_output=True, text=True, env=env, check=True)
            res = json.loads(proc.stdout)
            ids[name] = res.pop("ids")
            out[name].append(res)
            log(f"  round {r + 1} {name}: {res}")
    both = sum(len(set(a) & set(b)) for a, b in zip(ids["before"], ids["after"]))
    out["top10_shared"] = round(both / max(1, sum(len(a) for a in ids["before"])), 3)
    Path(f.name).unlink()
    emit_json(out, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
