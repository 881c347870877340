"""Learned re-ranking of recall's candidate pool, judged by issue 19's protocol.

The engine fuses two normalised scores and a few priors by hand. Here a small linear model
(logistic, pointwise or pairwise; L2-regularised; numpy + scipy only) re-orders the engine's
best ``N`` candidates from many cheap per-candidate features (below) that fusion combines by
hand or ignores. The model for a held-out fold (one LoCoMo dev conversation or one real chat)
is fitted on every other fold of both sets, each set weighing the same and each question the
same within its set; the scores of the held-out fold's questions are then its honest estimate.

Which variant (model, ``N``, regularisation) serves a held-out fold is itself chosen on the
other folds' held-out scores (``loo.loo_choose``, the engine as shipped among the options).

    .venv/bin/python bench/recall_ltr.py --reuse /tmp/ranker          # ~5 min extraction, then seconds

Features are cached in ``DIR/ltr-features.npz`` (keyed by the engine's fingerprint and this
script's hash). Per candidate (all within the question: min-max, z-score, reciprocal rank):

* the engine's own: fused score, its gap to the best, reciprocal rank and log rank;
* keyword side: min-max / z-score of bm25, reciprocal keyword rank, bm25 of the turn's own text
  alone and of its neighbours' columns alone (min-max);
* vector side: min-max / z-score of the fused cosine, reciprocal vector rank, raw own-vector and
  context-vector cosines, own cosine's z-score and reciprocal rank;
* query-term coverage in the turn's own words: share of the terms, idf-weighted share, share of
  the rare terms (df ≤ 5 %), terms in the turn absent from the neighbours' bm25 (own - context);
* people: the author is named in the question, a named person appears in the text;
* shape: log length, asks a question, replies to a candidate question, is an episode, "when"
  question × the text speaks of time;
* agreement with the other top candidates: turns of the engine's top 10 from the same session
  (thread and day), closeness in position to a top-5 turn of the same thread, idf-weighted rare
  words shared with the top 5 (not query words), cosine to the top 5's mean own vector, days to
  the best hit; list questions (``asks_for_many``) × same-session count and × rare words shared.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import loo  # noqa: E402
from bench.common import DEFAULT_LOCOMO, log, md_table, score_ranking  # noqa: E402
from bench.realchat import DEFAULT_DATA, DEFAULT_QUESTIONS  # noqa: E402
from memengine.recall.config import FTS_WEIGHTS, RecallConfig  # noqa: E402
from memengine.recall.priors import TIME_WORD_RE, WHEN_RE, asks_for_many  # noqa: E402
from memengine.text import STOPWORDS, TOKEN_RE, bare_text, query_terms, quote_fts  # noqa: E402
from memengine.timeparse import from_iso  # noqa: E402

MAX_N = 50  # candidates per question kept as training / re-ranking material
RARE_DF = 0.05

FEATURES = (
    "score", "score_gap", "rr", "log_rank",
    "kn", "kz", "kw_rr", "bm25_own", "bm25_ctx",
    "vn", "vz", "vs_rr", "cos_own", "cos_ctx", "cos_own_z", "cos_own_rr",
    "cov", "cov_idf", "cov_rare", "cov_own_minus_ctx",
    "person_author", "person_text",
    "log_len", "is_question", "replies_to_cand", "is_episode", "when_time",
    "same_session_top10", "near_top5", "rare_shared_top5", "cos_top5_centroid", "log_days_top1",
    "many_x_session", "many_x_rare",
)


def stem(w: str) -> str:
    """A crude suffix stripper (English and French plurals, -ing, -ed): enough to match word forms."""
    for suf in ("ings", "ing", "edly", "ed", "es", "s", "ly"):
        if len(w) - len(suf) >= 3 and w.endswith(suf):
            return w[: -len(suf)]
    return w


def words(text: str) -> set[str]:
    return {stem(w.lower().split("'")[0]) for w in TOKEN_RE.findall(text.replace("’", "'"))
            if w.lower() not in STOPWORDS and not w.isdigit()}


class StoreStats:
    """Document frequency of stemmed words over a store's memory texts (computed once per store)."""

    def __init__(self, store: Any) -> None:
        df: Counter[str] = Counter()
        n = 0
        for content, author in store.conn.execute("SELECT content, author FROM memories"):
            df.update(words(bare_text(content or "", author)))
            n += 1
        self.df, self.n = df, max(n, 1)

    def idf(self, w: str) -> float:
        return math.log((self.n + 1) / (self.df.get(w, 0) + 0.5))

    def share(self, w: str) -> float:
        return self.df.get(w, 0) / self.n


def minmax(d: dict[int, float]) -> dict[int, float]:
    if not d:
        return {}
    lo, hi = min(d.values()), max(d.values())
    return {k: (v - lo) / (hi - lo) if hi > lo else 1.0 for k, v in d.items()}


def zscore(d: dict[int, float]) -> dict[int, float]:
    if len(d) < 2:
        return dict.fromkeys(d, 0.0)
    v = np.fromiter(d.values(), dtype=np.float64)
    mu, sd = float(v.mean()), float(v.std()) or 1.0
    return {k: (x - mu) / sd for k, x in d.items()}


def recip_rank(d: dict[int, float]) -> dict[int, float]:
    return {mid: 1.0 / (r + 1) for r, mid in enumerate(sorted(d, key=lambda i: (-d[i], i)))}


def session(m: Any) -> tuple[Any, str]:
    return m.thread, (m.event_at or "")[:10]


@dataclass
class QData:
    """One question's candidates: features, labels, refs (engine order)."""

    key: str
    x: np.ndarray  # (n, F)
    y: np.ndarray  # (n,) evidence or not
    refs: list[str]  # engine order, top MAX_N
    base_refs: list[str]  # the engine's top 10 as recall() returns it


def column_bm25(store: Any, run: Any, terms: list[str], weights: tuple[float, ...]) -> dict[int, float]:
    """bm25 of the query's terms over some columns only, for the candidates (wide limit)."""
    if not terms:
        return {}
    match = " OR ".join(quote_fts(t) for t in terms)
    try:
        return dict(store._keyword(match, run.where, run.args, 5000, weights))
    except Exception:  # noqa: BLE001 (a term FTS5 refuses in a column filter: no signal)
        return {}


def question_features(it: Any, stats: StoreStats, cfg: RecallConfig) -> QData:
    """Retrieval once, the engine's whole ranking, the features of its top MAX_N."""
    store = it.store
    run = loo.retrieve(store, it.question, cfg)
    base = [m.ref or "" for m in store._rank(replace(run, cfg=cfg), False)]
    cand = set(run.kw) | set(run.vs) | set(run.phrase)
    ranked = store._rank(replace(run, cfg=cfg, k=len(cand) + 5), False)[:MAX_N]
    if [m.ref or "" for m in ranked[:10]] != base[:10]:
        raise RuntimeError(f"whole-pool ranking differs from the engine's top 10 on {it.key}")
    ids = [m.id for m in ranked]
    floor = min((run.combined[m] for m in run.ranked), default=0.0)
    vs = {mid: run.combined.get(mid, floor) for mid in cand}
    kn, kz, krr = minmax(run.kw), zscore(run.kw), recip_rank(run.kw)
    vn, vz, vrr = minmax(vs), zscore(vs), recip_rank(vs)
    names = {w for key in run.people for w in key.split()}
    qterms = [t for t in query_terms(it.question) if t not in names] or query_terms(it.question)
    qstems = {stem(t) for t in qterms}
    own_col = column_bm25(store, run, qterms, (1.0, 0.0, 0.0, 0.0, 0.0))
    ctx_col = column_bm25(store, run, qterms, (0.0, 0.0, 0.0, FTS_WEIGHTS[3], FTS_WEIGHTS[4]))
    own_cn = minmax({i: own_col.get(i, 0.0) for i in ids})
    ctx_cn = minmax({i: ctx_col.get(i, 0.0) for i in ids})
    own_vec = store.vectors(ids, "vec_memories")
    ctx_vec = store.vectors(ids, "vec_contexts")
    q = np.asarray(run.qvec, dtype=np.float32)
    q = q / (np.linalg.norm(q) or 1.0)
    cos_own = {i: float(own_vec[i] @ q) if i in own_vec else 0.0 for i in ids}
    cos_ctx = {i: float(ctx_vec[i] @ q) if i in ctx_vec else cos_own[i] for i in ids}
    co_z, co_rr = zscore(cos_own), recip_rank(cos_own)
    texts = {m.id: bare_text(m.content, m.author) for m in ranked}
    wsets = {i: words(t) for i, t in texts.items()}
    qidf = {s: stats.idf(s) for s in qstems}
    rare_q = {s for s in qstems if stats.share(s) <= RARE_DF}
    top5 = ranked[:5]
    top5_ids = {m.id for m in top5}
    top5_words: Counter[str] = Counter()
    for m in top5:
        top5_words.update(w for w in wsets[m.id] if w not in qstems and stats.share(w) <= RARE_DF)
    cent = [own_vec[m.id] for m in top5 if m.id in own_vec]
    centroid = np.mean(cent, axis=0) if cent else None
    if centroid is not None:
        centroid = centroid / (np.linalg.norm(centroid) or 1.0)
    sess10 = Counter(session(m) for m in ranked[:10])
    pos5 = [(m.thread, m.position) for m in top5 if m.position is not None]
    t1 = from_iso(ranked[0].event_at) if ranked else None
    many = float(asks_for_many(it.question))
    when_q = bool(WHEN_RE.search(it.question))
    lname = {n.lower() for n in run.people.values()} | set(run.people)
    by_pos = {(m.thread, m.position): m for m in ranked if m.thread is not None and m.position is not None}
    top = (ranked[0].score or 0.0) if ranked else 0.0
    rare_sh = {}
    for m in ranked:
        rare_sh[m.id] = sum(stats.idf(w) * min(c, 3) for w, c in top5_words.items()
                            if w in wsets[m.id] and not (m.id in top5_ids and c == 1))
    rs_max = max(rare_sh.values(), default=0.0) or 1.0
    rows = []
    for r, m in enumerate(ranked):
        i, ws, text = m.id, wsets[m.id], texts[m.id]
        matched = qstems & ws
        cov = len(matched) / len(qstems) if qstems else 0.0
        tot_idf = sum(qidf.values()) or 1.0
        cov_idf = sum(qidf[s] for s in matched) / tot_idf
        cov_rare = len(matched & rare_q) / len(rare_q) if rare_q else 0.0
        prev = by_pos.get((m.thread, (m.position or 0) - 1)) if m.position is not None else None
        near = [abs((m.position or 0) - p) for th, p in pos5 if th == m.thread and (th, p) != (m.thread, m.position)]
        ev = from_iso(m.event_at)
        days = abs((ev - t1).total_seconds()) / 86400 if ev is not None and t1 is not None else 365.0
        same = (sess10[session(m)] - (1 if r < 10 else 0)) / 9
        cen = float(own_vec[i] @ centroid) if centroid is not None and i in own_vec else 0.0
        rs = rare_sh[i] / rs_max
        rows.append([
            m.score or 0.0, (m.score or 0.0) - top, 1.0 / (r + 1), math.log1p(r),
            kn.get(i, 0.0), kz.get(i, min(kz.values(), default=0.0)), krr.get(i, 0.0), own_cn.get(i, 0.0),
            ctx_cn.get(i, 0.0),
            vn.get(i, 0.0), vz.get(i, 0.0), vrr.get(i, 0.0), cos_own[i], cos_ctx[i], co_z[i], co_rr[i],
            cov, cov_idf, cov_rare, own_cn.get(i, 0.0) - ctx_cn.get(i, 0.0),
            float(bool(m.author) and m.author.lower() in lname), float(any(n in text.lower() for n in lname)),
            math.log1p(len(TOKEN_RE.findall(text))), float("?" in text),
            float(prev is not None and "?" in texts[prev.id]), float((m.metadata or {}).get("kind") == "episode"),
            float(when_q and bool(TIME_WORD_RE.search(text.lower()))),
            same, 1.0 / (1 + min(near)) if near else 0.0, rs, cen, math.log1p(days),
            many * same, many * rs,
        ])
    x = np.asarray(rows, dtype=np.float64).reshape(len(rows), len(FEATURES))
    ev_set = set(it.evidence)
    y = np.asarray([float((m.ref or "") in ev_set) for m in ranked])
    return QData(it.key, x, y, [m.ref or "" for m in ranked], base[:10])


# --------------------------------------------------------------------------- models

def standardise(x: np.ndarray, mu: np.ndarray, sd: np.ndarray) -> np.ndarray:
    return (x - mu) / sd


def fit_logistic(x: np.ndarray, y: np.ndarray, w: np.ndarray, lam: float,
                 free: np.ndarray | None = None) -> np.ndarray:
    """Weighted L2 logistic regression (intercept and the ``free`` features unpenalised); returns [b, w...].
    With the engine's own features free, a strong penalty shrinks the model to the engine's order."""
    from scipy.optimize import minimize

    xb = np.hstack([np.ones((len(x), 1)), x])
    sw = w / w.sum()
    pen = lam * (np.ones(x.shape[1]) if free is None else 1.0 - free)

    def f(beta: np.ndarray) -> tuple[float, np.ndarray]:
        z = xb @ beta
        # log(1 + e^z) - y z, stable
        loss = np.logaddexp(0.0, z) - y * z
        p = 0.5 * (1 + np.tanh(0.5 * z))
        reg = float(pen @ (beta[1:] ** 2))
        g = xb.T @ (sw * (p - y))
        g[1:] += 2 * pen * beta[1:]
        return float(sw @ loss) + reg, g

    res = minimize(f, np.zeros(xb.shape[1]), jac=True, method="L-BFGS-B", options={"maxiter": 500})
    return np.asarray(res.x)


def pairs(qs: Sequence[QData], n: int, qweight: dict[str, float], mu: np.ndarray, sd: np.ndarray,
          rng: np.random.Generator, per_pos: int = 12, lambda_w: bool = False) -> tuple[np.ndarray, np.ndarray,
                                                                                     np.ndarray]:
    """Pairwise differences (evidence − non-evidence, both in the top n), symmetrised. With
    ``lambda_w`` (LambdaRank-like) every negative in the top n is paired, each pair weighted by how
    much swapping the two engine positions moves a DCG: pairs across the top of the list count most."""
    xs, ws = [], []
    for q in qs:
        x = standardise(q.x[:n], mu, sd)
        y = q.y[:n]
        pos, neg = np.flatnonzero(y > 0), np.flatnonzero(y == 0)
        if not len(pos) or not len(neg):
            continue
        # the negatives that matter most: those ranked above the evidence, plus a random sample
        disc = 1.0 / np.log2(2.0 + np.arange(len(y)))
        for p in pos:
            if lambda_w:
                d = x[p] - x[neg]
                lw = np.abs(disc[p] - disc[neg])
                xs.append(d)
                ws.append(qweight[q.key] * lw / (len(pos) * lw.sum() or 1.0))
                continue
            pick = neg[neg < max(p, 10)]
            rest = np.setdiff1d(neg, pick)
            if len(rest):
                pick = np.concatenate([pick, rng.choice(rest, size=min(per_pos, len(rest)), replace=False)])
            d = x[p] - x[pick]
            xs.append(d)
            ws.append(np.full(len(pick), qweight[q.key] / (len(pos) * len(pick))))
    d = np.vstack(xs)
    w = np.concatenate(ws)
    return np.vstack([d, -d]), np.concatenate([np.ones(len(d)), np.zeros(len(d))]), np.concatenate([w, w])


@dataclass(frozen=True)
class Variant:
    kind: str  # pointwise | pairwise | lambda (logistic losses) | ascent (the objective itself)
    n: int  # candidates re-ranked
    lam: float  # L2 strength
    anchored: bool = False  # the engine's own features unpenalised: a strong λ gives the engine's order
    keep: int = 0  # the engine's first ``keep`` stay (a tail model: ranks after them re-ordered, for all@10)

    @property
    def label(self) -> str:
        tail = f", ranks {self.keep + 1}+ only" if self.keep else ""
        if self.kind == "ascent":
            return f"ascent N{self.n} min gain {self.lam:g}{tail}"
        return f"{self.kind} N{self.n} λ{self.lam:g}{' anchored' if self.anchored else ''}{tail}"


def question_weights(items: Sequence[Any]) -> dict[str, float]:
    """Each set weighs the same, each question the same within its set."""
    per = Counter(it.set for it in items)
    return {it.key: 1.0 / per[it.set] for it in items}


def fit(v: Variant, train: Sequence[Any], data: dict[str, QData], rng: np.random.Generator,
        mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(mu, sd, beta) of ``v`` fitted on ``train`` (features outside ``mask`` zeroed)."""
    qs = [data[it.key] for it in train]
    if v.keep and v.kind != "ascent":  # a tail model learns from the candidates after the kept ones
        qs = [QData(q.key, q.x[v.keep:], q.y[v.keep:], q.refs[v.keep:], q.base_refs) for q in qs]
    allx = np.vstack([q.x[: v.n] for q in qs])
    mu, sd = allx.mean(axis=0), allx.std(axis=0)
    sd[sd < 1e-9] = 1.0
    mu, sd = np.where(mask, mu, 0.0), np.where(mask, sd, 1.0)
    qw = question_weights(train)
    free = np.array([1.0 if f in GROUPS["engine"] else 0.0 for f in FEATURES]) if v.anchored else None
    if v.kind == "ascent":
        return mu, sd, ascent(v, train, data, mu, sd, mask)
    if v.kind == "pointwise":
        x = standardise(allx, mu, sd) * mask
        y = np.concatenate([q.y[: v.n] for q in qs])
        w = np.concatenate([np.full(min(len(q.y), v.n), qw[q.key] / max(1, min(len(q.y), v.n))) for q in qs])
        beta = fit_logistic(x, y, w, v.lam, free)
    else:
        d, y, w = pairs(qs, v.n, qw, mu, sd, rng, lambda_w=v.kind == "lambda")
        beta = fit_logistic(d * mask, y, w, v.lam, free)
        beta[0] = 0.0
    return mu, sd, beta


STEPS = (-0.5, -0.25, -0.1, -0.05, 0.05, 0.1, 0.25, 0.5)


def ascent(v: Variant, train: Sequence[Any], data: dict[str, QData], mu: np.ndarray, sd: np.ndarray,
           mask: np.ndarray, passes: int = 2) -> np.ndarray:
    """Weights found by coordinate ascent on the protocol's own objective (the mean of the two sets'
    recall@5 on the training folds; recall@10 / 100 breaks ties), starting from the engine's order
    (weight 1 on its standardised score, 0 elsewhere). A step is taken only when it gains at least
    ``v.lam`` (the guard against fitting noise)."""
    n, nf = v.n, len(FEATURES)
    x = np.zeros((len(train), n, nf))
    y = np.zeros((len(train), n))
    valid = np.zeros((len(train), n), dtype=bool)
    for qi, it in enumerate(train):
        q = data[it.key]
        m = min(n, len(q.y))
        x[qi, :m] = standardise(q.x[:m], mu, sd) * mask
        y[qi, :m] = q.y[:m] / max(1, len(set(it.evidence)))
        valid[qi, :m] = True
    sets = sorted({it.set for it in train})
    setw = np.array([1.0 / sum(1 for t in train if t.set == it.set) / len(sets) for it in train])
    tie = -1e-7 * np.arange(n)  # equal scores keep the engine's order
    const = np.where(valid, 0.0, -1e9) + tie
    const[:, : v.keep] += 1e6  # the engine's first ``keep`` stay on top

    def objective(w: np.ndarray) -> float:
        s = x @ w + const
        top = np.argpartition(-s, (4, 9), axis=1) if n > 10 else np.argsort(-s, axis=1)
        r5 = np.take_along_axis(y, top[:, :5], axis=1).sum(axis=1)
        r10 = np.take_along_axis(y, top[:, :10], axis=1).sum(axis=1)
        if v.keep:  # a tail model can only move recall@10 (and all-evidence@10)
            return float(setw @ r10)
        return float(setw @ (r5 + r10 / 100))

    w = np.zeros(nf)
    w[FEATURES.index("score")] = 1.0
    best = objective(w)
    free = [j for j in range(nf) if mask[j] and FEATURES[j] != "score"]
    for _ in range(passes):
        moved = False
        for j in free:
            cands = []
            for st in STEPS:
                w2 = w.copy()
                w2[j] += st
                cands.append((objective(w2), -abs(st), st))
            got, _, st = max(cands)
            if got >= best + v.lam:
                w[j] += st
                best = got
                moved = True
        if not moved:
            break
    return np.concatenate([[0.0], w])


def rerank(q: QData, n: int, mu: np.ndarray, sd: np.ndarray, beta: np.ndarray, mask: np.ndarray,
           keep: int = 0) -> list[str]:
    """The engine's order with its top n re-ordered by the model (its first ``keep`` left in place)."""
    x = standardise(q.x[:n], mu, sd) * mask
    s = x @ beta[1:]
    order = list(range(min(keep, len(s)))) + sorted(range(keep, len(s)), key=lambda i: (-s[i], i))
    return [q.refs[i] for i in order] + q.refs[n:]


def held_out_scores(items: Sequence[Any], data: dict[str, QData], v: Variant,
                    mask: np.ndarray) -> tuple[dict[str, dict[str, float]], dict[str, np.ndarray]]:
    """Per-question metrics of ``v``, each fold scored by the model fitted on all other folds;
    and the fitted (standardised) weights per fold."""
    out: dict[str, dict[str, float]] = {}
    betas = {}
    folds = sorted({it.fold for it in items})
    for fold in folds:
        rng = np.random.default_rng(0)
        train = [it for it in items if it.fold != fold]
        mu, sd, beta = fit(v, train, data, rng, mask)
        betas[fold] = beta
        for it in items:
            if it.fold == fold:
                out[it.key] = score_ranking(rerank(data[it.key], v.n, mu, sd, beta, mask, v.keep), it.evidence)
    return out, betas


def in_sample(items: Sequence[Any], data: dict[str, QData], v: Variant, mask: np.ndarray) -> dict[str, dict[str, float]]:
    mu, sd, beta = fit(v, items, data, np.random.default_rng(0), mask)
    return {it.key: score_ranking(rerank(data[it.key], v.n, mu, sd, beta, mask, v.keep), it.evidence) for it in items}


# --------------------------------------------------------------------------- main

def extract(items: Sequence[Any], path: Path) -> dict[str, QData]:
    """Every question's features, cached in ``path`` for this engine and this script."""
    key = loo.engine_fingerprint() + hashlib.sha256(("\n".join(FEATURES) + inspect_src()).encode()).hexdigest()[:8]
    if path.exists():
        z = np.load(path, allow_pickle=True)
        if str(z["key"]) == key:
            return dict(z["data"].item())
    cfg = RecallConfig()
    stats: dict[int, StoreStats] = {}
    data = {}
    t0 = time.perf_counter()
    for n, it in enumerate(items):
        st = stats.get(id(it.store))
        if st is None:
            st = stats[id(it.store)] = StoreStats(it.store)
        data[it.key] = question_features(it, st, cfg)
        if n % 100 == 99:
            log(f"    features of {n + 1} questions in {time.perf_counter() - t0:.0f} s")
    np.save(path.with_suffix(".tmp.npy"), np.array(0))  # (probe the directory is writable)
    path.with_suffix(".tmp.npy").unlink()
    np.savez(path, key=np.array(key), data=np.array(data, dtype=object))
    return data


def inspect_src() -> str:
    import inspect

    return "".join(inspect.getsource(f) for f in (question_features, StoreStats, words, stem, column_bm25))


def metrics_row(items: Sequence[Any], sc: dict[str, dict[str, float]], base: dict[str, dict[str, float]]) -> list[str]:
    row = []
    for s in loo.SETS:
        its = loo.by_set(items, s)
        m, b = loo.set_metrics(its, sc), loo.set_metrics(its, base)
        row += [f"{m['recall@5']:.3f} ({m['recall@5'] - b['recall@5']:+.3f} ±{2 * loo.paired_se(its, sc, base):.3f})",
                f"{m['recall@10']:.3f} ({m['recall@10'] - b['recall@10']:+.3f})",
                f"{m['multi_all@10']:.3f} ({m['multi_all@10'] - b['multi_all@10']:+.3f})"]
    return row


GROUPS = {
    "engine": ("score", "score_gap", "rr", "log_rank"),
    "keyword": ("kn", "kz", "kw_rr", "bm25_own", "bm25_ctx"),
    "vector": ("vn", "vz", "vs_rr", "cos_own", "cos_ctx", "cos_own_z", "cos_own_rr"),
    "coverage": ("cov", "cov_idf", "cov_rare", "cov_own_minus_ctx"),
    "people+shape": ("person_author", "person_text", "log_len", "is_question", "replies_to_cand", "is_episode",
                     "when_time"),
    "agreement": ("same_session_top10", "near_top5", "rare_shared_top5", "cos_top5_centroid", "log_days_top1",
                  "many_x_session", "many_x_rare"),
}


GRID = (
    # logistic losses over every feature (pointwise; pairwise: evidence vs negatives above it and a sample;
    # lambda: every pair in the top N weighted by the DCG change of swapping them)
    Variant("pointwise", 30, 0.01), Variant("pairwise", 30, 0.01), Variant("pairwise", 50, 0.01),
    # anchored: the engine's own four features unpenalised, so a strong λ shrinks to the engine's order
    Variant("pairwise", 30, 0.1, True), Variant("pairwise", 30, 1.0, True), Variant("lambda", 30, 0.01, True),
    # coordinate ascent on the protocol's objective itself, from the engine's order
    Variant("ascent", 20, 0.002), Variant("ascent", 30, 0.0005), Variant("ascent", 30, 0.002),
    # tail models: the engine's top 5 stay, ranks 6-10 re-ordered (for recall@10 / all-evidence@10)
    Variant("pointwise", 30, 0.01, keep=5), Variant("pairwise", 30, 0.01, keep=5),
    Variant("ascent", 30, 0.0005, keep=5), Variant("ascent", 30, 0.002, keep=5),
)
QUICK = (Variant("pairwise", 30, 0.01), Variant("ascent", 30, 0.002))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", metavar="DIR", required=True, help="stores (bench/loo.py's) live here")
    ap.add_argument("--quick", action="store_true", help="two variants only (a smoke run)")
    ap.add_argument("--no-groups", action="store_true", help="skip the feature-group table")
    ap.add_argument("--json", metavar="OUT", help="also write the tables as JSON")
    args = ap.parse_args(argv)
    if not Path(DEFAULT_LOCOMO).exists():
        print(f"error: LoCoMo file not found: {DEFAULT_LOCOMO}", file=sys.stderr)
        return 2
    import os

    directory = Path(args.reuse)
    items = loo.load_items(Path(DEFAULT_LOCOMO), Path(DEFAULT_DATA), Path(DEFAULT_QUESTIONS), directory)
    log(f"{len(items)} questions; features (load {os.getloadavg()[0]:.1f})")
    data = extract(items, directory / "ltr-features.npz")
    base = {it.key: score_ranking(data[it.key].base_refs, it.evidence) for it in items}
    pool_all = {it.key: float(set(it.evidence) <= set(data[it.key].refs)) for it in items}
    print(f"# Learned re-ranking of the candidate pool — LoCoMo dev ({len(loo.by_set(items, 'locomo'))} questions) "
          f"and real chats ({len(loo.by_set(items, 'realchat'))}); {len(FEATURES)} features, "
          f"{len({it.fold for it in items})} folds; load {os.getloadavg()[0]:.1f}\n")
    for s in loo.SETS:
        its = [it for it in loo.by_set(items, s) if it.multi]
        print(f"{s}: multi-hop questions with every evidence turn in the engine's top {MAX_N}: "
              f"{loo.mean([pool_all[it.key] for it in its]):.3f} (the ceiling of all@10 for a re-ranking of it)")
    print()
    full = np.ones(len(FEATURES))
    grid = QUICK if args.quick else GRID
    variants: dict[str, dict[str, dict[str, float]]] = {"shipped*": base}
    betas_of: dict[str, dict[str, np.ndarray]] = {}
    rows = []
    for v in grid:
        t0 = time.perf_counter()
        ho, betas = held_out_scores(items, data, v, full)
        variants[v.label], betas_of[v.label] = ho, betas
        ins = in_sample(items, data, v, full)
        rows.append([v.label, "in-sample", *metrics_row(items, ins, base)])
        rows.append([v.label, "held-out", *metrics_row(items, ho, base)])
        log(f"  {v.label}: {time.perf_counter() - t0:.0f} s")
    chosen = loo.loo_choose(items, variants)
    ho = loo.held_out(items, chosen, variants)
    counts = Counter(chosen.values())
    rows.insert(0, ["engine as shipped", "—", *metrics_row(items, base, base)])
    rows.append(["variant chosen per fold on the other folds", ", ".join(f"{lab}×{n}" for lab, n in counts.most_common()),
                 *metrics_row(items, ho, base)])
    print(md_table(["model", "scored", "LoCoMo r@5 (gain ±2 s.e.)", "LoCoMo r@10", "LoCoMo multi all@10",
                    "real r@5 (gain ±2 s.e.)", "real r@10", "real multi all@10"], rows))
    print()
    # weight stability of the best held-out variant
    best = max((lab for lab in variants if lab != "shipped*"), key=lambda lab: loo.objective(items, variants[lab]))
    b = np.stack(list(betas_of[best].values()))[:, 1:]
    print(f"## Fitted weights of `{best}` across the {len(b)} folds (standardised features)\n")
    wrows = [[f, f"{b[:, j].mean():+.3f}", f"{b[:, j].std():.3f}", f"{b[:, j].min():+.3f}", f"{b[:, j].max():+.3f}",
              f"{int((np.sign(b[:, j]) == np.sign(b[:, j].mean())).sum())}/{len(b)}"]
             for j, f in enumerate(FEATURES)]
    wrows.sort(key=lambda r: -abs(float(r[1])))
    print(md_table(["feature", "mean", "sd", "min", "max", "folds with the mean's sign"], wrows))
    print()
    # feature groups: drop one at a time (best variant)
    v = next(v for v in grid if v.label == best)
    out: dict[str, Any] = {"variants": rows, "weights": wrows, "groups": []}
    if args.no_groups:
        write_json(out, args.json)
        return 0
    grows = []
    for g, feats in GROUPS.items():
        mask = np.array([0.0 if f in feats else 1.0 for f in FEATURES])
        sc, _ = held_out_scores(items, data, v, mask)
        grows.append([f"without {g}", *metrics_row(items, sc, base)])
        only = np.array([1.0 if f in feats or f in GROUPS["engine"] else 0.0 for f in FEATURES])
        sc, _ = held_out_scores(items, data, v, only)
        grows.append([f"engine + {g} only", *metrics_row(items, sc, base)])
    print(f"## Feature groups, `{best}`, held-out\n")
    print(md_table(["features", "LoCoMo r@5", "LoCoMo r@10", "LoCoMo multi all@10", "real r@5", "real r@10",
                    "real multi all@10"], grows))
    out["groups"] = grows
    write_json(out, args.json)
    return 0


def write_json(out: dict[str, Any], path: str | None) -> None:
    if path:
        Path(path).write_text(json.dumps(out, indent=2), encoding="utf-8")


if __name__ == "__main__":
    raise SystemExit(main())
