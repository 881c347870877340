#!/usr/bin/env python3
"""The in-process keyword index (``keyword_index.py``) against FTS5: same scores, less time.

FTS5 computes bm25 by visiting every row that matches any query word, ~1 us a row,
which kept warm hybrid recall at 100k above 20 ms (``bench/latency.py``). The engine's
``KeywordIndex`` holds FTS5's own tokens (``fts5vocab`` ``instance``: tokenization and
stemming are FTS5's) as numpy postings and scores with FTS5's formula. This script builds
one on a DB, runs the same queries through both, and prints the build cost, the largest
score difference and both latencies.

    python bench/keyword_index.py /tmp/lat/synthetic-100000.v2-plain.db
    python bench/keyword_index.py /tmp/lat/locomo-100000.v2.db      # LoCoMo questions as queries
    python bench/keyword_index.py /tmp/lat/synthetic-100000.v2-plain.db --questions locomo
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

import memory_core as mc  # noqa: E402
from bench.common import DEFAULT_LOCOMO, load_locomo, percentile  # noqa: E402
from memengine.keyword_index import KeywordIndex  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("db")
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--questions", choices=("locomo", "synthetic"),
                    help="query set (default: synthetic for DBs named synthetic-*, else the LoCoMo questions)")
    args = ap.parse_args(argv)
    conn = mc.connect(args.db)
    kind = args.questions or ("synthetic" if Path(args.db).name.startswith("synthetic") else "locomo")
    if kind == "locomo":
        convs, _ = load_locomo(DEFAULT_LOCOMO)
        queries = [q.question for cv in convs for q in cv.questions][: args.queries]
    else:
        from bench.latency import synthetic_queries

        queries = synthetic_queries(args.queries)
    t0 = time.perf_counter()
    index = KeywordIndex(args.db, mc.FTS_WEIGHTS)
    index.start()
    index.wait()
    load_s = time.perf_counter() - t0
    w = ", ".join(str(x) for x in mc.FTS_WEIGHTS)
    sql = (f"SELECT rowid, -bm25(memories_fts, {w}) AS s FROM memories_fts WHERE memories_fts MATCH ? "
           f"ORDER BY s DESC, rowid LIMIT 200")
    t_fts, t_np, max_rel, same_scores = [], [], 0.0, 0
    for q in queries:
        words = mc.query_terms(q)
        if not words:
            continue
        t1 = time.perf_counter()
        ref = conn.execute(sql, (" OR ".join(mc.quote_fts(x) for x in words),)).fetchall()
        t2 = time.perf_counter()
        got = index.search(conn, words, 200)
        if got is None:  # a word FTS5 runs as a phrase: the engine asks FTS5 for these
            continue
        t3 = time.perf_counter()
        t_fts.append((t2 - t1) * 1000)
        t_np.append((t3 - t2) * 1000)
        r, g = {a: s for a, s in ref}, dict(got)
        for i in r.keys() & g.keys():
            max_rel = max(max_rel, abs(r[i] - g[i]) / max(1e-9, abs(r[i])))
        # top 10 agree when the score lists match (ties may swap rows with equal scores)
        same_scores += bool(np.allclose([s for _, s in ref[:10]], [s for _, s in got[:10]], rtol=1e-5))
    print(f"# FTS5 bm25 vs the in-process keyword index — {Path(args.db).name}, {len(t_fts)} queries\n")
    st = index.stats()
    print(f"build: {st['terms']:,} terms, {st['postings']:,} postings in {load_s:.1f} s ({st['bytes'] / 2**20:.0f} MB)")
    print(f"scores: max relative difference {max_rel:.1e}; top-10 score lists equal in {same_scores}/{len(t_fts)}")
    print(f"latency p50/p95: FTS5 {percentile(t_fts, 50):.1f}/{percentile(t_fts, 95):.1f} ms, "
          f"keyword index {percentile(t_np, 50):.1f}/{percentile(t_np, 95):.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
