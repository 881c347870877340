"""A store's summaries survive an export imported into another store (serve12; bench/agent_week.py --edges found
9 of 680 lines skipped: a summary's ref, ``cluster:N``, is its cluster's id in the exporting store, and the
importing store's own summary of its cluster N holds the same (source, ref), so the import took it as there)."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from conftest import exported, run_cli

import memory_core as core
from memengine import consolidate as cons

NOW = datetime(2030, 1, 1, 12, 0, 0)


def _consolidated(db: Path, topics: dict[str, str]) -> list[str]:
    """A store of three notes a topic, clustered and summarised; its summaries' texts."""
    store = core.MemoryStore(db)
    try:
        for topic, pattern in topics.items():
            for i in range(6):
                store.store(pattern.format(i=f"note{i}"), "episodic", thread=f"chat-{topic}", dedup=False)
        cons.run(store, now=NOW, keep_backups=0, phases=["cluster", "summarize"])
        return sorted(r[0] for r in store.conn.execute(
            "SELECT content FROM memories WHERE level > 0 AND status = 'active'"))
    finally:
        store.close()


def _summaries(db: Path) -> list[str]:
    store = core.MemoryStore(db)
    try:
        return sorted(r[0] for r in store.conn.execute(
            "SELECT content FROM memories WHERE level > 0 AND status = 'active'"))
    finally:
        store.close()


def _import(db: Path, dump: Path) -> dict:
    p = run_cli("--db", str(db), "import", "jsonl", str(dump))
    assert p.returncode == 0, p.stdout + p.stderr
    return json.loads(p.stdout)["data"]


def test_an_imported_stores_summaries_are_kept_beside_the_stores_own(tmp_path: Path) -> None:
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    theirs = _consolidated(a, {"garden": "we planted tomatoes and basil in the garden beds {i}",
                               "gateway": "the gateway server crashed and was restarted again {i}"})
    ours = _consolidated(b, {"hiking": "hiking trip in the alps mountains with the group {i}",
                             "choir": "choir rehearsal moved to the church hall on thursday {i}"})
    assert len(theirs) == 2 and len(ours) == 2
    rows = exported(a, tmp_path / "a.jsonl")
    assert sorted(r["ref"] for r in rows if r["level"]) == ["cluster:1", "cluster:2"]  # (b's own refs too)
    _import(b, tmp_path / "a.jsonl")
    assert _summaries(b) == sorted(theirs + ours)
    # idempotent: a second import of the same export adds nothing
    before = json.loads(run_cli("--db", str(b), "stats").stdout)["data"]["memories"]
    _import(b, tmp_path / "a.jsonl")
    assert json.loads(run_cli("--db", str(b), "stats").stdout)["data"]["memories"] == before
    assert _summaries(b) == sorted(theirs + ours)
    # b's next consolidate refreshes its own summaries, never the imported ones
    store = core.MemoryStore(b)
    try:
        cons.run(store, now=NOW, keep_backups=0, phases=["cluster", "summarize"])
    finally:
        store.close()
    assert set(theirs) <= set(_summaries(b))


def test_a_store_reimporting_its_own_export_adds_no_summary(tmp_path: Path) -> None:
    a = tmp_path / "a.db"
    theirs = _consolidated(a, {"garden": "we planted tomatoes and basil in the garden beds {i}",
                               "gateway": "the gateway server crashed and was restarted again {i}"})
    exported(a, tmp_path / "a.jsonl")
    _import(a, tmp_path / "a.jsonl")
    assert _summaries(a) == theirs


def test_a_store_reimporting_its_own_export_adds_nothing(tmp_path: Path) -> None:
    # (hand-stored memories have no ref: export names them hash:<text's hash>[:id]; importing the export back, as
    # a user undoing a mistake from last week's export does, added every one of them a second time)
    db = tmp_path / "m.db"
    for args in (["Oscar likes tea"], ["ok", "--type", "episodic"], ["ok", "--type", "semantic"],
                 ["the deploy failed", "--at", "2026-11-02"]):
        assert run_cli("--db", str(db), "store", *args).returncode == 0
    rows = exported(db, tmp_path / "e.jsonl")
    assert [r["ref"][:5] for r in rows] == ["hash:"] * 4
    p = run_cli("--db", str(db), "import", "jsonl", str(tmp_path / "e.jsonl"), "--dry-run")
    assert json.loads(p.stdout)["data"]["memories_added"] == 0, p.stdout
    got = _import(db, tmp_path / "e.jsonl")
    assert (got["memories_added"], got["skipped_duplicates"]) == (0, 4)
    assert exported(db, tmp_path / "again.jsonl") == rows
    # another store's memory of the same text is another memory: imported
    other = tmp_path / "other.db"
    assert run_cli("--db", str(other), "store", "Oscar likes tea").returncode == 0
    conn = core.connect(other)  # (stored at another time: within the same second, it would be the same memory)
    conn.execute("UPDATE memories SET created_at = '2026-01-01T09:00:00'")
    conn.close()
    assert _import(other, tmp_path / "e.jsonl")["memories_added"] == 4
    assert _import(other, tmp_path / "e.jsonl")["memories_added"] == 0  # (and once only)
