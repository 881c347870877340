"""Episodes are retrieval units; the results are their member messages (memengine/recall/episodes.py)."""

from __future__ import annotations

from datetime import datetime, timedelta

from memengine.ingest import build_episodes
from memory_core import NewMemory, RecallConfig

T0 = datetime(2024, 6, 8, 16, 0)
CHAT = [
    ("Ana", "are we still on for friday?"),
    ("Ben", "yes! where?"),
    ("Ana", "the pizza place near the station"),
    ("Ben", "ok"),
    ("Ana", "booked a table for seven"),
    ("Ben", "perfect, see you there"),
]


def _chat(store) -> None:
    store.store_many([
        NewMemory(content=f"{a}: {t}", ref=f"m{i}", source="whatsapp", thread="ana", position=i,
                  author=a, event_at=T0 + timedelta(minutes=i))
        for i, (a, t) in enumerate(CHAT)])
    assert build_episodes(store, "whatsapp", "ana") == 1


def _refs(store, query: str, **cfg) -> list[str]:
    res = store.recall(query, k=4, strategy="keyword", touch=False, config=RecallConfig(**cfg))
    return [m.ref or "" for m in res.results]


def test_an_episode_hit_gives_its_place_to_its_best_member(store) -> None:
    _chat(store)
    raw = _refs(store, "pizza table friday", resolve_episodes=False)
    assert raw[0] == "episode:m0"  # the burst holds all three words; no single message does
    resolved = _refs(store, "pizza table friday")
    assert not any(r.startswith("episode:") for r in resolved)
    # the episode's place goes to its best member (m2, the next result), nothing is shown
    # twice, and the freed slot goes to the next candidate (m1)
    assert raw == ["episode:m0", "m2", "m0", "m4"]
    assert resolved == ["m2", "m0", "m4", "m1"]


def test_an_episode_whose_members_are_no_candidates_stays(store) -> None:
    _chat(store)
    ep = store.conn.execute("SELECT id FROM memories WHERE ref = 'episode:m0'").fetchone()[0]
    # messages archived by decay: the episode is all that is left of that stretch (a forgotten message forgets its
    # episodes too, users34: their text holds its words)
    with store.conn:
        store.conn.execute("UPDATE memories SET status = 'archived' WHERE ref LIKE 'm%'")
    assert ep and _refs(store, "pizza table friday") == ["episode:m0"]
