#!/usr/bin/env python3
"""Ceiling of the graph strategies on LoCoMo multi-hop: what if the edges were perfect? (issue 5)

Copies the `locomo_graph.py` stores (temporal, part_of and semantic kNN edges), then adds
*oracle* edges: an `explicit` edge of weight 0.9 between every two evidence turns of each
multi-hop question, i.e. exactly the links a multi-hop walk would need. Scored:

* hybrid, `graph` and `activation` as shipped (max-merge: a memory keeps the larger of its
  own score and what reaches it; plus support among seeds over explicit/causal links,
  ``graph.SUPPORT``), and without that support, on the stores with the oracle edges added;
* sum-merge, a re-ranking of hybrid's top 30 where each seed also gets beta × w × the
  score of every seed linked to it (evidence accumulates over links), over the oracle edges
  only and over the real edges only. beta 0 is hybrid's top 30 without session coverage.

    python bench/locomo_oracle.py --graph-stores /tmp/locomo-graph --reuse /tmp/locomo-oracle

It answers whether the bar is out of reach because of the walk or because of the edges.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import locomo_graph as lg  # noqa: E402
from bench.common import DEFAULT_LOCOMO, RecallFn, build_stores, evaluate, load_locomo, log, md_table  # noqa: E402
from memengine import graph as G  # noqa: E402
from memory_core import MemoryStore, to_iso, utcnow, write_tx  # noqa: E402

ORACLE_WEIGHT = 0.9
REAL_TYPES = frozenset({"temporal", "semantic", "part_of"})


def add_oracle_edges(store: MemoryStore, conv: Any) -> int:
    """An explicit edge between every two evidence turns of each multi-hop question."""
    ids = {r[1].split("/", 1)[1]: int(r[0]) for r in
           store.conn.execute("SELECT id, ref FROM memories WHERE ref LIKE ?", (conv.sample_id + "/%",))}
    now, n = to_iso(utcnow()), 0
    with write_tx(store.conn):
        for q in conv.questions:
            if q.category != 1:
                continue
            ev = [ids[e] for e in dict.fromkeys(q.evidence) if e in ids]
            for i, a in enumerate(ev):
                for b in ev[i + 1:]:
                    lo, hi = sorted((a, b))
                    n += store.conn.execute(
                        "INSERT OR IGNORE INTO associations(source_id, target_id, edge_type, weight, created_at) "
                        "VALUES (?, ?, 'explicit', ?, ?)", (lo, hi, ORACLE_WEIGHT, now)).rowcount
    return n


def sum_merge_fn(beta: float, types: frozenset[str] | set[str]) -> RecallFn:
    """Hybrid's top 30, each seed + beta × Σ w × (score of a linked seed), over edges of ``types``."""

    def fn(store: MemoryStore, query: str, k: int) -> list[str]:
        seeds, _ = G.seed_scores(store, query, G.SEED_K)
        nbrs = G.Adjacency(store, threshold=G.EDGE_THRESHOLD).neighbours(sorted(seeds))
        score = dict(seeds)
        for u in seeds:
            for v, w, edge_type in nbrs[u]:
                if v in seeds and v != u and edge_type in types:
                    score[v] += beta * w * seeds[u]
        order = sorted(score, key=lambda i: (-score[i], i))
        rows = store.rows(order)
        refs = [rows[i].ref or "" for i in order if i in rows]
        return [r for r in refs if not r.startswith("episode:")][:k]

    return fn


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("path", nargs="?", default=str(DEFAULT_LOCOMO))
    ap.add_argument("--graph-stores", required=True, help="a locomo_graph.py --reuse directory (copied, not changed)")
    ap.add_argument("--reuse", default="/tmp/locomo-oracle", help="where the copies with oracle edges live")
    args = ap.parse_args()
    convs, _ = load_locomo(Path(args.path))
    out = Path(args.reuse)
    if not out.exists():
        shutil.copytree(args.graph_stores, out)
    stores = build_stores(convs, out, reuse=True)
    for c in convs:
        log(f"  {c.sample_id}: edges {lg.add_edges(stores[c.sample_id], c.sample_id)}, "
            f"oracle edges added {add_oracle_edges(stores[c.sample_id], c)}")
    qs = [q for c in convs for q in c.questions]
    runs: dict[str, RecallFn] = {
        "hybrid": lg.hybrid_fn(),
        "graph (as shipped)": lg.graph_fn("graph"),
        "graph, no support (max-merge alone)": lg.graph_fn("graph", support=0.0),
        "activation (as shipped)": lg.graph_fn("activation"),
        "activation, no support (max-merge alone)": lg.graph_fn("activation", support=0.0),
        "activation, no inhibition": lg.graph_fn("activation", inhibition=0.0),
    }
    for beta in (0.0, 0.1, 0.3):
        runs[f"sum-merge beta {beta}, oracle edges only"] = sum_merge_fn(beta, {"explicit"})
    for beta in (0.1, 0.3):
        runs[f"sum-merge beta {beta}, real edges only"] = sum_merge_fn(beta, REAL_TYPES)
    rows = []
    for name, fn in runs.items():
        rows.append(lg.row(name, evaluate(stores, qs, fn)))
        log(f"{name}: done")
    print(f"# LoCoMo multi-hop with oracle edges ({len(qs)} questions)\n")
    print(md_table(lg.HEADER, rows))
    for st in stores.values():
        st.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
