"""The int8 form's saved optimised form (embedder.optimized_*): saved by the first load, loaded by the next
ones with the same vectors, discarded and saved again when damaged, never trusted half-written."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

import embedder
from embedder import OnnxEmbedder

TEXTS = ["Oscar prefers morning meetings", "when does Oscar like to meet?", "ok",
         "To restart the gateway run openclaw gateway restart", "Ana is allergic to peanuts " * 30]


@pytest.fixture(scope="module")
def derived(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache holding the derived int8 form only (derived once for the module, ~3 s)."""
    cache = tmp_path_factory.mktemp("int8-only")
    e = OnnxEmbedder(cache_dir=cache)
    e.embed(["warm up"])
    assert e.runs is not None
    for path in embedder.optimized_paths(e.runs, ort.__version__):
        path.unlink()
    return cache


@pytest.fixture
def cache(derived: Path, tmp_path: Path) -> Path:
    """A copy of the module's cache for one test: the int8 form, no optimised form yet."""
    shutil.copytree(derived, tmp_path / "cache")
    return tmp_path / "cache"


@pytest.fixture(scope="module")
def reference(derived: Path) -> np.ndarray:
    """The vectors of a session made from the int8 file itself, optimised at load as before."""
    e = OnnxEmbedder(cache_dir=derived)
    e._session_for = lambda o, path, int8: e._new_session(o, path, int8)  # type: ignore[method-assign]
    v = e.embed(TEXTS)
    assert e.loaded == e.runs and e.runs is not None and e.runs.suffix == ".onnx"
    return v


def forms(cache: Path) -> list[str]:
    return sorted(p.name.split(".optimized", 1)[1] or "graph" for p in cache.glob("*.optimized*")
                  if not p.name.endswith(".lock"))


def test_first_load_saves_it_and_the_next_loads_it_with_the_same_vectors(cache: Path, reference: np.ndarray) -> None:
    first = OnnxEmbedder(cache_dir=cache)
    assert np.array_equal(first.embed(TEXTS), reference)
    assert first.loaded == first.runs  # (this one optimised the int8 file, and saved the result)
    assert forms(cache) == [".data", ".json", "graph"]
    again = OnnxEmbedder(cache_dir=cache)
    assert np.array_equal(again.embed(TEXTS), reference)  # bit for bit
    graph, weights, manifest = embedder.optimized_paths(first.runs, ort.__version__)
    assert again.loaded == graph and again.runs == first.runs  # doctor still names the int8 form
    assert json.loads(manifest.read_text())["weights"]["size"] == weights.stat().st_size > 20_000_000


def test_changed_weights_are_discarded_and_saved_again(
        cache: Path, reference: np.ndarray, capfd: pytest.CaptureFixture[str]) -> None:
    OnnxEmbedder(cache_dir=cache).embed(["save it"])
    int8 = next(cache.glob("*.onnx"))
    graph, weights, manifest = embedder.optimized_paths(int8, ort.__version__)
    data = bytearray(weights.read_bytes())
    data[len(data) // 2: len(data) // 2 + 4096] = bytes(4096)  # same size, other bytes (a later mtime)
    weights.write_bytes(bytes(data))
    os.utime(weights, ns=(weights.stat().st_atime_ns, weights.stat().st_mtime_ns + 1_000_000))
    e = OnnxEmbedder(cache_dir=cache)
    assert np.array_equal(e.embed(TEXTS), reference)
    assert e.loaded == int8  # not the damaged form...
    assert forms(cache) == [".data", ".json", "graph"]  # ...which is saved again whole
    assert json.loads(manifest.read_text())["weights"]["sha256"] == embedder._sha256(weights)
    assert np.array_equal(OnnxEmbedder(cache_dir=cache).embed(TEXTS), reference)
    assert "Traceback" not in capfd.readouterr().err


def test_a_form_without_its_manifest_is_never_loaded(cache: Path, reference: np.ndarray) -> None:
    # a crash between the moves leaves the graph and weights without the manifest written last
    OnnxEmbedder(cache_dir=cache).embed(["save it"])
    int8 = next(cache.glob("*.onnx"))
    graph, _, manifest = embedder.optimized_paths(int8, ort.__version__)
    manifest.unlink()
    graph.write_bytes(b"\x08\x07 half a graph")
    e = OnnxEmbedder(cache_dir=cache)
    assert np.array_equal(e.embed(TEXTS), reference) and e.loaded == int8
    assert json.loads(manifest.read_text())["graph"]["sha256"] == embedder._sha256(graph)  # saved again


def test_a_form_onnxruntime_refuses_is_discarded_loudly(
        cache: Path, reference: np.ndarray, capfd: pytest.CaptureFixture[str]) -> None:
    OnnxEmbedder(cache_dir=cache).embed(["save it"])
    int8 = next(cache.glob("*.onnx"))
    graph, _, manifest = embedder.optimized_paths(int8, ort.__version__)
    graph.write_bytes(b"\x08\x07 not a graph")  # and a manifest that vouches for it: only the load can tell
    entries = json.loads(manifest.read_text())
    entries["graph"] = {"size": graph.stat().st_size, "mtime_ns": graph.stat().st_mtime_ns, "sha256": "x"}
    manifest.write_text(json.dumps(entries))
    e = OnnxEmbedder(cache_dir=cache)
    assert np.array_equal(e.embed(TEXTS), reference) and e.loaded == int8
    err = capfd.readouterr().err
    assert f"cannot load model {graph}" in err and "discarded it" in err
    assert forms(cache) == [".data", ".json", "graph"]  # this load saved it again
    assert np.array_equal(OnnxEmbedder(cache_dir=cache).embed(TEXTS), reference)


def test_a_re_derived_int8_file_gets_its_own_form(cache: Path, reference: np.ndarray) -> None:
    OnnxEmbedder(cache_dir=cache).embed(["save it"])
    int8 = next(cache.glob("*.onnx"))
    os.utime(int8, ns=(int8.stat().st_atime_ns, int8.stat().st_mtime_ns + 1_000_000))  # as if derived again
    e = OnnxEmbedder(cache_dir=cache)
    assert np.array_equal(e.embed(TEXTS), reference) and e.loaded == int8
    assert json.loads(embedder.optimized_paths(int8, ort.__version__)[2].read_text())["source"]["mtime_ns"] == (
        int8.stat().st_mtime_ns)


def test_a_read_only_cache_loads_without_saving(cache: Path, reference: np.ndarray) -> None:
    if os.geteuid() == 0:
        pytest.skip("root writes into read-only folders")
    cache.chmod(0o555)
    try:
        e = OnnxEmbedder(cache_dir=cache)
        assert np.array_equal(e.embed(TEXTS), reference) and e.loaded == e.runs
        assert forms(cache) == []
    finally:
        cache.chmod(0o755)


def test_another_version_of_onnxruntime_has_a_form_of_its_own(tmp_path: Path) -> None:
    a = embedder.optimized_paths(tmp_path / "x-dynq-s8-v2.onnx", "1.31.1")
    b = embedder.optimized_paths(tmp_path / "x-dynq-s8-v2.onnx", "1.32.0")
    assert set(a).isdisjoint(b) and a[0].name.startswith("x-dynq-s8-v2.ort1.31.1-")
    assert a[1].name == a[0].name + ".data" and a[2].name == a[0].name + ".json"
