"""Round 31's bench (bench/recall_rerank_ce.py): the re-ranking arithmetic over a question's candidate pool, and the
labels the leave-one-out reads back."""

from __future__ import annotations

from bench import recall_rerank_ce as rr


def _pool() -> rr.Pool:
    # the engine's order a..f; the model prefers e, then c (the others far below)
    return rr.Pool(refs=["a", "b", "c", "d", "e", "f"], texts=["", "", "", "", "", ""],
                   engine=[3.0, 2.5, 2.0, 1.5, 1.0, 0.5], model=[0.1, 0.1, 0.6, 0.1, 0.9, 0.1])


def test_weight_zero_is_the_engine_and_one_is_the_model_alone() -> None:
    pool = _pool()
    assert rr.rerank(pool, 10, 0, "rank", 0.0) == ["a", "b", "c", "d", "e", "f"]
    # the model alone: e, c first, then the tied rest in the engine's order
    assert rr.rerank(pool, 10, 0, "rank", 1.0) == ["e", "c", "a", "b", "d", "f"]
    assert rr.rerank(pool, 10, 0, "score", 1.0) == ["e", "c", "a", "b", "d", "f"]


def test_the_depth_cuts_the_pool_and_keep_fixes_the_head() -> None:
    pool = _pool()
    # depth 4: e and f are not in the pool; c (the model's best of the four) rises to the top
    assert rr.rerank(pool, 4, 0, "rank", 1.0) == ["c", "a", "b", "d"]
    # keep 2: a and b stay first, the rest re-ordered by the model
    assert rr.rerank(pool, 10, 2, "rank", 1.0) == ["a", "b", "e", "c", "d", "f"]


def test_a_mixed_weight_moves_each_model_pick_past_one_neighbour() -> None:
    pool = _pool()
    # z(engine rank) is linear in the position (a step of 0.59); at a = 0.3 the model's two picks (z 0.89 and 1.83
    # against 0.68 for the rest) each pass one neighbour: c above b, e above d
    mixed = rr.rerank(pool, 10, 0, "rank", 0.3)
    assert mixed == ["a", "c", "b", "e", "d", "f"]


def test_a_gate_keeps_the_engine_order_unless_the_model_is_sure_of_one() -> None:
    pool = _pool()
    # the model's best z-score here is 1.83 (e): a gate of 2 keeps the engine's order, a gate of 1.5 re-ranks
    assert rr.rerank(pool, 10, 0, "rank-g2.0", 1.0) == ["a", "b", "c", "d", "e", "f"]
    assert rr.rerank(pool, 10, 0, "rank-g1.5", 1.0) == ["e", "c", "a", "b", "d", "f"]
    assert rr.parse_label(rr.label(10, 1, "score-g1.5", 0.4)) == (10, 1, "score-g1.5", 0.4)


def test_labels_round_trip() -> None:
    assert rr.parse_label(rr.label(20, 1, "score", 0.4)) == (20, 1, "score", 0.4)
    assert rr.label(10, 3, "rank", 0.0) == "engine*"
    assert rr.parse_label("engine*") == (10, 0, "rank", 0.0)


def test_the_date_stamp_is_left_out_only_when_asked() -> None:
    assert rr.DATE_STAMP.sub("", "[1:56 pm on 8 May, 2023] Caroline: hi", count=1) == "Caroline: hi"
    assert rr.DATE_STAMP.sub("", "Caroline: [link] hi", count=1) == "Caroline: [link] hi"
