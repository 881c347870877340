"""Importing into a big store costs what it costs into an empty one (issue 22, "no cliffs").

sqlite-vec's vec0 answers ``memory_id IN (a, b, …)`` with two or more ids by scanning every
vector of the table (35 ms at 100k, ~0.4 s at 1M): ``StoreBase.vectors`` asked it that way
for each batch's context vectors and each episode, so a 3,000-message ChatGPT import cost
126 CPU-s into the 1M store against 62 into a new file. It now reads by id. These tests
check that the vectors read are exactly what the old query returned, and that no read of an
import asks vec0 for an IN list again.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memengine import signplane
from memengine.vectors import vectors_from_blobs
from memory_core import MemoryStore, NewMemory

T0 = datetime(2024, 3, 1, 9, 0)
VEC_IN = re.compile(r"\bFROM\s+vec_(memories|contexts)\b[^;]*\bIN\s*\(", re.IGNORECASE | re.DOTALL)


def _chat(thread: str, n: int, start: int = 0) -> list[NewMemory]:
    """``n`` turns of one conversation: two sessions a day apart, so episodes and context gaps form."""
    return [NewMemory(content=f"{'Ana' if i % 2 else 'Ben'}: turn {i} of {thread} about the {('boat', 'train', 'bill')[i % 3]}",
                      ref=f"{thread}:{i}", source="chat", thread=thread, position=i,
                      author="Ana" if i % 2 else "Ben",
                      event_at=T0 + timedelta(minutes=2 * i) + (timedelta(days=1) if i >= n // 2 else timedelta()))
            for i in range(start, start + n)]


def _old_vectors(store: MemoryStore, ids: list[int], table: str) -> dict[int, np.ndarray]:
    """The vectors as the code before this change read them: one ``IN`` query per 500 ids."""
    out: dict[int, np.ndarray] = {}
    for i in range(0, len(ids), 500):
        chunk = ids[i : i + 500]
        rows = store.conn.execute(
            f"SELECT memory_id, embedding FROM {table} WHERE memory_id IN ({','.join('?' * len(chunk))})",
            chunk).fetchall()
        out.update({int(r[0]): v for r, v in zip(rows, vectors_from_blobs([r[1] for r in rows]))})
    return out


def _assert_same(a: dict[int, np.ndarray], b: dict[int, np.ndarray]) -> None:
    assert sorted(a) == sorted(b)
    for k in a:
        assert a[k].dtype == b[k].dtype == np.float32
        assert a[k].tobytes() == b[k].tobytes(), k  # bit for bit


def test_vectors_equal_the_old_in_query(store: MemoryStore) -> None:
    """Own and context vectors, ids with and without a vector, repeats, unknown ids, a deleted vector."""
    store.store_many(_chat("ana", 40) + _chat("bob", 30))
    store.store("a fact with no thread", "semantic")
    ids = [int(r[0]) for r in store.conn.execute("SELECT id FROM memories ORDER BY id")]
    with store.conn:
        store.conn.execute("DELETE FROM vec_contexts WHERE memory_id = ?", (ids[3],))
    wanted = ids[::-1] + ids[:5] + [10_000, -1]  # reversed, repeated, unknown
    for table in ("vec_memories", "vec_contexts"):
        new, old = store.vectors(wanted, table), _old_vectors(store, sorted(set(wanted)), table)
        assert len(new) == (len(ids) if table == "vec_memories" else 69)  # 70 turns, one context deleted
        _assert_same(new, old)
    assert store.vectors([]) == {}


def test_vectors_inside_a_write_transaction_see_its_writes(store: MemoryStore) -> None:
    """Read within the batch that wrote them (refresh_context does): the new vectors, not the old."""
    store.store_many(_chat("ana", 10))
    ids = [int(r[0]) for r in store.conn.execute("SELECT id FROM memories ORDER BY id")]
    other = store.vectors([ids[1]])[ids[1]]
    from memengine.db import write_tx

    with write_tx(store.conn):
        store._write_vector(ids[0], other)  # ids[0] now holds ids[1]'s vector
        inside = store.vectors(ids[:2])
        assert inside[ids[0]].tobytes() == inside[ids[1]].tobytes() == other.tobytes()
        _assert_same(inside, _old_vectors(store, ids[:2], "vec_memories"))


def test_fallback_without_blob_reads_is_the_same(store: MemoryStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """A driver without blob I/O (or another vec0 layout) reads by id through vec0: same vectors."""
    store.store_many(_chat("ana", 25))
    ids = [int(r[0]) for r in store.conn.execute("SELECT id FROM memories ORDER BY id")]
    fast = store.vectors(ids + ids[:3], "vec_contexts")
    monkeypatch.setattr(signplane, "_layout_ok", lambda conn, table: False)
    slow = store.vectors(ids + ids[:3], "vec_contexts")
    _assert_same(fast, slow)
    _assert_same(slow, _old_vectors(store, ids, "vec_contexts"))


def _traced(store: MemoryStore) -> list[str]:
    seen: list[str] = []
    store.conn.set_trace_callback(seen.append)
    return seen


def test_an_import_into_a_filled_store_never_asks_vec0_for_an_in_list(tmp_path: Path) -> None:
    """store_many of conversations (context vectors), episodes, and the CLI import path."""
    from memengine.chat_episodes import build_episodes

    store = MemoryStore(tmp_path / "big.db")
    try:
        store.store_many(_chat("old", 300))
        seen = _traced(store)
        store.store_many(_chat("ana", 120) + _chat("old", 20, start=300))
        build_episodes(store, "chat", "ana")
        build_episodes(store, "chat", "old")
        store.conn.set_trace_callback(None)
        reads = [s for s in seen if VEC_IN.search(s)]
        assert seen and not reads, reads[:3]
        assert int(store.conn.execute("SELECT count(*) FROM memories WHERE json_extract(metadata, '$.kind') = "
                                      "'episode'").fetchone()[0]) >= 2
    finally:
        store.close()


def _snapshot(store: MemoryStore) -> dict[str, Any]:
    clock = {"created_at", "updated_at", "decay_ref_at", "last_accessed_at", "valid_from"}
    cols = [r[1] for r in store.conn.execute("PRAGMA table_info(memories)") if r[1] not in clock]
    ids = [int(r[0]) for r in store.conn.execute("SELECT id FROM memories ORDER BY id")]
    return {
        "rows": [tuple(r) for r in store.conn.execute(f"SELECT {', '.join(cols)} FROM memories ORDER BY id")],
        "edges": [tuple(r) for r in store.conn.execute(
            "SELECT source_id, target_id, edge_type, weight FROM associations ORDER BY 1, 2, 3")],
        **{t: {k: v.tobytes() for k, v in _old_vectors(store, ids, t).items()} for t in ("vec_memories", "vec_contexts")},
    }


def test_import_writes_what_the_old_reads_would_have_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same chats into two stores, one reading vectors the old way (IN lists): every row,
    edge, own and context vector byte for byte the same."""
    from memengine.chat_episodes import build_episodes
    from memengine.storebase import StoreBase

    def run(path: Path) -> dict[str, Any]:
        s = MemoryStore(path)
        try:
            s.store_many(_chat("ana", 60) + _chat("bob", 45))
            s.store_many(_chat("ana", 15, start=60))  # a later import continuing a conversation
            for thread in ("ana", "bob"):
                build_episodes(s, "chat", thread)
            return _snapshot(s)
        finally:
            s.close()

    new = run(tmp_path / "new.db")
    monkeypatch.setattr(StoreBase, "vectors", lambda self, ids, table="vec_memories":
                        _old_vectors(self, sorted({int(i) for i in ids}), table))
    old = run(tmp_path / "old.db")
    assert len(new["rows"]) > 120 and len(new["vec_contexts"]) == 120
    assert new == old
