"""consolidate: every phase, idempotency, dry-run equality, decay properties, MEMORY.md, safety."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from conftest import ROOT, run_cli

import memory_core as core
from memengine import consolidate as cons

NOW = datetime(2030, 1, 1, 12, 0, 0)

TOPICS = {
    "garden": "we planted tomatoes and basil in the garden beds {i}",
    "gateway": "the gateway server crashed and was restarted again {i}",
    "hiking": "hiking trip in the alps mountains with the group {i}",
}


def fill(store: core.MemoryStore, per_topic: int = 6) -> dict[str, list[int]]:
    ids: dict[str, list[int]] = {}
    for topic, pattern in TOPICS.items():
        for i in range(per_topic):
            res = store.store(pattern.format(i=f"note{i}"), "episodic", thread=f"chat-{topic}", dedup=False)
            ids.setdefault(topic, []).append(res.id)
    return ids


def counts(store: core.MemoryStore, **kw: object) -> dict:
    kw.setdefault("now", NOW)
    kw.setdefault("keep_backups", 0)
    return cons.run(store, **kw).counts()  # type: ignore[arg-type]


def zero_changes(c: dict) -> bool:
    return (c["links"]["semantic_edges"] == c["links"]["temporal_edges"] == c["links"]["orphan_edges"] == 0
            and c["cluster"]["clusters_created"] == c["cluster"]["members_joined"] == 0
            and c["summarize"]["summaries_created"] == c["summarize"]["summaries_updated"] == 0
            and c["contradict"]["superseded"] == c["contradict"]["open"] == 0
            and c["decay"]["archived"] == 0 and c["cascade"]["members_removed"] == 0)


# --------------------------------------------------------------------------- links

def test_links_temporal_semantic_dedup_and_degree(store: core.MemoryStore) -> None:
    ids = fill(store)
    c = counts(store, phases=["links"])["links"]
    assert c["new_memories"] == 18
    assert c["temporal_edges"] == 15  # 5 consecutive pairs per thread
    assert c["semantic_edges"] > 0
    assert c["edges_per_memory"] > 3
    g = ids["garden"]
    assert store.conn.execute("SELECT count(*) FROM associations WHERE edge_type='temporal' AND source_id=? "
                              "AND target_id=?", (g[0], g[1])).fetchone()[0] == 1
    # semantic edges are stored once per pair (lower id first) and never cross unrelated topics here
    rows = store.conn.execute("SELECT source_id, target_id FROM associations WHERE edge_type='semantic'").fetchall()
    assert all(a < b for a, b in rows)
    assert len({(a, b) for a, b in rows}) == len(rows)
    again = counts(store, phases=["links"])["links"]
    assert again["semantic_edges"] == again["temporal_edges"] == again["orphan_edges"] == 0


def test_orphan_repair(store: core.MemoryStore) -> None:
    store.store("alpha beta gamma delta", "semantic")
    store.store("alpha beta epsilon zeta eta theta iota", "semantic", source="other")
    # both stored now: their similarity is below the semantic threshold but above the orphan floor
    c = counts(store, phases=["links"])["links"]
    assert c["semantic_edges"] + c["orphan_edges"] >= 1
    assert store.conn.execute("SELECT count(*) FROM associations").fetchone()[0] >= 1


def test_unused_edges_decay_without_compounding(store: core.MemoryStore) -> None:
    fill(store, 3)
    counts(store, phases=["links"], now=NOW)
    w0 = dict(store.conn.execute("SELECT id, weight FROM associations WHERE edge_type='semantic'").fetchall())
    for day in range(1, 31):
        counts(store, phases=["links"], now=NOW + timedelta(days=day))
    daily = dict(store.conn.execute("SELECT id, weight FROM associations WHERE edge_type='semantic'").fetchall())
    for eid, w in w0.items():
        expect = max(min(w, cons.EDGE_MIN_WEIGHT), w * cons.EDGE_DECAY_PER_DAY ** 30)
        assert daily[eid] == pytest.approx(expect, abs=2e-4)
        assert daily[eid] < w


# --------------------------------------------------------------------------- clusters and summaries

def test_cluster_and_summaries(store: core.MemoryStore) -> None:
    ids = fill(store)
    c = counts(store, phases=["cluster", "summarize"])
    assert c["cluster"]["clusters_created"] == 3
    assert c["cluster"]["clustered"] == 18
    assert c["summarize"]["summaries_created"] == 3
    for topic, members in ids.items():
        cid = store.conn.execute("SELECT cluster_id FROM cluster_members WHERE memory_id=?", (members[0],)).fetchone()[0]
        got = {r[0] for r in store.conn.execute("SELECT memory_id FROM cluster_members WHERE cluster_id=?", (cid,))}
        assert got == set(members), topic
        s = store.conn.execute("SELECT summary_memory_id FROM clusters WHERE id=?", (cid,)).fetchone()[0]
        m = store.get(s)
        assert (m.level, m.source, m.ref, m.memory_type) == (1, "consolidate", f"cluster:{cid}", "semantic")
        assert m.content.startswith("Summary of 6 memories")
        derived = {r[0] for r in store.conn.execute(
            "SELECT target_id FROM associations WHERE source_id=? AND edge_type='derived_from'", (s,))}
        assert derived == set(members)


def test_new_memories_join_existing_cluster(store: core.MemoryStore) -> None:
    fill(store)
    counts(store, phases=["cluster", "summarize"])
    new = store.store(TOPICS["garden"].format(i="late"), "episodic", dedup=False).id
    c = counts(store, phases=["cluster", "summarize"])
    assert c["cluster"]["members_joined"] == 1 and c["cluster"]["clusters_created"] == 0
    assert c["summarize"]["summaries_updated"] == 1
    assert store.conn.execute("SELECT count(*) FROM cluster_members WHERE memory_id=?", (new,)).fetchone()[0] == 1


def test_hierarchy_builds_upper_levels(store: core.MemoryStore, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cons, "ROOT_TARGET", 1)
    monkeypatch.setattr(cons, "MAX_LEVEL_DISTANCE", 0.99)
    monkeypatch.setattr(cons, "LEVEL_DISTANCE_STEP", 0.49)
    for t in ("tomatoes basil soil", "engine gearbox oil", "violin cello concert"):
        for i in range(4):
            store.store(f"{t} garden note{i}", "episodic", dedup=False)
    counts(store, phases=["cluster", "summarize"])
    levels = {r[0] for r in store.conn.execute("SELECT level FROM clusters WHERE status='active'")}
    assert max(levels) >= 2
    tree = cons.cluster_tree(store)
    assert tree and tree[0]["level"] >= 2 and tree[0]["children"]


def test_external_summarizer_and_fallback(store: core.MemoryStore, tmp_path: Path) -> None:
    fill(store, 3)
    script = tmp_path / "summ.py"
    script.write_text("import json,sys; d=json.load(sys.stdin); print(f'LLM summary of {len(d[\"members\"])}')")
    counts(store, phases=["cluster", "summarize"], summarizer=[sys.executable, str(script)])
    texts = [r[0] for r in store.conn.execute("SELECT content FROM memories WHERE level=1")]
    assert texts and all(t == "LLM summary of 3" for t in texts)
    store2 = core.MemoryStore(tmp_path / "b.db")
    fill(store2, 3)
    rep = cons.run(store2, now=NOW, keep_backups=0, phases=["cluster", "summarize"], summarizer=["false"])
    assert rep.warnings and "exited with status" in rep.warnings[0]
    assert all(r[0].startswith("Summary of") for r in store2.conn.execute("SELECT content FROM memories WHERE level=1"))
    store2.close()


# --------------------------------------------------------------------------- contradictions

def test_contradictions_same_owner_supersedes_else_open(store: core.MemoryStore) -> None:
    # stored as given (dedup off: no write-time supersession), so that the phase does the work
    old = store.store("The gateway port is 8080", "semantic", source="ops", dedup=False).id
    new = store.store("The gateway port is 9090", "semantic", source="ops", dedup=False).id
    a = store.store("Oscar prefers morning meetings", "semantic", source="ana", dedup=False).id
    b = store.store("Oscar prefers evening meetings", "semantic", source="ben", dedup=False).id
    c = counts(store, phases=["contradict"])["contradict"]
    assert (c["superseded"], c["open"]) == (1, 1)
    assert store.get(old).valid_to is not None and store.get(new).valid_to is None
    assert store.conn.execute("SELECT count(*) FROM associations WHERE edge_type='supersedes' AND source_id=? "
                              "AND target_id=?", (new, old)).fetchone()[0] == 1
    rows = {r["status"]: r for r in cons.list_contradictions(store, None)}
    assert rows["open"]["memory_a"] == a and rows["open"]["memory_b"] == b and rows["open"]["reason"]
    # superseded stays restorable: keep the older one
    cons.resolve_contradiction(store, rows["superseded"]["id"], old)
    assert store.get(old).valid_to is None and store.get(new).valid_to is not None
    assert counts(store, phases=["contradict"])["contradict"]["pairs_checked"] == 0


def test_contradictions_cli(db_path: Path) -> None:
    s = core.MemoryStore(db_path)
    s.store("Oscar prefers morning meetings", "semantic", source="ana", dedup=False)
    b = s.store("Oscar prefers evening meetings", "semantic", source="ben", dedup=False).id
    s.close()
    assert run_cli("consolidate", "--phases", "contradict", "--keep-backups", "0").returncode == 0
    out = json.loads(run_cli("contradictions").stdout)
    assert out["data"]["count"] == 1
    cid = out["data"]["contradictions"][0]["id"]
    res = run_cli("contradictions", "--resolve", str(cid), "--keep", str(b))
    assert res.returncode == 0, res.stdout + res.stderr
    bad = run_cli("contradictions", "--resolve", str(cid), "--keep", "999")
    assert bad.returncode == 1 and "Traceback" not in bad.stderr
    assert json.loads(run_cli("contradictions").stdout)["data"]["count"] == 0


# --------------------------------------------------------------------------- decay

def _decay_store(path: Path) -> core.MemoryStore:
    s = core.MemoryStore(path)
    specs = [("episodic", 0.0), ("episodic", 0.5), ("episodic", 0.95), ("semantic", 0.2), ("procedural", 0.5)]
    for i in range(40):
        mtype, imp = specs[i % len(specs)]
        s.store(f"memory number {i} of kind {mtype}", mtype, importance=imp, pinned=(i == 1), dedup=False)
    s.conn.execute("UPDATE memories SET created_at = ?, decay_ref_at = ?", ("2029-12-01T00:00:00",) * 2)
    return s


def test_decay_daily_runs_equal_one_late_run(tmp_path: Path) -> None:
    daily, once = _decay_store(tmp_path / "daily.db"), _decay_store(tmp_path / "once.db")
    for day in range(1, 31):
        cons.run(daily, now=NOW + timedelta(days=day), phases=["decay"], keep_backups=0)
    cons.run(once, now=NOW + timedelta(days=30), phases=["decay"], keep_backups=0)
    q = "SELECT id, status, strength FROM memories ORDER BY id"
    a, b = daily.conn.execute(q).fetchall(), once.conn.execute(q).fetchall()
    assert [(r[0], r[1]) for r in a] == [(r[0], r[1]) for r in b]
    assert all(abs(x[2] - y[2]) <= 2e-4 for x, y in zip(a, b))
    statuses = {r[1] for r in a}
    assert statuses == {"active", "archived"}  # the test actually crosses the threshold
    # importance >= 0.9 and pinned never archive; nothing is ever deleted
    assert daily.conn.execute("SELECT count(*) FROM memories WHERE status='archived' AND (importance >= 0.9 "
                              "OR pinned = 1)").fetchone()[0] == 0
    assert daily.conn.execute("SELECT count(*) FROM memories").fetchone()[0] == 40
    daily.close()
    once.close()


# --------------------------------------------------------------------------- safety

def test_idempotent_and_memory_md_identical(store: core.MemoryStore, tmp_path: Path) -> None:
    fill(store)
    store.store("The gateway port is 8080", "semantic", source="ops", importance=0.9)
    store.store("The gateway port is 9090", "semantic", source="dev", importance=0.8)
    md = tmp_path / "MEMORY.md"
    md.write_text("# Agent\n\nmy notes\n")
    first = counts(store, memory_md=md)
    assert first["write"]["changed"] is True
    text = md.read_bytes()
    second = counts(store, memory_md=md)
    assert zero_changes(second), second
    assert second["write"]["changed"] is False and md.read_bytes() == text
    # (in 2030 the episodic notes have faded into the archive: the block holds no topic)
    assert b"Open contradictions" in text and b"Key facts" in text


def test_dry_run_reports_exactly_the_real_run(store: core.MemoryStore, tmp_path: Path) -> None:
    fill(store)
    store.store("The gateway port is 8080", "semantic", source="ops", dedup=False)
    store.store("The gateway port is 9090", "semantic", source="ops", dedup=False)
    md = tmp_path / "MEMORY.md"
    before = store.conn.execute("SELECT count(*) FROM memories").fetchone()[0]
    dry = counts(store, dry_run=True, memory_md=md, now=NOW + timedelta(days=40))
    assert store.conn.execute("SELECT count(*) FROM memories").fetchone()[0] == before
    assert store.conn.execute("SELECT count(*) FROM clusters").fetchone()[0] == 0
    assert not md.exists()
    assert not list(tmp_path.glob(".mem-dry-run-*"))
    real = counts(store, memory_md=md, now=NOW + timedelta(days=40))
    assert dry == real
    assert real["decay"]["archived"] > 0 and real["cluster"]["clusters_created"] >= 3


def test_memory_md_outside_block_byte_identical_over_100_runs(store: core.MemoryStore, tmp_path: Path) -> None:
    md = tmp_path / "MEMORY.md"
    head = "# My agent\r\n\r\nUser text — ünïcödé, <!-- not a marker --> kept\r\n\r\n".encode() + b"\xff raw byte\r\n"
    tail = b"\r\n## After\r\ntrailing text without newline"
    md.write_bytes(head + b"<!-- mem:begin -->\r\nold\r\n<!-- mem:end -->" + tail)
    for i in range(100):
        store.store(f"important fact number {i} about topic {i % 7}", "semantic", importance=0.9, dedup=False)
        cons.run(store, now=NOW + timedelta(hours=i), phases=["write"], memory_md=md, keep_backups=0)
        data = md.read_bytes()
        assert data.startswith(head) and data.endswith(tail), i
    assert data.count(b"<!-- mem:begin -->") == 1


def test_forget_cascade_recomputes_or_withdraws(store: core.MemoryStore) -> None:
    ids = fill(store, 4)
    counts(store, phases=["cluster", "summarize"])
    cid_g, sid_g = store.conn.execute(
        "SELECT c.id, c.summary_memory_id FROM clusters c JOIN cluster_members cm ON cm.cluster_id=c.id "
        "WHERE cm.memory_id=?", (ids["garden"][0],)).fetchone()
    store.forget(ids["garden"][0])  # 3 remain: recomputed
    for mid in ids["hiking"][:3]:  # 1 remains: withdrawn
        store.forget(mid)
    cid_h, sid_h = store.conn.execute(
        "SELECT c.id, c.summary_memory_id FROM clusters c JOIN cluster_members cm ON cm.cluster_id=c.id "
        "WHERE cm.memory_id=?", (ids["hiking"][3],)).fetchone()
    c = counts(store, phases=["cascade", "cluster", "summarize"])
    assert c["cascade"] == {"members_removed": 4, "clusters_withdrawn": 1}
    assert c["summarize"]["summaries_updated"] == 1
    assert store.get(sid_g).content.startswith("Summary of 3 memories") and store.get(sid_g).status == "active"
    assert store.conn.execute("SELECT count(*) FROM associations WHERE source_id=? AND target_id=?",
                              (sid_g, ids["garden"][0])).fetchone()[0] == 0
    assert store.get(sid_h).status == "archived"
    assert store.conn.execute("SELECT status FROM clusters WHERE id=?", (cid_h,)).fetchone()[0] == "withdrawn"
    assert cid_g != cid_h


def test_backups_keep_last_n(store: core.MemoryStore, tmp_path: Path) -> None:
    for day in range(5):
        fill(store, 2)  # new memories each day, so decay has something to archive (a backup is kept)
        rep = cons.run(store, now=NOW + timedelta(days=day), phases=["decay"], keep_backups=2)
        assert rep.backup is not None
    backups = sorted((tmp_path / "backups").glob("*.consolidate.db"))
    assert len(backups) == 2 and backups[-1].name.endswith("20300105T120000.consolidate.db")
    assert oct(backups[0].stat().st_mode & 0o777) == "0o600"
    # a run that changes nothing keeps no backup and prunes none
    rep = cons.run(store, now=NOW + timedelta(days=6), phases=["decay"], keep_backups=2)
    assert rep.backup is None and rep.backup_note == "none kept: the destructive phases changed nothing"
    assert sorted((tmp_path / "backups").glob("*.consolidate.db")) == backups


def test_lock_second_run_exits_6(db_path: Path) -> None:
    from filelock import FileLock

    core.MemoryStore(db_path).close()
    with FileLock(str(cons.lock_path(db_path))):
        res = run_cli("consolidate")
        assert res.returncode == 6
        err = json.loads(res.stdout)["error"]
        assert err["code"] == "locked" and "another consolidate is running" in err["message"]
        plain = run_cli("consolidate", "--plain")
        assert plain.returncode == 6 and plain.stderr.startswith("error: another consolidate")
    assert run_cli("consolidate", "--keep-backups", "0").returncode == 0


def _big_store(db_path: Path, n: int) -> None:
    s = core.MemoryStore(db_path)
    items = [core.NewMemory(content=f"{w} note {i} about {w} and {TOPICS[w].format(i=i)}", memory_type="episodic",
                            thread=f"t{i % 9}", ref=f"r{i}")
             for i in range(n) for w in [list(TOPICS)[i % 3]]]
    s.store_many(items)
    s.close()


def test_concurrent_stores_during_run_never_fail(db_path: Path) -> None:
    _big_store(db_path, 1500)
    env = dict(os.environ)
    proc = subprocess.Popen([sys.executable, str(ROOT / "mem.py"), "consolidate", "--keep-backups", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=str(ROOT))
    time.sleep(0.3)
    stores = [subprocess.Popen([sys.executable, str(ROOT / "mem.py"), "store", f"concurrent fact {i} during the run",
                                "--source", f"agent{i}"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=env, cwd=str(ROOT)) for i in range(8)]
    outs = [p.communicate(timeout=120) for p in stores]
    # (the failing ones only, whole: under load 25 one failed and pytest's repr cut its exit code and stderr off)
    assert all(p.returncode == 0 for p in stores), [(p.returncode, o[1][-2000:]) for p, o in zip(stores, outs)
                                                    if p.returncode != 0]
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, out + err
    s = core.MemoryStore(db_path)
    assert s.conn.execute("SELECT count(*) FROM memories WHERE content LIKE 'concurrent fact%'").fetchone()[0] == 8
    assert s.doctor()["ok"]
    s.close()


def test_killed_run_is_completed_by_the_next(db_path: Path) -> None:
    _big_store(db_path, 1500)
    for delay in (0.6, 1.2, 2.0):
        proc = subprocess.Popen([sys.executable, str(ROOT / "mem.py"), "consolidate", "--keep-backups", "0"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ), cwd=str(ROOT))
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    res = run_cli("consolidate", "--keep-backups", "0", timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    again = json.loads(run_cli("consolidate", "--keep-backups", "0", timeout=300).stdout)["data"]["phases"]
    assert again["cluster"]["clusters_created"] == 0 and again["summarize"]["summaries_created"] == 0
    assert again["links"]["semantic_edges"] == 0
    s = core.MemoryStore(db_path)
    assert s.doctor()["ok"]
    assert s.conn.execute("SELECT count(*) FROM clusters c WHERE status='active' AND NOT EXISTS "
                          "(SELECT 1 FROM memories m WHERE m.id = c.summary_memory_id)").fetchone()[0] == 0
    s.close()


def test_cli_human_and_json_output(db_path: Path) -> None:
    _big_store(db_path, 30)
    res = run_cli("consolidate", "--plain", "--keep-backups", "0")
    assert res.returncode == 0 and "consolidated:" in res.stdout and "links" in res.stdout
    dry = json.loads(run_cli("consolidate", "--dry-run", "--json").stdout)
    assert dry["ok"] and dry["data"]["dry_run"] is True and set(dry["data"]["phases"]) == set(cons.ALL_PHASES)
    tree = json.loads(run_cli("clusters").stdout)["data"]
    assert tree["count"] >= 1 and ("members" in tree["clusters"][0] or "children" in tree["clusters"][0])
    assert run_cli("clusters", "99999").returncode == 3
    assert run_cli("consolidate", "--phases", "nope").returncode == 1
