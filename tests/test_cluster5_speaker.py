"""Chat turns group by subject, not by who spoke (memengine/cluster_authors.py).

The hash embedder is a bag of words: a turn ``Keiko Hana Mori Sato Aoi: boiler radiator plumber w7``
shares five words with every turn of its author and three with every turn of its subject, so
on the raw vectors the author dominates, as a real model's ``Author: text`` vector does for a
short turn. Consolidate's clusters and the brief's parts must follow the subject all the same.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import numpy as np
import pytest

import memory_core
from memengine import brief, brief_pool, cluster_authors, cluster_split, consolidate, ingest
from memengine.cli.common import TopicId

AUTHORS = ("Keiko Hana Mori Sato Aoi", "Bruno Levi Costa Pires Nunes")
SUBJECTS = {"boiler": "boiler radiator plumber", "cat": "cat vet kibble", "wedding": "wedding venue dress"}


def _chat(path: Path) -> Path:
    """A WhatsApp export: 3 rounds x 3 subjects x 2 authors, every turn with a word of its own."""
    lines = []
    n = 0
    for rnd in range(3):
        for words in SUBJECTS.values():
            for author in AUTHORS:
                n += 1
                lines.append(f"0{1 + n // 10}/03/2024, 1{n % 10}:0{rnd} - {author}: {words} w{n}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _tag(content: str) -> str:
    """``boiler/K``: the turn's subject and its author's initial."""
    author, text = content.split(": ", 1)
    return f"{text.split()[0]}/{author[0]}"


BY_SUBJECT = [[f"{s}/{a}" for a in "BBBKKK"] for s in ("boiler", "cat", "wedding")]
BY_AUTHOR = [sorted(f"{s}/{a}" for s in ("boiler", "cat", "wedding") for _ in range(3)) for a in "BK"]


def _store(tmp_path: Path) -> memory_core.MemoryStore:
    store = memory_core.MemoryStore(tmp_path / "chat.db")
    ingest.import_path(store, _chat(tmp_path / "chat.txt"), "whatsapp")
    return store


def _parts(store: memory_core.MemoryStore) -> list[list[str]]:
    pool = brief_pool.topic_pool(store)
    key = brief_pool.parts(pool, brief_pool.similarities(store, [p[0] for p in pool], by_subject=True), 6)
    return sorted(sorted(_tag(p[1]) for p, k in zip(pool, key) if k == part) for part in set(key))


def _topics(store: memory_core.MemoryStore) -> list[list[str]]:
    consolidate.run(store, now=datetime(2024, 3, 10), keep_backups=0)
    got: dict[int, list[str]] = {}
    for cid, content in store.conn.execute(
            """SELECT cm.cluster_id, m.content FROM cluster_members cm JOIN clusters c ON c.id = cm.cluster_id
               JOIN memories m ON m.id = cm.memory_id WHERE c.level = 1 AND c.status = 'active'"""):
        got.setdefault(int(cid), []).append(_tag(content))
    return sorted(sorted(v) for v in got.values())


def test_parts_and_topics_follow_the_subject(tmp_path: Path) -> None:
    store = _store(tmp_path)
    assert _parts(store) == BY_SUBJECT  # before consolidate: the brief's parts
    assert _topics(store) == BY_SUBJECT  # consolidate's level-1 clusters
    store.close()


def test_without_the_correction_they_follow_the_speaker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bug this fixes, on the same chat: proves the data makes the author dominate."""
    monkeypatch.setattr(cluster_authors, "ENABLED", False)
    monkeypatch.setattr(cluster_split, "ENABLED", False)  # (round 14's split would part the subjects by their words)
    store = _store(tmp_path)
    assert _topics(store) == BY_AUTHOR
    store.close()


def test_stored_vectors_and_centroids_are_not_changed(tmp_path: Path) -> None:
    store = _store(tmp_path)
    ids = [int(r[0]) for r in store.conn.execute("SELECT id FROM memories ORDER BY id")]
    before = store.vectors(ids)
    consolidate.run(store, now=datetime(2024, 3, 10), keep_backups=0)
    after = store.vectors(ids)
    assert all(np.array_equal(before[i], after[i]) for i in ids)
    # a centroid is the normalised mean of its members' stored vectors, not of the corrected ones
    for cid, cent in store.conn.execute("SELECT id, centroid FROM clusters WHERE level = 1 AND status = 'active'"):
        members = [int(r[0]) for r in store.conn.execute(
            "SELECT memory_id FROM cluster_members WHERE cluster_id = ?", (cid,))]
        mean = np.mean([after[m] for m in members], axis=0)
        assert np.allclose(np.frombuffer(cent, dtype=np.float32), mean / np.linalg.norm(mean), atol=1e-6)
    store.close()


def test_without_speaker_exact() -> None:
    e = np.eye(4, dtype=np.float32)
    # author a: e0 (voice) + e2 / e3 (subjects); author b: e1 + e2 / e3; 5 rows each (MIN_ROWS)
    rows, authors = [], []
    for author, voice in (("a", e[0]), ("b", e[1])):
        for k in range(5):
            v = voice + (e[2] if k % 2 else e[3])
            rows.append(v / np.linalg.norm(v))
            authors.append(author)
    vecs = np.stack(rows)
    out = cluster_authors.without_speaker(vecs, authors)  # common=1.0: only the offset
    # a's offset from the mean speaker, (e0 - e1) / 2 / sqrt(2), is gone: both voices become (e0 + e1) / 2
    want = (e[0] + e[1]) / 2 + e[2]
    assert np.allclose(out[1], want / np.linalg.norm(want), atol=1e-6)
    assert np.allclose(out[6], out[1], atol=1e-6)  # same subject, other author: now the same vector
    assert np.allclose(vecs[1], (e[0] + e[2]) / np.sqrt(2))  # the input is not changed
    full = cluster_authors.without_speaker(vecs, authors, common=0.0)
    assert float(full[1] @ full[6]) == pytest.approx(1.0)
    assert float(full[1] @ full[0]) == pytest.approx(-1.0)  # each author's whole mean removed
    # nothing to tell apart: the same array back
    assert cluster_authors.without_speaker(vecs, ["a"] * 10) is vecs
    assert cluster_authors.without_speaker(vecs, ["a"] * 5 + ["b"] * 4 + [None]) is vecs  # b has 4 < 5 rows
    # rows without an author, and authors with too few rows, are left as they are
    out = cluster_authors.without_speaker(np.vstack([vecs, e[2:3]]), authors + [None])
    assert np.array_equal(out[10], e[2])
    mixed = cluster_authors.without_speaker(np.vstack([vecs, e[3:4]]), authors + ["c"])
    assert np.array_equal(mixed[10], e[3])


def test_split_cluster_parts_have_unique_labels() -> None:
    parts = [brief.Topic(7, p, "x", 3, parts=3) for p in range(3)]
    assert [t.label() for t in parts] == ["T7.1", "T7.2", "T7.3"]
    assert parts[1].title() == "T7.2 · x (3 memories)"
    assert brief.Topic(7, 0, "x", 3).label() == "T7"
    assert brief.Topic(None, 0, "x", 3).label() is None
    assert TopicId().convert("T7.2", None, None) == 7  # what brief shows can be typed back
    assert TopicId().convert("t12", None, None) == 12
