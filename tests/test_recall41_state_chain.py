"""Round 41 (recall41): an agent's notes asked with time/state words ("now", "these days", "still", "jetzt", "ahora",
"maintenant") and about history more than one step back. Held-out 37 checked well formed; state_words.py's reading
of a question's time/state words (words alone, and phrases whose words alone are content) and the keyword gate (a
note matching only them is no keyword match); chain.py's reading of which version a past question points at (the
first, or the one before a value named) and recall walking the chain of versions to it, marked as replaced."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from memengine.recall.chain import which_back
from memengine.recall.config import RecallConfig
from memengine.recall.state_words import state_gated, state_terms
from memengine.text import query_terms

DATA = Path(__file__).resolve().parent.parent / "bench" / "data" / "recall_heldout37"
USERS = ("malin", "familia", "ember", "chor")


def _rows(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines() if line]


def test_held_out_37_is_well_formed() -> None:
    mine = {u: {n["n"]: (i, n) for i, n in enumerate(_rows(f"{u}.jsonl"))} for u in USERS}
    for user, rows in mine.items():
        assert 25 <= len(rows) <= 35, user
        days = [datetime.fromisoformat(n["at"]) for _, n in rows.values()]
        assert days == sorted(days), user  # written in the order they were said
    questions = _rows("questions.jsonl")
    assert len(questions) == 89 and len({q["id"] for q in questions}) == 89
    kinds = [k for q in questions for k in q["kinds"]]
    assert (kinds.count("now"), kinds.count("history2"), kinds.count("shared"), kinds.count("plain")) == (48, 18, 14, 15)
    assert (kinds.count("de"), kinds.count("es"), kinds.count("fr")) == (18, 10, 4)
    for q in questions:
        notes = mine[q["user"]]
        for ref in (*q["evidence"], *q.get("outdated", []), *q.get("newer", []), *q.get("decoy", [])):
            assert ref in notes, (q["id"], ref)
        if q["wants"] == "past":  # the wanted note was written before every note that replaced it
            assert all(notes[ev][0] < notes[n][0] for ev in q["evidence"] for n in q["newer"]), q["id"]
        else:
            assert all(notes[o][0] < notes[ev][0] for ev in q["evidence"] for o in q.get("outdated", [])), q["id"]


@pytest.mark.parametrize(("question", "said"), [
    ("who sponsors the show now?", {"now"}),
    ("what's the set menu price these days?", {"days"}),
    ("is Tomasz still head chef?", {"still"}),
    ("who babysits on Fridays at the moment?", {"moment"}),
    ("what's the latest allergen matrix version?", {"latest"}),
    ("Wer leitet den Chor im Moment?", {"moment"}),
    ("Wie hoch ist der Mitgliedsbeitrag mittlerweile?", {"mittlerweile"}),
    ("¿Dónde hacemos la compra grande estos días?", {"días"}),
    ("¿Qué compañía de internet tenemos ahora?", {"ahora"}),
    ("Qui est le contact à Besançon maintenant ?", {"maintenant"}),
    ("what's on this week?", {"week"}),
])
def test_a_questions_time_and_state_words_are_read(question: str, said: set[str]) -> None:
    assert said <= state_terms(question, query_terms(question))


@pytest.mark.parametrize("question", [
    "what happened the week of the offsite?", "which days does the shop open?", "when is the moment to book?",
    "what is the staging URL?"])
def test_the_words_of_a_phrase_alone_are_content(question: str) -> None:
    assert state_terms(question, query_terms(question)) == set()


def _store(tmp_path: Path, notes: list[tuple[str, str, list[int]]]) -> tuple[Any, list[int]]:
    """A store of notes each written on its day; the third field: the notes (by index) it supersedes, as
    ``mem.py store --supersede ID`` says (whatever the embedder reads)."""
    from memory_core import MemoryStore

    store = MemoryStore(tmp_path / "notes.db")
    ids: list[int] = []
    for text, at, before in notes:
        ids.append(store.store(text, "semantic", source="agent", event_at=datetime.fromisoformat(at),
                               supersede=[ids[i] for i in before]).id)
    return store, ids


def test_a_note_matching_only_now_gets_no_keyword_score(tmp_path: Path) -> None:
    store, ids = _store(tmp_path, [("Episodes are now published on Tuesdays.", "2026-03-01", []),
                                   ("Brightwave sponsors the show until December.", "2026-03-02", []),
                                   ("Lumen now sponsors the show instead of Brightwave.", "2026-06-02", [])])
    kw = {ids[0]: -2.0, ids[1]: -1.5, ids[2]: -2.5}
    gated = state_gated(store.conn, "who sponsors the show now?", {"now"}, kw)
    assert gated == {ids[1]: -1.5, ids[2]: -2.5}  # "now" still scores where the show's words are said too
    assert state_gated(store.conn, "now?", {"now"}, kw) == kw  # nothing else asked: as it was
    store.close()


@pytest.mark.parametrize(("question", "asked"), [
    ("which booking system did we use before OpenTable?", ("before", {"opentable"})),
    ("which R version did we use before 4.3?", ("before", {"4.3"})),
    ("Wo lagen die Noten, bevor sie in Google Drive waren?", ("before", {"google", "drive"})),
    ("¿Qué internet teníamos antes de Digi?", ("before", {"digi"})),
    ("what was the first journal we sent paper 1 to?", ("first", set())),
    ("An welchem Tag war die Probe ursprünglich?", ("first", set())),
    ("what test runner did we use originally?", ("first", set())),
    ("what was the old staging URL?", None)])
def test_which_version_a_past_question_points_at(question: str, asked: tuple[str, set[str]] | None) -> None:
    assert which_back(question) == asked


BOOKINGS = [("Bookings go through ResDiary.", "2026-01-15", []),
            ("Staff meal at 16:45 before service.", "2026-02-15", []),
            ("Moved bookings from ResDiary to OpenTable.", "2026-03-10", [0]),
            ("Bookings moved again, OpenTable to SevenRooms: its cover fees were too high.", "2026-06-01", [2])]


def test_history_two_steps_back_is_walked_along_the_chain(tmp_path: Path) -> None:
    store, ids = _store(tmp_path, BOOKINGS)
    cfg = RecallConfig()
    before = store.recall("which booking system did we use before OpenTable?", k=4, touch=False, config=cfg).results
    assert before[0].id == ids[0] and before[0].superseded_by == [ids[2]]  # loud: replaced, and by which
    first = store.recall("which booking system did we use originally?", k=4, touch=False, config=cfg).results
    assert first[0].id == ids[0]
    off = store.recall("which booking system did we use before OpenTable?", k=4, touch=False,
                       config=replace(cfg, chain=False)).results
    assert off[0].id != ids[0]  # round 38's one step back from the current version: the OpenTable note
    now = store.recall("which booking system do we use now?", k=4, touch=False, config=cfg).results
    assert now[0].id == ids[3] and ids[0] not in [m.id for m in now]  # a current question: untouched
    store.close()


def _link(s: Any, newer: int, older: int) -> None:
    """A may_update link as the store's middle band writes it (test_recall36_notes' helper)."""
    from memengine import fact_slot, facts, supersession

    s.conn.execute("BEGIN IMMEDIATE")
    supersession.apply(s.conn, [supersession.Decision(
        newer, older, "2026-11-26T10:00:00Z", facts.Verdict(fact_slot.MAY_UPDATE, "test", 0.9), maybe=True)],
        "2026-11-26T10:00:00Z")
    s.conn.execute("COMMIT")


def test_a_later_note_changing_another_part_of_a_note_stays_under_it_when_asked_that_part(tmp_path: Path) -> None:
    from memory_core import MemoryStore

    store = MemoryStore(tmp_path / "notes.db")
    try:
        board = store.store("Kassenwart ist Bernd Hofer, Schriftführerin ist Lena Graf.", source="agent").id
        store.store("Die Probe ist dienstags um 19:30 im Gemeindesaal.", source="agent")
        treasurer = store.store("Kassenwartin: Petra Lindner, ab April.", source="agent", dedup=False).id
        _link(store, treasurer, board)
        asked = store.recall("Wer ist Schriftführerin?", k=3, touch=False).results
        assert asked[0].id == board and not asked[0].possibly_outdated  # the part asked did not change
        off = store.recall("Wer ist Schriftführerin?", k=3, touch=False,
                           config=replace(RecallConfig(), subject_kept=False)).results
        assert [m.id for m in off][:2] == [treasurer, board] and off[1].possibly_outdated_by == [treasurer]
        # asked about the part that changed: the link is honoured, the later note above the older
        now = store.recall("Wer ist Kassenwart?", k=3, touch=False).results
        ids = [m.id for m in now]
        assert ids.index(treasurer) < ids.index(board) and now[ids.index(board)].possibly_outdated_by == [treasurer]
    finally:
        store.close()
