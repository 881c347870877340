"""Facts that change (issue 16): same-fact dedup, supersession at write time, recall of the current truth."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli

import memory_core as core
from memengine import facts

DATA = Path(__file__).parent / "data"
HELDOUT = [json.loads(line) for line in (DATA / "fact_pairs_heldout.jsonl").read_text(encoding="utf-8").splitlines()]
DEV = [json.loads(line) for line in (DATA / "contradiction_pairs.jsonl").read_text(encoding="utf-8").splitlines()]
STREAM = [json.loads(line) for line in (DATA / "fact_updates.jsonl").read_text(encoding="utf-8").splitlines()]
UPDATES = [r for r in STREAM if r["kind"] == "update"]
PARAPHRASES = [r for r in STREAM if r["kind"] == "paraphrase"]

# Bars: the held-out set was written before any tuning and never tuned on (its figures at the
# time of writing: precision 0.978, recall 0.938); the dev set is what the rules were tuned on.
HELDOUT_MIN_PRECISION = 0.95
HELDOUT_MIN_RECALL = 0.90
DEV_MIN_PRECISION = 0.97
DEV_MIN_RECALL = 0.97


def scores(rows: list[dict[str, Any]]) -> tuple[float, float]:
    tp = fp = fn = 0
    for r in rows:
        flagged = facts.compare(r["a"], r["b"]) is not None
        tp += flagged and r["label"]
        fp += flagged and not r["label"]
        fn += (not flagged) and r["label"]
    return tp / max(1, tp + fp), tp / max(1, tp + fn)


# --------------------------------------------------------------------------- the labelled sets

def test_heldout_set_shape() -> None:
    assert len(HELDOUT) >= 80
    assert sum(r["label"] for r in HELDOUT) == len(HELDOUT) // 2  # half updates, half paraphrases
    langs = {r["lang"] for r in HELDOUT}
    assert "en" in langs and len(langs) >= 2
    for r in HELDOUT:
        assert set(r) == {"a", "b", "label", "kind", "lang"} and (r["kind"] is None) == (not r["label"])


def test_contradiction_precision_recall_on_the_heldout_set() -> None:
    precision, recall = scores(HELDOUT)
    assert precision >= HELDOUT_MIN_PRECISION and recall >= HELDOUT_MIN_RECALL, (precision, recall)


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_each_language_is_detected(lang: str) -> None:
    precision, recall = scores([r for r in HELDOUT if r["lang"] == lang])
    assert precision >= 0.9 and recall >= 0.8, (lang, precision, recall)


def test_contradiction_precision_recall_on_the_dev_set() -> None:
    precision, recall = scores(DEV)
    assert precision >= DEV_MIN_PRECISION and recall >= DEV_MIN_RECALL, (precision, recall)


def test_no_update_is_ever_the_same_fact() -> None:
    for r in [x for x in HELDOUT + DEV if x["label"]] + [{"a": u["old"], "b": u["new"]} for u in UPDATES]:
        assert not facts.same_fact(r["a"], r["b"]), r


@pytest.mark.parametrize("pair", PARAPHRASES, ids=lambda p: p["new"][:30])
def test_paraphrases_are_the_same_fact_and_no_contradiction(pair: dict[str, str]) -> None:
    assert facts.same_fact(pair["old"], pair["new"])
    assert facts.compare(pair["old"], pair["new"]) is None


@pytest.mark.parametrize(("a", "b"), [
    ("The flight lands at 3pm", "The flight lands at 15:00"),
    ("La réunion est à 9h", "La réunion est à 9h00"),
    ("Call Jules on +33 6 12 34 56 78", "Call Jules on 06 12 34 56 78"),
    ("Tom's birthday is on 12 August", "Tom's birthday is on August 12"),
    ("The cache TTL is 60 seconds", "The cache TTL is 1 minute"),
    ("The budget is $5,000", "The budget is $5k"),
    ("El vuelo sale el 14 de julio", "El vuelo sale el 14 de julio"),
])
def test_values_are_compared_in_normal_form(a: str, b: str) -> None:
    assert facts.same_fact(a, b) and facts.compare(a, b) is None


@pytest.mark.parametrize(("old", "new", "kind"), [
    ("The flight lands at 3pm", "The flight lands at 4pm", "time"),
    ("Support is at help@acme.io", "Support is at desk@acme.io", "code"),
    ("The docs live at https://a.example/docs", "The docs live at https://b.example/docs", "code"),
    ("Il est interdit de fumer ici", "Il est autorisé de fumer ici", "antonym"),
    ("Paul n'aime pas le thé", "Paul aime le thé", "preference"),
    ("Die Bibliothek ist sonntags geöffnet", "Die Bibliothek ist sonntags geschlossen", "antonym"),
])
def test_kinds_of_change(old: str, new: str, kind: str) -> None:
    verdict = facts.compare(old, new)
    assert verdict is not None and verdict.kind == kind, verdict


@pytest.mark.parametrize(("a", "b"), [
    ("note 5: server 5 runs job 35 on rack 5", "note 6: server 6 runs job 42 on rack 6"),  # two servers
    ("Camille likes jazz", "Camille likes rock"),  # liking is not exclusive
    ("Oscar doesn't live in Porto", "Oscar lives in Lisbon"),  # both can hold
    ("Ana lives in Porto", "Oscar lives in Lisbon"),  # two people
])
def test_compatible_statements_are_not_contradictions(a: str, b: str) -> None:
    assert facts.compare(a, b) is None


def test_analysis_never_raises_on_odd_input() -> None:
    for text in ["", "   ", "42", "!!!", "a" * 5000, "é" * 300, "12:99 13/45/2020 +++", "n't n' l'"]:
        facts.analyse(text)
        facts.compare(text, "The port is 8080")
        facts.same_fact(text, text)


# --------------------------------------------------------------------------- the store

def test_every_update_is_kept_and_recalled_first_with_the_old_value_in_history(store: core.MemoryStore) -> None:
    olds = [store.store(u["old"]) for u in UPDATES]
    assert not any(r.deduplicated or r.supersedes for r in olds)
    for u, old in zip(UPDATES, olds):
        res = store.store(u["new"])
        assert not res.deduplicated, u
        assert res.supersedes == [old.id], u
        assert store.get(old.id).valid_to is not None and store.get(old.id).status == "active"
    for u, old in zip(UPDATES, olds):
        now = store.recall(u["query"], k=5, touch=False).results
        assert now[0].content == u["new"], (u, [m.content for m in now])
        assert old.id not in [m.id for m in now]
        past = store.recall(u["query"], k=5, touch=False, history=True).results
        ids = [m.id for m in past]
        assert past[0].content == u["new"] and old.id in ids, u
        older = past[ids.index(old.id)]
        assert older.superseded_by == [past[0].id] and ids.index(old.id) == 1


def test_paraphrases_still_reinforce(store: core.MemoryStore) -> None:
    # the fake embedder is a bag of words: "stand-up" and "standup" are far apart for it, so
    # only the pairs it puts past the cosine bar are asked of it (the real model: below)
    emb = store.embedder
    assert emb is not None
    vecs = emb.embed([p["old"] for p in PARAPHRASES] + [p["new"] for p in PARAPHRASES])
    n = len(PARAPHRASES)
    close = [p for i, p in enumerate(PARAPHRASES) if float(vecs[i] @ vecs[n + i]) >= core.NEAR_DUP_COSINE]
    assert len(close) >= 5
    for p in close:
        first = store.store(p["old"], importance=0.3)
        again = store.store(p["new"], importance=0.7, pinned=True)
        assert again.deduplicated and again.id == first.id, p
        assert again.raised == {"importance": 0.7, "pinned": True}
        m = store.get(first.id)
        assert (m.importance, m.pinned, m.access_count) == (0.7, 1, 1)
    assert store.store(PARAPHRASES[0]["old"], importance=0.1).raised == {}  # max, never lowered


def test_an_older_fact_is_history_not_an_update(store: core.MemoryStore) -> None:
    new = store.store("Keiko lives in Kyoto", event_at=datetime(2025, 6, 1))
    old = store.store("Keiko lives in Osaka", event_at=datetime(2024, 1, 1))
    assert old.supersedes == [] and old.superseded_by == new.id
    assert store.get(old.id).valid_to == "2025-06-01T00:00:00" and store.get(new.id).valid_to is None
    assert store.recall("where does Keiko live", k=1, touch=False).results[0].id == new.id
    then = store.recall("where does Keiko live", k=5, touch=False, as_of=datetime(2024, 6, 1)).results
    assert [m.id for m in then] == [old.id]
    now = store.recall("where does Keiko live", k=5, touch=False, as_of=datetime(2025, 7, 1)).results
    assert [m.id for m in now] == [new.id]


def test_reverting_to_an_old_value_supersedes_again(store: core.MemoryStore) -> None:
    a = store.store("The wifi password at the office is tiger-42").id
    b = store.store("The wifi password at the office is tiger-43").id
    c = store.store("The wifi password at the office is tiger-42")
    assert not c.deduplicated and c.supersedes == [b]
    assert [m.id for m in store.versions(a)] == [c.id, b, a]


def test_conversations_and_episodes_are_never_superseded(store: core.MemoryStore) -> None:
    store.store("The standup is at 9am", "episodic", thread="chat")
    turn = store.store("The standup is at 10am", "episodic", thread="chat")
    event = store.store("The standup is at 11am", "episodic")
    assert turn.supersedes == [] and event.supersedes == []
    fact = store.store("The standup is at 9:30")
    assert fact.supersedes == []
    assert store.conn.execute("SELECT count(*) FROM memories WHERE valid_to IS NOT NULL").fetchone()[0] == 0


def test_another_source_opens_a_contradiction_instead(store: core.MemoryStore) -> None:
    a = store.store("The gateway port is 8080", source="ops").id
    b = store.store("The gateway port is 9090", source="dev")
    assert b.supersedes == [] and b.contradicts == [a]
    assert store.get(a).valid_to is None
    row = store.conn.execute("SELECT status, kind FROM contradictions WHERE memory_a = ? AND memory_b = ?",
                             (a, b.id)).fetchone()
    assert tuple(row) == ("open", "number")


def test_update_pin_and_the_chain(store: core.MemoryStore) -> None:
    a = store.store("Lunch is at noon", tags=["office"], importance=0.6, pinned=True).id
    b = store.update(a, "Lunch is at half past twelve")
    assert b.supersedes == [a]
    m = store.get(b.id)
    assert (m.tags, m.importance, m.pinned, m.metadata["corrects"]) == (["office"], 0.6, 1, a)
    assert [v.id for v in store.versions(a)] == [b.id, a]
    with pytest.raises(core.UserError, match="already says that"):
        store.update(b.id, "Lunch is at half past twelve")
    with pytest.raises(core.NotFound):
        store.update(999, "x")
    assert store.set_pinned(b.id, False).pinned == 0
    with pytest.raises(core.NotFound):
        store.set_pinned(999, True)


# --------------------------------------------------------------------------- the CLI

def _data(proc: Any) -> dict[str, Any]:
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stdout + proc.stderr
    return json.loads(proc.stdout)["data"]


def test_cli_store_says_what_it_superseded_and_recall_answers_now() -> None:
    assert _data(run_cli("store", "The wifi password at the office is tiger-42")) == {
        "id": 1, "deduplicated": False, "supersedes": []}
    assert _data(run_cli("store", "The wifi password at the office is tiger-43")) == {
        "id": 2, "deduplicated": False, "supersedes": [1]}
    again = _data(run_cli("store", "At the office, the wifi password is tiger-43", "--importance", "0.9", "--pin"))
    assert again["id"] == 2 and again["deduplicated"] is True and again["importance"] == 0.9 and again["pinned"]
    now = _data(run_cli("recall", "office wifi password"))
    assert [r["id"] for r in now["results"]] == [2]
    hist = _data(run_cli("recall", "office wifi password", "--history"))
    assert [(r["id"], r["superseded_by"]) for r in hist["results"]] == [(2, []), (1, [2])]
    got = _data(run_cli("get", "1"))
    assert got["superseded_by"] == [2] and [v["id"] for v in got["versions"]] == [2, 1]
    upd = _data(run_cli("update", "2", "The wifi password at the office is lion-7"))
    assert upd["supersedes"] == [2] and upd["id"] == 3
    explicit = _data(run_cli("store", "Wifi: ask reception", "--supersede", "3"))
    assert explicit["supersedes"] == [3]
    assert _data(run_cli("pin", "1")) == {"id": 1, "pinned": True}
    assert _data(run_cli("unpin", "1")) == {"id": 1, "pinned": False}
    bad = run_cli("update", "99", "x")
    assert bad.returncode != 0 and "no memory with id 99" in bad.stdout + bad.stderr and "Traceback" not in bad.stderr
    bad = run_cli("store", "x y z", "--supersede", "99")
    assert bad.returncode != 0 and "Traceback" not in bad.stderr


def test_cli_as_of() -> None:
    _data(run_cli("store", "Keiko lives in Osaka", "--at", "2024-01-10"))
    _data(run_cli("store", "Keiko moved to Kyoto", "--at", "2025-03-01"))
    then = _data(run_cli("recall", "where does Keiko live", "--as-of", "2024-12-31"))
    assert [r["content"] for r in then["results"]] == ["Keiko lives in Osaka"]
    bad = run_cli("recall", "Keiko", "--as-of", "not a date at all")
    assert bad.returncode != 0 and "--as-of" in bad.stdout + bad.stderr


@pytest.mark.parametrize("strategy", ["keyword", "vector", "graph", "activation"])
def test_every_strategy_hides_superseded_facts_and_history_shows_them(store: core.MemoryStore, strategy: str) -> None:
    old = store.store("The wifi password at the office is tiger-42").id
    new = store.store("The wifi password at the office is tiger-43").id
    store.store("Lunch is served at noon in the canteen")
    now = [m.id for m in store.recall("office wifi password", k=5, strategy=strategy, touch=False).results]
    assert new in now and old not in now
    past = store.recall("office wifi password", k=5, strategy=strategy, touch=False, history=True).results
    ids = [m.id for m in past]
    assert old in ids and ids.index(old) == ids.index(new) + 1 and past[ids.index(old)].superseded_by == [new]


def test_a_superseded_fact_is_never_shared(store: core.MemoryStore) -> None:
    from memengine import sharing

    old = store.store("The staging database password rotates every 30 days").id
    assert sharing.check_memory(store, old).ok
    store.store("The staging database password rotates every 90 days")
    gate = sharing.check_memory(store, old)
    assert not gate.ok and gate.problem is not None and gate.problem.startswith("was superseded on ")
