"""Graph speed at scale: 100k memories, 500k random edges.

    python bench/graph_bench.py                 # builds /tmp/mem-graph-bench.db once, then reuses it
    python bench/graph_bench.py --memories 20000 --edges 100000

Reports the warm latency of hybrid vs graph vs activation recall (the difference is
what the graph adds), and the cold `mem.py brief` time in a fresh subprocess, without
and then with the ranks consolidate's `rank` phase precomputes (the bench DB keeps them).
Vectors are random (a fake embedder through ``store_many``), texts are random words
from a small vocabulary so keyword search has hits.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import numpy as np  # noqa: E402

from memory_core import MemoryStore, NewMemory, to_iso, utcnow, write_tx  # noqa: E402

VOCAB = [f"w{i}" for i in range(5000)]


class RandomEmbedder:
    """Deterministic random unit vectors per text (no model): speed, not quality."""

    model_id = "random-384"
    dims = 384

    def embed(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        out = np.empty((len(texts), self.dims), dtype=np.float32)
        for i, t in enumerate(texts):
            seed = int.from_bytes(hashlib.blake2b(t.encode(), digest_size=8).digest(), "little")
            v = np.random.default_rng(seed).standard_normal(self.dims).astype(np.float32)
            out[i] = v / np.linalg.norm(v)
        return out

    def count_tokens(self, text: str) -> int:
        return len(text.split())


def build(path: Path, n: int, n_edges: int) -> None:
    rng = random.Random(7)
    store = MemoryStore(path, embedder=RandomEmbedder())
    t0 = time.perf_counter()
    items = (NewMemory(content=" ".join(rng.choices(VOCAB, k=12)), ref=str(i), source="bench",
                       importance=rng.random(), memory_type="semantic") for i in range(n))
    store.store_many(items, batch_size=2000)
    print(f"stored {n} memories in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    t0 = time.perf_counter()
    ids = [r[0] for r in store.conn.execute("SELECT id FROM memories")]
    types = ["semantic", "temporal", "explicit", "reinforces", "part_of"]
    now = to_iso(utcnow())
    seen: set[tuple[int, int, str]] = set()
    rows = []
    while len(rows) < n_edges:
        a, b = rng.sample(ids, 2)
        t = rng.choice(types)
        if (a, b, t) in seen:
            continue
        seen.add((a, b, t))
        rows.append((a, b, t, round(rng.uniform(0.1, 1.0), 3), now))
    with write_tx(store.conn):
        store.conn.executemany("INSERT INTO associations(source_id, target_id, edge_type, weight, created_at) "
                               "VALUES (?, ?, ?, ?, ?)", rows)
    print(f"inserted {n_edges} edges in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    store.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--memories", type=int, default=100_000)
    ap.add_argument("--edges", type=int, default=500_000)
    ap.add_argument("--db", default=None)
    ap.add_argument("--queries", type=int, default=40)
    args = ap.parse_args(argv)
    path = Path(args.db or f"/tmp/mem-graph-bench-{args.memories}-{args.edges}.db")
    if not path.exists():
        build(path, args.memories, args.edges)
    store = MemoryStore(path, embedder=RandomEmbedder())
    rng = random.Random(11)
    queries = [" ".join(rng.choices(VOCAB, k=4)) for _ in range(args.queries)]
    lat: dict[str, list[float]] = {}
    for strategy in ("hybrid", "graph", "activation", "hybrid"):  # hybrid twice: the second is warm
        for q in queries[:5]:
            store.recall(q, k=10, strategy=strategy, touch=False)  # warm caches
        times = []
        for q in queries:
            t0 = time.perf_counter()
            store.recall(q, k=10, strategy=strategy, touch=False)
            times.append((time.perf_counter() - t0) * 1000)
        lat[strategy] = times
    base = statistics.median(lat["hybrid"])
    print(f"# graph speed — {args.memories:,} memories, {args.edges:,} edges\n")
    print("| strategy | p50 ms | p95 ms | added over hybrid (p50) |\n|---|---|---|---|")
    for s, t in lat.items():
        t = sorted(t)
        print(f"| {s} | {statistics.median(t):.1f} | {t[int(0.95 * (len(t) - 1))]:.1f} | "
              f"{statistics.median(t) - base:+.1f} |")
    # Same seeds, walk only: what activation itself costs (the hybrid part is the seed recall at SEED_K).
    from memengine import graph, graph_rank

    walk, cpu = [], []
    for q in queries:
        seeds, _ = graph.seed_scores(store, q, graph.SEED_K)
        t0, c0 = time.perf_counter(), time.thread_time()
        graph.spread_activation(graph.Adjacency(store), seeds)
        walk.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.thread_time() - c0) * 1000)
    # thread CPU time: process time would also count the BLAS threads spinning after the kNN matmul
    print(f"\nspreading activation alone (seeds given): wall p50 {statistics.median(walk):.1f} ms, "
          f"max {max(walk):.1f} ms; thread CPU p50 {statistics.median(cpu):.1f} ms (wall inflates on a loaded machine)")
    # brief: first with no precomputed ranks (on the fly), then after consolidate's `rank` phase
    with write_tx(store.conn):
        store.conn.execute("DELETE FROM _mem_meta WHERE key = ?", (graph_rank.RANKS_META_KEY,))
    env = dict(os.environ, MEM_DB=str(path))
    for label in ("on the fly (no precomputed ranks)", "precomputed ranks"):
        if label == "precomputed ranks":
            t0 = time.perf_counter()
            graph_rank.precompute_ranks(store)
            print(f"\nconsolidate `rank` phase (graph_rank.precompute_ranks): {time.perf_counter() - t0:.2f} s")
        cold, took = [], []
        for _ in range(5):
            t0 = time.perf_counter()
            r = subprocess.run([sys.executable, str(REPO / "mem.py"), "brief", "--budget", "2000", "--json"],
                               capture_output=True, text=True, env=env)
            cold.append(time.perf_counter() - t0)
            if r.returncode != 0:
                print(r.stderr, file=sys.stderr)
                return 1
            took.append(json.loads(r.stdout)["took_ms"])
        print(f"`mem.py brief --budget 2000` cold subprocess, {label}: median {statistics.median(cold):.2f} s, "
              f"min {min(cold):.2f} s (in-process took_ms median {statistics.median(took):.0f})")
    store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
