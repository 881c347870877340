"""Brief, round 5: topic headings that say something, informative cuts of long memories, a bare "the 9th"
placed by the month said before it, a moved plan matched by what its change names, no level-1 cluster of
fewer than three memories."""
from __future__ import annotations

from datetime import date, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest
from conftest import chat_turns

import memory_core as core
from memengine import brief, brief_dates, brief_upcoming, clustering, graph_rank, memorymd
from memengine import consolidate as cons
from memengine.timeparse import utcnow

NOW = utcnow().replace(microsecond=0)  # (consolidate at a later "now" would archive them: decay)


def _clustered(store: core.MemoryStore) -> None:
    lines = ["the adoption agency called about the home visit on Tuesday", "we filled in the adoption agency forms",
             "adoption agency interview is at 10:30 with Mrs Okafor"]
    for i, text in enumerate(lines * 3):  # the fake embedder groups a line with its "again"s
        store.store(text + ("", " again", " again!")[i // len(lines)], "episodic", thread="family", author="Ana",
                    event_at=NOW - timedelta(days=2) + timedelta(hours=i), dedup=False)
    cons.run(store, now=NOW, keep_backups=0)


def test_a_topic_heading_carries_its_lead_line_and_memory_md_shows_it(store: core.MemoryStore, tmp_path: Path) -> None:
    _clustered(store)
    data = graph_rank.brief(store, 2000, now=NOW)
    text = data["text"]
    topics = [t for t in data["topics"] if t["id"] is not None]
    assert topics and data["tokens"] <= 2000
    count, _how = graph_rank.token_counter(store)
    for t in topics:
        lead = next(i for i in data["chosen"] if i["topic"] == t["id"] and i["why"].get("lead"))
        heading = f"### {t['topic']} · {t['name']} ({t['size']} memories) — {lead['text']}"
        assert heading in text.splitlines()
        assert f"- {lead['text']}" not in text.splitlines()  # said once: in the heading
        assert lead["why"]["pick"] == min(i["why"]["pick"] for i in data["chosen"] if i["topic"] == t["id"])
        assert lead["tokens"] == count(f"{heading}\n")  # the heading is what the budget paid for
    md = tmp_path / "MEMORY.md"
    cons.run(store, now=NOW, keep_backups=0, memory_md=md)
    block = md.read_text()
    for t in topics:
        assert any(line.startswith(f"### {t['topic']} · {t['name']}") and " — " in line for line in block.splitlines())


def test_render_block_shows_a_standalone_heading_and_drops_it_whole() -> None:
    sections = [("Key facts", ["the gateway runs on port 8080"]),
                ("T3 · gateway (4 memories) — 2029-03-01 #7 the gateway moved to port 9090", []),
                ("T4 · deploys (3 memories)", [])]
    alone = {sections[1][0]}
    block = memorymd.render_block(sections, 2000, alone)
    assert "### T3 · gateway (4 memories) — 2029-03-01 #7 the gateway moved to port 9090" in block
    assert "T4 · deploys" not in block  # an empty section that says nothing alone is still left out
    short = memorymd.render_block(sections, len(block) - 1, alone)
    assert "T3 · gateway" not in short and "- the gateway runs on port 8080" in short
    assert memorymd.render_block(sections, 2000) == memorymd.render_block(sections[:1], 2000)


def test_a_long_memory_is_cut_to_its_most_informative_sentences() -> None:
    text = ("Well done, that is most of the hard part. Before 14 January: keep Dan's invoices flowing into the same "
            "account so the statements show the income; get the criminal record certificates no earlier than three "
            "months before the appointment (they expire after 90 days); sign or book the accommodation; print "
            "everything twice. Bring the confirmation and the photos.")
    cut = brief.trim(text, 200)
    assert cut.startswith("… Before 14 January: keep Dan's invoices") and len(cut) <= 200
    assert "Well done" not in cut and " … " in cut  # what was left out between the sentences kept is marked
    assert brief.trim("The first sentence is long enough to keep. " + "Second one is much longer " * 20, 80) == \
        "The first sentence is long enough to keep. …"
    assert brief.trim("short", 60) == "short"


def test_a_bare_day_number_is_placed_by_the_month_said_before_it() -> None:
    written = date(2026, 11, 8)
    assert brief_dates.plan_days("winter skills day, £45 each. we said January, let's do the 16th?", written) == \
        [date(2027, 1, 16)]
    assert brief_dates.plan_days("let's do the 16th", written) == []  # nothing said before: not guessed
    assert brief_dates.plan_days("let's do the 16th", written, [("what about January?", written)]) == \
        [date(2027, 1, 16)]
    assert brief_dates.plan_days("let's do the 16th, in January", written) == []  # said after: not a placement
    assert brief_dates.plan_days("in December she came the 3rd time, the 2nd best month", written) == []
    assert brief_dates.needs_context("let's do the 16th")


def test_a_moved_plan_hides_only_the_plan_its_change_names(store: core.MemoryStore) -> None:
    ids = chat_turns(store, "house", [
        ("2026-11-06T18:20:00", "Sven", "Kev says the kitchen worktops are delayed, the fitting moves from 16 November "
                                        "to Monday 30 November"),
        ("2026-11-12T12:15:00", "Sven", "housewarming: Saturday 5 December, 7pm, I'll tell everyone"),
        ("2026-11-17T19:30:00", "Sven", "housewarming is now the 12th instead, the worktops won't be in before")])
    shown, gone = brief_upcoming.plans(store, datetime(2026, 11, 19))
    assert [int(f[0][0]) for f in shown] == [ids[0], ids[2]] and gone == [ids[1]]
    assert [f[1] for f in shown] == [date(2026, 11, 30), date(2026, 12, 12)]


def test_moved_from_a_day_replaces_only_a_plan_of_that_day(store: core.MemoryStore) -> None:
    ids = chat_turns(store, "club", [
        ("2026-10-04T18:20:00", "Jess", "AGM is Thursday 26 November, 7pm, upstairs at the Rambler Inn"),
        ("2026-10-25T20:05:00", "Owen", "Christmas dinner at the Rambler Inn on Saturday 12 December"),
        ("2026-11-10T12:10:00", "Jess", "the AGM moves from Thursday 26 November to Thursday 3 December, the "
                                        "Rambler Inn double-booked the room")])
    shown, gone = brief_upcoming.plans(store, datetime(2026, 11, 19))
    assert gone == [ids[0]] and {int(f[0][0]) for f in shown} == {ids[1], ids[2]}


def _vec(seed: int, base: np.ndarray | None = None, noise: float = 0.0) -> np.ndarray:
    v = np.random.default_rng(seed).normal(size=16)
    if base is not None:
        v = base + noise * v / np.linalg.norm(v)
    return v / np.linalg.norm(v)


class _Steps(clustering.ClusterSteps):
    """ClusterSteps over an in-memory list (no store): what _cluster_level groups."""

    def __init__(self, conn: object) -> None:
        self.conn = conn
        self.now_iso = "2029-06-01T00:00:00"


def test_no_level1_cluster_of_fewer_than_three(store: core.MemoryStore, monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = _vec(1), _vec(2)
    vecs = np.stack([_vec(10 + i, a, 0.2) for i in range(4)] + [_vec(20 + i, b, 0.2) for i in range(2)]).astype(
        np.float32)
    keys = np.arange(1, 7, dtype=np.int64)
    steps = _Steps(store.conn)
    monkeypatch.setattr(clustering.ClusterSteps, "_write_clusters",
                        lambda self, level, keys, vecs, clusters, *rest: setattr(self, "got", clusters))
    steps._cluster_level(1, keys, vecs, np.ones(6, dtype=bool), None, None, 0.3)
    assert sorted(sorted(m) for m in steps.got.values()) == [[0, 1, 2, 3]]  # the pair is no cluster
    steps._cluster_level(2, keys, vecs, np.ones(6, dtype=bool), None, None, 0.3)
    assert sorted(sorted(m) for m in steps.got.values()) == [[0, 1, 2, 3], [4, 5]]  # (a level above: pairs stay)
    # a pair close to a cluster (but not within the threshold) joins it: its members are not left out
    p = _vec(40, a, 0.9)  # the pair: close to each other, less close to the cluster
    near = np.stack([_vec(10 + i, a, 0.2) for i in range(4)] + [_vec(30 + i, p, 0.1) for i in range(2)]).astype(
        np.float32)
    sims = near[4:] @ near[:4].mean(axis=0)
    monkeypatch.setattr(clustering, "SMALL_JOIN_SLACK", 0.0)
    steps._cluster_level(1, keys, near, np.ones(6, dtype=bool), None, None, 1.0 - float(sims.mean()) - 0.02)
    apart = sorted(sorted(m) for m in steps.got.values())
    monkeypatch.setattr(clustering, "SMALL_JOIN_SLACK", 0.05)
    steps._cluster_level(1, keys, near, np.ones(6, dtype=bool), None, None, 1.0 - float(sims.mean()) - 0.02)
    assert [4, 5] not in apart and sorted(sorted(m) for m in steps.got.values()) == [[0, 1, 2, 3, 4, 5]]


def test_an_existing_pair_keeps_its_members(store: core.MemoryStore) -> None:
    _clustered(store)
    cid = store.conn.execute("SELECT id FROM clusters WHERE level = 1 AND status = 'active' ORDER BY id").fetchone()[0]
    members = [r[0] for r in store.conn.execute("SELECT memory_id FROM cluster_members WHERE cluster_id = ?", (cid,))]
    with store.conn:  # a pair made by an older version
        store.conn.execute("DELETE FROM cluster_members WHERE cluster_id = ? AND memory_id = ?", (cid, members[-1]))
        store.conn.execute("UPDATE clusters SET member_count = member_count - 1 WHERE id = ?", (cid,))
    before = {r[0] for r in store.conn.execute("SELECT memory_id FROM cluster_members WHERE cluster_id = ?", (cid,))}
    cons.run(store, now=NOW, keep_backups=0)
    after = {r[0] for r in store.conn.execute(
        """SELECT cm.memory_id FROM cluster_members cm JOIN clusters c ON c.id = cm.cluster_id
           WHERE c.status = 'active' AND c.level = 1""")}
    assert before <= after
