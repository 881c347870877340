"""What an agent reads at session start: `brief` and the MEMORY.md block (issue 18)."""

from __future__ import annotations

import json
from collections import Counter
from datetime import datetime
from pathlib import Path

import pytest
from conftest import run_cli

import memory_core as core
from memengine import brief, brief_pool, graph_rank, topic_names
from memengine import consolidate as cons
from memengine.timeparse import utcnow

# consolidate's decay runs from the memories' storage time (the real clock): "now" must be near it
NOW = utcnow().replace(microsecond=0)


def _supersede(store: core.MemoryStore, old: int, new: int) -> None:
    """What write-time supersession records: valid_to on the old fact, an edge from the new one."""
    with core.write_tx(store.conn):
        store.conn.execute("UPDATE memories SET valid_to = ? WHERE id = ?", ("2029-12-30T00:00:00", old))
        store.conn.execute("INSERT OR IGNORE INTO associations(source_id, target_id, edge_type, weight, created_at) "
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


# --------------------------------------------------------------------------- the selection

FIXTURES = Path(__file__).resolve().parent / "fixtures"
CHATS = {
    "family": ["Ana said the flight to Lisbon lands at 18:40 on 12 March",
               "Ana booked the hotel near the river for 3 nights",
               "my sister Ana will bring the kids on Saturday",
               "ok", "haha yes", "see you then"],
    "work": ["the billing job moved to Tuesdays at 02:00 after the outage",
             "I decided to keep PostgreSQL 15 for the invoices service",
             "Oscar reviews the gateway patch before Friday"],
}


def _fill_chats(store: core.MemoryStore) -> None:
    for thread, lines in CHATS.items():
        for i, text in enumerate(lines):
            author = "Ana" if thread == "family" and i % 2 == 0 else "Oscar" if thread == "work" else "me"
            store.store(text, "episodic", thread=thread, author=author, event_at=datetime.fromisoformat(f"2029-12-{10 + i:02d}T10:00:00"),
                        dedup=False)


def test_superseded_facts_never_appear_and_the_change_is_shown(store: core.MemoryStore, tmp_path: Path) -> None:
    old = store.store("the team standup is at 09:30 in room Kepler", "semantic", importance=0.9).id
    new = store.store("the team standup is at 10:15 in room Hubble", "semantic", importance=0.9).id
    _fill_chats(store)
    _supersede(store, old, new)
    md = tmp_path / "MEMORY.md"
    cons.run(store, now=NOW, keep_backups=0, memory_md=md)
    data = graph_rank.brief(store, 2000, now=NOW)
    block = md.read_text()
    for text in (data["text"], block):
        # the old fact is only ever quoted as what the new one replaces, never as current
        assert [line for line in text.splitlines() if "09:30" in line] == [
            line for line in text.splitlines() if f"(replaces #{old}:" in line]
        assert f"#{new} the team standup is at 10:15" in text
    shown = [i["id"] for i in data["chosen"]]
    assert old not in shown
    # what changed recently: the successor, naming the memory it replaces
    recent = data["sections"]["recent"]
    assert recent[0]["id"] == new and recent[0]["why"]["supersedes"] == old
    assert f"(replaces #{old}:" in recent[0]["text"]


def test_people_are_only_authors_and_contacts(store: core.MemoryStore, tmp_path: Path) -> None:
    # capitalised common words, places and products recur mid-sentence: none is a person
    for i in range(6):
        store.store(f"we moved the Python scripts from Windows to Linux in the United Kingdom, Limit {i}",
                    "episodic", thread="it", author="Oscar", event_at=datetime.fromisoformat(f"2029-12-0{i + 1}T09:00:00"), dedup=False)
        store.store(f"the Gardens in Suisse were closed, said the Mac app, then Python again {i}", "episodic",
                    thread="it", author="user", event_at=datetime.fromisoformat(f"2029-12-0{i + 1}T10:00:00"), dedup=False)
    env = {"MEM_DB": str(store.path)}
    assert run_cli("import", str(FIXTURES / "vcf" / "contacts.vcf"), env=env).returncode == 0
    store.close()
    assert run_cli("consolidate", env=env).returncode == 0
    data = json.loads(run_cli("--json", "brief", env=env).stdout)["data"]
    people = [i["text"] for i in data["sections"]["people"]]
    names = [p.split(":")[0].split(" (#")[0] for p in people]
    assert names[0] == "Oscar"
    assert sorted(names[1:]) == ["Ana García López", "Bob Smith", "Chloé Martin"]
    assert "wrote 6 memories in 1 chat (2029-12-01 – 2029-12-06)" in people[0]
    bob = next(p for p in people if p.startswith("Bob Smith"))
    assert "org Acme, Inc." in bob and "555" not in bob  # who they are, not their phone number
    fake = ("Python", "Windows", "Linux", "Kingdom", "United", "Limit", "Suisse", "Gardens", "Mac")
    assert not any(p.startswith(fake) for p in people)
    check = run_cli("--json", "clusters", env=env)
    summaries = json.dumps(json.loads(check.stdout)["data"])
    for word in fake:
        assert f"people: {word}" not in summaries and f", {word}" not in summaries.split("key terms")[0]


def test_brief_and_block_share_one_selection_with_ids_that_mean_one_thing(store: core.MemoryStore,
                                                                           tmp_path: Path) -> None:
    _fill_chats(store)
    for i in range(8):
        store.store(f"we planted tomatoes and basil in the garden beds, row {i}", "episodic", thread="garden",
                    author="me", event_at=datetime.fromisoformat(f"2029-11-{i + 1:02d}T08:00:00"), dedup=False)
    md = tmp_path / "MEMORY.md"
    cons.run(store, now=NOW, keep_backups=0, memory_md=md)
    data = graph_rank.brief(store, 2000, now=NOW)
    block = md.read_text()
    body = block.split("\n", 2)[2].rsplit("<!-- mem:end -->", 1)[0].strip()
    assert body == data["text"].split("\n", 1)[1].strip()  # the same lines, headings and order
    assert data["chosen"] and all(i["why"] for i in data["chosen"])
    for item in data["chosen"]:
        if item["id"] is not None:
            got = store.get(item["id"])
            assert f"#{item['id']} " in item["text"] and got.content.split()[0] in item["text"]
    topics = [t for t in data["topics"] if t["id"] is not None]
    assert topics
    for t in topics:
        assert f"### T{t['id']} · {t['name']}" in data["text"]
        assert store.conn.execute("SELECT 1 FROM clusters WHERE id = ?", (t["id"],)).fetchone()
        assert 1 <= len(t["memories"]) <= t["size"]
    count, _how = graph_rank.token_counter(store)
    for budget in (5, 40, 120, 400):
        small = graph_rank.brief(store, budget, now=NOW)
        assert small["tokens"] <= budget and count(small["text"] + "\n") <= budget


def test_one_large_chat_cannot_take_the_budget(store: core.MemoryStore) -> None:
    for i in range(150):
        store.store(f"big chat message {i}: we talked about the weather and item {i * 7} in detail today",
                    "episodic", thread="big", author="Zed", event_at=datetime.fromisoformat(f"2029-10-01T{i // 60:02d}:{i % 60:02d}:00"),
                    dedup=False)
    small = []
    for j, text in enumerate(["I adopted a cat named Miso on 3 May", "my passport expires in August 2031",
                              "I switched the mortgage to a fixed rate of 3.1%"]):
        small.append(store.store(text, "episodic", thread=f"small{j}", author="me", dedup=False).id)
    cons.run(store, now=NOW, keep_backups=0)
    data = graph_rank.brief(store, 600, now=NOW)
    shown = {i["id"] for i in data["chosen"]}
    assert set(small) <= shown


def test_block_lifecycle_through_consolidate(store: core.MemoryStore, tmp_path: Path) -> None:
    _fill_chats(store)
    md = tmp_path / "MEMORY.md"
    md.write_bytes(b"# My notes\nkeep this")  # no final newline
    cons.run(store, now=NOW, keep_backups=0, memory_md=md)
    first = md.read_bytes()
    assert first.startswith(b"# My notes\nkeep this\n\n<!-- mem:begin -->\n") and first.endswith(b"<!-- mem:end -->\n")
    stamp = md.stat().st_mtime_ns
    cons.run(store, now=NOW, keep_backups=0, memory_md=md)  # unchanged store: nothing written
    assert md.read_bytes() == first and md.stat().st_mtime_ns == stamp
    with md.open("a") as fh:  # an agent appends a note after the block
        fh.write("note from the agent\n")
    store.store("I decided to move the backups to the NAS on 4 January", "semantic", importance=0.9)
    cons.run(store, now=NOW, keep_backups=0, memory_md=md)
    text = md.read_text()
    assert text.startswith("# My notes\nkeep this\n\n<!-- mem:begin -->\n")
    assert text.endswith("<!-- mem:end -->\nnote from the agent\n")
    assert "move the backups to the NAS" in text


def test_topic_name_is_a_phrase_specific_to_its_members() -> None:
    texts = ("Ana: shared image of the adoption agency", "we called the adoption agency", "adoption agency forms")
    others = ("shared image of a cat", "shared image again")
    stop = frozenset({"the", "to", "a", "we", "for", "of", "again"})
    df: Counter[str] = Counter()
    for t in texts + others:
        df.update({k[0] for k in topic_names.runs(t, stop, set()) if len(k) == 1})
    assert topic_names.name(texts, stop, {"ana"}, topic_names.idf(lambda w: df[w], 5)) == "adoption agency"


def test_trim_cuts_at_a_sentence_boundary() -> None:
    text = "The first sentence is long enough to keep. " + "Second one is much longer " * 20
    assert brief.trim(text, 80) == "The first sentence is long enough to keep. …"
    assert brief.trim("Short one. " + "word " * 40, 60).endswith("word…")  # too short a sentence: word cut
    assert brief.trim("short", 60) == "short"
    assert brief.memory_line(7, "[1:56 pm on 8 May, 2023] Caroline: hi", "2023-05-08T13:56:00") == \
        "2023-05-08 #7 Caroline: hi"


def test_a_store_larger_than_the_pool_takes_central_members_of_clusters_then_ranked(
        store: core.MemoryStore, monkeypatch: pytest.MonkeyPatch) -> None:
    _fill_chats(store)
    for i in range(8):
        store.store(f"we planted tomatoes and basil in the garden beds, row {i}", "episodic", thread="garden",
                    author="me", dedup=False)
    cons.run(store, now=NOW, keep_backups=0)
    monkeypatch.setattr(brief_pool, "POOL_MAX", 6)
    monkeypatch.setattr(brief_pool, "POOL_PER_TOPIC", 2)
    pool = brief_pool.topic_pool(store, ranked_ids=[1, 2, 3])
    assert len(pool) == 6
    clustered = [p for p in pool if p[4] is not None]
    per_cluster = Counter(p[4] for p in clustered)
    assert clustered and max(per_cluster.values()) <= 2  # the most central members of each cluster
    live = {int(r[0]) for r in store.conn.execute("SELECT id FROM memories WHERE level = 0 AND status = 'active'")}
    assert {p[0] for p in pool} <= live
    data = graph_rank.brief(store, 400, now=NOW)
    assert data["chosen"] and data["tokens"] <= 400


def test_a_group_sharing_no_words_is_not_named_after_one_member() -> None:
    stop = frozenset({"the", "to", "a", "in", "on", "of", "with"})
    texts = ("Windows error 0x8007045D means the USB stick failed", "Trip to Lisbon in May with Ana",
             "The retro agreed to cut CI time")
    flat = topic_names.idf(lambda _w: 1, 3)
    assert topic_names.name(texts, stop, set(), flat) == brief.MIXED
    # one member: its own longest run ("means" and "failed" end none)
    assert topic_names.name(texts[:1], stop, set(), flat) == "Windows error 0x8007045D"
    assert brief.Topic(None, 0, brief.MIXED, 3).title() == "Other memories (3 memories, not yet in a topic)"
    assert brief.Topic(7, 0, brief.MIXED, 3).title() == "T7 · mixed subjects (3 memories)"
