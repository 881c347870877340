"""Vectors as stored (int8 blobs) and read back (unit float32 rows), and the in-process matrix.

numpy is imported inside the functions: a one-shot CLI call that never touches a vector
(``stats``, ``get``, ``forget``) does not pay for loading it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

DIMS = 384
# The matrix ranks by a 1-bit-per-dimension Hamming scan first, then re-ranks this many
# rows exactly: max(COARSE_MIN, COARSE_FACTOR * k). Measured on real MiniLM vectors in
# bench/latency.py (recall@k loss vs exact kNN); below COARSE_MIN_ROWS the scan is exact.
# Factor 4 instead of 8 for recall's k=400 scan (120k real vectors, 200 queries): loss at
# k=10 0.1% either way, of the top 100 0.2 -> 0.5%, of all 400 1.1 -> 2.5% (ranks that only
# lend cosines to keyword candidates); 3.3 -> 2.4 ms per scan.
COARSE_MIN = 2000
COARSE_FACTOR = 4
COARSE_MIN_ROWS = 20_000


def vec_blob(vec: np.ndarray) -> bytes:
    """A vector as the vector tables store it: int8, scaled so its largest component is
    ±127. Cosine ignores the scale, and every reader normalises (``vectors_from_blobs``);
    a MiniLM vector keeps cosine ≥ 0.9999 to its float form at a quarter of the bytes.
    Insert with ``vec_int8(?)`` (VEC_PARAM) so sqlite-vec reads it as int8."""
    import numpy as np

    v = np.asarray(vec, dtype=np.float32).reshape(-1)
    top = float(np.abs(v).max()) if v.size else 0.0
    if not top > 0:  # all zero (or NaN): nothing to scale
        return bytes(v.size)
    return np.rint(v * (127.0 / top)).astype(np.int8).tobytes()


VEC_PARAM = "vec_int8(?)"  # the SQL parameter for a vec_blob


def as_stored(vec: np.ndarray) -> np.ndarray:
    """A query vector at the stored precision (int8, back to a unit float vector).

    sqlite-vec compares int8 with int8, so its scan sees the query this way; the matrix is
    given the same query, so both kNN paths (a one-shot call, a warm process) return the
    same cosines. Cosine of a MiniLM query to its int8 form: 0.99997.
    """
    return vectors_from_blobs([vec_blob(vec)])[0]


def vectors_from_blobs(blobs: Sequence[bytes], dims: int = DIMS) -> np.ndarray:
    """Stored vectors as an (n, dims) float32 matrix of unit rows.

    Reads int8 rows (``vec_blob``) and the float32 rows of files written before
    migration m005; an all-zero row stays zero.
    """
    import numpy as np

    if not blobs:
        return np.zeros((0, dims), dtype=np.float32)
    joined = b"".join(blobs)
    if len(joined) == len(blobs) * dims:
        mat = np.frombuffer(joined, dtype=np.int8).reshape(len(blobs), dims).astype(np.float32)
    else:
        mat = np.frombuffer(joined, dtype=np.float32).reshape(len(blobs), -1).copy()
    norms = np.linalg.norm(mat, axis=1, keepdims=True)
    np.divide(mat, norms, out=mat, where=norms > 0)
    return mat




class VectorMatrix:
    """Every vector of one vec0 table in process memory, for fast kNN at scale.

    Two copies: the float32 matrix (exact cosines) and one sign bit per dimension
    (48 bytes a vector, stored bit-plane by bit-plane so the Hamming scan runs over
    contiguous words). ``search`` ranks every row by Hamming distance, keeps the best
    ``max(COARSE_MIN, COARSE_FACTOR·k)`` and re-ranks those by exact cosine: ~2 ms
    instead of ~10-16 ms for the exact scan at 100k (it reads 4.8 MB, not 153 MB).
    Loss against exact kNN is measured in ``bench/latency.py`` on real vectors. Tables
    smaller than ``COARSE_MIN_ROWS`` are scanned exactly.

    Loaded once the process is warm (``WARM_AFTER``, ``warm_up``); afterwards only vectors
    of memories newer than the last load are read (ids only grow). Vectors rewritten in
    place (``reindex``, ``doctor --fix``) bump ``vectors_generation`` in ``_mem_meta``, which forces a full reload. Rows of
    forgotten or deleted memories may linger here; recall filters by status anyway.
    Context vectors of older turns that gained neighbours since the load stay as they
    were until the next full reload (a slightly shorter context, never a wrong one).
    """

    def __init__(self, table: str, coarse: bool = True) -> None:
        import numpy as np

        self.table = table
        self.coarse = coarse
        self.ids = np.zeros(0, dtype=np.int64)
        self.mat = np.zeros((0, DIMS), dtype=np.float32)
        self.planes: Any = np.zeros((0, 0), dtype=np.uint64)  # (dims/64, rows): sign bits, bit-plane major; None if exact
        self.max_id = -1
        self.generation: str | None = None
        self.loaded = False

    def _read(self, conn: Any, after: int) -> tuple[Any, Any]:
        import numpy as np

        rows = conn.execute(f"SELECT memory_id, embedding FROM {self.table} WHERE memory_id > ?", (after,)).fetchall()
        if not rows:
            return np.zeros(0, dtype=np.int64), np.zeros((0, self.mat.shape[1]), dtype=np.float32)
        ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        mat = vectors_from_blobs([r[1] for r in rows], self.mat.shape[1])
        order = np.argsort(ids, kind="stable")  # rows by id: `cosines` finds ids by binary search
        return ids[order], mat[order]

    @staticmethod
    def _sign_planes(mat: Any) -> Any:
        import numpy as np

        if mat.shape[1] % 64:
            return np.zeros((0, len(mat)), dtype=np.uint64)
        if len(mat) == 0:  # one plane per 64 dims even with no rows: a later sync stacks rows onto it
            return np.zeros((mat.shape[1] // 64, 0), dtype=np.uint64)
        return np.ascontiguousarray(np.packbits(mat > 0, axis=1).view(np.uint64).T)

    def sync(self, conn: Any, max_memory_id: int, generation: str | None) -> None:
        """Bring the matrix up to date with the table."""
        import numpy as np

        if not self.loaded or generation != self.generation:
            self.ids, self.mat = self._read(conn, -1)
            self.planes = self._sign_planes(self.mat) if self.coarse else None
            self.loaded, self.generation = True, generation
        elif max_memory_id > self.max_id:
            ids, mat = self._read(conn, self.max_id)
            if len(ids):
                self.ids = np.concatenate([self.ids, ids])
                self.mat = np.vstack([self.mat, mat])
                if self.coarse:
                    self.planes = np.hstack([self.planes, self._sign_planes(mat)])
        self.max_id = max(max_memory_id, int(self.ids.max()) if len(self.ids) else -1)

    def _shortlist(self, q: Any, k: int) -> Any:
        """Row numbers worth an exact cosine: all rows, or the Hamming-nearest few."""
        import numpy as np

        n = len(self.ids)
        width = max(COARSE_MIN, COARSE_FACTOR * k)
        if not self.coarse or n < COARSE_MIN_ROWS or width >= n or len(self.planes) == 0:
            return None
        qbits = np.packbits(q > 0).view(np.uint64)
        ham = np.zeros(n, dtype=np.uint16)
        for plane, word in zip(self.planes, qbits):
            ham += np.bitwise_count(plane ^ word)
        # Every row within the Hamming distance that reaches `width` rows: a counting pass
        # instead of argpartition (0.3 vs 1 ms at 100k), and rows tied at the cut all stay in.
        cut = int(np.searchsorted(np.cumsum(np.bincount(ham)), width))
        return np.flatnonzero(ham <= cut)

    def search(self, vec: Any, k: int) -> list[tuple[int, float]]:
        """(id, cosine) of the k best rows (vectors are L2-normalised: dot = cosine)."""
        import numpy as np

        n = len(self.ids)
        if n == 0:
            return []
        q = np.asarray(vec, dtype=np.float32)
        rows = self._shortlist(q, k)
        if rows is None:
            rows = np.arange(n)
            sims = self.mat @ q
        else:
            rows.sort()  # ascending row order reads the matrix front to back
            sims = self.mat[rows] @ q
        k = min(k, len(rows))
        top = np.argpartition(-sims, k - 1)[:k] if k < len(rows) else np.arange(len(rows))
        top = top[np.argsort(-sims[top], kind="stable")]
        return list(zip(self.ids[rows[top]].tolist(), sims[top].tolist()))

    def cosines(self, vec: Any, ids: Iterable[int]) -> dict[int, float]:
        """Exact cosine of ``vec`` with the rows of the given memory ids (those present)."""
        import numpy as np

        want = np.fromiter(ids, dtype=np.int64)
        if not len(want) or not len(self.ids):
            return {}
        pos = np.searchsorted(self.ids, want)
        pos[pos >= len(self.ids)] = 0
        found = self.ids[pos] == want
        pos, want = pos[found], want[found]
        sims = self.mat[pos] @ np.asarray(vec, dtype=np.float32)
        return {int(i): float(s) for i, s in zip(want, sims)}

