"""Round 36: recall over an agent's own notes. Held-out 34 (bench/data/recall_heldout34) checked well formed; notes.py's
three new readings of "a later note says a top note's subject again as a change": a value of a kind both state said
anew (no change word: "docker compose Postgres: port 5432" after "… on port 5433"), a change word of a language
fact_cue's lexicon does not read (Dutch "voortaan", Norwegian "flyttet"), a note calling its user "User" beside one
naming them; and what still is no update: a later note repeating one of the older's values with a detail, two
notes sharing only Norwegian function words ("hver", "fortsatt"), a name that begins like one ("Haddad")."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

from bench.recall_notes import score_row, summarise
from memengine.recall.notes import newer_notes_first, other_value
from memengine.recall.notes_lexicon import without_function_words, words_of_change
from memengine.records import Candidate

DATA = Path(__file__).resolve().parent.parent / "bench" / "data" / "recall_heldout34"
USERS = ("sanjay", "grace", "hannah", "femke")


def _rows(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines() if line]


def test_held_out_34_is_well_formed() -> None:
    mine = {u: {n["n"]: n for n in _rows(f"{u}.jsonl")} for u in USERS}
    for user, rows in mine.items():
        assert 30 <= len(rows) <= 40, user
        assert all(n["type"] in ("semantic", "episodic", "procedural") and n["tags"] and n["text"]
                   for n in rows.values())
    assert all(n["at"] is None for n in mine["sanjay"].values())  # the coding agent stores no dates
    for user in ("grace", "hannah", "femke"):
        days = sorted(datetime.fromisoformat(n["at"]) for n in mine[user].values())
        assert (days[-1] - days[0]).days >= 12 * 7, user
    order = {u: {n: i for i, n in enumerate(rows)} for u, rows in mine.items()}
    questions = _rows("questions.jsonl")
    assert len(questions) == 93 and len({q["id"] for q in questions}) == 93
    for q in questions:
        for ref in (*q["evidence"], *q.get("outdated", []), *q.get("decoy", []), *q.get("detail", [])):
            assert ref in mine[q["user"]], (q["id"], ref)
        for old in q.get("outdated", []):  # an outdated note was written before the note that answers now
            assert all(order[q["user"]][old] < order[q["user"]][ev] for ev in q["evidence"]), q["id"]
        for det in q.get("detail", []):  # a detail was added after the note it adds to
            assert all(order[q["user"]][det] > order[q["user"]][ev] for ev in q["evidence"]), q["id"]
    assert sum("changed" in q["kinds"] for q in questions) == 56
    assert sum("detail" in q["kinds"] for q in questions) == 12
    assert sum("past" in q["kinds"] for q in questions) == 4


def test_the_bench_counts_a_detail_above_its_note() -> None:
    q = {"id": "x", "user": "u", "evidence": ["a"], "detail": ["b"], "kinds": ["detail"]}
    above, below = score_row(q, ["b", "a", "c"]), score_row(q, ["a", "b", "c"])
    assert above["detail_above"] and not below["detail_above"]
    assert summarise([above, below])["detail_above"] == (1, 2)


def _cand(mid: int, text: str, day: str | None, source: str = "agent") -> Candidate:
    # (Candidate.COLUMNS: id, content, author, thread, position, event_at, metadata, strength, importance, source)
    return Candidate((mid, text, None, None, None, day, "{}", 1.0, 0.5, source))


OTHER = "The boiler service is booked for Tuesday."


def test_a_value_said_anew_with_no_change_word_goes_first() -> None:
    old = _cand(1, "Local Postgres runs in docker compose on port 5433.", None)
    new = _cand(3, "docker compose Postgres: port 5434, container name kiln-db.", None)  # (stored later: id order)
    got = newer_notes_first([old, _cand(2, OTHER, None), new], 3, "which port is the local database on?")
    assert [c.id for c in got[0]] == [3, 1, 2] and got[1] == {1: [3]}
    # the same value said again, with a detail, is no update ("18h15" in both)
    assert other_value("Crèche Les Lucioles : ouverte de 8h à 18h15, Noé y entre le 3 novembre.",
                       "Crèche Les Lucioles : il faut être là avant 18h15 pile.") is False
    assert other_value("Car: 2017 Mazda CX-5, rego due 14 September.",
                       "Paid the Mazda's rego on 9 September; next due September 2027.") is True
    # a version name is no value ("v2" / "v3"): the model is the subject
    assert other_value("The spec is at v2.", "The spec at v3 is in review.") is False


def test_a_repeated_value_with_a_detail_stays_below() -> None:
    old = _cand(1, "Crèche Les Lucioles : ouverte de 8h à 18h15, Noé y entre le 3 novembre.", "2026-10-01")
    new = _cand(3, "Crèche Les Lucioles : il faut être là avant 18h15 pile.", "2026-10-20")
    got = newer_notes_first([old, _cand(2, OTHER, "2026-10-02"), new], 3, "qui garde Noé ?")
    assert [c.id for c in got[0]] == [1, 2, 3] and got[1] == {}


def test_change_words_of_other_languages() -> None:
    assert words_of_change("Femke bouldert voortaan op maandag bij Monk Utrecht.") == ("voortaan",)
    assert words_of_change("Tannrensen for Tass er flyttet til 13. oktober.") == ("flyttet",)
    assert words_of_change("O Tiago vai na escola nova.") == ()  # (Portuguese "na" is no Norwegian "nå")
    old = _cand(1, "Femke bouldert bij boulderhal Energiehaven.", "2026-07-20")
    new = _cand(3, "Energiehaven-abonnement opgezegd; Femke bouldert voortaan bij Monk Utrecht.", "2026-11-10")
    got = newer_notes_first([old, _cand(2, OTHER, "2026-08-01"), new], 3, "waar bouldert Femke?")
    assert [c.id for c in got[0]] == [3, 1, 2] and got[1] == {1: [3]}


def test_function_words_name_no_subject() -> None:
    old = _cand(1, "Ingrid jobber tirsdag til fredag; vakthelg fortsatt hver fjerde helg.", "2026-10-01")
    new = _cand(3, "Tass får Librela hver femte uke nå, ikke hver fjerde, etter kontrollen.", "2026-11-01")
    got = newer_notes_first([old, _cand(2, OTHER, "2026-10-02"), new], 3, "hvilke dager jobber Ingrid?")
    assert [c.id for c in got[0]] == [1, 2, 3] and got[1] == {}
    # whole words only: "Haddad" keeps its stem though "hadde" (had) is a function word
    assert without_function_words("Dr. Haddad hadde ferie") == "Dr. Haddad   ferie"


def test_a_note_calling_its_user_user_is_no_second_person() -> None:
    old = _cand(1, "User likes type hints but does not want mypy strict mode turned on.", None)
    new = _cand(3, "Sanjay now allows mypy strict mode for the billing package.", None)
    got = newer_notes_first([old, _cand(2, OTHER, None), new], 3, "can I turn on mypy strict mode?")
    assert [c.id for c in got[0]] == [3, 1, 2] and got[1] == {1: [3]}
    # two named people are still two ("Lena …" / "Tomasz …")
    lena = _cand(1, "Lena wants mypy strict mode on for the billing package.", None)
    tomasz = _cand(3, "Tomasz now wants mypy strict mode off for the billing package.", None)
    assert newer_notes_first([lena, _cand(2, OTHER, None), tomasz], 3, "mypy strict mode?")[1] == {}


def _link(s: Any, newer: int, older: int) -> None:
    """A may_update link as the store's middle band writes it (test_facts7_may_update's helper)."""
    from memengine import fact_slot, facts, supersession

    s.conn.execute("BEGIN IMMEDIATE")
    supersession.apply(s.conn, [supersession.Decision(
        newer, older, "2026-11-26T10:00:00Z", facts.Verdict(fact_slot.MAY_UPDATE, "test", 0.9), maybe=True)],
        "2026-11-26T10:00:00Z")
    s.conn.execute("COMMIT")


def test_a_stored_link_between_two_notes_sharing_no_word_is_not_honoured(tmp_path: Path) -> None:
    from dataclasses import replace

    from memory_core import MemoryStore, RecallConfig

    store = MemoryStore(tmp_path / "notes.db")
    try:
        shifts = store.store("From September Tom works day shifts Monday to Thursday, no more nights.",
                             source="agent").id
        store.store("The boiler service is booked for Tuesday.", source="agent")
        rota = store.store("School pick-up this term: Grace Monday to Thursday.", source="agent", dedup=False).id
        _link(store, rota, shifts)  # (two subjects: the store's middle band joined them)
        q = "what shifts does Tom work?"
        got = store.recall(q, k=3, touch=False).results
        assert got[0].id == shifts and not any(m.possibly_outdated for m in got)
        off = store.recall(q, k=3, touch=False, config=replace(RecallConfig(), notes_links=False)).results
        assert [m.id for m in off][:2] == [rota, shifts] and off[1].possibly_outdated_by == [rota]
        # a link between two notes saying one word of a subject is honoured as before
        club = store.store("The book club meets at Anna's place on Fridays.", source="agent").id
        moved = store.store("Book club moved to the library.", source="agent", dedup=False).id
        _link(store, moved, club)
        res = store.recall("where does the book club meet?", k=4, touch=False).results
        ids = [m.id for m in res]
        assert ids.index(moved) == ids.index(club) - 1 and res[ids.index(club)].possibly_outdated_by == [moved]
    finally:
        store.close()
