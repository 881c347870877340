"""Per-query steps of warm hybrid recall: which queries make the p95 tail, and in which step.

    .venv/bin/python bench/warm_steps.py --db STORE.db [--queries 200] [--save-top F] [--compare F] [--dump DIR]

Opens the store with the real embedder, ``warm_up()``, then recalls bench/scale.py's LoCoMo
questions (hybrid, k=10, no reinforcement) ``--runs`` times, timing each step of each query
on the thread that runs it (wall and that thread's CPU): keyword index search, each vector
table's search (and inside it the sign ranking), the query embedding, the filter, the candidate
read and fusion. Prints the per-step p50/p95, then the slowest queries with their steps.

``--save-top F`` writes each query's top-10 ids (JSON); ``--compare F`` prints the overlap of
this run's top-10 with a saved one (the agreement of two code versions on the same store).
``--ab`` alternates rounds of the code as it was before issue 22's warm-1M work ("before": no
keyword pruning, the one-pass Hamming scan; "after-split": the memories' table scanned on a second
worker while the keyword side runs (pipeline.SPLIT_THREE); "before-blas": also BLAS on every core, as in a process not started by
mem.py, which sets OPENBLAS_NUM_THREADS=1 as this script does) and as it is ("after") in this one process, after one
warm-up, and prints both variants' wall and CPU per query (and whether their top-10s agree). "main" is "after"
without the 26 Nov warm-1M session's steps: no coarse cells (``vcells.CELLS_FROM``, approximate above it) and no
narrowing of the keyword side (exact): ``--variants main,after`` prints the CPU of both and how often the
approximate path's top-10 is the exact path's (same order, same set, overlap, top-1).

``--dump DIR`` writes the keyword index's arrays, both vector matrices and each query's
arguments to DIR (``.npy`` + ``.pkl``) for offline micro-benchmarks of the steps.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import pickle
import statistics
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as mem.py and bench/scale.py (before numpy)

import numpy as np  # noqa: E402

from bench.common import percentile  # noqa: E402
from bench.scale import queries as locomo_questions  # noqa: E402
from memengine import keyword_index, signrank, vcells, vectors  # noqa: E402
from memengine.recall import pipeline  # noqa: E402
from memory_core import MemoryStore  # noqa: E402

_steps: list[tuple[str, str, float, float]] = []  # (thread, step, wall ms, thread CPU ms) of the current query
_calls: list[tuple[str, Any]] = []  # (step, arguments) of the current query, for --dump


def _timed(name: str, fn: Callable[..., Any], record: Callable[[tuple[Any, ...]], Any] | None = None) -> Callable[..., Any]:
    @functools.wraps(fn)
    def wrapper(*a: Any, **kw: Any) -> Any:
        if record is not None:
            _calls.append((name, record(a)))
        w, c = time.perf_counter(), time.thread_time()
        try:
            return fn(*a, **kw)
        finally:
            _steps.append((threading.current_thread().name, name, (time.perf_counter() - w) * 1000,
                           (time.thread_time() - c) * 1000))
    return wrapper


def instrument() -> None:
    """Wrap the steps (module attributes and methods) with timers."""
    ki = keyword_index.KeywordIndex
    ki.search = _timed("keyword", ki.search, lambda a: (list(a[2]), a[3]))  # type: ignore[method-assign]
    keyword_index._matched_rows = _timed("kw.matched", keyword_index._matched_rows)
    keyword_index._best = _timed("kw.best", keyword_index._best)
    vm = vectors.VectorMatrix

    def vsearch(fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def wrapper(self: Any, vec: Any, k: int) -> Any:
            _calls.append(("vec:" + self.table, (np.array(vec), k)))
            return _timed("vec:" + self.table, fn)(self, vec, k)
        return wrapper

    vm.search = vsearch(vm.search)  # type: ignore[method-assign]
    for name in ("hamming_cols", "estimate", "rank_rows"):
        setattr(signrank, name, _timed("sign." + name, getattr(signrank, name)))
    rc = pipeline.Recall
    for meth, step in (("embed_or_none", "embed"), ("allowed", "allowed"), ("_candidates", "candidates"),
                       ("_fuse", "fuse"), ("rows", "rows"), ("people_in", "people"), ("_keyword_terms", "terms"),
                       ("filter_sql", "filter_sql")):
        setattr(rc, meth, _timed(step, getattr(rc, meth)))


_PRUNED = keyword_index.KeywordIndex._pruned
_HAMMING = signrank._hamming_counts
_CELLS_FROM = vcells.CELLS_FROM
_NARROW_RATIO = keyword_index.NARROW_RATIO


def _hamming_counts_before(cols: Any, query_signs: Any, present: Any, counts: bool = True) -> Any:
    """The Hamming pass as it was before: a fresh array per word and pass, then one bincount."""
    q = np.packbits(np.asarray(query_signs) > 0).view(np.uint64)
    ham = np.zeros(len(cols[0]), dtype=np.uint16)
    for w in range(len(cols)):
        ham += np.bitwise_count(cols[w] ^ q[w])
    if present is not None:
        ham[~present] = signrank.ABSENT
    return ham, np.bincount(ham) if counts else None


def variant(name: str) -> None:
    """Switch this process to the code "before" or "after" (see ``--ab``)."""
    from threadpoolctl import threadpool_limits

    from memengine import blas

    # "before-blas": as a process not started by mem.py was, BLAS on every core
    threadpool_limits(limits=os.cpu_count() if name == "before-blas" else 1, user_api="blas")
    blas._state["done"] = True  # (recall must not change it again)
    # "main": as "after" without this session's steps: no cells above vcells.CELLS_FROM (approximate),
    # no narrowing of the keyword side's last words (exact; NARROW_RATIO 0: the final lookups at once)
    # "after-inline": as "after" with the keyword side run inline (no read-ahead on the worker while
    # the query is embedded: pipeline.PREFETCH_KEYWORDS, issue 21's third round)
    pipeline.PREFETCH_KEYWORDS = name != "after-inline"
    # "after-nosteal": as "after" with the calling thread waiting for the worker's keyword read-ahead
    # before its own scan, and the context scan always left to the worker (before issue 21's round 4)
    pipeline.STEAL_CONTEXTS = name != "after-nosteal"
    name = "after" if name in ("after-inline", "after-nosteal") else name
    vcells.CELLS_FROM = _CELLS_FROM if name in ("after", "after-split") else 1 << 62
    keyword_index.NARROW_RATIO = _NARROW_RATIO if name in ("after", "after-split") else 0
    if name.startswith("before"):
        keyword_index.KeywordIndex._pruned = lambda self, *a: None  # type: ignore[method-assign]
        signrank._hamming_counts = _hamming_counts_before
        pipeline.SPLIT_THREE = False
    else:
        keyword_index.KeywordIndex._pruned = _PRUNED  # type: ignore[method-assign]
        signrank._hamming_counts = _HAMMING
        pipeline.SPLIT_THREE = name == "after-split"
        blas._state.clear()  # the next recall limits BLAS to one thread (as it already is)


def ab(store: Any, qs: list[str], rounds: int, names: list[str]) -> None:
    """Alternating rounds of the variants over all queries; wall and CPU per query of each."""
    stats: dict[str, dict[str, list[float]]] = {v: {"wall": [], "cpu": [], "main": []} for v in names}
    tops: dict[str, dict[str, list[int]]] = {v: {} for v in names}
    full: dict[str, dict[str, list[Any]]] = {v: {} for v in names}  # (id, score, weak) of each result
    for r in range(rounds):
        for v in (names if r % 2 == 0 else names[::-1]):
            variant(v)
            for q in qs:
                w, c, m = time.perf_counter(), time.process_time(), time.thread_time()
                res = store.recall(q, k=10, touch=False)
                stats[v]["wall"].append((time.perf_counter() - w) * 1000)
                stats[v]["cpu"].append((time.process_time() - c) * 1000)
                stats[v]["main"].append((time.thread_time() - m) * 1000)
                tops[v][q] = [m.id for m in res.results]
                full[v][q] = [(m.id, m.score, m.weak) for m in res.results]
            print(f"  round {r + 1} {v:6}: wall p50 {percentile(stats[v]['wall'][-len(qs):], 50):.1f} "
                  f"p95 {percentile(stats[v]['wall'][-len(qs):], 95):.1f} ms, load {os.getloadavg()[0]:.1f}", flush=True)
    for v, st in stats.items():
        print(f"{v:6}: wall p50 {percentile(st['wall'], 50):.1f} p95 {percentile(st['wall'], 95):.1f} ms; "
              f"CPU p50 {percentile(st['cpu'], 50):.1f} p95 {percentile(st['cpu'], 95):.1f} ms "
              f"(calling thread's CPU p50 {percentile(st['main'], 50):.1f} p95 {percentile(st['main'], 95):.1f}) "
              f"({rounds} rounds x {len(qs)} queries)")
    same = sum(all(tops[v][q] == tops[names[0]][q] for v in names) for q in qs)
    print(f"identical top-10 lists across {', '.join(names)}: {same}/{len(qs)}")
    for v in names[1:]:  # agreement of each variant with the first (the reference), question by question
        print(f"  {v} against {names[0]}: identical results (ids, scores, weak flags) "
              f"{sum(full[v][q] == full[names[0]][q] for q in qs)}/{len(qs)}")
        ref = tops[names[0]]
        overlap = [len(set(tops[v][q]) & set(ref[q])) / max(1, len(ref[q])) for q in qs]
        print(f"  {v} against {names[0]}: identical top-10 (same order) {sum(tops[v][q] == ref[q] for q in qs)}"
              f"/{len(qs)}, same set {sum(set(tops[v][q]) == set(ref[q]) for q in qs)}/{len(qs)}, "
              f"set overlap mean {statistics.fmean(overlap):.4f} min {min(overlap):.2f}, "
              f"same top-1 {sum(tops[v][q][:1] == ref[q][:1] for q in qs)}/{len(qs)}")


def _profile(store: Any, q: str) -> dict[str, float]:
    """One recall, its wall and CPU and each step's wall and thread CPU (``[w]``: on a worker thread)."""
    _steps.clear()
    _calls.clear()
    w, c = time.perf_counter(), time.process_time()
    store.recall(q, k=10, touch=False)
    out: dict[str, float] = defaultdict(float)
    out["wall"], out["cpu"] = (time.perf_counter() - w) * 1000, (time.process_time() - c) * 1000
    for thread, step, sw, sc in _steps:
        tag = "" if thread == "MainThread" else "[w]"
        out[step + tag] += sw
        out[step + tag + ".cpu"] += sc
    return out


def steps_ab(store: Any, qs: list[str], runs: int, names: list[str]) -> None:
    """Per-step CPU of each variant, runs alternating (``--steps-ab``): each query's median over runs."""
    per: dict[str, dict[int, list[dict[str, float]]]] = {v: defaultdict(list) for v in names}
    for run in range(runs):
        for v in (names if run % 2 == 0 else names[::-1]):
            variant(v)
            for i, q in enumerate(qs):
                per[v][i].append(_profile(store, q))
            print(f"  run {run + 1} {v}: load {os.getloadavg()[0]:.1f}", flush=True)
    med = {v: [{key: statistics.median(r.get(key, 0.0) for r in rs) for key in set().union(*rs)}
               for rs in per[v].values()] for v in names}
    keys = sorted({key for v in names for m in med[v] for key in m if key.endswith(".cpu") or key in ("wall", "cpu")})
    print(f"\n{'step (CPU ms of its thread)':28}" + "".join(f" {v + ' p50':>12} {v + ' p95':>12}" for v in names))
    for key in keys:
        cells = "".join(f" {percentile([m.get(key, 0.0) for m in med[v]], 50):12.2f}"
                        f" {percentile([m.get(key, 0.0) for m in med[v]], 95):12.2f}" for v in names)
        print(f"{key:28}{cells}")


def dump(store: Any, calls: list[list[tuple[str, Any]]], out: Path) -> None:
    """The keyword index's arrays, both vector matrices and the per-query arguments, to ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    idx = store._keyword_index
    base = idx._base
    for name in ("docs", "wtf", "wtf_values", "lengths", "present"):
        np.save(out / f"kw_{name}.npy", getattr(base, name))
    np.save(out / "kw_norm.npy", idx._norm())
    with open(out / "kw_meta.pkl", "wb") as f:
        pickle.dump({"terms": base.terms, "nrow": idx._nrow, "stems": idx._stems}, f)
    for table in ("vec_memories", "vec_contexts"):
        m = store._matrices[table]
        np.save(out / f"{table}_planes.npy", np.ascontiguousarray(m._planes[:, :m.n]))
        np.save(out / f"{table}_q8.npy", m._q8[:m.n])
        np.save(out / f"{table}_inv.npy", m._inv[:m.n])
        np.save(out / f"{table}_ids.npy", m._ids[:m.n])
    with open(out / "calls.pkl", "wb") as f:
        pickle.dump(calls, f)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", required=True, type=Path)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--synthetic", action="store_true",
                    help="bench/latency.py's synthetic questions (agent_latency.py's, seed 23) instead of LoCoMo's: "
                         "for its random-text stores")
    ap.add_argument("--runs", type=int, default=2, help="step-profile runs (0: none, after --ab)")
    ap.add_argument("--slowest", type=int, default=12)
    ap.add_argument("--save-top", type=Path)
    ap.add_argument("--compare", type=Path)
    ap.add_argument("--dump", type=Path)
    ap.add_argument("--ab", type=int, default=0, metavar="ROUNDS", help="alternate before/after (see above)")
    ap.add_argument("--steps-ab", metavar="VARIANTS", help="step-profile runs alternating these variants "
                    "(e.g. main,after: each step's CPU p50/p95 side by side)")
    ap.add_argument("--runs-variant", default="after", help="the code the step-profile runs use (see --ab)")
    ap.add_argument("--variants", default="before,after", help="for --ab: before, before-blas, main, after, after-split, after-inline, "
                    "after-nosteal")
    args = ap.parse_args(argv)
    from embedder import OnnxEmbedder

    if args.synthetic:
        from bench.latency import synthetic_queries

        qs = synthetic_queries(args.queries, seed=23)
    else:
        qs = locomo_questions(args.queries)
    store = MemoryStore(str(args.db), embedder=OnnxEmbedder(), keyword_index=True)
    t0 = time.perf_counter()
    store.warm_up()
    print(f"{args.db.name}: warm-up {time.perf_counter() - t0:.1f} s, load {os.getloadavg()[0]:.1f}", flush=True)
    if args.ab:
        for q in qs[:5]:
            store.recall(q, k=10, touch=False)
        ab(store, qs, args.ab, args.variants.split(","))
    if args.ab or args.runs_variant != "after":
        variant(args.runs_variant)
        if not args.runs:
            store.close()
            return 0
    instrument()
    for q in qs[:5]:
        store.recall(q, k=10, touch=False)
    if args.steps_ab:
        steps_ab(store, qs, args.runs, args.steps_ab.split(","))
        store.close()
        return 0
    per: dict[int, list[dict[str, Any]]] = defaultdict(list)
    top: dict[str, list[int]] = {}
    calls: list[list[tuple[str, Any]]] = []
    for run in range(args.runs):
        for i, q in enumerate(qs):
            _steps.clear()
            _calls.clear()
            w, c = time.perf_counter(), time.process_time()
            res = store.recall(q, k=10, touch=False)
            wall, cpu = (time.perf_counter() - w) * 1000, (time.process_time() - c) * 1000
            steps: dict[str, float] = defaultdict(float)
            for thread, step, sw, sc in _steps:
                tag = "" if thread == "MainThread" else "[w]"
                steps[step + tag] += sw
                steps[step + tag + ".cpu"] += sc
            per[i].append({"wall": wall, "cpu": cpu, **steps})
            if run == 0:
                top[q] = [m.id for m in res.results]
                calls.append(list(_calls))
        print(f"run {run + 1}: wall p50 {percentile([p[-1]['wall'] for p in per.values()], 50):.1f} "
              f"p95 {percentile([p[-1]['wall'] for p in per.values()], 95):.1f} ms, load {os.getloadavg()[0]:.1f}",
              flush=True)
    # a query's figure: its median over runs (a spike of load in one run is not the query's)
    med = {i: {key: statistics.median(r.get(key, 0.0) for r in rs) for key in rs[0]} for i, rs in per.items()}
    keys = sorted({key for m in med.values() for key in m}, key=lambda s: (s.endswith(".cpu"), s))
    print(f"\n{'step':24} {'p50':>7} {'p95':>7} {'mean':>7}   (ms, median of {args.runs} runs per query)")
    for key in keys:
        xs = [m.get(key, 0.0) for m in med.values()]
        print(f"{key:24} {percentile(xs, 50):7.2f} {percentile(xs, 95):7.2f} {statistics.fmean(xs):7.2f}")
    slow = sorted(med, key=lambda i: -med[i]["wall"])[:args.slowest]
    show = [k for k in keys if not k.endswith(".cpu") and k not in ("wall",)]
    print("\nslowest queries (wall, cpu, then each step's wall):")
    for i in slow:
        m = med[i]
        parts = " ".join(f"{k}={m.get(k, 0.0):.1f}" for k in show if m.get(k, 0.0) >= 0.5)
        print(f"  {m['wall']:6.1f} {m['cpu']:6.1f}  {qs[i][:60]!r}\n      {parts}")
    if args.save_top:
        args.save_top.write_text(json.dumps(top))
    if args.compare:
        ref = json.loads(args.compare.read_text())
        same = [len(set(top[q]) & set(ref[q])) / max(1, len(ref[q])) for q in top if q in ref]
        exact = sum(top[q] == ref[q] for q in top if q in ref)
        print(f"\ntop-10 overlap with {args.compare.name}: mean {statistics.fmean(same):.4f}, "
              f"min {min(same):.2f}; identical lists {exact}/{len(same)}")
    if args.dump:
        dump(store, calls, args.dump)
        print(f"dumped to {args.dump}")
    store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
