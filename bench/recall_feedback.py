"""Widening the candidate pool and query-dependent fusion, judged by issue 19's protocol (none kept).

Each mechanism below is applied to the engine from outside (the store's retrieval and fusion are
wrapped here, the engine itself is unchanged) and scored by bench/loo.py's Scorer on both dev
sets: every variant's first questions are asked through ``recall()`` too and must give the same
top 10 as the fast path. Per family, leave-one-out picks a variant (or the engine as shipped) on
all other folds of both sets and scores it on the held-out fold.

* ``prf-vector`` — Rocchio: the query vector + β × the mean context vector of the first retrieval's
  best m candidates (min-max bm25 + min-max cosine), normalised, scans both vector tables again;
  its cosines replace the first ones (a second kNN: new candidates enter the pool).
* ``prf-keyword`` — RM3-like: the t words of the same m seeds weighing most (count in the seeds ×
  idf in the store's own texts; not in the question, no stopwords, in 2+ memories and < 50 % of
  them) are searched by bm25; a candidate's keyword score gains λ × that bm25.
* ``subqueries`` — each content word of the question (names of people left out) embedded alone;
  a candidate's vector score blends in λ × the mean (or max) of its min-max cosines to the parts.
* ``subquery-tail`` — the same blend, only for ranks 6–10 (ranks 1–5 as shipped, so recall@5
  cannot fall): aimed at multi-hop all-evidence@10.
* ``adaptive`` — query-dependent fusion weights: w_keyword moves by α × (1 − mean of the keyword
  side's 20 best normalised scores) − (the same for the vector side), clipped to 0.1–0.9.
* ``spread`` — session coverage from rank 1 or 2 (not 6) for every question or list questions.
* ``context-mix`` — a little of the turn's own cosine back in its vector score (loo.py's grid has 0.5).
* ``date`` — the date prior (``w_date``, off) for questions naming a calendar period.

    .venv/bin/python bench/recall_feedback.py --reuse /tmp/rc [--pool] [--only prf-vector,subqueries]

``--pool`` first prints where the evidence ranks in the engine's whole fused candidate pool (is the
pool the bottleneck, or the ranking inside it?).
"""

from __future__ import annotations

import argparse
import hashlib
import heapq
import math
import re
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import loo  # noqa: E402
from bench.common import DEFAULT_LOCOMO, log, md_table  # noqa: E402
from bench.realchat import DEFAULT_DATA, DEFAULT_QUESTIONS  # noqa: E402
from memengine.recall import fusion as fusion_mod  # noqa: E402
from memengine.recall import pipeline, priors  # noqa: E402
from memengine.recall.config import RETRIEVAL_FIELDS, RecallConfig  # noqa: E402
from memengine.recall.fusion import combine_sims, normalise_scores  # noqa: E402
from memengine.text import STOPWORDS, bare_text, query_terms, quote_fts  # noqa: E402
from memengine.vectors import as_stored  # noqa: E402

_WORD = re.compile(r"[^\W\d_][\w'’-]*", re.UNICODE)


@dataclass
class XConfig(RecallConfig):
    """The engine's config plus this script's mechanisms (all off by default)."""

    prf_vector: float = 0.0  # Rocchio's beta
    prf_docs: int = 5  # seeds of both feedback passes
    prf_terms: int = 0  # RM3-like expansion words
    prf_kw: float = 0.3  # their bm25's weight in the keyword score
    w_subquery: float = 0.0
    subquery_max: bool = False
    w_adapt: float = 0.0
    cover_from: int = pipeline.COVER_FROM
    cover_all: bool = False
    sq_tail: float = 0.0  # ranks after sq_from come from the sub-query blend at this weight
    sq_from: int = 5


X_RETRIEVAL = ("prf_vector", "prf_docs", "prf_terms", "prf_kw", "w_subquery", "subquery_max")


# --------------------------------------------------------------------------- mechanisms

def seeds(kw: dict[int, float], vs: dict[int, float], m: int) -> list[int]:
    """The best ``m`` candidates of the first retrieval: min-max bm25 + min-max cosine."""
    kn, vn = normalise_scores(kw, "minmax"), normalise_scores(vs, "minmax")
    score = {mid: kn.get(mid, 0.0) + vn.get(mid, 0.0) for mid in kn.keys() | vn.keys()}
    return sorted(score, key=lambda i: (-score[i], i))[:m]


def stored_vectors(store: Any, ids: list[int], cfg: RecallConfig) -> dict[int, Any]:
    """Context vectors of ``ids`` (own vectors for those without one)."""
    vecs = store.vectors(ids, "vec_contexts") if cfg.context_vectors else {}
    missing = [i for i in ids if i not in vecs]
    if missing:
        vecs.update(store.vectors(missing, "vec_memories"))
    return vecs


def vector_feedback(store: Any, run: Any, top: list[int]) -> None:
    """Rocchio's second scan: the moved query's cosines replace the first ones."""
    import numpy as np

    cfg = run.cfg
    vecs = stored_vectors(store, top, cfg)
    if not vecs or run.qvec is None:
        return
    v = np.asarray(run.qvec, dtype=np.float32) + cfg.prf_vector * np.mean(np.stack(list(vecs.values())), axis=0)
    run.qvec = as_stored(v / float(np.linalg.norm(v)))
    own, ctx = store._scan_vectors(run, max(pipeline.VEC_POOL, run.pool * 2))
    combined = run.combined = combine_sims(own, ctx, cfg.context_mix, min(own.values(), default=-1.0))
    by_sim = sorted(sorted(combined), key=combined.__getitem__, reverse=True)
    allowed = store.allowed(by_sim, run.where, run.args)
    run.ranked = [mid for mid in by_sim if mid in allowed]
    run.vs = {mid: combined[mid] for mid in run.ranked[:run.pool]}


def expansion_terms(texts: list[str], query: str, shares: Callable[[list[str]], dict[str, float]],
                    t: int) -> list[str]:
    """The ``t`` words of ``texts`` weighing most: count in the seeds × idf in the store."""
    asked = set(query_terms(query))
    counts: Counter[str] = Counter()
    for text in texts:
        for w in {w.lower() for w in _WORD.findall(text)}:
            if len(w) >= 3 and w not in STOPWORDS and w not in asked:
                counts[w] += 1
    share = shares(list(counts)) if counts else {}
    weight = {w: c * math.log(1.0 / s) for w, c in counts.items() if 0 < (s := share.get(w, 0.0)) < 0.5}
    return sorted(weight, key=lambda w: (-weight[w], w))[:t]


def keyword_feedback(store: Any, run: Any, top: list[int]) -> None:
    """RM3-like second bm25 over the seeds' heaviest words, added to ``run.kw``."""
    cfg = run.cfg
    rows = store._candidates(top)
    texts = [bare_text(rows[i].content, rows[i].author) for i in top if i in rows]
    terms = expansion_terms(texts, run.query, lambda ws: store.doc_shares(ws, "content"), cfg.prf_terms)
    if not terms:
        return
    extra = dict(store._keyword(" OR ".join(quote_fts(w) for w in terms), run.where, run.args, run.pool,
                                cfg.fts_weights, words=terms))
    kw = dict(run.kw)
    for mid, s in extra.items():
        kw[mid] = kw.get(mid, 0.0) + cfg.prf_kw * s
    run.kw = kw


def subquery_blend(store: Any, run: Any, weight: float, use_max: bool) -> dict[int, float] | None:
    """Each candidate's vector score blended with its cosines to the question's parts embedded alone:
    (1 − weight) × its score + weight × the mean (or max) of its min-max cosines to the parts, put on
    the candidates' score range. None when the question has fewer than two parts."""
    cfg = run.cfg
    names = {w for key in run.people for w in key.split()}
    terms = [t for t in query_terms(run.query) if t not in names]
    cand = sorted((set(run.kw) | set(run.vs)) & set(run.combined))
    if len(terms) < 2 or run.qvec is None or not cand:
        return None
    vecs = store.embed_or_none(terms)
    if vecs is None:
        return None
    table = "vec_contexts" if cfg.context_vectors else "vec_memories"
    per_term = []
    for v in vecs:
        sims = store.cosines(as_stored(v), cand, table)
        missing = [mid for mid in cand if mid not in sims]
        if missing:
            sims.update(store.cosines(as_stored(v), missing, "vec_memories"))
        per_term.append(normalise_scores(sims, "minmax"))
    lo, hi = min(run.combined[m] for m in cand), max(run.combined[m] for m in cand)
    out = dict(run.combined)
    for mid in cand:
        parts = [p.get(mid, 0.0) for p in per_term]
        agg = max(parts) if use_max else sum(parts) / len(parts)
        out[mid] = (1 - weight) * run.combined[mid] + weight * (lo + (hi - lo) * agg)
    return out


def subquery_scores(store: Any, run: Any) -> None:
    """The blend above as the recall's vector scores (every rank)."""
    blended = subquery_blend(store, run, run.cfg.w_subquery, run.cfg.subquery_max)
    if blended is not None:
        run.combined = blended
        run.vs = {mid: blended[mid] for mid in run.vs}


def subquery_tail(store: Any, run: Any, rank0: Any, explain: bool) -> Any:
    """Ranks 1..sq_from as shipped; the rest of the top k from the sub-query blend's ranking."""
    cfg = run.cfg
    first = rank0(store, run, explain)
    blended = subquery_blend(store, run, cfg.sq_tail, cfg.subquery_max)
    if blended is None or len(first) <= cfg.sq_from:
        return first
    second = rank0(store, replace(run, combined=blended, vs={m: blended[m] for m in run.vs},
                                  k=max(run.k, pipeline.COVER_POOL)), explain)
    head = first[:cfg.sq_from]
    seen = {m.id for m in head}
    return head + [m for m in second if m.id not in seen][:run.k - len(head)]


def adaptive_bases(f: Any) -> None:
    """Fusion's base scores with query-dependent weights (see ``adaptive`` above)."""
    cfg = f.cfg
    if not (f.hybrid and cfg.w_adapt and f.kn and f.vn):
        return

    def peak(d: dict[int, float]) -> float:
        top = heapq.nlargest(20, d.values())
        return 1.0 - sum(top) / len(top)

    total = cfg.w_keyword + cfg.w_vector
    wk = min(max(cfg.w_keyword + cfg.w_adapt * (peak(f.kn) - peak(f.vn)), 0.1 * total), 0.9 * total)
    f.bases = {mid: wk * f.kn.get(mid, 0.0) + (total - wk) * f.vn.get(mid, 0.0) for mid in f.rows}


def every_question(query: str) -> bool:
    """Session coverage for every question, not only list questions."""
    return True


def install() -> None:
    """Wrap the engine's retrieval, fusion and ranking so XConfig's fields take effect."""
    recall_cls = pipeline.Recall
    retrieve0, rank0, fusion_init0 = recall_cls._retrieve, recall_cls._rank, fusion_mod.Fusion.__init__
    many0 = pipeline.asks_for_many

    def _retrieve(self: Any, run: Any) -> None:
        retrieve0(self, run)
        cfg = run.cfg
        if run.strategy != "hybrid" or not isinstance(cfg, XConfig):
            return
        if cfg.w_subquery > 0:
            subquery_scores(self, run)
        if cfg.prf_vector > 0 or (cfg.prf_terms > 0 and cfg.prf_kw > 0):
            top = seeds(run.kw, run.vs, cfg.prf_docs)
            if top and cfg.prf_terms > 0 and cfg.prf_kw > 0:
                keyword_feedback(self, run, top)
            if top and cfg.prf_vector > 0:
                vector_feedback(self, run, top)

    def _rank(self: Any, run: Any, explain: bool) -> Any:
        cfg = run.cfg
        if not isinstance(cfg, XConfig):
            return rank0(self, run, explain)
        # (both modules read COVER_FROM as a global at call time)
        pipeline.COVER_FROM = priors.COVER_FROM = cfg.cover_from
        pipeline.asks_for_many = every_question if cfg.cover_all else many0
        try:
            if cfg.sq_tail > 0 and run.strategy == "hybrid":
                return subquery_tail(self, run, rank0, explain)
            return rank0(self, run, explain)
        finally:
            pipeline.COVER_FROM = priors.COVER_FROM = cover_from0
            pipeline.asks_for_many = many0

    def fusion_init(self: Any, *args: Any, **kwargs: Any) -> None:
        fusion_init0(self, *args, **kwargs)
        if isinstance(self.cfg, XConfig):
            adaptive_bases(self)

    cover_from0 = pipeline.COVER_FROM
    recall_cls._retrieve = _retrieve  # type: ignore[method-assign]
    recall_cls._rank = _rank  # type: ignore[method-assign]
    fusion_mod.Fusion.__init__ = fusion_init  # type: ignore[method-assign]
    setattr(loo, "RETRIEVAL_FIELDS", RETRIEVAL_FIELDS + X_RETRIEVAL)  # noqa: B010 (retrieval_key reads it)
    here = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:8]
    fp0 = loo.engine_fingerprint
    loo.engine_fingerprint = lambda: fp0() + "+" + here  # results cached for this script's code too


X = XConfig()
FAMILIES: dict[str, dict[str, XConfig]] = {
    "prf-vector": {f"β {b}, m {m}": replace(X, prf_vector=b, prf_docs=m)
                   for b, m in ((0.3, 5), (0.6, 5), (1.0, 5), (0.5, 3), (0.5, 10))},
    "prf-keyword": {f"t {t}, λ {k}, m {m}": replace(X, prf_terms=t, prf_kw=k, prf_docs=m)
                    for t, k, m in ((5, 0.3, 5), (10, 0.3, 5), (10, 0.1, 5), (5, 0.3, 3), (20, 0.2, 10))},
    "subqueries": {f"{'max' if mx else 'mean'} λ {w}": replace(X, w_subquery=w, subquery_max=mx)
                   for mx in (False, True) for w in (0.2, 0.4)},
    "adaptive": {f"α {a}": replace(X, w_adapt=a) for a in (0.25, 0.5, 1.0, -0.5)},
    "spread": {f"{'all' if al else 'list'} from {f + 1}, × {c}": replace(X, session_coverage=c, cover_from=f,
                                                                          cover_all=al)
               for al, f, c in ((True, 1, 0.97), (True, 1, 0.94), (True, 1, 0.9), (True, 2, 0.95), (False, 1, 0.9),
                                (False, 3, 0.9), (False, 5, 0.9))},
    "subquery-tail": {f"{'max' if mx else 'mean'} λ {w}, from {f + 1}": replace(X, sq_tail=w, subquery_max=mx,
                                                                                sq_from=f)
                      for mx, w, f in ((False, 0.2, 5), (False, 0.4, 5), (False, 0.6, 5), (True, 0.4, 5),
                                       (False, 0.4, 3))},
    "context-mix": {f"context_mix {w}": replace(X, context_mix=w) for w in (0.9, 0.8, 0.7)},
    "date": {f"w_date {w}": replace(X, w_date=w) for w in (0.05, 0.1, 0.15, 0.2, 0.3, 0.5)},
}


def pool_ranks(items: list[Any]) -> None:
    """Where the evidence sits in the engine's whole fused candidate pool (shipped config), per set
    and multi-hop or not: how much a wider pool could bring, and how much only re-ranking could."""
    buckets = ("1-5", "6-10", "11-30", "31-100", "101+", "not in pool")
    rows = []
    missed: dict[str, Counter[str]] = {s: Counter() for s in loo.SETS}
    for s in loo.SETS:
        for multi in (True, False):
            its = [it for it in items if it.set == s and it.multi == multi]
            counts = Counter[str]()
            every = Counter[str]()
            pool = 0
            for it in its:
                run = loo.retrieve(it.store, it.question, RecallConfig())
                cand = set(run.kw) | set(run.vs)
                pool += len(cand)
                ranked = it.store._rank(replace(run, k=len(cand) + 5), False)
                refs = [m.ref for m in ranked]
                ranks = [refs.index(e) if e in refs else None for e in it.evidence]
                kw10 = set(sorted(run.kw, key=lambda i: (-run.kw[i], i))[:10])
                vs10 = set(sorted(run.vs, key=lambda i: (-run.vs[i], i))[:10])
                top5 = {(m.thread, (m.event_at or "")[:10]) for m in ranked[:5]}
                for r in ranks:
                    if r is not None and 5 <= r < 30:  # evidence just missed: does either retriever see it?
                        m = ranked[r]
                        missed[s] += Counter({"n": 1, "kw": m.id not in kw10, "vs": m.id not in vs10,
                                              "session": (m.thread, (m.event_at or "")[:10]) not in top5})
                for r in ranks:
                    counts[buckets[5] if r is None else buckets[0] if r < 5 else buckets[1] if r < 10
                           else buckets[2] if r < 30 else buckets[3] if r < 100 else buckets[4]] += 1
                for cut, lab in ((10, "top 10"), (30, "top 30"), (10 ** 9, "pool")):
                    every[lab] += all(r is not None and r < cut for r in ranks)
            n_ev = sum(counts.values())
            rows.append([s, "multi-hop" if multi else "other", len(its), round(pool / max(1, len(its))), n_ev,
                         *[f"{counts[b] / n_ev:.3f}" for b in buckets],
                         *[f"{every[lab] / len(its):.3f}" for lab in ("top 10", "top 30", "pool")]])
    print(md_table(["set", "kind", "questions", "candidates / question", "evidence turns", *[f"evidence at {b}" for b in buckets],
                    "all evidence in top 10", "in top 30", "in the pool"], rows))
    print()
    for s, c in missed.items():
        print(f"{s}: {c['n']} evidence turns at ranks 6-30; outside the keyword side's top 10: {c['kw']}, "
              f"the vector side's: {c['vs']}; from a session with no turn in the top 5: {c['session']}")
    print()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", metavar="DIR", required=True, help="stores (bench/loo.py's) live here")
    ap.add_argument("--only", default="", help=f"comma list of families ({', '.join(FAMILIES)})")
    ap.add_argument("--pool", action="store_true", help="first print where the evidence ranks in the whole pool")
    args = ap.parse_args(argv)
    if not Path(DEFAULT_LOCOMO).exists():
        print(f"error: LoCoMo file not found: {DEFAULT_LOCOMO}", file=sys.stderr)
        return 2
    install()
    directory = Path(args.reuse)
    items = loo.load_items(Path(DEFAULT_LOCOMO), Path(DEFAULT_DATA), Path(DEFAULT_QUESTIONS), directory)
    if args.pool:
        pool_ranks(items)
    scorer = loo.Scorer(items, directory / "feedback-cache.json")
    only = {s.strip() for s in args.only.split(",") if s.strip()}
    base = scorer.scores(X)
    rows = []
    for fam, grid in FAMILIES.items():
        if only and fam not in only:
            continue
        log(f"{fam}: {len(grid)} variants")
        variants = {"shipped*": base, **{lab: scorer.scores(cfg) for lab, cfg in grid.items()}}
        for lab, sc in variants.items():
            row: list[Any] = [fam, lab]
            for s in loo.SETS:
                its = loo.by_set(items, s)
                m, b = loo.set_metrics(its, sc), loo.set_metrics(its, base)
                row += [f"{m['recall@5']:.3f} ({m['recall@5'] - b['recall@5']:+.3f} ±{2 * loo.paired_se(its, sc, base):.3f})",
                        f"{m['recall@10']:.3f}", f"{m['multi_all@10']:.3f}"]
            rows.append(row)
        chosen = loo.loo_choose(items, variants)
        ho = loo.held_out(items, chosen, variants)
        counts = Counter(chosen.values())
        row = [fam, "**leave-one-out** (" + ", ".join(f"{lab}×{n}" for lab, n in counts.most_common()) + ")"]
        for s in loo.SETS:
            its = loo.by_set(items, s)
            m, b = loo.set_metrics(its, ho), loo.set_metrics(its, base)
            row += [f"{m['recall@5']:.3f} ({m['recall@5'] - b['recall@5']:+.3f})", f"{m['recall@10']:.3f}",
                    f"{m['multi_all@10']:.3f}"]
        rows.append(row)
    print(md_table(["family", "variant", "LoCoMo r@5 (gain ±2 s.e.)", "LoCoMo r@10", "LoCoMo multi all@10",
                    "real r@5 (gain ±2 s.e.)", "real r@10", "real multi all@10"], rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
