"""Model-free commands stay cheap at scale (issue 22): counters kept by triggers, no heavy imports.

Speed itself lives in bench/scale.py; here: the counters `stats` reads equal the full scans
they replace after every kind of change, and the commands that need no vectors never
import the embedder, onnxruntime, tokenizers or numpy (checked in a real subprocess).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memengine import migrations
from memengine.db import connect, write_tx
from memengine.edges import add_edges
from memory_core import MemoryStore

REPO = Path(__file__).resolve().parent.parent
HEAVY = ("numpy", "onnxruntime", "tokenizers", "embedder", "rich")
WRITE_ONLY = ("memengine.facts", "memengine.fact_lexicon", "memengine.fact_tokens", "memengine.fact_change")  # fact rules: loaded by writes that compare facts
# The recall's steps (memengine/recall/pipeline.py ``_load_steps``): imported by the first recall, never by a
# command that does not recall (~17 modules, ~7 ms of a cold call).
RECALL_STEPS = ("memengine.recall.absent", "memengine.recall.adapter", "memengine.recall.episodes",
                "memengine.recall.expand", "memengine.recall.follow", "memengine.recall.fusion",
                "memengine.recall.instances", "memengine.recall.mention", "memengine.recall.moved",
                "memengine.recall.parts", "memengine.recall.updates", "memengine.recall.replaced",
                "memengine.recall.counter", "memengine.recall.answerable", "memengine.recall.calendar_words",
                "memengine.recall.replypair", "memengine.recall.renamed")


def _counted(store: MemoryStore) -> dict[str, object]:
    s = store.stats()
    return {k: s[k] for k in ("memories", "by_status", "by_type", "vectors", "associations")}


def _scanned(store: MemoryStore) -> dict[str, object]:
    """What the counters must equal: the full scans ``stats`` used to run."""
    c = store.conn
    by_status = dict(c.execute("SELECT status, count(*) FROM memories GROUP BY status").fetchall())
    return {
        "memories": sum(by_status.values()),
        "by_status": by_status,
        "by_type": dict(c.execute("SELECT memory_type, count(*) FROM memories WHERE status = 'active' "
                                  "GROUP BY memory_type").fetchall()),
        "vectors": c.execute("SELECT count(*) FROM vec_memories").fetchone()[0],
        "associations": c.execute("SELECT count(*) FROM associations").fetchone()[0],
    }


def test_stats_counters_follow_every_change(store: MemoryStore) -> None:
    a = store.store("Ana moved to Lisbon in May", "episodic", author="Ana", thread="t").id
    b = store.store("Oscar prefers morning meetings", "semantic").id
    c = store.store("restart the gateway with systemctl", "procedural").id
    assert _counted(store) == _scanned(store)
    assert store.stats()["by_type"] == {"episodic": 1, "semantic": 1, "procedural": 1}

    store.forget(b)
    assert _counted(store) == _scanned(store)
    assert store.stats()["by_status"] == {"active": 2, "deleted": 1}
    store.restore(b)
    with write_tx(store.conn):  # archive (decay), a type corrected, a no-op update, a hard delete
        store.conn.execute("UPDATE memories SET status = 'archived' WHERE id = ?", (a,))
        store.conn.execute("UPDATE memories SET memory_type = 'semantic' WHERE id = ?", (c,))
        store.conn.execute("UPDATE memories SET importance = 0.9 WHERE id = ?", (b,))
    assert _counted(store) == _scanned(store)
    assert store.stats()["by_type"] == {"semantic": 2}

    with write_tx(store.conn):  # edges: inserted, ignored as duplicates, upserted, deleted
        assert add_edges(store.conn, [(a, b, "explicit", 0.5), (b, c, "causal", 0.5)], "2024-01-01") == 2
        add_edges(store.conn, [(a, b, "explicit", 0.5)], "2024-01-01")
        add_edges(store.conn, [(b, c, "causal", 0.9)], "2024-01-01", on_conflict="weight")
    assert store.stats()["associations"] == 2 == _scanned(store)["associations"]
    with write_tx(store.conn):
        store.conn.execute("DELETE FROM associations WHERE source_id = ?", (a,))
        store.conn.execute("DELETE FROM memories WHERE id = ?", (c,))  # cascades its edge
    assert _counted(store) == _scanned(store)
    assert store.stats()["memories"] == 2


def test_stats_counters_over_a_bulk_import(store: MemoryStore) -> None:
    from memory_core import NewMemory

    store.store_many([NewMemory(content=f"turn {i} of the chat", memory_type="episodic", source="chat", ref=f"r{i}",
                                thread="t", position=i, author="Mei") for i in range(40)])
    store.store_many([NewMemory(content=f"turn {i} of the chat", memory_type="episodic", source="chat", ref=f"r{i}",
                                thread="t", position=i) for i in range(45)])  # 40 duplicates by ref
    assert _counted(store) == _scanned(store)
    assert store.stats()["memories"] == 45


def test_m008_fills_the_counters_from_existing_rows(tmp_path: Path) -> None:
    conn = connect(tmp_path / "old.db")
    migrations.migrate(conn, upto="m007_people")
    rows = [(1, "episodic", "active"), (2, "episodic", "active"), (3, "semantic", "deleted"), (4, "procedural", "archived")]
    for mid, mtype, status in rows:
        conn.execute("""INSERT INTO memories(id, content, content_hash, created_at, updated_at, memory_type, status)
                        VALUES (?, ?, ?, '2024-01-01', '2024-01-01', ?, ?)""", (mid, f"m{mid}", f"h{mid}", mtype, status))
    conn.execute("INSERT INTO associations(source_id, target_id, edge_type, created_at) VALUES (1, 2, 'temporal', 'x')")
    assert migrations.migrate(conn, upto="m008_counts") == ["m008_counts"]
    got = {(r[0], r[1], r[2]): r[3] for r in conn.execute("SELECT what, status, memory_type, n FROM _mem_counts")}
    assert got == {("memories", "active", "episodic"): 2, ("memories", "deleted", "semantic"): 1,
                   ("memories", "archived", "procedural"): 1, ("associations", "", ""): 1}
    conn.close()


def _modules_after(args: list[str], db: Path, tmp_path: Path) -> tuple[int, set[str]]:
    """Run ``mem.py --db db --json *args`` in a fresh interpreter; its exit code and sys.modules at exit."""
    out = tmp_path / "modules.json"
    code = (
        "import atexit, json, runpy, sys\n"
        f"atexit.register(lambda: open({str(out)!r}, 'w').write(json.dumps(sorted(sys.modules))))\n"
        f"sys.path.insert(0, {str(REPO)!r})\n"
        f"sys.argv = [{str(REPO / 'mem.py')!r}, '--db', {str(db)!r}, '--json', *sys.argv[1:]]\n"
        "runpy.run_path(sys.argv[0], run_name='__main__')\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "MEM_EMBEDDER"}  # the real model, were anything to embed
    env["MEM_NO_SERVER"] = "1"
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.returncode, set(json.loads(out.read_text()))


@pytest.mark.parametrize("args", [
    ["stats"], ["get", "1"], ["forget", "2"], ["restore", "2"], ["pin", "1"], ["unpin", "1"], ["path"],
    ["link", "1", "3"], ["unlink", "2", "3"], ["graph", "1"], ["browse"],
])
def test_model_free_commands_import_no_model_or_numpy(args: list[str], tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with MemoryStore(db) as s:  # written with the test embedder; reading needs no embedder at all
        for text in ("Ana moved to Lisbon", "Oscar likes tea", "the gateway restarts nightly"):
            s.store(text, "semantic")
        s.add_links(2, [(3, "explicit", 0.8)])  # for `unlink 2 3`
    rc, mods = _modules_after(args, db, tmp_path)
    assert rc == 0
    assert "memory_core" in mods  # the command really ran through the engine
    assert sorted(m for m in mods if m.split(".")[0] in HEAVY or m in WRITE_ONLY) == []
    assert sorted(m for m in mods if m in RECALL_STEPS) == []


STDLIB_UNUSED = ("hashlib", "_hashlib", "random", "shutil", "tempfile", "bz2", "lzma", "logging", "subprocess")


@pytest.mark.parametrize("args", [["stats"], ["get", "1"], ["path"]])
def test_stats_and_get_import_no_stdlib_they_never_use(args: list[str], tmp_path: Path) -> None:
    """(each ~1-3 ms of a ~90 ms call: OpenSSL's hashes, random, shutil's compressors, logging)"""
    db = tmp_path / "m.db"
    with MemoryStore(db) as s:
        s.store("Ana moved to Lisbon", "semantic")
    _, mods = _modules_after(args, db, tmp_path)
    assert sorted(m for m in mods if m in STDLIB_UNUSED) == []


# What an agent's cold store / recall / brief never needs (names only: the cost lives in bench/cold_cli.py).
NEVER = ("rich", "tokenizers", "scipy", "sklearn", "mcp", "anyio", "memengine.consolidate", "memengine.keyword_index",
         "memengine.cli.servers", "memengine.cli.transfer", "importers", "memengine.sharing")
NOT_FOR = {
    "store": ("memengine.brief", "memengine.graph_rank", "memengine.summarize", "memengine.facts",  # a chat turn
              *RECALL_STEPS),
    "recall": ("memengine.brief", "memengine.graph_rank", "memengine.facts", "memengine.fact_slot",
               "memengine.chat_episodes"),
    "brief": ("onnxruntime", "memengine.facts", "memengine.fact_slot", "memengine.chat_episodes"),
}


@pytest.fixture(scope="module")
def chat_store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A store of a few chat turns written by cold ``mem.py store`` calls with the real model (its cache shared
    by the module's calls: the int8 form is derived once)."""
    home = tmp_path_factory.mktemp("cold-surface")
    env = {k: v for k, v in os.environ.items() if k not in ("MEM_EMBEDDER", "MEM_DB")}
    env.update(MEM_NO_SERVER="1", XDG_CACHE_HOME=str(home / "cache"), XDG_DATA_HOME=str(home / "data"))
    db = home / "chat.db"
    for author, text in (("Ana", "we moved the standup to 9:30 on Tuesdays"), ("Oscar", "ok, 9:30 works for me"),
                         ("Ana", "the gateway restarts nightly at 2am")):
        proc = subprocess.run([sys.executable, str(REPO / "mem.py"), "--db", str(db), "--json", "store", text,
                               "--type", "episodic", "--author", author, "--thread", "team"],
                              capture_output=True, text=True, env=env)
        assert proc.returncode == 0, proc.stderr
    return db, env


@pytest.mark.parametrize("args", [
    ["store", "Ana: the standup is at 10 now", "--type", "episodic", "--author", "Ana", "--thread", "team"],
    ["recall", "when is the standup?"], ["brief"],
])
def test_cold_store_recall_brief_import_surface(args: list[str], chat_store: tuple[Path, dict[str, str]],
                                                tmp_path: Path) -> None:
    db, env = chat_store
    copy = tmp_path / "copy.db"
    copy.write_bytes(db.read_bytes())
    out = tmp_path / "modules.json"
    code = (
        "import atexit, json, runpy, sys\n"
        f"atexit.register(lambda: open({str(out)!r}, 'w').write(json.dumps(sorted(sys.modules))))\n"
        f"sys.path.insert(0, {str(REPO)!r})\n"
        f"sys.argv = [{str(REPO / 'mem.py')!r}, '--db', {str(copy)!r}, '--json', *sys.argv[1:]]\n"
        "runpy.run_path(sys.argv[0], run_name='__main__')\n"
    )
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    mods = set(json.loads(out.read_text()))
    assert "memory_core" in mods
    if args[0] != "brief":
        assert "onnxruntime" in mods  # (the real model ran: the surface is a real call's)
    unwanted = NEVER + NOT_FOR[args[0]]
    assert sorted(m for m in mods if any(m == u or m.startswith(u + ".") for u in unwanted)) == []
    if args[0] == "recall":  # (the names above are real: a recall loads every step)
        assert sorted(m for m in RECALL_STEPS if m not in mods) == []
