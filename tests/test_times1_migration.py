"""times1: migration m016_time_kind on a store written before it — each row's kind of time from its source — and
what a write, an import and an export/import round trip store since (memengine/timekind.py)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli_subprocess

import memory_core
from memengine import migrations
from memengine.db import connect

ROWS = [  # (id, source, ref, event_at) as stores before m016 hold them
    (1, "whatsapp", "wa:1", "2021-01-01T00:05:00"),  # a zone-less chat's wall clock
    (2, "imessage", "im:1", "2021-01-02T09:00:00"),
    (3, "user", None, "2021-03-01T00:00:00"),  # store --at 2021-03-01: a bare day
    (4, "user", None, "2021-01-01T08:05:00"),  # store --at "2021-01-01 00:05" in Los Angeles: a moment
    (5, "chatgpt", "cg:1", "2021-01-01T05:00:00"),  # an epoch: a moment
    (6, "user", None, None),  # no event time: created_at
    (7, "telegram", "tg:1", "2021-01-01T13:00:00"),  # JSON (moment) or HTML (wall clock): left as it was read
    (8, "whatsapp", "wa:2", None),
    (9, "markdown", "md:1", "2023-09-14T00:00:00"),  # a note's date without a time
]


def _old_store(path: Path) -> None:
    old = connect(path)
    assert migrations.migrate(old, upto="m015_people_faded")[-1] == "m015_people_faded"
    for mid, source, ref, at in ROWS:
        old.execute("""INSERT INTO memories(id, content, content_hash, created_at, updated_at, source, ref, event_at)
                       VALUES (?, ?, ?, '2024-05-01T10:00:00', '2024-05-01T10:00:00', ?, ?, ?)""",
                    (mid, f"memory number {mid}", f"h{mid}", source, ref, at))
    old.close()


def test_m016_fills_each_rows_kind_from_its_source(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    _old_store(db)
    store = memory_core.MemoryStore(db)  # opening migrates
    kinds = dict(store.conn.execute("SELECT id, time_kind FROM memories ORDER BY id").fetchall())
    assert kinds == {1: "floating", 2: "floating", 3: "day", 4: "utc", 5: "utc", 6: "utc", 7: "utc", 8: "utc", 9: "day"}
    # nothing else moved: the times as they were, the keyword index untouched
    assert [r[0] for r in store.conn.execute("SELECT event_at FROM memories ORDER BY id")] == [r[3] for r in ROWS]
    store.close()
    proc = run_cli_subprocess("--db", str(db), "doctor", env={"MEM_EMBEDDER": "hash"})
    out = json.loads(proc.stdout.strip().splitlines()[-1])["data"]
    # (the rows above were written without vectors, as no real store has them: the one problem doctor names)
    assert out["integrity"] == "ok" and out["fts_ok"] and out["problems"] == ["9 missing vectors"], out
    assert out["migrations"][-1] == "m016_time_kind"


def test_writes_store_their_kind_and_an_export_carries_it(tmp_path: Path) -> None:
    db, env = tmp_path / "m.db", {"MEM_EMBEDDER": "hash", "TZ": "America/Los_Angeles"}

    def mem(*args: str) -> dict:
        proc = run_cli_subprocess("--db", str(db), "--json", *args, env=env)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        return json.loads(proc.stdout.strip().splitlines()[-1])["data"]

    mem("store", "Flew to Rome", "--type", "episodic", "--at", "2021-03-01")
    mem("store", "New year toast", "--type", "episodic", "--at", "2021-01-01 00:05")
    mem("store", "Oscar prefers morning meetings")
    chat = tmp_path / "wa.txt"
    chat.write_text("1/1/21, 12:05 AM - Ana: Happy new year!!\n1/1/21, 12:07 AM - Ben: You too\n", encoding="utf-8")
    mem("import", str(chat))
    conn = connect(db)
    got = conn.execute("SELECT content, event_at, time_kind FROM memories WHERE content NOT LIKE '%' || char(10) || '%' "
                       "ORDER BY id").fetchall()
    assert [tuple(r) for r in got] == [
        ("Flew to Rome", "2021-03-01T00:00:00", "day"),
        ("New year toast", "2021-01-01T08:05:00", "utc"),
        ("Oscar prefers morning meetings", None, "utc"),
        ("Ana: Happy new year!!", "2021-01-01T00:05:00", "floating"),
        ("Ben: You too", "2021-01-01T00:07:00", "floating"),
    ]
    # the chat's episode (both turns in one memory) keeps its first turn's kind
    assert [tuple(r) for r in conn.execute("SELECT time_kind FROM memories WHERE content LIKE '%' || char(10) || '%'")
            ] == [("floating",)]
    conn.close()
    out = tmp_path / "all.jsonl"
    proc = run_cli_subprocess("--db", str(db), "export", env=env)
    assert proc.returncode == 0, proc.stderr
    out.write_text(proc.stdout, encoding="utf-8")
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert {x["content"]: x.get("time_kind") for x in lines if "\n" not in x["content"]} == {
        "Flew to Rome": "day", "New year toast": None, "Oscar prefers morning meetings": None,
        "Ana: Happy new year!!": "floating", "Ben: You too": "floating"}
    db2 = tmp_path / "copy.db"
    proc = run_cli_subprocess("--db", str(db2), "import", "jsonl", str(out), env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    conn = connect(db2)
    assert dict(conn.execute("SELECT content, time_kind FROM memories WHERE content NOT LIKE '%' || char(10) || '%'")
                .fetchall()) == {"Flew to Rome": "day", "New year toast": "utc", "Oscar prefers morning meetings": "utc",
                                 "Ana: Happy new year!!": "floating", "Ben: You too": "floating"}
    conn.close()


def test_a_json_line_with_an_unknown_kind_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"content": "x", "event_at": "2021-01-01T00:00:00", "time_kind": "local"}) + "\n",
                   encoding="utf-8")
    proc = run_cli_subprocess("--db", str(tmp_path / "m.db"), "import", str(bad), env={"MEM_EMBEDDER": "hash"})
    err = json.loads(proc.stdout.strip().splitlines()[-1])
    assert proc.returncode != 0
    assert "bad.jsonl:1: field 'time_kind' must be one of utc, floating, day" in err["error"]["message"]
