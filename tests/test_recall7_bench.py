"""bench/recall_adapter.py's training on a synthetic task, and its files read by the engine."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from bench import recall_adapter as ra
from memengine.recall import adapter


class FixedVectors(ra.Vectors):
    """Query vectors given up front (no embedder)."""

    def __init__(self, vecs: dict[str, Any]) -> None:
        self.emb, self.path, self.vecs = None, Path("/nonexistent"), vecs


def unit(x: Any) -> Any:
    return x / np.linalg.norm(x, axis=-1, keepdims=True)


def synthetic(seed: int) -> tuple[list[ra.Unit], FixedVectors]:
    """Two conversations of 40 memories; each question is its answer seen through one fixed
    rotation (what a question -> answer map has to undo), plus noise: raw cosines are chance."""
    rng = np.random.default_rng(seed)
    mix = np.linalg.qr(rng.normal(size=(384, 384)))[0].astype(np.float32)
    units, vecs = [], {}
    for c in range(2):
        docs = unit(rng.normal(size=(40, 384)).astype(np.float32))
        u = ra.Unit("locomo", f"c{c}", docs)
        for i in range(40):
            text = f"c{c} q{i}"
            vecs[text] = unit(mix @ docs[i] + 0.3 * unit(rng.normal(size=384)).astype(np.float32))
            u.dev.append((text, [i]))
        units.append(u)
    return units, FixedVectors(vecs)


def top1(units: list[ra.Unit], vecs: FixedVectors, weights: dict[str, Any] | None) -> float:
    hits = []
    for u in units:
        q = vecs.get([t for t, _ in u.dev])
        q = ra.apply(weights, q) if weights is not None else q
        hits += [int(np.argmax(q[i] @ u.docs.T)) == pos[0] for i, (_, pos) in enumerate(u.dev)]
    return float(np.mean(hits))


def test_training_learns_the_map_and_the_engine_reads_it(tmp_path: Path) -> None:
    units, vecs = synthetic(3)
    before = top1(units, vecs, None)
    v = ra.Variant("t", "dev", 0, lam=0.01, iters=30)
    w = ra.train(units, v, vecs)  # conversations of 40 < HARD candidates: padded rows take no part
    assert set(w) == {"A"} and w["A"].shape == (384, 384)
    assert before < 0.2 and top1(units, vecs, w) > before + 0.5
    path = ra.save(w, v, tmp_path / "a.npz", "m-test", "0" * 64)
    loaded = adapter.load(str(path), "m-test")
    assert loaded is not None and not loaded.questions_only
    q = vecs.get(["c0 q1", "c1 q7"])
    np.testing.assert_allclose(np.stack([loaded.apply(x) for x in q]), ra.apply(w, q), rtol=1e-4, atol=1e-5)
    assert adapter.load(str(path), "another-model") is None


def test_low_rank_weights_round_trip(tmp_path: Path) -> None:
    units, vecs = synthetic(4)
    v = ra.Variant("t", "dev", 8, lam=0.01, iters=10, questions_only=True)
    w = ra.train(units, v, vecs)
    assert set(w) == {"U", "V"} and w["U"].shape == (384, 8)
    loaded = adapter.load(str(ra.save(w, v, tmp_path / "lr.npz", "m-test", "0" * 64)), "m-test")
    assert loaded is not None and loaded.questions_only
    q = vecs.get(["c0 q2"])[0]
    np.testing.assert_allclose(loaded.apply(q, "where is it?"), ra.apply(w, q[None])[0], rtol=1e-4, atol=1e-5)
    assert loaded.apply(q, "wifi password") is q


def test_self_supervised_pairs_follow_the_chat_rule() -> None:
    assert ra.memory_fold("locomo", "conv-26", "conv-26") == "conv-26"
    assert ra.memory_fold("realchat", "chatgpt/x.json", "abc") == "chatgpt/x.json#abc"
    assert ra.memory_fold("realchat", "whatsapp/y.txt", "y") == "whatsapp/y.txt"
