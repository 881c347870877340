"""Ranking the whole graph for the session brief, and surfacing what an utterance does not say.

Split from :mod:`memengine.graph` (which keeps the recall strategies): personalised
PageRank over every live memory (consolidate's ``rank`` phase, read cold by ``brief``),
the token counter a brief is budgeted with, and ``surface``'s spreading activation + MMR.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from datetime import datetime, timezone
from itertools import chain
from typing import Any

from memengine.db import write_tx
from memengine.errors import UserError
from memengine.graph import EDGE_TYPE_FACTOR, SEED_K, Adjacency, _hubs, seed_scores, spread_activation
from memengine.store import MemoryStore
from memengine.text import STOPWORDS, query_terms
from memengine.timeparse import to_iso

# brief
BRIEF_POOL = 2000  # memories whose PageRank the `rank` phase stores (brief's candidates in a large store)
PAGERANK_DAMPING = 0.85  # standard; the restart mass goes to the personalisation vector
PAGERANK_ITERS = 30  # power iterations (converges to ~1e-4 on the bench graph)
RECENCY_HALF_LIFE_DAYS = 14.0  # a memory touched two weeks ago counts half as "current"
W_PAGERANK, W_RECENCY, W_ACCESS, W_IMPORTANCE = 0.35, 0.3, 0.15, 0.2  # stored ranks' weights (sum 1)
CHARS_PER_TOKEN_SAFE = 3.0  # fallback token estimate when no tokenizer: over-counts, so never over budget
# Precomputed ranks (consolidate's `rank` phase): PPR over the whole graph, read cold by `brief`
RANKS_META_KEY = "graph.ranks"  # _mem_meta key holding them (JSON)
RANKS_VERSION = 1  # bumped when what is stored changes meaning; another version counts as absent
RANKS_MAX_AGE_DAYS = 7.0  # older ranks are stale: brief does without them
RANKS_MAX_GROWTH = 0.25  # ...as when memories or edges grew by more than this fraction since

# surface
SURFACE_STATED_COVERAGE = 0.8  # a memory whose content words are ≥ 80% in the utterance is already said
SURFACE_STATED_COS = 0.92  # ...or whose embedding is this close to the utterance's
MMR_LAMBDA = 0.7  # relevance vs novelty in MMR: mostly relevant, but no two near-copies
MMR_DUP_COS = 0.9  # a candidate this close to one already picked is a restatement: dropped, not just demoted
SURFACE_K = 5


# --------------------------------------------------------------------------- brief

def token_counter(store: MemoryStore) -> tuple[Any, str]:
    """``(count(text) -> int, how)``: the embedder's tokenizer, else a safe over-estimate.

    For the ONNX embedder only the tokenizer is loaded (a few ms), never the model:
    a briefing needs counts, not vectors.
    """
    emb = None
    try:
        emb = store.embedder
    except Exception:  # a broken embedder must not break a briefing
        emb = None
    if emb is not None and hasattr(emb, "count_tokens"):
        try:
            emb.count_tokens("probe")
            return emb.count_tokens, "tokenizer"
        except Exception:
            pass
    return (lambda t: math.ceil(len(t) / CHARS_PER_TOKEN_SAFE) + 1), "approximate"


def personalised_pagerank(nodes: list[int], edges: list[tuple[int, int, float]], personal: dict[int, float],
                          damping: float = PAGERANK_DAMPING, iters: int = PAGERANK_ITERS) -> dict[int, float]:
    """PageRank over an undirected weighted graph, restarting to ``personal`` (normalised).

    Dangling mass returns to the personalisation vector. Pure numpy power iteration.
    """
    import numpy as np

    if not nodes:
        return {}
    idx = {n: i for i, n in enumerate(nodes)}
    p = np.array([max(0.0, personal.get(x, 0.0)) for x in nodes], dtype=np.float64)
    a = np.array([idx[e[0]] for e in edges], dtype=np.int64)
    b = np.array([idx[e[1]] for e in edges], dtype=np.int64)
    w = np.array([e[2] for e in edges], dtype=np.float64)
    r = _pagerank_arrays(len(nodes), a, b, w, p, damping, iters)
    return {x: float(r[i]) for x, i in idx.items()}


def _pagerank_arrays(n: int, a: Any, b: Any, w: Any, p: Any, damping: float = PAGERANK_DAMPING,
                     iters: int = PAGERANK_ITERS) -> Any:
    """:func:`personalised_pagerank` on index arrays: undirected edges ``a[i] — b[i]`` of weight ``w[i]``."""
    import numpy as np

    p = np.clip(np.asarray(p, dtype=np.float64), 0.0, None)
    p = p / p.sum() if p.sum() > 0 else np.full(n, 1.0 / n)
    src = np.concatenate([a, b]).astype(np.int64)
    dst = np.concatenate([b, a]).astype(np.int64)
    w2 = np.concatenate([w, w]).astype(np.float64)
    out_w = np.bincount(src, weights=w2, minlength=n)
    dangling = out_w <= 0
    share = w2 / np.where(dangling, 1.0, out_w)[src]  # fraction of src's rank sent along each edge
    r = p.copy()
    for _ in range(iters):
        flow = np.bincount(dst, weights=r[src] * share, minlength=n) if len(w2) else np.zeros(n)
        r = damping * (flow + r[dangling].sum() * p) + (1 - damping) * p
    return r


_BRIEF_LIVE = "status = 'active' AND valid_to IS NULL AND json_extract(metadata, '$.kind') IS NOT 'episode'"


def precompute_ranks(store: MemoryStore, now: datetime | None = None) -> dict[str, Any]:
    """Personalised PageRank over the whole graph, stored for :func:`brief` (consolidate's ``rank`` phase).

    Restart vector and combined score as in :func:`brief`, but over every live memory
    and every edge (not a candidate pool). The ``BRIEF_POOL`` best by combined score are
    kept in ``_mem_meta[RANKS_META_KEY]`` with their PageRank (scaled so the top is 1);
    ``brief`` then reads them instead of ranking 100k rows cold. Returns counts.
    """
    import numpy as np

    now = now or datetime.now(timezone.utc).replace(tzinfo=None)
    conn = store.conn
    max_mem = int(conn.execute("SELECT coalesce(max(id), 0) FROM memories").fetchone()[0])
    max_edge = int(conn.execute("SELECT coalesce(max(id), 0) FROM associations").fetchone()[0])
    rows = conn.execute(
        f"""SELECT id, importance, access_count,
                   max(0.0, julianday(?) - julianday(coalesce(last_accessed_at, event_at, created_at)))
            FROM memories WHERE {_BRIEF_LIVE} ORDER BY id""", (to_iso(now),)).fetchall()
    ids = np.array([r[0] for r in rows], dtype=np.int64)
    n = len(ids)
    imp = np.array([r[1] for r in rows], dtype=np.float64)
    accn = np.array([r[2] for r in rows], dtype=np.float64)
    age = np.array([365.0 if r[3] is None else r[3] for r in rows], dtype=np.float64)
    rec = 0.5 ** (age / RECENCY_HALF_LIFE_DAYS)
    acc = np.log1p(accn) / math.log1p(max(1.0, float(accn.max()) if n else 1.0))
    personal = imp * (0.2 + rec) * (1.0 + acc)
    # weight × EDGE_TYPE_FACTOR in SQL (the factors bound as doubles: the same products), read as
    # one float64 array (ids < 2**53): 770k edges at 100k without a Python tuple loop per column
    whens = " ".join("WHEN ? THEN ?" for _ in EDGE_TYPE_FACTOR)
    binds = [x for kind, f in EDGE_TYPE_FACTOR.items() for x in (kind, float(f))]
    edges = np.fromiter(chain.from_iterable(conn.execute(
        f"SELECT source_id, target_id, weight * CASE edge_type {whens} ELSE 1.0 END FROM associations", binds)),
        dtype=np.float64).reshape(-1, 3)
    pr = np.zeros(n)
    kept_edges = 0
    if n:
        ea = edges[:, 0].astype(np.int64)
        eb = edges[:, 1].astype(np.int64)
        ew = edges[:, 2].copy()
        ia = np.clip(np.searchsorted(ids, ea), 0, n - 1)
        ib = np.clip(np.searchsorted(ids, eb), 0, n - 1)
        ok = (ids[ia] == ea) & (ids[ib] == eb) & (ew > 0)  # both ends live
        kept_edges = int(ok.sum())
        pr = _pagerank_arrays(n, ia[ok], ib[ok], ew[ok], personal)
        pr = pr / (pr.max() or 1.0)
    score = W_PAGERANK * pr + W_RECENCY * rec + W_ACCESS * acc + W_IMPORTANCE * imp
    top = np.lexsort((-ids, -score))[:BRIEF_POOL] if n else np.zeros(0, dtype=np.int64)
    value: dict[str, Any] = {"version": RANKS_VERSION, "computed_at": to_iso(now), "max_memory_id": max_mem,
             "max_edge_id": max_edge, "memories": n, "edges": len(edges),
             "ids": [int(ids[i]) for i in top], "pagerank": [round(float(pr[i]), 6) for i in top]}
    with write_tx(conn):
        conn.execute("INSERT OR REPLACE INTO _mem_meta(key, value) VALUES (?, ?)",
                     (RANKS_META_KEY, json.dumps(value, separators=(",", ":"))))
    return {"memories_ranked": n, "edges_used": kept_edges, "stored": len(value["ids"])}


def load_ranks(store: MemoryStore, now: datetime) -> tuple[dict[str, Any] | None, str]:
    """The precomputed ranks if usable, else ``(None, why)`` (absent / other version / stale)."""
    conn = store.conn
    row = conn.execute("SELECT value FROM _mem_meta WHERE key = ?", (RANKS_META_KEY,)).fetchone()
    if row is None:
        return None, "absent"
    try:
        ranks = json.loads(row[0])
        if ranks.get("version") != RANKS_VERSION:
            return None, f"of another version ({ranks.get('version')})"
        at = datetime.fromisoformat(ranks["computed_at"][:19])
    except (ValueError, KeyError, TypeError, AttributeError):
        return None, "unreadable"
    age = (now - at).total_seconds() / 86400.0
    if age > RANKS_MAX_AGE_DAYS:
        return None, f"stale (computed {age:.0f} days ago)"
    max_mem = int(conn.execute("SELECT coalesce(max(id), 0) FROM memories").fetchone()[0])
    max_edge = int(conn.execute("SELECT coalesce(max(id), 0) FROM associations").fetchone()[0])
    new_mem, new_edge = max_mem - ranks["max_memory_id"], max_edge - ranks["max_edge_id"]
    if new_mem > RANKS_MAX_GROWTH * max(ranks["memories"], 100) or new_edge > RANKS_MAX_GROWTH * max(ranks["edges"], 100):
        return None, f"stale ({new_mem} memories and {new_edge} edges added since)"
    return ranks, "precomputed"


def brief(store: MemoryStore, budget: int = 2000, now: datetime | None = None,
          params: Mapping[str, float] | None = None) -> dict[str, Any]:
    """A session-start briefing within ``budget`` tokens: :func:`memengine.brief.select`.

    The same selection fills the managed block of MEMORY.md (consolidate's ``write``
    phase). ``chosen`` lists every line with why it was chosen; ``sections`` and
    ``topics`` group them as shown. Consolidate's precomputed ranks, when fresh, add
    their best memories to the topic candidates of a store too large to consider whole.
    """
    from memengine import brief as selection

    if budget < 1:
        raise UserError("--budget must be at least 1 token")
    now = now or datetime.now(timezone.utc).replace(tzinfo=None)
    count, how = token_counter(store)
    ranks, _why = load_ranks(store, now)
    sel = selection.select(store, budget, now, count, how, params, ranked_ids=ranks["ids"] if ranks else None)
    return {"budget": budget, "tokens": sel.tokens, "token_count": how, "text": sel.text(),
            "sections": {k: [i.to_dict() for i in v] for k, v in sel.sections.items()},
            "topics": [{"id": t.id, "topic": t.label(), "name": t.name,
                        "size": t.size, "memories": [i.id for i in t.items]} for t in sel.topics],
            "chosen": [i.to_dict() for i in sel.chosen()], "warnings": sel.warnings}


# --------------------------------------------------------------------------- surface

_CAP_RE = re.compile(r"\b([A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)*)")


def utterance_terms(store: MemoryStore, utterance: str) -> tuple[list[str], list[str]]:
    """(entities, keywords) of an utterance.

    Entities: known aliases (the ``aliases`` table) that occur in it, and capitalised
    spans not at the start of a sentence; keywords: non-stopword terms.
    """
    ents: list[str] = []
    low = utterance.casefold()
    for alias, name in store.aliases().items():
        if len(alias) >= 3 and re.search(r"\b" + re.escape(alias.casefold()) + r"\b", low) and name not in ents:
            ents.append(name)
    for m in _CAP_RE.finditer(utterance):
        start = m.start()
        before = utterance[:start].rstrip()
        if not before or before[-1] in ".!?":
            words = m.group(1).split()
            if len(words) == 1:
                continue
            span = " ".join(words[1:])
        else:
            span = m.group(1)
        if span.casefold() not in STOPWORDS and span not in ents:
            ents.append(span)
    kws = [t for t in query_terms(utterance) if t not in STOPWORDS and len(t) > 2]
    return ents, list(dict.fromkeys(kws))


def _content_words(text: str) -> set[str]:
    return {t for t in query_terms(text) if t not in STOPWORDS and len(t) > 2}


def surface(store: MemoryStore, utterance: str, k: int = SURFACE_K, seed_k: int = SEED_K) -> dict[str, Any]:
    """Memories related to ``utterance`` that it does not already state.

    Seeds: hybrid recall of the whole utterance plus of each entity (entities weigh
    as much as the utterance: they are what it is *about*). Spreading activation
    (with inhibition) grows them; memories already stated in the utterance (≥
    ``SURFACE_STATED_COVERAGE`` of their content words present, or cosine ≥
    ``SURFACE_STATED_COS``) are excluded; MMR (``MMR_LAMBDA``) picks ``k`` non-redundant ones.
    """
    if not utterance.strip():
        raise UserError("utterance is empty")
    ents, kws = utterance_terms(store, utterance)
    seeds, degraded = seed_scores(store, utterance, seed_k)
    for e in ents:
        s, _ = seed_scores(store, e, max(5, seed_k // 3))
        for i, v in s.items():
            seeds[i] = max(seeds.get(i, 0.0), v)
    walk = spread_activation(Adjacency(store), seeds)
    cand = dict(walk.score)
    cand_ids = [i for i in cand if i not in _hubs(store, cand)]
    rows = store.rows(cand_ids)
    said = _content_words(utterance)
    vec = store.embed_or_none([utterance], query=True)
    vecs = store.vectors(cand_ids) if vec is not None else {}
    qv = vec[0] if vec is not None else None
    kept: list[int] = []
    stated: list[int] = []
    for i in cand_ids:
        m = rows.get(i)
        if m is None or m.status != "active":
            continue
        words = _content_words(m.content)
        cov = len(words & said) / len(words) if words else 1.0
        cos = float(vecs[i] @ qv) if qv is not None and i in vecs else 0.0
        if cov >= SURFACE_STATED_COVERAGE or cos >= SURFACE_STATED_COS:
            stated.append(i)
        else:
            kept.append(i)
    picked = mmr(kept, cand, vecs, k)
    results = []
    for i in picked:
        d = rows[i].to_dict()
        d["score"] = round(cand[i], 4)
        d["via"] = " → ".join(f"#{s['id']}" for s in walk.path.get(i, [{"id": i}]))
        results.append(d)
    return {"utterance": utterance, "entities": ents, "keywords": kws, "excluded_as_stated": sorted(stated),
            "results": results, "degraded": degraded}


def mmr(ids: list[int], relevance: dict[int, float], vecs: dict[int, Any], k: int,
        lam: float = MMR_LAMBDA) -> list[int]:
    """Maximal marginal relevance: ``λ·rel − (1−λ)·max cos to what is picked``; no vectors → by relevance.

    Candidates with cosine ≥ ``MMR_DUP_COS`` to a picked one are dropped outright.
    """
    pool = sorted(ids, key=lambda i: (-relevance[i], i))[: max(k * 10, 50)]
    top = max((relevance[i] for i in pool), default=1.0) or 1.0
    picked: list[int] = []
    while pool and len(picked) < k:
        def gain(i: int) -> float:
            red = max((float(vecs[i] @ vecs[j]) for j in picked if i in vecs and j in vecs), default=0.0)
            return lam * relevance[i] / top - (1 - lam) * red
        best = max(pool, key=lambda i: (gain(i), -i))
        pool.remove(best)
        if best in vecs and any(j in vecs and float(vecs[best] @ vecs[j]) >= MMR_DUP_COS for j in picked):
            continue
        picked.append(best)
    return picked
