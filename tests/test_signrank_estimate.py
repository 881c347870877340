"""The sign estimator with its words stacked (a dozen numpy calls instead of ~80, issue 21; up to
STACK_MAX rows, the per-word loop past it) scores every row exactly as the per-word loop did: the reference below is ``signrank.estimate`` as it was, verbatim,
including its uint8 sums that wrap when a row has more than 255 bits set."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from memengine import signrank


def _estimate_before(cols: Sequence[np.ndarray], qvec: np.ndarray) -> np.ndarray:
    q = np.asarray(qvec, dtype=np.float32)
    lo, hi = float(q.min()), float(q.max())
    n = len(cols[0])
    total = np.zeros(n, dtype=np.uint8)
    count = np.empty(n, dtype=np.uint8)
    for w in range(len(cols)):
        np.bitwise_count(cols[w], out=count)
        total += count
    if not hi > lo:
        return total.astype(np.float32) * np.float32(lo)
    step = (hi - lo) / (2 ** signrank.QUERY_BITS - 1)
    levels = np.rint((q - lo) / step).astype(np.uint8)
    acc = np.zeros(n, dtype=np.uint16)
    word = np.empty(n, dtype=np.uint64)
    part = np.empty(n, dtype=np.uint8)
    for j in range(signrank.QUERY_BITS):
        plane = np.packbits((levels >> j) & 1).view(np.uint64)
        part[:] = 0
        for w in range(len(cols)):
            np.bitwise_and(cols[w], plane[w], out=word)
            np.bitwise_count(word, out=count)
            part += count
        acc += part.astype(np.uint16) << j
    return acc.astype(np.float32) + np.float32(lo / step) * total


@pytest.mark.parametrize("n", [0, 1, 9, 5000, signrank.STACK_MAX, signrank.STACK_MAX + 1, 20_000])
def test_stacked_estimate_equals_the_per_word_loop(n: int) -> None:
    rng = np.random.default_rng(n + 5)
    planes = rng.integers(0, 2**64, size=(6, 2 * n + 3), dtype=np.uint64)
    planes[:, :3] = np.uint64(2**64 - 1)  # rows with all 384 bits set: their uint8 sums wrap
    for cols in ([planes[w, :n] for w in range(6)], [planes[w, 1:2 * n + 1:2] for w in range(6)]):  # views, strided
        for q in (rng.standard_normal(384), np.ones(384), -np.abs(rng.standard_normal(384)), np.zeros(384)):
            q = q.astype(np.float32)
            got, want = signrank.estimate(cols, q), _estimate_before(cols, q)
            assert got.dtype == want.dtype == np.float32
            assert np.array_equal(got, want)
