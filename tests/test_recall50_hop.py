"""Round 50 of issue 19 (memengine/recall/list_hop.py): a list question's second hop into other sessions, reaching
past the fused top 30 — the spec read, the hop's bonus only for other sessions and only past the first five, the pool
depth honoured, and the step off by default through a real store."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from memengine.recall.list_hop import list_hop, parse, pool_of
from memengine.records import Candidate
from memory_core import MemoryStore, RecallConfig

LIST_Q = "Which martial arts has John done?"


def cand(i: int, score: float, day: str, text: str = "", thread: str = "t") -> Candidate:
    c = Candidate((i, text or f"turn {i}", "John", thread, i, f"2026-{day}T20:00:00", "{}", 1.0, 0.5, "whatsapp"))
    c.score = score
    return c


def shares(words: list[str]) -> tuple[dict[str, float], int]:
    # "kickboxing" and "judo" rare (2 of 100 memories), everything else common
    return {w: 0.02 if w in ("kickboxing", "judo") else 0.5 for w in words}, 100


def test_the_spec_and_the_pool_it_reads() -> None:
    assert parse("0.5:3:60") == (0.5, 3, 60, 0)
    assert parse("0.2:1") == (0.2, 1, 30, 0)
    assert parse("0.5:1:60:4") == (0.5, 1, 60, 4)
    assert pool_of("0.5:3:60", LIST_Q) == 60
    assert pool_of("0.5:3:60", "What is the gym called?") == 0
    assert pool_of("", LIST_Q) == 0


def ranked(n: int) -> list[Candidate]:
    # the seed names kickboxing; everything else on the seed's day but the two turns of other days
    out = [cand(1, 1.0, "07-22", "they offer yoga, kickboxing and circuit training")]
    out += [cand(i, 1.0 - i / 100, "07-22") for i in range(2, n + 1)]
    out[20] = cand(21, 0.79, "07-22", "kickboxing again tonight")  # the seed's own session: no bonus
    out[34] = cand(35, 0.65, "02-17", "I'm doing kickboxing now")  # another session, rank 35
    return out


def search_for(hits: dict[int, float], asked: list[str]):  # type: ignore[no-untyped-def]
    def search(match: str, limit: int) -> dict[int, float]:
        asked.append(match)
        return hits
    return search


def test_a_turn_of_another_session_rises_from_below_rank_30_only_when_the_pool_reaches_it() -> None:
    asked: list[str] = []
    hits = {1: 3.0, 21: 2.0, 35: 2.0}
    deep = list_hop(ranked(40), LIST_Q, "0.5:1:60", search_for(hits, asked), shares, 0.03)
    assert asked == ['"kickboxing"']
    ids = [c.id for c in deep]
    # the first five never move; 35 gains 0.5 × 2/3 -> 0.983 and comes sixth; 21 (the seed's session) stays put
    assert ids[:5] == [1, 2, 3, 4, 5] and ids[5] == 35
    assert deep[5].score == round(0.65 + 0.5 * 2.0 / 3.0, 6)
    assert ids.index(21) == 21 and len(ids) == 40
    # a pool of 30 does not reach rank 35
    shallow = list_hop(ranked(40), LIST_Q, "0.5:1:30", search_for(hits, []), shares, 0.03)
    assert [c.id for c in shallow] == [c.id for c in ranked(40)]


def test_not_a_list_question_and_weight_zero_leave_the_ranking_alone() -> None:
    asked: list[str] = []
    for q, spec in (("What is the gym called?", "0.5:1:60"), (LIST_Q, "0:1:60")):
        out = list_hop(ranked(40), q, spec, search_for({35: 2.0}, asked), shares, 0.03)
        assert [c.id for c in out] == [c.id for c in ranked(40)]
    assert asked == []


CHAT = "\n".join(
    [f"[{d:02d}/01/26, 20:{m:02d}:00] {who}: {text}" for d, m, who, text in (
        (8, 0, "Ana", "the gym does yoga, judo and circuits"),
        (8, 1, "Ben", "which martial arts do you fancy"),
        (8, 2, "Ana", "martial arts classes are on tuesdays"),
        (8, 3, "Ben", "martial arts sound hard"),
        (8, 4, "Ana", "martial arts yes but not tonight"),
        (8, 5, "Ben", "ok see you at the gym"),
        (8, 6, "Ana", "martial arts are good for my back"),
        (8, 7, "Ana", "martial arts kit is expensive"),
        (8, 8, "Ana", "i did martial arts as a kid"),
        (22, 0, "Ana", "did my first judo grading today, yellow belt"),
        (29, 0, "Ben", "weather is awful"),
    )]) + "\n"


def test_through_a_store_off_by_default_and_the_head_never_moves(tmp_path: Path) -> None:
    from memengine import ingest

    path = tmp_path / "gym.txt"
    path.write_text(CHAT, encoding="utf-8")
    store = MemoryStore(str(tmp_path / "m.db"))
    ingest.import_path(store, path)
    d = RecallConfig()
    assert d.list_hop == ""
    q = "Which martial arts has Ana done?"
    off = [r.id for r in store.recall(q, k=12, touch=False, config=d).results]
    assert off == [r.id for r in store.recall(q, k=12, touch=False).results]
    asked: list[str] = []
    import memengine.recall.list_hop as step

    real = step.hop_bonus

    def spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        asked.append(f"{len(args[3])}:{kwargs['keep']}:{kwargs['limit']}")
        return real(*args, **kwargs)

    step.hop_bonus = spy
    try:
        on = [r.id for r in store.recall(q, k=12, touch=False, config=replace(d, list_hop="1:3:60")).results]
        q1 = "What is the gym called?"
        no_list = [r.id for r in store.recall(q1, k=12, touch=False, config=replace(d, list_hop="1:3:60")).results]
    finally:
        step.hop_bonus = real
    # the hop ran once, for the list question alone, the first five fixed, 3 × the pool of 60 hop hits read
    assert len(asked) == 1 and asked[0].endswith(":5:180")
    assert on[:5] == off[:5] and sorted(on) == sorted(off)
    assert no_list == [r.id for r in store.recall(q1, k=12, touch=False, config=d).results]
    store.close()
