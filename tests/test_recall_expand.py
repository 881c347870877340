"""Multi-hop expansion (memengine/recall/expand.py) and bench/loo.py's fast scoring path."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from bench.loo import Item, Scorer, retrieve
from memengine.recall.expand import coverage_rerank, hop_bonus, hop_terms
from memory_core import NewMemory, RecallConfig


class _C:
    """The few Candidate fields expansion reads."""

    def __init__(self, mid: int, content: str, score: float, thread: str = "t", day: str = "2024-01-01") -> None:
        self.id, self.content, self.score, self.author = mid, content, score, None
        self.thread, self.event_at = thread, f"{day}T10:00:00"


def test_coverage_lifts_the_result_matching_what_the_top_lacks() -> None:
    ranked = [_C(1, "we went camping at the lake", 1.0), _C(2, "camping again next week", 0.9),
              _C(3, "she paints sunsets", 0.85), _C(4, "nothing here", 0.8)]
    terms = ["camping", "painting"]
    # seeds=1: after "camping", a painting turn covers half the question: +0.5 * 0.2 beats 0.05 of score
    got = coverage_rerank(list(ranked), terms, seeds=1, weight=0.2)
    assert [c.id for c in got] == [1, 3, 2, 4]
    # too small a weight changes nothing; neither does a one-word question
    assert [c.id for c in coverage_rerank(list(ranked), terms, 1, 0.05)] == [1, 2, 3, 4]
    assert [c.id for c in coverage_rerank(list(ranked), ["camping"], 1, 1.0)] == [1, 2, 3, 4]
    assert [c.score for c in got] == [1.0, 0.85, 0.9, 0.8]  # scores are left as they were


def test_second_hop_rewards_another_session_only() -> None:
    seed = _C(1, "Melanie adopted a greyhound named Biscuit", 1.0, day="2024-01-01")
    same = _C(2, "Biscuit loves the beach", 0.5, day="2024-01-01")  # the seed's own session
    other = _C(3, "took Biscuit to the vet", 0.4, day="2024-02-03")
    plain = _C(4, "work was busy", 0.45, day="2024-02-03")
    calls = []

    def shares(words: list[str]) -> tuple[dict[str, float], int]:
        return {w: (0.004 if w in ("biscuit", "greyhound") else 0.2) for w in words}, 1000

    def search(match: str, limit: int) -> dict[int, float]:
        calls.append(match)
        return {2: 3.0, 3: 3.0, 1: 4.0}

    assert hop_terms(shares, "What pet does Melanie have?", [seed], 0.01) == ["greyhound", "biscuit"]
    got = hop_bonus(search, shares, "What pet does Melanie have?", [seed, same, plain, other], 1, 0.2, 0.01)
    assert calls == ['"greyhound" OR "biscuit"']
    assert [c.id for c in got] == [1, 3, 2, 4]  # 0.4 + 0.2 * 3/4 = 0.55 passes 0.5; the same session gains nothing
    assert got[1].score == 0.55 and got[2].score == 0.5


def _chat(store) -> None:
    t0 = datetime(2024, 5, 1, 9)
    lines = [("Ana", "I started pottery classes on Tuesdays"), ("Ben", "nice, what do you make?"),
             ("Ana", "bowls mostly, and a vase for my mum"), ("Ben", "I went hiking in the Alps last week"),
             ("Ana", "which trail did you take?"), ("Ben", "the one above Chamonix, very steep"),
             ("Ana", "my pottery teacher says I should try glazing"), ("Ben", "camping next month?")]
    store.store_many([NewMemory(content=f"{a}: {t}", memory_type="episodic", source="chat", ref=f"m{i}", author=a,
                                thread="c", position=i, event_at=t0 + timedelta(days=i))
                      for i, (a, t) in enumerate(lines)])


def test_the_fast_path_ranks_exactly_like_recall(store) -> None:
    _chat(store)
    questions = ["What does Ana make in pottery?", "Where did Ben go hiking?", "What hobbies does Ana have?"]
    items = [Item("locomo", "c", f"q{i}", store, q, ["m0"], False) for i, q in enumerate(questions)]
    scorer = Scorer(items, None, check=len(items))  # every question is also asked through recall()
    configs = [RecallConfig(), RecallConfig(w_reply=0.0, z_scale=0.25),
               RecallConfig(w_coverage=0.2, w_hop=0.1, expand_seeds=1, hop_rare_share=0.5)]
    for cfg in configs:
        scorer.scores(cfg)  # raises if a fast ranking differs from recall()'s
    for it in items:
        for cfg in configs:
            full = [m.ref for m in store.recall(it.question, k=10, touch=False, config=cfg).results]
            assert scorer.ranked(it, cfg) == full
    # one retrieval per question and retrieval fields: the fusion variants above shared it
    assert len(scorer.runs) == len(items)
    run = retrieve(store, questions[0], replace(RecallConfig(), context_mix=None))
    assert run.kw and run.vs
