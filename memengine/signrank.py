"""Ranking rows by their sign bits: the shortlist both kNN paths re-rank exactly.

Shared by the one-shot path (``memengine.signplane``: the sign plane stored in the file)
and the warm one (``memengine.vectors.VectorMatrix``: the same bits in memory), so both
keep the same rows for the same query and return the same neighbours (below
``vcells.CELLS_FROM`` rows: above, a warm table ranks only the rows of the query's nearest cells). Each plane is
given as word columns: ``cols[w]`` holds word w (64 dimensions) of every row's sign bits.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

# Rows re-ranked exactly: max(SHORTLIST, SHORTLIST_FACTOR * k), 3200 for recall's 400 per
# table (bench/signplane.py: share of the exact top-10 and top-400 kept against the width).
SHORTLIST = 1000
SHORTLIST_FACTOR = 8
QUERY_BITS = 4  # levels of the query in the estimator (3 bits: -1.2 % of the top-400 at width 2000)
PREFILTER_FROM = 50_000  # rows from which a Hamming pass narrows the estimator's work...
PREFILTER_SHARE = 0.05  # ...to this share of them (at least PREFILTER_MIN times the width)
PREFILTER_MIN = 4
ABSENT = 10_000  # Hamming distance given to empty slots: beyond any real one (<= 384)
HAMMING_CHUNK = 131_072  # rows per block of the Hamming pass (1 MB of scratch words: in cache)
STACK_MAX = 8192  # rows up to which the estimator stacks its words (see estimate)


def width(k: int) -> int:
    """How many rows the sign ranking keeps for an exact re-rank, for a kNN of ``k``."""
    return max(SHORTLIST, SHORTLIST_FACTOR * k)


def hamming(bits: np.ndarray, query_signs: np.ndarray) -> np.ndarray:
    """Hamming distance (uint16) of each row of ``bits`` ((n, words) uint64) to the query's signs."""
    return hamming_cols([bits[:, w] for w in range(bits.shape[1])], query_signs)


def hamming_cols(cols: Sequence[np.ndarray], query_signs: np.ndarray) -> np.ndarray:
    """:func:`hamming` over the plane one word position at a time (``cols[w]``: word w of every row)."""
    return _hamming_counts(cols, query_signs, None, counts=False)[0]


def _hamming_counts(cols: Sequence[np.ndarray], query_signs: np.ndarray, present: np.ndarray | None,
                    counts: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Hamming distances (uint16; ABSENT where ``present`` is False) and, with ``counts``, how many
    rows have each distance (int64, indexed by distance, ABSENT + 1 long).

    A block of HAMMING_CHUNK rows at a time, into scratch arrays reused from block to block:
    the XOR and popcount of each word stay in cache, and no block allocates (a fresh 8 MB
    array per word and pass cost page faults), and the counts are taken while the block's
    distances are in cache too: 9.7 instead of 11.9 ms of CPU at 1M rows (same distances).
    """
    import numpy as np

    q = np.packbits(np.asarray(query_signs) > 0).view(np.uint64)
    n = len(cols[0])
    ham = np.empty(n, dtype=np.uint16)
    hist = np.zeros(ABSENT + 1 if counts else 0, dtype=np.int64)
    step = max(1, min(n, HAMMING_CHUNK))
    word, count = np.empty(step, dtype=np.uint64), np.empty(step, dtype=np.uint8)
    for lo in range(0, n, step):
        hi = min(n, lo + step)
        block, w_, c_ = ham[lo:hi], word[:hi - lo], count[:hi - lo]
        np.bitwise_xor(cols[0][lo:hi], q[0], out=w_)
        np.bitwise_count(w_, out=block)
        for w in range(1, len(cols)):
            np.bitwise_xor(cols[w][lo:hi], q[w], out=w_)
            np.bitwise_count(w_, out=c_)
            np.add(block, c_, out=block)
        if present is not None:
            block[~present[lo:hi]] = ABSENT
        if counts:
            hist += np.bincount(block, minlength=ABSENT + 1)
    return ham, hist


def estimate(cols: Sequence[np.ndarray], qvec: np.ndarray) -> np.ndarray:
    """A score per row ranking like ``qvec · sign(row)`` (higher = nearer): the asymmetric estimator.

    Hamming distance counts every dimension alike; weighting each sign agreement by the
    query's own component keeps far more of the exact neighbours at the same shortlist
    width (bench/signplane.py, 100k real-text vectors, width 2000: 95 vs 84 % of the exact
    top-400 own vectors, 85 vs 70 % of the context vectors). The query is quantised to
    QUERY_BITS levels, q ≈ lo + step·u, so ``Σ q_d b_d = lo·popcount(b) + step·Σ_j 2^j
    popcount(b & U_j)`` runs on popcounts (``cols[w]``: word w of every row's sign bits).

    Up to STACK_MAX rows (a warm 100k table's ~5000 after the Hamming pass) the words are stacked
    and every level's popcounts taken at once: a dozen numpy calls, not ~80, each of which hands
    the GIL over while the other table is scanned on a second thread (1.17 -> 0.45 ms then, 5000
    rows). Past it the word-by-word loop below, whose arrays stay small (the stacked temporaries,
    48 bytes a row per level, cost 2x at 50k rows and 5x at 150k). Both give the same scores (their
    uint8 / uint16 sums wrap alike).
    """
    import numpy as np

    q = np.asarray(qvec, dtype=np.float32)
    lo, hi = float(q.min()), float(q.max())
    n = len(cols[0])
    step = (hi - lo) / (2 ** QUERY_BITS - 1)
    levels = np.rint((q - lo) / step).astype(np.uint8) if hi > lo else np.zeros(len(q), dtype=np.uint8)
    if n <= STACK_MAX:
        words = np.stack(cols)  # (words, n)
        total = np.add.reduce(np.bitwise_count(words), axis=0, dtype=np.uint8)  # popcount(b): the weight of lo
        if not hi > lo:
            return total.astype(np.float32) * np.float32(lo)
        planes = np.stack([np.packbits((levels >> j) & 1).view(np.uint64) for j in range(QUERY_BITS)])
        part = np.add.reduce(np.bitwise_count(words[None, :, :] & planes[:, :, None]), axis=1, dtype=np.uint8)
        shifts = np.arange(QUERY_BITS, dtype=np.uint16)[:, None]
        acc = np.add.reduce(part.astype(np.uint16) << shifts, axis=0, dtype=np.uint16)
        return acc.astype(np.float32) + np.float32(lo / step) * total
    total = np.zeros(n, dtype=np.uint8)
    count = np.empty(n, dtype=np.uint8)
    for w in range(len(cols)):  # popcount(b): the weight of lo
        np.bitwise_count(cols[w], out=count)
        total += count
    if not hi > lo:
        return total.astype(np.float32) * np.float32(lo)
    acc = np.zeros(n, dtype=np.uint16)
    word = np.empty(n, dtype=np.uint64)
    part = np.empty(n, dtype=np.uint8)
    for j in range(QUERY_BITS):
        plane = np.packbits((levels >> j) & 1).view(np.uint64)
        part[:] = 0
        for w in range(len(cols)):
            np.bitwise_and(cols[w], plane[w], out=word)
            np.bitwise_count(word, out=count)
            part += count
        acc += part.astype(np.uint16) << j
    return acc.astype(np.float32) + np.float32(lo / step) * total


def top_rows(scores: np.ndarray, m: int) -> np.ndarray:
    """Positions of the ``m`` highest scores (any order)."""
    import numpy as np

    if m >= len(scores):
        return np.arange(len(scores))
    return np.argpartition(-scores, m - 1)[:m]


def rank_rows(cols: Sequence[np.ndarray], qvec: np.ndarray, m: int, present: np.ndarray | None = None,
              of: int | None = None) -> np.ndarray:
    """Positions (ascending) of the ``m`` rows the estimator ranks nearest the query.

    Past PREFILTER_FROM rows a Hamming pass (~4x cheaper) first keeps the rows within the
    distance that reaches PREFILTER_SHARE of them (at least PREFILTER_MIN x m) for the
    estimator: at 1M rows 15 instead of 73 ms of CPU, and the same share of the exact
    top-400 kept (95.0 vs 95.1 %; bench/signplane.py). ``present`` masks out empty slots.
    ``of``: the rows are a part of a table of that many (``memengine.vcells``): the Hamming pass
    keeps as many rows as it would over the whole table (the share of ``of``), or is skipped.
    """
    import numpy as np

    n = len(cols[0])
    keep: np.ndarray | None = None
    want = max(PREFILTER_MIN * m, int((n if of is None else of) * PREFILTER_SHARE))
    if n >= PREFILTER_FROM and want < n:
        ham, hist = _hamming_counts(cols, qvec, present)
        # every row within the Hamming distance that reaches the share (a counting pass, not a sort)
        cut = int(np.searchsorted(np.cumsum(hist), want))
        keep = np.flatnonzero(ham <= cut)
        cols = [c[keep] for c in cols]
        present = present[keep] if present is not None else None
    scores = estimate(cols, qvec)
    if present is not None:
        scores[~present] = -np.inf
        m = min(m, int(present.sum()))
    rows = top_rows(scores, m)
    return np.sort(keep[rows] if keep is not None else rows)
