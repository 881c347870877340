"""k-nearest neighbours by cosine over an in-memory matrix, blocked and spread over the cores.

consolidate needs the neighbours of every new memory (links, contradictions) and of
cluster means (merges). ``VectorIndex`` answers them all at once without an all-pairs
matrix: exact blocked products up to ``EXACT_MAX`` vectors, an inverted file above.
The blocks are independent, so they run in a thread pool: numpy's matrix product,
threshold and sort release the GIL, and every block writes its own output rows, so the
result is identical to the serial loop whatever the number of workers (tests/test_links.py).
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor

import numpy as np

# Exact blocked dot products up to EXACT_MAX vectors, an IVF above
EXACT_MAX = 4096
QUERY_BLOCK = 256  # query rows per matrix product: small blocks stay in cache (this is memory-bound)
IVF_PROBE = 6  # neighbouring cells searched per query cell: recall of top-5 links ≈ 0.95 on clustered data
IVF_SAMPLE_PER_CELL = 32
IVF_ITERATIONS = 6
SORT_MAX_PER_ROW = 32  # above this many survivors per query row, a partition cuts them to the top k+1 first
PARALLEL_MIN_WORK = 2_000_000  # query × candidate products below which one thread is faster than a pool


def workers() -> int:
    """Workers for the search and the pools: ``MEM_WORKERS`` if set (1 = serial), else the cores this
    process may use that other jobs leave idle (1-minute load average, this run counted as one)."""
    env = os.environ.get("MEM_WORKERS", "").strip()
    if env.isdigit() and int(env) > 0:
        return int(env)
    try:
        cores = max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # macOS has no affinity call
        cores = max(1, os.cpu_count() or 1)
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        load = 0.0
    # on a machine other jobs keep busy, more workers only add contention (measured: 10k first run
    # 8.1 s with one, 10.4 s with two, at load 4.8 on 2 cores); the results are the same either way.
    # Rounded, not truncated: the 1-minute average lags, so a quiet machine just after other work
    # reads ~1.3 on 2 cores, and truncating gave one worker (100k first run 66.7 s vs 55.4 with two).
    return max(1, min(cores, round(cores - load + 1)))


def normalise(x: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (zero rows stay zero)."""
    n = np.linalg.norm(x, axis=-1, keepdims=True)
    return np.divide(x, n, out=np.zeros_like(x), where=n > 0)


class VectorIndex:
    """k-nearest neighbours by cosine over an in-memory matrix, without an all-pairs matrix.

    Up to ``EXACT_MAX`` vectors the search is exact (blocked matrix products). Above,
    an inverted-file index: spherical k-means cells (√n of them, seeded, so runs are
    deterministic), and each query scans the ``IVF_PROBE`` cells nearest its own.
    The engine's ``_nearest`` answers one query in ~12 ms at 100k rows, i.e. 20 min
    for a first run over 100k memories; this answers them all in seconds.
    """

    def __init__(self, ids: np.ndarray, vecs: np.ndarray, n_workers: int | None = None,
                 centroids: np.ndarray | None = None) -> None:
        self.ids = ids
        self.vecs = vecs
        self.pos = {int(m): i for i, m in enumerate(ids)}
        self.n_workers = n_workers
        self._cells: np.ndarray | None = None
        # given centroids (an earlier run's, see links.stable_index) keep every vector's cell, and
        # so every approximate list, the same from run to run: only real changes make new edges
        self._centroids: np.ndarray | None = centroids
        self._probe: np.ndarray | None = None
        self._members: list[np.ndarray] | None = None

    def __len__(self) -> int:
        return len(self.ids)

    def cells(self) -> np.ndarray:
        """Cell number of every vector (built on first use)."""
        if self._cells is None:
            n = len(self.ids)
            if self._centroids is None:
                self._centroids = self.train()
            cent = self._centroids
            self._cells = np.concatenate([np.argmax(b @ cent.T, axis=1) for b in self._blocks(self.vecs)]) \
                if n else np.zeros(0, dtype=np.int64)
        return self._cells

    def train(self) -> np.ndarray:
        """Spherical k-means centroids (√n cells) from a seeded sample of the vectors."""
        n = len(self.ids)
        ncell = max(1, min(1024, int(math.sqrt(n))))
        rng = np.random.default_rng(0)
        sample = self.vecs[rng.choice(n, size=min(n, ncell * IVF_SAMPLE_PER_CELL), replace=False)]
        cent = sample[rng.choice(len(sample), size=ncell, replace=False)].copy()
        for _ in range(IVF_ITERATIONS):
            assign = np.argmax(sample @ cent.T, axis=1)
            sums = np.zeros_like(cent)
            np.add.at(sums, assign, sample)
            filled = np.linalg.norm(sums, axis=1) > 0
            cent[filled] = normalise(sums[filled])
        return cent

    def _ivf(self) -> tuple[np.ndarray, list[np.ndarray], np.ndarray]:
        """(cell of every vector, members of every cell, the IVF_PROBE cells each cell's queries scan)."""
        cells = self.cells()
        if self._members is None or self._probe is None:
            assert self._centroids is not None
            order = np.argsort(cells, kind="stable")
            bounds = np.searchsorted(cells[order], np.arange(len(self._centroids) + 1))
            self._members = [order[bounds[c] : bounds[c + 1]] for c in range(len(self._centroids))]
            self._probe = np.argsort(-(self._centroids @ self._centroids.T), axis=1, kind="stable")[:, :IVF_PROBE]
        return cells, self._members, self._probe

    @staticmethod
    def _blocks(x: np.ndarray) -> Iterable[np.ndarray]:
        for i in range(0, len(x), 8192):
            yield x[i : i + 8192]

    def candidates_of(self, query_pos: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
        """(query row numbers, candidate positions) groups: every query row is in exactly one group."""
        m = len(query_pos)
        if len(self) <= EXACT_MAX:
            every = np.arange(len(self))
            # QUERY_BLOCK-aligned slices: each matrix product is the very one the serial loop does
            step = QUERY_BLOCK * 4
            return [(np.arange(b, min(m, b + step)), every) for b in range(0, m, step)]
        cells, members, probe = self._ivf()
        by_cell: dict[int, list[int]] = {}
        for qi, p in enumerate(query_pos):
            by_cell.setdefault(int(cells[p]), []).append(qi)
        return [(np.asarray(q), np.sort(np.concatenate([members[int(c)] for c in probe[cell]])))
                for cell, q in sorted(by_cell.items())]

    def knn(self, query_pos: np.ndarray, k: int, allowed: np.ndarray | None = None,
            min_sim: float = -1.0) -> tuple[np.ndarray, np.ndarray]:
        """Top-``k`` neighbours (positions, cosines ≥ ``min_sim``) of the vectors at ``query_pos``, self excluded.

        ``allowed`` is a boolean mask of positions that may be returned. Missing
        neighbours are -1 with similarity -inf. Ties break by position (deterministic).
        """
        m = len(query_pos)
        out_i = np.full((m, k), -1, dtype=np.int64)
        out_s = np.full((m, k), -np.inf, dtype=np.float32)
        if m == 0 or len(self) < 2 or k < 1:
            return out_i, out_s
        groups = self.candidates_of(query_pos)

        def search(group: tuple[np.ndarray, np.ndarray]) -> None:
            qrows, cand = group
            if allowed is not None:
                cand = cand[allowed[cand]]
            if len(cand):
                self._search(query_pos, qrows, cand, k, min_sim, out_i, out_s)

        n = self.n_workers or workers()
        work = sum(len(q) * len(c) for q, c in groups)
        if n > 1 and len(groups) > 1 and work >= PARALLEL_MIN_WORK:
            with ThreadPoolExecutor(max_workers=n) as pool:
                list(pool.map(search, groups))  # list(): re-raises a worker's exception here
        else:
            for g in groups:
                search(g)
        return out_i, out_s

    def _search(self, query_pos: np.ndarray, qrows: np.ndarray, cand: np.ndarray, k: int, min_sim: float,
                out_i: np.ndarray, out_s: np.ndarray) -> None:
        """One group: the top-k of its query rows among ``cand``, written to those rows of the outputs."""
        ct = np.ascontiguousarray(self.vecs[cand].T)
        for b in range(0, len(qrows), QUERY_BLOCK):
            rows = qrows[b : b + QUERY_BLOCK]
            qp = query_pos[rows]
            sims = self.vecs[qp] @ ct
            # a threshold first: sorting only the few survivors is far cheaper than a partition of every row
            keep_mask = sims >= min_sim
            if sims.shape[1] > k + 1 and np.count_nonzero(keep_mask) > SORT_MAX_PER_ROW * len(rows):
                # many pass (chat turns are often ≥ 0.5 alike): keep only those at least as close as the
                # row's (k+1)-th largest value. Self takes at most one of those k+1, so every one of the
                # k best others — and all their ties — survive, and the sort below picks the same ones.
                kth = np.partition(sims, sims.shape[1] - k - 1, axis=1)[:, sims.shape[1] - k - 1]
                keep_mask &= sims >= kth[:, None]
            r, c = np.nonzero(keep_mask)
            v = sims[r, c]
            keep = cand[c] != qp[r]
            r, c, v = r[keep], c[keep], v[keep]
            order = np.lexsort((c, -v, r))
            r, c, v = r[order], c[order], v[order]
            rank = np.arange(len(r)) - np.searchsorted(r, np.arange(len(rows)))[r]
            sel = rank < k
            out_i[rows[r[sel]], rank[sel]] = cand[c[sel]]
            out_s[rows[r[sel]], rank[sel]] = v[sel]

    def pairs(self, query_pos: np.ndarray, k: int, allowed: np.ndarray, min_sim: float) -> tuple[
            np.ndarray, np.ndarray, np.ndarray]:
        """(smaller ids, larger ids, cosines) of each query's neighbours found by :meth:`knn`,
        in query order then rank order (a pair found twice appears twice)."""
        if not len(query_pos):
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty, np.zeros(0, dtype=np.float32)
        nb, sims = self.knn(query_pos, k, allowed=allowed, min_sim=min_sim)
        ok = (nb >= 0) & (sims >= min_sim)
        rows, ranks = np.nonzero(ok)  # row-major: query order, then rank
        a = self.ids[query_pos[rows]]
        b = self.ids[nb[rows, ranks]]
        return np.minimum(a, b), np.maximum(a, b), sims[rows, ranks]

    def id_pairs(self, query_pos: np.ndarray, k: int, allowed: np.ndarray, min_sim: float) -> Iterable[
            tuple[tuple[int, int], float]]:
        """((smaller id, larger id), cosine) for each query vector's neighbours found by :meth:`knn`."""
        lo, hi, s = self.pairs(query_pos, k, allowed, min_sim)
        for a, b, v in zip(lo.tolist(), hi.tolist(), s.tolist()):
            yield (a, b), v
