"""Moving memories between stores with `export` / `import jsonl`: a memory's identity is the exporting store's
id, not its text (serve13), and a newer export of a store replaces that store's summaries imported earlier.

Two people each stored "standup moved to 10:00" at the same second: the same text, source, type and time, two
memories. Before, an import took the other person's as already there (and a third store importing both exports
kept one: both were exported under the ref ``hash:<text's hash>``)."""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path

from conftest import exported, run_cli

import memory_core as core
from memengine import consolidate as cons

SAME_SECOND = "2026-11-20T09:00:00"
NOW = datetime(2030, 1, 1, 12, 0, 0)


def _store(db: Path, *texts: str) -> None:
    for text in texts:
        p = run_cli("--db", str(db), "store", text)
        assert p.returncode == 0, p.stdout + p.stderr
    conn = core.connect(db)
    try:  # (every memory of both stores at one second: only the stores' ids tell them apart)
        conn.execute("UPDATE memories SET created_at = ?", (SAME_SECOND,))
        conn.commit()
    finally:
        conn.close()


def _import(db: Path, dump: Path, *extra: str) -> dict:
    p = run_cli("--db", str(db), "import", "jsonl", str(dump), *extra)
    assert p.returncode == 0, p.stdout + p.stderr
    return json.loads(p.stdout)["data"]


def _texts(db: Path, where: str = "status = 'active'") -> list[str]:
    conn = core.connect(db)
    try:
        return sorted(r[0] for r in conn.execute(f"SELECT content FROM memories WHERE {where}"))
    finally:
        conn.close()


def test_the_same_text_stored_at_the_same_second_in_two_stores_is_two_memories(tmp_path: Path) -> None:
    ana, bob, team = tmp_path / "ana.db", tmp_path / "bob.db", tmp_path / "team.db"
    _store(ana, "standup moved to 10:00", "Ana owns the release notes")
    _store(bob, "standup moved to 10:00")
    ana_rows = exported(ana, tmp_path / "ana.jsonl")
    assert all(re.fullmatch(r"[0-9a-f]{16}:\d+", r["origin"]) for r in ana_rows)
    got = _import(bob, tmp_path / "ana.jsonl")
    assert (got["memories_added"], got["skipped_duplicates"]) == (2, 0)
    assert _texts(bob) == ["Ana owns the release notes", "standup moved to 10:00", "standup moved to 10:00"]
    assert _import(bob, tmp_path / "ana.jsonl")["memories_added"] == 0  # idempotent
    # a third store importing both exports keeps both people's memory
    exported(bob, tmp_path / "bob.jsonl")
    assert _import(team, tmp_path / "ana.jsonl")["memories_added"] == 2
    got = _import(team, tmp_path / "bob.jsonl")  # bob's own, and his copy of ana's two (already here)
    assert (got["memories_added"], got["skipped_duplicates"]) == (1, 2)
    assert _texts(team).count("standup moved to 10:00") == 2
    # bob's export back into ana: her own two memories come home (nothing added), bob's arrives
    dry = _import(ana, tmp_path / "bob.jsonl", "--dry-run")
    got = _import(ana, tmp_path / "bob.jsonl")
    assert dry["memories_added"] == got["memories_added"] == 1
    assert got["skipped_duplicates"] == 2
    assert _texts(ana).count("standup moved to 10:00") == 2
    # and a store importing its own export adds nothing
    assert _import(ana, tmp_path / "ana.jsonl")["memories_added"] == 0


def test_a_diverged_copy_of_a_store_is_told_apart_by_its_texts(tmp_path: Path) -> None:
    # (a copied file keeps the store's id: the same id with another text is another memory)
    a = tmp_path / "a.db"
    _store(a, "the office wifi password rotates monthly")
    b = tmp_path / "b.db"
    b.write_bytes(a.read_bytes())
    run_cli("--db", str(a), "store", "Ana is on call this week")
    run_cli("--db", str(b), "store", "Bob is on call this week")
    exported(b, tmp_path / "b.jsonl")
    got = _import(a, tmp_path / "b.jsonl")
    assert (got["memories_added"], got["skipped_duplicates"]) == (1, 1)
    assert "Bob is on call this week" in _texts(a)


def test_an_export_without_origins_still_imports_as_before(tmp_path: Path) -> None:
    # (exports written before serve13 carry no origin: the time-of-storing rule of serve12 stays for them)
    a = tmp_path / "a.db"
    _store(a, "Oscar likes tea")
    rows = exported(a, tmp_path / "a.jsonl")
    legacy = tmp_path / "legacy.jsonl"
    legacy.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "origin"}) + "\n" for r in rows))
    assert _import(a, legacy)["memories_added"] == 0
    other = tmp_path / "o.db"
    assert _import(other, legacy)["memories_added"] == 1
    # the same memory later exported with its origin is the one already imported
    assert _import(other, tmp_path / "a.jsonl")["memories_added"] == 0


def test_a_bad_origin_is_one_line_naming_the_line(tmp_path: Path) -> None:
    f = tmp_path / "bad.jsonl"
    f.write_text(json.dumps({"content": "x", "origin": "ana:12"}) + "\n")
    db = tmp_path / "m.db"
    p = run_cli("--db", str(db), "import", "jsonl", str(f))
    assert p.returncode != 0
    err = json.loads(p.stdout)["error"]["message"]
    assert "bad.jsonl:1" in err and "origin" in err and "\n" not in err


def _consolidate(db: Path) -> list[str]:
    store = core.MemoryStore(db)
    try:
        cons.run(store, now=NOW, keep_backups=0, phases=["cluster", "summarize"])
        return sorted(r[0] for r in store.conn.execute(
            "SELECT content FROM memories WHERE level > 0 AND status = 'active'"))
    finally:
        store.close()


def _notes(db: Path, pattern: str, n: int, start: int = 0) -> None:
    store = core.MemoryStore(db)
    try:
        for i in range(start, start + n):
            store.store(pattern.format(i=f"note{i}"), "episodic", thread="chat", dedup=False)
    finally:
        store.close()


def test_a_newer_export_replaces_the_summaries_an_older_one_brought(tmp_path: Path) -> None:
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    _notes(a, "we planted tomatoes and basil in the garden beds {i}", 6)
    first = _consolidate(a)
    assert len(first) == 1
    exported(a, tmp_path / "e1.jsonl")
    _notes(b, "choir rehearsal moved to the church hall on thursday {i}", 6)
    ours = _consolidate(b)
    _import(b, tmp_path / "e1.jsonl")
    assert _texts(b, "level > 0 AND status = 'active'") == sorted(first + ours)
    # a's cluster grows and its summary is rewritten; its newer export replaces the one b holds
    _notes(a, "the garden beds got compost and new basil seedlings {i}", 6, start=6)
    second = _consolidate(a)
    assert second != first
    exported(a, tmp_path / "e2.jsonl")
    got = _import(b, tmp_path / "e2.jsonl")
    assert got["summaries_replaced"] == 1
    assert _texts(b, "level > 0 AND status = 'active'") == sorted(second + ours)
    assert _texts(b, "level > 0 AND status = 'archived'") == first  # archived, never destroyed
    # the older export imported again brings nothing back
    got = _import(b, tmp_path / "e1.jsonl")
    assert (got["memories_added"], got["summaries_replaced"]) == (0, 0)
    assert _texts(b, "level > 0 AND status = 'active'") == sorted(second + ours)
    # b's own consolidate leaves a's summaries as a's export made them
    _consolidate(b)
    assert set(second) <= set(_texts(b, "level > 0 AND status = 'active'"))
    # an older export imported into a store that only saw the newer one: its summaries arrive archived
    c = tmp_path / "c.db"
    _import(c, tmp_path / "e2.jsonl")
    _import(c, tmp_path / "e1.jsonl")
    assert _texts(c, "level > 0 AND status = 'active'") == second
    assert _texts(c, "level > 0 AND status = 'archived'") == first
