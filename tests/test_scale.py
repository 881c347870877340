"""Scale work (issue 22): the people list cached in the database, kept exact by triggers."""

from __future__ import annotations

from pathlib import Path

import memory_core
from memengine import migrations
from memengine.db import connect, write_tx
from memory_core import MemoryStore


def _authors(store: MemoryStore) -> dict[str, int]:
    return dict(store.conn.execute("SELECT author, active FROM memory_authors").fetchall())


def _scanned(store: MemoryStore) -> dict[str, int]:
    """What the table must equal: the full scan it replaces."""
    return dict(store.conn.execute("SELECT author, count(*) FROM memories WHERE author IS NOT NULL "
                                   "AND status = 'active' GROUP BY author").fetchall())


def test_people_table_is_exact_across_insert_update_forget_restore_delete(store: MemoryStore) -> None:
    a1 = store.store("hi there", "episodic", author="Ana García", thread="t").id
    a2 = store.store("second note", "episodic", author="Ana García", thread="t").id
    o1 = store.store("hello", "episodic", author="Oscar", thread="t").id
    store.store("no author here", "semantic")
    assert _authors(store) == {"Ana García": 2, "Oscar": 1} == _scanned(store)
    assert store.known_people() == {"ana garcía": "Ana García", "ana": "Ana García", "oscar": "Oscar"}

    store.forget(o1)  # the only Oscar memory: he leaves the list
    assert _authors(store) == {"Ana García": 2} == _scanned(store)
    assert "oscar" not in store.known_people()
    store.restore(o1)
    assert _authors(store) == {"Ana García": 2, "Oscar": 1} == _scanned(store)
    assert store.known_people()["oscar"] == "Oscar"

    store.forget(a1)  # one of two: Ana stays, counted once
    assert _authors(store) == {"Ana García": 1, "Oscar": 1} == _scanned(store)
    with write_tx(store.conn):  # archive (decay), an author renamed, a forgotten row's author changed
        store.conn.execute("UPDATE memories SET status = 'archived' WHERE id = ?", (a2,))
        store.conn.execute("UPDATE memories SET author = 'Oscar Ruiz' WHERE id = ?", (o1,))
        store.conn.execute("UPDATE memories SET author = 'Zed' WHERE id = ?", (a1,))
        store.conn.execute("UPDATE memories SET importance = 0.9 WHERE id = ?", (o1,))  # not a people change
    assert _authors(store) == {"Oscar Ruiz": 1} == _scanned(store)
    assert store.known_people() == {"oscar ruiz": "Oscar Ruiz", "oscar": "Oscar Ruiz"}
    with write_tx(store.conn):
        store.conn.execute("UPDATE memories SET status = 'active' WHERE id IN (?, ?)", (a1, a2))
        store.conn.execute("UPDATE memories SET author = NULL WHERE id = ?", (a2,))
    assert _authors(store) == {"Oscar Ruiz": 1, "Zed": 1} == _scanned(store)
    with write_tx(store.conn):  # a hard delete (sharing's withdrawal path deletes rows)
        store.conn.execute("DELETE FROM memories WHERE id = ?", (o1,))
    assert _authors(store) == {"Zed": 1} == _scanned(store)
    assert store.known_people() == {"zed": "Zed"}


def test_people_follow_another_connection(db_path: Path) -> None:
    a = memory_core.MemoryStore(db_path)
    b = memory_core.MemoryStore(db_path)
    a.store("hello", "episodic", author="Mei Chen", thread="t")
    assert b.known_people()["mei"] == "Mei Chen"
    mid = a.store("bye", "episodic", author="Oscar", thread="t").id
    assert "oscar" in b.known_people()
    a.forget(mid)
    assert "oscar" not in b.known_people()
    a.close()
    b.close()


def test_m007_fills_the_table_from_existing_rows(tmp_path: Path) -> None:
    conn = connect(tmp_path / "old.db")
    migrations.migrate(conn, upto="m006_context_far")
    rows = [(1, "Ana", "active"), (2, "Ana", "active"), (3, "Bo", "deleted"), (4, None, "active"), (5, "Cy", "archived")]
    for mid, author, status in rows:
        conn.execute("""INSERT INTO memories(id, content, content_hash, created_at, updated_at, author, status)
                        VALUES (?, ?, ?, '2024-01-01', '2024-01-01', ?, ?)""", (mid, f"m{mid}", f"h{mid}", author, status))
    assert migrations.migrate(conn, upto="m007_people") == ["m007_people"]
    assert dict(conn.execute("SELECT author, active FROM memory_authors")) == {"Ana": 2}
    conn.close()
