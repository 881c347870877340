"""A warm matrix brought up to date after stores holds exactly what a fresh load of the table holds (serve13: the
new rows are read one id at a time when few, by one scan of the table when many; vec0 answered ``memory_id > ?``
by reading every vector, ~28 ms a table at 100k rows, paid by the first recall after every store)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import memory_core as core
from memengine import vectors
from memengine.vectors import VectorMatrix


def _same(a: VectorMatrix, b: VectorMatrix) -> None:
    assert a.n == b.n
    assert np.array_equal(a.ids, b.ids)
    assert np.array_equal(a._q8[:a.n], b._q8[:b.n])
    assert np.array_equal(a._inv[:a.n], b._inv[:b.n])
    assert np.array_equal(a._planes[:, :a.n], b._planes[:, :b.n])


@pytest.mark.parametrize("added", [1, 3, vectors.FEW_ROWS + 5])
def test_a_synced_matrix_equals_a_fresh_load(tmp_path: Path, added: int) -> None:
    store = core.MemoryStore(tmp_path / "m.db")
    try:
        store.store_many(core.NewMemory(content=f"note {i} about the garden beds", memory_type="semantic",
                                        source="t", ref=f"r{i}") for i in range(40))
        conn = store.conn
        top = lambda: int(conn.execute("SELECT max(id) FROM memories").fetchone()[0])  # noqa: E731
        warm = VectorMatrix("vec_memories")
        warm.sync(conn, top(), None)
        store.store_many(core.NewMemory(content=f"later note {i} on the build server", memory_type="semantic",
                                        source="t", ref=f"s{i}") for i in range(added))
        store.forget(3)  # (a soft delete keeps its vector: the rows read are the table's, whatever the status)
        warm.sync(conn, top(), None)
        fresh = VectorMatrix("vec_memories")
        fresh.sync(conn, top(), None)
        _same(warm, fresh)
        assert warm.n == 40 + added
        q = fresh.unit_rows()[7]
        assert warm.search(q, 5) == fresh.search(q, 5)
    finally:
        store.close()


def test_a_table_of_another_layout_is_scanned(tmp_path: Path) -> None:
    # (no `_rowids` table beside it: the read by id is not possible, the scan serves)
    store = core.MemoryStore(tmp_path / "m.db")
    try:
        store.store("the one note", "semantic")
        m = VectorMatrix("vec_memories")
        assert m._read_few(store.conn, 0) is not None
        m.table = "vec_nonexistent"
        assert m._read_few(store.conn, 0) is None
    finally:
        store.close()
