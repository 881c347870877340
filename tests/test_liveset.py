"""The in-process live set (liveset.py) answers the unfiltered recall filter exactly as SQL does.

Every check compares against the SQL filter on a real SQLite file, after the changes
that move a memory in or out: new memories, forget/restore, archive, supersede, a
summary level, a partner's source, a hard delete, another connection's writes, and
a log trimmed past the reader.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import memory_core as mc
from memengine import storebase
from memengine.liveset import LIVE_SQL, STATUS_LOG_KEEP, LiveSet


def _sql_live(store: mc.MemoryStore, ids: list[int]) -> set[int]:
    where = store.filter_sql(None, None, None, None, None, False)[0]
    sql = f"SELECT m.id FROM memories m WHERE m.id IN ({{ids}}) AND {where}"
    return {int(r[0]) for r in mc.select_in(store.conn, sql, ids)}


def _check(store: mc.MemoryStore, live: LiveSet) -> None:
    top = store._vector_count()
    assert live.sync(store.conn, top)
    ids = list(range(0, top + 3))  # ids past the end and a missing 0 included
    assert live.filter(ids) == _sql_live(store, ids)


@pytest.fixture
def filled(store: mc.MemoryStore) -> mc.MemoryStore:
    for i in range(40):
        store.store(f"note number {i} about gardens", dedup=False)
    return store


def test_live_sql_is_the_default_recall_filter(store: mc.MemoryStore) -> None:
    assert store._live_where == store.filter_sql(None, None, None, None, None, False)[0]
    assert store._live_where.replace("m.", "") == LIVE_SQL


def test_every_kind_of_change_is_followed(filled: mc.MemoryStore) -> None:
    s = filled
    live = LiveSet()
    _check(s, live)
    assert live.loads == 1 and live.filter([1, 2]) == {1, 2}
    s.forget(3)
    s.store("a new note about tomatoes", dedup=False)
    _check(s, live)
    assert 3 not in live.filter([3])
    s.restore(3)
    with mc.write_tx(s.conn):
        s.conn.execute("UPDATE memories SET status = 'archived' WHERE id = 4")
        s.conn.execute("UPDATE memories SET valid_to = '2026-01-01T00:00:00Z' WHERE id = 5")
        s.conn.execute("UPDATE memories SET level = 1 WHERE id = 6")
        s.conn.execute("UPDATE memories SET source = 'shared:ana' WHERE id = 7")
        s.conn.execute("DELETE FROM memories WHERE id = 8")
    _check(s, live)
    assert live.filter([3, 4, 5, 6, 7, 8, 9]) == {3, 9}
    assert live.loads == 1  # all of that from the log, no reload


def test_another_connections_writes_are_seen(filled: mc.MemoryStore, db_path: Path) -> None:
    live = LiveSet()
    _check(filled, live)
    other = mc.MemoryStore(db_path)
    try:
        other.forget(10)
        new = other.store("written by another process", dedup=False).id
    finally:
        other.close()
    _check(filled, live)
    assert live.filter([10, new]) == {new}


def test_a_reader_behind_the_trimmed_log_reloads(filled: mc.MemoryStore) -> None:
    live = LiveSet()
    _check(filled, live)
    s = filled
    with mc.write_tx(s.conn):
        # more status changes than the log keeps: the entries this reader needs are gone
        for _ in range(STATUS_LOG_KEEP // 40 + 30):
            s.conn.execute("UPDATE memories SET status = 'archived' WHERE id <= 40")
            s.conn.execute("UPDATE memories SET status = 'active' WHERE id <= 40")
        s.conn.execute("UPDATE memories SET status = 'archived' WHERE id = 11")
    first = s.conn.execute("SELECT min(seq) FROM _status_changes").fetchone()[0]
    assert first > live.seq + 1
    _check(s, live)
    assert live.loads == 2 and 11 not in live.filter([11])


def test_recall_uses_it_only_when_warm_at_scale_and_outside_transactions(
        filled: mc.MemoryStore, monkeypatch: pytest.MonkeyPatch) -> None:
    s = filled
    monkeypatch.setattr(storebase, "PARALLEL_MIN_ROWS", 10)
    cold = s.recall("gardens", k=5, touch=False)
    assert s._live is None  # one-shot: the SQL filter served
    s.forget(cold.results[0].id)
    warm = s.recall("gardens", k=5, touch=False)
    assert s._live is not None and s._live.loads == 1
    assert cold.results[0].id not in [m.id for m in warm.results]
    with mc.write_tx(s.conn):
        s.conn.execute("UPDATE memories SET status = 'archived' WHERE id = ?", (warm.results[0].id,))
        inside = s.recall("gardens", k=5, touch=False)  # sees its own uncommitted change, through SQL
        assert warm.results[0].id not in [m.id for m in inside.results]
        assert s._live.seq < s.conn.execute("SELECT max(seq) FROM _status_changes").fetchone()[0]
    after = s.recall("gardens", k=5, touch=False)
    assert [m.id for m in after.results] == [m.id for m in inside.results]
    # filtered recalls keep using SQL; the answers agree
    typed = s.recall("gardens", k=5, types=["semantic"], touch=False)
    assert [m.id for m in typed.results] == [m.id for m in after.results]
