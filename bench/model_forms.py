#!/usr/bin/env python3
"""The int8 form of the model against the published file, in one run (embedder.int8_model).

    python bench/model_forms.py                                   # query calls, load, fidelity
    python bench/model_forms.py --db /tmp/lat/locomo-100000.v2.db # + warm recall A/B at 100k

Both forms are loaded in this process and measured alternately, so a drift in the
host's speed hits both alike:

* **load**: session creation plus the first call, one-shot CLI settings (the published
  file without graph optimisation, as ``mem.py`` loads it; the int8 form with it);
* **query call**: ``embed([question])`` per question (tokenizer + onnxruntime + pooling),
  p50 / p95 over the questions, median over ``--rounds`` alternating rounds;
* **fidelity**: cosine between the two forms' vectors of the same questions;
* with ``--db`` (a DB built by ``bench/latency.py --reuse DIR``): warm hybrid recall on
  it, the store's embedder switched between the forms every round (``RandomStoreEmbedder``
  as in ``latency.py``: real query embeddings); medians of the rounds' p50 / p95.

Questions: the LoCoMo dev questions when ``../shared`` is present, else synthetic ones.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from bench.common import DEFAULT_LOCOMO, load_locomo, log, md_table, percentile  # noqa: E402


def questions(n: int) -> list[str]:
    """``n`` questions: LoCoMo dev ones if the shared data is there, else synthetic ones."""
    if DEFAULT_LOCOMO.exists():
        convs, _ = load_locomo(DEFAULT_LOCOMO)
        return [q.question for c in convs for q in c.questions][:n]
    from bench.latency import synthetic_texts

    return [f"what about {t.split('.')[0].lower()}?" for t in synthetic_texts(n, 11)]


def load_form(int8: bool, fast_start: bool) -> tuple[Any, float]:
    """A fresh OnnxEmbedder of one form and the seconds its load and first call took."""
    from embedder import OnnxEmbedder

    os.environ["MEM_INT8"] = "1" if int8 else "0"
    try:
        emb = OnnxEmbedder(fast_start=fast_start)
        t0 = time.perf_counter()
        emb.embed(["warm up"])
        took = time.perf_counter() - t0
    finally:
        os.environ.pop("MEM_INT8", None)
    return emb, took


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=6, help="alternating rounds (default: %(default)s)")
    ap.add_argument("--db", type=Path, help="a 100k DB from bench/latency.py --reuse DIR: adds the warm recall A/B")
    args = ap.parse_args(argv)
    os.environ.pop("MEM_EMBEDDER", None)
    qs = questions(args.queries)
    forms = {"published": False, "int8": True}

    loads: dict[str, list[float]] = {name: [] for name in forms}
    for _ in range(3):
        for name, int8 in forms.items():
            loads[name].append(load_form(int8, fast_start=True)[1])
    emb = {name: load_form(int8, fast_start=False)[0] for name, int8 in forms.items()}
    log(f"{len(qs)} questions; runs: " + ", ".join(f"{n} {e.runs}" for n, e in emb.items()))

    calls: dict[str, list[tuple[float, float]]] = {name: [] for name in forms}
    for _ in range(args.rounds):
        for name, e in emb.items():
            lat = []
            for q in qs:
                t0 = time.perf_counter()
                e.embed([q])
                lat.append((time.perf_counter() - t0) * 1000)
            calls[name].append((percentile(lat, 50), percentile(lat, 95)))
    a, b = emb["int8"].embed(qs), emb["published"].embed(qs)
    cos = (a * b).sum(axis=1)

    recall: dict[str, list[tuple[float, float]]] = {name: [] for name in forms}
    if args.db:
        import memory_core
        from bench.latency import RandomStoreEmbedder

        wrapped = {}
        for name, e in emb.items():
            wrapped[name] = RandomStoreEmbedder(e)
            wrapped[name].storing = False
        store = memory_core.MemoryStore(args.db, embedder=wrapped["int8"], keyword_index=True)
        store.warm_up()
        for _ in range(args.rounds):
            for name in forms:
                store._embedder = wrapped[name]
                lat = []
                for q in qs:
                    t0 = time.perf_counter()
                    store.recall(q, k=10, touch=False)
                    lat.append((time.perf_counter() - t0) * 1000)
                recall[name].append((percentile(lat, 50), percentile(lat, 95)))
        store.close()

    def med(rows: list[tuple[float, float]], i: int) -> str:
        return f"{statistics.median(r[i] for r in rows):.2f}"

    print(f"# model forms: published file vs int8 form — {len(qs)} questions, {args.rounds} alternating rounds, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}\n")
    rows = [["load + first call, one-shot CLI settings (median of 3), s"]
            + [f"{statistics.median(loads[n]):.3f}" for n in forms],
            ["query embedding p50, ms"] + [med(calls[n], 0) for n in forms],
            ["query embedding p95, ms"] + [med(calls[n], 1) for n in forms]]
    if args.db:
        rows += [[f"warm hybrid recall p50, ms ({args.db.name})"] + [med(recall[n], 0) for n in forms],
                 [f"warm hybrid recall p95, ms ({args.db.name})"] + [med(recall[n], 1) for n in forms]]
    print(md_table(["", *forms], rows))
    print(f"\ncosine int8 vs published over the questions: mean {cos.mean():.4f}, min {cos.min():.4f}, "
          f"1st percentile {np.percentile(cos, 1):.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
