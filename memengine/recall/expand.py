"""Multi-hop expansion without an LLM: re-rank the fused pool after the first hits.

A question that needs two turns ("What activities does Melanie do with her family?") is
answered by turns that each match a part of it. After fusion the best few results (the
*seeds*) stay where they are; the rest of the pool (the best EXPAND_POOL fused candidates)
is re-ranked by two optional bonuses, each off at 0:

* **coverage** (``w_coverage``): greedily, each next result is the one whose score plus
  ``w_coverage`` × (share of the query's content words it matches that no result above it
  matched) is largest: a turn covering the part of the question the top hits lack rises.
* **second hop** (``w_hop``): the words of the seeds that are rare in the store (in at most
  ``hop_rare_share`` of the memories' own text) and absent from the question are searched
  (bm25); a pool member from a *different session* than every seed (thread and day) gains
  ``w_hop`` × its hop bm25 / the best one. The other session is the point: the first hop's
  own session is already in the results, and its neighbours share its words anyway.

Both only move ranks after ``seeds``; neither fetches a memory the pool lacks. Every constant
is chosen by leave-one-conversation-out on both dev sets (bench/loo.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from memengine.records import Candidate
from memengine.text import STOPWORDS, bare_text, quote_fts

EXPAND_POOL = 30  # fused candidates the expansion re-ranks (evidence below ~30 scores too low to pass)
HOP_TERMS = 8  # rare seed words searched by the second hop, rarest first
_WORD = re.compile(r"\w[\w'’-]*", re.UNICODE)


def _stem(word: str) -> str:
    """A crude prefix stem: enough to match "painting" with "paint", "kids" with "kid"."""
    w = word.lower()
    return w[: max(4, len(w) - 3)] if len(w) > 4 else w


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def matched_terms(c: Candidate, stems: dict[str, str]) -> set[str]:
    """The query terms (``stems``: term -> stem) a candidate's own words match."""
    got = set()
    words = _words(bare_text(c.content, c.author))
    for t, s in stems.items():
        if any(w.startswith(s) for w in words):
            got.add(t)
    return got


def coverage_rerank(ranked: list[Candidate], terms: list[str], seeds: int, weight: float) -> list[Candidate]:
    """Ranks after ``seeds``: greedily the best score + ``weight`` × share of query terms not
    yet matched by a result above. ``ranked`` is best first; scores are left as they were."""
    if weight <= 0 or len(terms) < 2 or len(ranked) <= seeds:
        return ranked
    stems = {t: _stem(t) for t in terms}
    match = {c.id: matched_terms(c, stems) for c in ranked}
    out = ranked[:seeds]
    covered: set[str] = set().union(*(match[c.id] for c in out)) if out else set()
    rest = ranked[seeds:]
    n = len(terms)
    while rest:
        best = max(rest, key=lambda c: ((c.score or 0.0) + weight * len(match[c.id] - covered) / n, -c.id))
        rest.remove(best)
        covered |= match[best.id]
        out.append(best)
    return out


def _session(c: Candidate) -> tuple[Any, str]:
    return c.thread, (c.event_at or "")[:10]


# word list -> (share of memories whose own text holds each word, number of memories)
Shares = Callable[[list[str]], tuple[dict[str, float], int]]
Search = Callable[[str, int], dict[int, float]]  # FTS5 query, limit -> {memory id: bm25, larger is better}


def hop_terms(shares_of: Shares, query: str, seeds: list[Candidate], rare_share: float,
              rare_count: int = 0) -> list[str]:
    """Words of the seeds rare in the store's own texts (not context columns) and not in the
    question, rarest first (at most HOP_TERMS); rare: in at most ``rare_share`` of the memories, or in at most
    ``rare_count`` of them (a chat of 80 turns has no word in 1 % of it but the seed's own)."""
    asked = {_stem(w) for w in _words(query)}
    cands = list(dict.fromkeys(w for c in seeds for w in _words(bare_text(c.content, c.author))
                               if len(w) >= 3 and w not in STOPWORDS and not w.isdigit() and _stem(w) not in asked))
    if not cands:
        return []
    shares, total = shares_of(cands)
    total = max(1, total)
    # in two memories at least (the seed itself and another: else there is nothing to reach)
    most = max(rare_share, (rare_count + 0.5) / total)
    kept = [w for w in cands if 1.5 / total <= shares.get(w, 1.0) <= most]
    kept.sort(key=lambda w: (shares[w], cands.index(w)))
    return kept[:HOP_TERMS]


def hop_bonus(search: Search, shares_of: Shares, query: str, ranked: list[Candidate], seeds: int, weight: float,
              rare_share: float, keep: int = 0, limit: int = EXPAND_POOL * 3, rare_count: int = 0) -> list[Candidate]:
    """Ranks after ``max(seeds, keep)`` re-sorted by score + the second hop's bonus (see the module doc), the
    rare words read from the first ``seeds``, the best ``limit`` hop hits read. Scores of the moved candidates
    become the sum (the order returned is by it)."""
    fixed = max(seeds, keep)
    if weight <= 0 or len(ranked) <= fixed:
        return ranked
    first = ranked[:seeds]
    terms = hop_terms(shares_of, query, first, rare_share, rare_count)
    if not terms:
        return ranked
    match = " OR ".join(quote_fts(t) for t in terms)
    hits = search(match, limit)
    if not hits:
        return ranked
    # bm25 from FTS5 is negative-better in SQL, but _keyword returns larger-is-better scores
    top = max(hits.values())
    if top <= 0:
        return ranked
    taken = {_session(c) for c in first}
    rest = ranked[fixed:]
    bonus = {c.id: weight * hits[c.id] / top for c in rest if c.id in hits and _session(c) not in taken}
    for c in rest:
        if c.id in bonus:
            c.score = round((c.score or 0.0) + bonus[c.id], 6)
    rest.sort(key=lambda c: (-(c.score or 0.0), c.id))
    return ranked[:fixed] + rest


def expand(run: Any, ranked: list[Candidate], search: Search, shares_of: Shares) -> list[Candidate]:
    """The fused ranking (best first) after the second hop and the coverage re-rank that
    ``run.cfg`` switches on; ranks before ``cfg.expand_seeds`` (or ``cfg.expand_keep``, when more) never move."""
    cfg = run.cfg
    pool, tail = ranked[:EXPAND_POOL], ranked[EXPAND_POOL:]
    keep = max(cfg.expand_seeds, cfg.expand_keep)
    if cfg.w_hop > 0:
        pool = hop_bonus(search, shares_of, run.query, pool, cfg.expand_seeds, cfg.w_hop, cfg.hop_rare_share, keep)
    if cfg.w_coverage > 0:
        terms = _query_terms(run)
        pool = coverage_rerank(pool, terms, keep, cfg.w_coverage)
    return pool + tail


def _query_terms(run: Any) -> list[str]:
    """The query's content words the keyword side searched (person names aside, as there)."""
    from memengine.text import query_terms

    terms = query_terms(run.query)
    if run.people and run.cfg.drop_person_terms:
        names = {w for key in run.people for w in key.split()}
        terms = [t for t in terms if t not in names] or terms
    return terms
