"""Round 30: recall over an agent's own notes. Held-out 29 (bench/data/recall_heldout29) checked well formed, and
notes.py: a later note of the same source restating a top note's subject as a change goes above it, the older
marked possibly outdated — never for chat turns, another source, or a later note sharing only the user's name."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from conftest import run_cli_subprocess

from memengine.recall.notes import is_note, newer_notes_first
from memengine.records import Candidate
from memory_core import MemoryStore, RecallConfig

DATA = Path(__file__).resolve().parent.parent / "bench" / "data" / "recall_heldout29"
USERS = ("maya", "ken", "lucia", "hattie")


def _rows(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines() if line]


def test_held_out_29_is_well_formed() -> None:
    notes = {u: {n["n"]: n for n in _rows(f"{u}.jsonl")} for u in USERS}
    for user, mine in notes.items():
        assert 30 <= len(mine) <= 60, user
        days = sorted(datetime.fromisoformat(n["at"]) for n in mine.values())
        assert 4 * 7 <= (days[-1] - days[0]).days <= 12 * 7, user
        assert all(n["type"] in ("semantic", "episodic", "procedural") and n["tags"] for n in mine.values())
    questions = _rows("questions.jsonl")
    assert len(questions) == 78 and len({q["id"] for q in questions}) == 78
    changed = 0
    for q in questions:
        mine = notes[q["user"]]
        for ref in (*q["evidence"], *q.get("outdated", []), *q.get("decoy", [])):
            assert ref in mine, (q["id"], ref)
        for old in q.get("outdated", []):  # an outdated note was written before the note that answers now
            assert all(mine[old]["at"] < mine[ev]["at"] for ev in q["evidence"]), q["id"]
        changed += "changed" in q["kinds"]
    assert changed == 34
    assert sum(bool(q.get("decoy")) for q in questions) == 9
    assert sum("other_words" in q["kinds"] for q in questions) == 39


def _note(store: MemoryStore, text: str, day: str, kind: str = "episodic", source: str = "agent",
          thread: str | None = None) -> int:
    return store.store(text, kind, source=source, event_at=datetime.fromisoformat(day), thread=thread,
                       author="agent" if thread else None).id


FILLER = [("Maya prefers Signal over WhatsApp for anything personal.", "2026-09-02"),
          ("Maya's terminal is WezTerm; her dotfiles are on GitHub.", "2026-09-03"),
          ("Maya climbs on Tuesday and Thursday evenings.", "2026-09-05"),
          ("Maya is vegetarian and never eats mushrooms.", "2026-09-06")]


def _recall(store: MemoryStore, query: str, on: bool = True) -> list[tuple[int, bool, list[int]]]:
    cfg = replace(RecallConfig(), notes_newer=on)
    return [(m.id, bool(m.possibly_outdated), list(m.possibly_outdated_by or []))
            for m in store.recall(query, k=5, touch=False, config=cfg).results]


def test_a_later_note_restating_the_subject_as_a_change_goes_first(store: MemoryStore) -> None:
    for text, day in FILLER:
        _note(store, text, day, "semantic")
    booked = _note(store, "Booked Maya's dental cleaning with Dr. Haddad for October 14 at 4pm.", "2026-09-04")
    moved = _note(store, "Dr. Haddad's office called: the cleaning moves to November 3 at 9:30am.", "2026-10-07")
    again = _note(store, "Maya has a cold, so the November 3 cleaning is off; Dr. Haddad can see her on December 9 "
                         "instead.", "2026-10-30")
    got = _recall(store, "when is Maya's dental cleaning with Dr. Haddad?")
    order = [i for i, _, _ in got]
    assert order[:3] == [again, moved, booked]  # the newest first, each version above the one it restates
    marks = {i: (out, by) for i, out, by in got}
    assert marks[booked] == (True, sorted([moved, again])) and marks[moved] == (True, [again]) and not marks[again][0]
    off = [i for i, _, _ in _recall(store, "when is Maya's dental cleaning with Dr. Haddad?", on=False)]
    assert off.index(booked) < off.index(again)  # (the older, worded as the question, first without the step)


def test_a_later_note_sharing_only_the_users_name_is_no_update(store: MemoryStore) -> None:
    for text, day in FILLER:
        _note(store, text, day, "semantic")
    editor = _note(store, "Maya has moved off VS Code and is on Zed full-time now, in Vim mode.", "2026-09-29",
                   "semantic")
    _note(store, "Re-org: Maya now reports to Daniel Osei, who leads the new payments group.", "2026-10-02")
    got = _recall(store, "what editor does Maya use now? VS Code or Zed?")
    assert got[0][0] == editor and not any(out for _, out, _ in got)


def test_chat_turns_and_other_sources_are_never_paired(store: MemoryStore) -> None:
    for text, day in FILLER:
        _note(store, text, day, "semantic")
    old = _note(store, "Booked Maya's dental cleaning with Dr. Haddad for October 14 at 4pm.", "2026-09-04")
    _note(store, "Dr. Haddad's office moved the cleaning to December 9 instead.", "2026-10-30", source="calendar")
    _note(store, "Dr. Haddad moved the cleaning to December 10 instead", "2026-10-31", thread="chat-1")
    got = _recall(store, "when is Maya's dental cleaning with Dr. Haddad?")
    assert got[0][0] == old and not any(out for _, out, _ in got)


def test_is_note_and_the_step_alone() -> None:
    def cand(mid: int, text: str, day: str, thread: str | None = None, source: str = "agent") -> Candidate:
        # (Candidate.COLUMNS: id, content, author, thread, position, event_at, metadata, strength, importance, source)
        return Candidate((mid, text, None, thread, None, day, "{}", 1.0, 0.5, source))

    old = cand(1, "Ken's accountant is Sheila Briggs at Briggs & Co; the VAT return is due by 7 November.", "2026-09-09")
    new = cand(2, "Sheila Briggs now retires; Ravi Mistry at Briggs & Co does the books.", "2026-10-14")
    other = cand(3, "The van is a Ford Transit; MOT due 22 October.", "2026-09-12")
    assert is_note(old) and not is_note(cand(4, "x", "2026-09-01", thread="t")) \
        and not is_note(cand(5, "x", "2026-09-01", source="shared:bob"))
    ranked, marks = newer_notes_first([old, other, new], 3, "who is Ken's accountant?")
    assert [c.id for c in ranked] == [2, 1, 3] and marks == {1: [2]}
    # asked for the first one: nothing moves
    assert newer_notes_first([old, other, new], 3, "who was Ken's first accountant?")[1] == {}


def test_the_cli_returns_the_newer_note_first(tmp_path: Path) -> None:
    db = str(tmp_path / "notes.db")
    env = {"MEM_DB": db}
    ids = []
    for text, at in [("Hattie takes amlodipine 5 mg every morning for her blood pressure.", "2026-09-14"),
                     ("Hattie's GP is Dr. Fiona McLeod at Lind Road Surgery.", "2026-09-15"),
                     ("Hattie drives a blue 2015 Honda Jazz.", "2026-09-16"),
                     ("After the blood pressure review Dr. McLeod raised the amlodipine to 10 mg.", "2026-10-06")]:
        out = run_cli_subprocess("store", text, "--type", "episodic", "--at", at, env=env)
        assert out.returncode == 0, out.stderr
        ids.append(json.loads(out.stdout)["data"]["id"])
    out = run_cli_subprocess("recall", "what dose of amlodipine is Hattie on?", "-k", "3", env=env)
    assert out.returncode == 0, out.stderr
    results = json.loads(out.stdout)["data"]["results"]
    assert [r["id"] for r in results[:2]] == [ids[3], ids[0]]
    assert results[1]["possibly_outdated"] is True and results[1]["possibly_outdated_by"] == [ids[3]]


def test_two_authors_and_summaries_are_never_paired() -> None:
    def cand(mid: int, text: str, author: str | None, source: str = "user") -> Candidate:
        return Candidate((mid, text, author, None, None, None, "{}", 1.0, 0.5, source))

    ana = cand(1, "Ana: I started painting landscapes on weekends", "Ana")
    oscar = cand(2, "Oscar: I started painting portraits of my cat, now weekly", "Oscar")
    assert newer_notes_first([ana, oscar], 2, "What did Ana start painting?")[1] == {}
    garden = cand(3, "Summary: tomatoes and basil in the garden, moved to the greenhouse", None, "consolidate")
    later = cand(4, "Summary: the garden tomatoes now moved to the greenhouse beds", None, "consolidate")
    assert not is_note(garden) and newer_notes_first([garden, later], 2, "tomatoes garden")[1] == {}
