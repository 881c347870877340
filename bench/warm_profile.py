"""Where one warm hybrid recall spends its time: CPU per query and a cProfile of the steps.

    .venv/bin/python bench/warm_profile.py --db STORE.db [--queries 150] [--top 30]

Opens the store, calls ``warm_up()`` (vector matrices, keyword index), recalls 10 queries to
settle, then runs bench/latency.py's synthetic queries (hybrid, k=10, no reinforcement) twice:
once timed (CPU of the whole process and wall, per query, with the load average) and once under
cProfile (its times are wall times of the main thread: a step that waits on another thread
shows the wait). Steps whose cost grows with the store show up by running it on two sizes.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.latency import synthetic_queries  # noqa: E402
from memory_core import MemoryStore  # noqa: E402

STEPS = "pipeline|vectors|signrank|keyword_index|fusion|storebase|liveset|priors|embed"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", required=True, type=Path)
    ap.add_argument("--queries", type=int, default=150)
    ap.add_argument("--top", type=int, default=30, help="profile lines shown (default: %(default)s)")
    args = ap.parse_args(argv)
    if not args.db.exists():
        print(f"warm_profile: {args.db}: no such store", file=sys.stderr)
        return 2
    qs = synthetic_queries(args.queries)
    store = MemoryStore(str(args.db))
    store.warm_up()
    for q in qs[:10]:
        store.recall(q, k=10, touch=False)
    cpu, wall = time.process_time(), time.perf_counter()
    for q in qs:
        store.recall(q, k=10, touch=False)
    cpu, wall = (time.process_time() - cpu) / len(qs) * 1000, (time.perf_counter() - wall) / len(qs) * 1000
    print(f"{args.db.name}: CPU {cpu:.1f} ms / wall {wall:.1f} ms per query ({len(qs)} queries), "
          f"load {os.getloadavg()[0]:.1f}")
    prof = cProfile.Profile()
    prof.enable()
    for q in qs:
        store.recall(q, k=10, touch=False)
    prof.disable()
    stats = pstats.Stats(prof)
    stats.sort_stats("tottime").print_stats(args.top)
    stats.sort_stats("cumulative").print_stats(STEPS, args.top)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
