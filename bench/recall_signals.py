#!/usr/bin/env python3
"""Candidate recall signals for issue 7, measured on LoCoMo dev with leave-one-conversation-out.

Four experiments, each scored on the same 760 questions as ``bench/locomo.py``:

1. ``df`` — query terms whose document share exceeds a threshold are left out of the
   keyword query (``RecallConfig.max_df``; share counted over any indexed column, or
   over ``content`` only). Also "pool by rare terms": candidates come from the rare
   terms only, but every candidate is scored with the whole query (what a faster
   keyword path could do). Prints the recall curve.
2. ``date`` — prior for memories dated inside a period the query names
   (``RecallConfig.w_date``), LOO over its weight.
3. ``session`` — passage retrieval with a document prior: the score of the memory's
   whole session (a thread run without a 6-hour gap) for the query, as the cosine of the
   session centroid or the idf-weighted share of query terms the session contains,
   min-max normalised over the candidates and added with a small weight. Prototype
   (computed here, not in the engine), LOO over kind and weight.
5. ``mix`` — how a conversational memory's two vectors make its vector score: the
   context vector alone (``RecallConfig.context_mix=1``, the default), a blend, or the
   max of own and context cosines (``None``, the rule before), crossed with w_keyword;
   LOO selecting on recall@5 and on recall@10 from one evaluation per grid point.
4. ``meta`` — question meta-words ("say", "mention", "kind", …) dropped from the keyword
   query (prototype), LOO.

    python bench/recall_signals.py --reuse /tmp/locomo-stores [--only df,date,session,meta,mix]
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

# the repository first: bench/keyword_index.py must not shadow the engine's keyword_index
# (this script's own directory is already on the path, after it)
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import common  # noqa: E402
from recall_ablation import QueryCache  # noqa: E402

import memory_core  # noqa: E402
from memengine.timeparse import from_iso  # noqa: E402
from memory_core import RecallConfig  # noqa: E402

# Prototype switches read by the patched engine functions below (set per variant).
HOOK: dict[str, Any] = {}
_orig_fuse = memory_core.MemoryStore._fuse
_orig_terms = memory_core.query_terms
META_WORDS = {
    "speech": "say says said mention mentions mentioned tell tells told talk talks talked share shares shared "
              "describe describes described",
}
META_WORDS["speech+kind"] = META_WORDS["speech"] + " kind type sort name"
SESSIONS: dict[int, tuple[dict[int, int], dict[int, Any], int]] = {}


def prepare_sessions(store: memory_core.MemoryStore) -> None:
    """Session of every thread memory (a new one after a 6-hour gap) and each session's centroid."""
    import numpy as np

    rows = store.conn.execute("SELECT id, thread, event_at FROM memories WHERE thread IS NOT NULL "
                              "ORDER BY thread, position").fetchall()
    sess: dict[int, int] = {}
    key, prev = 0, None
    for r in rows:
        t = from_iso(r["event_at"])
        if prev is None or prev[0] != r["thread"] or t is None or prev[1] is None or \
                (t - prev[1]).total_seconds() > memory_core.CONTEXT_MAX_GAP_HOURS * 3600:
            key += 1
        sess[int(r["id"])] = key
        prev = (r["thread"], t)
    vecs = store.vectors(list(sess))
    groups: dict[int, list[Any]] = {}
    for mid, k in sess.items():
        if mid in vecs:
            groups.setdefault(k, []).append(vecs[mid])
    cent = {}
    for k, v in groups.items():
        c = np.mean(v, axis=0)
        cent[k] = c / (np.linalg.norm(c) or 1.0)
    SESSIONS[id(store)] = (sess, cent, len(sess))


def _session_scores(store: memory_core.MemoryStore, query: str, people: dict[str, str] | None) -> dict[int, float]:
    sess, cent, n = SESSIONS[id(store)]
    if HOOK["session"] == "vec":
        qv = store.embedder.embed([query])[0]
        return {k: float(c @ qv) for k, c in cent.items()}
    terms = _orig_terms(query)
    name_words = {w for key in (people or {}) for w in key.split()}
    terms = [t for t in terms if t not in name_words] or terms
    scores: dict[int, float] = {}
    total = 0.0
    for t in terms:
        ids = [r[0] for r in store.conn.execute("SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?",
                                                ("{content} : " + memory_core.quote_fts(t),))]
        if not ids:
            continue
        idf = math.log(n / len(ids)) if len(ids) < n else 0.0
        total += idf
        for k in {sess.get(i) for i in ids}:
            scores[k] = scores.get(k, 0.0) + idf
    return {k: v / total for k, v in scores.items()} if total else {}


def _fuse(self, rows, kw, vs, strategy, explain, cfg=None, query="", people=None, phrase=None):
    if HOOK.get("rescore") and strategy in ("hybrid", "keyword"):
        terms = _orig_terms(query)
        name_words = {w for key in (people or {}) for w in key.split()}
        terms = [t for t in terms if t not in name_words] or terms
        if terms:
            match = " OR ".join(memory_core.quote_fts(t) for t in terms)
            full = dict(self._keyword(match, "1", [], 100_000, (cfg or RecallConfig()).fts_weights))
            kw = {mid: full[mid] for mid in kw if mid in full}
    out = _orig_fuse(self, rows, kw, vs, strategy, explain, cfg, query, people, phrase)
    w = HOOK.get("w_session", 0.0)
    if w and strategy == "hybrid":
        sess = SESSIONS[id(self)][0]
        sc = _session_scores(self, query, people)
        vals = [sc.get(sess[m.id], 0.0) for m in out if m.id in sess]
        if vals:
            lo, hi = min(vals), max(vals)
            for m in out:
                if m.id in sess and hi > lo:
                    m.score = (m.score or 0.0) + w * (sc.get(sess[m.id], 0.0) - lo) / (hi - lo)
    return out


def _terms(text: str) -> list[str]:
    drop = HOOK.get("meta_drop") or set()
    t = _orig_terms(text)
    return [w for w in t if w not in drop] or t


memory_core.MemoryStore._fuse = _fuse  # type: ignore[method-assign]
memory_core.query_terms = _terms


def fn_for(cfg: RecallConfig, strategy: str = "hybrid", **hook: Any) -> common.RecallFn:
    """A recall function over the engine with ``cfg`` and the prototype switches ``hook``."""

    def fn(store, query: str, k: int) -> list[str]:
        HOOK.clear()
        HOOK.update(hook)
        res = store.recall(query, k=k, strategy=strategy, touch=False, config=cfg)
        return [m.ref or "" for m in res.results]

    return fn


def row(name: str, res: dict) -> list[Any]:
    o, c = res["overall"], res["by_category"]
    return [name, o["recall@5"], o["recall@10"], o["mrr"], c[1]["all@10"],
            *[c[k]["recall@5"] for k in (1, 2, 3, 4)], res["latency_ms"]["p50"]]


HEADER = ["variant", "r@5", "r@10", "MRR", "multi-hop all@10", "multi-hop r@5", "temporal r@5", "open-domain r@5",
          "single-hop r@5", "p50 ms"]


def loo_table(stores, questions, grid: dict[str, common.RecallFn], title: str) -> None:
    for metric in ("recall@5",):
        loo = common.leave_one_out(stores, questions, grid, metric=metric)
        print(f"\n### {title}: leave-one-conversation-out on {metric} ({len(grid)} grid points)\n")
        print(common.md_table(["held out", "chosen", "train", "held-out", "n"],
                              [[f["held_out"], f["chosen"], f["train"], f["test"], f["n"]] for f in loo["folds"]]))
        base = loo["in_sample"][next(iter(grid))]
        print(f"\nLOO estimate {loo['loo_estimate']:.4f} (first grid point, in sample: {base:.4f})")


def loo_multi(stores, questions, grid: dict[str, common.RecallFn], title: str) -> None:
    """LOO selecting on recall@5 and on recall@10, each grid point evaluated once per conversation."""
    qs = [q for q in questions if q.category in common.SCORED_CATEGORIES and q.evidence]
    sids = sorted({q.sample_id for q in qs})
    per = {name: {sid: common.evaluate(stores, [q for q in qs if q.sample_id == sid], fn)["overall"] for sid in sids}
           for name, fn in grid.items()}

    def pooled(name: str, keep: list[str], metric: str) -> float:
        rows = [per[name][s] for s in keep]
        return sum(r[metric] * r["n"] for r in rows) / sum(r["n"] for r in rows)

    print(f"\n### {title}: in-sample\n")
    print(common.md_table(["grid point", "r@5", "r@10", "MRR", "all@10"],
                          [[nm, *[pooled(nm, sids, m) for m in ("recall@5", "recall@10", "mrr", "all@10")]]
                           for nm in grid]))
    for select in ("recall@5", "recall@10"):
        folds = []
        for held in sids:
            best = max(grid, key=lambda nm: pooled(nm, [s for s in sids if s != held], select))
            folds.append([held, best, *[per[best][held][m] for m in ("recall@5", "recall@10", "mrr")],
                          per[best][held]["n"]])
        n = sum(f[-1] for f in folds)
        est = [sum(f[i] * f[-1] for f in folds) / n for i in (2, 3, 4)]
        print(f"\n### {title}: leave-one-conversation-out selecting on {select}\n")
        print(common.md_table(["held out", "chosen", "held-out r@5", "held-out r@10", "held-out MRR", "n"], folds))
        print(f"\nLOO estimate: r@5 {est[0]:.4f}, r@10 {est[1]:.4f}, MRR {est[2]:.4f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("path", nargs="?", default=str(common.DEFAULT_LOCOMO))
    ap.add_argument("--reuse", type=Path, default=Path("/tmp/locomo-stores"), help="store directory (built if stale)")
    ap.add_argument("--only", default="df,date,session,meta,mix", help="comma list of experiments")
    args = ap.parse_args()
    only = set(args.only.split(","))
    convs, _ = common.load_locomo(Path(args.path))
    stores = common.build_stores(convs, args.reuse, reuse=True)
    shared = QueryCache(next(iter(stores.values())).embedder)
    for s in stores.values():
        s._embedder = shared
    questions = [q for c in convs for q in c.questions]
    base = RecallConfig()

    def run(name: str, fn: common.RecallFn) -> list[Any]:
        res = common.evaluate(stores, questions, fn)
        common.log(f"  {name}: r@5 {res['overall']['recall@5']:.4f} r@10 {res['overall']['recall@10']:.4f}")
        return row(name, res)

    if "df" in only:
        rows = []
        for col in (None, "content"):
            for t in (0.0, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3):
                if col and not t:
                    continue
                for strat in ("hybrid", "keyword"):
                    rows.append(run(f"{strat} max_df={t or 'none'} ({col or 'any column'})",
                                    fn_for(RecallConfig(max_df=t, df_column=col), strat)))
        for t in (0.05, 0.1, 0.2, 0.3):
            rows.append(run(f"hybrid pool by terms df<={t} (any column), scored with all terms",
                            fn_for(RecallConfig(max_df=t), "hybrid", rescore=True)))
        print("## 1. df cut-off curve\n")
        print(common.md_table(HEADER, rows))
    if "date" in only:
        grid = {f"w_date={w}": fn_for(RecallConfig(w_date=w)) for w in (0.0, 0.05, 0.1, 0.2)}
        print("\n## 2. query dates\n")
        print(common.md_table(HEADER, [run(n, f) for n, f in grid.items()]))
        loo_table(stores, questions, grid, "w_date")
    if "session" in only:
        for s in stores.values():
            prepare_sessions(s)
        grid = {"w_session=0": fn_for(base)}
        for kind in ("vec", "kw"):
            for w in (0.05, 0.1, 0.2):
                grid[f"session {kind} w={w}"] = fn_for(base, session=kind, w_session=w)
        print("\n## 3. session prior (prototype)\n")
        print(common.md_table(HEADER, [run(n, f) for n, f in grid.items()]))
        loo_table(stores, questions, grid, "session prior")
    if "mix" in only:
        grid = {}
        for mix in (None, 0.7, 0.8, 0.9, 1.0):
            for wk in (0.4, 0.5, 0.6):
                grid[f"context_mix={mix} w_keyword={wk}"] = fn_for(RecallConfig(context_mix=mix, w_keyword=wk,
                                                                                w_vector=1 - wk))
        print("\n## 5. vector score of a conversational memory\n")
        loo_multi(stores, questions, grid, "context_mix x w_keyword")
    if "meta" in only:
        grid = {"meta words kept": fn_for(base)}
        for name, words in META_WORDS.items():
            grid[f"drop {name}"] = fn_for(base, meta_drop=set(words.split()))
        print("\n## 4. question meta-words (prototype)\n")
        print(common.md_table(HEADER, [run(n, f) for n, f in grid.items()]))
        loo_table(stores, questions, grid, "meta words")


if __name__ == "__main__":
    main()
