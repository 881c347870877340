"""Clusters by subject, not by speaker: each author's own direction taken out of chat-turn vectors.

A chat turn is embedded as ``Author: text``; in a short turn ("ah yes. I can make it after work")
the author's name and way of writing weigh more than the subject, so average-linkage clusters
and the brief's parts grouped a two-person chat by who spoke (bench/cluster_authors.py). Before
grouping, each row with an author who has at least ``MIN_ROWS`` rows is moved by
``mean(author) - mean(all authored rows)`` and renormalised: what sets one speaker apart from the
others goes, and most of what all turns share (CLUSTER_COMMON): all of it would keep every
cosine high, and average linkage then chains a one-topic group chat into one cluster
(bench/cluster_authors.py); none of it would leave most short turns in no cluster at
consolidate's distance threshold. The brief's parts (no threshold) take out each author's whole mean. A store
with fewer than two such authors is left as it is (a notebook of one author has no speaker to
tell apart).

Only the vectors used to decide who groups with whom change: stored vectors, cluster
centroids and recall never see these.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from memengine.db import select_in

MIN_ROWS = 5  # an author's mean over fewer turns is mostly their subjects, not their voice
CLUSTER_COMMON = 0.75  # consolidate: the share of the speakers' common mean kept (see above)
BLOCK = 32768  # rows per step: bounded temporaries at 1M rows
SCAN_OVER = 5000  # more ids than this: authors read in one scan
ENABLED = True  # bench/cluster_authors.py compares with and without in one run
# consolidate's clusters too, not only the brief's parts: on the brief's held-out sets this cost
# 2 of 52 key facts (a short news turn joined a cluster of reactions), see bench/README.md
TOPICS = True


def without_speaker(vecs: np.ndarray, authors: Sequence[str | None], min_rows: int = MIN_ROWS,
                    common: float = 1.0) -> np.ndarray:
    """Unit rows of ``vecs`` less their author's mean, plus ``common`` times the mean of all authored rows.

    ``common`` 1.0 removes only each frequent author's offset from the mean speaker; 0.0 each
    author's whole mean (what all turns share goes too, so cosines fall): for a partition
    without a threshold (the brief's parts), where it splits a chat into parts of even size
    instead of one big part and a few outliers. ``authors[i]`` is row i's author (None: not a
    chat turn, left as it is). Returns ``vecs`` itself (no copy) when nothing changes: fewer
    than two authors with ``min_rows`` rows.
    """
    if not ENABLED or len(vecs) == 0:
        return vecs
    names: dict[str, int] = {}
    codes = np.fromiter((names.setdefault(a, len(names)) if a else -1 for a in authors),
                        dtype=np.int64, count=len(authors))
    if len(names) < 2:
        return vecs
    counts = np.bincount(codes[codes >= 0], minlength=len(names))
    frequent = counts >= min_rows
    if int(frequent.sum()) < 2:
        return vecs
    codes = np.where(codes >= 0, np.where(frequent[np.maximum(codes, 0)], codes, -1), -1)
    # per-author sums in blocks (sort + reduceat: np.add.at is slow, a one-hot product too big)
    sums = np.zeros((len(names), vecs.shape[1]), dtype=np.float64)
    for b in range(0, len(vecs), BLOCK):
        c = codes[b: b + BLOCK]
        sel = np.nonzero(c >= 0)[0]
        if not len(sel):
            continue
        order = sel[np.argsort(c[sel], kind="stable")]
        sc = c[order]
        starts = np.r_[0, np.nonzero(np.diff(sc))[0] + 1]
        sums[sc[starts]] += np.add.reduceat(vecs[b + order], starts, axis=0)
    n = int(counts[frequent].sum())
    overall = sums[frequent].sum(axis=0) / n
    # one extra zero row: code -1 (no author, or too few rows) indexes it and moves nothing
    shift = np.zeros((len(names) + 1, vecs.shape[1]), dtype=np.float32)
    shift[:-1][frequent] = sums[frequent] / counts[frequent][:, None] - common * overall
    out = np.empty(vecs.shape, dtype=np.float32)
    for b in range(0, len(vecs), BLOCK):
        c = codes[b: b + BLOCK]
        blk = vecs[b: b + BLOCK] - shift[c]
        norms = np.linalg.norm(blk, axis=1, keepdims=True)
        moved = (c >= 0)[:, None] & (norms > 0)
        out[b: b + BLOCK] = np.where(moved, blk / np.where(norms > 0, norms, 1.0), vecs[b: b + BLOCK])
    return out


def authors_of(conn: Any, ids: Sequence[int]) -> list[str | None]:
    """The author of each memory id (None when it has none), in ``ids``' order."""
    got: dict[int, str] = {}
    id_list = [int(i) for i in ids]
    if len(id_list) > SCAN_OVER:  # one scan of the authored rows beats thousands of IN lists
        wanted = set(id_list)
        got.update((int(r[0]), str(r[1])) for r in conn.execute(
            "SELECT id, author FROM memories WHERE author IS NOT NULL AND author != ''") if int(r[0]) in wanted)
        return [got.get(i) for i in id_list]
    got.update((int(r[0]), str(r[1])) for r in select_in(
        conn, "SELECT id, author FROM memories WHERE id IN ({ids}) AND author IS NOT NULL AND author != ''", id_list))
    return [got.get(i) for i in id_list]
