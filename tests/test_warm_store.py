"""A long-lived process (mem serve / mem mcp) opens its store once, often while it is still empty."""

from __future__ import annotations

from pathlib import Path


def test_a_store_warmed_while_empty_recalls_what_is_stored_later(db_path: Path) -> None:
    import memory_core

    with memory_core.MemoryStore(db_path, fast_start=False) as s:
        s.warm_up()
        assert s.recall("warm up", k=1, touch=False).results == []  # what the servers do at start
        first = s.store("Oscar prefers morning meetings", "semantic").id
        s.store("Flew to Rome", "episodic")
        assert [m.id for m in s.recall("Oscar morning meetings", k=1, touch=False).results] == [first]
