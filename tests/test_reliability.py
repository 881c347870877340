"""Concurrency and crash safety with real processes and real files."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from conftest import ROOT

import memory_core

WRITER = textwrap.dedent("""
    import sys
    sys.path.insert(0, {root!r})
    from memory_core import MemoryStore
    s = MemoryStore({db!r})
    for i in range(100):
        r = s.store(f"process {{sys.argv[1]}} note {{i}} about topic {{i * 7 % 13}}", "episodic",
                    ref=f"p{{sys.argv[1]}}-{{i}}", source="stress")
        assert not r.deduplicated
    print("done")
""")


def test_eight_processes_store_concurrently_without_lock_errors(db_path: Path) -> None:
    memory_core.MemoryStore(db_path).close()  # migrate once, as the first CLI call would
    script = WRITER.format(root=str(ROOT), db=str(db_path))
    procs = [subprocess.Popen([sys.executable, "-c", script, str(n)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for n in range(8)]
    outs = [p.communicate(timeout=300) for p in procs]
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0, err
        assert out.strip() == "done"
        assert "locked" not in err and "busy" not in err
    s = memory_core.MemoryStore(db_path)
    assert s.conn.execute("SELECT count(*) FROM memories").fetchone()[0] == 800
    assert s.conn.execute("SELECT count(DISTINCT ref) FROM memories").fetchone()[0] == 800
    rep = s.doctor()
    assert rep["ok"] and rep["missing_vectors"] == 0 and rep["fts_ok"]


def test_concurrent_first_use_migrates_once(tmp_path: Path) -> None:
    db = tmp_path / "fresh.db"
    script = f"import sys; sys.path.insert(0, {str(ROOT)!r}); from memory_core import MemoryStore; " \
             f"MemoryStore({str(db)!r}).store('x' + sys.argv[1], 'semantic')"
    procs = [subprocess.Popen([sys.executable, "-c", script, str(i)], stderr=subprocess.PIPE, text=True)
             for i in range(6)]
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    s = memory_core.MemoryStore(db)
    assert s.conn.execute("SELECT count(*) FROM _mem_migrations").fetchone()[0] == len(memory_core.MIGRATIONS)
    assert s.stats()["memories"] == 6


KILLER = textwrap.dedent("""
    import os, signal, sys
    sys.path.insert(0, {root!r})
    import memory_core
    s = memory_core.MemoryStore({db!r})
    s.store("committed before the crash", "semantic")
    real = s._write_vector
    def die(mid, vec):
        # the memory row and its FTS entry are written, the vector is not: die here
        os.kill(os.getpid(), signal.SIGKILL)
    s._write_vector = die
    s.store("half written memory", "semantic")
""")


def test_store_killed_mid_transaction_leaves_no_half_memory(db_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-c", KILLER.format(root=str(ROOT), db=str(db_path))],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL
    s = memory_core.MemoryStore(db_path)
    rows = [r[0] for r in s.conn.execute("SELECT content FROM memories")]
    assert rows == ["committed before the crash"]
    rep = s.doctor()
    assert rep["ok"], rep["problems"]
    assert s.conn.execute("SELECT count(*) FROM memories_fts WHERE memories_fts MATCH 'half'").fetchone()[0] == 0
    assert s.conn.execute("SELECT count(*) FROM vec_memories").fetchone()[0] == 1


def test_doctor_detects_and_repairs_fts_and_vector_drift(store: memory_core.MemoryStore) -> None:
    for text in ("alpha gateway notes", "beta deploy notes", "gamma cafeteria menu"):
        store.store(text, "semantic")
    c = store.conn
    # drift 1: a memory's keyword entry removed behind the trigger's back
    c.execute("INSERT INTO memories_fts(memories_fts, rowid, content, tags, date_terms, context, context_far) "
              "SELECT 'delete', id, content, tags, date_terms, context, context_far FROM memories WHERE id = 2")
    # drift 2: a vector lost, and an orphan vector for a memory that never existed
    c.execute("DELETE FROM vec_memories WHERE memory_id = 3")
    blob = c.execute("SELECT embedding FROM vec_memories WHERE memory_id = 1").fetchone()[0]
    c.execute(f"INSERT INTO vec_memories(memory_id, embedding) VALUES (99, {memory_core.VEC_PARAM})", (blob,))
    rep = store.doctor()
    assert not rep["ok"]
    assert rep["fts_ok"] is False and rep["missing_vectors"] == 1 and rep["orphan_vectors"] == 1
    fixed = store.doctor(fix=True)
    assert fixed["ok"] and fixed["problems_after_fix"] == []
    again = store.doctor()
    assert again["ok"] and again["problems"] == []
    assert [m.id for m in store.recall("deploy", strategy="keyword", touch=False).results] == [2]


def test_backup_while_writing(store: memory_core.MemoryStore, tmp_path: Path) -> None:
    store.store("something worth keeping", "semantic")
    dest = tmp_path / "backup.db"
    store.backup(dest)
    copy = memory_core.MemoryStore(dest)
    assert copy.stats()["memories"] == 1 and copy.doctor()["ok"]
    assert oct(os.stat(dest).st_mode & 0o777) == "0o600"
