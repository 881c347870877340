"""Round 38 (recall39): a question about the PAST of a fact that changed. Held-out 36 checked well formed; past.py's
reading of a question's intent toward the past (English, German, Spanish, French; "before", "antes", "avant" and a
month only beside a past tense); recall putting the version a result replaced above it, retired versions admitted,
every older version saying what replaced it; current questions keep the current note first."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli_subprocess

from bench.recall_notes import score_row, summarise
from memengine.recall.config import RecallConfig
from memengine.recall.past import asks_past, asks_when

DATA = Path(__file__).resolve().parent.parent / "bench" / "data" / "recall_heldout36"
USERS = ("tern", "ana", "speiche", "offsite")


def _rows(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines() if line]


def test_held_out_36_is_well_formed() -> None:
    mine = {u: {n["n"]: (i, n) for i, n in enumerate(_rows(f"{u}.jsonl"))} for u in USERS}
    for user, rows in mine.items():
        assert 17 <= len(rows) <= 40, user
        days = [datetime.fromisoformat(n["at"]) for _, n in rows.values()]
        assert days == sorted(days), user  # written in the order they were said
    questions = _rows("questions.jsonl")
    assert len(questions) == 94 and len({q["id"] for q in questions}) == 94
    wants = [q["wants"] for q in questions]
    assert (wants.count("past"), wants.count("when"), wants.count("current")) == (47, 17, 30)
    for q in questions:
        notes = mine[q["user"]]
        for ref in (*q["evidence"], *q.get("outdated", []), *q.get("newer", [])):
            assert ref in notes, (q["id"], ref)
        if q["wants"] == "past":  # the wanted note was written before every note that replaced it
            assert all(notes[ev][0] < notes[n][0] for ev in q["evidence"] for n in q["newer"]), q["id"]
        if q["wants"] == "current":
            assert all(notes[o][0] < notes[ev][0] for ev in q["evidence"] for o in q["outdated"]), q["id"]
    assert sum(k in q["kinds"] for q in questions for k in ("de", "es", "fr")) == 19


def test_the_bench_counts_the_wanted_note_above_the_newer() -> None:
    q = {"id": "x", "user": "u", "evidence": ["a"], "newer": ["b"], "kinds": ["past"]}
    above, below = score_row(q, ["a", "b"]), score_row(q, ["b", "a"])
    assert above["wanted_above"] and not below["wanted_above"]
    assert summarise([above, below])["wanted_above"] == (1, 2)


@pytest.mark.parametrize("question", [
    "what did we use before pnpm?", "what was the old staging URL?", "which hotel did Leo book first?",
    "has Ana always been vegetarian?", "which days did Jonas use to work?", "what test runner did we use originally?",
    "who was her previous landlord?", "Welchen Paketmanager haben wir früher benutzt?",
    "Wie waren die alten Öffnungszeiten?", "Welches Hotel war ursprünglich gebucht?",
    "¿dónde vivía Ana antes de mudarse a Lisboa?", "¿cuál era la URL antigua de staging?",
    "Où travaillait Ana avant ?", "Quel était le prix de la révision au départ ?"])
def test_a_question_about_the_past_is_read(question: str) -> None:
    assert asks_past(question) == (True, None)


@pytest.mark.parametrize("question", [
    "what's the staging URL?", "what do I run before deploying?", "how old is Mateo?", "what should I do first?",
    "until when is the shop open?", "when did we switch to Fly.io?", "Seit wann buchen Kunden über Shopify?",
    "which Node version are we on?", "¿qué hago antes de desplegar?", "the kid is 5 years old, which seat?",
    "Was muss ich vor dem Deploy tun?", "what is planned in March?"])
def test_a_current_question_is_not(question: str) -> None:
    assert asks_past(question)[0] is False


@pytest.mark.parametrize("question", [
    "when did we switch to Fly.io?", "Seit wann buchen Kunden über Shopify?", "Wann sind wir auf Node 22 umgestiegen?",
    "¿cuándo se mudó Carmen a Lisboa?", "Quand avons-nous changé de comptable ?"])
def test_a_question_asking_when_something_changed_is_read(question: str) -> None:
    assert asks_when(question)


@pytest.mark.parametrize("question", ["when is the offsite?", "Wann ist das Treffen?", "quand est la réunion ?",
                                      "when does the shop open?"])
def test_a_question_asking_when_something_will_be_is_not(question: str) -> None:
    assert not asks_when(question)


def test_a_past_month_is_read_with_a_past_tense_only() -> None:
    assert asks_past("which Node version were we on in March?") == (True, 3)
    assert asks_past("¿qué precio tenía en marzo?") == (True, 3)


def _cli_store(env: dict[str, str], notes: list[tuple[str, str]]) -> list[int]:
    ids = []
    for text, at in notes:
        out = run_cli_subprocess("store", text, "--type", "semantic", "--at", at, env=env)
        assert out.returncode == 0, out.stderr
        ids.append(json.loads(out.stdout)["data"]["id"])
    return ids


def _cli_recall(env: dict[str, str], question: str) -> list[dict[str, Any]]:
    out = run_cli_subprocess("recall", question, "-k", "3", env=env)
    assert out.returncode == 0, out.stderr
    return list(json.loads(out.stdout)["data"]["results"])


def test_the_cli_answers_the_past_with_the_retired_note_first_and_says_what_replaced_it(tmp_path: Path) -> None:
    env = {"MEM_DB": str(tmp_path / "notes.db")}
    npm, _, pnpm = _cli_store(env, [
        ("Tern uses npm as its package manager; install dependencies with npm ci.", "2026-02-03"),
        ("Lint with eslint and prettier; CI fails on any warning.", "2026-03-20"),
        ("Switched from npm to pnpm; install dependencies with pnpm install --frozen-lockfile.", "2026-04-01")])
    past = _cli_recall(env, "what did we use before pnpm?")
    assert [r["id"] for r in past[:2]] == [npm, pnpm]
    assert past[0]["superseded_by"] == [pnpm]  # loud: the old value says it was replaced, and by which note
    assert "superseded_by" not in past[1]
    now = _cli_recall(env, "which package manager do we use?")
    assert now[0]["id"] == pnpm and npm not in [r["id"] for r in now]  # the retired note stays out
    german = _cli_recall(env, "Welchen Paketmanager haben wir früher benutzt?")
    assert german[0]["id"] == npm and german[0]["superseded_by"] == [pnpm]


def test_a_month_asked_reaches_the_version_said_by_then_and_off_restores_the_base(tmp_path: Path) -> None:
    from memory_core import MemoryStore

    store = MemoryStore(tmp_path / "notes.db")
    ids: list[int] = []
    for text, at in [("Node is pinned to version 18 in .nvmrc.", "2026-02-10"),
                     ("Database is Postgres 14 on Amazon RDS (instance tern-db-1).", "2026-02-12"),
                     ("Node upgraded to 20; .nvmrc now says 20.", "2026-04-08"),
                     ("Node upgraded to 22 after the LTS switch.", "2026-08-11")]:
        # each Node note corrects the one before it, as `mem.py store --supersede ID` says (whatever the embedder)
        before = [ids[0]] if "20;" in text else [ids[2]] if "22" in text else []
        ids.append(store.store(text, "semantic", source="agent", event_at=datetime.fromisoformat(at),
                               supersede=before).id)
    cfg = RecallConfig()
    march = [m.id for m in store.recall("which Node version were we on in March?", k=4, touch=False,
                                        config=cfg).results]
    assert march[0] == ids[0]
    before = store.recall("which Node version did we use before 22?", k=4, touch=False, config=cfg).results
    assert [m.id for m in before[:2]] == [ids[2], ids[3]] and before[0].superseded_by == [ids[3]]
    off = [m.id for m in store.recall("which Node version did we use before 22?", k=4, touch=False,
                                      config=replace(cfg, past=False)).results]
    assert off[0] == ids[3]
    now = [m.id for m in store.recall("which Node version are we on?", k=4, touch=False, config=cfg).results]
    assert now[0] == ids[3]
    store.close()
