"""LoCoMo: can a general re-ranking of hybrid's candidates find the multi-hop evidence?

Issue 5 asks multi-hop all-evidence@10 to rise well above hybrid (aim ≥ 0.35) with
overall recall@5 down by at most a point. ``bench/locomo_graph.py`` scores the graph
strategies; this script tries the other general mechanisms on the same stores (same
edges), each as a re-ranking of hybrid's top ``POOL`` candidates, with leave-one-
conversation-out selection of its knobs:

* ``diversity`` — a turn within ``W`` positions of a higher-ranked turn of the same
  session is damped by γ (contexts make neighbours score alike; do they crowd out evidence?);
* ``prf`` — two-step query (Rocchio): query vector + β·(score-weighted mean of the top m
  results' vectors), re-scored and added with weight λ;
* ``links`` — sum-merge bonus λ·Σ seed score × semantic edge weight from the top m results
  (the first ``keep`` ranks stay put);
* ``terms`` — bridge through rare words: λ·Σ seed score × idf mass of rare words (df ≤
  ``df`` of the turns) a candidate shares with the top m results but not with the question;
* ``two-step`` — a second hybrid query made of the question and the rarest words of the
  first query's top results, fused below the first five;
* ``speakers`` — a question naming two speakers gets a top 10 balanced between them;
* ``priors`` (not graph, for comparison): a turn that is a question states no fact; specific
  turns (idf mass) are favoured.

    python bench/locomo_rerank.py --reuse /tmp/locomo-graph
"""

from __future__ import annotations

import argparse
import collections
import math
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

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
from bench.locomo_graph import add_edges  # noqa: E402
from memory_core import STOPWORDS, MemoryStore  # noqa: E402

POOL = 100  # hybrid candidates re-ranked


class Cand:
    """Hybrid's top ``POOL`` for one question, with what the re-rankers need."""

    def __init__(self, store: MemoryStore, query: str, qv: Any) -> None:
        res = store.recall(query, k=POOL + 15, strategy="hybrid", touch=False)
        ms = [m for m in res.results if not (m.ref or "").startswith("episode:")][:POOL]
        self.ids = [m.id for m in ms]
        self.refs = [m.ref or "" for m in ms]
        self.authors = [m.author for m in ms]
        self.content = [m.content for m in ms]
        top = max((m.score or 0.0) for m in ms) if ms else 1.0
        self.s = np.array([(m.score or 0.0) / (top or 1.0) for m in ms])
        vec = store.vectors(self.ids)
        self.V = np.stack([vec[i] for i in self.ids]) if ms else np.zeros((0, 384), dtype=np.float32)
        self.qv = qv
        self.sess = [r.split("/", 1)[1].split(":")[0] for r in self.refs]
        self.pos = [int(r.rsplit(":", 1)[1]) if r.rsplit(":", 1)[-1].isdigit() else 0 for r in self.refs]


class Context:
    """Per-store data shared by the re-rankers: semantic edges, word document frequencies."""

    def __init__(self, store: MemoryStore) -> None:
        self.sem: dict[int, dict[int, float]] = collections.defaultdict(dict)
        for a, b, w in store.conn.execute("SELECT source_id, target_id, weight FROM associations "
                                          "WHERE edge_type = 'semantic'"):
            self.sem[a][b] = self.sem[b][a] = float(w)
        texts = [r[0] for r in store.conn.execute("SELECT content FROM memories WHERE ref NOT LIKE 'episode:%'")]
        df = collections.Counter(w for t in texts for w in words(t))
        self.n = len(texts)
        self.idf = {w: math.log(self.n / c) for w, c in df.items()}


def words(text: str) -> set[str]:
    text = re.sub(r"^\[[^\]]*\]\s*[^:]{1,40}:\s*", "", text)
    text = re.sub(r"\[shared image:[^\]]*\]", "", text)
    return {w for w in re.findall(r"[a-z][a-z']+", text.lower()) if len(w) > 3 and w not in STOPWORDS}


Rerank = Callable[[Cand, Context, str], list[int]]


def diversity(gamma: float, window: int) -> Rerank:
    def fn(c: Cand, ctx: Context, q: str) -> list[int]:
        rest, out = list(range(len(c.refs))), []
        while rest and len(out) < 10:
            def val(i: int) -> float:
                near = any(c.sess[j] == c.sess[i] and abs(c.pos[j] - c.pos[i]) <= window for j in out)
                return c.s[i] * (1 - gamma * near)
            best = max(rest, key=lambda i: (val(i), -i))
            out.append(best)
            rest.remove(best)
        return out + rest
    return fn


def prf(m: int, beta: float, lam: float) -> Rerank:
    def fn(c: Cand, ctx: Context, q: str) -> list[int]:
        if not len(c.refs):
            return []
        top = np.arange(min(m, len(c.refs)))
        q2 = c.qv + beta * ((c.s[top] / c.s[top].sum()) @ c.V[top])
        cos = c.V @ (q2 / np.linalg.norm(q2))
        cos = (cos - cos.min()) / (cos.max() - cos.min() + 1e-9)
        return list(np.argsort(-(c.s + lam * cos), kind="stable"))
    return fn


def links(keep: int, m: int, lam: float) -> Rerank:
    def fn(c: Cand, ctx: Context, q: str) -> list[int]:
        f = c.s.copy()
        for j, i in enumerate(c.ids):
            if j < keep:
                f[j] += 10
                continue
            f[j] += lam * sum(c.s[k] * ctx.sem[t].get(i, 0.0) for k, t in enumerate(c.ids[:m]) if t != i)
        return list(np.argsort(-f, kind="stable"))
    return fn


def terms(keep: int, m: int, lam: float, df: float) -> Rerank:
    def fn(c: Cand, ctx: Context, q: str) -> list[int]:
        qt, min_idf = words(q), math.log(1 / df)
        seeds = [({w for w in words(c.content[k]) if ctx.idf.get(w, 0) >= min_idf} - qt, c.s[k], k)
                 for k in range(min(m, len(c.refs)))]
        f = c.s.copy()
        for j in range(len(c.refs)):
            if j < keep:
                f[j] += 10
                continue
            ws = words(c.content[j])
            f[j] += lam * sum(sv * min(1.0, sum(ctx.idf[w] for w in st & ws) / 8) for st, sv, k in seeds if k != j)
        return list(np.argsort(-f, kind="stable"))
    return fn


def speakers(gamma: float) -> Rerank:
    def fn(c: Cand, ctx: Context, q: str) -> list[int]:
        named = [a for a in {a for a in c.authors if a} if re.search(r"\b" + re.escape(a) + r"\b", q)]
        n = len(c.refs)
        if len(named) < 2:
            return list(range(n))
        cnt = {a: 0 for a in named}
        rest, out = list(range(n)), []
        while rest and len(out) < 10:
            lo = min(cnt.values())
            best = max(rest, key=lambda i: (c.s[i] - gamma * (cnt[c.authors[i]] - lo if c.authors[i] in cnt else 0), -i))
            out.append(best)
            rest.remove(best)
            if c.authors[best] in cnt:
                cnt[c.authors[best]] += 1
        return out + rest
    return fn


def priors(question_pen: float, specificity: float) -> Rerank:
    """Not graph: a turn that asks a question states no fact (−question_pen); specific turns
    (idf mass of their words, capped at 100 nats) get up to +specificity."""
    def fn(c: Cand, ctx: Context, q: str) -> list[int]:
        f = c.s.copy()
        for j, t in enumerate(c.content):
            body = re.sub(r"\[shared image:[^\]]*\]", "", re.sub(r"^\[[^\]]*\]\s*[^:]{1,40}:\s*", "", t)).strip()
            f[j] += specificity * min(1.0, sum(ctx.idf.get(w, 0.0) for w in words(t)) / 100) \
                - question_pen * body.endswith("?")
        return list(np.argsort(-f, kind="stable"))
    return fn


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("path", nargs="?", default=str(DEFAULT_LOCOMO))
    ap.add_argument("--reuse", metavar="DIR", default="/tmp/locomo-graph")
    args = ap.parse_args(argv)
    convs, _ = load_locomo(Path(args.path))
    from embedder import get_embedder

    emb = get_embedder()
    stores = build_stores(convs, Path(args.reuse), emb, reuse=True)
    for sid, st in stores.items():
        add_edges(st, sid)
    qs = [q for c in convs for q in c.questions]
    t0 = time.perf_counter()
    cands: dict[tuple[str, str], Cand] = {}
    ctxs = {sid: Context(st) for sid, st in stores.items()}
    path_to_sid = {str(st.path): sid for sid, st in stores.items()}
    for q in qs:
        if q.evidence:
            cands[(q.sample_id, q.question)] = Cand(stores[q.sample_id], q.question, emb.embed([q.question])[0])
    log(f"candidates for {len(cands)} questions in {time.perf_counter() - t0:.1f} s")

    def as_fn(rr: Rerank | None) -> RecallFn:
        def fn(store: MemoryStore, query: str, k: int) -> list[str]:
            sid = path_to_sid[str(store.path)]
            c = cands[(sid, query)]
            order = list(range(len(c.refs))) if rr is None else rr(c, ctxs[sid], query)
            return [c.refs[i] for i in order[:k]]
        return fn

    families: dict[str, dict[str, RecallFn]] = {
        "diversity": {f"diversity γ={g} W={w}": as_fn(diversity(g, w)) for g in (0.1, 0.2, 0.3) for w in (1, 2)},
        "prf": {f"prf m={m} β={b} λ={lam}": as_fn(prf(m, b, lam)) for m in (3, 10) for b in (0.5, 2.0)
                for lam in (0.1, 0.2)},
        "links": {f"links keep={kp} m={m} λ={lam}": as_fn(links(kp, m, lam)) for kp in (0, 5) for m in (3, 5)
                  for lam in (0.1, 0.2)},
        "terms": {f"terms keep={kp} m=3 λ={lam} df={df}": as_fn(terms(kp, 3, lam, df)) for kp in (3, 5)
                  for lam in (0.1, 0.2) for df in (0.01, 0.03)},
        "speakers": {f"speakers γ={g}": as_fn(speakers(g)) for g in (0.05, 0.2)},
        "priors (not graph)": {f"priors question −{a} specificity +{b}": as_fn(priors(a, b))
                               for a in (0.0, 0.05, 0.1) for b in (0.0, 0.05, 0.1) if a or b},
    }
    def two_step(m: int, n_words: int, lam: float, keep: int = 5, df: float = 0.03) -> RecallFn:
        """Second hybrid query = question + the rarest ``n_words`` words of the top ``m`` results
        (not in the question); its normalised scores are added with weight λ below the first ``keep``."""
        def fn(store: MemoryStore, query: str, k: int) -> list[str]:
            sid = path_to_sid[str(store.path)]
            c, ctx = cands[(sid, query)], ctxs[sid]
            if not c.refs:
                return []
            qt, min_idf = words(query), math.log(1 / df)
            mass: collections.Counter[str] = collections.Counter()
            for t in c.content[:m]:
                for w in words(t) - qt:
                    if ctx.idf.get(w, 0.0) >= min_idf:
                        mass[w] += ctx.idf[w]
            extra = [w for w, _ in mass.most_common(n_words)]
            f = dict(zip(c.refs, c.s))
            if extra:
                res = store.recall(query + " " + " ".join(extra), k=40, strategy="hybrid", touch=False)
                r2 = [x for x in res.results if not (x.ref or "").startswith("episode:")]
                top = max((x.score or 0.0 for x in r2), default=1.0) or 1.0
                for x in r2:
                    f[x.ref or ""] = f.get(x.ref or "", 0.0) + lam * (x.score or 0.0) / top
            fixed = c.refs[:keep]
            return (fixed + sorted((r for r in f if r not in fixed), key=lambda r: -f[r]))[:k]
        return fn

    families["two-step"] = {f"two-step m={m} words={n} λ={lam}": two_step(m, n, lam)
                            for m, n, lam in ((3, 3, 0.3), (3, 6, 0.3), (3, 3, 0.6), (5, 6, 0.3))}
    header = ["re-ranking", "multi-hop all@10", "multi-hop recall@10", "overall recall@5", "overall recall@10"]

    def row(name: str, res: dict[str, Any]) -> list[Any]:
        mh, o = res["by_category"].get(1, {}), res["overall"]
        return [name, mh.get("all@10", 0.0), mh.get("recall@10", 0.0), o["recall@5"], o["recall@10"]]

    base = evaluate(stores, qs, as_fn(None))
    print(f"# LoCoMo: re-ranking hybrid's top {POOL} — {len(convs)} conversations\n")
    mh = [q for q in qs if q.category == 1]
    for fam, cand_fns in families.items():
        rows = [row("hybrid", base)] + [row(nm, evaluate(stores, qs, fn)) for nm, fn in cand_fns.items()]
        loo = leave_one_out(stores, mh, {"hybrid": as_fn(None), **cand_fns}, metric="all@10")
        print(f"## {fam}\n\n{md_table(header, rows)}\n")
        print(f"leave-one-conversation-out multi-hop all@10 (hybrid is a candidate): {loo['loo_estimate']:.3f}; "
              + ", ".join(f"{f['held_out']}: {f['chosen']}" for f in loo["folds"]) + "\n")
    for st in stores.values():
        st.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
