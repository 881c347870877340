"""The level-1 clustering threshold measured from the store's background, not from zero.

consolidate groups memories whose average-linkage cosine passes ``1 - CLUSTER_DISTANCE`` (0.5). That
threshold was set on English stores, where two memories picked at random sit at a cosine of 0.2-0.45
(the round-7 held-out chats: at most 0.44 once a chat turn takes in its exchange). The embedder is an
English sentence model: text it reads less well — Italian, Portuguese, a chat of short turns in any
language it was not trained on — comes out compressed toward one direction, so that two random turns of
an Italian family chat sit at 0.57 and of a Portuguese work chat at 0.59 (bench/data/brief_heldout8),
and average linkage at 0.5 puts the whole chat in ONE topic (143 and 97 memories), which the brief then
cuts into parts named "dicembre" and "notte".

So the threshold is read above the background: the mean cosine between two of the memories clustered
(``background``, exact and O(n·d): for unit rows it is ``(|Σv|² - n) / (n (n - 1))``). Where it is at most
``BACKGROUND_REF`` nothing changes (the stores the threshold was set on); above it, a pair must be as
much closer as the background is higher. The background is the whole run's (every memory that may be
clustered), never a batch's: a large store is clustered in batches of one vector-index cell, whose members
are alike by construction, and a rerun on the same memories reads the same background, so the fixed point
of the clustering (a rerun changes nothing) holds.
"""

from __future__ import annotations

import numpy as np

BACKGROUND_REF = 0.45  # the highest background of the stores the threshold was set on (English, held-out 1-7)
MAX_SHIFT = 0.25  # never more than this: a store of near-copies would otherwise have no clusters at all
MIN_ROWS = 20  # fewer memories say little about a background


def background(vecs: np.ndarray) -> float:
    """The mean cosine between two different rows of ``vecs`` (unit rows), 0.0 for fewer than MIN_ROWS rows."""
    n = len(vecs)
    if n < MIN_ROWS:
        return 0.0
    total = vecs.sum(axis=0, dtype=np.float64)  # (no float64 copy of the rows: 1.5 GB at 1M)
    norms = float(np.einsum("ij,ij->i", vecs, vecs).sum(dtype=np.float64))  # ~1 each: rows not quite unit
    return float((total @ total - norms) / (n * (n - 1)))


def distance(base: float, vecs: np.ndarray) -> float:
    """The average-linkage cosine distance threshold for clustering ``vecs``: ``base`` less the background's
    excess over BACKGROUND_REF (at most MAX_SHIFT)."""
    return base - min(MAX_SHIFT, max(0.0, background(vecs) - BACKGROUND_REF))
