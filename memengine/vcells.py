"""Coarse cells over a big in-memory vector table: the sign ranking reads ~a tenth of its rows.

A warm recall ranks every row of both vector tables by their sign bits (``signrank.rank_rows``)
before the exact re-rank: at 1M rows a Hamming pass over 48 MB and an estimator over the 5 %
it keeps, ~13 ms of CPU a table and query, the largest fixed cost of a warm recall at that size.
From ``CELLS_FROM`` rows a table is cut into ``CELLS`` cells (spherical k-means over a seeded
sample, built once when the matrix is loaded) and its sign plane copied in cell order; a query
ranks only the rows of the cells whose centroids are nearest it, until ``PROBE_SHARE`` of the
rows are covered (an inverted file, as ``knn.VectorIndex`` does for consolidate), plus the rows
added since the layout was made (the "tail", ranked in full).

This is approximate: a neighbour in a cell not probed is missed. Below ``CELLS_FROM`` nothing
changes (the sign ranking reads every row, as before). What it keeps is measured, not assumed:
``bench/warm_steps.py --ab 2 --variants exact,after`` prints the top-10 of recall with and
without cells on the same store (bench/README.md, "Coarse cells"). What always holds: a query
equal to a stored row probes that row's own cell first (the row was put in the cell whose
centroid is nearest it), so an exact duplicate is never missed.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from memengine import signrank

if TYPE_CHECKING:  # (numpy is imported where used: the model-free commands import this module's users)
    import numpy as np

CELLS_FROM = 300_000  # rows from which a warm table is cut into cells (below: every row ranked, exact as before)
CELLS = 256  # cells of a table (~3.9k rows each at 1M, ~1.2k at 300k)
PROBE_SHARE = 0.15  # rows a query ranks: its nearest cells until they hold this share of the table
TRAIN_PER_CELL = 40  # sample rows per cell for k-means
TRAIN_ITERATIONS = 6
ASSIGN_BLOCK = 65_536  # rows per matrix product when putting rows in cells (a 25 MB float block)
RESORT_SHARE = 0.05  # rows added since the layout was made, past which it is made again (a sort, no training)
RESORT_MIN = 20_000


def cells_from() -> int:
    """The table size from which cells serve (``MEM_VECTOR_CELLS_FROM`` overrides CELLS_FROM; a huge
    value keeps the full ranking at every size)."""
    raw = os.environ.get("MEM_VECTOR_CELLS_FROM", "").strip()
    return int(raw) if raw.isdigit() else CELLS_FROM


def _unit_rows(q8: np.ndarray, inv: np.ndarray) -> np.ndarray:
    import numpy as np

    return q8.astype(np.float32) * inv[:, None]


def train(q8: np.ndarray, inv: np.ndarray, cells: int = CELLS) -> np.ndarray:
    """Unit centroids (``cells`` × dims, float32) of spherical k-means over a seeded sample of the rows."""
    import numpy as np

    n = len(q8)
    rng = np.random.default_rng(0)
    sample = np.sort(rng.choice(n, size=min(n, cells * TRAIN_PER_CELL), replace=False))
    x = _unit_rows(q8[sample], inv[sample])
    cent = x[rng.choice(len(x), size=min(cells, len(x)), replace=False)].copy()
    for _ in range(TRAIN_ITERATIONS):
        assign = np.argmax(x @ cent.T, axis=1)
        sums = np.zeros_like(cent)
        np.add.at(sums, assign, x)
        norms = np.linalg.norm(sums, axis=1)
        filled = norms > 0  # (an empty cell keeps its centroid)
        cent[filled] = sums[filled] / norms[filled, None]
    return cent


def assign(q8: np.ndarray, centroids: np.ndarray) -> np.ndarray:
    """The cell (int32) of each row: the centroid of largest dot product (the row's norm does not
    change which), a block of rows at a time."""
    import numpy as np

    out = np.empty(len(q8), dtype=np.int32)
    ct = np.ascontiguousarray(centroids.T)
    for a in range(0, len(q8), ASSIGN_BLOCK):
        out[a:a + ASSIGN_BLOCK] = np.argmax(q8[a:a + ASSIGN_BLOCK].astype(np.float32) @ ct, axis=1)
    return out


class Cells:
    """The cell layout of one table's first ``covered`` rows: centroids, each row's cell, the rows
    in cell order and the sign plane copied in that order (contiguous per cell)."""

    def __init__(self, centroids: np.ndarray, labels: np.ndarray, planes: np.ndarray) -> None:
        import numpy as np

        self.centroids = centroids
        self.labels = labels  # cell of rows [0, covered)
        self.covered = len(labels)
        self.order = np.argsort(labels, kind="stable")  # row numbers in cell order
        self.bounds = np.searchsorted(labels[self.order], np.arange(len(centroids) + 1))
        self.sizes = np.diff(self.bounds)
        self.planes = np.ascontiguousarray(planes[:, :self.covered][:, self.order])

    @classmethod
    def build(cls, q8: np.ndarray, inv: np.ndarray, planes: np.ndarray) -> Cells:
        """Train the centroids on the rows and lay the rows out by cell."""
        cent = train(q8, inv)
        return cls(cent, assign(q8, cent), planes)

    def extended(self, q8: np.ndarray, planes: np.ndarray) -> Cells:
        """The same centroids with every row of ``q8`` (the covered ones first) laid out anew."""
        import numpy as np

        labels = np.concatenate([self.labels, assign(q8[self.covered:], self.centroids)])
        return Cells(self.centroids, labels, planes)

    def stale(self, n: int) -> bool:
        """Whether the rows added since the layout (ranked in full at every query) call for a new one."""
        return n - self.covered > max(RESORT_MIN, RESORT_SHARE * self.covered)

    def probe(self, q: np.ndarray, share: float | None = None) -> np.ndarray:
        """The cells a query ranks: nearest centroid first, until they hold ``share`` (PROBE_SHARE) of the rows."""
        import numpy as np

        share = PROBE_SHARE if share is None else share
        near = np.argsort(-(self.centroids @ q), kind="stable")
        held = np.cumsum(self.sizes[near])
        return near[:int(np.searchsorted(held, share * self.covered)) + 1]

    def shortlist(self, q: np.ndarray, m: int, tail: Any, tail_from: int, share: float | None = None) -> np.ndarray:
        """Row numbers (ascending) of the ``m`` rows the sign ranking keeps among the probed cells' rows
        and the tail (``tail``: word columns of rows ``tail_from`` on)."""
        import numpy as np

        cells = np.sort(self.probe(q, share))  # (ascending: the cell-ordered plane is read front to back)
        spans = [(int(self.bounds[c]), int(self.bounds[c + 1])) for c in cells]
        words = len(self.planes)
        cols = [np.concatenate([self.planes[w, a:b] for a, b in spans] + [tail[w]]) for w in range(words)]
        rows = np.concatenate([self.order[a:b] for a, b in spans]
                              + [np.arange(tail_from, tail_from + len(tail[0]), dtype=np.int64)])
        if m >= len(rows):
            return np.sort(rows)
        return np.sort(rows[signrank.rank_rows(cols, q, m, of=self.covered + len(tail[0]))])
