"""The engine's front door: connection, migrations, store / recall / forget, maintenance.

Everything here is importable and testable without click. One SQLite file holds the
memories, their FTS5 keyword index, their sqlite-vec vectors and the association
graph. The CLI (``mem.py``) only parses arguments, calls :class:`MemoryStore` and
renders what it returns.
"""

from __future__ import annotations

import functools
import hashlib
import heapq
import itertools
import json
import math
import os
import random
import re
import sqlite3 as _std_sqlite3
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, fields
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

from memengine import bootstrap, timeparse
from memengine.paths import data_file
from memengine.timeparse import from_iso, to_iso, utcnow

if TYPE_CHECKING:
    import numpy as np

    from embedder import Embedder

try:  # an SQLite that can load extensions (this machine's stdlib sqlite3 cannot)
    import sqlean as sqlite3
except ImportError:  # pragma: no cover - exercised only where sqlean is missing
    sqlite3 = _std_sqlite3  # type: ignore[no-redef]

HERE = Path(__file__).resolve().parent
SCHEMA_PATH = data_file("schema.sql")
SCHEMA_VERSION = 1
DIMS = 384

MEMORY_TYPES = ("episodic", "semantic", "procedural")
EDGE_TYPES = ("temporal", "semantic", "causal", "explicit", "part_of", "derived_from", "contradicts",
              "supersedes", "reinforces")  # the associations CHECK in schema.sql
STRATEGIES = ("hybrid", "keyword", "vector")
GRAPH_STRATEGIES = ("graph", "activation", "bridge")  # implemented in graph.py on top of hybrid seeds
ALL_STRATEGIES = STRATEGIES + GRAPH_STRATEGIES
SHARED_SOURCE_PREFIX = "shared:"  # memories received from a partner's bundle; excluded unless asked for
HEBB_STEP = 0.05  # co-retrieval strengthens a 'reinforces' edge by this much per recall...
HEBB_MAX = 0.8  # ...up to this weight (consolidate decays unused edges)
HEBB_TOP = 5  # only the top results of a recall count as retrieved together
MAX_CONTENT_BYTES = 1_000_000  # larger text needs --truncate: never a silent cut
NEAR_DUP_COSINE = 0.95  # write-time near-duplicate threshold for facts and procedures
BUSY_RETRY_SECONDS = 30.0  # on top of busy_timeout, for BEGIN IMMEDIATE under heavy contention

# --- recall fusion constants. Chosen on the LoCoMo dev file (bench/locomo.py, bench/tune_recall.py)
# and checked by leave-one-conversation-out; each mechanism can be switched off through
# RecallConfig for the ablation table.
POOL = 100  # candidates taken from each retriever before fusion
VEC_POOL = 400  # width of the kNN scan whose cosines score every candidate
W_KEYWORD = 0.5  # weight of the normalised bm25 score
W_VECTOR = 0.5  # weight of the normalised cosine similarity
# Each retriever's scores are z-scored over the candidates (scaled by Z_SCALE and shifted so
# the lowest candidate, and a candidate that retriever did not find, sits at 0) before the
# weighted sum. Min-max takes its scale from the two extremes alone; the standard deviation
# from every candidate, so the spread of the bulk counts. LoCoMo dev (bench/recall_norm.py):
# r@5 / r@10 0.756 / 0.819 (min-max) -> 0.762 / 0.825; leave-one-conversation-out over
# min-max and Z_SCALE 0.1-0.25 chose a z-score in 5/5 folds on r@10 (0.15 in 4), held-out
# r@10 0.824, r@5 0.757.
NORMALISE = "zscore"  # or "minmax" (the rule before)
Z_MIN_SCORES = 20  # fewer scores than this: min-max (a standard deviation of a handful says little)
Z_SCALE = 0.15  # candidates span ~4.6 (bm25) and ~5.7 (cosine) standard deviations on LoCoMo: 0.7 / 0.86
W_STRENGTH = 0.02  # mild prior: decayed strength
W_IMPORTANCE = 0.02  # mild prior: stated importance
W_PERSON = 0.2  # prior for memories said by / naming a person the query names
W_TIME = 0.05  # prior for dated / time-word memories on "when" questions
W_LENGTH = 0.1  # length prior: one-word turns must not win on a single shared word
MAX_DF = 0.0  # drop query terms found in more than this share of memories (0 = keep all); see RecallConfig.max_df
W_DATE = 0.0  # prior for memories dated inside a calendar period the query names ("in May 2023"); see RecallConfig.w_date
W_PHRASE = 0.0  # phrase bonus for consecutive query words; off: +0.008 r@5 in the tuning script but -0.003 in the engine (LoCoMo dev)
LENGTH_FULL_WORDS = 20  # at this many words the length prior is fully earned (log scale)
# bm25 column weights: content, tags, date_terms, context (nearest turns), context_far
FTS_WEIGHTS = (1.0, 0.5, 0.4, 0.4, 0.2)
FTS_COLUMNS = ("content", "tags", "date_terms", "context", "context_far")
CONTEXT_NEAR = 2  # turns on each side indexed in `context`
CONTEXT_FAR = 4  # turns on each side (beyond NEAR) indexed in `context_far`
CONTEXT_MAX_GAP_HOURS = 6.0  # neighbours further apart in time belong to another session
CONTEXT_CHARS = 1200  # cap per context column
CONTEXT_VEC_DECAY = 0.6  # context vector = own + 0.6·(±1 neighbours) + 0.36·(±2), normalised
# A conversational memory's vector score is its context vector's cosine alone (which already
# holds its own vector at the largest weight), not the max of own and context cosines:
# LoCoMo dev r@10 0.809 -> 0.818, MRR 0.614 -> 0.630, r@5 0.742 -> 0.744; chosen over
# max-sim in 5/5 leave-one-conversation-out folds on r@10 (bench/recall_signals.py --only mix).
CONTEXT_MIX = 1.0
# Reply prior: a conversational turn that follows a question turn (same thread, previous
# position, same session) gets W_REPLY · (that question's score − the lowest candidate score),
# so the answer to a question the query resembles rises with it. Chosen by leave-one-conversation-
# out on LoCoMo dev (bench/recall_q2s.py --only reply, grid 0-0.2): 0.15 in 4/5 folds selecting on
# r@5; held-out r@5 0.744 -> 0.754, MRR 0.630 -> 0.649, r@10 0.818 -> 0.817 (flat).
W_REPLY = 0.15
# Session coverage: a question that asks for several things ("Which cities has John been
# to?", "How many ...", "... both ...": asks_for_many) is answered across sessions, so
# ranks COVER_FROM+1..k are filled from the best COVER_POOL candidates with each score
# multiplied by SESSION_COVERAGE per result already shown from the same session (thread
# and day). The first COVER_FROM never move. LoCoMo dev: multi-hop all-evidence@10
# 0.268 -> 0.310 (6 questions gained, none lost), r@10 0.816 -> 0.819, r@5 unchanged;
# 1.0 turns it off (bench/README.md, "Multi-hop evidence").
SESSION_COVERAGE = 0.9
COVER_FROM = 5
COVER_POOL = 30
# In a warm process kNN runs on an in-process float32 copy of the vectors (exact, ~10 ms
# per query at 100k on one core; ~1 ms at 10k) instead of sqlite-vec's scan (~80-200 ms at
# 100k, 7-12 ms at 10k; its 1-bit coarse scan was slower still at the k we need and lost
# 1.9% recall@10 at 8x oversampling on real vectors: measured in bench/latency.py). This
# many vectors at least; 0 since session 6 (it was 20,000): warm hybrid recall on a 10k-note
# store 20.0 -> 5.7 ms p50, on a 550-turn chat 10.4 -> 6.2 ms, with the parallel paths below.
MATRIX_MIN_ROWS = 0
# A process is "warm" (long-lived: an agent's server, a library user, an import) from its
# WARM_AFTER-th operation on a store (a recall, a near-duplicate check), or after warm_up().
# Only warm processes load the vector matrices (~1.0 s for 100k int8 vectors, while a
# one-shot CLI call is served by sqlite-vec's scan in ~0.1-0.3 s) and build the keyword index.
WARM_AFTER = 2
# The matrix ranks by a 1-bit-per-dimension Hamming scan first, then re-ranks this many
# rows exactly: max(COARSE_MIN, COARSE_FACTOR * k). Measured on real MiniLM vectors in
# bench/latency.py (recall@k loss vs exact kNN); below COARSE_MIN_ROWS the scan is exact.
# Factor 4 instead of 8 for recall's k=400 scan (120k real vectors, 200 queries): loss at
# k=10 0.1% either way, of the top 100 0.2 -> 0.5%, of all 400 1.1 -> 2.5% (ranks that only
# lend cosines to keyword candidates); 3.3 -> 2.4 ms per scan.
COARSE_MIN = 2000
COARSE_FACTOR = 4
COARSE_MIN_ROWS = 20_000
# From this many memories on (0: always), hybrid recall runs the keyword search on a worker
# thread (own read connection) while the query is embedded and the vectors scanned.
PARALLEL_MIN_ROWS = 0
# A warm process (WARM_AFTER) also builds an in-process copy of the keyword index in the
# background (keyword_index.py: FTS5's exact bm25 at 2-4 ms instead of 15-130 ms at 100k),
# so one-shot CLI calls never pay for the build. MEM_KEYWORD_INDEX=0 switches it off.
# Keyword scores equal to this many decimals are ties, broken by row id, on both keyword
# paths (FTS5 and keyword_index.py), so the same rows make the candidate cut.
KEYWORD_TIE_DECIMALS = 9
from memengine.decay import REINFORCE_BOOST  # strength regained on access (decay clock restarts)  # noqa: E402

STOPWORDS = frozenset(
    """a about above after again against all am an and any are aren't as at be because been before being
    below between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down
    during each few for from further had hadn't has hasn't have haven't having he he'd he'll he's her here
    here's hers herself him himself his how how's i i'd i'll i'm i've if in into is isn't it it's its itself
    let's me more most mustn't my myself no nor not of off on once only or other ought our ours ourselves out
    over own same shan't she she'd she'll she's should shouldn't so some such than that that's the their
    theirs them themselves then there there's these they they'd they'll they're they've this those through
    to too under until up very was wasn't we we'd we'll we're we've were weren't what what's when when's
    where where's which while who who's whom why why's with won't would wouldn't you you'd you'll you're
    you've your yours yourself yourselves did does do done also just like get got s t""".split()
)


# --------------------------------------------------------------------------- errors

class MemError(Exception):
    """Base of errors shown to users as one line with a stable code and exit status.

    Raised bare only for what no subclass names, shown as ``internal`` (a bug): every
    code that reaches a user is in :data:`EXIT_CODES` and README's table.
    """

    code = "internal"
    exit_code = 70

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UserError(MemError):
    """Bad input: empty content, malformed file, unknown option value."""

    code = "invalid_input"
    exit_code = 1


class NotFound(MemError):
    """A memory id (or other object) that does not exist."""

    code = "not_found"
    exit_code = 3


class Busy(MemError):
    """The database stayed locked longer than we are willing to wait."""

    code = "busy"
    exit_code = 4


class ModelMismatch(MemError):
    """Vectors in the file come from another embedding model: run ``reindex``."""

    code = "model_mismatch"
    exit_code = 5


class LockedError(MemError):
    """Another exclusive job (consolidate) holds the lock."""

    code = "locked"
    exit_code = 6


class MissingDependency(MemError):
    """This Python lacks a package mem needs (or an SQLite that loads extensions)."""

    code = bootstrap.CODE_MISSING
    exit_code = bootstrap.EXIT_MISSING



class DamagedFile(MemError):
    """The memory file is not a database, or SQLite finds it damaged: doctor, recover, or restore a backup."""

    code = "damaged"
    exit_code = 8


class ReadOnly(MemError):
    """A write to a memory file (or its folder, or its -wal) that this process may not write."""

    code = "read_only"
    exit_code = 9


class DiskFull(MemError):
    """The disk (or quota) is full: nothing was half-written; free space and retry."""

    code = "disk_full"
    exit_code = 10


class NewerSchema(MemError):
    """The file was written by a newer mem whose migrations this code does not know."""

    code = "newer_schema"
    exit_code = 11


class IOFailure(MemError):
    """An input/output error under SQLite that is neither a full disk nor a damaged file."""

    code = "io_error"
    exit_code = 12


class InternalError(MemError):
    """A bug: anything not foreseen, shown as one line (MEM_DEBUG=1 shows the traceback)."""

    code = "internal"
    exit_code = 70


EXIT_CODES = {"ok": 0, "invalid_input": 1, "usage": 2, "not_found": 3, "busy": 4, "model_mismatch": 5, "locked": 6,
              bootstrap.CODE_MISSING: bootstrap.EXIT_MISSING, "damaged": 8, "read_only": 9, "disk_full": 10,
              "newer_schema": 11, "io_error": 12, "internal": 70, "aborted": 130, "interrupted": 130}
_KIND_ERRORS: dict[str, type[MemError]] = {
    "damaged": DamagedFile, "read_only": ReadOnly, "disk_full": DiskFull, "busy": Busy, "io_error": IOFailure,
    "newer_schema": NewerSchema, "invalid_input": UserError}


def db_error(exc: BaseException, path: Path | str | None) -> MemError | None:
    """The one-line error for a driver exception or OSError about the memory file, or None.

    None means it is not a file problem (a bug, or a bad query): the caller re-raises.
    """
    from memengine import dbfile

    kind = dbfile.classify(exc)
    if kind is None:
        return None
    p = Path(path) if path is not None else default_db_path()
    folder = _READ_ONLY_FOLDERS.get(str(p.resolve().parent))
    if kind == "read_only" and folder == "disk_full":
        kind = "disk_full"  # opened read-only because the disk was full: that is what to fix
    code, message = dbfile.describe(kind, p, exc, backups=backup_dir(p), folder_read_only=folder == "read_only")
    return _KIND_ERRORS.get(code, IOFailure)(message)


def os_error(exc: OSError, db: Path | str | None) -> MemError:
    """The one-line error for an OSError: about the memory file (see :func:`db_error`) or a file the user named."""
    named = Path(exc.filename) if exc.filename is not None else None
    p = Path(db) if db is not None else None
    ours = named is None or (p is not None and named.name.startswith(p.name) and named.parent == p.parent)
    if ours:
        err = db_error(exc, p)
        if err is not None:
            return err
    from memengine import dbfile

    kind = dbfile.classify(exc)
    what = "disk is full" if kind == "disk_full" else (exc.strerror or str(exc))
    cls = _KIND_ERRORS.get(kind or "", UserError if named is not None else IOFailure)
    return cls(f"{named if named is not None else 'mem'}: {what}")


def backup_dir(db: Path) -> Path:
    """Where consolidate keeps its backups of ``db``: ``backups/`` next to the file."""
    return db.parent / "backups"


# --------------------------------------------------------------------------- connection

def default_db_path() -> Path:
    """``MEM_DB`` if set, else ``memory.db`` in the user data dir (platformdirs)."""
    env = os.environ.get("MEM_DB")
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("mem", appauthor=False)) / "memory.db"


def _vec_extension_path() -> str:
    # Importing the sqlite_vec package pulls numpy.typing (~70 ms); we only need the
    # path of its loadable library, which find_spec gives without executing it.
    import importlib.util

    spec = importlib.util.find_spec("sqlite_vec")
    if spec is None or not spec.submodule_search_locations:
        raise MissingDependency("sqlite-vec is not installed (pip install sqlite-vec)")
    return str(Path(next(iter(spec.submodule_search_locations))) / "vec0")


def connect(path: Path | str, create_parents: bool = True) -> Any:
    """Open (creating with mode 0600) a database with sqlite-vec loaded and our pragmas.

    A file SQLite cannot use (not a database, damaged, read-only where a write is needed,
    a full disk, a missing folder with ``create_parents=False``) raises the matching
    :class:`MemError` with one line naming the file and what to do.
    """
    path = Path(path)
    try:
        return _connect(path, create_parents)
    except (sqlite3.DatabaseError, OSError) as exc:
        err = db_error(exc, path)
        if err is None:
            raise
        raise err from exc


def _connect(path: Path, create_parents: bool) -> Any:
    if str(path) != ":memory:":
        if path.is_dir():
            raise UserError(f"{path}: is a folder, not a memory file (point --db at a file inside it)")
        if not path.parent.exists():
            if not create_parents:
                raise UserError(f"{path}: folder {path.parent} does not exist (create it, or check --db)")
            old = os.umask(0o077)  # a new folder for the memory file is private (0700)
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            finally:
                os.umask(old)
        if not path.exists():
            try:
                fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
                os.close(fd)
            except FileExistsError:
                pass
        else:
            from memengine.dbfile import fix_side_file_modes

            fix_side_file_modes(path)
    old_umask = os.umask(0o077)  # -wal and -shm files inherit private permissions too
    try:
        immutable = False
        try:
            conn = sqlite3.connect(str(path), isolation_level=None, timeout=10.0, check_same_thread=False)
            conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
        except sqlite3.OperationalError as exc:
            conn, immutable = _read_only_fallback(path, exc), True
        if not hasattr(conn, "enable_load_extension"):
            raise MissingDependency("this Python's sqlite3 cannot load extensions: install sqlean-py")
        try:
            conn.enable_load_extension(True)
            conn.load_extension(_vec_extension_path())
            conn.enable_load_extension(False)
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA busy_timeout = 10000")
            mode = "wal" if immutable else _journal_mode(conn)
            if mode.lower() != "wal" and str(path) != ":memory:":
                raise IOFailure(f"{path}: cannot switch to WAL journal mode (got {mode})")
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute("PRAGMA recursive_triggers = ON")
        except BaseException:
            conn.close()
            raise
    finally:
        os.umask(old_umask)
    return conn


def _read_only_fallback(path: Path, exc: BaseException) -> Any:
    """Reads from a WAL file in a read-only folder or on a full disk (SQLite cannot make its ``-shm``).

    With no ``-wal`` (or an empty one) every commit is in the file and no writer can be
    active (none could write a -wal either), so the file is safely read as immutable;
    writes then fail with ReadOnly/DiskFull naming the folder.
    """
    from memengine.dbfile import classify, side_files

    kind = classify(exc)
    if kind == "io_error" and _disk_nearly_full(path):
        kind = "disk_full"
    wal = side_files(path)[0]
    if kind not in ("cantopen", "disk_full") or not path.is_file() or (wal.exists() and wal.stat().st_size > 0):
        raise exc  # a non-empty -wal holds commits that an immutable read would not see
    from urllib.parse import quote

    conn = sqlite3.connect(f"file:{quote(str(path.resolve()))}?immutable=1", uri=True, isolation_level=None,
                           timeout=10.0, check_same_thread=False)
    _READ_ONLY_FOLDERS[str(path.resolve().parent)] = "disk_full" if kind == "disk_full" else "read_only"
    return conn


# folders _read_only_fallback found read-only (a mode check cannot tell for root) or full
_READ_ONLY_FOLDERS: dict[str, str] = {}


def _disk_nearly_full(path: Path) -> bool:
    import shutil

    try:
        return shutil.disk_usage(path.parent).free < 1 << 20
    except OSError:
        return False


def _journal_mode(conn: Any) -> str:
    """Switch to WAL; a file already in WAL answers without writing (fine on a read-only or full disk)."""
    current = str(conn.execute("PRAGMA journal_mode").fetchone()[0])
    if current.lower() == "wal":
        return current
    return str(conn.execute("PRAGMA journal_mode = WAL").fetchone()[0])


def _is_busy(exc: BaseException) -> bool:
    """SQLITE_BUSY or SQLITE_LOCKED only (a read-only -wal at BEGIN IMMEDIATE is no lock to wait out)."""
    from memengine.dbfile import classify

    return classify(exc) == "busy"


def _tx_error(conn: Any, exc: BaseException, what: str) -> MemError:
    """The error for a failed BEGIN/COMMIT/write: busy for real locks, the file's problem otherwise."""
    if _is_busy(exc):
        return Busy(f"{what}: {exc}")
    err = db_error(exc, _conn_path(conn))
    return err or IOFailure(f"{what}: {exc}")


def _conn_path(conn: Any) -> Path | None:
    """The main file of a connection (None for an in-memory database)."""
    try:
        row = conn.execute("PRAGMA database_list").fetchone()
    except Exception:
        return None
    return Path(row[2]) if row is not None and row[2] else None


@contextmanager
def write_tx(conn: Any) -> Iterator[Any]:
    """``BEGIN IMMEDIATE`` … ``COMMIT`` with retry and jittered backoff on SQLITE_BUSY.

    A deferred BEGIN that reads and then writes fails at once under a concurrent
    writer whatever busy_timeout says; IMMEDIATE takes the write lock up front.
    """
    deadline = time.monotonic() + BUSY_RETRY_SECONDS
    delay = 0.01
    while True:
        try:
            conn.execute("BEGIN IMMEDIATE")
            break
        except sqlite3.DatabaseError as exc:
            if not _is_busy(exc) or time.monotonic() > deadline:
                raise _tx_error(conn, exc, "database is busy") from exc
            time.sleep(delay * (1 + random.random()))
            delay = min(delay * 2, 0.5)
    try:
        yield conn
    except BaseException as exc:
        # After a full disk or an I/O error SQLite has already rolled back: a second
        # ROLLBACK would fail with "cannot rollback" and hide the real cause.
        _rollback(conn)
        if isinstance(exc, sqlite3.DatabaseError):
            err = db_error(exc, _conn_path(conn))
            if err is not None:
                raise err from exc
        raise
    else:
        try:
            conn.execute("COMMIT")
        except sqlite3.DatabaseError as exc:
            _rollback(conn)
            raise _tx_error(conn, exc, "commit failed") from exc


def _rollback(conn: Any) -> None:
    """ROLLBACK if a transaction is still open (SQLite ends some failed ones itself)."""
    if conn.in_transaction:
        try:
            conn.execute("ROLLBACK")
        except sqlite3.DatabaseError:
            pass


def _raw_connect(uri: str, is_uri: bool = True) -> Any:
    """A bare connection with sqlite-vec loaded (doctor's read-only look at a damaged file)."""
    conn = sqlite3.connect(uri, uri=is_uri, isolation_level=None, timeout=10.0, check_same_thread=False)
    try:
        conn.enable_load_extension(True)
        conn.load_extension(_vec_extension_path())
        conn.enable_load_extension(False)
    except Exception:  # a damaged file is still worth reading without its vectors
        pass
    return conn


def diagnose_file(path: Path | str) -> dict[str, Any]:
    """``doctor`` for a file that does not open as a store: header, size, ``integrity_check``; read-only."""
    from memengine import dbfile

    return dbfile.diagnose(Path(path), _raw_connect)


# tables a recovered file rebuilds itself (FTS and vector shadow tables, change logs, migrations)
_RECOVER_SKIP = ("memories_fts", "vec_", "_keyword_changes", "_status_changes", "_mem_migrations")


def recover_file(src: Path | str, dest: Path | str) -> dict[str, Any]:
    """Salvage every row SQLite can read from a damaged ``src`` into a new store at ``dest``.

    ``src`` is opened read-only and never written. Rows are copied table by table over
    the current schema (stepping over unreadable pages), vectors as far as they read;
    the keyword index is rebuilt by the triggers. ``mem.py --db DEST doctor --fix`` then
    embeds whatever vectors were lost.
    """
    from memengine import dbfile

    src, dest = Path(src), Path(dest)
    if dest.exists():
        raise UserError(f"{dest}: already exists (choose a new file name)")
    if not dest.parent.exists():
        raise UserError(f"{dest}: folder {dest.parent} does not exist")
    if not src.is_file():
        raise UserError(f"{src}: no such file")

    def make_dest(p: Path) -> Any:
        conn = connect(p, create_parents=False)
        migrate(conn)
        return conn

    res = dbfile.recover(src, dest, _raw_connect, make_dest, lambda t: t.startswith(_RECOVER_SKIP),
                         raw_rows={"memories": _plausible_memory})
    res["vectors"] = _recover_vectors(src, dest)
    store = MemoryStore(dest, embedder=None, fast_start=True)
    try:
        gaps = store._index_gaps()
        res["missing_vectors"] = len(gaps.get("missing_vectors", []))
        res["memories"] = int(store.conn.execute("SELECT count(*) FROM memories").fetchone()[0])
    finally:
        store.close()
    return res


def _plausible_memory(row: dict[str, Any]) -> bool:
    """A raw record that is a memories row (recovery from pages: rows of every table come mixed)."""
    h = row.get("content_hash")
    return (isinstance(row.get("content"), str) and bool(row["content"]) and row.get("memory_type") in MEMORY_TYPES
            and isinstance(h, str) and len(h) == 64 and isinstance(row.get("created_at"), str)
            and row.get("status") in ("active", "archived", "deleted"))


def _recover_vectors(src: Path, dest: Path) -> int:
    """Copy the vectors that still read; stop at the first unreadable stretch (reindex fills the rest)."""
    from memengine.dbfile import open_read_only

    n = 0
    try:
        s = open_read_only(src, _raw_connect)
    except Exception:
        return 0
    out = connect(dest)
    try:
        ids = {int(r[0]) for r in out.execute("SELECT id FROM memories")}
        for table in ("vec_memories", "vec_contexts"):
            try:
                cur = s.execute(f"SELECT memory_id, embedding FROM {table}")
                while batch := cur.fetchmany(1000):
                    rows = [(int(r[0]), r[1]) for r in batch if int(r[0]) in ids]
                    with write_tx(out):
                        out.executemany(f"INSERT INTO {table}(memory_id, embedding) VALUES (?, {VEC_PARAM})", rows)
                    n += len(rows) if table == "vec_memories" else 0
            except Exception:
                continue
    finally:
        out.close()
        s.close()
    return n


def split_sql(script: str) -> list[str]:
    """Split a script into complete statements (trigger bodies keep their semicolons)."""
    out: list[str] = []
    buf = ""
    for line in script.splitlines(keepends=True):
        if not buf and (not line.strip() or line.lstrip().startswith("--")):
            continue
        buf += line
        if sqlite3.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    if buf.strip():
        out.append(buf.strip())
    return out


def _m001_initial(conn: Any) -> None:
    for stmt in split_sql(SCHEMA_PATH.read_text(encoding="utf-8")):
        conn.execute(stmt)
    now = to_iso(utcnow())
    conn.execute("INSERT OR REPLACE INTO _mem_meta(key, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
    conn.execute("INSERT OR REPLACE INTO _mem_meta(key, value) VALUES ('created_at', ?)", (now,))
    conn.execute("INSERT OR REPLACE INTO _mem_meta(key, value) VALUES ('dims', ?)", (str(DIMS),))


def _m002_sharing(conn: Any) -> None:
    # The sharing tables, views and guard triggers live with the sharing code; imported
    # here only when the migration runs, so ordinary commands never load that module.
    from memengine.sharing import _SCHEMA

    for stmt in _SCHEMA:
        conn.execute(stmt)


def change_log(table: str, keep: int, events: dict[str, str]) -> list[str]:
    """A log of memory ids that triggers on ``memories`` fill, for in-process copies to catch up from.

    ``events``: trigger name suffix -> trigger event ("INSERT", "DELETE", "UPDATE OF ...");
    each logs the row's id. Trimmed by its own trigger to the last ``keep`` entries; a
    reader further behind reloads everything.
    """
    stmts = [f"CREATE TABLE {table} (seq INTEGER PRIMARY KEY AUTOINCREMENT, memory_id INTEGER NOT NULL)"]
    for suffix, event in events.items():
        row = "old" if event == "DELETE" else "new"
        stmts.append(f"""CREATE TRIGGER {table}_{suffix} AFTER {event} ON memories BEGIN
        INSERT INTO {table}(memory_id) VALUES ({row}.id);
    END""")
    stmts.append(f"""CREATE TRIGGER {table}_trim AFTER INSERT ON {table} WHEN new.seq % 1000 = 0 BEGIN
        DELETE FROM {table} WHERE seq <= new.seq - {keep};
    END""")
    return stmts


# One row per memory whose keyword-indexed text appeared, changed or went away, for the
# in-process keyword index (keyword_index.py).
KEYWORD_LOG_KEEP = 20_000


def _m003_keyword_log(conn: Any) -> None:
    for stmt in change_log("_keyword_changes", KEYWORD_LOG_KEEP, {
            "ai": "INSERT", "ad": "DELETE", "au": "UPDATE OF content, tags, date_terms, context, context_far"}):
        conn.execute(stmt)


def _m004_status_log(conn: Any) -> None:
    # the log an in-process LiveSet catches up from (liveset.py: why)
    from memengine.liveset import STATUS_LOG_KEEP

    for stmt in change_log("_status_changes", STATUS_LOG_KEEP, {
            "au": "UPDATE OF status, level, source, valid_to", "ad": "DELETE"}):
        conn.execute(stmt)


def _m005_int8_vectors(conn: Any) -> None:
    """Both vector tables from float32 to int8 (schema.sql): 1,152 bytes less per vector.

    Lossy but harmless: cosine to the float vector ≥ 0.9999, and ``mem.py reindex``
    re-embeds from the text. Rows are copied through a temp table, so memory stays flat;
    one transaction, so a crash leaves the float tables as they were.
    """
    creates = {t: stmt for stmt in split_sql(SCHEMA_PATH.read_text(encoding="utf-8"))
               for t in ("vec_memories", "vec_contexts") if stmt.startswith(f"CREATE VIRTUAL TABLE {t} ")}
    converted = False
    for table, create in creates.items():
        row = conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", (table,)).fetchone()
        if row is None or "int8[" in row[0]:
            continue  # a file made from this schema.sql
        converted = True
        n = int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
        if n >= 20_000:  # ~2 s per 10k rows: say why the first command waits
            print(f"mem: storing {n:,} vectors of {table} as int8 (once; 4x smaller; "
                  "`mem.py compact` then gives the space back)", file=sys.stderr)
        conn.execute("DROP TABLE IF EXISTS temp._vec_copy")
        conn.execute(f"CREATE TEMP TABLE _vec_copy AS SELECT memory_id, embedding FROM {table}")
        conn.execute(f"DROP TABLE {table}")
        conn.execute(create)
        cur = conn.execute("SELECT memory_id, embedding FROM temp._vec_copy ORDER BY memory_id")
        while batch := cur.fetchmany(2000):
            mat = vectors_from_blobs([r[1] for r in batch])
            conn.executemany(f"INSERT INTO {table}(memory_id, embedding) VALUES (?, {VEC_PARAM})",
                             [(int(r[0]), _vec_blob(v)) for r, v in zip(batch, mat)])
        conn.execute("DROP TABLE temp._vec_copy")
    if not converted:
        return
    # warm processes hold the old vectors in memory: make them reload
    conn.execute("""INSERT INTO _mem_meta(key, value) VALUES ('vectors_generation', '1')
                    ON CONFLICT(key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)""")


# Ordered, named, never edited once released; each runs in its own transaction.
MIGRATIONS: list[tuple[str, Callable[[Any], None]]] = [
    ("m001_initial", _m001_initial),
    ("m002_sharing", _m002_sharing),
    ("m003_keyword_log", _m003_keyword_log),
    ("m004_status_log", _m004_status_log),
    ("m005_int8_vectors", _m005_int8_vectors),
]


def migrate(conn: Any) -> list[str]:
    """Apply pending migrations; return the names applied."""
    known = {name for name, _ in MIGRATIONS}
    has_table = conn.execute("SELECT 1 FROM sqlite_master WHERE name = '_mem_migrations'").fetchone()
    if not has_table:  # (only a new file; a read-only one fails here with ReadOnly, as it should)
        with write_tx(conn):
            conn.execute("CREATE TABLE IF NOT EXISTS _mem_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
    done = {r[0] for r in conn.execute("SELECT name FROM _mem_migrations")}
    newer = sorted(done - known)
    if newer:
        path = _conn_path(conn)
        raise NewerSchema(f"{path}: written by a newer mem (unknown migrations: {', '.join(newer)}); "
                          "upgrade mem to use it — this version could misread it")
    applied = []
    for name, fn in MIGRATIONS:
        if name in done:
            continue
        with write_tx(conn):
            # re-check inside the lock: another process may have migrated meanwhile
            if conn.execute("SELECT 1 FROM _mem_migrations WHERE name = ?", (name,)).fetchone():
                continue
            fn(conn)
            conn.execute("INSERT INTO _mem_migrations(name, applied_at) VALUES (?, ?)", (name, to_iso(utcnow())))
        applied.append(name)
    return applied


# --------------------------------------------------------------------------- helpers

def content_hash(text: str) -> str:
    """sha256 of whitespace-normalised text (what exact dedup compares)."""
    return hashlib.sha256(" ".join(text.split()).encode("utf-8")).hexdigest()


def normalise_tags(tags: Iterable[str] | str | None) -> str:
    """Tags as stored: lower case, unique, space separated, in first-seen order."""
    if tags is None:
        return ""
    if isinstance(tags, str):
        tags = re.split(r"[,\s]+", tags)
    seen: list[str] = []
    for t in tags:
        t = t.strip().lstrip("#").lower()
        if t and t not in seen:
            seen.append(t)
    return " ".join(seen)


_TOKEN_RE = re.compile(r"[\w][\w'’]*", re.UNICODE)


def query_terms(text: str) -> list[str]:
    """Content words of a query: lower-cased word tokens minus English stopwords."""
    words = [w.replace("’", "'").lower() for w in _TOKEN_RE.findall(text)]
    words = [w.split("'")[0] if w.endswith(("'s", "'ll", "'re", "'ve", "'d")) else w for w in words]
    kept = [w for w in words if w not in STOPWORDS and w]
    return list(dict.fromkeys(kept))  # first occurrence of each, in order


def quote_fts(term: str) -> str:
    """One FTS5 string token: wrapped in double quotes, inner quotes doubled."""
    return '"' + term.replace('"', '""') + '"'


def fts_query(text: str) -> str | None:
    """Escape free user text into an FTS5 OR-query of its content words (None if none)."""
    terms = query_terms(text)
    if not terms:
        terms = [w.lower() for w in _TOKEN_RE.findall(text)]
    if not terms:
        return None
    return " OR ".join(quote_fts(t) for t in terms)


FTS_TOKENIZER = "porter unicode61 remove_diacritics 2"  # memories_fts's tokenizer (schema.sql)


def fts_tokens(conn: Any, words: list[str]) -> list[tuple[str, ...]]:
    """Each word as ``memories_fts`` indexes it (split and stemmed by FTS5 itself, through a
    scratch table with the same tokenizer): "running" -> ("run",), "e-mail" -> ("e", "mail")."""
    conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.mem_stemmer USING fts5(t, tokenize='{FTS_TOKENIZER}')")
    conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.mem_stems USING fts5vocab(temp, mem_stemmer, instance)")
    conn.executemany("INSERT INTO temp.mem_stemmer(rowid, t) VALUES (?, ?)", list(enumerate(words)))
    found: dict[int, list[tuple[int, str]]] = {}
    for term, doc, offset in conn.execute("SELECT term, doc, offset FROM temp.mem_stems"):
        found.setdefault(int(doc), []).append((int(offset), term))
    conn.execute("DELETE FROM temp.mem_stemmer")
    return [tuple(t for _, t in sorted(found.get(i, []))) for i in range(len(words))]


IN_CHUNK = 500  # ids per "IN (...)" query: well under SQLite's bound-parameter limit


def select_in(conn: Any, sql: str, ids: Iterable[int], args: Iterable[Any] = ()) -> Iterator[Any]:
    """Rows of ``sql`` for many ids: ``{ids}`` in ``sql`` becomes ``?,?,…``, queried in chunks.

    The id placeholders come first, then ``args`` (for the rest of the WHERE clause).
    """
    ids = list(ids)
    extra = list(args)
    for start in range(0, len(ids), IN_CHUNK):
        chunk = ids[start : start + IN_CHUNK]
        yield from conn.execute(sql.format(ids=",".join("?" * len(chunk))), [*chunk, *extra])


def _vec_blob(vec: np.ndarray) -> bytes:
    """A vector as the vector tables store it: int8, scaled so its largest component is
    ±127. Cosine ignores the scale, and every reader normalises (``vectors_from_blobs``);
    a MiniLM vector keeps cosine ≥ 0.9999 to its float form at a quarter of the bytes.
    Insert with ``vec_int8(?)`` (VEC_PARAM) so sqlite-vec reads it as int8."""
    import numpy as np

    v = np.asarray(vec, dtype=np.float32).reshape(-1)
    top = float(np.abs(v).max()) if v.size else 0.0
    if not top > 0:  # all zero (or NaN): nothing to scale
        return bytes(v.size)
    return np.rint(v * (127.0 / top)).astype(np.int8).tobytes()


VEC_PARAM = "vec_int8(?)"  # the SQL parameter for a _vec_blob


def as_stored(vec: np.ndarray) -> np.ndarray:
    """A query vector at the stored precision (int8, back to a unit float vector).

    sqlite-vec compares int8 with int8, so its scan sees the query this way; the matrix is
    given the same query, so both kNN paths (a one-shot call, a warm process) return the
    same cosines. Cosine of a MiniLM query to its int8 form: 0.99997.
    """
    return vectors_from_blobs([_vec_blob(vec)])[0]


def vectors_from_blobs(blobs: Sequence[bytes], dims: int = DIMS) -> np.ndarray:
    """Stored vectors as an (n, dims) float32 matrix of unit rows.

    Reads int8 rows (``_vec_blob``) and the float32 rows of files written before
    migration m005; an all-zero row stays zero.
    """
    import numpy as np

    if not blobs:
        return np.zeros((0, dims), dtype=np.float32)
    joined = b"".join(blobs)
    if len(joined) == len(blobs) * dims:
        mat = np.frombuffer(joined, dtype=np.int8).reshape(len(blobs), dims).astype(np.float32)
    else:
        mat = np.frombuffer(joined, dtype=np.float32).reshape(len(blobs), -1).copy()
    norms = np.linalg.norm(mat, axis=1, keepdims=True)
    np.divide(mat, norms, out=mat, where=norms > 0)
    return mat



# --------------------------------------------------------------------------- data classes

@dataclass
class Memory:
    """A stored memory as returned to callers (JSON keys equal column names)."""

    id: int
    content: str
    memory_type: str
    source: str
    ref: str | None
    content_hash: str
    importance: float
    strength: float
    access_count: int
    pinned: int
    created_at: str
    event_at: str | None
    last_accessed_at: str | None
    updated_at: str
    valid_from: str | None
    valid_to: str | None
    status: str
    level: int
    author: str | None
    thread: str | None
    position: int | None
    metadata: dict[str, Any]
    tags: list[str]
    score: float | None = None
    explain: dict[str, Any] | None = None

    @classmethod
    def from_row(cls, row: Any) -> Memory:
        """Build from a row selected as ``MEMORY_COLUMNS`` (fields in that order)."""
        meta = row[21]
        head: tuple[Any, ...] = tuple(row[:21])  # id … position, in field order
        return cls(*head, metadata=json.loads(meta) if meta and meta != "{}" else {},  # type: ignore[misc]
                   tags=row[22].split() if row[22] else [])

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict; ``explain`` only when present."""
        d = asdict(self)
        if d["explain"] is None:
            d.pop("explain")
        if d["score"] is None:
            d.pop("score")
        return d


# Exactly the fields of `Memory`, in their order (`Memory.from_row` reads rows by position).
MEMORY_COLUMNS = ", ".join(f.name for f in fields(Memory) if f.name not in ("score", "explain"))


class Candidate:
    """The few columns recall's fusion reads, for every candidate of a recall.

    Building a whole ``Memory`` costs more (23 columns become Python objects: ~2 vs
    ~1.5 ms for 200 candidates at 100k), and only the top k are returned: those are
    read whole afterwards. ``metadata`` is parsed on first use (time priors only).
    """

    __slots__ = ("id", "content", "author", "thread", "position", "event_at", "_meta", "_meta_raw",
                 "strength", "importance", "score", "explain")
    COLUMNS = "id, content, author, thread, position, event_at, metadata, strength, importance"

    def __init__(self, row: Any) -> None:
        (self.id, self.content, self.author, self.thread, self.position, self.event_at, self._meta_raw,
         self.strength, self.importance) = tuple(row)
        self._meta: dict[str, Any] | None = None
        self.score: float | None = None
        self.explain: dict[str, Any] | None = None

    @property
    def metadata(self) -> dict[str, Any]:
        if self._meta is None:
            raw = self._meta_raw
            self._meta = json.loads(raw) if raw and raw != "{}" else {}
        return self._meta


@dataclass
class NewMemory:
    """A memory to be written (what ``store`` and importers hand to the engine)."""

    content: str
    memory_type: str = "semantic"
    source: str = "user"
    ref: str | None = None
    importance: float = 0.5
    tags: list[str] | str | None = None
    metadata: dict[str, Any] | None = None
    event_at: datetime | None = None
    author: str | None = None
    thread: str | None = None
    position: int | None = None
    pinned: bool = False
    level: int = 0
    context: str = ""  # neighbouring text; the engine recomputes it for memories in a thread
    created_at: datetime | None = None  # kept from an export; default: now
    status: str = "active"


@dataclass
class StoreResult:
    """Outcome of ``store``: the id, and whether an existing memory was reinforced instead."""

    id: int
    deduplicated: bool = False
    dedup_reason: str | None = None
    degraded: str | None = None
    links: list[tuple[int, str, float]] = field(default_factory=list)  # edges written from ``id``


@dataclass
class BatchStats:
    """Outcome of a bulk write (imports)."""

    seen: int = 0
    added: int = 0
    duplicates: int = 0
    ids: list[int] = field(default_factory=list)
    degraded: str | None = None


@dataclass
class RecallResult:
    """Ranked memories plus how they were found."""

    query: str
    strategy: str
    results: list[Memory]
    degraded: str | None = None
    took_ms: float = 0.0
    pruned_terms: list[str] = field(default_factory=list)  # frequent words left out of the keyword query
    warnings: list[str] = field(default_factory=list)  # e.g. reinforcement skipped on a read-only file


@dataclass
class RecallConfig:
    """Switches and weights of hybrid recall (defaults are the tuned constants)."""

    w_keyword: float = W_KEYWORD
    w_vector: float = W_VECTOR
    w_person: float = W_PERSON
    w_time: float = W_TIME
    w_length: float = W_LENGTH
    fts_weights: tuple[float, ...] = FTS_WEIGHTS
    context_vectors: bool = True
    drop_person_terms: bool = True
    person_by_author: bool = True  # authored turns count only if the person said them (see _fuse)
    w_phrase: float = W_PHRASE
    # Query terms whose document frequency (share of memories containing them in any
    # indexed column, or in ``df_column`` only) exceeds ``max_df`` are left out of the
    # keyword query (the rarest one is kept if all would go). 0 keeps every term.
    max_df: float = MAX_DF
    df_column: str | None = None
    # A query naming a calendar date, month or year ("on 16 November, 2023", "in 2024")
    # favours memories whose event date, or a date resolved in their text, falls in it.
    w_date: float = W_DATE
    # Vector score of a conversational memory: (1 - mix)·cosine(own) + mix·cosine(context
    # vector); None takes the larger of the two (max-similarity, the rule before).
    context_mix: float | None = CONTEXT_MIX
    # A turn right after a question turn inherits this share of its score (see W_REPLY); 0 = off.
    w_reply: float = W_REPLY
    # Per result already shown from the same session, for questions asking for several things
    # (see SESSION_COVERAGE); 1.0 = off.
    session_coverage: float = SESSION_COVERAGE
    # How each retriever's scores are put on one scale before the weighted sum (see NORMALISE).
    normalise: str = NORMALISE
    z_scale: float = Z_SCALE


_WHEN_RE = re.compile(r"^\s*(when\b|what (date|time|year|month|day)\b|how long ago\b|which (year|month|day)\b)", re.I)
# Matched against lower-cased text: re.I made it 3x slower (26 vs 9 us a memory, 200 per recall).
_TIME_WORD_RE = re.compile(
    r"\b(yesterday|today|tonight|tomorrow|last|next|ago|week|weekend|month|year|monday|tuesday|wednesday|thursday|"
    r"friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|"
    r"december|since|recently|\d{4}|\d{1,2}(st|nd|rd|th))\b")
_LEADING_META_RE = re.compile(r"^\s*\[[^\]]{0,60}\]\s*")
_MANY_RE = re.compile(r"^\s*(how many|how often)\b|\bboth\b|\b(what|which)\s+(are|were)\b", re.I)
# what/which + up to four words + an auxiliary: "What video games does", "Which TV series has"
_WH_PHRASE_RE = re.compile(r"^\s*(?:what|which)\s+((?:[\w'/+-]+\s+){0,3}?[\w'/+-]+)\s+"
                           r"(?:do|does|did|has|have|had|is|are|was|were|can|could|would|will)\b", re.I)
_NOT_PLURAL = frozenset("is was has does this his yes its us as always perhaps various previous famous serious "
                        "gas bus news".split())


def asks_for_many(question: str) -> bool:
    """Whether a question asks for several things: "how many", "both", "what are", or a
    plural noun between what/which and its verb ("Which cities has ...", "What video games do ...").

    English only, like the stopwords; on LoCoMo dev it flags 65 % of multi-hop questions
    and 8 % of single-hop ones.
    """
    if _MANY_RE.search(question):
        return True
    m = _WH_PHRASE_RE.match(question)
    if m is None:
        return False
    for word in m.group(1).lower().split():
        w = word.split("/")[-1]
        if w.endswith("s") and not w.endswith(("ss", "'s")) and w not in _NOT_PLURAL:
            return True
    return False


_Ranked = TypeVar("_Ranked", "Memory", "Candidate")


def cover_sessions(ranked: list[_Ranked], k: int, factor: float, explain: bool) -> list[_Ranked]:
    """Ranks after COVER_FROM, greedily: score × factor^(results already taken from its session),
    chosen among the best ``max(COVER_POOL, k)``.

    ``ranked`` is best first. Scores only fall as sessions fill, so the scores returned stay
    in order; a memory's ``score`` becomes its discounted one (and ``explain`` says so).
    """
    out = ranked[:COVER_FROM]
    rest = ranked[COVER_FROM:max(COVER_POOL, k)]
    taken: dict[tuple[Any, str], int] = {}

    def session(c: _Ranked) -> tuple[Any, str]:
        return c.thread, (c.event_at or "")[:10]

    for c in out:
        taken[session(c)] = taken.get(session(c), 0) + 1
    while len(out) < k and rest:
        best = max(rest, key=lambda c: ((c.score or 0.0) * factor ** taken.get(session(c), 0), -c.id))
        rest.remove(best)
        n = taken.get(session(best), 0)
        if n:
            best.score = round((best.score or 0.0) * factor ** n, 6)
            if explain and best.explain is not None:
                best.explain["session_coverage"] = round(factor ** n, 4)
        taken[session(best)] = n + 1
        out.append(best)
    return out


def normalise_scores(d: dict[int, float], how: str = NORMALISE, z_scale: float = Z_SCALE) -> dict[int, float]:
    """One retriever's scores on the common scale of fusion (see NORMALISE).

    ``minmax`` maps the lowest to 0 and the highest to 1; ``zscore`` maps each score to
    z_scale · (its z-score − the lowest z-score), so the lowest is 0 too and the spread is
    set by the standard deviation, not by the extremes; with fewer than Z_MIN_SCORES
    scores it is min-max. Equal scores all get 1: each was found, which beats not being
    found (0).
    """
    if not d:
        return {}
    import numpy as np

    vals = np.fromiter(d.values(), dtype=np.float64, count=len(d))
    lo, hi = float(vals.min()), float(vals.max())
    if hi - lo <= 1e-12:
        return dict.fromkeys(d, 1.0)
    if how == "minmax" or len(vals) < Z_MIN_SCORES:
        f = 1.0 / (hi - lo)
    elif how == "zscore":
        f = z_scale / float(vals.std())
    else:
        raise ValueError(f"unknown normalisation {how!r}")
    return dict(zip(d, ((vals - lo) * f).tolist()))


def _in_spans(m: Memory | Candidate, spans: list[timeparse.DateSpan]) -> bool:
    """Whether a memory's event date, or a date resolved in its text, lies in a query's periods."""
    ev = from_iso(m.event_at)
    if ev is not None and any(s.contains(ev.date()) for s in spans):
        return True
    for r in m.metadata.get("resolved_dates") or ():
        try:
            start = datetime.fromisoformat(r["date"]).date()
        except (KeyError, TypeError, ValueError):
            continue
        gran = r.get("granularity", "day")
        if gran == "month":
            end = (start.replace(day=28) + timedelta(days=4)).replace(day=1) - timedelta(days=1)
        elif gran == "year":
            end = start.replace(month=12, day=31)
        else:
            end = start + timedelta(days=6 if gran == "week" else 0)
        if any(s.overlaps(start, end) for s in spans):
            return True
    return False


def _combine_sims(own: dict[int, float], ctx: dict[int, float], mix: float | None,
                  own_floor: float) -> dict[int, float]:
    """Vector score per memory from its own and its context vector's cosine.

    ``mix`` None: the larger of the two (max-similarity); else (1 - mix)·own + mix·context,
    and a memory without a context vector (a note, or one past the context kNN horizon)
    is scored by its own vector. A memory missing from ``own`` gets ``own_floor``.
    """
    ids = own.keys() | ctx.keys()
    if mix is None or not ctx:
        return {mid: max(own.get(mid, -1.0), ctx.get(mid, -1.0)) for mid in ids}
    if mix == 1.0:  # the default: the context cosine where there is one (the formula below, exactly)
        return {**own, **ctx}
    return {mid: (1 - mix) * own.get(mid, own_floor) + mix * ctx.get(mid, own.get(mid, own_floor)) for mid in ids}


def _count_words(text: str, cap: int) -> int:
    """min(cap, words in ``text``), words as ``_TOKEN_RE`` finds them.

    One ``findall`` over the head of the text (a C loop: ~5x faster than iterating
    matches in Python, and recall counts every scored candidate's words); the whole
    text only when its head holds fewer than ``cap`` words.
    """
    head = text[: cap * 32]
    n = len(_TOKEN_RE.findall(head))
    if n < cap and len(head) < len(text):
        n = sum(1 for _ in itertools.islice(_TOKEN_RE.finditer(text), cap))
    return min(n, cap)


def bare_text(content: str, author: str | None) -> str:
    """A memory's words without a leading ``[timestamp]`` and ``Author:`` prefix (for context)."""
    text = _LEADING_META_RE.sub("", content)
    if author and text.startswith(author + ":"):
        text = text[len(author) + 1:]
    return text.strip()


class VectorMatrix:
    """Every vector of one vec0 table in process memory, for fast kNN at scale.

    Two copies: the float32 matrix (exact cosines) and one sign bit per dimension
    (48 bytes a vector, stored bit-plane by bit-plane so the Hamming scan runs over
    contiguous words). ``search`` ranks every row by Hamming distance, keeps the best
    ``max(COARSE_MIN, COARSE_FACTOR·k)`` and re-ranks those by exact cosine: ~2 ms
    instead of ~10-16 ms for the exact scan at 100k (it reads 4.8 MB, not 153 MB).
    Loss against exact kNN is measured in ``bench/latency.py`` on real vectors. Tables
    smaller than ``COARSE_MIN_ROWS`` are scanned exactly.

    Loaded once the process is warm (``WARM_AFTER``, ``warm_up``); afterwards only vectors
    of memories newer than the last load are read (ids only grow). Vectors rewritten in
    place (``reindex``, ``doctor --fix``) bump ``vectors_generation`` in ``_mem_meta``, which forces a full reload. Rows of
    forgotten or deleted memories may linger here; recall filters by status anyway.
    Context vectors of older turns that gained neighbours since the load stay as they
    were until the next full reload (a slightly shorter context, never a wrong one).
    """

    def __init__(self, table: str, coarse: bool = True) -> None:
        import numpy as np

        self.table = table
        self.coarse = coarse
        self.ids = np.zeros(0, dtype=np.int64)
        self.mat = np.zeros((0, DIMS), dtype=np.float32)
        self.planes: Any = np.zeros((0, 0), dtype=np.uint64)  # (dims/64, rows): sign bits, bit-plane major; None if exact
        self.max_id = -1
        self.generation: str | None = None
        self.loaded = False

    def _read(self, conn: Any, after: int) -> tuple[Any, Any]:
        import numpy as np

        rows = conn.execute(f"SELECT memory_id, embedding FROM {self.table} WHERE memory_id > ?", (after,)).fetchall()
        if not rows:
            return np.zeros(0, dtype=np.int64), np.zeros((0, self.mat.shape[1]), dtype=np.float32)
        ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        mat = vectors_from_blobs([r[1] for r in rows], self.mat.shape[1])
        order = np.argsort(ids, kind="stable")  # rows by id: `cosines` finds ids by binary search
        return ids[order], mat[order]

    @staticmethod
    def _sign_planes(mat: Any) -> Any:
        import numpy as np

        if len(mat) == 0 or mat.shape[1] % 64:
            return np.zeros((0, len(mat)), dtype=np.uint64)
        return np.ascontiguousarray(np.packbits(mat > 0, axis=1).view(np.uint64).T)

    def sync(self, conn: Any, max_memory_id: int, generation: str | None) -> None:
        """Bring the matrix up to date with the table."""
        import numpy as np

        if not self.loaded or generation != self.generation:
            self.ids, self.mat = self._read(conn, -1)
            self.planes = self._sign_planes(self.mat) if self.coarse else None
            self.loaded, self.generation = True, generation
        elif max_memory_id > self.max_id:
            ids, mat = self._read(conn, self.max_id)
            if len(ids):
                self.ids = np.concatenate([self.ids, ids])
                self.mat = np.vstack([self.mat, mat])
                if self.coarse:
                    self.planes = np.hstack([self.planes, self._sign_planes(mat)])
        self.max_id = max(max_memory_id, int(self.ids.max()) if len(self.ids) else -1)

    def _shortlist(self, q: Any, k: int) -> Any:
        """Row numbers worth an exact cosine: all rows, or the Hamming-nearest few."""
        import numpy as np

        n = len(self.ids)
        width = max(COARSE_MIN, COARSE_FACTOR * k)
        if not self.coarse or n < COARSE_MIN_ROWS or width >= n or len(self.planes) == 0:
            return None
        qbits = np.packbits(q > 0).view(np.uint64)
        ham = np.zeros(n, dtype=np.uint16)
        for plane, word in zip(self.planes, qbits):
            ham += np.bitwise_count(plane ^ word)
        # Every row within the Hamming distance that reaches `width` rows: a counting pass
        # instead of argpartition (0.3 vs 1 ms at 100k), and rows tied at the cut all stay in.
        cut = int(np.searchsorted(np.cumsum(np.bincount(ham)), width))
        return np.flatnonzero(ham <= cut)

    def search(self, vec: Any, k: int) -> list[tuple[int, float]]:
        """(id, cosine) of the k best rows (vectors are L2-normalised: dot = cosine)."""
        import numpy as np

        n = len(self.ids)
        if n == 0:
            return []
        q = np.asarray(vec, dtype=np.float32)
        rows = self._shortlist(q, k)
        if rows is None:
            rows = np.arange(n)
            sims = self.mat @ q
        else:
            rows.sort()  # ascending row order reads the matrix front to back
            sims = self.mat[rows] @ q
        k = min(k, len(rows))
        top = np.argpartition(-sims, k - 1)[:k] if k < len(rows) else np.arange(len(rows))
        top = top[np.argsort(-sims[top], kind="stable")]
        return list(zip(self.ids[rows[top]].tolist(), sims[top].tolist()))

    def cosines(self, vec: Any, ids: Iterable[int]) -> dict[int, float]:
        """Exact cosine of ``vec`` with the rows of the given memory ids (those present)."""
        import numpy as np

        want = np.fromiter(ids, dtype=np.int64)
        if not len(want) or not len(self.ids):
            return {}
        pos = np.searchsorted(self.ids, want)
        pos[pos >= len(self.ids)] = 0
        found = self.ids[pos] == want
        pos, want = pos[found], want[found]
        sims = self.mat[pos] @ np.asarray(vec, dtype=np.float32)
        return {int(i): float(s) for i, s in zip(want, sims)}


# --------------------------------------------------------------------------- the store

_P = ParamSpec("_P")
_R = TypeVar("_R")


def _one_size_read(method: Callable[Concatenate[MemoryStore, _P], _R]) -> Callable[Concatenate[MemoryStore, _P], _R]:
    """Decorator: the store's size (``_vector_count``) is read once for the whole call.

    Nothing inside a recall adds memories; nested calls keep the outer call's reading.
    """

    @functools.wraps(method)
    def wrapper(self: MemoryStore, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        if self._size_memo is not None:
            return method(self, *args, **kwargs)
        self._size_memo = self._vector_count()
        try:
            return method(self, *args, **kwargs)
        finally:
            self._size_memo = None
            self._synced.clear()

    return wrapper


class MemoryStore:
    """One memory file. ``MemoryStore(path).store(...)`` / ``.recall(query, k=...)``.

    ``embedder`` may be an object with ``model_id``, ``dims`` and ``embed(texts)``;
    by default the local MiniLM model is loaded on first use. If it cannot load,
    the store works keyword-only and says so (``degraded == "no-vectors"``).
    """

    def __init__(
        self,
        path: Path | str | None = None,
        embedder: Embedder | None = None,
        fast_start: bool = False,
        keyword_index: bool | None = None,
    ) -> None:
        self.path = Path(path) if path is not None else default_db_path()
        self.conn = connect(self.path)
        try:
            migrate(self.conn)
        except sqlite3.DatabaseError as exc:  # a damaged file often opens and fails at its first read
            self.conn.close()
            err = db_error(exc, self.path)
            if err is None:
                raise
            raise err from exc
        except MemError:
            self.conn.close()
            raise
        self._embedder = embedder
        self._embedder_failed: str | None = None
        self._fast_start = fast_start
        self._people_cache: tuple[int, tuple[Any, ...], dict[str, str]] | None = None
        self._df_cache: tuple[float, int, dict[tuple[str, str | None], int]] | None = None
        self._matrices: dict[str, VectorMatrix] = {}
        self._keyword_worker: tuple[Any, Any] | None = None  # (executor, its connection), at scale only
        if keyword_index is None:
            keyword_index = os.environ.get("MEM_KEYWORD_INDEX", "1").strip().lower() not in ("0", "no", "off", "false")
        self._keyword_index_wanted = keyword_index
        self._keyword_index: Any = None  # keyword_index.KeywordIndex, once started
        self._scale_ops = 0  # operations on a large store so far (see WARM_AFTER)
        self._warm = False  # warm_up() was called
        self._live: Any = None  # liveset.LiveSet, in a warm process at scale
        self._size_memo: int | None = None  # _vector_count() during one recall
        self._synced: set[str] = set()  # vector matrices brought up to date during this recall
        self._live_where = self._filters_sql(None, None, None, None, None, False)[0]  # the filter it answers

    def close(self) -> None:
        """Close the connection (and the keyword thread's, if one was opened)."""
        if self._keyword_index is not None:
            self._keyword_index.close()
        if self._keyword_worker is not None:
            self._keyword_worker[0].shutdown(wait=True)
            self._keyword_worker[1].close()
            self._keyword_worker = None
        self.conn.close()

    def _worker(self) -> tuple[Any, Any]:
        """The recall worker thread (a one-thread executor) and its own read connection."""
        if self._keyword_worker is None:
            from concurrent.futures import ThreadPoolExecutor

            self._keyword_worker = (ThreadPoolExecutor(max_workers=1, thread_name_prefix="mem-keyword"),
                                    connect(self.path))
        return self._keyword_worker

    def _keyword_async(self, *args: Any, **kwargs: Any) -> Any:
        """Run ``_keyword`` on the worker thread with its own read connection; returns a Future.

        SQLite, onnxruntime and numpy all release the GIL, so FTS5's bm25 (the larger half
        of a recall at scale) runs while the query is embedded and the matrix scanned:
        on two cores a recall then costs the slower side, not the sum. WAL lets the
        second connection read while the first one writes.
        """
        pool, conn = self._worker()
        return pool.submit(self._keyword, *args, conn=conn, **kwargs)

    def _scale_op(self) -> None:
        """Count one operation (a recall, a near-duplicate check) toward WARM_AFTER."""
        if self._vector_count() >= min(MATRIX_MIN_ROWS, PARALLEL_MIN_ROWS):
            self._scale_ops += 1

    @property
    def _is_warm(self) -> bool:
        """A long-lived process: worth loading matrices and building the keyword index."""
        return self._warm or self._scale_ops >= WARM_AFTER

    def _maybe_start_keyword_index(self) -> None:
        """Start building the in-process keyword index once the process is warm.

        A one-shot CLI recall never pays for it (it would exit before the build is done);
        FTS5 answers until the build is ready.
        """
        if not self._keyword_index_wanted or self._keyword_index is not None:
            return
        if self._is_warm:
            from memengine.keyword_index import KeywordIndex

            self._keyword_index = KeywordIndex(self.path, FTS_WEIGHTS)
            self._keyword_index.start()

    def warm_up(self, wait: bool = True, timeout: float | None = None) -> dict[str, Any]:
        """Load what a long-lived process keeps in memory at scale: vector matrices, keyword index.

        For servers and benchmarks (an in-memory store, or one under ``PARALLEL_MIN_ROWS``
        memories, has nothing to load). Returns the keyword index's state
        (``keyword_index.KeywordIndex.stats``).
        """
        if self._vector_count() < PARALLEL_MIN_ROWS or self.path == Path(":memory:"):
            return {"ready": False, "reason": "small store: FTS5 and sqlite-vec serve directly"}
        self._warm = True
        for table in ("vec_memories", "vec_contexts"):
            self._matrix(table)
        self._maybe_start_keyword_index()
        index = self._keyword_index
        if index is None:
            return {"ready": False, "reason": "keyword index switched off (MEM_KEYWORD_INDEX=0)"}
        if wait:
            index.wait(timeout)
            index.search(self.conn, ["warm"], 1)  # adopts the finished build
        return index.stats()

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---------------------------------------------------------------- meta and embedder

    def meta(self, key: str) -> str | None:
        """A value from ``_mem_meta``."""
        row = self.conn.execute("SELECT value FROM _mem_meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def _set_meta(self, key: str, value: str) -> None:
        self.conn.execute("INSERT OR REPLACE INTO _mem_meta(key, value) VALUES (?, ?)", (key, value))

    def _cache_dir(self) -> Path | None:
        try:
            from platformdirs import user_cache_dir

            return Path(user_cache_dir("mem", appauthor=False))
        except Exception:  # a cache is an optimisation only
            return None

    @property
    def embedder(self) -> Embedder | None:
        """The embedder, or None in degraded (keyword-only) mode."""
        if self._embedder is None and self._embedder_failed is None:
            from embedder import EmbedderError, get_embedder

            try:
                self._embedder = get_embedder(self._cache_dir(), fast_start=self._fast_start)
            except EmbedderError as exc:
                self._embedder_failed = str(exc)
        return self._embedder

    def _embed_or_none(self, texts: list[str]) -> np.ndarray | None:
        emb = self.embedder
        if emb is None:
            return None
        self._check_model(emb)
        try:
            return emb.embed(texts)
        except Exception as exc:  # model load happens lazily inside embed()
            from embedder import EmbedderError

            if isinstance(exc, EmbedderError):
                self._embedder_failed = str(exc)
                self._embedder = None
                return None
            raise

    def _check_model(self, emb: Embedder) -> None:
        stored = self.meta("embedding_model")
        if stored is not None and stored != emb.model_id:
            raise ModelMismatch(
                f"this file's vectors come from {stored!r}, the embedder is {emb.model_id!r}: "
                "run `mem.py reindex` to re-embed everything with the current model"
            )

    @property
    def degraded_reason(self) -> str | None:
        """Why vectors are unavailable, if they are."""
        return self._embedder_failed

    # ---------------------------------------------------------------- store

    def _validate(self, m: NewMemory, truncate: bool = False) -> NewMemory:
        if m.content is None or not m.content.strip():
            raise UserError("content is empty")
        raw = m.content.encode("utf-8", errors="surrogatepass")
        if len(raw) > MAX_CONTENT_BYTES:
            if not truncate:
                raise UserError(
                    f"content is {len(raw):,} bytes, over the {MAX_CONTENT_BYTES:,} limit (use --truncate to keep the first part)"
                )
            m.content = raw[:MAX_CONTENT_BYTES].decode("utf-8", errors="ignore")
            m.metadata = dict(m.metadata or {}, truncated_from_bytes=len(raw))
        if m.status not in ("active", "archived", "deleted"):
            raise UserError(f"status must be active, archived or deleted (got {m.status!r})")
        if m.memory_type not in MEMORY_TYPES:
            raise UserError(f"memory_type must be one of {', '.join(MEMORY_TYPES)} (got {m.memory_type!r})")
        try:
            m.importance = float(m.importance)
        except (TypeError, ValueError) as exc:
            raise UserError(f"importance must be a number between 0 and 1 (got {m.importance!r})") from exc
        if not 0.0 <= m.importance <= 1.0:
            raise UserError(f"importance must be between 0 and 1 (got {m.importance})")
        return m

    def _row_values(self, m: NewMemory, now: str) -> dict[str, Any]:
        date_terms, resolved = timeparse.index_dates(m.content, m.event_at)
        meta = dict(m.metadata or {})
        if resolved:
            meta["resolved_dates"] = resolved
        return {
            "content": m.content, "memory_type": m.memory_type, "source": m.source, "ref": m.ref,
            "content_hash": content_hash(m.content), "importance": m.importance, "pinned": int(m.pinned),
            "created_at": to_iso(m.created_at) or now, "event_at": to_iso(m.event_at), "updated_at": now,
            "decay_ref_at": now, "status": m.status,
            "valid_from": to_iso(m.event_at) or now, "level": m.level, "author": m.author, "thread": m.thread,
            "position": m.position, "metadata": json.dumps(meta, ensure_ascii=False, default=str),
            "tags": normalise_tags(m.tags), "date_terms": date_terms, "context": m.context,
        }

    def _insert(self, values: dict[str, Any], vec: np.ndarray | None) -> int:
        cols = ", ".join(values)
        marks = ", ".join("?" for _ in values)
        cur = self.conn.execute(f"INSERT INTO memories ({cols}) VALUES ({marks})", tuple(values.values()))
        mid = int(cur.lastrowid)
        if vec is not None:
            self._write_vector(mid, vec)
        return mid

    def _write_vector(self, mid: int, vec: np.ndarray) -> None:
        # vec0 in sqlite-vec 0.1.9 rejects INSERT OR REPLACE: delete, then insert.
        self.conn.execute("DELETE FROM vec_memories WHERE memory_id = ?", (mid,))
        self.conn.execute(f"INSERT INTO vec_memories(memory_id, embedding) VALUES (?, {VEC_PARAM})",
                          (mid, _vec_blob(vec)))

    def _note_model(self) -> None:
        emb = self._embedder
        if emb is not None and self.meta("embedding_model") is None:
            self._set_meta("embedding_model", emb.model_id)
            self._set_meta("dims", str(emb.dims))

    def _reinforce(self, mid: int, now: str) -> None:
        self.conn.execute(
            """UPDATE memories SET access_count = access_count + 1, last_accessed_at = ?,
                   base_strength = min(1.0, strength + ?), strength = min(1.0, strength + ?), decay_ref_at = ?
               WHERE id = ?""",
            (now, REINFORCE_BOOST, REINFORCE_BOOST, now, mid),
        )

    def _refresh_context(self, touched: dict[str, list[int]]) -> None:
        """Recompute keyword context and context vectors around new turns of conversations.

        A turn alone is often meaningless ("Yes, last week!"): each memory of a thread
        is also indexed with its neighbours (±CONTEXT_NEAR in ``context``, up to
        ±CONTEXT_FAR in ``context_far``), skipping neighbours more than
        CONTEXT_MAX_GAP_HOURS away (another session). A new turn changes the context of
        the turns before it too, so every row within CONTEXT_FAR of a new position is
        refreshed. Runs inside the caller's write transaction.
        """
        import numpy as np

        for thread, positions in touched.items():
            lo, hi = min(positions) - CONTEXT_FAR, max(positions) + CONTEXT_FAR
            rows = self.conn.execute(
                """SELECT id, content, author, position, event_at, context, context_far FROM memories
                   WHERE thread = ? AND position BETWEEN ? AND ? AND status != 'deleted' AND level = 0
                   ORDER BY position, id""",
                (thread, lo - CONTEXT_FAR, hi + CONTEXT_FAR),
            ).fetchall()
            if not rows:
                continue
            times = [from_iso(r["event_at"]) for r in rows]
            texts = [bare_text(r["content"], r["author"]) for r in rows]
            vecs = self._vectors([r["id"] for r in rows])
            pos_set = set(positions)
            for i, r in enumerate(rows):
                if r["position"] is None or not (min(positions) - CONTEXT_FAR <= r["position"] <= max(positions) + CONTEXT_FAR):
                    continue
                near: list[str] = []
                far: list[str] = []
                ctx_vec = vecs.get(r["id"])
                ctx_vec = None if ctx_vec is None else ctx_vec.astype(np.float32).copy()
                for j in range(max(0, i - CONTEXT_FAR), min(len(rows), i + CONTEXT_FAR + 1)):
                    if j == i:
                        continue
                    dist = abs(rows[j]["position"] - r["position"])
                    if dist == 0 or dist > CONTEXT_FAR:
                        continue
                    ti, tj = times[i], times[j]
                    if ti and tj and abs((ti - tj).total_seconds()) > CONTEXT_MAX_GAP_HOURS * 3600:
                        continue
                    (near if dist <= CONTEXT_NEAR else far).append(texts[j])
                    other = vecs.get(rows[j]["id"])
                    if ctx_vec is not None and other is not None and dist <= 2:
                        ctx_vec += (CONTEXT_VEC_DECAY ** dist) * other
                new_near = " ".join(near)[:CONTEXT_CHARS]
                new_far = " ".join(far)[:CONTEXT_CHARS]
                if new_near != r["context"] or new_far != r["context_far"]:
                    self.conn.execute("UPDATE memories SET context = ?, context_far = ? WHERE id = ?",
                                      (new_near, new_far, r["id"]))
                if ctx_vec is not None and (near or r["position"] in pos_set):
                    norm = float(np.linalg.norm(ctx_vec))
                    if norm > 0:
                        self.conn.execute("DELETE FROM vec_contexts WHERE memory_id = ?", (r["id"],))
                        self.conn.execute(f"INSERT INTO vec_contexts(memory_id, embedding) VALUES (?, {VEC_PARAM})",
                                          (r["id"], _vec_blob(ctx_vec / norm)))

    def store(
        self,
        content: str,
        memory_type: str = "semantic",
        *,
        source: str = "user",
        importance: float = 0.5,
        tags: list[str] | str | None = None,
        metadata: dict[str, Any] | None = None,
        event_at: datetime | None = None,
        ref: str | None = None,
        author: str | None = None,
        thread: str | None = None,
        position: int | None = None,
        pinned: bool = False,
        truncate: bool = False,
        dedup: bool = True,
        links: Sequence[tuple[int, str, float]] = (),
    ) -> StoreResult:
        """Store one memory; identical or near-identical facts reinforce instead.

        Exact duplicates (same normalised text and type, same event time for
        episodic memories) and, for semantic/procedural memories only, vectors with
        cosine ≥ ``NEAR_DUP_COSINE`` return the existing id with ``deduplicated``.
        Conversation turns and episodes are never merged: "ok" said twice is two events.
        ``links``: ``(memory id, edge type, weight)`` edges from the stored (or existing)
        memory, written in the same transaction; a missing id fails before anything is written.
        """
        links = self.checked_links(links)
        m = self._validate(
            NewMemory(content=content, memory_type=memory_type, source=source, ref=ref, importance=importance,
                      tags=tags, metadata=metadata, event_at=event_at, author=author, thread=thread,
                      position=position, pinned=pinned),
            truncate=truncate,
        )
        now = to_iso(utcnow())
        assert now is not None
        values = self._row_values(m, now)
        if ref is not None:
            row = self.conn.execute("SELECT id FROM memories WHERE source = ? AND ref = ?", (source, ref)).fetchone()
            if row:
                res = StoreResult(int(row[0]), True, "ref")
                if links:
                    with write_tx(self.conn):
                        res.links = self.add_links(res.id, links)
                return res
        vecs = self._embed_or_none([m.content])
        vec = vecs[0] if vecs is not None else None
        with write_tx(self.conn):
            res = self._store_locked(m, values, vec, dedup and ref is None, now)
            res.links = self.add_links(res.id, links)
        return res

    def checked_links(self, links: Sequence[tuple[int, str, float]],
                      options: tuple[str, str] = ("--link-type", "--link-weight")) -> list[tuple[int, str, float]]:
        """``(target id, edge type, weight)`` links validated: known types, weights in [0, 1],
        existing targets (NotFound); ``options`` name the type and weight in error messages."""
        out = []
        for target, edge_type, weight in links:
            if edge_type not in EDGE_TYPES:
                raise UserError(f"{options[0]} must be one of {', '.join(EDGE_TYPES)} (got {edge_type!r})")
            if not 0.0 <= weight <= 1.0:
                raise UserError(f"{options[1]} must be between 0 and 1 (got {weight})")
            self.get(int(target))  # NotFound before anything is written
            out.append((int(target), edge_type, float(weight)))
        return out

    def add_links(self, mid: int, links: Sequence[tuple[int, str, float]]) -> list[tuple[int, str, float]]:
        """Edges ``mid → target`` inside the caller's write transaction (re-linking updates the
        weight); a link to itself is skipped (a store that deduplicated onto its own target).
        Returns the links written."""
        now = to_iso(utcnow())
        written = [link for link in links if link[0] != mid]
        for target, edge_type, weight in written:
            self.conn.execute(
                """INSERT INTO associations(source_id, target_id, edge_type, weight, created_at) VALUES (?, ?, ?, ?, ?)
                   ON CONFLICT(source_id, target_id, edge_type) DO UPDATE SET weight = excluded.weight""",
                (mid, target, edge_type, weight, now))
        return written

    def _store_locked(self, m: NewMemory, values: dict[str, Any], vec: np.ndarray | None, dedup: bool,
                      now: str) -> StoreResult:
        """The dedup checks and the insert of :meth:`store`, inside its write transaction."""
        conversational = m.memory_type == "episodic" or m.thread is not None
        if dedup:
            row = self.conn.execute(
                """SELECT id FROM memories WHERE content_hash = ? AND memory_type = ? AND status = 'active'
                   AND (? = 0 OR event_at IS ?) LIMIT 1""",
                (values["content_hash"], m.memory_type, int(conversational), values["event_at"]),
            ).fetchone()
            if row:
                self._reinforce(int(row[0]), now)
                return StoreResult(int(row[0]), True, "identical", self._degraded_tag())
            if vec is not None and not conversational:
                self._scale_op()
                near = self._nearest(vec, 5)
                for mid, sim in near:
                    r = self.conn.execute(
                        "SELECT memory_type, status FROM memories WHERE id = ?", (mid,)
                    ).fetchone()
                    if r and r[0] == m.memory_type and r[1] == "active" and sim >= NEAR_DUP_COSINE:
                        self._reinforce(mid, now)
                        return StoreResult(mid, True, f"near-duplicate (cosine {sim:.3f})", self._degraded_tag())
        if m.thread is not None and values["position"] is None:
            # a turn stored live joins the end of its conversation
            row = self.conn.execute("SELECT max(position) FROM memories WHERE thread = ?", (m.thread,)).fetchone()
            values["position"] = (row[0] + 1) if row and row[0] is not None else 0
        mid = self._insert(values, vec)
        if vec is not None:
            self._note_model()
        if m.thread is not None:
            self._refresh_context({m.thread: [values["position"]]})
        return StoreResult(mid, False, None, self._degraded_tag())

    def _degraded_tag(self) -> str | None:
        return "no-vectors" if self._embedder_failed else None

    def store_many(
        self,
        items: Iterable[NewMemory],
        batch_size: int = 256,
        progress: Callable[[int], None] | None = None,
        on_batch: Callable[[list[tuple[NewMemory, int]]], None] | None = None,
    ) -> BatchStats:
        """Bulk write for imports: dedup by (source, ref), one transaction per batch.

        Each batch is embedded outside the write lock, then written in one
        ``BEGIN IMMEDIATE`` transaction, so a killed import leaves whole batches and a
        re-run skips what is already there by ref. ``on_batch`` runs inside the batch
        transaction with the (item, id) pairs written, for edges that must land with them.
        """
        stats = BatchStats()
        batch: list[NewMemory] = []

        def flush() -> None:
            if not batch:
                return
            refs = [(b.source, b.ref) for b in batch if b.ref is not None]
            existing: set[tuple[str, str]] = set()
            for i in range(0, len(refs), 400):
                chunk = refs[i : i + 400]
                q = " OR ".join("(source = ? AND ref = ?)" for _ in chunk)
                args = [x for pair in chunk for x in pair]
                existing |= {(r[0], r[1]) for r in self.conn.execute(f"SELECT source, ref FROM memories WHERE {q}", args)}
            fresh: list[NewMemory] = []
            seen_refs: set[tuple[str, str]] = set()
            for b in batch:
                key = (b.source, b.ref) if b.ref is not None else None
                if key is not None and (key in existing or key in seen_refs):
                    stats.duplicates += 1
                    continue
                if key is not None:
                    seen_refs.add(key)
                fresh.append(b)
            vecs = self._embed_or_none([b.content for b in fresh]) if fresh else None
            now = to_iso(utcnow())
            assert now is not None
            written: list[tuple[NewMemory, int]] = []
            with write_tx(self.conn):
                for i, b in enumerate(fresh):
                    mid = self._insert(self._row_values(b, now), vecs[i] if vecs is not None else None)
                    written.append((b, mid))
                if vecs is not None and len(fresh):
                    self._note_model()
                touched: dict[str, list[int]] = {}
                for b, _mid in written:
                    if b.thread is not None and b.position is not None:
                        touched.setdefault(b.thread, []).append(b.position)
                if touched:
                    self._refresh_context(touched)
                if on_batch is not None and written:
                    on_batch(written)
            stats.added += len(written)
            stats.ids.extend(mid for _, mid in written)
            if progress:
                progress(len(batch))
            batch.clear()

        for item in items:
            stats.seen += 1
            batch.append(self._validate(item))
            if len(batch) >= batch_size:
                flush()
        flush()
        stats.degraded = self._degraded_tag()
        return stats

    # ---------------------------------------------------------------- read / lifecycle

    def get(self, mid: int) -> Memory:
        """One memory by id, whatever its status."""
        row = self.conn.execute(f"SELECT {MEMORY_COLUMNS} FROM memories WHERE id = ?", (mid,)).fetchone()
        if row is None:
            raise NotFound(f"no memory with id {mid}")
        return Memory.from_row(row)

    def _set_status(self, mid: int, status: str, allowed_from: tuple[str, ...]) -> Memory:
        with write_tx(self.conn):
            row = self.conn.execute("SELECT status FROM memories WHERE id = ?", (mid,)).fetchone()
            if row is None:
                raise NotFound(f"no memory with id {mid}")
            if row[0] in allowed_from:
                self.conn.execute(
                    "UPDATE memories SET status = ?, updated_at = ? WHERE id = ?", (status, to_iso(utcnow()), mid)
                )
        return self.get(mid)

    def forget(self, mid: int) -> Memory:
        """Soft delete: hidden from recall, kept in the file, restorable."""
        return self._set_status(mid, "deleted", ("active", "archived"))

    def restore(self, mid: int) -> Memory:
        """Bring back a forgotten or archived memory."""
        with write_tx(self.conn):
            row = self.conn.execute("SELECT status FROM memories WHERE id = ?", (mid,)).fetchone()
            if row is None:
                raise NotFound(f"no memory with id {mid}")
            now = to_iso(utcnow())
            # restoring also restarts decay, or an archived memory would be re-archived tonight
            self.conn.execute(
                """UPDATE memories SET status = 'active', updated_at = ?, base_strength = max(base_strength, 0.5),
                   strength = max(strength, 0.5), decay_ref_at = ? WHERE id = ?""",
                (now, now, mid),
            )
        return self.get(mid)

    # ---------------------------------------------------------------- recall

    def _filters_sql(
        self,
        types: Iterable[str] | None,
        sources: Iterable[str] | None,
        tags: Iterable[str] | None,
        since: datetime | None,
        until: datetime | None,
        include_archived: bool,
        alias: str = "m",
        shared: bool = False,
        summaries: bool = False,
    ) -> tuple[str, list[Any]]:
        clauses = [f"{alias}.status IN ('active', 'archived')" if include_archived else f"{alias}.status = 'active'"]
        args: list[Any] = []
        if not summaries:
            # consolidation summaries (level >= 1) would crowd raw memories out of the top
            # results (LoCoMo recall@5 -0.012); browse/brief/--summaries reach them
            clauses.append(f"{alias}.level = 0")
        if not shared:
            clauses.append(f"{alias}.source NOT LIKE '{SHARED_SOURCE_PREFIX}%'")
        if not include_archived:
            clauses.append(f"{alias}.valid_to IS NULL")
        if types:
            types = list(types)
            for t in types:
                if t not in MEMORY_TYPES:
                    raise UserError(f"--type must be one of {', '.join(MEMORY_TYPES)} (got {t!r})")
            clauses.append(f"{alias}.memory_type IN ({','.join('?' * len(types))})")
            args += types
        if sources:
            sources = list(sources)
            clauses.append(f"{alias}.source IN ({','.join('?' * len(sources))})")
            args += sources
        for t in tags or ():
            clauses.append(f"(' ' || {alias}.tags || ' ') LIKE ?")
            args.append(f"% {t.lower().lstrip('#')} %")
        if since is not None:
            clauses.append(f"coalesce({alias}.event_at, {alias}.created_at) >= ?")
            args.append(to_iso(since))
        if until is not None:
            clauses.append(f"coalesce({alias}.event_at, {alias}.created_at) <= ?")
            args.append(to_iso(until))
        return " AND ".join(clauses), args

    def _keyword(self, match: str, where: str, args: list[Any], limit: int,
                 weights: tuple[float, ...] = FTS_WEIGHTS, conn: Any = None,
                 words: list[str] | None = None) -> list[tuple[int, float]]:
        """(id, bm25) of the ``limit`` best allowed memories for an FTS5 query.

        ``words``, when ``match`` is their OR, lets the in-process keyword index answer
        instead of FTS5 (same scores; see keyword_index.py) once it is built.
        """
        conn = conn or self.conn
        # not inside a transaction: the index would take in changes that may yet roll back
        # (and whose log positions the next writer then reuses)
        index = self._keyword_index if words and weights == FTS_WEIGHTS and not conn.in_transaction else None
        w = ", ".join(str(x) for x in weights)
        if any(x == 0 for x in weights):
            # a zero weight means "not searched", not "matched with score 0"
            cols = [c for c, x in zip(FTS_COLUMNS, weights) if x != 0]
            match = "{" + " ".join(cols) + "} : (" + match + ")"
        # Rank in FTS5 alone, then filter the few best by status: joining every match to
        # `memories` cost ~120 ms at 100k conversational rows; widen if filters drop too many.
        # Ties (scores equal to TIE_DECIMALS; common in templated text) go to the lower rowid,
        # exactly as in the in-process index: which rows make the cut must not depend on the path.
        sql = (f"SELECT rowid, bm25(memories_fts, {w}) AS r FROM memories_fts WHERE memories_fts MATCH ? "
               f"ORDER BY round(r, {KEYWORD_TIE_DECIMALS}), rowid LIMIT ?")
        want = limit * 2
        while True:
            ranked = index.search(conn, words, want) if index is not None else None
            if ranked is None:
                index = None  # not built yet, or a word FTS5 runs as a phrase: FTS5 answers
                try:
                    ranked = [(int(r[0]), -float(r[1])) for r in conn.execute(sql, (match, want))]
                except sqlite3.OperationalError as exc:
                    raise UserError(f"bad FTS5 query {match!r}: {exc}") from exc
            allowed = self._allowed([r[0] for r in ranked], where, args, conn)
            hits = [r for r in ranked if r[0] in allowed]
            if len(hits) >= limit or len(ranked) < want:
                return hits[:limit]
            want *= 4

    def doc_shares(self, terms: list[str], column: str | None = None) -> dict[str, float]:
        """Share of memories whose indexed text contains each query term (0..1).

        Read from FTS5's own vocabulary (``fts5vocab``, an index lookup per term, no
        doclist scan); terms are stemmed by a scratch FTS5 table with the same
        tokenizer. A term the tokenizer splits ("a-b") counts as its rarest part.
        Cached for 30 s like :meth:`known_people`.
        """
        now = time.monotonic()
        if not self._df_cache or now - self._df_cache[0] >= 30:
            c = self.conn
            c.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.mem_vocab_row USING fts5vocab(main, memories_fts, row)")
            c.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.mem_vocab_col USING fts5vocab(main, memories_fts, col)")
            n = int(c.execute("SELECT count(*) FROM memories WHERE status = 'active'").fetchone()[0])
            self._df_cache = (now, n, {})
        _, n, cache = self._df_cache
        todo = [t for t in terms if (t, column) not in cache]
        if todo:
            c = self.conn
            for t, stems in zip(todo, fts_tokens(c, todo)):
                counts = []
                for stem in stems:
                    if column is None:
                        row = c.execute("SELECT doc FROM temp.mem_vocab_row WHERE term = ?", (stem,)).fetchone()
                    else:
                        row = c.execute("SELECT doc FROM temp.mem_vocab_col WHERE term = ? AND col = ?",
                                        (stem, column)).fetchone()
                    counts.append(int(row[0]) if row else 0)
                cache[(t, column)] = min(counts) if counts else 0
        return {t: cache[(t, column)] / max(1, n) for t in terms}

    def known_people(self) -> dict[str, str]:
        """Names the store knows (authors, contact aliases) → canonical name, lower-cased keys.

        Multi-word names also answer to their first word ("Ana" for "Ana García"),
        since that is how people ask.
        """
        # Kept per process and brought up to date cheaply: authors of memories newer than the
        # last look (ids only grow), everything again when the aliases table changed. A
        # full scan of authors costs ~30 ms at 100k memories, too much for every recall.
        max_id = self._vector_count()
        alias_key = tuple(self.conn.execute("SELECT count(*), max(rowid) FROM aliases").fetchone())
        cache = self._people_cache
        if cache is not None and cache[1] == alias_key and cache[0] == max_id:
            return cache[2]
        if cache is not None and cache[1] == alias_key and cache[0] < max_id:
            names = dict(cache[2])
            rows = self.conn.execute("SELECT DISTINCT author FROM memories WHERE id > ? AND author IS NOT NULL "
                                     "AND status = 'active'", (cache[0],)).fetchall()
        else:
            names = {}
            rows = self.conn.execute(
                "SELECT DISTINCT author FROM memories WHERE author IS NOT NULL AND status = 'active' "
                "UNION SELECT name FROM aliases WHERE kind = 'person'").fetchall()
        for (name,) in rows:
            if not name or len(name) < 2 or name.lower() in ("user", "assistant", "system", "tool"):
                continue
            names[name.lower()] = name
            first = name.split()[0]
            if first != name and len(first) >= 3 and first[0].isupper():
                names.setdefault(first.lower(), name)
        self._people_cache = (max_id, alias_key, names)
        return names

    def people_in(self, query: str) -> dict[str, str]:
        """Known people named in ``query``: matched word → canonical name."""
        people = self.known_people()
        if not people:
            return {}
        found: dict[str, str] = {}
        words = {w.lower() for w in _TOKEN_RE.findall(query)}
        low = query.lower()
        for key, name in people.items():
            if (" " in key and key in low) or key in words:
                found[key] = name
        return found

    def _vector_count(self) -> int:
        """Rough size of the vector index (the highest memory id: O(1), unlike count(*) on vec0).

        Read once per recall (``_one_size_read``): a recall would ask nine times, and at
        scale each statement's return waits for the GIL the worker thread holds.
        """
        if self._size_memo is not None:
            return self._size_memo
        row = self.conn.execute("SELECT max(id) FROM memories").fetchone()
        return int(row[0] or 0)

    def _use_matrix(self, table: str) -> bool:
        """Whether kNN and cosines on ``table`` go to the in-process matrix (else sqlite-vec)."""
        if self._vector_count() < MATRIX_MIN_ROWS:
            return False
        return self._is_warm or table in self._matrices

    def _matrix(self, table: str) -> VectorMatrix:
        mat = self._matrices.get(table)
        if mat is None:
            mat = self._matrices[table] = VectorMatrix(table)
        if self._size_memo is None or table not in self._synced:  # once per recall is enough
            mat.sync(self.conn, self._vector_count(), self.meta("vectors_generation"))
            if self._size_memo is not None:
                self._synced.add(table)
        return mat

    def _knn(self, table: str, vec: np.ndarray, k: int) -> list[tuple[int, float]]:
        """(memory id, cosine) of the k nearest rows of a vector table, any status, exact."""
        k = max(1, k)
        if self._use_matrix(table):
            return self._matrix(table).search(as_stored(vec), k)
        rows = self.conn.execute(
            f"SELECT memory_id, distance FROM {table} WHERE embedding MATCH {VEC_PARAM} AND k = ?",
            (_vec_blob(vec), min(k, 4096))
        ).fetchall()
        return [(int(r[0]), 1.0 - float(r[1])) for r in rows if r[1] is not None]

    def _nearest(self, vec: np.ndarray, k: int) -> list[tuple[int, float]]:
        """(memory id, cosine similarity) of the k nearest memory vectors, any status."""
        return self._knn("vec_memories", vec, k)

    def _nearest_contexts(self, vec: np.ndarray, k: int) -> list[tuple[int, float]]:
        """Nearest context vectors (a turn with its neighbours)."""
        return self._knn("vec_contexts", vec, k)

    def _vectors(self, ids: list[int], table: str = "vec_memories") -> dict[int, np.ndarray]:
        rows = list(select_in(self.conn, f"SELECT memory_id, embedding FROM {table} WHERE memory_id IN ({{ids}})", ids))
        mat = vectors_from_blobs([r[1] for r in rows])
        return {int(r[0]): v for r, v in zip(rows, mat)}

    def _cosines(self, vec: np.ndarray, ids: list[int], table: str = "vec_memories") -> dict[int, float]:
        """Cosine of ``vec`` with the stored vectors of ``ids`` (those that have one)."""
        import numpy as np

        vec = as_stored(vec)
        if self._use_matrix(table):  # at scale, in a warm process, the vectors are in memory already
            return self._matrix(table).cosines(vec, ids)
        vecs = self._vectors(ids, table)
        if not vecs:
            return {}
        keys = list(vecs)
        sims = np.stack([vecs[i] for i in keys]) @ vec
        return {k: float(s) for k, s in zip(keys, sims)}

    @_one_size_read
    def recall(
        self,
        query: str,
        k: int = 10,
        strategy: str = "hybrid",
        *,
        types: Iterable[str] | None = None,
        sources: Iterable[str] | None = None,
        tags: Iterable[str] | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        include_archived: bool = False,
        raw: bool = False,
        touch: bool = True,
        explain: bool = False,
        shared: bool = False,
        summaries: bool = False,
        config: RecallConfig | None = None,
        **graph_options: Any,
    ) -> RecallResult:
        """Ranked memories for ``query``.

        ``hybrid`` pools the candidates of both retrievers, normalises bm25 and cosine
        over that pool (z-scores, see NORMALISE; raw bm25 and cosine live on unrelated
        scales) before a weighted sum, then adds priors: people the query names, dated
        memories for "when" questions, length, strength and importance. Conversational
        memories are matched through their neighbours too (keyword context columns and a
        context vector).
        """
        t0 = time.perf_counter()
        if strategy in GRAPH_STRATEGIES:
            from memengine import graph

            return graph.recall(self, query, k=k, strategy=strategy, types=types, sources=sources, tags=tags,
                                since=since, until=until, include_archived=include_archived, raw=raw, touch=touch,
                                explain=explain, shared=shared, **({"summaries": True} if summaries else {}),
                                **graph_options)
        if strategy not in STRATEGIES:
            raise UserError(f"--strategy must be one of {', '.join(ALL_STRATEGIES)} (got {strategy!r})")
        if not query or not query.strip():
            raise UserError("query is empty")
        if k < 1:
            raise UserError("-k must be at least 1")
        cfg = config or RecallConfig()
        where, args = self._filters_sql(types, sources, tags, since, until, include_archived, shared=shared,
                                        summaries=summaries)
        degraded = None
        pool = max(POOL, k * 3)
        people = self.people_in(query) if strategy == "hybrid" else {}
        self._scale_op()
        at_scale = self._vector_count() >= PARALLEL_MIN_ROWS and self.path != Path(":memory:")
        if at_scale and strategy in ("hybrid", "keyword"):
            self._maybe_start_keyword_index()
        index_ready = self._keyword_index is not None and self._keyword_index.ready

        kw: dict[int, float] = {}
        kw_future = None
        kw_later: Callable[[], list[tuple[int, float]]] | None = None
        phrase: dict[int, float] = {}
        pruned: list[str] = []
        if strategy in ("hybrid", "keyword"):
            terms: list[str] = []
            if raw:
                match: str | None = query
            else:
                terms = query_terms(query)
                if people and cfg.drop_person_terms:
                    # a name alone must not swamp the keyword score: it is handled by the person prior
                    name_words = {w for key in people for w in key.split()}
                    terms = [t for t in terms if t not in name_words] or terms
                if cfg.max_df and terms:
                    # very frequent words discriminate little and are the costliest to score
                    shares = self.doc_shares(terms, cfg.df_column)
                    kept = [t for t in terms if shares[t] <= cfg.max_df] or [min(terms, key=lambda t: shares[t])]
                    pruned = [t for t in terms if t not in kept]
                    terms = kept
                match = " OR ".join(quote_fts(t) for t in terms) if terms else fts_query(query)
            words = terms if terms and not raw else None
            # not inside an open transaction: the worker's connection would not see its writes
            # (with the in-process keyword index ready, bm25 costs ~3 ms: inline is faster, p50
            # -0.5 ms over 8 alternating runs at 100k; embedding the query on the worker meanwhile
            # was slower still: +1.6 ms, and +0.6 / +1.3 ms p50 / p95 with a single-threaded
            # onnxruntime session: the two sides slow each other down, two cores or not)
            if match and strategy == "hybrid" and at_scale and not self.conn.in_transaction and not index_ready:
                kw_future = self._keyword_async(match, where, args, pool, cfg.fts_weights, words=words)
            elif match and strategy == "hybrid" and at_scale and index_ready and self.embedder is not None:
                # the in-process index answers in ~2 ms: run it while the worker scans the context
                # vectors (p95 -0.8 / -0.5 ms, p50 +0.2 / 0.0 in two 8-10-round alternating runs)
                kw_later = functools.partial(self._keyword, match, where, args, pool, cfg.fts_weights, words=words)
            elif match:
                kw = dict(self._keyword(match, where, args, pool, cfg.fts_weights, words=words))
            if strategy == "hybrid" and cfg.w_phrase and len(terms) >= 2:
                # proximity: consecutive content words of the question found together as a phrase
                pairs = " OR ".join(quote_fts(f"{a} {b}") for a, b in zip(terms, terms[1:]))
                phrase = dict(self._keyword(pairs, where, args, pool, cfg.fts_weights))

        vs: dict[int, float] = {}
        qvec = None
        if strategy in ("hybrid", "vector"):
            vecs = self._embed_or_none([query])
            if vecs is None:
                degraded = "no-vectors"
                if strategy == "vector":  # degrade loudly to keyword rather than return nothing
                    match = fts_query(query)
                    kw = dict(self._keyword(match, where, args, pool)) if match else {}
            else:
                qvec = as_stored(vecs[0])  # every scan below, on either path, sees this query
                # One wide kNN per vector table gives the cosine of nearly every candidate the
                # keyword side brings too (a vec0 lookup by id is a scan). The fusion weights were
                # tuned with this horizon and the floor below, so the in-process matrix keeps both
                # (exact cosines for every keyword candidate lowered LoCoMo recall@5 by 0.003).
                want = max(VEC_POOL, pool * 2)
                ctx_future = None
                if cfg.context_vectors and kw_future is None and at_scale and self._use_matrix("vec_contexts"):
                    # the worker thread is idle (FTS5 is not running on it): it scans the context
                    # vectors (synced here, on this thread's connection) while this thread scans the
                    # memories' ones; numpy releases the GIL: p95 -1.1 ms over 8 alternating runs
                    if self._use_matrix("vec_memories"):
                        self._matrix("vec_memories")  # synced now: no SQL on this thread while the worker scans
                    ctx_future = self._worker()[0].submit(self._matrix("vec_contexts").search, qvec, want)
                if kw_later is not None:
                    kw, kw_later = dict(kw_later()), None
                own = dict(self._nearest(qvec, want))
                if ctx_future is not None:
                    ctx = dict(ctx_future.result())
                else:
                    ctx = dict(self._nearest_contexts(qvec, want)) if cfg.context_vectors else {}
                combined = _combine_sims(own, ctx, cfg.context_mix, min(own.values(), default=-1.0))
                # best first, ties by id (two C-level sorts: no per-item Python key)
                by_sim = sorted(sorted(combined), key=combined.__getitem__, reverse=True)
                # filter the best few first (one small IN query); widen only if filters removed too many
                allowed: set[int] = set()
                for lo, hi in ((0, pool * 2), (pool * 2, len(by_sim))):
                    allowed |= self._allowed(by_sim[lo:hi], where, args)
                    if len(allowed) >= pool:
                        break
                ranked = [mid for mid in by_sim if mid in allowed]
                vs = {mid: combined[mid] for mid in ranked[:pool]}

        if kw_future is not None:
            kw = dict(kw_future.result())
        if kw_later is not None:  # (no query vector after all)
            kw = dict(kw_later())
        cand = set(kw) | set(vs) | set(phrase)
        if qvec is not None and cand:
            # candidates beyond the kNN horizon are at most as similar as its farthest member
            floor = min((combined[m] for m in ranked), default=0.0)
            vs = {mid: combined.get(mid, floor) for mid in cand}
        cover = (strategy == "hybrid" and cfg.session_coverage < 1.0 and k > COVER_FROM
                 and asks_for_many(query))
        scored = self._fuse(self._candidates(list(cand)), kw, vs, strategy, explain, cfg, query, people, phrase,
                            k=max(k, COVER_POOL) if cover else k)
        scored.sort(key=lambda m: (-(m.score or 0.0), m.id))
        if cover:
            scored = cover_sessions(scored, k, cfg.session_coverage, explain)
        whole = self._rows([c.id for c in scored[:k]])
        results = []
        for c in scored[:k]:
            m = whole.get(c.id)
            if m is not None:  # (hard-deleted by another process between the two reads)
                m.score, m.explain = c.score, c.explain
                results.append(m)
        warnings = self.touch_if_writable([m.id for m in results]) if touch and results else []
        took = (time.perf_counter() - t0) * 1000
        return RecallResult(query=query, strategy=strategy, results=results,
                            degraded=degraded or self._degraded_tag(), took_ms=took, pruned_terms=pruned,
                            warnings=warnings)

    def touch_if_writable(self, ids: list[int]) -> list[str]:
        """:meth:`touch`, or a warning when the file is read-only (reads never need write access)."""
        try:
            self.touch(ids)
        except ReadOnly:
            return [f"{self.path}: read-only, so the recalled memories were not reinforced"]
        except DiskFull:
            return [f"{self.path}: disk is full, so the recalled memories were not reinforced"]
        return []

    def touch(self, ids: list[int]) -> None:
        """Reinforce memories a recall returned, and the co-retrieval edges among its top results.

        Memories returned together strengthen a ``reinforces`` edge (Hebbian), by
        ``HEBB_STEP`` per recall up to ``HEBB_MAX``; consolidate decays unused edges.
        """
        now = to_iso(utcnow()) or ""
        top = ids[:HEBB_TOP]
        with write_tx(self.conn):
            for mid in ids:
                self._reinforce(mid, now)
            for i, a in enumerate(top):
                for b in top[i + 1:]:
                    lo, hi = min(a, b), max(a, b)
                    self.conn.execute(
                        """INSERT INTO associations(source_id, target_id, edge_type, weight, created_at, last_used_at)
                           VALUES (?, ?, 'reinforces', ?, ?, ?)
                           ON CONFLICT(source_id, target_id, edge_type) DO UPDATE
                           SET weight = min(?, weight + ?), last_used_at = excluded.last_used_at""",
                        (lo, hi, HEBB_STEP, now, now, HEBB_MAX, HEBB_STEP),
                    )

    def _live_set(self) -> Any:
        """The in-process LiveSet, synced now; None where the SQL filter must serve.

        Only in a warm process at scale (a one-shot call would pay a 100k-row load for
        two small queries), never inside an open transaction (see liveset.py).
        """
        if self.conn.in_transaction or self.path == Path(":memory:") or not self._is_warm:
            return None
        max_id = self._vector_count()
        if max_id < PARALLEL_MIN_ROWS:
            return None
        if self._live is None:
            from memengine.liveset import LiveSet

            self._live = LiveSet()
        return self._live if self._live.sync(self.conn, max_id) else None

    def _allowed(self, ids: list[int], where: str, args: list[Any], conn: Any = None) -> set[int]:
        """The ``ids`` that pass a recall filter (``where`` over alias ``m``)."""
        if (conn is None or conn is self.conn) and where == self._live_where and not args:
            # the unfiltered case at scale: in memory, 0.8 -> ~0.05 ms per call at 100k
            live = self._live_set()
            if live is not None:
                return live.filter(ids)
        # NOT INDEXED: otherwise SQLite scans every active row through the status index
        # instead of looking the ids up (44 ms vs 5 ms for 800 ids at 100k)
        return {int(r[0]) for r in select_in(
            conn or self.conn, f"SELECT m.id FROM memories m NOT INDEXED WHERE m.id IN ({{ids}}) AND {where}", ids, args)}

    def _candidates(self, ids: list[int]) -> dict[int, Candidate]:
        return {int(r[0]): Candidate(r) for r in select_in(
            self.conn, f"SELECT {Candidate.COLUMNS} FROM memories WHERE id IN ({{ids}})", ids)}

    def _rows(self, ids: list[int]) -> dict[int, Memory]:
        return {int(r["id"]): Memory.from_row(r) for r in select_in(
            self.conn, f"SELECT {MEMORY_COLUMNS} FROM memories WHERE id IN ({{ids}})", ids)}

    def _fuse(
        self, rows: dict[int, Candidate], kw: dict[int, float], vs: dict[int, float], strategy: str, explain: bool,
        cfg: RecallConfig | None = None, query: str = "", people: dict[str, str] | None = None,
        phrase: dict[int, float] | None = None, k: int | None = None,
    ) -> list[Candidate]:
        """Score candidates: weighted normalised signals plus priors, then the reply prior.

        With ``k``, only candidates that can still reach the top ``k`` get their priors
        computed (the per-memory regexes are most of the cost): they are visited by base
        score, best first, each skipped when even the largest possible priors (and reply
        bonus) cannot lift it to the k-th best score so far. The top ``k`` is exactly the
        one of scoring every candidate (tested); the list returned holds the scored ones.
        """
        cfg = cfg or RecallConfig()
        phrase_top = max(phrase.values(), default=0.0) if phrase else 0.0

        kn = normalise_scores(kw, cfg.normalise, cfg.z_scale)
        vn = normalise_scores(vs, cfg.normalise, cfg.z_scale)
        hybrid = strategy == "hybrid"
        when_q = bool(_WHEN_RE.search(query)) if hybrid else False
        names = {n.lower() for n in (people or {}).values()} | set(people or {})
        spans = timeparse.query_dates(query) if hybrid and cfg.w_date else []
        if strategy == "keyword":
            bases = {mid: kn.get(mid, 0.0) for mid in rows}
        elif strategy == "vector":
            bases = {mid: vn.get(mid, 0.0) for mid in rows}
        else:
            bases = {mid: cfg.w_keyword * kn.get(mid, 0.0) + cfg.w_vector * vn.get(mid, 0.0) for mid in rows}
        weights = (cfg.w_person, cfg.w_time, cfg.w_date, cfg.w_phrase, cfg.w_length, cfg.w_reply) if hybrid else ()
        # the largest sum of priors any candidate can get for this query (a prior whose
        # condition the query does not meet is 0 for all: no names, not a "when" question...)
        applies = (bool(names), when_q, bool(spans), bool(phrase), True)
        max_prior = W_STRENGTH + W_IMPORTANCE + sum(w for w, on in zip(weights[:5], applies) if on)
        # the bounds below need priors that only add (strength and importance are in 0..1)
        prune = bool(k) and all(w >= 0 for w in weights)
        before: dict[int, float] = {}  # score before the reply bonus, per scored memory

        def person(m: Candidate) -> float:
            """The person prior: cheap, so it also tightens the lowest-score search below."""
            if not (hybrid and names and cfg.w_person):
                return 0.0
            # A turn with an author is "theirs" only if they said it: in chats a name in
            # the text is mostly an address to the listener ("Great news, Ana!"); an
            # authorless note naming them is about them (LoCoMo r@5 0.729 -> 0.742, chosen in 5/5 LOO folds).
            if m.author and cfg.person_by_author:
                return cfg.w_person if m.author.lower() in names else 0.0
            if (m.author and m.author.lower() in names) or any(n in m.content.lower() for n in names):
                return cfg.w_person
            return 0.0

        def score(mid: int) -> float:
            """Base + priors, rounded as returned; memoised (explain filled here)."""
            got = before.get(mid)
            if got is not None:
                return got
            m = rows[mid]
            base = bases[mid]
            priors: dict[str, float] = {}
            if hybrid:
                if p := person(m):
                    priors["person"] = p
                bare = bare_text(m.content, m.author)
                # the text itself must speak of time: a leading "[date]" stamp every turn carries says nothing
                if when_q and cfg.w_time and (_TIME_WORD_RE.search(bare.lower()) or m.metadata.get("resolved_dates")):
                    priors["time"] = cfg.w_time
                if spans and _in_spans(m, spans):
                    priors["date"] = cfg.w_date
                if phrase and phrase_top > 0 and mid in phrase:
                    # scaled by the best phrase match, not min-max: most candidates have none
                    priors["phrase"] = cfg.w_phrase * phrase[mid] / phrase_top
                if cfg.w_length:
                    words = _count_words(bare, LENGTH_FULL_WORDS)
                    priors["length"] = cfg.w_length * min(1.0, math.log1p(words) / math.log1p(LENGTH_FULL_WORDS))
            priors["strength"] = W_STRENGTH * m.strength
            priors["importance"] = W_IMPORTANCE * m.importance
            prior = sum(priors.values())
            m.score = before[mid] = round(base + prior, 6)
            if explain:
                m.explain = {
                    "keyword_bm25": round(kw[mid], 4) if mid in kw else None,
                    "keyword_norm": round(kn.get(mid, 0.0), 4),
                    "cosine": round(vs[mid], 4) if mid in vs else None,
                    "vector_norm": round(vn.get(mid, 0.0), 4),
                    "weights": {"keyword": cfg.w_keyword, "vector": cfg.w_vector},
                    "priors": {key: round(v, 4) for key, v in priors.items()},
                    "prior": round(prior, 4),
                }
            return m.score

        # Reply prior: a turn right after a question turn (both candidates) gains
        # w_reply · (the question's score − the lowest candidate score); see W_REPLY.
        replies = self._replies(rows) if hybrid and cfg.w_reply else {}
        lo = 0.0
        if replies:
            lo = math.inf
            # the lowest score: a score is at least its base plus the cheap priors (the others
            # only add), so walking up from the lowest such floor can stop once the next floor
            # is above the lowest score seen (100k chat: ~30 fewer candidates scored per recall)
            floor = {mid: bases[mid] + person(m) + W_STRENGTH * m.strength + W_IMPORTANCE * m.importance
                     for mid, m in rows.items()} if prune else {}
            for mid in sorted(rows, key=lambda i: (floor[i], i)) if prune else rows:
                if prune and floor[mid] - 1e-6 > lo:
                    break
                lo = min(lo, score(mid))

        def final(mid: int) -> float:
            s = score(mid)
            q = replies.get(mid)
            bonus = cfg.w_reply * (score(q) - lo) if q is not None else 0.0
            if not bonus:
                return s
            m = rows[mid]
            m.score = round(s + bonus, 6)
            if explain and m.explain is not None:
                m.explain["priors"]["reply"] = round(bonus, 4)
                m.explain["prior"] = round(m.explain["prior"] + bonus, 4)
            return m.score

        if not prune or k is None:
            for mid in rows:
                final(mid)
            return list(rows.values())
        top_base = max(bases.values(), default=0.0)
        max_bonus = cfg.w_reply * (top_base + max_prior - lo) if replies else 0.0
        # the priors that cost a regex per memory (time, date, phrase, length), at most
        max_costly = sum(w for w, on in zip(weights[1:5], applies[1:5]) if on)
        best: list[float] = []  # min-heap of the k best final scores so far
        done: list[int] = []
        for mid in sorted(rows, key=lambda i: (-bases[i], i)):
            if len(best) >= k and bases[mid] + max_prior + max_bonus + 1e-6 < best[0]:
                break  # sorted by base: no later candidate can reach the top k either
            m = rows[mid]
            # this memory's cheap priors exactly, the costly ones at most
            bound = bases[mid] + person(m) + W_STRENGTH * m.strength + W_IMPORTANCE * m.importance + max_costly
            q = replies.get(mid)
            if q is not None:
                q_upper = before[q] if q in before else bases[q] + max_prior
                bound += cfg.w_reply * (q_upper - lo)
            if len(best) >= k and bound + 1e-6 < best[0]:
                continue  # cannot reach the top k (the k-th best only rises)
            f = final(mid)
            (heapq.heappush if len(best) < k else heapq.heappushpop)(best, f)
            done.append(mid)
        return [rows[mid] for mid in done]

    @staticmethod
    def _replies(rows: dict[int, Candidate]) -> dict[int, int]:
        """Candidates that reply to a candidate question: reply id -> question id.

        The question is the turn just before (same thread, previous position, at most
        CONTEXT_MAX_GAP_HOURS earlier) and asks something ("?" in its own text).
        """
        by_pos = {(m.thread, m.position): m for m in rows.values() if m.thread is not None and m.position is not None}
        out: dict[int, int] = {}
        for m in rows.values():
            prev = by_pos.get((m.thread, m.position - 1)) if m.thread is not None and m.position is not None else None
            if prev is None or "?" not in bare_text(prev.content, prev.author):
                continue
            t0, t1 = from_iso(prev.event_at), from_iso(m.event_at)
            if t0 is not None and t1 is not None and abs((t1 - t0).total_seconds()) > CONTEXT_MAX_GAP_HOURS * 3600:
                continue
            out[m.id] = prev.id
        return out

    # ---------------------------------------------------------------- maintenance

    def stats(self) -> dict[str, Any]:
        """Counts by status and type, edges, file size, model."""
        c = self.conn
        by_status = {r[0]: r[1] for r in c.execute("SELECT status, count(*) FROM memories GROUP BY status")}
        by_type = {
            r[0]: r[1] for r in c.execute("SELECT memory_type, count(*) FROM memories WHERE status='active' GROUP BY 1")
        }
        size = self._file_bytes()
        return {
            "path": str(self.path),
            "memories": sum(by_status.values()),
            "by_status": by_status,
            "by_type": by_type,
            "vectors": int(c.execute("SELECT count(*) FROM vec_memories").fetchone()[0]),
            "associations": int(c.execute("SELECT count(*) FROM associations").fetchone()[0]),
            "clusters": int(c.execute("SELECT count(*) FROM clusters WHERE status='active'").fetchone()[0]),
            "open_contradictions": int(
                c.execute("SELECT count(*) FROM contradictions WHERE status='open'").fetchone()[0]
            ),
            "embedding_model": self.meta("embedding_model"),
            "schema_version": self.meta("schema_version"),
            "size_bytes": size,
        }

    def _index_gaps(self) -> dict[str, list[int]]:
        c = self.conn
        missing_vec = [
            r[0] for r in c.execute(
                "SELECT id FROM memories WHERE id NOT IN (SELECT memory_id FROM vec_memories) ORDER BY id")
        ]
        orphan_vec = [
            r[0] for r in c.execute(
                "SELECT memory_id FROM vec_memories WHERE memory_id NOT IN (SELECT id FROM memories)")
        ]
        orphan_ctx = [
            r[0] for r in c.execute(
                "SELECT memory_id FROM vec_contexts WHERE memory_id NOT IN (SELECT id FROM memories)")
        ]
        return {"missing_vectors": missing_vec, "orphan_vectors": orphan_vec, "orphan_context_vectors": orphan_ctx}

    def _fts_ok(self) -> bool:
        try:
            self.conn.execute("INSERT INTO memories_fts(memories_fts, rank) VALUES ('integrity-check', 1)")
            return True
        except sqlite3.DatabaseError as exc:
            from memengine.dbfile import classify

            if classify(exc) != "read_only":
                return False
        # a read-only file cannot run FTS5's check (it is an INSERT): compare the row counts
        n = self.conn.execute("SELECT count(*) FROM memories").fetchone()[0]
        return bool(n == self.conn.execute("SELECT count(*) FROM memories_fts_docsize").fetchone()[0])

    def doctor(self, fix: bool = False) -> dict[str, Any]:
        """Check the file: integrity, FTS in step with memories, vectors present; repair with ``fix``."""
        import platform

        c = self.conn
        report: dict[str, Any] = {
            "path": str(self.path),
            "driver": sqlite3.__name__,
            "python": platform.python_version(),
            "sqlite_version": c.execute("SELECT sqlite_version()").fetchone()[0],
            "sqlite_vec_version": c.execute("SELECT vec_version()").fetchone()[0],
            "schema_version": self.meta("schema_version"),
            "migrations": [r[0] for r in c.execute("SELECT name FROM _mem_migrations ORDER BY name")],
            "embedding_model": self.meta("embedding_model"),
        }
        report["integrity"] = c.execute("PRAGMA quick_check").fetchone()[0]
        report["fts_ok"] = self._fts_ok()
        gaps = self._index_gaps()
        report.update({k: len(v) for k, v in gaps.items()})
        from embedder import EmbedderError, load_manifest

        man = load_manifest()
        report["model_expected_sha256"] = man.sha256
        emb = self.embedder
        if emb is not None and hasattr(emb, "_load"):
            try:
                emb._load()  # verifies the checksum
                report["model_checksum"] = "ok"
                report["model_id"] = emb.model_id
                report["model_runs"] = str(getattr(emb, "runs", "") or "")  # the int8 form, or the published file
            except EmbedderError as exc:
                report["model_checksum"] = f"failed: {exc}"
        elif emb is not None:
            report["model_checksum"] = f"n/a ({emb.model_id})"
        else:
            report["model_checksum"] = f"unavailable: {self._embedder_failed}"
        problems = []
        if report["integrity"] != "ok":
            problems.append(f"integrity: {report['integrity']}")
        if not report["fts_ok"]:
            problems.append("keyword index out of step with memories")
        for key, ids in gaps.items():
            if ids:
                problems.append(f"{len(ids)} {key.replace('_', ' ')}")
        report["problems"] = problems
        if fix and problems:
            report["fixed"] = self._repair(gaps, rebuild_fts=not report["fts_ok"])
            report["fts_ok"] = self._fts_ok()
            after = self._index_gaps()
            report.update({k: len(v) for k, v in after.items()})
            report["problems_after_fix"] = [
                f"{len(v)} {k.replace('_', ' ')}" for k, v in after.items() if v
            ] + ([] if report["fts_ok"] else ["keyword index still out of step"])
        report["ok"] = not problems or (fix and not report.get("problems_after_fix"))
        return report

    def _repair(self, gaps: dict[str, list[int]], rebuild_fts: bool) -> list[str]:
        done = []
        if rebuild_fts:
            with write_tx(self.conn):
                self.conn.execute("INSERT INTO memories_fts(memories_fts) VALUES ('rebuild')")
                # in-process keyword indexes (keyword_index.py) cannot follow a rebuild row by row
                self._set_meta("keywords_generation", str(int(self.meta("keywords_generation") or 0) + 1))
            done.append("rebuilt keyword index")
        with write_tx(self.conn):
            for mid in gaps["orphan_vectors"]:
                self.conn.execute("DELETE FROM vec_memories WHERE memory_id = ?", (mid,))
            for mid in gaps["orphan_context_vectors"]:
                self.conn.execute("DELETE FROM vec_contexts WHERE memory_id = ?", (mid,))
            self._bump_vectors_generation()
        if gaps["orphan_vectors"] or gaps["orphan_context_vectors"]:
            done.append("removed orphan vectors")
        if gaps["missing_vectors"]:
            n = self.reindex(only_missing=True)["embedded"]
            done.append(f"embedded {n} missing vectors")
        return done

    def reindex(self, only_missing: bool = False, progress: Callable[[int], None] | None = None) -> dict[str, Any]:
        """(Re-)embed memories: all of them (e.g. after a model change) or only those without vectors."""
        emb = self.embedder
        if emb is None:
            raise MissingDependency(f"cannot reindex without the embedding model: {self._embedder_failed}")
        if only_missing:
            self._check_model(emb)
            ids = [r[0] for r in self.conn.execute(
                "SELECT id FROM memories WHERE id NOT IN (SELECT memory_id FROM vec_memories) ORDER BY id")]
        else:
            ids = [r[0] for r in self.conn.execute("SELECT id FROM memories ORDER BY id")]
            with write_tx(self.conn):
                self.conn.execute("DELETE FROM vec_memories")
                self.conn.execute("DELETE FROM vec_contexts")
                self.conn.execute("DELETE FROM _mem_meta WHERE key = 'embedding_model'")
                self._set_meta("embedding_model", emb.model_id)
                self._set_meta("dims", str(emb.dims))
        done = 0
        for i in range(0, len(ids), 256):
            chunk = ids[i : i + 256]
            texts = [r[0] for r in self.conn.execute(
                f"SELECT content FROM memories WHERE id IN ({','.join('?' * len(chunk))}) ORDER BY id", chunk)]
            vecs = emb.embed(texts)
            with write_tx(self.conn):
                for mid, vec in zip(chunk, vecs):
                    self._write_vector(mid, vec)
                if self.meta("embedding_model") is None:
                    self._set_meta("embedding_model", emb.model_id)
            done += len(chunk)
            if progress:
                progress(len(chunk))
        # context vectors are built from the (new) vectors of each turn's neighbours
        touched: dict[str, list[int]] = {}
        for thread, pos in select_in(
                self.conn, "SELECT thread, position FROM memories WHERE id IN ({ids}) "
                "AND thread IS NOT NULL AND position IS NOT NULL", ids):
            touched.setdefault(thread, []).append(pos)
        for thread, positions in touched.items():
            positions.sort()
            for j in range(0, len(positions), 200):
                with write_tx(self.conn):
                    self._refresh_context({thread: positions[j : j + 200]})
        with write_tx(self.conn):
            self._bump_vectors_generation()
        return {"embedded": done, "model": emb.model_id}

    def _bump_vectors_generation(self) -> None:
        """Tell in-process vector matrices (this and other processes) to reload: vectors changed in place."""
        self._set_meta("vectors_generation", str(int(self.meta("vectors_generation") or 0) + 1))

    def backup(self, dest: Path | str) -> dict[str, Any]:
        """Consistent copy with ``VACUUM INTO`` (safe while others write); refuses to overwrite."""
        dest = Path(dest)
        if dest.exists():
            raise UserError(f"{dest}: already exists (choose a new file name)")
        dest.parent.mkdir(parents=True, exist_ok=True)
        self.conn.execute("VACUUM INTO ?", (str(dest),))
        os.chmod(dest, 0o600)
        return {"path": str(dest), "size_bytes": dest.stat().st_size}

    def _file_bytes(self) -> int:
        """The memory file with its WAL and shared-memory files."""
        return sum(p.stat().st_size for p in self.path.parent.glob(self.path.name + "*") if p.is_file())

    def compact(self) -> dict[str, Any]:
        """Rewrite the file without its free pages (``VACUUM``).

        SQLite reuses freed pages but never returns them to the disk: after large
        deletions, a purge or the int8 vector migration the file keeps its old size. This
        needs the file alone for a moment: other connections wait up to busy_timeout, then
        this fails with LockedError and nothing changes. Temporary disk: a file copy.
        """
        if self.path == Path(":memory:"):
            return {"path": str(self.path), "bytes_before": 0, "bytes_after": 0, "freed_bytes": 0}
        free = int(self.conn.execute("PRAGMA freelist_count").fetchone()[0])
        page = int(self.conn.execute("PRAGMA page_size").fetchone()[0])
        before = self._file_bytes()
        try:
            self.conn.execute("PRAGMA wal_checkpoint(PASSIVE)")  # never waits; VACUUM does
            self.conn.execute("VACUUM")
            self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.OperationalError as exc:
            if _is_busy(exc):
                raise LockedError(f"{self.path}: in use by another process; compact needs it alone "
                                  "for a moment (try again)") from exc
            raise
        after = self._file_bytes()
        return {"path": str(self.path), "free_pages_before": free, "page_size": page,
                "bytes_before": before, "bytes_after": after, "freed_bytes": before - after}

    # ---------------------------------------------------------------- jsonl import / export

    EXPORT_KEYS = ("content", "memory_type", "source", "ref", "importance", "event_at", "created_at",
                   "tags", "metadata", "author", "thread", "position", "status", "pinned", "level")

    def export(self, include_deleted: bool = False) -> Iterator[dict[str, Any]]:
        """Every memory as a JSON-ready dict (the ``import jsonl`` format)."""
        where = "" if include_deleted else "WHERE status != 'deleted'"
        for r in self.conn.execute(f"SELECT {MEMORY_COLUMNS} FROM memories {where} ORDER BY id"):
            m = Memory.from_row(r).to_dict()
            out = {k: m[k] for k in self.EXPORT_KEYS}
            if out["ref"] is None:
                # a stable ref makes export → import → import idempotent even for hand-stored memories
                out["ref"] = f"hash:{r['content_hash'][:24]}"
            yield out

    def import_jsonl(
        self, path: Path, batch_size: int = 256, progress: Callable[[int], None] | None = None
    ) -> BatchStats:
        """Import one JSON object per line; validated fully before anything is written."""
        items: list[NewMemory] = []
        allowed = set(self.EXPORT_KEYS) | {"id", "content_hash", "strength", "access_count", "last_accessed_at",
                                           "updated_at", "valid_from", "valid_to"}
        try:
            fh = path.open("r", encoding="utf-8-sig")
        except OSError as exc:
            raise UserError(f"{path}: {exc.strerror}") from exc
        with fh:
            for lineno, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    obj = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise UserError(f"{path}:{lineno}: invalid JSON ({exc.msg})") from exc
                except UnicodeDecodeError as exc:
                    raise UserError(f"{path}:{lineno}: not UTF-8 text") from exc
                if not isinstance(obj, dict):
                    raise UserError(f"{path}:{lineno}: expected a JSON object")
                unknown = set(obj) - allowed
                if unknown:
                    raise UserError(f"{path}:{lineno}: unknown field {sorted(unknown)[0]!r}")
                content = obj.get("content")
                if not isinstance(content, str) or not content.strip():
                    raise UserError(f"{path}:{lineno}: field 'content' is required and must be non-empty text")
                try:
                    event_at = timeparse.parse_when(obj["event_at"]) if obj.get("event_at") else None
                except (timeparse.DateParseError, TypeError) as exc:
                    raise UserError(f"{path}:{lineno}: field 'event_at': {exc}") from exc
                tags = obj.get("tags")
                if tags is not None and not isinstance(tags, (list, str)):
                    raise UserError(f"{path}:{lineno}: field 'tags' must be a list or a string")
                meta = obj.get("metadata") or {}
                if not isinstance(meta, dict):
                    raise UserError(f"{path}:{lineno}: field 'metadata' must be an object")
                item = NewMemory(
                    content=content, memory_type=obj.get("memory_type", "semantic"),
                    source=obj.get("source") or "import", ref=obj.get("ref"),
                    importance=obj.get("importance", 0.5), tags=tags, metadata=meta, event_at=event_at,
                    author=obj.get("author"), thread=obj.get("thread"), position=obj.get("position"),
                    pinned=bool(obj.get("pinned", False)), level=int(obj.get("level", 0) or 0),
                    status=obj.get("status") or "active",
                )
                try:
                    item.created_at = timeparse.from_iso(obj["created_at"]) if obj.get("created_at") else None
                except (ValueError, TypeError) as exc:
                    raise UserError(f"{path}:{lineno}: field 'created_at': not an ISO timestamp") from exc
                if item.ref is None:
                    item.ref = f"hash:{content_hash(content)[:24]}"
                try:
                    self._validate(item)
                except UserError as exc:
                    raise UserError(f"{path}:{lineno}: {exc.message}") from exc
                items.append(item)
        return self.store_many(items, batch_size=batch_size, progress=progress)
