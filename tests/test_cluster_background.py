"""consolidate's level-1 threshold is read above the store's background (memengine/cluster_background.py).

Three subjects of eight notes each, every note also carrying the same long run of words: with the hash
embedder (a bag of words) two notes of different subjects then sit at a cosine above 0.5, as two turns of an
Italian chat do under the English model, and one cluster would hold all three subjects. Read above the
background, each subject is its own topic. A store of the same notes without the shared run has a background
below the reference and clusters exactly as before.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

import memory_core
from memengine import cluster_background, cluster_split, consolidate

SUBJECTS = {
    "boat": "sails mast hull keel rudder winch",
    "bread": "flour starter dough oven crust yeast",
    "bike": "chain saddle brakes gears spokes tyres",
}
SHARED = "today note written kept here again same words every single entry always"


def _store(path: Path, shared: bool) -> memory_core.MemoryStore:
    store = memory_core.MemoryStore(path)
    t0 = datetime(2026, 10, 1, 9, 0)
    n = 0
    for subject, words in SUBJECTS.items():
        for i in range(8):
            text = f"{words} {subject}{i}x {subject}{i}y" + (f" {SHARED}" if shared else "")
            store.store(text, "semantic", importance=0.5, event_at=t0 + timedelta(hours=n), dedup=False)
            n += 1
    return store


def _groups(store: memory_core.MemoryStore) -> list[list[str]]:
    consolidate.run(store, now=datetime(2026, 11, 1), keep_backups=0)
    got: dict[int, list[str]] = {}
    for cid, content in store.conn.execute(
            """SELECT cm.cluster_id, m.content FROM cluster_members cm JOIN clusters c ON c.id = cm.cluster_id
               JOIN memories m ON m.id = cm.memory_id WHERE c.level = 1 AND c.status = 'active'"""):
        got.setdefault(int(cid), []).append(next(s for s in SUBJECTS if content.startswith(SUBJECTS[s])))
    return sorted(sorted(set(v)) for v in got.values())


def test_background_is_the_mean_cosine_of_two_rows() -> None:
    rng = np.random.default_rng(3)
    v = rng.normal(size=(40, 16)) + 2.0  # a common direction: a high background
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    sims = v @ v.T
    brute = (sims.sum() - np.trace(sims)) / (40 * 39)
    assert cluster_background.background(v.astype(np.float32)) == pytest.approx(brute, abs=1e-6)
    assert cluster_background.background(v[:10]) == 0.0  # too few rows to say
    assert cluster_background.distance(0.5, v) == pytest.approx(
        0.5 - min(cluster_background.MAX_SHIFT, brute - cluster_background.BACKGROUND_REF))


def test_a_low_background_keeps_the_threshold() -> None:
    v = np.eye(32, dtype=np.float32)  # orthogonal rows: background 0
    assert cluster_background.distance(0.5, v) == 0.5


def test_a_compressed_store_is_clustered_above_its_background(tmp_path: Path) -> None:
    store = _store(tmp_path / "shared.db", shared=True)
    assert _groups(store) == [["bike"], ["boat"], ["bread"]]
    store.close()


def test_one_subject_per_topic_without_the_correction_too_when_the_background_is_low(tmp_path: Path) -> None:
    store = _store(tmp_path / "plain.db", shared=False)
    assert _groups(store) == [["bike"], ["boat"], ["bread"]]
    store.close()


def test_without_the_correction_the_compressed_store_is_one_topic(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster_background, "MAX_SHIFT", 0.0)  # what the store looked like before round 8
    monkeypatch.setattr(cluster_split, "ENABLED", False)  # (round 14's split would part the subjects by their words)
    store = _store(tmp_path / "shared.db", shared=True)
    assert _groups(store) == [["bike", "boat", "bread"]]
    store.close()


def test_a_rerun_changes_nothing(tmp_path: Path) -> None:
    store = _store(tmp_path / "shared.db", shared=True)
    first = _groups(store)
    members = store.conn.execute("SELECT cluster_id, memory_id FROM cluster_members ORDER BY 1, 2").fetchall()
    assert _groups(store) == first  # the same background, the same threshold: a fixed point
    assert store.conn.execute("SELECT cluster_id, memory_id FROM cluster_members ORDER BY 1, 2").fetchall() == members
    store.close()
