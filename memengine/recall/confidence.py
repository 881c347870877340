"""Is a recall result a real match, or just the best of nothing? (``weak``)

Fused scores are relative: hybrid z-scores its candidates, so the best candidate of an
unrelated store still scores like a hit (after forgetting the only Oscar memory, "Oscar
meetings" returned "Flew to Rome" with a confident-looking score). Two absolute signals
say whether a result speaks of the query at all:

- ``cosine``: the query vector's cosine to the memory (its context vector for a chat turn,
  as recall scores it);
- ``coverage``: the share of the query's content words found in the memory's own text
  (a word matches a text word that starts with its first ``len - 3`` letters, at least 4:
  "meetings" finds "meeting", a cheap stand-in for FTS5's porter stems).

A result is ``weak`` when both are low: ``cosine < WEAK_COSINE`` and ``coverage <
WEAK_COVERAGE``. The two thresholds were chosen by leave-one-conversation-out on LoCoMo
dev (bench/recall_weak.py): evidence turns found for their own questions are the hits;
the same questions asked of another conversation's store, and off-topic queries, give the
"nothing relevant" results. Results of keyword-only recall (no vectors) use coverage alone.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from memengine.text import query_terms

# Chosen by bench/recall_weak.py (leave-one-conversation-out on LoCoMo dev; README "Relevance").
WEAK_COSINE = 0.40
WEAK_COVERAGE = 0.5

_WORD_RE = re.compile(r"\w+", re.UNICODE)


def _prefix(term: str) -> str:
    return term if len(term) <= 4 else term[: max(4, len(term) - 3)]


def coverage(terms: Sequence[str], text: str) -> float:
    """The share of ``terms`` (lower-cased query content words) found in ``text`` (0 without terms)."""
    if not terms:
        return 0.0
    words = {w.lower() for w in _WORD_RE.findall(text)}
    found = 0
    for term in terms:
        p = _prefix(term)
        if term in words or any(w.startswith(p) for w in words):
            found += 1
    return found / len(terms)


def is_weak(cosine: float | None, cover: float, cosine_floor: float = WEAK_COSINE,
            coverage_floor: float = WEAK_COVERAGE) -> bool:
    """Weak: neither the vector nor the words say the memory is about the query."""
    vector_says = cosine is not None and cosine >= cosine_floor
    return not vector_says and cover < coverage_floor


def mark_weak(results: Sequence[Any], terms: Sequence[str], cosines: Mapping[int, float] | None) -> None:
    """Set ``weak`` on each result (``cosines``: the vector scores recall used; None when keyword-only)."""
    for m in results:
        cos = cosines.get(m.id) if cosines is not None else None
        # (the vector alone can clear it: the words are then not read)
        m.weak = False if cos is not None and cos >= WEAK_COSINE else is_weak(cos, coverage(terms, m.content))


def mark_weak_by_query(store: Any, query: str, results: Sequence[Any]) -> None:
    """``mark_weak`` for results ranked by something else than hybrid fusion (the graph strategies).

    A walk reaches memories the query never scored, so their cosines are computed here, as
    hybrid scores them (the context vector's cosine where a turn has one, else its own), from
    the store's public ``embed_or_none``/``cosines``; keyword-only stores use coverage alone.
    """
    if not results:
        return
    vecs = store.embed_or_none([query], query=True)
    cosines: dict[int, float] | None = None
    if vecs is not None:
        ids = [m.id for m in results]
        cosines = {**store.cosines(vecs[0], ids), **store.cosines(vecs[0], ids, "vec_contexts")}
    mark_weak(results, query_terms(query), cosines)
