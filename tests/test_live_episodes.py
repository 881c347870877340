"""Threads stored live get the episodes an import makes (memengine/chat_episodes.py)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from conftest import run_cli

import memory_core
from memengine import chat_episodes
from memengine.chat_episodes import EPISODE_GAP, EPISODE_MAX, build_episodes, close_all, close_thread
from memory_core import NewMemory, RecallConfig

T0 = datetime(2024, 6, 8, 16, 0)
# three stretches: 0-2, then (after 2 h) 3-5, then (after 3 h) 6-7
MINUTES = [0, 1, 2, 120, 121, 123, 300, 302]
TEXTS = ["are we still on for friday?", "yes! where?", "the pizza place near the station",
         "did you book the train to Lyon?", "not yet", "booking it now, 8:15 departure",
         "the pizza was great", "agreed"]


def _msg(i: int) -> NewMemory:
    author = "Ana" if i % 2 == 0 else "Ben"
    return NewMemory(content=f"{author}: {TEXTS[i]}", ref=f"m{i}", source="chat", thread="ana", position=i,
                     author=author, event_at=T0 + timedelta(minutes=MINUTES[i]))


def _episodes(store) -> list[list[str]]:
    """Each episode's member refs, in episode order."""
    out = []
    for (eid,) in store.conn.execute("SELECT id FROM memories WHERE json_extract(metadata, '$.kind') = 'episode' "
                                     "ORDER BY event_at, id"):
        refs = store.conn.execute("SELECT m.ref FROM associations a JOIN memories m ON m.id = a.source_id "
                                  "WHERE a.target_id = ? AND a.edge_type = 'part_of' ORDER BY m.position",
                                  (eid,)).fetchall()
        out.append([r[0] for r in refs])
    return out


def test_a_live_thread_closes_a_stretch_only_when_the_next_one_starts(store) -> None:
    made = []
    for i in range(len(MINUTES)):
        store.store_many([_msg(i)])
        made.append(close_thread(store, "chat", "ana", at=T0 + timedelta(minutes=MINUTES[i])))
    # the first stretch closes when message 3 comes two hours later; the second with message 6
    assert made == [0, 0, 0, 1, 0, 0, 1, 0]
    assert _episodes(store) == [["m0", "m1", "m2"], ["m3", "m4", "m5"]]
    # the last stretch is still open; quiet for EPISODE_GAP, it closes (consolidate's phase)
    assert close_all(store, at=T0 + timedelta(minutes=302) + EPISODE_GAP - timedelta(seconds=1)) == 0
    assert close_all(store, at=T0 + timedelta(minutes=302) + EPISODE_GAP) == 1
    assert _episodes(store)[-1] == ["m6", "m7"]
    assert close_all(store, at=T0 + timedelta(days=30)) == 0  # nothing left to close, nothing made twice


def test_live_episodes_equal_the_import_ones(store, tmp_path) -> None:
    for i in range(len(MINUTES)):
        store.store_many([_msg(i)])
        close_thread(store, "chat", "ana", at=T0 + timedelta(minutes=MINUTES[i]))
    close_all(store, at=T0 + timedelta(days=1))
    other = memory_core.MemoryStore(tmp_path / "import.db")
    try:
        other.store_many([_msg(i) for i in range(len(MINUTES))])
        assert build_episodes(other, "chat", "ana") == 3
        assert _episodes(other) == _episodes(store)
        # same edges between episodes: each temporal edge joins an episode to the next
        def chain(s):
            return s.conn.execute("SELECT count(*) FROM associations WHERE edge_type = 'temporal'").fetchone()[0]
        assert chain(store) == chain(other) == 2
    finally:
        other.close()


def test_a_full_stretch_closes_without_a_pause(store) -> None:
    msgs = [NewMemory(content=f"Ana: line {i}", ref=f"f{i}", source="chat", thread="busy", position=i, author="Ana",
                      event_at=T0 + timedelta(seconds=10 * i)) for i in range(EPISODE_MAX + 1)]
    store.store_many(msgs[:EPISODE_MAX])
    at = T0 + timedelta(seconds=10 * EPISODE_MAX)
    assert close_thread(store, "chat", "busy", at=at) == 1  # full: nothing more can join it
    store.store_many(msgs[EPISODE_MAX:])
    assert close_thread(store, "chat", "busy", at=at) == 0  # one open message is no episode
    assert chat_episodes.open_threads(store) == []  # (a single open message is not an open thread)


def test_store_thread_on_the_command_line_builds_episodes_and_recall_returns_messages() -> None:
    def store(text: str, at: str) -> dict:
        res = run_cli("store", text, "--type", "episodic", "--thread", "trip", "--author", "Ana", "--at", at)
        assert res.returncode == 0, res.stderr
        return json.loads(res.stdout)["data"]

    first = [store("Ana: shall we take the night train to Vienna?", "2024-03-01 20:00"),
             store("Ana: the sleeper leaves at 22:10", "2024-03-01 20:02"),
             store("Ana: I booked two couchettes", "2024-03-01 20:05")]
    assert all("episodes" not in d for d in first)  # the stretch may still grow
    later = store("Ana: back home, the trip was lovely", "2024-03-05 09:00")
    assert later["episodes"] == 1
    res = run_cli("recall", "night train Vienna sleeper couchettes", "-k", "3", "--strategy", "keyword")
    assert res.returncode == 0, res.stderr
    results = json.loads(res.stdout)["data"]["results"]
    # the episode matched the burst; the person sees its messages
    assert results and all(not (r.get("metadata") or {}).get("kind") == "episode" for r in results)
    assert results[0]["content"].startswith("Ana: ")
    # consolidate closes the last stretch (one message: no episode) and reports the phase
    out = run_cli("consolidate", "--phases", "episodes", "--keep-backups", "0")
    assert out.returncode == 0, out.stderr


def test_recall_resolves_a_live_episode_to_its_best_member(store) -> None:
    for i in range(len(MINUTES)):
        store.store_many([_msg(i)])
        close_thread(store, "chat", "ana", at=T0 + timedelta(minutes=MINUTES[i]))
    raw = store.recall("train Lyon departure booking", k=3, strategy="keyword", touch=False,
                       config=RecallConfig(resolve_episodes=False))
    assert raw.results[0].ref == "episode:m3"
    res = store.recall("train Lyon departure booking", k=3, strategy="keyword", touch=False)
    assert [m.ref for m in res.results][0] in {"m3", "m5"}
    assert not any((m.ref or "").startswith("episode:") for m in res.results)
