"""Coarse cells (``memengine.vcells``) on a homogeneous table: how often the approximate kNN
keeps the exact path's neighbours when every row is near real text.

    .venv/bin/python bench/vcells_agreement.py --cache /tmp/scl [--sizes 300000,1000000] [--queries 200] [--share F]

``bench/scale.py``'s stores derive their vectors by copying LoCoMo's under a signed permutation
per copy, so a question's neighbours all sit in copy 0 and the cells separate the copies: an
easy case for an inverted file. Here every row is a real LoCoMo turn vector (``--cache``:
the ``locomo-turns.*.npz`` that bench/scale.py writes) mixed with a second one and Gaussian
noise (cosine ~0.8 to its source), so the table is one dense cloud around real text, and the
queries are the LoCoMo questions embedded by the real model. For each size it prints, per
query, the kNN of recall's width (``VEC_POOL`` = 400) with and without cells: top-10 identical
(same order), same top-10 set, top-1, mean / min overlap of the 400, and CPU per search.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from bench.common import percentile  # noqa: E402
from bench.scale import queries as locomo_questions  # noqa: E402
from memengine import vcells  # noqa: E402
from memengine.recall.config import VEC_POOL  # noqa: E402
from memengine.vectors import DIMS, VectorMatrix, as_stored  # noqa: E402

NOISE = 0.035  # per dimension: a row keeps cosine ~0.8 to its mix of two turns
MIX = 0.35  # weight of the second turn


def build(turns: np.ndarray, n: int, seed: int = 0) -> VectorMatrix:
    """A matrix of ``n`` rows: each a turn vector plus MIX of another and noise, stored as int8."""
    rng = np.random.default_rng(seed)
    m = VectorMatrix("vec_memories")
    for a in range(0, n, 100_000):
        b = min(n, a + 100_000)
        x = turns[rng.integers(0, len(turns), b - a)] + MIX * turns[rng.integers(0, len(turns), b - a)]
        x += rng.standard_normal(x.shape, dtype=np.float32) * NOISE
        q8 = np.rint(x * (127.0 / np.abs(x).max(axis=1, keepdims=True))).astype(np.int8)  # as vec_blob
        m.append_int8(np.arange(a + 1, b + 1, dtype=np.int64), q8)
    m.loaded = True
    return m


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cache", type=Path, required=True, help="directory with bench/scale.py's locomo-turns.*.npz")
    ap.add_argument("--sizes", default="300000,1000000")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--share", type=float, default=vcells.PROBE_SHARE, help="probe share (vcells.PROBE_SHARE)")
    args = ap.parse_args(argv)
    vcells.PROBE_SHARE = args.share
    from embedder import OnnxEmbedder

    npz = sorted(args.cache.glob("locomo-turns.*.npz"))
    if not npz:
        print(f"no locomo-turns.*.npz in {args.cache} (bench/scale.py writes it)", file=sys.stderr)
        return 2
    turns = np.load(npz[0])["vecs"].astype(np.float32)
    qs = [as_stored(v) for v in OnnxEmbedder().embed(locomo_questions(args.queries))]
    print(f"{len(turns)} LoCoMo turn vectors ({npz[0].name}), {len(qs)} questions; cells from "
          f"{vcells.CELLS_FROM:,} rows, {vcells.CELLS} cells, probe share {vcells.PROBE_SHARE}; "
          f"load {os.getloadavg()[0]:.1f}")
    keep = vcells.CELLS_FROM
    for n in (int(s) for s in args.sizes.split(",")):
        m = build(turns, n)
        t = time.process_time()
        m._layout()
        built = time.process_time() - t
        assert m._cells is not None and m._cells.planes.shape[0] == DIMS // 64
        cpu: dict[str, list[float]] = {"exact": [], "cells": []}
        res: dict[str, list[list[int]]] = {"exact": [], "cells": []}
        for r in range(2):  # alternating, the second round timed
            for name in (("exact", "cells") if r == 0 else ("cells", "exact")):
                vcells.CELLS_FROM = keep if name == "cells" else 1 << 62
                for q in qs:
                    c = time.thread_time()
                    hits = m.search(q, VEC_POOL)
                    if r:
                        cpu[name].append((time.thread_time() - c) * 1000)
                    else:
                        res[name].append([i for i, _ in hits])
        vcells.CELLS_FROM = keep
        ex, ce = res["exact"], res["cells"]
        over = [len(set(a) & set(b)) / max(1, len(a)) for a, b in zip(ex, ce)]
        print(f"{n:>9,} rows (cells built in {built:.1f} CPU-s): top-10 identical {sum(a[:10] == b[:10] for a, b in zip(ex, ce))}"
              f"/{len(qs)}, same top-10 set {sum(set(a[:10]) == set(b[:10]) for a, b in zip(ex, ce))}/{len(qs)}, "
              f"top-1 {sum(a[:1] == b[:1] for a, b in zip(ex, ce))}/{len(qs)}, overlap of the {VEC_POOL} mean "
              f"{statistics.fmean(over):.4f} min {min(over):.3f}; CPU per search p50/p95 exact "
              f"{percentile(cpu['exact'], 50):.2f}/{percentile(cpu['exact'], 95):.2f} ms, cells "
              f"{percentile(cpu['cells'], 50):.2f}/{percentile(cpu['cells'], 95):.2f} ms; load {os.getloadavg()[0]:.1f}",
              flush=True)
        del m
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
