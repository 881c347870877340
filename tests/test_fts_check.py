"""doctor's keyword-index check (memengine/fts_check.py): full, and sampled at scale.

Every drift is made behind the triggers' back on a real store; the sampled check is run
with a sample that covers the rows drifted (and with ``full_max_rows=0`` so a small store
takes the sampled path), and must name them; a clean store must pass both checks.
"""

from __future__ import annotations

import json
import random
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli

import memory_core
from memengine import fts_check
from memengine.db import raw_connect
from memengine.records import NewMemory

T0 = datetime(2024, 3, 1, 9, 0, tzinfo=timezone.utc)
COLS = "content, tags, date_terms, context, context_far"
WORDS = ["kayak", "harbour", "lantern", "orchard", "meadow", "violin", "copper", "thunder", "saffron", "glacier"]


def _turns(n: int, threads: int = 4) -> list[NewMemory]:
    rng = random.Random(7)
    return [NewMemory(content=f"{'Ana' if i % 2 else 'Bo'}: {' '.join(rng.sample(WORDS, 4))} number {i}",
                      memory_type="episodic", author="Ana" if i % 2 else "Bo", thread=f"t{i % threads}",
                      position=i // threads, event_at=T0 + timedelta(minutes=i), tags=["trip"] if i % 5 == 0 else None)
            for i in range(n)]


@pytest.fixture
def chat(store: memory_core.MemoryStore) -> memory_core.MemoryStore:
    store.store_many(_turns(120))
    store.store("Bo: a live turn about the kayak", "episodic", author="Bo", thread="t1")
    store.store("a note on lanterns", "semantic", tags=["home"])
    store.forget(10)
    store.restore(10)
    store.forget(11)
    return store


def _sampled(store: memory_core.MemoryStore, **kw: Any) -> dict[str, Any]:
    return fts_check.check(store.conn, full_max_rows=0, sample_rows=kw.pop("sample_rows", 10_000), seed=1, **kw)


def _reindex_with(store: memory_core.MemoryStore, mid: int, **override: str) -> None:
    """Replace row ``mid``'s index entry (deleted exactly) by one built from other values."""
    c = store.conn
    row = dict(c.execute(f"SELECT {COLS} FROM memories_text WHERE id = ?", (mid,)).fetchone())
    c.execute(f"INSERT INTO memories_fts(memories_fts, rowid, {COLS}) SELECT 'delete', id, {COLS} "
              "FROM memories_text WHERE id = ?", (mid,))
    row.update(override)
    c.execute(f"INSERT INTO memories_fts(rowid, {COLS}) VALUES (?, ?, ?, ?, ?, ?)", (mid, *row.values()))


def test_clean_store_passes_full_and_sampled(chat: memory_core.MemoryStore) -> None:
    full = fts_check.check(chat.conn, full=True)
    assert full["ok"] and full["mode"] == "full" and full["problems"] == [] and full["rows"] == 122
    sampled = _sampled(chat)
    assert sampled["ok"] and sampled["mode"] == "sampled" and sampled["problems"] == []
    assert sampled["rows_sampled"] == 122  # a sample larger than the store covers every row
    small = _sampled(chat, sample_rows=150)  # runs from random places may overlap: fewer rows, still ok
    assert small["ok"] and 0 < small["rows_sampled"] <= 122
    # the temporary tables are gone
    assert chat.conn.execute("SELECT count(*) FROM temp.sqlite_master").fetchone()[0] == 0


def test_row_missing_from_the_index(chat: memory_core.MemoryStore) -> None:
    chat.conn.execute(f"INSERT INTO memories_fts(memories_fts, rowid, {COLS}) SELECT 'delete', id, {COLS} "
                      "FROM memories_text WHERE id = 7")
    res = _sampled(chat, sample_rows=1)  # the row sets are checked in full, whatever the sample
    assert not res["ok"]
    assert "1 memories missing from the keyword index" in res["problems"]
    assert not fts_check.check(chat.conn, full=True)["ok"]


def test_index_row_for_a_memory_that_is_gone(chat: memory_core.MemoryStore) -> None:
    chat.conn.execute(f"INSERT INTO memories_fts(rowid, {COLS}) VALUES (5000, 'ghost words', '', '', '', '')")
    res = _sampled(chat, sample_rows=1)
    assert "1 keyword index rows for memories that are gone" in res["problems"]


def test_stale_neighbour_text(chat: memory_core.MemoryStore) -> None:
    """A neighbour's context indexed as it was before an edit the triggers did not see."""
    _reindex_with(chat, 42, context="thunder saffron glacier words that are no longer there")
    res = _sampled(chat)
    assert not res["ok"]
    assert res["problems"] == ["keyword index out of step with the text of 1 of 122 rows compared (ids 42)"]


def test_same_token_counts_other_words(chat: memory_core.MemoryStore) -> None:
    """Only the term check can see this one: every column has as many tokens as before."""
    text = chat.conn.execute("SELECT content FROM memories WHERE id = 30").fetchone()[0]
    first = next(w for w in WORDS if w in text)
    other = next(w for w in WORDS if w not in text)
    have = chat.conn.execute("SELECT sz FROM memories_fts_docsize WHERE id = 30").fetchone()[0]
    _reindex_with(chat, 30, content=text.replace(first, other))
    assert chat.conn.execute("SELECT sz FROM memories_fts_docsize WHERE id = 30").fetchone()[0] == have
    res = _sampled(chat)
    assert res["problems"] == ["keyword index out of step with the text of 1 of 122 rows compared (ids 30)"]


def test_a_sample_that_misses_the_drift_says_it_was_a_sample(chat: memory_core.MemoryStore) -> None:
    _reindex_with(chat, 42, context="thunder saffron glacier words that are no longer there")
    ids = fts_check.sample_ids(chat.conn, 1, random.Random(3))
    assert len(ids) == 1
    res = fts_check.check(chat.conn, full_max_rows=0, sample_rows=1, seed=3)
    assert res["mode"] == "sampled" and res["rows_sampled"] == 1
    assert res["ok"] is (42 not in fts_check.sample_ids(chat.conn, 1, random.Random(3)))
    assert not fts_check.check(chat.conn, full=True)["ok"]


def test_read_only_file(chat: memory_core.MemoryStore, monkeypatch: pytest.MonkeyPatch) -> None:
    chat.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    path = chat.path
    ro = raw_connect(f"file:{path}?immutable=1")
    try:
        res = fts_check.check(ro, full_max_rows=0, sample_rows=10_000, seed=1)
        assert res["ok"] and "structure" not in res  # (checked: a read now, tests/test_doctor_locks.py)
        full = fts_check.check(ro, full=True)  # FTS5's comparison, on a copy (a read-only file cannot run it)
        assert full["ok"] and (full["mode"], full["ran_on"]) == ("full", "snapshot copy"), full
        monkeypatch.setattr(fts_check, "_fts5_check_on_copy", lambda _c: (None, "file (no room)"))
        full = fts_check.check(ro, full=True)
        assert full["ok"] and full["mode"].startswith("full (read-only file")
    finally:
        ro.close()


def test_doctor_reports_which_check_ran(chat: memory_core.MemoryStore, monkeypatch: pytest.MonkeyPatch) -> None:
    rep = chat.doctor()
    assert rep["ok"] and rep["fts_check"].startswith("full: every one of 122 rows compared")
    monkeypatch.setattr(fts_check, "FULL_MAX_ROWS", 0)
    rep = chat.doctor()
    assert rep["ok"] and rep["fts_check"].startswith("sampled: structure and row set of all 122 rows")
    assert "`doctor --full` compares every row" in rep["fts_check"]
    assert chat.doctor(full=True)["fts_check"].startswith("full: every one of 122 rows")
    _reindex_with(chat, 42, context="stale words")
    rep = chat.doctor(full=True)
    assert not rep["ok"] and rep["problems"][0].startswith("keyword index out of step with memories: FTS5")
    fixed = chat.doctor(fix=True, full=True)
    assert fixed["ok"] and "rebuilt keyword index" in fixed["fixed"]


def test_cli_doctor_full(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with memory_core.MemoryStore(db) as s:
        s.store_many(_turns(20))
    for args, mode in ((["doctor"], "full: every one of 20 rows"), (["doctor", "--full"], "full: every one of 20 rows")):
        out = run_cli("--db", str(db), *args)
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout)["data"]["fts_check"].startswith(mode)
