"""Round 6 of issue 19: reply pairs (memengine/recall/replypair.py) on small hand-written chats."""

from __future__ import annotations

import math
from dataclasses import replace
from datetime import datetime, timedelta

from memengine.recall.config import W_LENGTH_THREAD
from memengine.recall.replypair import SHORT_REPLY_WORDS, is_short_answer, pair_words, short_reply_weight
from memengine.records import Candidate
from memory_core import W_REPLY, MemoryStore, NewMemory, RecallConfig

MARATHON = [
    ("Ana", "I signed up for a marathon!!"),
    ("Ben", "whoa which one?"),
    ("Ana", "the half, not the full one"),
    ("Ben", "where's the marathon?"),
    ("Ana", "it's in Évora on october 18"),
    ("Ben", "cool"),
    ("Ana", "the marathon training plan says 4 runs a week"),
    ("Ben", "that's a lot of marathon prep"),
]


def chat(store: MemoryStore, turns: list[tuple[str, str]], thread: str = "t1") -> list[int]:
    start = datetime(2026, 9, 12, 18, 0)
    items = [NewMemory(content=f"{who}: {text}", memory_type="episodic", source="chat", ref=f"{thread}/{i}",
                       author=who, thread=thread, position=i, event_at=start + timedelta(minutes=i))
             for i, (who, text) in enumerate(turns)]
    return store.store_many(items).ids


def cand(mid: int, author: str, text: str, position: int) -> Candidate:
    return Candidate((mid, f"{author}: {text}", author, "t", position, "2026-09-12T18:00:00", "{}", 1.0, 0.5))


def test_a_short_answer_is_a_short_turn_by_someone_else() -> None:
    q = cand(1, "Ben", "where's the marathon?", 0)
    assert is_short_answer(cand(2, "Ana", "it's in Évora on october 18", 1), q)
    assert not is_short_answer(cand(3, "Ben", "and when?", 1), q)  # the asker going on
    long = " ".join(["word"] * (SHORT_REPLY_WORDS + 1))
    assert not is_short_answer(cand(4, "Ana", long, 1), q)
    assert is_short_answer(cand(5, "Ana", " ".join(["word"] * SHORT_REPLY_WORDS), 1), q)
    assert short_reply_weight(0.05, 0.2, cand(2, "Ana", "in Évora", 1), q) == 0.05 + 0.2
    assert short_reply_weight(0.05, 0.2, cand(4, "Ana", long, 1), q) == 0.05
    assert short_reply_weight(0.05, 0.0, cand(2, "Ana", "in Évora", 1), q) == 0.05


def test_a_reply_counts_its_questions_words_for_the_length_prior() -> None:
    q = cand(1, "Ben", "how long is the course?", 0)  # 5 words
    a = cand(2, "Ana", "21 km", 1)  # 2 words
    assert pair_words(a, None, 20) == 2
    assert pair_words(a, q, 20) == 7
    assert pair_words(a, q, 6) == 6  # capped
    assert pair_words(cand(3, "Ana", " ".join(["w"] * 25), 1), q, 20) == 20


def test_short_answers_inherit_more_of_their_question(store: MemoryStore) -> None:
    ids = chat(store, MARATHON)
    answer, cool = ids[4], ids[5]
    query = "where is the marathon?"
    plain = replace(RecallConfig(), newname="")  # (the reply prior alone: round 32's step would lift "in Évora")
    base = store.recall(query, k=8, touch=False, explain=True, config=plain).results
    on = store.recall(query, k=8, touch=False, explain=True, config=replace(plain, w_short_reply=0.2)).results
    b = {r.id: r for r in base}
    o = {r.id: r for r in on}
    # the answer's reply bonus is (0.05 + 0.2) / 0.05 = 5 times the engine's (same question score, same floor)
    ratio = o[answer].explain["priors"]["reply"] / b[answer].explain["priors"]["reply"]
    assert math.isclose(ratio, (W_REPLY + 0.2) / W_REPLY, rel_tol=2e-3)
    # "cool" follows a statement, not a question: no reply prior either way
    assert "reply" not in b[cool].explain["priors"] and "reply" not in o[cool].explain["priors"]
    # (hash embedder) the answer climbs from 5th to 3rd, right after its question and the turn before it
    assert [ids.index(r.id) for r in base] == [3, 2, 7, 6, 4, 0, 1, 5]
    assert [ids.index(r.id) for r in on] == [3, 2, 4, 7, 6, 0, 1, 5]


def test_pair_length_gives_a_short_reply_its_questions_words(store: MemoryStore) -> None:
    ids = chat(store, MARATHON)
    answer = ids[4]  # "it's in Évora on october 18": 6 words, its question 3 ("where's" is one)
    res = store.recall("Évora october", k=8, touch=False, explain=True,
                       config=replace(RecallConfig(), pair_length=True)).results
    got = next(r for r in res if r.id == answer).explain["priors"]["length"]
    want = W_LENGTH_THREAD * math.log1p(6 + 3) / math.log1p(20)  # a chat turn's length prior (round 44)
    assert round(want, 4) == got
    off = store.recall("Évora october", k=8, touch=False, explain=True).results
    assert next(r for r in off if r.id == answer).explain["priors"]["length"] == round(
        W_LENGTH_THREAD * math.log1p(6) / math.log1p(20), 4)


def test_the_lazy_top_k_is_exact_with_short_replies(store: MemoryStore) -> None:
    chat(store, MARATHON)
    cfg = replace(RecallConfig(), w_short_reply=0.3, pair_length=True)
    for q in ("where is the marathon?", "how many runs a week?", "which marathon did Ana sign up for?"):
        whole = [r.id for r in store.recall(q, k=8, touch=False, config=cfg).results]
        for k in (1, 2, 3, 5):
            assert [r.id for r in store.recall(q, k=k, touch=False, config=cfg).results] == whole[:k]
