#!/usr/bin/env python3
"""Issue 7 experiments: question-to-statement query vectors and bm25 column weights.

1. ``q2s`` — the vector side embeds the question with its question framing removed
   (wh-word, the auxiliary that follows it, trailing "?": "When did Caroline go to the
   support group?" → "Caroline go to the support group"), instead of the question or
   together with it (mean of the two vectors, i.e. a weighted mean of the cosines, or
   the max of the two cosines per memory). General English rules, nothing dataset-specific.
2. ``reply`` — a turn that follows a question turn gets ``w_reply`` × that question's score
   (above the candidates' lowest): ``RecallConfig.w_reply``.
3. ``mmr`` — maximal marginal relevance over the hybrid top 30 (own or context vectors).
4. ``fts`` — a small grid over the bm25 weights of the context and context_far columns.

Every grid is scored per conversation once and selected by leave-one-conversation-out
(on recall@5 and on recall@10, see ``recall_signals.loo_multi``).

    python bench/recall_q2s.py --reuse /tmp/locomo-stores [--only q2s,reply,mmr,fts] [--show 20]
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

# the repository first: bench/keyword_index.py must not shadow the engine's keyword_index
# (this script's own directory is already on the path, after it)
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import common  # noqa: E402
from recall_ablation import QueryCache  # noqa: E402
from recall_signals import HEADER, row  # noqa: E402

import memory_core  # noqa: E402
from memory_core import FTS_WEIGHTS, RecallConfig  # noqa: E402

WH = r"(?:when|what|where|who|whom|whose|why|how|which)"
AUX = r"(?:do|does|did|is|are|was|were|am|has|have|had|will|would|can|could|should|shall|might|may|must)"
_LEAD_RE = re.compile(
    rf"^\s*(?:(?:in|on|at|to|for|from|with|about|around|by|during|after|before|since)\s+)?{WH}\b"
    r"(?:\s+(?:kind|kinds|type|types|sort|sorts)\s+of\b)?(?:\s+(?:many|much|long|often|far|old|soon)\b)?", re.I)
_AUX_RE = re.compile(rf"\b{AUX}(?:n't)?\b\s*", re.I)
_LEAD_AUX_RE = re.compile(rf"^\s*{AUX}(?:n't)?\b\s*", re.I)


def to_statement(question: str, aux: bool = True) -> str:
    """The question with its framing removed; the question itself if nothing would be left."""
    s = question.strip().rstrip("?!. ").strip()
    m = _LEAD_RE.match(s)
    if m:
        s = s[m.end():].strip()
        if aux:
            # the auxiliary of the inverted clause: first one within the next few words
            a = _AUX_RE.search(s)
            if a and len(s[:a.start()].split()) <= 3:
                s = (s[:a.start()] + s[a.end():]).strip()
    elif aux:
        s = _LEAD_AUX_RE.sub("", s, count=1)  # yes/no question: "Would X ...", "Did X ..."
    s = re.sub(r"\s+", " ", s).strip(" ,")
    return s if len(s.split()) >= 1 else question


HOOK: dict[str, Any] = {}
_orig_knn = memory_core.MemoryStore._knn


def _knn(self, table, vec, k):
    second = HOOK.get("second")
    if second is None:
        return _orig_knn(self, table, vec, k)
    a = dict(_orig_knn(self, table, vec, k))
    b = dict(_orig_knn(self, table, second, k))
    both = {i: max(a.get(i, -1.0), b.get(i, -1.0)) for i in a.keys() | b.keys()}
    return sorted(both.items(), key=lambda x: -x[1])[:k]


memory_core.MemoryStore._knn = _knn  # type: ignore[method-assign]


class RewritingEmbedder:
    """Query embedder: the question, its statement form, or a blend, per HOOK."""

    def __init__(self, cache: QueryCache) -> None:
        self.cache, self.model_id, self.dims = cache, cache.model_id, cache.dims

    def embed(self, texts: list[str], batch_size: int = 32):
        import numpy as np

        mode = HOOK.get("mode", "question")
        if mode == "question" or len(texts) != 1:
            return self.cache.embed(texts)
        q = texts[0]
        s = to_statement(q, aux=HOOK.get("aux", True))
        qv, sv = self.cache.embed([q, s])
        if mode == "statement":
            return sv[None, :]
        if mode == "mean":
            a = HOOK["alpha"]
            v = (1 - a) * qv + a * sv
            return (v / (np.linalg.norm(v) or 1.0))[None, :].astype(np.float32)
        if mode == "max":
            HOOK["second"] = sv
            return qv[None, :]
        raise ValueError(mode)


def loo_from(per: dict[str, list[dict]], title: str) -> None:
    """LOO selection (on recall@5 and on recall@10) from per-question results of every grid point."""
    sids = sorted({d["sample_id"] for d in next(iter(per.values()))})
    metrics = ("recall@5", "recall@10", "mrr", "all@10")

    def pooled(name: str, keep: list[str], metric: str) -> float:
        vals = [d[metric] for d in per[name] if d["sample_id"] in keep]
        return sum(vals) / len(vals)

    for select in ("recall@5", "recall@10"):
        folds = []
        for held in sids:
            best = max(per, key=lambda nm: pooled(nm, [s for s in sids if s != held], select))
            n = sum(1 for d in per[best] if d["sample_id"] == held)
            folds.append([held, best, *[pooled(best, [held], m) for m in metrics], n])
        n = sum(f[-1] for f in folds)
        est = [sum(f[i] * f[-1] for f in folds) / n for i in range(2, 2 + len(metrics))]
        print(f"\n### {title}: leave-one-conversation-out selecting on {select}\n")
        print(common.md_table(["held out", "chosen", "held-out r@5", "held-out r@10", "held-out MRR",
                               "held-out all@10", "n"], folds))
        first = next(iter(per))
        print(f"\nLOO estimate: r@5 {est[0]:.4f}, r@10 {est[1]:.4f}, MRR {est[2]:.4f}, all@10 {est[3]:.4f} "
              f"(first grid point '{first}': r@5 {pooled(first, sids, 'recall@5'):.4f}, "
              f"r@10 {pooled(first, sids, 'recall@10'):.4f})")


def fn_for(cfg: RecallConfig, strategy: str = "hybrid", **hook: Any) -> common.RecallFn:
    def fn(store, query: str, k: int) -> list[str]:
        HOOK.clear()
        HOOK.update(hook)
        res = store.recall(query, k=k, strategy=strategy, touch=False, config=cfg)
        HOOK.clear()
        return [m.ref or "" for m in res.results]

    return fn


def mmr_fn(cfg: RecallConfig, lam: float, table: str = "vec_memories", depth: int = 30) -> common.RecallFn:
    """Hybrid recall, then maximal marginal relevance over its top ``depth``: each next result
    maximises score − lam·(largest cosine with a result already taken)."""

    def fn(store, query: str, k: int) -> list[str]:
        res = store.recall(query, k=max(k, depth), strategy="hybrid", touch=False, config=cfg).results
        if not lam:
            return [m.ref or "" for m in res[:k]]
        vecs = store.vectors([m.id for m in res], table)
        left = list(res)
        taken: list[Any] = []
        while left and len(taken) < k:
            def gain(m):
                v = vecs.get(m.id)
                sim = max((float(v @ vecs[t.id]) for t in taken if t.id in vecs), default=0.0) if v is not None else 0.0
                return (m.score or 0.0) - lam * max(sim, 0.0)
            best = max(left, key=gain)
            taken.append(best)
            left.remove(best)
        return [m.ref or "" for m in taken]

    return fn


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("path", nargs="?", default=str(common.DEFAULT_LOCOMO))
    ap.add_argument("--reuse", type=Path, default=Path("/tmp/locomo-stores"), help="store directory (built if stale)")
    ap.add_argument("--only", default="q2s,fts", help="comma list of experiments")
    ap.add_argument("--show", type=int, default=0, help="print N example rewrites")
    args = ap.parse_args()
    only = set(args.only.split(","))
    convs, _ = common.load_locomo(Path(args.path))
    questions = [q for c in convs for q in c.questions]
    if args.show:
        for q in questions[:: max(1, len(questions) // args.show)][: args.show]:
            print(f"{q.question!r} -> {to_statement(q.question)!r}")
        return
    stores = common.build_stores(convs, args.reuse, reuse=True)
    cache = QueryCache(next(iter(stores.values())).embedder)
    emb = RewritingEmbedder(cache)
    for s in stores.values():
        s._embedder = emb
    base = RecallConfig()

    def table(grid: dict[str, common.RecallFn], title: str) -> None:
        rows, per = [], {}
        for name, fn in grid.items():
            res = common.evaluate(stores, questions, fn, per_question=True)
            common.log(f"  {name}: r@5 {res['overall']['recall@5']:.4f} r@10 {res['overall']['recall@10']:.4f}")
            rows.append(row(name, res))
            per[name] = [d for d in res["questions"] if d["category"] in common.SCORED_CATEGORIES]
        print(f"\n## {title}\n")
        print(common.md_table(HEADER, rows))
        loo_from(per, title)

    if "q2s" in only:
        grid = {"question": fn_for(base)}
        grid["statement"] = fn_for(base, mode="statement")
        grid["statement (wh only)"] = fn_for(base, mode="statement", aux=False)
        for a in (0.3, 0.5, 0.7):
            grid[f"mean a={a}"] = fn_for(base, mode="mean", alpha=a)
        grid["max"] = fn_for(base, mode="max")
        table(grid, "q2s: question vs statement vector")
    if "reply" in only:
        grid = {f"w_reply={w}": fn_for(RecallConfig(w_reply=w)) for w in (0.0, 0.05, 0.1, 0.15, 0.2)}
        table(grid, "reply prior")
    if "mmr" in only:
        grid = {"no mmr": mmr_fn(base, 0.0)}
        for table_ in ("vec_memories", "vec_contexts"):
            for lam in (0.05, 0.1, 0.2, 0.3):
                grid[f"mmr {table_} lam={lam}"] = mmr_fn(base, lam, table_)
        table(grid, "mmr: diversity over the top 30")
    if "fts" in only:
        grid = {}
        for ctx in (0.2, 0.3, 0.4, 0.5, 0.6):
            for far in (0.0, 0.1, 0.2, 0.3):
                w = (FTS_WEIGHTS[0], FTS_WEIGHTS[1], FTS_WEIGHTS[2], ctx, far)
                grid[f"ctx={ctx} far={far}"] = fn_for(RecallConfig(fts_weights=w))
        # the default first, so ties go to it
        d = f"ctx={FTS_WEIGHTS[3]} far={FTS_WEIGHTS[4]}"
        grid = {d: grid.pop(d), **grid}
        table(grid, "fts: context column weights")


if __name__ == "__main__":
    main()
