"""The store's foundation: its connection, meta, embedder, and the reads every room shares.

``StoreBase`` holds a store's state (connection, embedder, in-process vector matrices,
keyword index, live set) and the primitive reads the write, recall and maintenance
rooms build on: a memory by id, rows and candidates for many ids, the recall filter as
SQL, kNN and cosines on either vector path. ``memengine.store.MemoryStore`` puts the
rooms together.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

from memengine import signplane, timekind
from memengine.author_filter import author_sql
from memengine.db import connect, db_error, default_db_path, select_in, sqlite3
from memengine.decay import REINFORCE_BOOST  # strength regained on access (decay clock restarts)
from memengine.errors import MemError, ModelMismatch, NotFound, UserError
from memengine.liveset import LiveSet
from memengine.migrations import migrate
from memengine.recall.config import FTS_WEIGHTS
from memengine.records import MEMORY_COLUMNS, MEMORY_TYPES, SHARED_SOURCE_PREFIX, Candidate, Memory
from memengine.timeparse import to_iso
from memengine.vectors import VEC_PARAM, VectorMatrix, as_stored, vec_blob, vectors_from_blobs

if TYPE_CHECKING:
    import numpy as np

    from embedder import Embedder

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
# From this many memories on (0: always), hybrid recall runs the keyword search on a worker
# thread (own read connection) while the query is embedded and the vectors scanned.
PARALLEL_MIN_ROWS = 0
# ``_mem_meta`` key of a model-change reindex under way (memengine/maintenance.py): the model it embeds with.
# Set with the old vectors' deletion, removed when every memory has a new one; while set, recall warns.
REINDEX_KEY = "reindex_to"
# ``_mem_meta`` key set when a memory is written without a vector because the model could not load (degraded
# mode): a later recall with the model back says how many are found by keywords only, until `reindex` (or
# `doctor --fix`) embeds them and removes it.
BARE_KEY = "stored_without_vector"


_P = ParamSpec("_P")
_R = TypeVar("_R")
_S = TypeVar("_S", bound="StoreBase")


def one_size_read(method: Callable[Concatenate[_S, _P], _R]) -> Callable[Concatenate[_S, _P], _R]:
    """Decorator: the store's size (``_vector_count``) is read once for the whole call.

    Nothing inside a recall adds memories; nested calls keep the outer call's reading.
    """

    @functools.wraps(method)
    def wrapper(self: _S, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        if self._size_memo is not None:
            return method(self, *args, **kwargs)
        self._size_memo = self._vector_count()
        try:
            return method(self, *args, **kwargs)
        finally:
            self._size_memo = None
            self._synced.clear()

    return wrapper


def _keep_before_upgrade(conn: Any, pending: list[str]) -> None:
    """The file as an older mem left it, kept before migrating (memengine.backup.before_upgrade; imported only
    on an upgrade: a cold call imports none of the backup machinery)."""
    from memengine.backup import before_upgrade

    before_upgrade(conn, pending)


class StoreBase:
    """State and shared reads of one memory file (see the module docstring)."""

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
            if migrate(self.conn, before_upgrade=_keep_before_upgrade):
                # A connection that ran migrations re-prepared every later statement (SQLite
                # 3.50 / sqlean, from m009 on; the schema cookie does not move): each live
                # store() compiled its INSERT with every trigger program, ~3 ms. A new
                # connection sees the same schema without that state.
                self.conn.close()
                self.conn = connect(self.path)
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
        self._reindex_pending: str | None = None  # REINDEX_KEY as the last model check read it
        self._stored_bare: str | None = None  # BARE_KEY as the last model check read it
        self._fast_start = fast_start
        self._people_cache: tuple[tuple[int, int], tuple[Any, ...], dict[str, str]] | None = None
        self._df_cache: tuple[float, int, dict[tuple[Any, ...], int]] | None = None  # recall/keyword.py's doc_shares
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
        self._live_where = self.filter_sql(None, None, None, None, None, False)[0]  # the filter it answers

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
            from memengine.keyword_index import KeywordIndex  # numpy: only a warm process pays for it

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

    # ---------------------------------------------------------------- meta and embedder

    def meta(self, key: str) -> str | None:
        """A value from ``_mem_meta``."""
        row = self.conn.execute("SELECT value FROM _mem_meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def _set_meta(self, key: str, value: str) -> None:
        self.conn.execute("INSERT OR REPLACE INTO _mem_meta(key, value) VALUES (?, ?)", (key, value))

    def _cache_dir(self) -> Path | None:
        try:
            from memengine.recache import user_cache_folder  # (platformdirs' path, without its import)

            return Path(user_cache_folder())
        except Exception:  # a cache is an optimisation only
            return None

    @property
    def embedder(self) -> Embedder | None:
        """The embedder, or None in degraded (keyword-only) mode."""
        if self._embedder is None and self._embedder_failed is None:
            from embedder import EmbedderError, get_embedder  # optional: commands without vectors never load it

            try:
                self._embedder = get_embedder(self._cache_dir(), fast_start=self._fast_start)
            except EmbedderError as exc:
                self._embedder_failed = str(exc)
        return self._embedder

    def embed_or_none(self, texts: list[str], query: bool = False) -> np.ndarray | None:
        """Vectors of ``texts`` by the store's embedder (model checked against the file), or
        None in degraded (keyword-only) mode. ``query``: the texts are questions, embedded by the
        embedder's ``embed_query`` where it has one (E5 reads "query: …" and "passage: …" apart)."""
        emb = self.embedder
        if emb is None:
            return None
        self._check_model(emb)
        try:
            as_query = getattr(emb, "embed_query", None) if query else None
            return as_query(texts) if as_query is not None else emb.embed(texts)
        except Exception as exc:  # model load happens lazily inside embed()
            from embedder import EmbedderError

            if isinstance(exc, EmbedderError):
                self._embedder_failed = str(exc)
                self._embedder = None
                return None
            raise

    def _check_model(self, emb: Embedder) -> None:
        # (one statement for both keys: a recall reads them every time, at the cost it read one before)
        got = dict(self.conn.execute("SELECT key, value FROM _mem_meta WHERE key IN ('embedding_model', ?, ?)",
                                     (REINDEX_KEY, BARE_KEY)).fetchall())
        stored = got.get("embedding_model")
        self._reindex_pending = got.get(REINDEX_KEY)
        self._stored_bare = got.get(BARE_KEY)
        if stored is not None and stored != emb.model_id:
            raise ModelMismatch(
                f"this file's vectors come from {stored!r}, the embedder is {emb.model_id!r}: "
                "run `mem.py reindex` to re-embed everything with the current model"
            )

    def reindex_note(self) -> str | None:
        """A warning while memories are without a vector: a model-change reindex unfinished (killed midway), or
        memories stored while the model could not load (degraded mode): how many are found by keywords only and
        what to run; None otherwise. Read after ``_check_model``."""
        if not self._reindex_pending and not self._stored_bare:
            return None
        total = int(self.conn.execute("SELECT count(*) FROM memories").fetchone()[0])
        have = int(self.conn.execute("SELECT count(*) FROM vec_memories_rowids").fetchone()[0])
        if self._reindex_pending:
            return (f"{self.path}: a reindex to {self._reindex_pending!r} was interrupted: {max(0, total - have)} of "
                    f"{total} memories have no vector yet and are found by keywords only; run `mem.py reindex` to "
                    "finish it")
        if total <= have:
            return None
        return (f"{self.path}: {total - have} of {total} memories have no vector (stored in degraded mode, without the "
                "embedding model) and are found by keywords only; run `mem.py reindex --missing`")

    def _note_bare(self, n: int) -> None:
        """Inside the write: ``n`` memories went in without a vector. In degraded mode, say so to later recalls
        (BARE_KEY); a store run keyword-only on purpose (no embedder configured) never reaches recall's vectors."""
        if n and self._embedder_failed:
            self.conn.execute("INSERT OR IGNORE INTO _mem_meta(key, value) VALUES (?, ?)",
                              (BARE_KEY, self._embedder_failed[:200]))

    @property
    def degraded_reason(self) -> str | None:
        """Why vectors are unavailable, if they are."""
        return self._embedder_failed

    def _degraded_tag(self) -> str | None:
        return "no-vectors" if self._embedder_failed else None

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

    def _write_vector(self, mid: int, vec: np.ndarray) -> None:
        # vec0 in sqlite-vec 0.1.9 rejects INSERT OR REPLACE: delete, then insert.
        blob = vec_blob(vec)
        self.conn.execute("DELETE FROM vec_memories WHERE memory_id = ?", (mid,))
        self.conn.execute(f"INSERT INTO vec_memories(memory_id, embedding) VALUES (?, {VEC_PARAM})", (mid, blob))
        signplane.put(self.conn, "vec_memories", [(mid, blob)])


    def get(self, mid: int) -> Memory:
        """One memory by id, whatever its status."""
        row = self.conn.execute(f"SELECT {MEMORY_COLUMNS} FROM memories WHERE id = ?", (mid,)).fetchone()
        if row is None:
            raise NotFound(f"no memory with id {mid}")
        return Memory.from_row(row)

    # ---------------------------------------------------------------- recall

    def filter_sql(
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
        history: bool = False,
        as_of: datetime | None = None,
        authors: Iterable[str] | None = None,
    ) -> tuple[str, list[Any]]:
        """The recall filter as SQL over ``alias`` and its arguments: active (or archived too),
        current, raw memories (summaries and partners' copies only when asked), of the given
        types, sources, tags and authors, dated within since..until. Unknown types are a UserError."""
        clauses = [f"{alias}.status IN ('active', 'archived')" if include_archived else f"{alias}.status = 'active'"]
        args: list[Any] = []
        if as_of is not None:
            # what was true then: valid from before it, not yet superseded at it
            clauses.append(f"coalesce({alias}.valid_from, {alias}.created_at) <= ? "
                           f"AND ({alias}.valid_to IS NULL OR {alias}.valid_to > ?)")
            args += [to_iso(as_of), to_iso(as_of)]
            history = True
        if not summaries:
            # consolidation summaries (level >= 1) would crowd raw memories out of the top
            # results (LoCoMo recall@5 -0.012); browse/brief/--summaries reach them
            clauses.append(f"{alias}.level = 0")
        if not shared:
            clauses.append(f"{alias}.source NOT LIKE '{SHARED_SOURCE_PREFIX}%'")
        if not include_archived and not history:
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
        if authors:
            clause, author_args = author_sql(alias, authors)
            clauses.append(clause)
            args += author_args
        for t in tags or ():
            clauses.append(f"(' ' || {alias}.tags || ' ') LIKE ?")
            args.append(f"% {t.lower().lstrip('#')} %")
        for bound, op in ((since, ">="), (until, "<=")):
            if bound is not None:  # each row by its kind of time: a chat's wall clock on the user's (timekind)
                clause, bound_args = timekind.bound_sql(alias, op, bound)
                clauses.append(clause)
                args += bound_args
        return " AND ".join(clauses), args

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
        if self._vector_count() >= signplane.min_rows():
            # a one-shot process at scale: sign-plane shortlist + exact re-rank, not a scan of every vector
            hits = signplane.search(self.conn, table, as_stored(vec), k)
            if hits is not None:
                return hits
        rows = self.conn.execute(
            f"SELECT memory_id, distance FROM {table} WHERE embedding MATCH {VEC_PARAM} AND k = ?",
            (vec_blob(vec), min(k, 4096))
        ).fetchall()
        return [(int(r[0]), 1.0 - float(r[1])) for r in rows if r[1] is not None]

    def _nearest(self, vec: np.ndarray, k: int) -> list[tuple[int, float]]:
        """(memory id, cosine similarity) of the k nearest memory vectors, any status."""
        return self._knn("vec_memories", vec, k)

    def _nearest_contexts(self, vec: np.ndarray, k: int) -> list[tuple[int, float]]:
        """Nearest context vectors (a turn with its neighbours)."""
        return self._knn("vec_contexts", vec, k)

    def vectors(self, ids: list[int], table: str = "vec_memories") -> dict[int, np.ndarray]:
        """The stored vectors (unit float32) of ``ids`` that have one, read from ``table``.

        Read by id through sqlite-vec's own tables (``signplane.stored_vectors``), never
        ``memory_id IN (…)``: vec0 answers an IN of two or more ids by scanning every vector
        (35 ms at 100k, ~0.4 s at 1M), which made an import's context vectors and episodes
        cost more the bigger the store.
        """
        found, blobs = signplane.stored_vectors(self.conn, table, ids)
        mat = vectors_from_blobs(blobs)
        return dict(zip(found, mat))

    def cosines(self, vec: np.ndarray, ids: list[int], table: str = "vec_memories") -> dict[int, float]:
        """Cosine of ``vec`` with the stored vectors of ``ids`` (those that have one)."""
        import numpy as np

        vec = as_stored(vec)
        if self._use_matrix(table):  # at scale, in a warm process, the vectors are in memory already
            return self._matrix(table).cosines(vec, ids)
        vecs = self.vectors(ids, table)
        if not vecs:
            return {}
        keys = list(vecs)
        sims = np.stack([vecs[i] for i in keys]) @ vec
        return {k: float(s) for k, s in zip(keys, sims)}

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
            self._live = LiveSet()
        return self._live if self._live.sync(self.conn, max_id) else None

    def allowed(self, ids: list[int], where: str, args: list[Any], conn: Any = None) -> set[int]:
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

    def _candidates(self, ids: list[int], conn: Any = None) -> dict[int, Candidate]:
        """The few columns fusion reads, for many ids (``conn``: the worker thread's connection)."""
        return {int(r[0]): Candidate(r) for r in select_in(
            conn or self.conn, f"SELECT {Candidate.COLUMNS} FROM memories WHERE id IN ({{ids}})", ids)}

    def rows(self, ids: list[int]) -> dict[int, Memory]:
        """Whole memories by id, whatever their status (ids that do not exist are left out)."""
        return {int(r["id"]): Memory.from_row(r) for r in select_in(
            self.conn, f"SELECT {MEMORY_COLUMNS} FROM memories WHERE id IN ({{ids}})", ids)}

    def _bump_vectors_generation(self) -> None:
        """Tell in-process vector matrices (this and other processes) to reload: vectors changed in place."""
        self._set_meta("vectors_generation", str(int(self.meta("vectors_generation") or 0) + 1))

    def _at_scale(self) -> bool:
        """Whether recall runs its parallel paths (worker thread, in-process keyword index)."""
        return self._vector_count() >= PARALLEL_MIN_ROWS and self.path != Path(":memory:")
