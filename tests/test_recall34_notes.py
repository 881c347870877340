"""Round 34: recall over an agent's own notes. Held-out 32 (bench/data/recall_heldout32) checked well formed, and
notes.py's vector gate: a later note sharing ONE rare word with a top note goes above it when their vectors say one
subject (a change word and cosine >= SAME_COS, or the value restated at cosine >= RESTATE_COS) — not below those
cosines, not without vectors, not when the later note is a plan; the bench's "flagged" counts read the JSON's
possibly_outdated marks; keyword_floor.py: a keyword side that matched only the user's name (a word most rows hold,
FTS5's idf floor) is left out of fusion."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bench.recall_notes import score_row, summarise
from memengine.recall import notes
from memengine.recall.keyword_floor import says_nothing
from memengine.recall.notes import newer_notes_first
from memengine.records import Candidate
from memory_core import MemoryStore, RecallConfig

DATA = Path(__file__).resolve().parent.parent / "bench" / "data" / "recall_heldout32"
USERS = ("rohan", "elodie", "dara", "ingrid")


def _rows(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines() if line]


def test_held_out_32_is_well_formed() -> None:
    mine = {u: {n["n"]: n for n in _rows(f"{u}.jsonl")} for u in USERS}
    for user, rows in mine.items():
        assert len(rows) >= 30, user
        assert all(n["type"] in ("semantic", "episodic", "procedural") and n["tags"] and n["text"]
                   for n in rows.values())
    assert all(n["at"] is None for n in mine["dara"].values())  # the undated store: store order is its time
    for user in ("rohan", "elodie", "ingrid"):
        days = sorted(datetime.fromisoformat(n["at"]) for n in mine[user].values())
        assert (days[-1] - days[0]).days >= 6 * 7, user
    order = {u: {n: i for i, n in enumerate(rows)} for u, rows in mine.items()}
    questions = _rows("questions.jsonl")
    assert len(questions) == 85 and len({q["id"] for q in questions}) == 85
    for q in questions:
        for ref in (*q["evidence"], *q.get("outdated", []), *q.get("decoy", [])):
            assert ref in mine[q["user"]], (q["id"], ref)
        for old in q.get("outdated", []):  # an outdated note was written before the note that answers now
            assert all(order[q["user"]][old] < order[q["user"]][ev] for ev in q["evidence"]), q["id"]
    assert sum("changed" in q["kinds"] for q in questions) == 54
    assert sum(bool(q.get("outdated")) for q in questions) == 53
    assert sum("trap" in q["kinds"] for q in questions) == 11
    assert sum("past" in q["kinds"] for q in questions) == 3


def _cand(mid: int, text: str, day: str, source: str = "agent") -> Candidate:
    # (Candidate.COLUMNS: id, content, author, thread, position, event_at, metadata, strength, importance, source)
    return Candidate((mid, text, None, None, None, day, "{}", 1.0, 0.5, source))


def _vectors(cos: float) -> Any:
    """A vector lookup where notes 1 and 2 are at cosine ``cos`` and note 3 is orthogonal to both."""
    a = np.array([1.0, 0.0, 0.0])
    b = np.array([cos, (1 - cos * cos) ** 0.5, 0.0])
    table = {1: a, 2: b, 3: np.array([0.0, 0.0, 1.0])}
    return lambda ids: {i: table[i] for i in ids if i in table}


OLD = "Tariq's five-a-side is at Meadowbank on Wednesday nights."
MOVED = "Tariq switched to the Powerleague pitches in Portobello."  # shares one rare word: "tariq"
OTHER = "The boiler service is booked for 3 November."


def test_one_shared_word_and_close_vectors_go_first() -> None:
    old, new, other = _cand(1, OLD, "2026-09-02"), _cand(2, MOVED, "2026-10-14"), _cand(3, OTHER, "2026-09-05")
    ranked, marks = newer_notes_first([old, other, new], 3, "where does Tariq play football?",
                                      _vectors(notes.SAME_COS + 0.05))
    assert [c.id for c in ranked] == [2, 1, 3] and marks == {1: [2]}
    # below SAME_COS, or no vectors (round 30's gate: two shared words needed), nothing moves
    assert newer_notes_first([old, other, new], 3, "where does Tariq play football?",
                             _vectors(notes.SAME_COS - 0.05))[1] == {}
    assert newer_notes_first([old, other, new], 3, "where does Tariq play football?")[1] == {}


def test_a_value_restated_without_a_change_word_needs_restate_cos() -> None:
    old = _cand(1, "Café prices: a cinnamon bun is £3.20.", "2026-09-03")
    new = _cand(2, "From 1 December a cinnamon bun costs £3.40.", "2026-11-20")
    other = _cand(3, OTHER, "2026-09-05")
    got = newer_notes_first([old, other, new], 3, "how much is a cinnamon bun?", _vectors(notes.RESTATE_COS + 0.02))
    assert [c.id for c in got[0]] == [2, 1, 3] and got[1] == {1: [2]}
    assert newer_notes_first([old, other, new], 3, "how much is a cinnamon bun?",
                             _vectors(notes.RESTATE_COS - 0.05))[1] == {}


def test_a_later_plan_or_an_earlier_note_is_no_update() -> None:
    old, other = _cand(1, OLD, "2026-09-02"), _cand(3, OTHER, "2026-09-05")
    plan = _cand(2, "Tariq might switch to the Powerleague pitches in Portobello?", "2026-10-14")
    assert newer_notes_first([old, other, plan], 3, "where does Tariq play?", _vectors(0.95))[1] == {}
    earlier = _cand(2, MOVED, "2026-08-14")  # written before the top note (and no seed): it is the older one
    fourth = _cand(4, "Noor's car is a grey 2018 Skoda Octavia.", "2026-09-06")
    assert newer_notes_first([old, other, fourth, earlier], 4, "where does Tariq play?", _vectors(0.95))[1] == {}
    another = _cand(2, MOVED, "2026-10-14", source="calendar")  # another source: both stay as ranked
    assert newer_notes_first([old, other, another], 3, "where does Tariq play?", _vectors(0.95))[1] == {}


def test_the_recall_reads_the_notes_vectors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """End to end through MemoryStore.recall: the pipeline hands the step the stored vectors (the tests' hash
    embedder puts two notes sharing one word far apart: the pair's cosine is set through ``vectors``)."""
    store = MemoryStore(tmp_path / "notes.db")
    ids = [store.store(text, "episodic", source="agent", event_at=datetime.fromisoformat(day)).id
           for text, day in [(OLD, "2026-09-02"), ("Noor prefers tea to coffee and takes it with mint.", "2026-09-03"),
                             ("Noor's dentist is Dr. Farah Said in Leith.", "2026-09-04"), (OTHER, "2026-09-05"),
                             (MOVED, "2026-10-14")]]
    stored = store.vectors

    def close(want: list[int], table: str = "vec_memories") -> dict[int, Any]:
        got = stored(want, table)
        if ids[0] in got and ids[4] in got:  # the move at cosine SAME_COS + 0.05 of the old pitch
            a = got[ids[0]] / np.linalg.norm(got[ids[0]])
            rest = got[ids[4]] - (got[ids[4]] @ a) * a
            rest = rest / np.linalg.norm(rest) if np.linalg.norm(rest) else np.roll(a, 1)
            cos = notes.SAME_COS + 0.05
            got[ids[4]] = cos * a + (1 - cos * cos) ** 0.5 * rest
        return got

    def ask(on: bool) -> list[tuple[int, bool, list[int]]]:
        cfg = replace(RecallConfig(), notes_newer=on)
        return [(m.id, bool(m.possibly_outdated), list(m.possibly_outdated_by or []))
                for m in store.recall("where is Tariq's five-a-side?", k=3, touch=False, config=cfg).results]

    assert [i for i, _, _ in ask(True)][0] == ids[0]  # (the hash vectors alone: the older first, unmarked)
    monkeypatch.setattr(store, "vectors", close)
    assert ask(True)[:2] == [(ids[4], False, []), (ids[0], True, [ids[4]])]
    assert ask(False)[0] == (ids[0], False, [])
    store.close()


def test_the_bench_counts_what_the_json_flags() -> None:
    q = {"id": "q", "user": "u", "evidence": ["n2"], "outdated": ["n1"], "kinds": ["changed"]}
    shown = score_row(q, ["n1", "n2", "n3"], {"n1": ["n2"]})
    assert shown["current_above"] is False and shown["old_shown"] == 1 and shown["old_flagged"] == 1
    wrong = score_row(q, ["n2", "n1"], {"n2": ["n9"]})  # the answer itself flagged outdated by another note
    assert wrong["answer_flagged"] is True and wrong["old_flagged"] == 0
    past = score_row({**q, "kinds": ["past"]}, ["n2"], {"n2": ["n9"]})  # the older value asked: no fault
    assert past["answer_flagged"] is False
    s = summarise([shown, wrong, past])
    assert s["old_flagged"] == (1, 2) and s["answer_flagged"] == 1 and s["current_above"] == (2, 3)


def test_says_nothing_reads_fts5s_idf_floor() -> None:
    notes_ = {i: _cand(i, f"note {i}", "2026-09-01") for i in range(40)}
    floor = {i: 1e-6 * (1 + i % 3) for i in range(20)}
    assert says_nothing(floor, notes_) and not says_nothing({**floor, 7: 0.08}, notes_) and not says_nothing({}, notes_)
    few = {i: notes_[i] for i in range(19)}  # (fewer candidates than Z_MIN_SCORES: "amlodipine" in 2 notes of 4)
    assert not says_nothing({i: floor[i] for i in range(10)}, few)
    turns = {**notes_, 3: Candidate((3, "a chat turn", "ana", "chat-1", 4, "2026-09-01", "{}", 1.0, 0.5, "whatsapp"))}
    assert not says_nothing(floor, turns)  # (a chat turn among them: LoCoMo lost 0.001 with it)


def test_a_keyword_side_holding_only_the_users_name_is_left_out(tmp_path: Path) -> None:
    """Every note names Noor: a question whose only indexed word is her name gets bm25 at FTS5's idf floor on
    every note; min-max would give the shortest one the keyword side's full weight (kw_floor off)."""
    store = MemoryStore(tmp_path / "notes.db")
    texts = ["Noor is allergic to penicillin.", "Noor swims on Mondays at 7 in Leith.",
             "Noor's sister Hana lives in Cairo and calls on Sundays.",
             "Noor leads the redesign of the ticketing app with Sofia; delivery on 20 January.",
             "Noor drinks oat flat whites; no cow's milk.", "Noor's landlord is Mr Kerr; rent due on the 3rd.",
             *(f"Noor's reading list, book {i}: {title}." for i, title in enumerate(
                 ["Middlemarch", "Beloved", "Stoner", "Possession", "Atonement", "Gilead", "Housekeeping",
                  "Transit", "Outline", "Kudos", "Lanny", "Milkman", "Normal People", "Piranesi"], 1))]
    for text in texts:
        store.store(text, "semantic", source="agent")

    def keyword_norms(on: bool) -> dict[str, float]:
        cfg = replace(RecallConfig(), kw_floor=on)
        res = store.recall("Which venture is Noor heading?", k=20, touch=False, explain=True, config=cfg)
        return {m.content: (m.explain or {}).get("keyword_norm", 0.0) for m in res.results}

    off = keyword_norms(False)
    assert max(off.values()) == 1.0 and off["Noor is allergic to penicillin."] == 1.0
    assert set(keyword_norms(True).values()) == {0.0}
    store.close()


def test_two_peoples_notes_are_no_update() -> None:
    """The demo's store (lead, session 15): Oscar's preference and Ana's share "prefers" and close vectors; each
    names in its subject someone the other never says, so neither is the other's update. The same people said
    in both ("Oscar moved the weekly planning" over "Weekly planning is on Mondays") still are."""
    oscar = _cand(1, "Oscar prefers morning meetings, ideally before 10am; he blocks afternoons for deep work.",
                  "2026-09-02")
    ana = _cand(2, "Ana prefers written summaries over calls; send her the notes after each meeting.", "2026-10-14")
    other = _cand(3, OTHER, "2026-09-05")
    assert newer_notes_first([oscar, other, ana], 3, "when does Oscar like to meet?", _vectors(0.95))[1] == {}
    assert newer_notes_first([_cand(1, OLD, "2026-09-02"), other, _cand(2, MOVED, "2026-10-14")], 3,
                             "where does Tariq play football?", _vectors(0.95))[1] == {1: [2]}
