"""The fast paths of the graph: precomputed ranks for `brief`, filters in rank order, index arrays."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

import memory_core as core
from memengine import consolidate as cons
from memengine import graph, graph_nav, graph_rank

NOW = datetime(2026, 3, 1, 12, 0, 0)


def _mem(store: core.MemoryStore, text: str, **kw: object) -> int:
    return store.store(text, "semantic", dedup=False, **kw).id  # type: ignore[arg-type]


@pytest.fixture
def star(store: core.MemoryStore) -> dict[str, int]:
    """Hub H linked to four leaves; X alone. All of importance 0.5, stored at the same time."""
    ids = {n: _mem(store, f"star node {n} word{n}", importance=0.5) for n in ("H", "L1", "L2", "L3", "L4", "X")}
    for leaf in ("L1", "L2", "L3", "L4"):
        graph_nav.link(store, ids["H"], ids[leaf], "explicit", 1.0)
    return ids


def test_pagerank_arrays_match_the_dict_version() -> None:
    import numpy as np

    edges = [(10, 20, 1.0), (10, 30, 0.5), (30, 40, 0.25)]
    personal = {10: 0.1, 20: 0.7, 30: 0.1, 40: 0.1}
    d = graph_rank.personalised_pagerank([10, 20, 30, 40, 50], edges, personal)
    arr = graph_rank._pagerank_arrays(5, np.array([0, 0, 2]), np.array([1, 2, 3]), np.array([1.0, 0.5, 0.25]),
                                 np.array([0.1, 0.7, 0.1, 0.1, 0.0]))
    assert [d[x] for x in (10, 20, 30, 40, 50)] == pytest.approx(list(arr))
    assert d[50] == 0.0  # isolated and outside the restart vector: never visited


def test_precomputed_ranks_stored_and_read_by_brief(store: core.MemoryStore, star: dict[str, int]) -> None:
    out = graph_rank.precompute_ranks(store, NOW)
    assert out == {"memories_ranked": 6, "edges_used": 4, "stored": 6}
    ranks, how = graph_rank.load_ranks(store, NOW)
    assert how == "precomputed" and ranks is not None
    assert ranks["ids"][0] == star["H"] and ranks["pagerank"][0] == 1.0
    pr = dict(zip(ranks["ids"], ranks["pagerank"]))
    assert pr[star["L1"]] == pr[star["L2"]] == pr[star["L3"]] == pr[star["L4"]] > pr[star["X"]]
    assert ranks["computed_at"] == "2026-03-01T12:00:00" and ranks["ids"][-1] == star["X"]


def test_stale_or_absent_ranks_fall_back_loudly(store: core.MemoryStore, star: dict[str, int],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    assert graph_rank.load_ranks(store, NOW) == (None, "absent")
    graph_rank.precompute_ranks(store, NOW)
    later = NOW + timedelta(days=graph_rank.RANKS_MAX_AGE_DAYS + 1)
    ranks, why = graph_rank.load_ranks(store, later)
    assert ranks is None and why == "stale (computed 8 days ago)"
    for i in range(30):  # growth beyond RANKS_MAX_GROWTH of the 100-memory floor
        _mem(store, f"new memory {i}")
    ranks, why = graph_rank.load_ranks(store, NOW)
    assert ranks is None and why == "stale (30 memories and 0 edges added since)"
    store.conn.execute("UPDATE _mem_meta SET value = '{\"version\": 0}' WHERE key = ?", (graph_rank.RANKS_META_KEY,))
    assert graph_rank.load_ranks(store, NOW) == (None, "of another version (0)")


def test_consolidate_rank_phase(store: core.MemoryStore, star: dict[str, int]) -> None:
    rep = cons.run(store, now=NOW, phases=["rank"], keep_backups=0)
    assert rep.counts() == {"rank": {"memories_ranked": 6, "edges_used": 4, "stored": 6}}
    assert graph_rank.load_ranks(store, NOW)[1] == "precomputed"


def test_recall_filters_in_rank_order(store: core.MemoryStore) -> None:
    """The best walk result that fails a filter is skipped; the next ones are checked slice by slice."""
    seed = store.store("zebra crossing rules", "procedural", dedup=False).id
    near = [store.store(f"near semantic {i}", "semantic", dedup=False).id for i in range(30)]
    far = store.store("far procedural note", "procedural", dedup=False).id
    for i, n in enumerate(near):
        graph_nav.link(store, seed, n, "explicit", 0.9 - i * 0.01)
    graph_nav.link(store, near[0], far, "explicit", 0.5)
    res = graph.recall(store, "zebra", k=2, strategy="graph", types=["procedural"], seed_k=1, touch=False)
    assert [m.id for m in res.results] == [seed, far]
    res = graph.recall(store, "zebra", k=3, strategy="graph", seed_k=1, touch=False)
    assert [m.id for m in res.results] == [seed, near[0], near[1]]
