"""Clusters by subject, not by speaker: each author's own direction taken out of chat-turn vectors.

A chat turn is embedded as ``Author: text``; in a short turn ("ah yes. I can make it after work")
the author's name and way of writing weigh more than the subject, so average-linkage clusters
and the brief's parts grouped a two-person chat by who spoke (bench/cluster_authors.py). Before
grouping, each row with an author who has at least ``MIN_ROWS`` rows is moved by
``mean(author) - mean(all authored rows)`` and renormalised: what sets one speaker apart from the
others goes, what all turns share (and the subject) stays, so consolidate's distance threshold
keeps its meaning. The brief's parts (no threshold) take out each author's whole mean. A store
with fewer than two such authors is left as it is (a notebook of one author has no speaker to
tell apart).

Only the vectors used to decide who groups with whom change: stored vectors, cluster
centroids and recall never see these.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

MIN_ROWS = 5  # an author's mean over fewer turns is mostly their subjects, not their voice
SCAN_OVER = 5000  # more ids than this: authors read in one scan
ENABLED = True  # bench/cluster_authors.py compares with and without in one run


def without_speaker(vecs: np.ndarray, authors: Sequence[str | None], min_rows: int = MIN_ROWS,
                    keep_common: bool = True) -> np.ndarray:
    """Unit rows of ``vecs`` with each frequent author's offset from the mean speaker removed.

    ``authors[i]`` is row i's author (None: not a chat turn, left as it is). ``keep_common``
    False removes each author's whole mean (what all turns share goes too): cosines fall, so
    only for a partition without a threshold (the brief's parts), where it splits a chat into
    parts of even size instead of one big part and a few outliers. Returns ``vecs`` itself (no
    copy) when nothing changes: fewer than two authors with ``min_rows`` rows.
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
    rows = np.nonzero(codes >= 0)[0]
    rows = rows[frequent[codes[rows]]]
    code = codes[rows]
    # per-author sums by one sort and reduceat (np.add.at is slow on many rows)
    order = np.argsort(code, kind="stable")
    sorted_code = code[order]
    starts = np.r_[0, np.nonzero(np.diff(sorted_code))[0] + 1]
    sums = np.add.reduceat(vecs[rows[order]].astype(np.float64), starts, axis=0)
    means = sums / counts[sorted_code[starts]][:, None]
    overall = sums.sum(axis=0) / len(rows)
    shift = np.zeros((len(names), vecs.shape[1]), dtype=np.float64)
    shift[sorted_code[starts]] = means - overall if keep_common else means
    out = np.array(vecs, dtype=np.float32, copy=True)
    out[rows] -= shift[code].astype(np.float32)
    norms = np.linalg.norm(out[rows], axis=1, keepdims=True)
    out[rows] = np.divide(out[rows], norms, out=np.zeros_like(out[rows]), where=norms > 0)
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
    for start in range(0, len(id_list), 500):
        part = id_list[start: start + 500]
        got.update((int(r[0]), str(r[1])) for r in conn.execute(
            f"SELECT id, author FROM memories WHERE author IS NOT NULL AND author != '' AND id IN "
            f"({','.join('?' * len(part))})", part))
    return [got.get(i) for i in id_list]
