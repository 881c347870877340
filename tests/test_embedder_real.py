"""The real MiniLM ONNX model: pinned numbers, pooling, ordering, checksum."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import embedder
from embedder import EmbedderError, OnnxEmbedder


@pytest.fixture(scope="module")
def real() -> OnnxEmbedder:
    e = OnnxEmbedder()
    e.embed(["warm up"])
    return e


def test_known_sentence_first_dimensions_are_pinned(real: OnnxEmbedder) -> None:
    v = real.embed(["This is a test sentence."])[0]
    assert v.shape == (384,) and v.dtype == np.float32
    assert np.allclose(v[:4], [0.0812, 0.0585, 0.0070, 0.1042], atol=2e-3)
    assert abs(float(np.linalg.norm(v)) - 1.0) < 1e-5


def test_similar_meaning_scores_higher(real: OnnxEmbedder) -> None:
    a, b, c = real.embed(["Oscar prefers morning meetings", "when does Oscar like to meet?",
                          "To restart the gateway run openclaw gateway restart"])
    assert float(a @ b) > 0.6 > float(a @ c)


def test_batching_and_length_sorting_do_not_change_results(real: OnnxEmbedder) -> None:
    texts = ["short", "a much longer sentence about the gateway restart procedure " * 5, "mid length text here"]
    together = real.embed(texts, batch_size=2)
    alone = np.stack([real.embed([t])[0] for t in texts])
    assert np.allclose(together, alone, atol=1e-4)


def test_truncation_keeps_long_text_embeddable(real: OnnxEmbedder) -> None:
    v = real.embed(["word " * 5000])
    assert v.shape == (1, 384) and np.isfinite(v).all()
    assert real.count_tokens("word " * 300) == 300  # counting is not truncated


def test_checksum_mismatch_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "model.onnx"
    fake.write_bytes(b"not a model")
    with pytest.raises(EmbedderError, match="does not match"):
        embedder.verify_file(fake, embedder.load_manifest().sha256, tmp_path)


def test_store_with_real_model_recalls_by_meaning(tmp_path: Path) -> None:
    from memory_core import MemoryStore

    s = MemoryStore(tmp_path / "real.db", embedder=OnnxEmbedder())
    s.store("Oscar prefers morning meetings", "semantic")
    s.store("The deploy pipeline runs on GitHub Actions", "semantic")
    s.store("Ana is allergic to peanuts", "semantic")
    top = s.recall("what time of day does Oscar like to meet?", k=1, strategy="vector", touch=False).results[0]
    assert top.content == "Oscar prefers morning meetings"
    assert s.meta("embedding_model") == "all-MiniLM-L6-v2-onnx-int8"
