"""brief's warning when it has no topics says whether consolidate has run (a small store after
consolidate must not be told to run consolidate)."""
from __future__ import annotations

from datetime import datetime
from pathlib import Path

import memory_core as core
from memengine import consolidate as cons
from memengine import graph_rank

NOW = datetime(2026, 5, 1, 12, 0, 0)


def _no_topics(store: core.MemoryStore) -> list[str]:
    return [w for w in graph_rank.brief(store, 2000, now=NOW)["warnings"]
            if w.startswith(("no topics yet", "too few memories for topics"))]


def test_no_topics_warning_before_and_after_consolidate(tmp_path: Path) -> None:
    store = core.MemoryStore(tmp_path / "m.db")
    try:
        for text in ("Ana is allergic to peanuts", "The staging database is on port 5433",
                     "Backups run nightly at 02:00"):
            store.store(text)
        assert _no_topics(store) == ["no topics yet: run `mem.py consolidate` (nightly) to group memories into topics"]
        cons.run(store, now=NOW, keep_backups=0)
        assert _no_topics(store) == ["too few memories for topics: consolidate found no group of related memories "
                                     "(of at least 3) among these"]
    finally:
        store.close()
