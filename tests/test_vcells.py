"""Coarse cells of a big warm vector table (``memengine.vcells``): nothing changes below
``CELLS_FROM`` rows, and above it the approximate shortlist keeps its contract.

Below the threshold the matrix ranks every row exactly as before (the reference is the sign
ranking over all rows and the exact re-rank, written out here). Above it: a query equal to a
stored row finds that row first (its own cell is the nearest), rows added after the layout are
always searched, the layout is made again once they are many, and probing every cell keeps the
same shortlist as ranking every row (up to the estimator's ties). The thresholds are lowered
(monkeypatch) so the tests run on a few thousand random vectors; no timing is asserted.
"""

from __future__ import annotations

import numpy as np
import pytest

from memengine import signrank, vcells, vectors
from memengine.vectors import DIMS, VectorMatrix, as_stored


def _data(n: int, seed: int = 0) -> np.ndarray:
    """Clustered unit vectors (as embeddings are): 40 directions plus noise."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((40, DIMS)).astype(np.float32)
    x = centres[rng.integers(0, 40, n)] + 0.8 * rng.standard_normal((n, DIMS)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def _reference(m: VectorMatrix, q: np.ndarray, k: int) -> list[tuple[int, float]]:
    """The search as it was before cells: the sign ranking over every row, then exact cosines."""
    rows = signrank.rank_rows([m._planes[w, :m.n] for w in range(DIMS // 64)], q, signrank.width(k))
    sims = (m._q8[rows].astype(np.float32) @ q) * m._inv[rows]
    top = np.lexsort((m._ids[rows], -sims))[:k]
    return list(zip(m._ids[rows[top]].tolist(), sims[top].tolist()))


@pytest.fixture
def small_cells(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cells from 6,000 rows (16 of them), the sign ranking's narrowing from 1,000 (as at scale)."""
    monkeypatch.setattr(vcells, "CELLS_FROM", 6_000)
    monkeypatch.setattr(vcells, "CELLS", 16)
    monkeypatch.setattr(vcells, "RESORT_MIN", 500)
    monkeypatch.setattr(vectors, "COARSE_MIN_ROWS", 1_000)
    monkeypatch.setattr(signrank, "PREFILTER_FROM", 1_000)


def test_below_the_threshold_every_row_is_ranked_as_before(small_cells: None) -> None:
    x = _data(5_999)
    m = VectorMatrix.of("vec_memories", np.arange(1, 6_000), x)
    assert m._layout() is None and m._cells is None
    for i in range(0, 5_999, 397):
        q = as_stored(x[i])
        for k in (1, 10, 400):
            assert m.search(q, k) == _reference(m, q, k)


def test_a_stored_row_is_found_first_through_its_cell(small_cells: None) -> None:
    x = _data(9_000, seed=1)
    m = VectorMatrix.of("vec_memories", np.arange(1, 9_001), x)
    cells = m._cells
    assert cells is not None and cells.covered == 9_000 and int(cells.sizes.sum()) == 9_000
    assert sorted(cells.order.tolist()) == list(range(9_000))  # every row in exactly one cell
    for i in range(0, 9_000, 131):
        q = as_stored(x[i])
        assert int(cells.labels[i]) == int(cells.probe(q)[0])  # its own cell is probed first
        hits = m.search(q, 10)
        assert hits[0][0] == i + 1
        assert hits[0][1] == pytest.approx(1.0, abs=1e-3)
        # the approximate path only ever returns rows of the probed cells
        probed = set(np.flatnonzero(np.isin(cells.labels, cells.probe(q))).tolist())
        assert {mid - 1 for mid, _ in hits} <= probed


def test_probing_every_cell_keeps_the_full_ranking(small_cells: None) -> None:
    x = _data(8_000, seed=2)
    m = VectorMatrix.of("vec_memories", np.arange(1, 8_001), x)
    assert m._cells is not None
    planes = [m._planes[w, :m.n] for w in range(DIMS // 64)]
    empty = [p[:0] for p in planes]
    for i in range(0, 8_000, 499):
        q = as_stored(x[(i * 7) % 8_000] + x[i])
        width = signrank.width(10)
        full = signrank.rank_rows(planes, q, width)
        probed = m._cells.shortlist(q, width, empty, m.n, share=1.0)
        # the same rows up to the estimator's ties at the cut (integer counts: equal scores)
        est = signrank.estimate(planes, q)
        assert sorted(est[full].tolist()) == sorted(est[probed].tolist())


def test_rows_added_later_are_searched_then_laid_out(small_cells: None) -> None:
    x = _data(9_000, seed=3)
    m = VectorMatrix.of("vec_memories", np.arange(1, 7_001), x[:7_000])
    assert m._cells is not None and m._cells.covered == 7_000
    m.append_int8(np.arange(7_001, 7_301), np.frombuffer(
        b"".join(vectors.vec_blob(v) for v in x[7_000:7_300]), dtype=np.int8).reshape(300, DIMS))
    for i in (7_000, 7_150, 7_299):  # the tail: not in any cell yet, found anyway
        assert m.search(as_stored(x[i]), 5)[0][0] == i + 1
    assert m._cells.covered == 7_000  # 300 new rows: below RESORT_MIN, no new layout yet
    m.append_int8(np.arange(7_301, 9_001), np.frombuffer(
        b"".join(vectors.vec_blob(v) for v in x[7_300:]), dtype=np.int8).reshape(1_700, DIMS))
    assert m.search(as_stored(x[8_999]), 5)[0][0] == 9_000
    assert m._cells.covered == 9_000  # laid out again with the same centroids
    for i in range(0, 9_000, 601):
        assert m.search(as_stored(x[i]), 5)[0][0] == i + 1


def test_cells_are_the_same_from_load_to_load(small_cells: None) -> None:
    x = _data(7_000, seed=4)
    a = VectorMatrix.of("vec_memories", np.arange(1, 7_001), x)
    b = VectorMatrix.of("vec_memories", np.arange(1, 7_001), x)
    assert a._cells is not None and b._cells is not None
    assert np.array_equal(a._cells.centroids, b._cells.centroids)
    assert np.array_equal(a._cells.labels, b._cells.labels)
    assert a.nbytes > VectorMatrix.of("vec_memories", np.arange(1, 5_001), x[:5_000]).nbytes


def test_the_environment_moves_the_threshold(small_cells: None, monkeypatch: pytest.MonkeyPatch) -> None:
    x = _data(7_000, seed=5)
    monkeypatch.setenv("MEM_VECTOR_CELLS_FROM", "1000000000")
    m = VectorMatrix.of("vec_memories", np.arange(1, 7_001), x)
    assert m._cells is None  # the full ranking, as below the default threshold
    q = as_stored(x[10])
    assert m.search(q, 10) == _reference(m, q, 10)
    monkeypatch.setenv("MEM_VECTOR_CELLS_FROM", "bad")  # ignored: the default (6,000 here) holds
    assert VectorMatrix.of("vec_memories", np.arange(1, 7_001), x)._cells is not None
