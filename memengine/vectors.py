"""Vectors as stored (int8 blobs) and read back (unit float32 rows), and the in-process matrix.

numpy is imported inside the functions: a one-shot CLI call that never touches a vector
(``stats``, ``get``, ``forget``) does not pay for loading it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from memengine import signrank, vcells

if TYPE_CHECKING:
    import numpy as np

DIMS = 384
# Tables with fewer rows than this are scanned exactly by the in-process matrix (a float32
# copy: ~1 ms at 20k); from here on the sign-plane shortlist + int8 re-rank serves
# (memengine.signplane, the same ranking and width a one-shot process uses).
COARSE_MIN_ROWS = 20_000
# New rows up to which a sync reads them one id at a time (each ~0.1 ms; above, one scan of the table: ~28 ms at
# 100k rows, ~0.3 s at 1M)
FEW_ROWS = 128


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




def scan_vectors(conn: Any, wanted: Collection[int], table: str = "vec_memories") -> tuple[list[int], np.ndarray]:
    """The stored vectors of ``wanted`` in one scan of ``table`` (its order): ``(ids, unit rows)``.

    For many ids at once: a vec0 lookup by id costs ~0.2 ms at 100k rows, the whole scan ~1 s.
    """
    ids: list[int] = []
    blobs: list[bytes] = []
    for mid, blob in conn.execute(f"SELECT memory_id, embedding FROM {table}"):
        if mid in wanted:
            ids.append(int(mid))
            blobs.append(blob)
    return ids, vectors_from_blobs(blobs)


def _grown(arr: Any, need: int, axis: int = 0) -> Any:
    """``arr`` with room for at least ``need`` entries along ``axis`` (capacity doubles: appends stay cheap)."""
    import numpy as np

    have = arr.shape[axis]
    if need <= have:
        return arr
    shape = list(arr.shape)
    shape[axis] = max(need, 2 * have, 1024)
    out = np.zeros(shape, dtype=arr.dtype)
    if axis == 0:
        out[:have] = arr
    else:
        out[:, :have] = arr
    return out


class VectorMatrix:
    """Every vector of one vec0 table in process memory, for fast kNN in a warm process.

    Held as stored: int8 rows (384 bytes a vector) with their inverse norms, and the sign
    plane (48 bytes a vector, word-major so each pass of the estimator reads contiguous
    words): 0.43 GB a table at 1M vectors, where float32 rows took 1.5 GB. ``search``
    ranks every row with ``signplane.rank_rows`` (the one-shot path's ranking, same width)
    and re-ranks the shortlist by exact cosine from the int8 rows. Tables smaller than
    ``COARSE_MIN_ROWS`` (or ``coarse=False``) keep a float32 copy and are scanned exactly.
    From ``vcells.cells_from()`` rows (300k) the sign ranking reads only the rows of the cells nearest
    the query (``memengine.vcells``: approximate above that size, measured in bench/README.md).

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
        self.n = 0  # rows in use (the arrays below have room for more)
        self._ids = np.zeros(0, dtype=np.int64)
        self._q8 = np.zeros((0, DIMS), dtype=np.int8)
        self._inv = np.zeros(0, dtype=np.float32)  # 1 / norm of each int8 row (0 for a zero row)
        self._planes = np.zeros((DIMS // 64, 0), dtype=np.uint64)  # sign bits, word-major
        self._exact: Any = None  # unit float32 rows, for a table scanned exactly
        self._cells: vcells.Cells | None = None  # from vcells.CELLS_FROM rows: the sign ranking reads the nearest cells
        self.max_id = -1
        self.generation: str | None = None
        self.loaded = False

    @classmethod
    def of(cls, table: str, ids: Any, mat: Any, coarse: bool = True) -> VectorMatrix:
        """A matrix of the given ids and float vectors, stored as the tables store them (benchmarks, tests)."""
        import numpy as np

        m = cls(table, coarse)
        m._append(np.asarray(ids, dtype=np.int64), [vec_blob(v) for v in mat])
        m.loaded = True
        m._layout()
        return m

    @property
    def ids(self) -> Any:
        """Memory ids of the rows, ascending."""
        return self._ids[:self.n]

    @property
    def nbytes(self) -> int:
        """Process memory held for the vectors (rows in use; capacity can add up to as much again)."""
        n = self.n
        extra = self._exact[:n].nbytes if self._exact is not None else 0
        if self._cells is not None:  # (the sign plane again in cell order, the order and the labels)
            extra += self._cells.planes.nbytes + self._cells.order.nbytes + self._cells.labels.nbytes
        return int(self._q8[:n].nbytes + self._inv[:n].nbytes + self._planes[:, :n].nbytes + self._ids[:n].nbytes
                   + extra)

    def unit_rows(self) -> Any:
        """The rows as unit float32 vectors (a copy: benchmarks compare paths on them)."""
        import numpy as np

        return self._q8[:self.n].astype(np.float32) * self._inv[:self.n, None]

    def _append(self, ids: Any, blobs: Sequence[bytes]) -> None:
        """Add stored rows (ids ascending, all above the current ones)."""
        import numpy as np

        k = len(ids)
        if not k:
            return
        if all(len(b) == DIMS for b in blobs):
            q8 = np.frombuffer(b"".join(blobs), dtype=np.int8).reshape(k, DIMS)
        else:  # float32 rows of a file from before m005: quantised as the tables store them now
            q8 = np.frombuffer(b"".join(vec_blob(v) for v in vectors_from_blobs(blobs)), dtype=np.int8).reshape(k, DIMS)
        self.append_int8(ids, q8)

    def append_int8(self, ids: Any, q8: Any) -> None:
        """Add int8 rows as ``vec_blob`` stores them (ids ascending, all above the current ones)."""
        import numpy as np

        k = len(ids)
        if not k:
            return
        lo, hi = self.n, self.n + k
        self._ids = _grown(self._ids, hi)
        self._q8 = _grown(self._q8, hi)
        self._inv = _grown(self._inv, hi)
        self._planes = _grown(self._planes, hi, axis=1)
        self._ids[lo:hi], self._q8[lo:hi] = ids, q8
        for a in range(0, k, 65_536):  # in slices: a 1M-row load never holds a float copy of it all
            b = min(k, a + 65_536)
            part = q8[a:b].astype(np.float32)
            norms = np.sqrt(np.einsum("ij,ij->i", part, part))
            self._inv[lo + a:lo + b] = np.divide(1.0, norms, out=np.zeros_like(norms), where=norms > 0)
            self._planes[:, lo + a:lo + b] = np.packbits(q8[a:b] > 0, axis=1).view(np.uint64).T
        self.n = hi
        if self.coarse and hi >= COARSE_MIN_ROWS:
            self._exact = None  # the shortlist serves from here on: the int8 rows are enough
        else:  # scanned exactly: keep unit float32 rows too (at most COARSE_MIN_ROWS of them)
            base = self._exact if self._exact is not None else np.zeros((0, DIMS), dtype=np.float32)
            if lo and self._exact is None:  # (coarse switched off after a load: rebuild the copy)
                base, lo = np.zeros((0, DIMS), dtype=np.float32), 0
            self._exact = _grown(base, hi)
            self._exact[lo:hi] = self._q8[lo:hi].astype(np.float32) * self._inv[lo:hi, None]

    def _read(self, conn: Any, after: int) -> tuple[Any, list[bytes]]:
        import numpy as np

        rows = self._read_few(conn, after) if after >= 0 else None
        if rows is None:
            rows = conn.execute(f"SELECT memory_id, embedding FROM {self.table} WHERE memory_id > ?",
                                (after,)).fetchall()
        rows.sort(key=lambda r: r[0])  # rows by id: `cosines` finds ids by binary search
        return np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows)), [r[1] for r in rows]

    def _read_few(self, conn: Any, after: int) -> list[Any] | None:
        """The rows above ``after`` one id at a time, when they are few (a warm process after a store): vec0
        answers ``memory_id > ?`` by reading every vector of the table (~28 ms of CPU at 100k rows, twice a
        store: both tables) and ``memory_id = ?`` through its ``_rowids`` index (~0.1 ms). The same rows and
        bytes. None (the caller scans) when there are many, or the table is not laid out as sqlite-vec 0.1 does.
        """
        try:
            ids = [int(r[0]) for r in conn.execute(
                f"SELECT rowid FROM {self.table}_rowids WHERE rowid > ? ORDER BY rowid LIMIT ?",
                (after, FEW_ROWS + 1)).fetchall()]
        except Exception:  # (no such table: another layout of the extension) the scan serves
            return None
        if len(ids) > FEW_ROWS:
            return None
        return [r for mid in ids for r in conn.execute(
            f"SELECT memory_id, embedding FROM {self.table} WHERE memory_id = ?", (mid,)).fetchall()]

    def sync(self, conn: Any, max_memory_id: int, generation: str | None) -> None:
        """Bring the matrix up to date with the table."""
        if not self.loaded or generation != self.generation:
            fresh = VectorMatrix(self.table, self.coarse)
            fresh._append(*self._read(conn, -1))
            self.__dict__.update(fresh.__dict__)
            self.loaded, self.generation = True, generation
            self._layout()  # (a big table's cells: built while loading, not in the first recall)
        elif max_memory_id > self.max_id:
            self._append(*self._read(conn, self.max_id))
        self.max_id = max(max_memory_id, int(self._ids[self.n - 1]) if self.n else -1)

    def _layout(self) -> vcells.Cells | None:
        """The table's cells (``memengine.vcells``) when it has ``CELLS_FROM`` rows or more: built on the
        first call, laid out again once the rows added since are many; None below (every row ranked)."""
        if self._exact is not None or self.n < vcells.cells_from():
            return None
        if self._cells is None:
            self._cells = vcells.Cells.build(self._q8[:self.n], self._inv[:self.n], self._planes[:, :self.n])
        elif self._cells.stale(self.n):
            self._cells = self._cells.extended(self._q8[:self.n], self._planes[:, :self.n])
        return self._cells

    def _shortlist(self, q: Any, k: int) -> Any:
        """Row numbers worth an exact cosine: None (all rows) for an exact table, else the
        sign plane's nearest ``signplane.width(k)`` (among the nearest cells' rows for a big table)."""
        if self._exact is not None or signrank.width(k) >= self.n:  # (an exact table, or all rows anyway)
            return None
        cells = self._layout()
        if cells is not None:
            tail = [self._planes[w, cells.covered:self.n] for w in range(DIMS // 64)]
            return cells.shortlist(q, signrank.width(k), tail, cells.covered)
        return signrank.rank_rows([self._planes[w, :self.n] for w in range(DIMS // 64)], q, signrank.width(k))

    def _sims(self, rows: Any, q: Any) -> Any:
        """Exact cosines of ``q`` with the given row numbers."""
        import numpy as np

        if self._exact is not None:
            return self._exact[rows] @ q
        return (self._q8[rows].astype(np.float32) @ q) * self._inv[rows]

    def search(self, vec: Any, k: int) -> list[tuple[int, float]]:
        """(id, cosine) of the k best rows, best first (ties by id)."""
        import numpy as np

        n = self.n
        if n == 0:
            return []
        q = np.asarray(vec, dtype=np.float32)
        rows = self._shortlist(q, k)
        if rows is None:
            rows = np.arange(n)
            sims = self._exact[:n] @ q if self._exact is not None else self._sims(rows, q)
        else:
            sims = self._sims(rows, q)
        k = min(k, len(rows))
        top = np.argpartition(-sims, k - 1)[:k] if k < len(rows) else np.arange(len(rows))
        top = top[np.lexsort((self._ids[rows[top]], -sims[top]))]
        return list(zip(self._ids[rows[top]].tolist(), sims[top].tolist()))

    def cosines(self, vec: Any, ids: Iterable[int]) -> dict[int, float]:
        """Exact cosine of ``vec`` with the rows of the given memory ids (those present)."""
        import numpy as np

        want = np.fromiter(ids, dtype=np.int64)
        if not len(want) or not self.n:
            return {}
        pos = np.searchsorted(self.ids, want)
        pos[pos >= self.n] = 0
        found = self._ids[pos] == want
        pos, want = pos[found], want[found]
        sims = self._sims(pos, np.asarray(vec, dtype=np.float32))
        return {int(i): float(s) for i, s in zip(want, sims)}
