"""Episode vectors are derived from their messages' stored vectors, at import and at reindex (issue 22).

The model read only the first 256 tokens of an episode's text; embedding it was ~40 % of a
WhatsApp import's model time. An episode's vector is now the normalised mean of its members'.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from embedder import HashEmbedder
from memengine.chat_episodes import build_episodes
from memory_core import MemoryStore, NewMemory

T0 = datetime(2024, 6, 8, 16, 0)
TEXTS = ["are we still on for friday?", "yes! where?", "the pizza place near the station", "great, 8 pm?",
         "did you book the train to Lyon?", "not yet", "booking it now, 8:15 departure", "send me the seat"]


class Recording(HashEmbedder):
    """The test embedder, remembering every text it was asked to embed."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[str] = []

    def embed(self, texts: list[str], batch_size: int = 16) -> np.ndarray:
        self.seen.extend(texts)
        return super().embed(texts, batch_size)


def _chat() -> list[NewMemory]:
    minutes = [0, 1, 2, 3, 120, 121, 122, 123]  # two stretches, two hours apart
    return [NewMemory(content=f"{'Ana' if i % 2 == 0 else 'Ben'}: {t}", ref=f"m{i}", source="chat", thread="ana",
                      position=i, author="Ana" if i % 2 == 0 else "Ben", event_at=T0 + timedelta(minutes=minutes[i]))
            for i, t in enumerate(TEXTS)]


def _episodes(store: MemoryStore) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for eid, mid in store.conn.execute(
            "SELECT a.target_id, a.source_id FROM associations a JOIN memories m ON m.id = a.target_id "
            "WHERE a.edge_type = 'part_of' AND json_extract(m.metadata, '$.kind') = 'episode'"):
        out.setdefault(int(eid), []).append(int(mid))
    return out


def _assert_derived(store: MemoryStore) -> None:
    eps = _episodes(store)
    assert len(eps) == 2 and sorted(len(m) for m in eps.values()) == [4, 4]
    for eid, members in eps.items():
        vecs = store.vectors([eid, *members])
        mean = np.mean([vecs[m] for m in members], axis=0)
        cos = float(vecs[eid] @ mean) / float(np.linalg.norm(vecs[eid]) * np.linalg.norm(mean))
        assert cos > 0.999  # the stored int8 form of the normalised mean
        own = HashEmbedder().embed([store.get(eid).content])[0]
        assert float(vecs[eid] @ own) < 0.99  # not the embedding of its text


def test_build_episodes_derives_vectors_without_embedding_episode_text(db_path: Path) -> None:
    emb = Recording()
    store = MemoryStore(db_path, embedder=emb)
    store.store_many(_chat())
    assert build_episodes(store, "chat", "ana") == 2
    assert emb.seen == [m.content for m in _chat()]  # the messages, once each; no episode text
    _assert_derived(store)
    store.close()


def test_reindex_derives_episode_vectors_too(db_path: Path) -> None:
    store = MemoryStore(db_path, embedder=Recording())
    store.store_many(_chat())
    build_episodes(store, "chat", "ana")
    emb = Recording()
    store.close()
    store = MemoryStore(db_path, embedder=emb)
    assert store.reindex()["embedded"] == 10
    assert sorted(emb.seen) == sorted(m.content for m in _chat())
    _assert_derived(store)
    # a lost episode vector comes back derived (doctor --fix path)
    eid = next(iter(_episodes(store)))
    store.conn.execute("DELETE FROM vec_memories WHERE memory_id = ?", (eid,))
    emb.seen.clear()
    assert store.reindex(only_missing=True)["embedded"] == 1
    assert emb.seen == []
    _assert_derived(store)
    store.close()


def test_store_many_with_given_vectors(store: MemoryStore) -> None:
    items = [NewMemory(content=f"note {i}", ref=f"n{i}", source="x") for i in range(3)]
    given = [np.eye(384, dtype=np.float32)[i] for i in range(3)]
    with pytest.raises(ValueError):
        store.store_many(items, vectors=given[:2])
    res = store.store_many(items + items[:1], vectors=given + given[:1])  # the repeat is a duplicate by ref
    assert res.added == 3 and res.duplicates == 1
    vecs = store.vectors(res.ids)
    for i, mid in enumerate(res.ids):
        assert float(vecs[mid] @ given[i]) > 0.999
