"""The brief's indexed reads (m011_brief) give exactly what its scans of every row gave.

Each test builds a store with the awkward cases (case variants of an author, summaries with an
author, forgotten and superseded rows, contacts, more writers than the People section shows)
and compares the new reads with the queries they replaced, kept here as the reference.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import memory_core as core
from memengine import brief, brief_people, brief_pool
from memengine.db import write_tx

T0 = datetime.fromisoformat("2029-03-01T09:00:00")


def _old_people_stats(store: core.MemoryStore) -> dict[str, tuple[int, int, str | None, str | None]]:
    """The scan people_lines ran before m011: every author's rows, grouped."""
    known = store.known_people()
    stats: dict[str, tuple[int, int, str | None, str | None]] = {}
    for r in store.conn.execute(
            """SELECT author, count(*), count(DISTINCT thread), min(coalesce(event_at, created_at)),
                      max(coalesce(event_at, created_at)) FROM memories
               WHERE status = 'active' AND author IS NOT NULL AND level = 0 GROUP BY author"""):
        name = known.get(str(r[0]).lower())
        if name is not None:
            n, t, lo, hi = stats.get(name, (0, 0, None, None))
            stats[name] = (n + int(r[1]), t + int(r[2]), min(filter(None, (lo, r[3])), default=None),
                           max(filter(None, (hi, r[4])), default=None))
    return stats


def _people_store(store: core.MemoryStore) -> None:
    # 13 writers (more than PEOPLE_MAX), in several chats, with different counts
    for k in range(13):
        for i in range(k + 1):
            store.store(f"message {i} from writer {k} about the trip to Lisbon", "episodic",
                        thread=f"chat-{i % 3}", author=f"Writer{chr(65 + k)}",
                        event_at=datetime(2029, 3, 1 + i, 9 + k % 5), dedup=False)
    # one person under two spellings: one line, counts added
    store.store("case variant one", "episodic", thread="x", author="Writerm", event_at=T0, dedup=False)
    # a forgotten row and a summary with an author do not count
    gone = store.store("forgotten line", "episodic", thread="y", author="WriterA", event_at=T0, dedup=False).id
    store.forget(gone)
    summary = store.store("a summary row", "semantic", author="WriterB", dedup=False).id
    with write_tx(store.conn):
        store.conn.execute("UPDATE memories SET level = 1 WHERE id = ?", (summary,))
    # a contact who wrote nothing, and a contact who writes
    meta = {"name": "Zoe Card", "phones": [], "emails": [], "org": "Acme", "birthday": None}
    store.store("Zoe Card — org Acme; title Engineer", "semantic", source="vcf", ref="vcf:z", metadata=meta)
    with write_tx(store.conn):
        store.conn.execute("INSERT INTO aliases(alias, name, kind, created_at) VALUES ('zoe card', 'Zoe Card', 'person', '2029')")


def test_people_lines_read_by_index_match_the_old_scan(store: core.MemoryStore) -> None:
    _people_store(store)
    lines = brief.people_lines(store)
    old = _old_people_stats(store)
    shown = [line for line, _ in lines]
    assert len(shown) == brief.PEOPLE_MAX
    # the busiest nine writers (case variants merged), then the one contact who wrote nothing
    writers = sorted((n for n in old if old[n][0] > 0), key=lambda n: (-old[n][0], n))
    assert [s.split(":")[0] for s in shown[:-1]] == writers[: brief.PEOPLE_MAX - 1]
    assert shown[-1].startswith("Zoe Card (#")
    for line in shown[:-1]:
        name = line.split(":")[0]
        n, threads, lo, hi = old[name]
        span = lo[:10] if lo[:10] == hi[:10] else f"{lo[:10]} – {hi[:10]}"
        # (brief23: the line goes on with what its person said last, brief_people.STATE_SEP ...)
        assert line.split(brief_people.STATE_SEP)[0] == \
            f"{name}: wrote {n} memories in {threads} {'chat' if threads == 1 else 'chats'} ({span})"
    merged = store.known_people()["writerm"]  # one of the two spellings names both
    assert old[merged][0] == 14  # 13 as WriterM, 1 as Writerm
    assert f"{merged}: wrote 14 memories in 4 chats" in "\n".join(shown)


def test_indexed_reads_use_their_index(store: core.MemoryStore) -> None:
    _people_store(store)
    plans = {
        "author": "SELECT count(DISTINCT thread) FROM memories WHERE author = 'x' AND status = 'active' AND level = 0",
        "summaries": "SELECT author, count(*) FROM memories WHERE level > 0 AND +status = 'active' "
                     "AND +author IS NOT NULL GROUP BY author",
        "contacts": "SELECT id FROM memories WHERE source = 'vcf' AND status = 'active' AND valid_to IS NULL",
    }
    for what, sql in plans.items():
        plan = " ".join(r[3] for r in store.conn.execute("EXPLAIN QUERY PLAN " + sql))
        assert "SCAN memories" not in plan and "USING" in plan, (what, plan)


def _old_key_facts(store: core.MemoryStore) -> list[tuple[Any, ...]]:
    return [tuple(r) for r in store.conn.execute(
        f"""SELECT m.id, m.content, coalesce(m.event_at, m.created_at), m.pinned, m.importance, m.source
            FROM memories m
            WHERE {brief._LIVE} AND m.source != 'vcf' AND (m.pinned = 1 OR (m.memory_type = 'semantic' AND
            m.importance >= ?)) ORDER BY m.pinned DESC, m.importance DESC, m.id DESC LIMIT 200""",
        (brief.KEY_FACT_IMPORTANCE,))]


def test_key_fact_rows_match_the_old_query(store: core.MemoryStore) -> None:
    for i in range(30):
        kind = ("semantic", "episodic", "procedural")[i % 3]
        m = store.store(f"fact number {i} about the boiler service", kind, importance=(i % 10) / 10,
                        dedup=False)
        if i % 7 == 0:
            store.set_pinned(m.id, True)
    store.store("Zoe Card — org Acme", "semantic", source="vcf", ref="vcf:z", importance=0.9,
                metadata={"name": "Zoe Card"})
    gone = store.store("a superseded important fact", "semantic", importance=0.95).id
    with write_tx(store.conn):
        store.conn.execute("UPDATE memories SET valid_to = '2029-01-01T00:00:00' WHERE id = ?", (gone,))
    got = [tuple(r) for r in brief._key_fact_rows(store.conn)]
    assert got == _old_key_facts(store) and len(got) == 8
    assert [tuple(r) for r in brief._key_fact_rows(store.conn, limit=3)] == _old_key_facts(store)[:3]


def _old_central(conn: Any) -> list[int]:
    order: list[int] = []
    seen: set[int] = set()
    for (mid,) in conn.execute(
            """WITH ranked AS (
                   SELECT cm.memory_id AS mid, cm.cluster_id AS cid, c.member_count AS size,
                          row_number() OVER (PARTITION BY cm.cluster_id
                                             ORDER BY cm.similarity DESC, cm.memory_id) AS r
                   FROM cluster_members cm JOIN clusters c ON c.id = cm.cluster_id
                   WHERE c.status = 'active' AND c.level = 1)
               SELECT mid FROM ranked WHERE r <= ? ORDER BY size DESC, cid, r""", (brief_pool.POOL_PER_TOPIC,)):
        if mid not in seen:
            seen.add(mid)
            order.append(int(mid))
            if len(order) >= 2 * brief_pool.POOL_MAX:
                break
    return order


def test_central_members_match_the_old_ranking(store: core.MemoryStore, monkeypatch: Any) -> None:
    ids = [store.store(f"note {i} on the garden", "semantic", dedup=False).id for i in range(60)]
    with write_tx(store.conn):
        for c in range(6):
            # sizes tie in pairs (order by id then), similarities tie and are missing in places
            store.conn.execute("INSERT INTO clusters(id, level, member_count, status, created_at, updated_at) "
                               "VALUES (?, 1, ?, ?, '2029', '2029')",
                               (c + 1, 10 + c // 2, "merged" if c == 5 else "active"))
            for k in range(10 + c // 2):
                sim = None if k == 3 else round(1 - (k % 4) / 10, 2)
                store.conn.execute("INSERT INTO cluster_members(cluster_id, memory_id, similarity, added_at) "
                                   "VALUES (?, ?, ?, '2029')", (c + 1, ids[(c * 7 + k) % 60], sim))
    monkeypatch.setattr(brief_pool, "POOL_PER_TOPIC", 4)
    assert brief_pool.central_members(store.conn) == _old_central(store.conn)
    monkeypatch.setattr(brief_pool, "POOL_MAX", 8)  # stops at 2 * POOL_MAX, as the old one did
    assert brief_pool.central_members(store.conn) == _old_central(store.conn)
    assert len(_old_central(store.conn)) == 16


def test_pool_beyond_pool_max_matches_the_old_order(store: core.MemoryStore, monkeypatch: Any) -> None:
    monkeypatch.setattr(brief_pool, "POOL_MAX", 12)
    for i in range(40):
        m = store.store(f"turn {i} about the move to Porto", "episodic", thread="c", author="Ana",
                        importance=(i % 5) / 5, event_at=datetime(2029, 4, 1 + i % 20, 9), dedup=False)
        if i % 11 == 0:
            store.set_pinned(m.id, True)
    with write_tx(store.conn):
        store.conn.execute("UPDATE memories SET metadata = ? WHERE id = 5", (json.dumps({"kind": "episode"}),))
    live = f"{brief._LIVE} AND m.source != 'vcf'"
    want = [int(r[0]) for r in store.conn.execute(
        f"""SELECT m.id FROM memories m WHERE {live} ORDER BY m.pinned DESC, m.importance DESC,
            coalesce(m.event_at, m.created_at) DESC, m.id DESC LIMIT 12""")]
    ranked = [want[3], want[0], 39]
    pool = brief_pool.topic_pool(store, ranked)
    # the ranked ids come first (in id order, as the old IN list read them), then the rest by rank
    assert [p[0] for p in pool] == sorted({want[3], want[0], 39}) + [i for i in want if i not in ranked][:9]
    assert all(p[1].startswith("turn ") for p in pool) and 5 not in [p[0] for p in pool]


def test_counting_topic_lines_lazily_changes_nothing(store: core.MemoryStore) -> None:
    """With a tokenizer's count, topic lines are counted only when they could be chosen: same selection."""
    import re

    from memengine import consolidate as cons
    from memengine.timeparse import utcnow

    subjects = ["the boiler service in flat 3", "Mia's school start on 14 September", "the Porto move and the van",
                "invoice runner retries at 02:00 UTC", "the half marathon training plan", "Lena's kids Mia and Paul"]
    for i in range(90):
        subject = subjects[i % len(subjects)]
        words = " ".join(["really"] * (i % 7))
        store.store(f"note {i}: about {subject}, {words} we said {i * 37 % 101} things, ok?", "episodic",
                    thread=f"chat-{i % 4}", author=("Ana", "Ben", "Caro")[i % 3],
                    event_at=datetime(2029, 5, 1 + i % 28, 8 + i % 12), dedup=False)
    now = utcnow().replace(microsecond=0)
    cons.run(store, now=now, keep_backups=0)
    calls: list[str] = []

    def pieces(text: str) -> int:  # >= 1 per word, looser than a bound: many lines need counting
        calls.append(text)
        return len(re.findall(r"[^\W_]{1,4}|[^\w\s]", text))

    for budget in (60, 300, 900, 4000):
        calls.clear()
        eager = brief.select(store, budget, now, pieces, "approximate")
        eager_calls = len(calls)
        calls.clear()
        lazy = brief.select(store, budget, now, pieces, "tokenizer")
        assert lazy.text() == eager.text()
        assert [i.to_dict() for i in lazy.chosen()] == [i.to_dict() for i in eager.chosen()]
        assert lazy.tokens == eager.tokens <= budget
        # the point: fewer lines counted (at 4000 every line that says something fits: all are counted)
        assert len(calls) < eager_calls if budget < 4000 else len(calls) <= eager_calls
        for line in list(calls):
            assert brief_pool.min_tokens(line[2:]) <= pieces(line)
