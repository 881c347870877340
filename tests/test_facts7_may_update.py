"""Facts that change, the middle band (facts7): a probable update is linked ``may_update``, recall ranks the
newer first and marks the older ``possibly_outdated``, brief shows the newer only; nothing is hidden or deleted."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pytest

import memory_core as core
from memengine import fact_change_words, fact_mood, fact_slot, facts, graph_rank, supersession, versions
from memengine.fact_slot_weights import WEIGHTS


# (the newer ones are stored with dedup=False: no automatic supersession, the link is written by hand)
def _link(s: core.MemoryStore, newer: int, older: int, p: float = 0.8) -> None:
    """Write the middle band's link as a write does (supersession.apply, in a write transaction)."""
    s.conn.execute("BEGIN IMMEDIATE")
    supersession.apply(s.conn, [supersession.Decision(
        newer, older, "2026-11-26T10:00:00Z", facts.Verdict(fact_slot.MAY_UPDATE, "test", p), maybe=True)],
        "2026-11-26T10:00:00Z")
    s.conn.execute("COMMIT")


def test_the_link_is_a_contradicts_edge_with_the_score_and_both_stay_current(store: core.MemoryStore) -> None:
    old = store.store("The book club meets at Anna's place.").id
    new = store.store("book club at the library from now on", dedup=False).id
    _link(store, new, old, 0.81)
    row = store.conn.execute("SELECT source_id, target_id, edge_type, weight, metadata FROM associations "
                             "WHERE edge_type = 'contradicts'").fetchone()
    assert tuple(row[:4]) == (new, old, "contradicts", 0.81)
    assert json.loads(row[4]) == {"may_update": 0.81}
    assert [r[0] for r in store.conn.execute("SELECT valid_to FROM memories ORDER BY id")] == [None, None]
    assert versions.probably_outdated(store.conn) == {old: [new]}


def test_recall_ranks_the_newer_first_and_marks_the_older(store: core.MemoryStore) -> None:
    old = store.store("The book club meets at Anna's place on Fridays.").id
    store.store("The garden needs watering twice a week.")
    new = store.store("book club moved, library now", dedup=False).id
    _link(store, new, old)
    res = store.recall("book club meets at Anna's place on Fridays", k=3).results
    ids = [m.id for m in res]
    assert ids.index(new) == ids.index(old) - 1
    older = res[ids.index(old)]
    assert older.possibly_outdated is True and older.possibly_outdated_by == [new]
    assert res[ids.index(new)].may_update == [old]
    d = older.to_dict()
    assert d["possibly_outdated"] is True and d["possibly_outdated_by"] == [new]
    # a result with no link carries none of the three keys
    other = next(m for m in res if m.id not in (old, new)).to_dict()
    assert not {"possibly_outdated", "possibly_outdated_by", "may_update"} & set(other)


def test_recall_brings_in_the_newer_when_only_the_older_was_found(store: core.MemoryStore) -> None:
    old = store.store("Grandma's physiotherapy appointment is on Tuesday mornings.").id
    new = store.store("zzz qqq", dedup=False).id  # shares no word with the question: only the link brings it
    _link(store, new, old)
    res = store.recall("Grandma's physiotherapy appointment", k=1, strategy="keyword").results
    assert [m.id for m in res] == [new, old]  # one more than k: the older is never dropped for it
    assert res[1].possibly_outdated_by == [new]


def test_a_superseded_or_deleted_newer_marks_nothing(store: core.MemoryStore) -> None:
    old = store.store("The dog walker is Jess.").id
    new = store.store("the dog walker is now Tom", dedup=False).id
    _link(store, new, old)
    store.conn.execute("UPDATE memories SET valid_to = '2026-11-26T11:00:00Z' WHERE id = ?", (new,))
    store.conn.commit()
    res = store.recall("dog walker Jess", k=5).results
    assert [m.id for m in res] == [old] and res[0].possibly_outdated is None
    assert versions.probably_outdated(store.conn) == {}


def test_brief_shows_only_the_newer_and_says_what_it_may_replace(store: core.MemoryStore) -> None:
    old = store.store("The weekly sync is on Mondays at 2pm.", importance=0.9).id
    new = store.store("weekly sync 3pm mondays going forward", importance=0.9, dedup=False).id
    _link(store, new, old)
    out = graph_rank.brief(store, budget=2000, now=datetime.now(timezone.utc).replace(tzinfo=None))
    assert f"#{new}" in out["text"] and f"(may update #{old})" in out["text"]
    assert "Mondays at 2pm" not in out["text"]
    assert [i["why"].get("may_update") for i in out["chosen"] if i["id"] == new][:1] == [[old]]


def test_store_json_says_may_update() -> None:
    from memengine.cli.facts import store_json

    data = store_json(core.StoreResult(7, may_update=[3]))
    assert data["may_update"] == [3] and data["supersedes"] == [] and "possibly_outdated_by" not in data
    assert store_json(core.StoreResult(2, possibly_outdated_by=[5]))["possibly_outdated_by"] == [5]


def test_the_band_sits_under_the_threshold_and_can_be_switched_off(monkeypatch: pytest.MonkeyPatch) -> None:
    assert 0.5 < fact_slot.band() == WEIGHTS["may_update"] < WEIGHTS["threshold"]
    monkeypatch.setenv("MEM_FACT_MAY_UPDATE", "0")
    assert fact_slot.band() == WEIGHTS["threshold"]


def test_change_words_are_read_from_general_word_classes() -> None:
    cw = fact_change_words.change_words
    assert cw("uso o nubank", "cancelei o nubank e fui pro inter") == (True, False)
    assert cw("we track bugs in jira", "killed jira, everything's in linear now") == (True, True)
    assert cw("Lisa arbeitet bei Siemens", "Lisa hat bei Siemens gekündigt") == (True, False)
    assert cw("i weigh 90 kg", "sleeping more lately") == (False, True)
    assert cw("Lena moved to Lyon", "Lena moved to Lyon") == (False, False)  # what the old one says too
    assert cw("I bank with Chase", "thinking about opening an account at ally") == (False, False)
    assert cw("x", "são dois") == (False, False)  # "são" (are) is no verb of leaving


def test_a_sentence_opening_on_a_past_moment_is_an_anecdote() -> None:
    assert fact_mood.unasserted("ontem a reunião atrasou e começou às 16h") == "anecdote"
    assert fact_mood.unasserted("Yesterday the standup was at 10 and now it is at 9:30") == ""
    assert fact_mood.unasserted("hierarchy is flat") == ""
    assert facts.compare("a reunião é às 15h", "ontem a reunião atrasou e começou às 16h") is None


def test_another_end_in_german_and_a_bare_spanish_hour() -> None:
    assert facts.compare("die kita schließt um 16 uhr", "die kita öffnet um 7 uhr") is None
    assert facts.compare("el gimnasio abre a las 6", "el gimnasio cierra a las 22") is None
    assert facts.compare("die kita schließt um 16 uhr", "die kita schließt jetzt um 15 uhr") is not None


# --------------------------------------------------------------------------- with the real model

def test_real_model_a_probable_update_is_flagged_ranked_first_never_merged(  # type: ignore[no-untyped-def]
        real, tmp_path: Path) -> None:
    s = core.MemoryStore(tmp_path / "m.db", embedder=real)
    # (a training pair of fact_pairs_dev10.jsonl; round 10's rules now supersede "o futebol passou pra quinta",
    # round 11's (memengine/fact_swap.py) "6:30 bus now, the 6:50 got cut")
    old = s.store("our cat eats purina").id
    s.store("The car is blue.")
    res = s.store("switched the cat to hills, purina made her sick")
    assert not res.deduplicated and res.supersedes == [] and res.may_update == [old]
    got = s.recall("what does our cat eat", k=5).results
    assert [m.id for m in got][:2] == [res.id, old]
    assert got[1].possibly_outdated is True and got[1].possibly_outdated_by == [res.id]
    lookalike = s.store("yesterday the cat ate some purina treats")  # an anecdote: never flagged
    assert lookalike.may_update == [] and lookalike.supersedes == []
    s.close()


def test_the_json_an_agent_reads_carries_the_marks(tmp_path: Path) -> None:
    from conftest import run_cli

    from memengine.mcp_server import lean_result

    db = str(tmp_path / "cli.db")
    s = core.MemoryStore(db)
    old = s.store("Choir practice is on Thursday nights.").id
    new = s.store("choir wednesday nights this term", dedup=False).id
    _link(s, new, old)
    s.close()
    proc = run_cli("--db", db, "recall", "choir practice Thursday nights", "-k", "5", "--json")
    assert proc.returncode == 0, proc.stderr
    results = json.loads(proc.stdout)["data"]["results"]
    by_id = {r["id"]: r for r in results}
    assert [r["id"] for r in results][:2] == [new, old]
    assert by_id[old]["possibly_outdated"] is True and by_id[old]["possibly_outdated_by"] == [new]
    assert by_id[new]["may_update"] == [old] and "possibly_outdated" not in by_id[new]
    lean = lean_result(by_id[old])
    assert lean["possibly_outdated"] is True and lean["possibly_outdated_by"] == [new]
    from rich.console import Console

    import mem

    s = core.MemoryStore(db)
    console = Console(record=True, width=200)
    console.print(mem._memory_table(s.recall("choir practice Thursday nights", k=5).results))
    s.close()
    assert f"[maybe outdated by #{new}] Choir practice is on Thursday nights." in console.export_text()
