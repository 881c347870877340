"""Round 7 of issue 19: the query-side adapter (memengine/recall/adapter.py)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from memengine.recall import adapter
from memory_core import MemoryStore, NewMemory, RecallConfig

TURNS = [
    ("Ana", "where is the marathon this year?"),
    ("Ben", "it's in Evora on october 18"),
    ("Ana", "I bought new running shoes yesterday"),
    ("Ben", "the dentist appointment moved to friday"),
    ("Ana", "the wifi password is on the fridge"),
    ("Ben", "we should book the hotel near the river"),
]


def chat(store: MemoryStore, turns: list[tuple[str, str]] = TURNS) -> list[int]:
    start = datetime(2026, 9, 12, 18, 0)
    items = [NewMemory(content=f"{who}: {text}", memory_type="episodic", source="chat", ref=f"t/{i}",
                       author=who, thread="t", position=i, event_at=start + timedelta(minutes=i))
             for i, (who, text) in enumerate(turns)]
    return store.store_many(items).ids


def write(path: Path, model_id: str, questions_only: bool = False, **weights: np.ndarray) -> str:
    np.savez(path, **weights, model_id=np.array(model_id), questions_only=np.array(int(questions_only)))
    return str(path)


def refs(store: MemoryStore, query: str, cfg: RecallConfig, strategy: str = "hybrid") -> list[str]:
    return [m.ref or "" for m in store.recall(query, k=6, strategy=strategy, touch=False, config=cfg).results]


def test_the_map_is_q_plus_u_vt_q_normalised(tmp_path: Path) -> None:
    rng = np.random.default_rng(7)
    u, v = rng.normal(size=(384, 4)).astype(np.float32), rng.normal(size=(384, 4)).astype(np.float32)
    a = adapter.load(write(tmp_path / "lr.npz", "m1", U=u, V=v), "m1")
    assert a is not None and a.v is not None
    q = rng.normal(size=384).astype(np.float32)
    q /= np.linalg.norm(q)
    want = q + u @ (v.T @ q)
    np.testing.assert_allclose(a.apply(q), want / np.linalg.norm(want), rtol=1e-5, atol=1e-6)
    full = rng.normal(size=(384, 384)).astype(np.float32) * 0.01
    b = adapter.load(write(tmp_path / "full.npz", "m1", A=full), "m1")
    assert b is not None and b.v is None
    want = q + full @ q
    np.testing.assert_allclose(b.apply(q), want / np.linalg.norm(want), rtol=1e-5, atol=1e-6)


def test_questions_only_leaves_keyword_like_queries_alone(tmp_path: Path) -> None:
    a = adapter.load(write(tmp_path / "q.npz", "m1", True, A=-2 * np.eye(384, dtype=np.float32)), "m1")
    assert a is not None and a.questions_only
    q = np.ones(384, dtype=np.float32) / np.sqrt(384)
    assert a.apply(q, "wifi password") is q
    np.testing.assert_allclose(a.apply(q, "where is the wifi password?"), -q, atol=1e-6)
    assert adapter.is_question("Où est le marathon") and adapter.is_question("when did we decide")
    assert adapter.is_question("the hotel?") and not adapter.is_question("dentist appointment")


def test_off_and_the_identity_map_give_todays_results(store: MemoryStore, tmp_path: Path) -> None:
    chat(store)
    ident = write(tmp_path / "zero.npz", store.embedder.model_id, U=np.zeros((384, 2), np.float32),
                  V=np.ones((384, 2), np.float32))
    for query in ("where is the marathon?", "wifi password", "hotel by the river"):
        today = refs(store, query, RecallConfig())
        assert RecallConfig().query_adapter == ""  # off by default until leave-one-out keeps it
        assert refs(store, query, RecallConfig(query_adapter="")) == today
        assert refs(store, query, RecallConfig(query_adapter=ident)) == today


def test_the_vector_side_searches_with_the_adapted_query(store: MemoryStore, tmp_path: Path) -> None:
    chat(store)
    flip = write(tmp_path / "flip.npz", store.embedder.model_id, A=-2 * np.eye(384, dtype=np.float32))
    cfg = RecallConfig()
    plain = store.recall("wifi password fridge", k=6, strategy="vector", touch=False, config=cfg).results
    flipped = store.recall("wifi password fridge", k=6, strategy="vector", touch=False,
                           config=replace(cfg, query_adapter=flip)).results
    # q' = normalize(q - 2q) = -q: every cosine changes sign, so the best match becomes the worst
    # (the turns sharing no word with the query tie at 0 both ways: their order is by id)
    assert plain[0].ref == "t/4" and flipped[-1].ref == "t/4"
    assert [m.score for m in flipped] == sorted((m.score for m in flipped), reverse=True)


def test_a_map_trained_for_another_model_is_off_and_says_so(store: MemoryStore, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    chat(store)
    other = write(tmp_path / "other.npz", "all-MiniLM-L6-v2-onnx-int8-elsewhere",
                  A=-2 * np.eye(384, dtype=np.float32))
    capsys.readouterr()
    got = refs(store, "wifi password", RecallConfig(query_adapter=other), "vector")
    assert got == refs(store, "wifi password", RecallConfig(), "vector")
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "other.npz was trained for all-MiniLM-L6-v2-onnx-int8-elsewhere" in err
    assert f"not {store.embedder.model_id}: off" in err


def test_a_missing_or_broken_file_is_off_and_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert adapter.load(str(tmp_path / "nowhere.npz"), "m1") is None
    (tmp_path / "bad.npz").write_bytes(b"not a zip")
    assert adapter.load(str(tmp_path / "bad.npz"), "m1") is None
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and all(line.startswith("mem: query adapter ") and line.endswith(": off") for line in err)
    assert adapter.load("", "m1") is None
    vec = np.ones(384, dtype=np.float32)
    assert adapter.adapted(vec, "q?", "", "m1") is vec
