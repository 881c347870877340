"""doctor under agents that store (agent week, bench/agent_week.py): no false damage.

A `doctor` run while agents stored exited 1 with a problem that the next `doctor` did not find. Its checks read
one table, then another: the sign plane, then the vectors; a row's text, then its index entries. A store
committed in between (here a real `mem.py store` process, run at exactly that point) is in one and not the other,
and was reported as damage (`doctor --fix` would then "repair" a sound file). Each check now reads one snapshot.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli_subprocess

import memory_core as core
from memengine import fts_check, signplane


def _turns(n: int) -> list[core.NewMemory]:
    return [core.NewMemory(content=f"turn {i}: the kayak trip to the lake on saturday, bring {i} paddles",
                           memory_type="episodic", source="chat", ref=f"t{i}", thread="trip",
                           author="Ana" if i % 2 else "Bo", position=i) for i in range(n)]


def _store_elsewhere(db: Path, text: str) -> None:
    """A write by another process, committed before it returns."""
    out = run_cli_subprocess("--db", str(db), "store", text, "--thread", "trip", "--author", "Cy", "--type",
                             "episodic", env={"MEM_NO_SERVER": "1"})
    assert out.returncode == 0 and json.loads(out.stdout)["ok"], out.stdout + out.stderr


def test_the_sign_plane_check_sees_one_moment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "memory.db"
    with core.MemoryStore(db) as s:
        s.store_many(_turns(30))
    store = core.MemoryStore(db)
    try:
        real = signplane._chunk_batches
        stored: list[str] = []

        def after_the_plane_was_read(conn, table):  # the plane is read; another process stores before the vectors
            if table == "vec_memories" and not stored:
                stored.append("x")
                _store_elsewhere(db, "a new turn, stored while doctor ran")
            return real(conn, table)

        monkeypatch.setattr(signplane, "_chunk_batches", after_the_plane_was_read)
        report = store.doctor()
        assert stored == ["x"]
        assert report["sign_plane"] == "ok" and report["problems"] == [], report["problems"]
        monkeypatch.setattr(signplane, "_chunk_batches", real)
        assert store.doctor()["ok"] is True  # (and the new turn is in both now)
        assert int(store.conn.execute("SELECT count(*) FROM memories").fetchone()[0]) == 31
    finally:
        store.close()


def test_the_sampled_keyword_check_sees_one_moment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A turn forgotten by another process leaves its neighbours' indexed context (its words go): done between
    the read of a row's text and of its index entries, the row looked out of step."""
    db = tmp_path / "memory.db"
    with core.MemoryStore(db) as s:
        s.store_many(_turns(30))
    store = core.MemoryStore(db)
    try:
        real = fts_check._queryable
        stored: list[str] = []

        def between_text_and_index(conn, terms):
            if not stored:
                stored.append("x")
                out = run_cli_subprocess("--db", str(db), "forget", "16", env={"MEM_NO_SERVER": "1"})
                assert out.returncode == 0, out.stdout + out.stderr
            return real(conn, terms)

        monkeypatch.setattr(fts_check, "_queryable", between_text_and_index)
        rep = fts_check.check(store.conn, full_max_rows=0, sample_rows=10_000, seed=1)
        assert stored == ["x"]
        assert rep["mode"] == "sampled" and rep["problems"] == [] and rep["ok"] is True, rep
    finally:
        store.close()
