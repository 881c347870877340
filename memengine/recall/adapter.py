"""A query-side adapter: a learned linear map applied to the query vector only (issue 19, round 7).

MiniLM is symmetric: a question embeds near other questions, not near the statement that
answers it. The adapter moves the QUERY toward where answers live, ``q' = normalize(q + U Vᵀ q)``
(low rank) or ``normalize(q + A q)`` (full), and leaves every stored vector as it is: no
re-embedding, no bytes on disk per memory. Its weights are a small ``.npz`` trained for one
embedder (``model_id``); with another model (``MEM_MODEL_PATH`` pointing elsewhere) the map
means nothing, so it switches itself off with a one-line note on stderr.

File format (``bench/recall_adapter.py`` writes it): ``U`` and ``V`` (dims × r) or ``A``
(dims × dims), float32; ``model_id`` and ``model_sha256`` of the embedder it was trained for;
``questions_only`` (1: applied only to question-form queries, see ``is_question``).
"""

from __future__ import annotations

import re
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memengine.paths import data_file

if TYPE_CHECKING:
    import numpy as np

DEFAULT_SPEC = "default"  # RecallConfig.query_adapter naming the shipped file
DEFAULT_FILE = ("models", "query_adapter.npz")

# question form: a "?" anywhere, or a first word that asks (English and the real chats' French)
_ASKS_RE = re.compile(
    r"^\s*(who|whom|whose|what|which|when|where|why|how|did|does|do|is|are|was|were|can|could|should|would|will|"
    r"has|have|had|qui|que|quoi|quel|quelle|quels|quelles|quand|où|pourquoi|comment|combien|est-ce)\b",
    re.IGNORECASE)


def is_question(text: str) -> bool:
    """True for a question-form text: it holds a "?" or opens with a word that asks."""
    return "?" in text or bool(_ASKS_RE.match(text))


@dataclass(frozen=True)
class QueryAdapter:
    """A loaded adapter: ``apply`` maps one query vector."""

    path: str
    model_id: str
    u: Any  # dims × r (or the full map A, with v None)
    v: Any | None
    questions_only: bool

    def apply(self, vec: np.ndarray, query: str = "") -> np.ndarray:
        """``normalize(q + U (Vᵀ q))`` (or ``normalize(q + A q)``) as float32; the query unchanged
        when the adapter applies to questions only and ``query`` is not one."""
        import numpy as np

        if self.questions_only and query and not is_question(query):
            return vec
        q = np.asarray(vec, dtype=np.float32).reshape(-1)
        out = q + (self.u @ (self.v.T @ q) if self.v is not None else self.u @ q)
        norm = float(np.linalg.norm(out))
        return (out / norm if norm > 0 else q).astype(np.float32)


_cache: dict[str, QueryAdapter | None] = {}
_warned: set[str] = set()
_lock = threading.Lock()


def resolve(spec: str) -> Path | None:
    """The file a ``RecallConfig.query_adapter`` value names ('' = off, 'default' = the shipped one)."""
    if not spec:
        return None
    return data_file(*DEFAULT_FILE) if spec == DEFAULT_SPEC else Path(spec)


def load(spec: str, model_id: str) -> QueryAdapter | None:
    """The adapter ``spec`` names, for an embedder whose id is ``model_id``; None when off, when
    the file is missing (the shipped one: a loud note once) or trained for another model (a note
    once). Loaded once per process and path (numpy reads ~150 KB: ~1 ms)."""
    path = resolve(spec)
    if path is None:
        return None
    key = f"{path}\0{model_id}"
    with _lock:
        if key in _cache:
            return _cache[key]
        adapter = _read(path, model_id)
        _cache[key] = adapter
        return adapter


def _note(msg: str) -> None:
    if msg not in _warned:
        _warned.add(msg)
        print(msg, file=sys.stderr)


def _read(path: Path, model_id: str) -> QueryAdapter | None:
    import numpy as np

    try:
        with np.load(path, allow_pickle=False) as z:
            trained_for = str(z["model_id"])
            if trained_for != model_id:
                _note(f"mem: query adapter {path.name} was trained for {trained_for}, not {model_id}: off")
                return None
            u = np.ascontiguousarray(z["A"] if "A" in z.files else z["U"], dtype=np.float32)
            v = None if "A" in z.files else np.ascontiguousarray(z["V"], dtype=np.float32)
            qo = bool(int(z["questions_only"])) if "questions_only" in z.files else False
    except (OSError, KeyError, ValueError) as exc:
        _note(f"mem: query adapter {path} unreadable ({exc}): off")
        return None
    return QueryAdapter(str(path), trained_for, u, v, qo)


def adapted(vec: np.ndarray, query: str, spec: str, model_id: str) -> np.ndarray:
    """``vec`` through the adapter ``spec`` names (unchanged when there is none)."""
    adapter = load(spec, model_id) if spec else None
    return adapter.apply(vec, query) if adapter is not None else vec
