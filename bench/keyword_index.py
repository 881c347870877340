#!/usr/bin/env python3
"""Prototype for the next step of issue 2: FTS5's bm25, reproduced exactly in numpy.

FTS5's bm25 costs ~1 us for every row that matches any query word, which is what keeps
warm hybrid recall at 100k above 20 ms (bench/latency.py). This script reads FTS5's own
tokens (``fts5vocab`` ``instance``: term, row, column; so stemming and tokenization are
FTS5's), builds per-term postings of column-weighted term frequencies, and scores
queries with FTS5's formula (k1 = 1.2, b = 0.75, idf = ln((N - n + 0.5) / (n + 0.5)),
floored at 1e-6, row length over all columns). It then compares the scores with FTS5's
on the same queries, and the time of both.

    python bench/keyword_index.py /tmp/lat/synthetic-100000.v2-plain.db
    python bench/keyword_index.py /tmp/lat/locomo-100000.v2.db      # LoCoMo questions as queries
    python bench/keyword_index.py /tmp/lat/synthetic-100000.v2-plain.db --questions locomo

What it does not solve yet (why it is a bench, not the engine): loading reads every
token instance (~10 s for 100k plain notes, far more for chat turns with context
columns), and new or changed rows would need the same tokens incrementally.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

import memory_core as mc  # noqa: E402
from bench.common import DEFAULT_LOCOMO, load_locomo, percentile  # noqa: E402

K1, B = 1.2, 0.75


class Bm25Index:
    """Per-term postings (row, Σ column weight × tf) and row lengths, from FTS5's tokens."""

    def __init__(self, conn: Any, weights: tuple[float, ...] = mc.FTS_WEIGHTS) -> None:
        conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.kw_instances USING fts5vocab(main, memories_fts, instance)")
        col_no = {name: i for i, name in enumerate(mc.FTS_COLUMNS)}
        self.term_id: dict[str, int] = {}
        t, d, c = [], [], []
        for term, doc, col in conn.execute("SELECT term, doc, col FROM temp.kw_instances"):
            i = self.term_id.setdefault(term, len(self.term_id))
            t.append(i)
            d.append(doc)
            c.append(col_no[col])
        terms, docs, cols = np.array(t, np.int64), np.array(d, np.int64), np.array(c, np.int64)
        self.instances = len(terms)
        self.nrow = int(conn.execute("SELECT count(*) FROM memories_fts_docsize").fetchone()[0])
        self.size = int(docs.max()) + 1 if len(docs) else 1
        length = np.bincount(docs, minlength=self.size).astype(np.float32)
        self.norm = K1 * (1 - B + B * length / (length.sum() / max(1, self.nrow)))
        key = terms * self.size + docs
        order = np.argsort(key, kind="stable")
        key, weight = key[order], np.asarray(weights, np.float32)[cols[order]]
        uniq, start = np.unique(key, return_index=True)
        self.tf = np.add.reduceat(weight, start) if len(weight) else weight
        self.docs = uniq % self.size
        self.bounds = np.searchsorted(uniq // self.size, np.arange(len(self.term_id) + 1))
        self._stemmer = mc.connect(":memory:")
        self._stemmer.execute("CREATE VIRTUAL TABLE s USING fts5(t, tokenize='porter unicode61 remove_diacritics 2')")
        self._stemmer.execute("CREATE VIRTUAL TABLE sv USING fts5vocab(s, instance)")

    def stems(self, words: list[str]) -> set[str]:
        """The words as FTS5 indexes them (its own tokenizer, through a scratch table)."""
        self._stemmer.execute("DELETE FROM s")
        self._stemmer.executemany("INSERT INTO s(t) VALUES (?)", [(w,) for w in words])
        return {r[0] for r in self._stemmer.execute("SELECT term FROM sv")}

    def search(self, words: list[str], k: int) -> list[tuple[int, float]]:
        """(rowid, bm25) of the k best rows, best first; ties by rowid."""
        score = np.zeros(self.size, np.float32)
        for stem in self.stems(words):
            i = self.term_id.get(stem)
            if i is None:
                continue
            lo, hi = self.bounds[i], self.bounds[i + 1]
            docs, tf = self.docs[lo:hi], self.tf[lo:hi]
            idf = math.log((self.nrow - (hi - lo) + 0.5) / ((hi - lo) + 0.5))
            score[docs] += max(idf, 1e-6) * tf * (K1 + 1) / (tf + self.norm[docs])
        hit = np.flatnonzero(score)
        hit = hit[np.lexsort((hit, -score[hit]))][:k]
        return [(int(r), float(score[r])) for r in hit]


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
    index = Bm25Index(conn)
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
        got = index.search(words, 200)
        t3 = time.perf_counter()
        t_fts.append((t2 - t1) * 1000)
        t_np.append((t3 - t2) * 1000)
        r, g = {a: s for a, s in ref}, dict(got)
        for i in r.keys() & g.keys():
            max_rel = max(max_rel, abs(r[i] - g[i]) / max(1e-9, abs(r[i])))
        # top 10 agree when the score lists match (ties may swap rows with equal scores)
        same_scores += np.allclose([s for _, s in ref[:10]], [s for _, s in got[:10]], rtol=1e-5)
    print(f"# FTS5 bm25 vs numpy replica — {Path(args.db).name}, {len(t_fts)} queries\n")
    print(f"load: {index.instances:,} token instances, {len(index.term_id):,} terms, {len(index.docs):,} postings "
          f"in {load_s:.1f} s ({(index.docs.nbytes + index.tf.nbytes) / 2**20:.0f} MB)")
    print(f"scores: max relative difference {max_rel:.1e}; top-10 score lists equal in {same_scores}/{len(t_fts)}")
    print(f"latency p50/p95: FTS5 {percentile(t_fts, 50):.1f}/{percentile(t_fts, 95):.1f} ms, "
          f"numpy {percentile(t_np, 50):.1f}/{percentile(t_np, 95):.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
