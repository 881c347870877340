"""Round 44 of issue 19: the pooled leave-one-set-out protocol (bench/recall44_pool.py) — every set weighs the same,
a held-out set's variant is chosen on the other sets only, ties go to the default."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import loo  # noqa: E402
from bench.recall44_pool import choose, grids, objective, report  # noqa: E402


def _items() -> list[loo.Item]:
    # set "a": 4 questions in 2 folds; set "b": 1 question; "c": 1 question
    spec = [("a", "a1", "q1"), ("a", "a1", "q2"), ("a", "a2", "q3"), ("a", "a2", "q4"), ("b", "b1", "q5"),
            ("c", "c1", "q6")]
    return [loo.Item(s, f, k, None, "?", [], False) for s, f, k in spec]


def _sc(values: dict[str, float]) -> dict[str, dict[str, float]]:
    return {k: {"recall@5": v, "recall@10": v, "mrr": v, "all@10": v} for k, v in values.items()}


def test_every_set_weighs_the_same_however_many_questions_it_has() -> None:
    items = _items()
    sc = _sc({"q1": 1, "q2": 1, "q3": 1, "q4": 1, "q5": 0, "q6": 0})
    assert objective(items, sc) == 1 / 3  # not 4 / 6


def test_a_held_out_set_is_scored_by_the_variant_the_other_sets_chose() -> None:
    items = _items()
    variants = {
        "x*": _sc({"q1": 1, "q2": 1, "q3": 1, "q4": 1, "q5": 0, "q6": 0}),
        # better on b and c, worse on a
        "y": _sc({"q1": 0, "q2": 0, "q3": 0, "q4": 0, "q5": 1, "q6": 1}),
    }
    chosen = choose(items, variants, "set")
    # leaving a out: y wins on b and c; leaving b out: a (1 vs 0) and c (0 vs 1) tie -> the default x
    assert chosen == {"a": "y", "b": "x*", "c": "x*"}
    r = report(items, "demo", variants)
    per = r["set"]["per_set"]
    assert (per["a"]["base"], per["a"]["held"], per["a"]["chose"]) == (1.0, 0.0, ["y"])
    assert (per["b"]["held"], per["c"]["held"]) == (0.0, 0.0)
    assert r["set"]["gain"] == round(-1 / 3, 4)
    # by fold: leaving a1 out, the others (a2 at 1 for x, b, c) choose by the objective over sets a, b, c
    assert choose(items, variants, "fold")["a1"] == "y"


def test_every_switch_and_constant_of_loo_has_one_default() -> None:
    for name, grid in grids().items():
        assert sum(lab.endswith("*") for lab in grid) == 1, name
