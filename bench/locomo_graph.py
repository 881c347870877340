"""LoCoMo with a graph: do `graph` / `activation` find the evidence hybrid misses?

The harness stores (bench/common.py) have no edges. This script adds the edges a real
import plus consolidation would make, then scores hybrid vs graph vs activation and
the ablations (no inhibition, no fan-out normalisation, hops 1/2/3):

* temporal: consecutive turns of one session (weight ``TEMPORAL_W``);
* part_of: turns → episodes, via ``ingest.build_episodes`` (the importer's segmentation);
* semantic: each turn's ``SEM_K`` nearest turns with cosine ≥ ``SEM_MIN`` (weight = cosine).

    python bench/locomo_graph.py --reuse /tmp/locomo-graph --vectors-from /tmp/bench-work/locomo-stores
    python bench/locomo_graph.py --reuse /tmp/locomo-graph --grid     # also the tuning grid + LOO

Episode memories are hubs: the graph strategies never return them; for hybrid, which
would, they are dropped from its ranking (so hybrid is scored as on the edge-less store).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import (  # noqa: E402
    DEFAULT_LOCOMO,
    RecallFn,
    build_stores,
    evaluate,
    leave_one_out,
    load_locomo,
    log,
    md_table,
)
from memory_core import MemoryStore, to_iso, utcnow, write_tx  # noqa: E402

TEMPORAL_W = 0.6  # consecutive turns: related, but weaker than an episode's part_of (1.0)
SEM_K = 5  # semantic neighbours per turn (what a kNN consolidation pass would link)
SEM_MIN = 0.5  # MiniLM cosine below this is topical noise on chit-chat


def add_edges(store: MemoryStore, sample_id: str) -> dict[str, int]:
    """Temporal + part_of + semantic kNN edges on a harness store (idempotent)."""
    import numpy as np

    from memengine import ingest

    conn = store.conn
    have = conn.execute("SELECT edge_type, count(*) FROM associations GROUP BY edge_type").fetchall()
    if have:
        return {str(t): int(n) for t, n in have}
    rows = conn.execute("SELECT id, ref FROM memories WHERE source = 'locomo' AND ref NOT LIKE 'episode:%' "
                        "ORDER BY position").fetchall()
    ids = [int(r[0]) for r in rows]
    sess = [r[1].split("/", 1)[1].split(":")[0] for r in rows]
    now = to_iso(utcnow())
    with write_tx(conn):
        for i in range(1, len(ids)):
            if sess[i] == sess[i - 1]:
                conn.execute("INSERT OR IGNORE INTO associations(source_id, target_id, edge_type, weight, created_at) "
                             "VALUES (?, ?, 'temporal', ?, ?)", (ids[i - 1], ids[i], TEMPORAL_W, now))
        vec = store.vectors(ids)
        m = np.stack([vec[i] for i in ids])
        sims = m @ m.T
        np.fill_diagonal(sims, -1)
        for a in range(len(ids)):
            for b in np.argsort(-sims[a])[:SEM_K]:
                c = float(sims[a, b])
                if c < SEM_MIN:
                    break
                lo, hi = sorted((ids[a], ids[int(b)]))
                conn.execute("INSERT OR IGNORE INTO associations(source_id, target_id, edge_type, weight, created_at) "
                             "VALUES (?, ?, 'semantic', ?, ?)", (lo, hi, round(c, 4), now))
    ingest.build_episodes(store, "locomo", sample_id)
    return {str(t): int(n) for t, n in
            conn.execute("SELECT edge_type, count(*) FROM associations GROUP BY edge_type")}


def hybrid_fn() -> RecallFn:
    """Hybrid, ignoring episode memories (scores as on the edge-less store)."""

    def fn(store: MemoryStore, query: str, k: int) -> list[str]:
        res = store.recall(query, k=k + 15, strategy="hybrid", touch=False)
        return [m.ref or "" for m in res.results if not (m.ref or "").startswith("episode:")][:k]

    return fn


def graph_fn(strategy: str, **opts: Any) -> RecallFn:
    """A graph strategy with options (the ablation / tuning knobs of ``graph.recall``)."""

    def fn(store: MemoryStore, query: str, k: int) -> list[str]:
        res = store.recall(query, k=k, strategy=strategy, touch=False, **opts)
        return [m.ref or "" for m in res.results]

    return fn


def row(name: str, res: dict[str, Any]) -> list[Any]:
    mh, o, lat = res["by_category"].get(1, {}), res["overall"], res["latency_ms"]
    return [name, mh.get("all@10", 0.0), mh.get("recall@10", 0.0), o["recall@5"], o["recall@10"], o["all@10"],
            o["mrr"], lat["p50"]]


HEADER = ["strategy", "multi-hop all@10", "multi-hop recall@10", "overall recall@5", "overall recall@10",
          "overall all@10", "overall MRR", "p50 ms"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("path", nargs="?", default=str(DEFAULT_LOCOMO))
    ap.add_argument("--reuse", metavar="DIR", default="/tmp/locomo-graph", help="store files (kept, reused)")
    ap.add_argument("--vectors-from", metavar="DIR", help="copy cached .vectors.npz from a locomo.py --keep dir")
    ap.add_argument("--grid", action="store_true", help="also run the tuning grid with leave-one-out selection")
    ap.add_argument("--json", metavar="OUT")
    args = ap.parse_args(argv)

    convs, norm = load_locomo(Path(args.path))
    directory = Path(args.reuse)
    directory.mkdir(parents=True, exist_ok=True)
    if args.vectors_from:
        for f in Path(args.vectors_from).glob("*.vectors.npz"):
            if not (directory / f.name).exists():
                shutil.copy(f, directory / f.name)
    from embedder import get_embedder

    emb = get_embedder()
    stores = build_stores(convs, directory, emb, reuse=True)
    for sid, st in stores.items():
        log(f"  {sid}: edges {add_edges(st, sid)}")
    emb.embed(["warm up"])
    qs = [q for c in convs for q in c.questions]

    runs: dict[str, RecallFn] = {
        "hybrid": hybrid_fn(),
        "graph (hops 2)": graph_fn("graph"),
        "activation (default)": graph_fn("activation"),
    }
    ablations: dict[str, RecallFn] = {
        "activation, no inhibition": graph_fn("activation", inhibition=0.0),
        "activation, no fan-out normalisation": graph_fn("activation", fanout_power=0.0),
        "activation, plain 1/fan-out": graph_fn("activation", fanout_power=1.0),
        "activation, hops 1": graph_fn("activation", hops=1),
        "activation, hops 2": graph_fn("activation", hops=2),
        "activation, hops 3": graph_fn("activation", hops=3),
        "graph, hops 1": graph_fn("graph", hops=1),
        "graph, hops 3": graph_fn("graph", hops=3),
    }
    results: dict[str, Any] = {}
    for name, fn in {**runs, **ablations}.items():
        t0 = time.perf_counter()
        results[name] = evaluate(stores, qs, fn)
        log(f"{name}: {time.perf_counter() - t0:.1f} s")
    n = results["hybrid"]["overall"]["n"]
    print(f"# LoCoMo with a graph — {len(convs)} conversations, {n} scored questions, embedder `{emb.model_id}`\n")
    print(md_table(HEADER, [row(nm, results[nm]) for nm in runs]))
    print("\n## ablations\n")
    print(md_table(HEADER, [row(nm, results[nm]) for nm in ["activation (default)", *ablations]]))
    loo = None
    if args.grid:
        grid: dict[str, RecallFn] = {}
        for decay in (0.4, 0.6, 0.8):
            for inh in (0.0, 0.5):
                for seed_k in (20, 40):
                    grid[f"act d={decay} inh={inh} seeds={seed_k}"] = graph_fn(
                        "activation", decay=decay, inhibition=inh, seed_k=seed_k)
        mh = [q for q in qs if q.category == 1]
        for nm, fn in grid.items():
            results[nm] = evaluate(stores, qs, fn)
        print("\n## tuning grid\n")
        print(md_table(HEADER, [row(nm, results[nm]) for nm in grid]))
        loo = leave_one_out(stores, mh, grid, metric="all@10")
        print(f"\nleave-one-conversation-out (multi-hop all@10): {loo['loo_estimate']:.3f}; chosen "
              + ", ".join(f"{f['held_out']}: {f['chosen']}" for f in loo["folds"]))
    if args.json:
        Path(args.json).write_text(json.dumps({"results": results, "loo": loo}, indent=2, default=str))
    for st in stores.values():
        st.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
