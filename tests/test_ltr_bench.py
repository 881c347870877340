"""The re-ranking models of bench/recall_ltr.py: the engine's order is the starting point, and a
held-out fold is scored by a model fitted without it."""

from __future__ import annotations

import numpy as np

from bench.loo import Item
from bench.recall_ltr import FEATURES, QData, Variant, held_out_scores, rerank

F = len(FEATURES)
SCORE, COV = FEATURES.index("score"), FEATURES.index("cov")


def _question(key: str, evidence_at: int, cov_marks_evidence: bool, n: int = 12) -> QData:
    """n candidates in the engine's order (score falling); the evidence sits at ``evidence_at``;
    the ``cov`` feature is 1 on the evidence (or, when not ``cov_marks_evidence``, on the
    candidate right above it) and 0 elsewhere."""
    x = np.zeros((n, F))
    x[:, SCORE] = np.linspace(1.0, 0.5, n)
    x[evidence_at if cov_marks_evidence else evidence_at - 1, COV] = 1.0
    y = np.zeros(n)
    y[evidence_at] = 1.0
    refs = [f"{key}/{i}" for i in range(n)]
    return QData(key, x, y, refs, refs[:10])


def _items_and_data() -> tuple[list[Item], dict[str, QData]]:
    items, data = [], {}
    for fold, marks in (("conv-a", True), ("conv-b", True), ("chat-x", True), ("chat-y", False)):
        for i in range(4):
            key = f"{fold}:{i}"
            s = "realchat" if fold.startswith("chat") else "locomo"
            items.append(Item(s, fold, key, None, "q", [f"{key}/7"], False))
            data[key] = _question(key, 7, marks)
    return items, data


def test_rerank_with_the_engine_weights_keeps_its_order_and_keep_pins_the_head() -> None:
    q = _question("q", 7, True)
    mu, sd = np.zeros(F), np.ones(F)
    beta = np.zeros(F + 1)
    beta[1 + SCORE] = 1.0
    assert rerank(q, 10, mu, sd, beta, np.ones(F)) == q.refs
    beta[1 + COV] = 10.0  # the evidence (rank 8) jumps to the top, or to rank 6 when 5 are kept
    assert rerank(q, 10, mu, sd, beta, np.ones(F))[:2] == ["q/7", "q/0"]
    assert rerank(q, 10, mu, sd, beta, np.ones(F), keep=5)[:7] == ["q/0", "q/1", "q/2", "q/3", "q/4", "q/7", "q/5"]


def test_ascent_learns_from_the_other_folds_and_each_fold_is_scored_by_their_model() -> None:
    items, data = _items_and_data()
    scores, betas = held_out_scores(items, data, Variant("ascent", 12, 0.002), np.ones(F))
    # where cov marks the evidence in the other folds, the model lifts it into the top 5
    assert all(scores[f"conv-a:{i}"]["recall@5"] == 1.0 for i in range(4))
    assert betas["conv-a"][1 + COV] > 0
    # chat-y is the odd fold out: cov marks the turn above its evidence, so the model fitted on
    # the others (never on chat-y) lifts the wrong turn and leaves the evidence out of the top 5
    assert all(scores[f"chat-y:{i}"]["recall@5"] == 0.0 for i in range(4))
    assert all(scores[f"chat-y:{i}"]["recall@10"] == 1.0 for i in range(4))
