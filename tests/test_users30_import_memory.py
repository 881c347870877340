"""users30 #3: importing a 100,000-message WhatsApp chat peaked at 1.63 GB of RSS even with the hash embedder (users27
measured 1.72 GB with the model): the episodes' topic-shift estimate (memengine/chat_episodes._maybe_shift) made float64
copies of the whole chat's vectors at once — prefix sums, both window sums — ~1.2 GB for 100k × 384. It now goes
2048 positions at a time. Here: the same answer as the whole-array estimate, chunk edges included, and a bounded
peak of what it allocates (tracemalloc sees numpy's buffers), on 20,000 vectors."""

from __future__ import annotations

import tracemalloc
from datetime import datetime, timedelta

import numpy as np
import pytest

from memengine import chat_episodes as ce


def _whole_array_estimate(vecs: np.ndarray) -> np.ndarray:
    """The estimate as it was computed over the whole thread at once (the reference)."""
    w = ce.TOPIC_WINDOW
    n = len(vecs)
    maybe = np.ones(n + 1, dtype=bool)
    c = np.zeros((n + 1, vecs.shape[1]), dtype=np.float64)
    np.cumsum(np.asarray(vecs, dtype=np.float64), axis=0, out=c[1:])
    i = np.arange(w, n - w + 1)
    left, right = c[i] - c[i - w], c[i + w] - c[i]
    nl, nr = np.linalg.norm(left, axis=1), np.linalg.norm(right, axis=1)
    ok = (nl > 1e-6) & (nr > 1e-6)
    cos = np.einsum("ij,ij->i", left, right) / np.where(ok, nl * nr, 1.0)
    maybe[i] = ~ok | (cos < ce.TOPIC_SHIFT_COSINE + ce.SHIFT_MARGIN)
    return maybe


def _topic_vectors(n: int, dims: int = 384, seed: int = 7) -> np.ndarray:
    """Runs of one topic (a shared direction plus noise), a new topic every 5-40 messages, some zero rows."""
    rng = np.random.default_rng(seed)
    out = np.empty((n, dims), dtype=np.float32)
    i = 0
    while i < n:
        run = int(rng.integers(5, 40))
        centre = rng.standard_normal(dims)
        for k in range(i, min(n, i + run)):
            v = centre + 0.8 * rng.standard_normal(dims)
            out[k] = v / np.linalg.norm(v)
        i += run
    out[rng.integers(0, n, size=n // 500)] = 0.0  # (a message with no vector content)
    return out


@pytest.mark.parametrize("n,chunk", [(7, 2048), (50, 8), (1000, 64), (1000, 997), (2055, 2048), (9000, 2048)])
def test_the_chunked_estimate_is_the_whole_array_one(n: int, chunk: int, monkeypatch: pytest.MonkeyPatch) -> None:
    vecs = _topic_vectors(n)
    monkeypatch.setattr(ce, "SHIFT_CHUNK", chunk)
    got = ce._maybe_shift(vecs)
    assert got.shape == (n + 1,) and got.dtype == bool
    assert np.array_equal(got, _whole_array_estimate(vecs))


def test_the_boundaries_are_the_ones_found_before(monkeypatch: pytest.MonkeyPatch) -> None:
    n = 3000
    vecs = _topic_vectors(n, seed=11)
    t0 = datetime(2024, 1, 1)
    times: list[datetime | None] = [t0 + timedelta(minutes=2 * k + (600 if k % 700 == 0 else 0)) for k in range(n)]
    monkeypatch.setattr(ce, "SHIFT_CHUNK", 100)
    chunked = ce.segment(times, vecs)
    monkeypatch.setattr(ce, "_maybe_shift", _whole_array_estimate)
    assert chunked == ce.segment(times, vecs) and len(chunked) > 50


def test_the_estimate_of_a_long_chat_allocates_a_bounded_amount() -> None:
    vecs = _topic_vectors(20_000)  # 30 MB of float32; the whole-array estimate made ~250 MB of float64 copies
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        ce._maybe_shift(vecs)
        _now, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 * 2**20, f"{peak / 2**20:.0f} MB"
