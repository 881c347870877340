"""A one-shot process's embedding session skips the weight prepacking (embedder.LIGHT_TEXTS): the same vectors.

A cold ``mem.py store`` / ``recall`` embeds one text or a few; onnxruntime's prepacking of the int8 weights was
half of its session's load (~11 of ~22 ms CPU). Unpacked, the same kernels pack the same weights on every call:
the vectors must be bit-identical to a prepacked session's, on this machine's kernels whatever they are (AVX-512
VNNI, AVX2, ARM). Past LIGHT_TEXTS texts the process switches to a prepacked session.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import embedder
from embedder import OnnxEmbedder

DATA = Path(__file__).resolve().parent / "data"


def _texts() -> list[str]:
    """~300 varied texts: the labelled fact pairs (several languages, numbers, names), short and long."""
    out: list[str] = ["ok", "when does Oscar like to meet?", "Ana is allergic to peanuts " * 40, "¿dónde está?"]
    for name in ("fact_pairs_dev14.jsonl", "fact_heldout19.jsonl"):
        for line in (DATA / name).read_text(encoding="utf-8").splitlines():
            if line.strip():
                r = json.loads(line)
                out += [r[k] for k in ("a", "b") if isinstance(r.get(k), str)]
    return out[:300]


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A model cache holding the int8 form and its saved optimised form, as a cold process finds it."""
    cache = tmp_path_factory.mktemp("cold-model-cache")
    OnnxEmbedder(cache_dir=cache).embed(["derive and save"])
    return cache


@pytest.fixture(scope="module")
def prepacked(cache: Path) -> np.ndarray:
    """The vectors of a long-lived process's session (prepacked), one text per call as a cold call embeds."""
    e = OnnxEmbedder(cache_dir=cache, fast_start=False)
    out = np.stack([e.embed([t])[0] for t in _texts()])
    assert e._int8 and not e._light and e.loaded != e.runs  # (the saved optimised form, as a cold call loads it)
    return out


def test_a_one_shot_session_is_made_unpacked_and_gives_the_same_vectors(cache: Path, prepacked: np.ndarray) -> None:
    texts = _texts()
    for start in range(0, len(texts), embedder.LIGHT_TEXTS):  # a fresh one-shot embedder per LIGHT_TEXTS texts
        e = OnnxEmbedder(cache_dir=cache, fast_start=True)
        for i in range(start, min(start + embedder.LIGHT_TEXTS, len(texts))):
            assert np.array_equal(e.embed([texts[i]])[0], prepacked[i]), texts[i]
            assert e._light  # every one of them ran unpacked


def test_past_light_texts_the_session_is_prepacked_and_the_vectors_stay(cache: Path, prepacked: np.ndarray) -> None:
    texts = _texts()
    e = OnnxEmbedder(cache_dir=cache, fast_start=True)
    got = [e.embed([t])[0] for t in texts[: embedder.LIGHT_TEXTS]]
    assert e._light
    got += [e.embed([t])[0] for t in texts[embedder.LIGHT_TEXTS : embedder.LIGHT_TEXTS + 3]]
    assert not e._light
    assert np.array_equal(np.stack(got), prepacked[: embedder.LIGHT_TEXTS + 3])
    bulk = OnnxEmbedder(cache_dir=cache, fast_start=True)  # a first call of many texts goes prepacked before it runs
    assert np.array_equal(bulk.embed(texts[:40]), prepacked[:40])
    assert not bulk._light


def test_long_lived_processes_never_run_unpacked(cache: Path) -> None:
    e = OnnxEmbedder(cache_dir=cache, fast_start=False)
    e.embed(["one text"])
    assert not e._light
