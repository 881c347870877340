"""Round 9 of issue 19: chat updates said without a change word, the kind of value a question asks,
and the update ranking's cheap gates."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

from memengine import fact_tokens
from memengine.recall import updates as U
from memengine.recall.counter import asked_kinds, counters, kind_fits
from memengine.recall.updates import newer_first, updates
from memengine.records import Candidate
from memory_core import MemoryStore, NewMemory, RecallConfig

DINNER = [
    ("Lena", "dinner sat 8pm? my treat for your birthday"),
    ("Marcus", "ahh you're the best"),
    ("Marcus", "sunday works better, 7pm? I've got the work drinks on saturday"),
    ("Lena", "ok 7 then"),
    ("Lena", "how many of us? just you and me or is Priti coming"),
    ("Marcus", "table for 3, Priti's in"),
    ("Lena", "the gym pass is 25 a week btw"),
]


def chat(store: MemoryStore, turns: list[tuple[str, str]], thread: str = "t1") -> list[int]:
    start = datetime(2026, 11, 3, 19, 0)
    items = [NewMemory(content=f"{who}: {text}", memory_type="episodic", source="chat", ref=f"{thread}/{i}",
                       author=who, thread=thread, position=i, event_at=start + timedelta(minutes=i * 3))
             for i, (who, text) in enumerate(turns)]
    return store.store_many(items).ids


def cand(mid: int, author: str, text: str, position: int, when: str, thread: str = "t") -> Candidate:
    return Candidate((mid, f"{author}: {text}", author, thread, position, when, "{}", 1.0, 0.5))


def test_counter_idioms_are_read_and_plain_turns_are_not() -> None:
    for text in ("sunday works better, 7pm?", "can't do 11, 1pm?", "can we do the 21st, I'm away on the 14th",
                 "actually let's make dues 15", "ok 7 then", "21st it is", "Maria says thursdays suit her better",
                 "agent says noon is better for her", "bins are wednesday from this month", "On peut faire jeudi plutôt ?"):
        assert counters(text), text
    for text in ("dinner sat 8pm? my treat", "I went there in 2019 then came back", "this is better than ever",
                 "table for 3, Priti's in"):
        assert not counters(text), text


def test_a_question_names_the_kind_of_value_it_asks() -> None:
    assert asked_kinds("what time is the haircut?") == {"time", "date", "weekday", "number"}
    assert asked_kinds("When does Mika start school?") == {"time", "date", "weekday", "number"}
    assert asked_kinds("how many people is the booking for?") == {"number", "number:*"}
    assert asked_kinds("which pitch are we on?") is None
    assert kind_fits({"number:duration"}, asked_kinds("how long did the visa take?"))
    assert not kind_fits({"number:duration"}, asked_kinds("when is the trip?"))  # a duration is no date
    assert not kind_fits({"time", "weekday"}, asked_kinds("how many people is the booking for?"))
    assert kind_fits({"time"}, None)


def test_an_update_without_a_change_word_needs_an_idiom_and_another_value() -> None:
    old, new = "dinner sat 8pm? my treat for your birthday", "sunday works better, 7pm? I've got drinks on saturday"
    assert updates(old, new, "turns", close=True)
    assert not updates(old, new, "slot")  # no change cue: round 8's mode misses it
    assert not updates(old, "Marcus is coming at 7pm", "turns", close=True)  # nearness alone: no idiom
    assert not updates(old, "sunday works better, 8pm?", "turns")  # the same time
    assert not updates(old, new, "turns", asked=asked_kinds("how many people are coming?"))  # not the slot asked
    assert updates("keys handover at 3 on the 28th?", "agent says noon is better for her", "turns", close=True)


def test_newer_first_turns_pairs_a_close_reply_without_a_shared_word_only_in_the_top() -> None:
    sat = cand(1, "Lena", "dinner sat 8pm? my treat for your birthday", 0, "2026-11-03T19:02:00")
    best = cand(2, "Marcus", "ahh you're the best", 1, "2026-11-03T19:10:00")
    sun = cand(3, "Marcus", "sunday works better, 7pm? I've got the work drinks on saturday", 2, "2026-11-03T19:11:00")
    gym = cand(4, "Lena", "the gym pass is 25 a week btw", 6, "2026-11-05T08:45:00")
    for c, s in zip((sat, best, sun, gym), (0.9, 0.8, 0.5, 0.4)):
        c.score = s
    out, marks = newer_first([sat, best, sun, gym], 4, "turns", query="when is the birthday dinner?")
    assert [c.id for c in out] == [3, 1, 2, 4] and marks == {1: [3]} and sun.score == 0.9
    sun.score = 0.5
    out, marks = newer_first([sat, best, sun, gym], 4, "slot", query="when is the birthday dinner?")
    assert [c.id for c in out] == [1, 2, 3, 4] and marks == {}  # round 8's mode: no change cue
    out, marks = newer_first([sat, best], 2, "turns:pool".partition(":")[0], pool=[sun, gym],
                             query="when is the birthday dinner?")
    assert [c.id for c in out] == [1, 2] and marks == {}  # from below the top, nearness is not enough
    out, marks = newer_first([sat, best, sun, gym], 4, "turns", query="how many people are coming?")
    assert marks == {}  # a time changed, the question asks a number


def test_recall_by_default_ranks_a_counter_proposal_above_the_proposal(store: MemoryStore) -> None:
    ids = chat(store, DINNER)
    assert RecallConfig().newer_first == "units:pool"  # (round 20: forms, and a number restated beside its unit)
    q = "what time is the birthday dinner on sat?"
    off = store.recall(q, k=5, touch=False, config=replace(RecallConfig(), newer_first="")).results
    got = store.recall(q, k=5, touch=False).results
    assert [r.id for r in off].index(ids[0]) < [r.id for r in off].index(ids[2])  # the proposal first without it
    order = [r.id for r in got]
    # (round 11: "ok 7 then" settles the counter-proposal, so it moves above the proposal too, just below it)
    assert order[order.index(ids[0]) - 2:order.index(ids[0])] == [ids[2], ids[3]]
    sat = next(r for r in got if r.id == ids[0])
    assert sat.possibly_outdated is True and sat.possibly_outdated_by == [ids[2], ids[3]]
    # nothing leaves the results but the last, pushed down by the settlement brought in from below
    assert {r.id for r in off[:-1]} <= {r.id for r in got} and ids[3] in order
    assert all(a.score >= b.score for a, b in zip(got, got[1:]))


def test_the_raw_text_gates_let_through_every_turn_the_bare_text_test_would() -> None:
    for content, author in (("[2026-11-03 19:02] Lena: dinner sat 8pm?", "Lena"), ("Mum: make it 6:30 on sunday", "Mum"),
                            ("Tom: kickoff at noon", "Tom"), ("Ana: déplacé à mardi", "Ana"), ("Jo: haha ok", "Jo")):
        bare = U.bare_text(content, author)
        assert U._valued_raw(content) >= (U._MAYBE_VALUE.search(bare) is not None), content
        assert U._may_cue_raw(content) >= U._may_cue(bare), content
    assert not U._valued_raw("[2026-11-03 19:02] Jo: haha ok")  # the stamp's digits are no value


def test_fact_tokens_compiles_a_move_pattern_only_for_a_text_that_needs_it() -> None:
    fact_tokens._move_pattern.cache_clear()
    assert fact_tokens.prepare("dinner at 8 on saturday") == "dinner at 8 on saturday"
    assert fact_tokens._move_pattern.cache_info().currsize == 0
    assert fact_tokens.prepare("She moved to Porto last May") == "She lives in Porto last May"
    assert fact_tokens.prepare("we moved to the new office") == "we moved to the new office"  # no place name
    assert fact_tokens._move_pattern.cache_info().currsize == 1


def test_the_rounds_own_questions_name_one_message_each() -> None:
    data = Path(__file__).resolve().parent.parent / "bench" / "data"
    rows = [json.loads(line) for line in (data / "recall_updates9.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 25 and {r["kind"] for r in rows} == {"update", "keep", "category"}
    for r in rows:
        lines = (data / "recall_updates9" / r["file"]).read_text(encoding="utf-8").splitlines()
        for snippet in r["evidence"] + r.get("outdated", []) + r.get("distractor", []):
            assert sum(snippet in line for line in lines) == 1, (r["id"], snippet)
        assert (r["kind"] == "update") == ("outdated" in r)
