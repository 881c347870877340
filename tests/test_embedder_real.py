"""The real MiniLM ONNX model: pinned numbers, pooling, ordering, checksum."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import embedder
from embedder import EmbedderError, OnnxEmbedder

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One model cache for the module: the int8 form is derived once (~3 s), not per test."""
    return tmp_path_factory.mktemp("model-cache")


@pytest.fixture(scope="module")
def real(cache: Path) -> OnnxEmbedder:
    e = OnnxEmbedder(cache_dir=cache)
    e.embed(["warm up"])
    return e


@pytest.fixture(scope="module")
def published(cache: Path) -> OnnxEmbedder:
    """The published file run as it is (``MEM_INT8=0``): the reference the int8 form approximates."""
    mp = pytest.MonkeyPatch()
    mp.setenv("MEM_INT8", "0")
    try:
        e = OnnxEmbedder(cache_dir=cache)
        e.embed(["warm up"])
    finally:
        mp.undo()
    return e


SENTENCES = ["This is a test sentence.", "Oscar prefers morning meetings", "when does Oscar like to meet?",
             "To restart the gateway run openclaw gateway restart", "ok", "Ana is allergic to peanuts " * 20]


def test_published_form_first_dimensions_are_pinned(published: OnnxEmbedder) -> None:
    assert published.runs == embedder.default_model_path()
    v = published.embed(["This is a test sentence."])[0]
    assert v.shape == (384,) and v.dtype == np.float32
    assert np.allclose(v[:4], [0.0812, 0.0585, 0.0070, 0.1042], atol=2e-3)
    assert abs(float(np.linalg.norm(v)) - 1.0) < 1e-5


def test_int8_form_is_derived_once_and_stays_in_the_same_space(
        real: OnnxEmbedder, published: OnnxEmbedder, cache: Path, capfd: pytest.CaptureFixture[str]) -> None:
    assert real.runs == cache / real_name()
    assert real.model_id == published.model_id == embedder.load_manifest().model_id  # same weights, same id
    a, b = real.embed(SENTENCES), published.embed(SENTENCES)
    cos = (a * b).sum(axis=1)
    assert cos.min() > 0.97 and cos.mean() > 0.985, cos
    assert np.allclose(np.linalg.norm(a, axis=1), 1.0, atol=1e-5)
    again = OnnxEmbedder(cache_dir=cache)
    capfd.readouterr()
    assert np.array_equal(again.embed(SENTENCES), a)  # the cached file, deterministic
    assert "preparing" not in capfd.readouterr().err


def test_int8_vectors_do_not_depend_on_batch_neighbours(real: OnnxEmbedder) -> None:
    together = real.embed(SENTENCES, batch_size=4)
    alone = np.stack([real.embed([t])[0] for t in SENTENCES])
    assert np.array_equal(together, alone)


def test_failed_derivation_runs_the_published_file_loudly(
        cache: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    def broken(*_: object) -> Path:
        raise EmbedderError("cannot derive the int8 model: no module named 'onnx'")

    monkeypatch.setattr(embedder, "int8_model", broken)
    e = OnnxEmbedder(cache_dir=cache)
    v = e.embed(["Oscar prefers morning meetings"])
    assert v.shape == (1, 384) and e.runs == embedder.default_model_path()
    assert "warning: cannot derive the int8 model: no module named 'onnx'; running the published model" in (
        capfd.readouterr().err)


def test_concurrent_first_use_derives_one_file(tmp_path: Path) -> None:
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from pathlib import Path; from embedder import OnnxEmbedder;"
            "e = OnnxEmbedder(cache_dir=Path(sys.argv[2])); v = e.embed(['same text']); print(e.runs, v[0][:3].tolist())")
    procs = [subprocess.Popen([sys.executable, "-c", code, str(ROOT), str(tmp_path)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    assert outs[0][0] == outs[1][0]  # same file, same vector
    assert sorted(f.name for f in tmp_path.glob("*.onnx")) == [Path(outs[0][0].split()[0]).name]
    assert sum("preparing" in err for _, err in outs) == 1  # the other one waited on the lock


def test_custom_model_id_is_known_before_loading(tmp_path: Path, cache: Path) -> None:
    copy = tmp_path / "my-model.onnx"
    shutil.copyfile(embedder.default_model_path(), copy)
    e = OnnxEmbedder(model_path=copy, cache_dir=cache)
    before = e.model_id
    e.embed(["x"])
    assert before == e.model_id == f"custom-{embedder.load_manifest().sha256[:16]}"
    assert e.runs == copy  # a user's model runs as given


def test_similar_meaning_scores_higher(real: OnnxEmbedder) -> None:
    a, b, c = real.embed(["Oscar prefers morning meetings", "when does Oscar like to meet?",
                          "To restart the gateway run openclaw gateway restart"])
    assert float(a @ b) > 0.6 > float(a @ c)


def test_batching_and_length_sorting_do_not_change_results(published: OnnxEmbedder) -> None:
    texts = ["short", "a much longer sentence about the gateway restart procedure " * 5, "mid length text here"]
    together = published.embed(texts, batch_size=2)
    alone = np.stack([published.embed([t])[0] for t in texts])
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


def test_store_with_real_model_recalls_by_meaning(tmp_path: Path, cache: Path) -> None:
    from memory_core import MemoryStore

    s = MemoryStore(tmp_path / "real.db", embedder=OnnxEmbedder(cache_dir=cache))
    s.store("Oscar prefers morning meetings", "semantic")
    s.store("The deploy pipeline runs on GitHub Actions", "semantic")
    s.store("Ana is allergic to peanuts", "semantic")
    top = s.recall("what time of day does Oscar like to meet?", k=1, strategy="vector", touch=False).results[0]
    assert top.content == "Oscar prefers morning meetings"
    assert s.meta("embedding_model") == "all-MiniLM-L6-v2-onnx-int8"
    report = s.doctor()
    assert report["model_checksum"] == "ok" and report["model_runs"] == str(cache / real_name())


def real_name() -> str:
    """File name of the derived int8 form of the pinned model."""
    return f"{embedder.load_manifest().sha256[:16]}-{embedder.int8_recipe()}.onnx"


def test_damaged_cached_int8_file_is_dropped_and_the_published_file_runs(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    damaged = tmp_path / real_name()
    damaged.write_bytes(b"\x08\x07 truncated protobuf")
    e = OnnxEmbedder(cache_dir=tmp_path)
    v = e.embed(["Oscar prefers morning meetings"])
    assert v.shape == (1, 384) and abs(float(np.linalg.norm(v)) - 1.0) < 1e-5
    assert e.runs == embedder.default_model_path()
    assert not damaged.exists()  # the next process derives it again
    err = capfd.readouterr().err
    assert f"cannot load model {damaged}" in err and "removed it, running the published model" in err


def test_x86_without_vnni_derives_uint8_weights(
        tmp_path: Path, published: OnnxEmbedder, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embedder, "x86_without_vnni", lambda: True)
    e = OnnxEmbedder(cache_dir=tmp_path)
    a, b = e.embed(SENTENCES), published.embed(SENTENCES)
    assert e.runs is not None and e.runs.name.endswith(f"-{embedder.INT8_RECIPE_NO_VNNI}.onnx")
    cos = (a * b).sum(axis=1)
    assert cos.min() > 0.97 and cos.mean() > 0.985, cos


@pytest.mark.parametrize(("machine", "cpuinfo", "lacks"), [
    ("x86_64", "flags\t\t: fpu sse2 avx2 fma avx512f avx512_vnni avx512_bf16", False),
    ("x86_64", "flags\t\t: fpu sse2 avx2 fma avx_vnni", False),
    ("x86_64", "flags\t\t: fpu sse2 avx2 fma avx512f", True),
    ("AMD64", None, True),  # cannot tell (no /proc/cpuinfo): the safe recipe
    ("aarch64", "Features\t: fp asimd", False),
    ("arm64", None, False),
])
def test_vnni_detection(machine: str, cpuinfo: str | None, lacks: bool) -> None:
    assert embedder.lacks_vnni(machine, cpuinfo) is lacks


def test_a_half_written_checksum_marker_is_never_trusted(tmp_path: Path) -> None:
    # a concurrent first use can read the marker while another process writes it
    import hashlib

    f = tmp_path / "model.bin"
    f.write_bytes(b"weights" * 1000)
    cache = tmp_path / "cache"
    cache.mkdir()
    marker = embedder._verified_marker(f, cache)
    want = hashlib.sha256(f.read_bytes()).hexdigest()
    for partial in ("", want[:20], "x" * 64):
        marker.write_text(partial)
        assert embedder._file_sha256(f, cache) == want
        assert marker.read_text() == want  # rewritten whole (temp file + rename)
    assert not list(cache.glob("*.tmp"))
    assert embedder.verify_file(f, want, cache) == want
