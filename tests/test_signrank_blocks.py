"""The sign ranking's blocked Hamming pass (scratch reused block to block, distances counted per
block) keeps exactly the rows the one-pass version kept, in the same order.

The reference below is ``signrank.rank_rows`` and ``hamming_cols`` as they were before issue 22's
warm-1M work, verbatim; both run on the same random sign planes, past PREFILTER_FROM rows (so the
Hamming pass runs), with and without empty slots, and with blocks that do not divide the rows.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from memengine import signrank


def _hamming_before(cols: Sequence[np.ndarray], query_signs: np.ndarray) -> np.ndarray:
    q = np.packbits(np.asarray(query_signs) > 0).view(np.uint64)
    ham = np.zeros(len(cols[0]), dtype=np.uint16)
    for w in range(len(cols)):
        ham += np.bitwise_count(cols[w] ^ q[w])
    return ham


def _rank_before(cols: Sequence[np.ndarray], qvec: np.ndarray, m: int, present: np.ndarray | None = None) -> np.ndarray:
    n = len(cols[0])
    keep: np.ndarray | None = None
    if n >= signrank.PREFILTER_FROM:
        ham = _hamming_before(cols, qvec)
        if present is not None:
            ham[~present] = signrank.ABSENT
        want = max(signrank.PREFILTER_MIN * m, int(n * signrank.PREFILTER_SHARE))
        cut = int(np.searchsorted(np.cumsum(np.bincount(ham)), want))
        keep = np.flatnonzero(ham <= cut)
        cols = [c[keep] for c in cols]
        present = present[keep] if present is not None else None
    scores = signrank.estimate(cols, qvec)
    if present is not None:
        scores[~present] = -np.inf
        m = min(m, int(present.sum()))
    rows = signrank.top_rows(scores, m)
    return np.sort(keep[rows] if keep is not None else rows)


@pytest.mark.parametrize("chunk", [4096, 50_000, signrank.HAMMING_CHUNK])
def test_blocked_ranking_keeps_the_same_rows(monkeypatch: pytest.MonkeyPatch, chunk: int) -> None:
    monkeypatch.setattr(signrank, "HAMMING_CHUNK", chunk)
    rng = np.random.default_rng(22)
    n = signrank.PREFILTER_FROM + 12_345
    # rows near a few centres, so distances cluster and ties at the cut are many
    centres = rng.standard_normal((8, 384)).astype(np.float32)
    vecs = centres[rng.integers(0, 8, n)] + rng.standard_normal((n, 384)).astype(np.float32)
    planes = np.packbits(vecs > 0, axis=1).view(np.uint64).T.copy()
    cols = [planes[w] for w in range(6)]
    present = rng.random(n) > 0.1
    for i in range(6):
        q = (centres[i % 8] + rng.standard_normal(384)).astype(np.float32)
        assert (signrank.hamming_cols(cols, q) == _hamming_before(cols, q)).all()
        for m in (1000, 3200):
            assert (signrank.rank_rows(cols, q, m) == _rank_before(cols, q, m)).all()
            assert (signrank.rank_rows(cols, q, m, present) == _rank_before(cols, q, m, present)).all()


def test_blocked_ranking_with_few_rows_present() -> None:
    """Fewer present rows than the share wanted: every present row (and the empty ones) passes the cut."""
    rng = np.random.default_rng(3)
    n = signrank.PREFILTER_FROM
    planes = rng.integers(0, 2**63, size=(6, n), dtype=np.uint64)
    cols = [planes[w] for w in range(6)]
    present = np.zeros(n, dtype=bool)
    present[rng.choice(n, 500, replace=False)] = True
    q = rng.standard_normal(384).astype(np.float32)
    got = signrank.rank_rows(cols, q, 1000, present)
    assert (got == _rank_before(cols, q, 1000, present)).all()
    assert len(got) == 500 and present[got].all()
