"""What an agent reads at session start: `brief` and the MEMORY.md block (issue 18)."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from conftest import run_cli

import memory_core as core
from memengine import consolidate as cons

NOW = datetime(2030, 1, 1, 12, 0, 0)


def _supersede(store: core.MemoryStore, old: int, new: int) -> None:
    """What write-time supersession records: valid_to on the old fact, an edge from the new one."""
    with core.write_tx(store.conn):
        store.conn.execute("UPDATE memories SET valid_to = ? WHERE id = ?", ("2029-12-30T00:00:00", old))
        store.conn.execute("INSERT INTO associations(source_id, target_id, edge_type, weight, created_at) "
                           "VALUES (?, ?, 'supersedes', 1.0, ?)", (new, old, "2029-12-30T00:00:00"))


def test_summaries_never_quote_a_superseded_fact(store: core.MemoryStore) -> None:
    ids = [store.store(f"the office wifi password is kept in the blue binder {i}", "semantic", dedup=False).id
           for i in range(4)]
    old = store.store("the office wifi password is tulip42 in the blue binder", "semantic").id
    new = store.store("the office wifi password is now orchid77 in the blue binder", "semantic").id
    _supersede(store, old, new)
    cons.run(store, now=NOW, keep_backups=0)
    summaries = [r[0] for r in store.conn.execute("SELECT content FROM memories WHERE level >= 1")]
    assert summaries and ids
    assert not any("tulip42" in s for s in summaries)


def test_topic_ids_take_the_t_prefix(tmp_path: Path) -> None:
    env = {"MEM_DB": str(tmp_path / "m.db")}
    for i in range(6):
        assert run_cli("store", f"we planted tomatoes and basil in the garden beds note{i}", env=env).returncode == 0
    assert run_cli("consolidate", "--now", "2030-01-01", env=env).returncode == 0
    roots = json.loads(run_cli("--json", "browse", env=env).stdout)["data"]["roots"]
    tid = roots[0]["id"]
    for form in (f"T{tid}", f"t{tid}", str(tid)):
        got = json.loads(run_cli("--json", "browse", form, env=env).stdout)["data"]["cluster"]
        assert got["id"] == tid
        assert json.loads(run_cli("--json", "clusters", form, env=env).stdout)["data"]["clusters"][0]["id"] == tid
    human = run_cli("--plain", "browse", env=env).stdout
    assert human.startswith(f"T{tid} ")
    bad = run_cli("browse", "#3", env=env)
    assert bad.returncode == 2 and "not a topic id" in bad.stdout + bad.stderr
    missing = run_cli("browse", "T99999", env=env)
    assert missing.returncode == 3 and "no topic T99999" in missing.stdout + missing.stderr
