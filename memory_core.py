"""The engine's public face: ``MemoryStore``, its records and errors, and the constants callers use.

Everything here is importable and testable without click. One SQLite file holds the
memories, their FTS5 keyword index, their sqlite-vec vectors and the association
graph. The CLI (``mem.py``) only parses arguments, calls :class:`MemoryStore` and
renders what it returns. The code lives in the rooms of ``memengine/`` (ARCHITECTURE.md);
this module only re-exports their public names, and imports the features that register
recall strategies (graph: graph, activation, bridge).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memengine import graph as _graph  # noqa: F401  (registers the graph strategies)
from memengine.context import CONTEXT_CHARS, CONTEXT_FAR, CONTEXT_MAX_GAP_HOURS, CONTEXT_NEAR, CONTEXT_VEC_DECAY
from memengine.db import (
    BUSY_RETRY_SECONDS,
    IN_CHUNK,
    backup_dir,
    connect,
    db_error,
    default_db_path,
    diagnose_file,
    os_error,
    select_in,
    split_sql,
    sqlite3,
    write_tx,
)
from memengine.errors import (
    EXIT_CODES,
    Busy,
    DamagedFile,
    DiskFull,
    InternalError,
    IOFailure,
    LockedError,
    MemError,
    MissingDependency,
    ModelMismatch,
    NewerSchema,
    NotFound,
    ReadOnly,
    UserError,
)
from memengine.migrations import KEYWORD_LOG_KEEP, MIGRATIONS, SCHEMA_PATH, SCHEMA_VERSION, change_log, migrate
from memengine.recall.config import (
    ALL_STRATEGIES,
    CONTEXT_MIX,
    COVER_FROM,
    COVER_POOL,
    FTS_WEIGHTS,
    GRAPH_STRATEGIES,
    HEBB_MAX,
    HEBB_STEP,
    HEBB_TOP,
    KEYWORD_TIE_DECIMALS,
    LENGTH_FULL_WORDS,
    MAX_DF,
    NORMALISE,
    POOL,
    SESSION_COVERAGE,
    STRATEGIES,
    VEC_POOL,
    W_DATE,
    W_IMPORTANCE,
    W_KEYWORD,
    W_LENGTH,
    W_PERSON,
    W_PHRASE,
    W_REPLY,
    W_STRENGTH,
    W_TIME,
    W_VECTOR,
    Z_MIN_SCORES,
    Z_SCALE,
    RecallConfig,
)
from memengine.recall.priors import asks_for_many, cover_sessions
from memengine.records import (
    EDGE_TYPES,
    MEMORY_COLUMNS,
    MEMORY_TYPES,
    SHARED_SOURCE_PREFIX,
    BatchStats,
    Candidate,
    Memory,
    NewMemory,
    RecallResult,
    StoreResult,
)
from memengine.recovery import recover_file
from memengine.store import MemoryStore
from memengine.text import (
    FTS_COLUMNS,
    FTS_TOKENIZER,
    STOPWORDS,
    bare_text,
    content_hash,
    fts_query,
    fts_tokens,
    normalise_tags,
    query_terms,
    quote_fts,
)
from memengine.timeparse import from_iso, to_iso, utcnow
from memengine.vectors import DIMS, VEC_PARAM, VectorMatrix, as_stored, vectors_from_blobs
from memengine.writes import MAX_CONTENT_BYTES, NEAR_DUP_COSINE

if TYPE_CHECKING:
    from memengine.recall.fusion import normalise_scores

# Names of the recall's steps, imported when first read: a command that never recalls (store, stats, get)
# does not load the fusion with the engine (memengine/recall/pipeline.py loads the steps on the first recall).
_LAZY = {"normalise_scores": "memengine.recall.fusion"}


def __getattr__(name: str) -> Any:
    """A lazily imported public name (``from memory_core import normalise_scores`` works as before)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value

__all__ = [
    "ALL_STRATEGIES", "BUSY_RETRY_SECONDS", "CONTEXT_CHARS", "CONTEXT_FAR", "CONTEXT_MAX_GAP_HOURS", "CONTEXT_NEAR",
    "CONTEXT_VEC_DECAY", "CONTEXT_MIX", "COVER_FROM", "COVER_POOL", "DIMS", "EDGE_TYPES",
    "EXIT_CODES", "FTS_COLUMNS", "FTS_TOKENIZER", "FTS_WEIGHTS", "GRAPH_STRATEGIES", "HEBB_MAX", "HEBB_STEP",
    "HEBB_TOP", "IN_CHUNK", "KEYWORD_LOG_KEEP", "KEYWORD_TIE_DECIMALS", "LENGTH_FULL_WORDS", "MAX_CONTENT_BYTES", "MAX_DF",
    "MEMORY_COLUMNS", "MEMORY_TYPES", "MIGRATIONS", "NEAR_DUP_COSINE", "NORMALISE", "POOL", "SCHEMA_PATH",
    "SCHEMA_VERSION", "SESSION_COVERAGE", "SHARED_SOURCE_PREFIX", "STOPWORDS", "STRATEGIES", "VEC_PARAM", "VEC_POOL",
    "W_DATE", "W_IMPORTANCE", "W_KEYWORD", "W_LENGTH", "W_PERSON", "W_PHRASE", "W_REPLY", "W_STRENGTH", "W_TIME",
    "W_VECTOR", "Z_MIN_SCORES", "Z_SCALE",
    "BatchStats", "Busy", "Candidate", "DamagedFile", "DiskFull", "InternalError", "IOFailure", "LockedError", "MemError",
    "Memory", "MemoryStore", "MissingDependency", "ModelMismatch", "NewerSchema", "ReadOnly",
    "NewMemory", "NotFound", "RecallConfig", "RecallResult", "StoreResult", "UserError", "VectorMatrix",
    "as_stored", "asks_for_many", "backup_dir", "bare_text", "change_log", "connect", "db_error", "diagnose_file", "content_hash", "cover_sessions",
    "default_db_path", "from_iso", "fts_query", "fts_tokens", "migrate", "normalise_scores", "normalise_tags",
    "os_error", "query_terms", "quote_fts", "recover_file", "select_in", "split_sql", "sqlite3", "to_iso", "utcnow", "vectors_from_blobs",
    "write_tx",
]
