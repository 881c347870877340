"""serve21: the kept brief (memengine/briefcache.py, migration m014) — the same bytes, and only while it holds.

Real SQLite files throughout; real processes where two of them meet (one keeps a brief, another writes).
"""

from __future__ import annotations

import json
import os
import re
from contextlib import closing
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from conftest import run_cli, run_cli_subprocess

import memory_core as core
from memengine import briefcache, graph_rank, migrations
from memengine.db import connect, sqlite3  # (the store's driver: the standard module's SQLite may be older)

_TOOK = re.compile(r'"took_ms": [0-9.eE+-]+')
# the tables a write to which need not move the counter: itself and the kept briefs, what only triggers on the
# tracked tables fill (the people tables, the counts, the change logs, the FTS deferral flag), the migrations'
# own record (a schema change is a code change: the kept brief's files say so)
UNTRACKED = {"_mem_version", "_brief_cache", "_mem_migrations", "memory_authors", "memory_author_threads",
             "memory_author_threads_faded",
             "_mem_counts", "_keyword_changes", "_status_changes", "_fts_deferred", "sqlite_sequence"}

FACTS = ["Our staging API lives at https://staging.acme.io/v2 and needs the VPN",
         "Maria Lopez leads the payments team since March 2024",
         "The quarterly planning offsite is in Porto on Friday 4 December 2026",
         "Deploys run from the release branch every Tuesday after the standup"]


def _same(a: str, b: str) -> bool:
    return _TOOK.sub('"took_ms": 0', a) == _TOOK.sub('"took_ms": 0', b)


def _version(db: Path) -> int:
    with closing(connect(db)) as c:
        return int(c.execute("SELECT n FROM _mem_version").fetchone()[0])


def _kept(db: Path) -> list[tuple[int, int]]:
    with closing(connect(db)) as c:
        return [tuple(r) for r in c.execute("SELECT budget, version FROM _brief_cache ORDER BY budget")]


def _notes(db: Path) -> None:
    s = core.MemoryStore(db)
    try:
        for text in FACTS:
            s.store(text, "semantic", dedup=False)
        s.store("To rotate the API key: open the vault, run rotate-key, then restart the workers", "procedural")
    finally:
        s.close()


def test_an_m013_store_opens_migrates_and_its_brief_is_kept(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    old = connect(db)
    assert migrations.migrate(old, upto="m013_contradicts")[-1] == "m013_contradicts"
    for i, text in enumerate(FACTS, 1):  # rows as that release wrote them
        old.execute("INSERT INTO memories(id, content, content_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
                    (i, text, f"h{i}", "2026-11-20T10:00:00", "2026-11-20T10:00:00"))
    old.close()
    first = run_cli_subprocess("--db", str(db), "--json", "brief")
    assert first.returncode == 0, first.stderr
    with closing(connect(db)) as c:
        assert tuple(c.execute("SELECT 1 FROM _mem_migrations WHERE name = 'm014_brief_cache'").fetchone()) == (1,)
    assert _version(db) == 0 and _kept(db) == [(2000, 0)]
    second = run_cli_subprocess("--db", str(db), "--json", "brief")
    assert second.returncode == 0 and _same(first.stdout, second.stdout)
    assert "Maria Lopez" in json.loads(second.stdout)["data"]["text"]


def test_every_table_a_brief_may_read_moves_the_version_on_each_write(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    _notes(db)
    with closing(connect(db)) as c:
        tables = {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        virtual = {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL TABLE%'")}
        shadows = {t for t in tables for v in virtual if t.startswith(f"{v}_")}
        triggers = {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}
    tracked = tables - virtual - shadows - UNTRACKED
    assert {"memories", "associations", "clusters", "cluster_members", "_mem_meta", "sign_memories"} <= tracked
    for t in sorted(tracked):  # a table a later migration adds: tracked here, or named in UNTRACKED with why
        assert {f"_mem_version_{t}_{e}" for e in ("ai", "au", "ad")} <= triggers, t


@pytest.mark.parametrize("write", [
    ("store", "The build cache moved to the NVMe disk", "--type", "semantic"),
    ("recall", "who leads payments?"),  # its reinforcement writes access counts, which the brief reads
    ("pin", "2"),
    ("forget", "3"),
    ("link", "1", "2"),
    ("update", "4", "Deploys run from the release branch every Wednesday after the standup"),
])
def test_any_write_between_two_briefs_is_seen(tmp_path: Path, write: tuple[str, ...]) -> None:
    db = tmp_path / "m.db"
    _notes(db)
    env = {"MEM_DB": str(db)}
    assert run_cli("brief", env=env).returncode == 0
    before = _version(db)
    assert _kept(db) == [(2000, before)]
    done = run_cli(*write, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert _version(db) > before
    kept = run_cli("--json", "brief", env=env)
    fresh = run_cli("--json", "brief", env=dict(env, MEM_BRIEF_CACHE="0"))
    assert kept.returncode == fresh.returncode == 0 and _same(kept.stdout, fresh.stdout)
    assert _kept(db) == [(2000, _version(db))]  # the new brief kept at the new version, the old one gone


def test_a_brief_kept_by_one_process_gives_way_to_another_processs_write(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    _notes(db)
    a1 = run_cli_subprocess("--db", str(db), "--json", "brief", "--budget", "600")
    a2 = run_cli_subprocess("--db", str(db), "--json", "brief", "--budget", "600")
    assert a1.returncode == a2.returncode == 0 and _same(a1.stdout, a2.stdout)
    b = run_cli_subprocess("--db", str(db), "store", "Maria Lopez now leads the platform team", "--type", "semantic")
    assert b.returncode == 0, b.stderr
    a3 = run_cli_subprocess("--db", str(db), "--json", "brief", "--budget", "600")
    fresh = run_cli_subprocess("--db", str(db), "--json", "brief", "--budget", "600", env={"MEM_BRIEF_CACHE": "0"})
    assert a3.returncode == fresh.returncode == 0
    assert _same(a3.stdout, fresh.stdout) and not _same(a3.stdout, a1.stdout)
    assert "platform team" in json.loads(a3.stdout)["data"]["text"]


def test_a_brief_made_while_another_connection_writes_is_not_kept(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    _notes(db)
    s = core.MemoryStore(db)
    other = connect(db)

    def make(now: datetime) -> dict:
        data = graph_rank.brief(s, 2000, now=now)
        other.execute("UPDATE memories SET importance = 0.9 WHERE id = 1")  # committed meanwhile
        return data

    try:
        data = briefcache.brief(s.conn, 2000, make)
        assert data["text"].startswith("# Briefing") and _kept(db) == []
    finally:
        other.close()
        s.close()


def _dated(db: Path, when: str) -> None:
    """Every stored time of every memory set to ``when`` (none left at the real clock's)."""
    with closing(connect(db)) as c:
        c.execute("UPDATE memories SET created_at = ?1, updated_at = ?1, decay_ref_at = ?1, "
                  "valid_from = CASE WHEN valid_from IS NULL THEN NULL ELSE ?1 END, last_accessed_at = NULL", (when,))


def _saved(db: Path, made: datetime, budget: int = 2000) -> tuple[core.MemoryStore, dict]:
    s = core.MemoryStore(db)
    clock = briefcache._Clock.of(made)
    data = graph_rank.brief(s, budget, now=clock)
    version = briefcache._version(s.conn)
    assert version is not None and briefcache.save(s.conn, budget, version, clock, data)
    return s, data


def test_the_kept_brief_holds_until_a_stored_time_leaves_a_window_it_read(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    _notes(db)
    made = datetime(2026, 11, 28, 9, 0, 0)
    _dated(db, "2026-11-21T09:00:30")  # stored 7 days minus 30 s before: "recently changed" for 30 s more
    s, data = _saved(db, made)
    try:
        assert briefcache.lookup(s.conn, 2000, made + timedelta(seconds=29)) == json.loads(json.dumps(data, default=str))
        assert briefcache.lookup(s.conn, 2000, made + timedelta(seconds=30)) is None  # the bound reached it
        assert briefcache.lookup(s.conn, 2000, made - timedelta(seconds=1)) is None  # a clock set back
        assert briefcache.lookup(s.conn, 1000, made) is None  # another budget
        _dated(db, "2026-11-01T09:00:00")  # none near a bound: it holds to the end of the day
    finally:
        s.close()
    s, data = _saved(db, made)
    try:
        assert briefcache.lookup(s.conn, 2000, datetime(2026, 11, 28, 23, 59, 59)) is not None
        assert briefcache.lookup(s.conn, 2000, datetime(2026, 11, 29, 0, 0, 0)) is None  # the day changed
    finally:
        s.close()


def test_ages_hold_within_their_whole_day_and_other_clock_reads_keep_nothing(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    _notes(db)
    s = core.MemoryStore(db)
    made = datetime(2026, 11, 28, 0, 0, 1)
    at = made - timedelta(days=6, hours=12)
    try:
        version = briefcache._version(s.conn)
        assert version is not None
        aged = briefcache._Clock.of(made)
        assert ((aged - at).total_seconds() / 86400.0 > 7.0) is False
        assert briefcache.save(s.conn, 500, version, aged, {"text": "aged"})
        assert briefcache.lookup(s.conn, 500, made + timedelta(hours=11)) == {"text": "aged"}
        assert briefcache.lookup(s.conn, 500, made + timedelta(hours=12, seconds=1)) is None  # past 7 days
        for read in (lambda c: c.isoformat(), lambda c: c < made, lambda c: c + timedelta(days=1),
                     lambda c: c - timedelta(hours=36), lambda c: c.year):
            clock = briefcache._Clock.of(made)
            read(clock)
            assert not briefcache.save(s.conn, 400, version, clock, {"text": "x"})
        assert _kept(db) == [(500, version)]
    finally:
        s.close()


def test_changed_settings_or_code_make_it_again_and_a_read_only_file_keeps_nothing(tmp_path: Path,
                                                                                   monkeypatch: pytest.MonkeyPatch,
                                                                                   ) -> None:
    db = tmp_path / "m.db"
    _notes(db)
    made = datetime(2026, 11, 28, 9, 0, 0)
    s, data = _saved(db, made)
    try:
        assert briefcache.lookup(s.conn, 2000, made) is not None
        monkeypatch.setenv("MEM_BRIEF_PARAMS", "x")
        assert briefcache.lookup(s.conn, 2000, made) is None
        monkeypatch.delenv("MEM_BRIEF_PARAMS")
        module = tmp_path / "module.py"
        module.write_text("X = 1\n")
        entry = json.loads(s.conn.execute("SELECT entry FROM _brief_cache").fetchone()[0])
        st = module.stat()
        entry["files"].append([str(module), st.st_size, st.st_mtime_ns])
        s.conn.execute("UPDATE _brief_cache SET entry = ?", (json.dumps(entry),))
        assert briefcache.lookup(s.conn, 2000, made) is not None
        module.write_text("X = 22\n")
        assert briefcache.lookup(s.conn, 2000, made) is None
    finally:
        s.close()
    ro = sqlite3.connect(f"file:{db}?mode=ro", uri=True, isolation_level=None)
    try:
        clock = briefcache._Clock.of(made)
        clock.date()
        assert not briefcache.save(ro, 300, 0, clock, {"text": "x"})
    finally:
        ro.close()
    assert (300, 0) not in _kept(db)


def test_the_reply_is_the_same_bytes_kept_or_made_in_both_forms(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    _notes(db)
    env = {"MEM_DB": str(db)}
    for form in (("--json",), ("--plain",)):
        made = run_cli_subprocess(*form, "brief", "--budget", "800", env={**env, "MEM_BRIEF_CACHE": "0"})
        first = run_cli_subprocess(*form, "brief", "--budget", "800", env=env)
        kept = run_cli_subprocess(*form, "brief", "--budget", "800", env=env)
        assert made.returncode == first.returncode == kept.returncode == 0
        assert _same(made.stdout, first.stdout) and _same(first.stdout, kept.stdout)
        assert made.stderr == kept.stderr
    assert _kept(db) == [(800, _version(db))]
    assert os.environ.get("MEM_BRIEF_CACHE") is None
