"""The stored sign plane: one bit per dimension of every stored vector, for a sublinear kNN.

A one-shot process (a CLI ``recall``) cannot afford to load the vector matrices a warm
process keeps (``vectors.VectorMatrix``), and sqlite-vec's kNN is a brute-force scan of
every int8 vector (~0.14 s per table at 100k, linear in N). The sign plane is a second,
8x smaller copy of each vector table: the sign of each of the 384 dimensions, 48 bytes a
vector, stored in blocks of ``SLOTS`` consecutive memory ids (``sign_memories``,
``sign_contexts``; one row per block: ``present`` holds a byte per slot, ``bits`` the
slots' 48-byte sign vectors side by side). A kNN reads every block in one statement
(4.8 MB at 100k), ranks the rows by their signs (``memengine.signrank``: the query's
components weighted over sign agreements, popcounts over uint64 words), keeps the
``signrank.width(k)`` best and re-ranks those by exact cosine from the stored int8
vectors, read by id. A warm process ranks the same bits in memory the same way.

Why blocks and not a ``bit[384]`` vec0 table: an earlier ``vec_memories_bit`` (dropped in
acf6bda) scanned with vec0's own kNN, slower than the int8 scan at the k recall asks for
(400 per table). Reading ~400 blob rows costs a few milliseconds.

Exactness: every writer of a vector table calls :func:`put` / :func:`drop` / :func:`clear`
in the same transaction (``storebase._write_vector``, ``context.refresh_context``,
``maintenance``, ``sharing``, ``recovery``); migration ``m009_signplane`` fills it for
stores made before; ``doctor`` compares it with the vectors (:func:`check`) and ``doctor
--fix`` rebuilds it (:func:`rebuild`). A stale or missing sign can only cost recall (a row
missing from the shortlist, or ranked by old signs), never a wrong cosine: cosines always
come from the stored vectors.

Only stores with at least ``min_rows()`` memories use it (below, the exact scan is as fast
and recall is identical by construction).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from memengine.db import read_snapshot, select_in, sqlite3
from memengine.signrank import rank_rows, width
from memengine.vectors import DIMS, vectors_from_blobs

if TYPE_CHECKING:
    import numpy as np

BLOCK_SHIFT = 8
SLOTS = 1 << BLOCK_SHIFT  # memory ids per block row: 256 x 48 bytes = a 12 KB blob
BYTES = DIMS // 8  # sign bytes per vector
WORDS = BYTES // 8  # uint64 words per vector
SIGN_TABLES = {"vec_memories": "sign_memories", "vec_contexts": "sign_contexts"}
# The shortlist is used from this many memories (the highest id) on; below it the exact
# scan serves (bench/signplane.py measures where the shortlist becomes faster).
MIN_ROWS = 20_000
# The tables as migration m009_signplane made them: doctor --fix recreates a dropped one.
DDL = "CREATE TABLE IF NOT EXISTS {} (block INTEGER PRIMARY KEY, present BLOB NOT NULL, bits BLOB NOT NULL)"


def min_rows() -> int:
    """The store size from which kNN goes through the sign plane (``MEM_SIGNPLANE_MIN_ROWS`` overrides)."""
    raw = os.environ.get("MEM_SIGNPLANE_MIN_ROWS", "").strip()
    return int(raw) if raw.isdigit() else MIN_ROWS


def sign_bytes(blobs: Sequence[bytes]) -> np.ndarray:
    """(n, BYTES) uint8: the packed sign bits (1 = positive component) of stored vector blobs."""
    import numpy as np

    if blobs and all(len(b) == DIMS for b in blobs):  # int8 rows: a component's sign is its byte's (no decoding)
        return np.packbits(np.frombuffer(b"".join(blobs), dtype=np.int8).reshape(len(blobs), DIMS) > 0, axis=1)
    return np.packbits(vectors_from_blobs(blobs) > 0, axis=1)


def _block_rows(conn: Any, table: str, blocks: Iterable[int]) -> dict[int, tuple[bytearray, bytearray]]:
    """The (present, bits) of the given blocks, as mutable buffers (zeros where none is stored)."""
    st = SIGN_TABLES[table]
    out = {b: (bytearray(SLOTS), bytearray(SLOTS * BYTES)) for b in blocks}
    for row in select_in(conn, f"SELECT block, present, bits FROM {st} WHERE block IN ({{ids}})", list(out)):
        out[int(row[0])] = (bytearray(row[1]), bytearray(row[2]))
    return out


def _write_blocks(conn: Any, table: str, rows: dict[int, tuple[bytearray, bytearray]]) -> None:
    st = SIGN_TABLES[table]
    keep = [(b, bytes(p), bytes(s)) for b, (p, s) in rows.items() if any(p)]
    gone = [(b,) for b, (p, _) in rows.items() if not any(p)]
    conn.executemany(f"INSERT OR REPLACE INTO {st}(block, present, bits) VALUES (?, ?, ?)", keep)
    conn.executemany(f"DELETE FROM {st} WHERE block = ?", gone)


def put(conn: Any, table: str, items: Sequence[tuple[int, bytes]]) -> None:
    """Record the signs of ``(memory id, stored vector blob)`` pairs written to ``table``.

    Call inside the transaction that wrote the vectors. Blocks are read and rewritten once
    per call, so a batch of consecutive ids costs about one block write.
    """
    if not items:
        return
    signs = sign_bytes([blob for _, blob in items])
    rows = _block_rows(conn, table, {mid >> BLOCK_SHIFT for mid, _ in items})
    for (mid, _), bits in zip(items, signs):
        present, plane = rows[mid >> BLOCK_SHIFT]
        slot = mid & (SLOTS - 1)
        present[slot] = 1
        plane[slot * BYTES:(slot + 1) * BYTES] = bits.tobytes()
    _write_blocks(conn, table, rows)


def drop(conn: Any, table: str, ids: Iterable[int]) -> None:
    """Forget the signs of vectors deleted from ``table`` (same transaction)."""
    ids = list(ids)
    if not ids:
        return
    rows = _block_rows(conn, table, {mid >> BLOCK_SHIFT for mid in ids})
    for mid in ids:
        present, plane = rows[mid >> BLOCK_SHIFT]
        slot = mid & (SLOTS - 1)
        present[slot] = 0
        plane[slot * BYTES:(slot + 1) * BYTES] = bytes(BYTES)
    _write_blocks(conn, table, rows)


def clear(conn: Any, table: str) -> None:
    """Empty the sign plane of ``table`` (its vectors were all deleted)."""
    conn.execute(f"DELETE FROM {SIGN_TABLES[table]}")


def rebuild(conn: Any, table: str, batch: int = 4096) -> int:
    """Recompute the sign plane of ``table`` from its vectors (same transaction); rows written."""
    conn.execute(DDL.format(SIGN_TABLES[table]))
    clear(conn, table)
    n = 0
    cur = conn.execute(f"SELECT memory_id, embedding FROM {table}")
    while rows := cur.fetchmany(batch):
        put(conn, table, [(int(r[0]), r[1]) for r in rows])
        n += len(rows)
    return n


def check(conn: Any, table: str, batch: int = 4096) -> dict[str, int]:
    """Compare the stored sign plane of ``table`` with its vectors.

    Returns counts: ``missing`` (a vector without its signs), ``stale`` (signs that differ
    from the vector's), ``extra`` (signs of a vector that is gone), ``rows`` (vectors read).
    Every vector is read and compared: from sqlite-vec's own tables a chunk at a time when the layout is
    the known one (:func:`_chunk_batches`), else through vec0; the comparison is one array operation a batch.
    """
    import numpy as np

    st = SIGN_TABLES[table]
    rows = conn.execute(f"SELECT block, present, bits FROM {st} ORDER BY block").fetchall()
    blocks = np.fromiter((int(r[0]) for r in rows), dtype=np.int64, count=len(rows))
    present = np.zeros((len(rows), SLOTS), dtype=bool)
    bits = np.zeros((len(rows), SLOTS, BYTES), dtype=np.uint8)
    damaged = np.zeros(len(rows), dtype=bool)
    for i, (_, p, b) in enumerate(rows):
        if len(p) != SLOTS or len(b) != SLOTS * BYTES:  # a damaged row: every slot counts as wrong
            present[i] = True
            damaged[i] = True
            continue
        present[i] = np.frombuffer(p, dtype=np.uint8) != 0
        bits[i] = np.frombuffer(b, dtype=np.uint8).reshape(SLOTS, BYTES)
    out = {"missing": 0, "stale": 0, "extra": 0, "rows": 0}
    batches = _chunk_batches(conn, table)
    if batches is None:
        batches = _vec0_batches(conn, table, batch)
    for mids, signs in batches:
        out["rows"] += len(mids)
        if not len(blocks):
            out["missing"] += len(mids)
            continue
        blk, slot = mids >> BLOCK_SHIFT, mids & (SLOTS - 1)
        at = np.minimum(np.searchsorted(blocks, blk), len(blocks) - 1)
        has = (blocks[at] == blk) & present[at, slot]
        out["missing"] += int((~has).sum())
        differs = (bits[at, slot] != signs).any(axis=1) | damaged[at]
        out["stale"] += int((has & differs).sum())
        present[at[has], slot[has]] = False  # seen
    out["extra"] = int(present.sum())
    return out


def _vec0_batches(conn: Any, table: str, batch: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """(memory ids, packed signs) of every vector of ``table``, read through vec0 ``batch`` rows at a time."""
    import numpy as np

    cur = conn.execute(f"SELECT memory_id, embedding FROM {table}")
    while rows := cur.fetchmany(batch):
        yield np.fromiter((int(r[0]) for r in rows), dtype=np.int64, count=len(rows)), sign_bytes([r[1] for r in rows])


def _chunk_batches(conn: Any, table: str) -> Iterator[tuple[np.ndarray, np.ndarray]] | None:
    """(memory ids, packed signs) of every vector of ``table``, a chunk at a time from sqlite-vec 0.1.x's storage.

    vec0's own scan walks its ``_rowids`` table (id -> chunk, offset) and reads each vector from its chunk's
    blob, a virtual-table call per row (~3.7 s of the 10 s check at 100k); this reads the same rows and the
    same bytes a whole chunk blob at a time. None (the caller scans through vec0) when the layout is not the
    one expected or a row does not point into a chunk that holds it (vec0 then reports what it makes of it).
    """
    import numpy as np

    if not _layout_ok(conn, table):
        return None
    cur = conn.cursor()
    cur.row_factory = None
    located = cur.execute(f"SELECT chunk_id, chunk_offset, rowid FROM {table}_rowids").fetchall()
    if any(r[0] is None or r[1] is None for r in located):
        return None
    loc = np.array(located, dtype=np.int64).reshape(-1, 3)
    loc = loc[np.lexsort((loc[:, 1], loc[:, 0]))]
    chunks = np.unique(loc[:, 0])
    sizes = {int(r[0]): int(r[1]) for r in select_in(
        cur, f"SELECT rowid, length(vectors) FROM {table}_vector_chunks00 WHERE rowid IN ({{ids}})", chunks.tolist())}
    bounds = np.searchsorted(loc[:, 0], chunks, side="right")
    starts = np.concatenate(([0], bounds[:-1])) if len(chunks) else bounds
    for chunk, hi in zip(chunks.tolist(), bounds.tolist()):  # each chunk's blob holds its highest offset
        if sizes.get(chunk, 0) < (int(loc[hi - 1, 1]) + 1) * DIMS:
            return None
    return _read_chunk_signs(cur, table, loc, chunks.tolist(), starts.tolist(), bounds.tolist())


def _read_chunk_signs(cur: Any, table: str, loc: np.ndarray, chunks: list[int], starts: list[int],
                      bounds: list[int]) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    import numpy as np

    for chunk, lo, hi in zip(chunks, starts, bounds):
        blob = cur.execute(f"SELECT vectors FROM {table}_vector_chunks00 WHERE rowid = ?", (chunk,)).fetchone()[0]
        mat = np.frombuffer(blob, dtype=np.int8)[: (int(loc[hi - 1, 1]) + 1) * DIMS].reshape(-1, DIMS)
        yield loc[lo:hi, 2].copy(), np.packbits(mat[loc[lo:hi, 1]] > 0, axis=1)


def problems(conn: Any) -> dict[str, dict[str, int]]:
    """:func:`check` of both vector tables, keeping only those that are out of step
    (a dropped sign table counts every vector as missing)."""
    found = {}
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    for table, st in SIGN_TABLES.items():
        if st not in names:
            n = int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
            found[table] = {"missing": n, "stale": 0, "extra": 0, "rows": n, "table_missing": 1}
            continue
        with read_snapshot(conn):  # the plane and the vectors as of one moment (agents may store meanwhile)
            c = check(conn, table)
        if c["missing"] or c["stale"] or c["extra"]:
            found[table] = c
    return found


# ---------------------------------------------------------------- search


def _load(conn: Any, table: str) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """(memory ids, (WORDS, n) uint64 signs word-major, present mask) of every stored slot, or None if empty."""
    import numpy as np

    cur = conn.cursor()
    cur.row_factory = None  # plain tuples: ~400 rows at 100k
    try:
        rows = cur.execute(f"SELECT block, present, bits FROM {SIGN_TABLES[table]}").fetchall()
    except sqlite3.OperationalError:  # the table was dropped: the exact scan serves (doctor --fix restores it)
        return None
    rows = [r for r in rows if len(r[1]) == SLOTS and len(r[2]) == SLOTS * BYTES]  # (doctor reports the rest)
    if not rows:
        return None
    blocks = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
    ids = ((blocks << BLOCK_SHIFT)[:, None] + np.arange(SLOTS, dtype=np.int64)).reshape(-1)
    # word-major straight from each block (12 KB, cache-resident): no joined copy of every
    # block and no transpose of the whole (n, WORDS) array (~0.5 s of a cold recall at 1M)
    cols = np.empty((WORDS, len(ids)), dtype=np.uint64)
    present = np.empty(len(ids), dtype=np.uint8)
    for i, (_, mask, bits) in enumerate(rows):
        lo = i * SLOTS
        cols[:, lo:lo + SLOTS] = np.frombuffer(bits, dtype=np.uint64).reshape(SLOTS, WORDS).T
        present[lo:lo + SLOTS] = np.frombuffer(mask, dtype=np.uint8)
    return ids, cols, present.astype(bool)


def shortlist(conn: Any, table: str, qvec: np.ndarray, m: int) -> np.ndarray | None:
    """Memory ids (ascending) of the ``m`` rows of ``table`` the sign plane ranks nearest; None if no plane."""

    loaded = _load(conn, table)
    if loaded is None:
        return None
    ids, cols, present = loaded  # word-major: each pass reads one contiguous array
    return ids[rank_rows(list(cols), qvec, m, present)]


def stored_vectors(conn: Any, table: str, ids: Sequence[int]) -> tuple[list[int], list[bytes]]:
    """(ids found, their stored blobs) of ``table``: by sqlite-vec's own tables when it can."""
    found = _read_chunks(conn, table, ids)
    if found is not None:
        return found
    # one id at a time: vec0 answers `memory_id IN (a, b, …)` by scanning the whole table
    rows = [r for mid in dict.fromkeys(ids) for r in conn.execute(
        f"SELECT memory_id, embedding FROM {table} WHERE memory_id = ?", (int(mid),))]
    return [int(r[0]) for r in rows], [r[1] for r in rows]


def _read_chunks(conn: Any, table: str, ids: Sequence[int]) -> tuple[list[int], list[bytes]] | None:
    """Vectors read straight from sqlite-vec 0.1.x's storage: ~10 µs a vector, not ~33.

    vec0 looks a row up by id through its ``_rowids`` table (id -> chunk, offset) and
    reads 384 bytes of the chunk's blob; doing the same here with incremental blob I/O
    skips its per-row virtual-table overhead. None (the caller asks vec0) when the driver
    has no blob I/O or the layout is not the one expected (int8 vectors, chunk blobs).
    """
    opener = getattr(conn, "open_blob", None) or getattr(conn, "blobopen", None)
    if opener is None or not _layout_ok(conn, table):
        return None
    cur = conn.cursor()
    cur.row_factory = None
    located = sorted(
        (int(r[1]), int(r[2]), int(r[0])) for r in select_in(
            cur, f"SELECT rowid, chunk_id, chunk_offset FROM {table}_rowids WHERE rowid IN ({{ids}})", ids)
        if r[1] is not None)
    out_ids: list[int] = []
    blobs: list[bytes] = []
    chunk: int | None = None
    handle: Any = None
    try:
        for chunk_id, offset, mid in located:
            if chunk_id != chunk:
                if handle is not None:
                    handle.close()
                handle = _open(opener, f"{table}_vector_chunks00", chunk_id)
                chunk = chunk_id
            handle.seek(offset * DIMS)
            blob = handle.read(DIMS)
            if len(blob) != DIMS:
                return None
            out_ids.append(mid)
            blobs.append(blob)
    except Exception:  # a layout this code does not know: vec0 answers instead
        return None
    finally:
        if handle is not None:
            handle.close()
    return out_ids, blobs


def _open(opener: Any, table: str, row: int) -> Any:
    try:
        return opener(table, "vectors", row, readonly=True)  # the standard library's blobopen
    except TypeError:
        return opener(table, "vectors", row, 0)  # sqlean's open_blob(table, column, row, flags): 0 = read-only


_LAYOUTS: dict[tuple[int, str], bool] = {}


def _layout_ok(conn: Any, table: str) -> bool:
    """Whether ``table`` is an int8 vec0 table with sqlite-vec 0.1.x's shadow tables (cached per connection)."""
    key = (id(conn), table)
    if key not in _LAYOUTS:
        names = {r[0]: r[1] or "" for r in conn.execute(
            "SELECT name, sql FROM sqlite_master WHERE name IN (?, ?, ?)",
            (table, f"{table}_rowids", f"{table}_vector_chunks00"))}
        _LAYOUTS[key] = (f"int8[{DIMS}]" in names.get(table, "")
                         and "chunk_offset" in names.get(f"{table}_rowids", "")
                         and "vectors" in names.get(f"{table}_vector_chunks00", ""))
    return _LAYOUTS[key]


def search(conn: Any, table: str, qvec: np.ndarray, k: int, m: int | None = None) -> list[tuple[int, float]] | None:
    """(memory id, cosine) of the k nearest rows of ``table`` by sign shortlist + exact re-rank.

    ``qvec`` is the query at stored precision (``vectors.as_stored``). None when the table
    has no sign plane (the caller scans exactly).
    """
    import numpy as np

    k = max(1, k)
    with _mapped(conn):
        cand = shortlist(conn, table, qvec, m if m is not None else width(k))
        if cand is None:
            return None
        ids, blobs = stored_vectors(conn, table, cand.tolist())
    if not ids:
        return []
    sims = cosines(blobs, qvec)
    order = np.lexsort((np.asarray(ids), -sims))[:k]  # best first, ties by id
    return [(ids[i], float(sims[i])) for i in order]


def cosines(blobs: Sequence[bytes], qvec: np.ndarray) -> np.ndarray:
    """Cosine of a unit query with stored vectors (int8 rows; float32 rows of an old file too)."""
    import numpy as np

    if not all(len(b) == DIMS for b in blobs):
        return vectors_from_blobs(blobs) @ np.asarray(qvec, dtype=np.float32)
    mat = np.frombuffer(b"".join(blobs), dtype=np.int8).reshape(len(blobs), DIMS).astype(np.float32)
    norms = np.sqrt(np.einsum("ij,ij->i", mat, mat))
    dots = mat @ np.asarray(qvec, dtype=np.float32)
    return np.divide(dots, norms, out=np.zeros_like(dots), where=norms > 0)


# Reads through a memory map while the shortlist is read and re-ranked: ~3,200 scattered
# 384-byte reads would otherwise be as many read() calls into the OS cache (re-rank 21 -> 8
# ms of CPU per table at 100k, bench/signplane.py). SQLite caps it at its compile-time limit.
MMAP_BYTES = 1 << 40


@contextmanager
def _mapped(conn: Any) -> Iterator[None]:
    """``PRAGMA mmap_size`` raised for the duration (restored after: other reads keep plain I/O)."""
    try:
        before = int(conn.execute("PRAGMA mmap_size").fetchone()[0])
        conn.execute(f"PRAGMA mmap_size = {MMAP_BYTES}")
    except sqlite3.DatabaseError:  # (an in-memory or unusual file: plain reads)
        yield
        return
    try:
        yield
    finally:
        conn.execute(f"PRAGMA mmap_size = {before}")
