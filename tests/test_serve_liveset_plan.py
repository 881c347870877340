"""A warm server's first recall after a store catches its live set up by the new rows' id range
(memengine/liveset.py ``NEW_SQL``), not by a walk of the status index over every active memory."""

from __future__ import annotations

import memory_core as mc
from memengine.liveset import LIVE_SQL, NEW_SQL, LiveSet


def test_the_new_rows_are_read_by_their_id_range(store: mc.MemoryStore) -> None:
    for i in range(60):
        store.store(f"note number {i} about gardens", "episodic", dedup=False)
    store.forget(5)
    store.conn.execute("ANALYZE")  # (whatever the planner knows of the table, the id range is the path)
    plan = " ".join(str(tuple(r)) for r in store.conn.execute(f"EXPLAIN QUERY PLAN {NEW_SQL}", (50,)))
    assert "INTEGER PRIMARY KEY" in plan and "memories_status_type" not in plan
    # the same rows as the filter read any way, at every threshold
    for top in (0, 4, 5, 30, 59, 60, 99):
        got = [int(r[0]) for r in store.conn.execute(NEW_SQL, (top,))]
        want = [int(r[0]) for r in store.conn.execute(f"SELECT id FROM memories WHERE id > ? AND {LIVE_SQL}", (top,))]
        assert sorted(got) == sorted(want) == [i for i in range(top + 1, 61) if i != 5]


def test_a_synced_set_after_stores_is_a_fresh_load(store: mc.MemoryStore) -> None:
    for i in range(30):
        store.store(f"note number {i} about gardens", "episodic", dedup=False)
    live = LiveSet()
    assert live.sync(store.conn, store._vector_count())
    for i in range(12):  # a store, then the recall's sync, as an agent alternates them
        store.store(f"later note {i} on tomatoes", "episodic", dedup=False)
        if i == 6:
            store.forget(31)
        assert live.sync(store.conn, store._vector_count())
    fresh = LiveSet()
    assert fresh.sync(store.conn, store._vector_count())
    assert live.live.tolist() == fresh.live.tolist() and live.loads == 1
    assert live.filter(list(range(45))) == set(range(1, 43)) - {31}
