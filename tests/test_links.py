"""consolidate's links phase: parallel == serial, incremental == one run over the final data, kill-safe."""

from __future__ import annotations

import shutil
import sqlite3
import zlib
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

import memory_core as core
from memengine import consolidate as cons
from memengine import knn, links

NOW = datetime(2030, 1, 1, 12, 0, 0)
DIMS = 384


class TopicEmbedder:
    """Seeded fake with cluster structure: text "topic T ..." → topic T's direction plus noise (cos ≈ 0.75)."""

    model_id = "test-topic-384"
    dims = DIMS

    def embed(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        out = np.zeros((len(texts), DIMS), dtype=np.float32)
        for i, t in enumerate(texts):
            topic = int(t.split()[1]) if t.startswith("topic ") else zlib.crc32(t.encode())  # summaries: anywhere
            centre = np.random.default_rng(topic).standard_normal(DIMS)
            noise = np.random.default_rng(zlib.crc32(t.encode())).standard_normal(DIMS)
            v = centre / np.linalg.norm(centre) + 0.9 * noise / np.linalg.norm(noise)
            out[i] = v / np.linalg.norm(v)
        return out


def items(start: int, n: int, topics: int = 12) -> list[core.NewMemory]:
    rng = np.random.default_rng(start)
    t0 = datetime(2029, 1, 1)
    return [core.NewMemory(content=f"topic {int(rng.integers(topics))} note {i}", memory_type="episodic",
                           source="test", ref=f"m{i}", thread=f"chat-{i % 3}", created_at=t0 + timedelta(hours=i),
                           event_at=t0 + timedelta(hours=i))
            for i in range(start, start + n)]


def open_store(path: Path) -> core.MemoryStore:
    return core.MemoryStore(path, embedder=TopicEmbedder())


def edges(path: Path) -> set[tuple[int, int, str, float]]:
    with sqlite3.connect(path) as c:
        return {(int(a), int(b), str(t), float(w)) for a, b, t, w in c.execute(
            "SELECT source_id, target_id, edge_type, weight FROM associations")}


def links_run(store: core.MemoryStore) -> dict:
    return cons.run(store, phases=["links"], now=NOW, keep_backups=0).counts()["links"]


# --------------------------------------------------------------------------- the search

@pytest.mark.parametrize("n", [900, 5000])  # exact products; the inverted file (EXACT_MAX = 4096)
def test_parallel_search_is_identical_to_serial(n: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(knn, "PARALLEL_MIN_WORK", 0)
    rng = np.random.default_rng(7)
    centres = rng.standard_normal((40, DIMS))
    vecs = knn.normalise((centres[rng.integers(40, size=n)] + 0.8 * rng.standard_normal((n, DIMS))).astype(np.float32))
    ids = np.arange(10, 10 + n, dtype=np.int64)
    allowed = rng.random(n) > 0.1
    query = np.sort(rng.choice(n, size=n // 2, replace=False))
    serial = knn.VectorIndex(ids, vecs, n_workers=1).knn(query, 5, allowed=allowed, min_sim=0.1)
    parallel = knn.VectorIndex(ids, vecs, n_workers=3).knn(query, 5, allowed=allowed, min_sim=0.1)
    assert np.array_equal(serial[0], parallel[0]) and np.array_equal(serial[1], parallel[1])
    assert (serial[0] >= 0).sum() > n  # it found neighbours (the test is not vacuous)
    assert not np.any(serial[0] == query[:, None])  # never itself


def test_phase_edges_identical_serial_and_parallel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(knn, "EXACT_MAX", 200)  # the inverted-file path on a small store
    monkeypatch.setattr(links, "EXACT_MAX", 200)
    monkeypatch.setattr(knn, "PARALLEL_MIN_WORK", 0)
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    s = open_store(a)
    s.store_many(items(0, 600))
    s.close()
    shutil.copy(a, b)
    out = {}
    for path, workers in ((a, "1"), (b, "2")):
        monkeypatch.setenv("MEM_WORKERS", workers)
        s = open_store(path)
        out[workers] = links_run(s)
        s.close()
    assert out["1"] == out["2"] and out["1"]["semantic_edges"] > 600
    assert edges(a) == edges(b)


# --------------------------------------------------------------------------- incremental

def test_incremental_equals_one_run_over_the_final_data(tmp_path: Path) -> None:
    """Nightly runs give exactly the edges of one run over all the data, plus those earlier runs made."""
    first, later = items(0, 300), items(300, 40)
    inc, full, early = tmp_path / "inc.db", tmp_path / "full.db", tmp_path / "early.db"
    s = open_store(inc)
    s.store_many(first)
    links_run(s)
    s.store_many(later)
    c = links_run(s)
    assert c["new_memories"] == 40 and c["requeried"] > 0  # older lists a new memory entered were redone
    again = links_run(s)
    assert again["semantic_edges"] == again["temporal_edges"] == again["requeried"] == again["new_memories"] == 0
    s.close()
    for path, data in ((full, first + later), (early, first)):
        s = open_store(path)
        s.store_many(data)
        assert links_run(s)["orphan_edges"] == 0  # (orphan repair depends on history: none here)
        s.close()
    assert edges(full) <= edges(inc)
    assert edges(inc) == edges(full) | edges(early)
    assert len(edges(inc) - edges(full)) > 0  # some lists did change: the test is not vacuous


def test_incremental_with_the_inverted_file_keeps_its_cells(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Above EXACT_MAX the search is approximate: the cells of the first run are kept (until the store
    doubles), so nightly runs still give exactly a one-run recompute with those cells, plus earlier edges."""
    monkeypatch.setattr(knn, "EXACT_MAX", 200)
    monkeypatch.setattr(links, "EXACT_MAX", 200)
    inc, early, full = tmp_path / "inc.db", tmp_path / "early.db", tmp_path / "full.db"
    s = open_store(inc)
    s.store_many(items(0, 600, topics=30))
    links_run(s)
    cells = s.meta("consolidate.ivf")
    s.close()
    shutil.copy(inc, early)
    s = open_store(inc)
    s.store_many(items(600, 60, topics=30))
    c = links_run(s)
    assert c["new_memories"] == 60 and s.meta("consolidate.ivf") == cells  # not retrained
    s.close()
    shutil.copy(inc, full)
    with sqlite3.connect(full) as conn:  # the same data and cells, computed in one run
        conn.execute("DELETE FROM associations")
        conn.execute("DELETE FROM _mem_meta WHERE key IN ('consolidate.links_hwm', 'consolidate.links_seq')")
    s = open_store(full)
    assert links_run(s)["orphan_edges"] == 0
    s.close()
    assert edges(full) <= edges(inc)
    assert edges(inc) == edges(full) | edges(early)
    s = open_store(inc)
    s.store_many(items(660, 600, topics=30))  # more than doubled: new cells
    links_run(s)
    assert s.meta("consolidate.ivf") != cells
    s.close()


def test_status_changes_refill_lists(tmp_path: Path) -> None:
    """An archived memory leaves its neighbours' lists; a restored one gets its own: as a run from scratch."""
    inc, full, early = tmp_path / "inc.db", tmp_path / "full.db", tmp_path / "early.db"
    data = items(0, 300)
    gone, back = [7, 50, 120], 200
    for path in (inc, early):
        s = open_store(path)
        s.store_many(data)
        s.conn.execute("UPDATE memories SET status = 'archived' WHERE id = ?", (back,))
        links_run(s)
        s.close()
    s = open_store(inc)
    s.conn.execute(f"UPDATE memories SET status = 'archived' WHERE id IN ({','.join(map(str, gone))})")
    s.conn.execute("UPDATE memories SET status = 'active' WHERE id = ?", (back,))
    c = links_run(s)
    assert c["new_memories"] == 0 and c["requeried"] > len(gone)
    s.close()
    s = open_store(full)
    s.store_many(data)
    s.conn.execute(f"UPDATE memories SET status = 'archived' WHERE id IN ({','.join(map(str, gone))})")
    links_run(s)
    s.close()
    assert edges(full) <= edges(inc)  # nothing a run from scratch would link is missing
    assert edges(inc) == edges(early) | edges(full)
    assert not any(back in e[:2] for e in edges(early))
    assert any(back in e[:2] for e in edges(inc) if e[2] == "semantic")  # the restored memory's own links
    assert any(e[2] == "temporal" and e not in edges(early) and back not in e[:2] for e in edges(inc))  # bridges


def test_killed_run_is_completed_by_the_next(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    s = open_store(a)
    s.store_many(items(0, 250))
    links_run(s)
    s.store_many(items(250, 60))
    s.close()
    shutil.copy(a, b)
    s = open_store(b)
    links_run(s)  # uninterrupted
    s.close()

    calls = {"n": 0}
    real = links.add_edges

    def dying(*args: object, **kw: object) -> int:
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt  # killed between two transactions
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(links, "EDGE_CHUNK", 20)
    monkeypatch.setattr(links, "add_edges", dying)
    s = open_store(a)
    with pytest.raises(KeyboardInterrupt):
        links_run(s)
    assert 0 < len(edges(a)) < len(edges(b))
    monkeypatch.setattr(links, "add_edges", real)
    c = links_run(s)
    assert c["new_memories"] == 60  # the marks had not moved: the work is redone
    s.close()
    assert edges(a) == edges(b)


# --------------------------------------------------------------------------- the other phases in worker processes

def dump(path: Path) -> dict[str, list[tuple]]:
    with sqlite3.connect(path) as c:
        return {
            "memories": c.execute("SELECT id, content, level, status, metadata, valid_to FROM memories ORDER BY id").fetchall(),
            "clusters": c.execute("SELECT id, level, parent_id, summary_memory_id, member_count, label, status "
                                  "FROM clusters ORDER BY id").fetchall(),
            "members": c.execute("SELECT * FROM cluster_members ORDER BY 1, 2").fetchall(),
            "edges": c.execute("SELECT source_id, target_id, edge_type, weight FROM associations ORDER BY 1, 2, 3").fetchall(),
            "contradictions": c.execute("SELECT memory_a, memory_b, kind, status FROM contradictions ORDER BY 1, 2").fetchall(),
        }


def test_whole_run_identical_with_worker_processes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from memengine import pool

    monkeypatch.setattr(pool, "MIN_ITEMS", 2)
    facts = [core.NewMemory(content=f"topic {i % 20} fact {i}: my {w} is {i % 7}", memory_type="semantic",
                            source="test", ref=f"f{i}") for i, w in enumerate(["car", "phone", "city"] * 30)]
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    s = open_store(a)
    s.store_many(items(0, 300, topics=20) + facts)
    s.close()
    shutil.copy(a, b)
    reports = {}
    for path, workers in ((a, "1"), (b, "2")):
        monkeypatch.setenv("MEM_WORKERS", workers)
        before = pool.POOLS_RUN[0]
        s = open_store(path)
        reports[workers] = cons.run(s, now=NOW, keep_backups=0).counts()
        s.close()
        assert (pool.POOLS_RUN[0] > before) == (workers == "2")  # summaries and contradiction checks forked
    assert reports["1"] == reports["2"]
    assert reports["1"]["summarize"]["summaries_created"] >= 10
    assert reports["1"]["contradict"]["pairs_checked"] >= 10
    assert dump(a) == dump(b)
