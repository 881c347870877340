"""notes5: two versions of one slot the store did not link — the earlier first for a question about the past, the
later first (mode ``now``) for one about the present (memengine/recall/notes_now.py)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

import pytest

import memory_core as core
from memengine.recall.config import RecallConfig
from memengine.recall.notes_now import parse_now, versions_first
from memengine.records import Candidate


def test_the_spec_is_read_and_a_bad_one_refused() -> None:
    assert parse_now("") == ("", 0.0)
    assert parse_now("past:0.5") == ("past", 0.5)
    assert parse_now("both:0.4") == ("both", 0.4)
    for bad in ("0.5", "then:0.5", "past:0", "past:1.5", "past:x"):
        with pytest.raises(ValueError, match="notes_now"):
            parse_now(bad)


# A plumber's agent (written for this test, not from any bench set): the van insurance restated with another insurer
# and price and no change word, which the store links to nothing.
NOTES = ["Van insurance with Direct Line costs £640 a year, renewal in March.",
         "Boiler service rate for landlords is £85 per visit.",
         "Parts come from Plumbase on Mill Road; trade account number 5521.",
         "Van insurance: Admiral, £710 a year, renewal in March.",
         "Gas Safe registration number is 604112.",
         "Emergency call-out after 8pm is £120 for the first hour."]


@pytest.fixture
def plumber(db_path, real):  # type: ignore[no-untyped-def]
    s = core.MemoryStore(db_path, embedder=real)
    res = [s.store(t, "semantic", source="agent", importance=0.6, event_at=datetime(2026, 1 + i, 3, 9))
           for i, t in enumerate(NOTES)]
    assert not any(r.supersedes for r in res)  # (the store links nothing: the case this step is for)
    yield s, [r.id for r in res]
    s.close()


def _ids(s: Any, q: str, spec: str | None = None) -> list[int]:
    cfg = RecallConfig() if spec is None else replace(RecallConfig(), notes_now=spec)
    return [m.id for m in s.recall(q, k=3, touch=False, config=cfg).results]


def test_a_past_question_gets_the_earlier_version_first(plumber: Any) -> None:
    s, ids = plumber
    q = "how much was the van insurance originally?"
    assert _ids(s, q, "")[:2] == [ids[3], ids[0]]  # off: the later, worded alike, first
    assert _ids(s, q)[:2] == [ids[0], ids[3]]  # default (past on): the earlier first
    assert _ids(s, q, "now:0.5")[:2] == [ids[3], ids[0]]  # the now mode leaves a past question alone


def test_a_present_question_is_left_alone_by_the_default(plumber: Any) -> None:
    s, ids = plumber
    for q in ("how much is the van insurance now?", "who insures the van?"):
        assert _ids(s, q) == _ids(s, q, ""), q
        assert _ids(s, q)[0] == ids[3], q


def _cand(i: int, text: str, day: int, thread: str | None = None) -> Candidate:
    c = Candidate((i, text, None, thread, None if thread is None else i, f"2026-0{day}-01T09:00:00", "{}", 1.0,
                   0.5, "agent"))
    c.score = 1.0 - i / 10
    return c


def _vectors(ids: list[int]) -> dict[int, Any]:
    import numpy as np

    return {i: np.ones(4, dtype=np.float32) for i in ids}  # (every pair as close as can be)


def test_the_later_version_goes_first_in_now_mode_and_the_older_is_marked() -> None:
    ranked = [_cand(1, "Tvättstugan kan bokas 7–21 alla dagar via listan i entrén.", 1),
              _cand(2, "Tvättstugan öppnar en timme tidigare, 6–21, från april.", 3),
              _cand(3, "Styrelsemötet hålls första tisdagen i månaden.", 2)]
    out, marks = versions_first(ranked, "när är tvättstugan öppen?", _vectors, "now:0.5")
    assert [c.id for c in out] == [2, 1, 3] and marks == {1: [2]}
    out, marks = versions_first(ranked, "när är tvättstugan öppen?", _vectors, "past:0.5")
    assert [c.id for c in out] == [1, 2, 3] and marks == {}


def test_chat_turns_a_name_only_subject_and_a_reason_clause_are_not_read() -> None:
    q = "när är tvättstugan öppen?"
    turns = [_cand(1, "Tvättstugan kan bokas 7–21 alla dagar.", 1, thread="t"),
             _cand(2, "Tvättstugan öppnar 6–21 från april.", 3, thread="t")]
    assert versions_first(turns, q, _vectors, "both:0.5") == (turns, {})
    # the question's only shared word the store's person, said by most candidates: no subject of two versions
    lucia = [_cand(1, "Lucía hace un curso de alemán martes y jueves de 18 a 21 h.", 1)] + [
        _cand(i, f"Lucía tiene cita número {i} el {i} de mayo.", 2 + i % 7) for i in range(2, 7)]
    assert versions_first(lucia, "When does Lucía have class?", _vectors, "both:0.5")[1] == {}
    # the later note names the subject only in a reason clause: no version of it
    reason = [_cand(1, "Tvättstugan kan bokas 7–21 alla dagar.", 1),
              _cand(2, "Städdagen är lördag 9 maj, eftersom tvättstugan är stängd då.", 3)]
    assert versions_first(reason, q, _vectors, "both:0.5") == (reason, {})
