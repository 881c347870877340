"""In-process keyword index: FTS5's bm25 scores, exactly, without FTS5's per-row cost.

Why it exists: FTS5 computes bm25 by visiting every row that matches any query word
and reading that row's sizes, ~1 us a row. At 100k conversational memories one common
word matches tens of thousands of rows (a turn also matches through the context columns
of its neighbours), so the keyword side of a warm recall costs 15-130 ms. The same
scores computed from postings held in numpy arrays cost 2-4 ms (``bench/keyword_index.py``,
``bench/latency.py``).

How it stays exact: the postings are FTS5's own tokens (the ``fts5vocab`` ``instance``
table, so tokenization and porter stemming are FTS5's), the row lengths are FTS5's
(``memories_fts_docsize``), and the score is FTS5's formula (``fts5_aux.c``: k1 1.2,
b 0.75, idf ``ln((N - n + 0.5) / (n + 0.5))`` floored at 1e-6, the row length summed
over all columns, term frequencies weighted per column).

How it stays current: a trigger-fed change log (``_keyword_changes``: one row per
memory inserted, deleted, or whose indexed text changed; migration m003) is read at
every search. Changed rows are re-tokenized by a scratch FTS5 table with the same
tokenizer and kept as a small delta over the snapshot ("base"); their base postings are
masked out. When the delta grows past ``REBUILD_SHARE`` of the rows, a new base is built
on a background thread while the old base plus delta keeps serving. When the log was
trimmed past what this process has seen, when one sync would have to re-tokenize more
than twice that many rows (a bulk import), or when the FTS index was rebuilt
(``keywords_generation`` in ``_mem_meta``), FTS5 serves until the new base is ready.

Cost: building reads every token instance once, on its own thread and connection
(~2.6 s for 100k short notes, ~10-12 s for 100k chat turns with context columns) and holds
6 bytes per (word, row) pair in memory. The build reads term range by term range, each range in a short
read of its own (``_term_groups``): in one read transaction, as it was, no writer could empty its -wal while
the build ran (bench/README.md, serve8). Queries whose words FTS5 would treat as phrases
("don't" is two tokens) return ``None``; the caller then asks FTS5.
"""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from memengine.db import connect, select_in
from memengine.recall.config import KEYWORD_TIE_DECIMALS as TIE_DECIMALS  # ties broken by row id, as on the FTS5 path
from memengine.text import FTS_COLUMNS as COLUMNS
from memengine.text import FTS_TOKENIZER, fts_tokens

K1 = 1.2  # FTS5's bm25 k1 (fts5_aux.c)
B = 0.75  # FTS5's bm25 b
IDF_FLOOR = 1e-6  # FTS5 replaces a non-positive idf (word in over half the rows) with this
REBUILD_SHARE = 0.05  # rebuild the base once this share of rows changed since it was built ...
REBUILD_MIN_ROWS = 2000  # ... and at least this many
# Postings take 6 bytes per (word, row) pair (int32 row, uint16 weight code; ``_coded``), so
# at most 6 bytes per token. The cap is a memory budget, not a row count:
# MEM_KEYWORD_INDEX_MAX_MB if set, else an eighth of this machine's RAM, at most 2 GB (8 GB of
# RAM: 1 GB, ~179M tokens, ~750k chat turns with context columns or ~4.5M short notes). Past it
# FTS5 serves, and recall says so (``degraded_note``): exact same scores, ~1 us per matching
# row instead of in-memory.
BYTES_PER_TOKEN = 6
# Exact top-k pruning (``KeywordIndex._pruned``): from this many postings a query's common words are
# read only for the rows that can still win; PRUNE_EPS keeps rows within this of the cut (float sums
# in another order, and ties to TIE_DECIMALS, must not lose a row the full search would keep): two
# scores that round alike differ by under half a unit of TIE_DECIMALS (5e-10), sums in another order
# by ~1e-16 of the score, so ten units of the last decimal kept (1e-8) are ample. (It was
# 1e-6: when every query word is in over half the rows, idf is IDF_FLOOR and scores are ~5e-6, so
# that margin kept a fifth of the range, thousands of rows for the final lookups: at 100k templated
# notes the keyword search's p95 7.8 -> 6.1 ms, answers identical to the unpruned search.)
PRUNE_MIN_POSTINGS = 50_000
PRUNE_EPS = 10.0 ** -(TIE_DECIMALS - 1)
PRUNE_CHECKS = 2  # tries at pruning before the last word (each reads the rows matched so far)
# Past a cut, a word left is read for the rows kept (_narrowed) while they are at least 1/NARROW_RATIO
# of its postings: below, a binary search per row (_final) costs less than reading every posting.
NARROW_RATIO = 32
MAX_BYTES_CEILING = 2 << 30


def max_index_bytes() -> int:
    """The memory the in-process keyword index may take on this machine (see above)."""
    env = os.environ.get("MEM_KEYWORD_INDEX_MAX_MB", "").strip()
    if env:
        try:
            return max(0, int(float(env) * (1 << 20)))
        except ValueError:
            pass  # a bad value falls back to the default (the cap only ever protects memory)
    try:
        ram = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):  # not on every platform
        ram = 8 << 30
    return min(MAX_BYTES_CEILING, ram // 8)


def token_budget() -> int:
    """Tokens the memory budget holds (``max_index_bytes`` / ``BYTES_PER_TOKEN``)."""
    return max_index_bytes() // BYTES_PER_TOKEN




def _row_length(blob: bytes) -> int:
    """Tokens in one row: the sum of the SQLite varints in a ``memories_fts_docsize`` blob."""
    if max(blob, default=0) < 0x80:  # every column under 128 tokens: one byte each
        return sum(blob)
    total = value = 0
    for byte in blob:
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            total += value
            value = 0
    return total


@dataclass
class _Base:
    """An immutable snapshot of the whole index, as of change-log entry ``seq``."""

    seq: int
    generation: str | None
    terms: dict[str, tuple[int, int]]  # stem -> [lo, hi) into docs / wtf
    docs: np.ndarray  # int32 row ids, grouped by term, ascending within a term
    wtf: np.ndarray  # float64 column-weighted term frequency (float32 rounding of 0.4 moved 6-decimal scores),
    # or, when ``wtf_values`` is set, uint16 codes into it: the same float64s, 2 bytes a posting instead of 8
    wtf_values: np.ndarray | None
    lengths: np.ndarray  # float64 tokens per row (all columns), indexed by row id
    present: np.ndarray  # bool, indexed by row id: the row exists in memories_fts
    nrow: int
    ntokens: float


def _coded(wtf: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """Weighted term frequencies as uint16 codes into their distinct values, when they fit.

    They are sums of a few column weights times small counts, so a store has hundreds to a
    few thousand distinct values: codes take 2 bytes a posting instead of 8, and looking a
    code up gives back the very same float64 (scores stay FTS5's, bit for bit).
    """
    values = np.unique(wtf)
    if len(values) > 1 << 16:
        return wtf, None
    codes = np.empty(len(wtf), dtype=np.uint16)
    step = 1 << 20  # searchsorted's int64 output a chunk at a time: no 8-byte-a-posting peak
    for at in range(0, len(wtf), step):
        codes[at:at + step] = np.searchsorted(values, wtf[at:at + step])
    return codes, values


def _matched_rows(touched: list[np.ndarray], score: np.ndarray, slot: np.ndarray) -> np.ndarray:
    """The distinct rows of ``touched`` (each array: one word's postings) with a non-zero score,
    in no particular order; O(postings), not O(rows in the store) nor a sort.

    ``slot`` (int32, as long as ``score``, any content) is scratch: each posting writes its
    position there, and a row keeps the one posting whose position survived (the last).
    """
    rows = np.concatenate(touched) if len(touched) > 1 else touched[0]
    at = np.arange(len(rows), dtype=np.int32)
    slot[rows] = at
    rows = rows[slot[rows] == at]
    return rows[score[rows] != 0]  # (every matched row scores > 0 unless a column weighs 0)


def _top_postings(touched: list[np.ndarray], score: np.ndarray, k: int) -> np.ndarray:
    """Distinct rows of ``touched`` (each array: one word's postings, a row once in each) whose score
    can reach the ``k`` best: at least the k·len(touched)-th best posting's, less PRUNE_EPS.

    A row has at most one posting per word, so the k·len(touched) best postings hold at least k
    distinct rows: that value is at most the k-th best row's score. Reading scores by posting
    skips the distinct-row pass (``_matched_rows``) over every posting; only the few kept are
    made distinct.
    """
    if len(touched) > 1 and len(touched[0]) >= k:
        # the k-th best score among the first word's rows (distinct) is at most the k-th best of all:
        # only postings at least that high can be kept, so the partition below reads those only
        # (at 1M, nine mid-frequent words, 746k postings: ~12 -> ~4 ms)
        first = score[touched[0]]
        floor = np.partition(first, len(first) - k)[len(first) - k] - PRUNE_EPS
        touched = [t[score[t] >= floor] for t in touched]
    rows = np.concatenate(touched) if len(touched) > 1 else touched[0]
    vals = score[rows]
    want = k * len(touched)
    if want < len(vals):
        floor = np.partition(vals, len(vals) - want)[len(vals) - want]
        rows = rows[vals >= floor - PRUNE_EPS]
    else:
        rows = rows[vals != 0]
    return np.unique(rows)


def _best(hit: np.ndarray, scores: np.ndarray, k: int) -> list[tuple[int, float]]:
    """The ``k`` best (row, score) of the matched rows, best first.

    Ordered as MemoryStore._keyword orders FTS5's rows: by the score rounded to
    TIE_DECIMALS, then row id. Equal scores may differ in the last bit between the
    two (summation order), and templated text has hundreds of tied rows at the cut.
    """
    key = np.round(scores, TIE_DECIMALS)
    if len(hit) > k:
        cut = -np.partition(-key, k - 1)[k - 1]
        keep = key >= cut
        hit, key, scores = hit[keep], key[keep], scores[keep]
    order = np.lexsort((hit, -key))[:k]
    return [(int(r), float(s)) for r, s in zip(hit[order], scores[order])]


class IndexTooLarge(Exception):
    """The store has more tokens than the memory budget holds (``token_budget``): no in-process index."""


READ_SECONDS = 0.05  # one read of the build's terms stops after this long (then another read goes on)


def _term_groups(conn: Any, col_code: str, size: int) -> Iterator[tuple[str, str]]:
    """(term, "row*8+column" codes) of every term of FTS5's index in term order, rows under ``size`` only.

    Read in short reads, each ended after ``READ_SECONDS`` (and the term it is in: a term's rows cannot be
    split) and read whole before its terms are handed out; the next goes on after the last term read. So no
    read snapshot is held for the whole build (seconds to a minute at 100k), during which no writer could
    empty its log (memengine/walbound.py). Rows inserted after the build's position (``size`` and up) are
    left out: the first sync adds them from the change log, as it re-reads every row changed after that
    position, whatever read saw which state of it (``KeywordIndex._apply`` masks their postings).
    """
    import time

    sql = (f"SELECT term, group_concat(doc * 8 + {col_code}) FROM temp.kw_instances "
           f"WHERE term > ? AND doc < {int(size)} GROUP BY term")
    last = ""
    while True:
        t0 = time.perf_counter()
        cur = conn.execute(sql, (last,))  # (terms in order: fts5vocab walks its index, no sort)
        part: list[Any] = []
        try:
            while rows := cur.fetchmany(16):
                part += rows
                if time.perf_counter() - t0 > READ_SECONDS:
                    break
        finally:
            cur.close()  # the statement reset: this read's snapshot ends here
        yield from ((str(t), c) for t, c in part)
        if not rows:
            return
        last = str(part[-1][0])


def _build_base(path: Any, weights: Sequence[float], cancel: threading.Event,
                max_tokens: int | None = None) -> _Base | None:
    """Read FTS5's tokens into a :class:`_Base` (None if cancelled). Runs on its own connection.

    The log position, the generation and the row sizes come from one short read; the tokens then term range
    by term range (:func:`_term_groups`): a row changed meanwhile is in the change log after that position,
    so the first sync re-reads it and masks what the ranges saw of it.
    """
    conn = connect(path)
    try:
        conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.kw_instances "
                     "USING fts5vocab(main, memories_fts, instance)")
        colw = np.zeros(8, dtype=np.float64)
        colw[: len(weights)] = weights
        col_code = "CASE col " + " ".join(f"WHEN '{c}' THEN {i}" for i, c in enumerate(COLUMNS)) + " END"
        conn.execute("BEGIN")  # one read snapshot: the log position and the sizes agree
        try:
            seq = int(conn.execute("SELECT coalesce(max(seq), 0) FROM _keyword_changes").fetchone()[0])
            row = conn.execute("SELECT value FROM _mem_meta WHERE key = 'keywords_generation'").fetchone()
            generation = row[0] if row else None
            sizes = conn.execute("SELECT id, sz FROM memories_fts_docsize").fetchall()
        finally:
            conn.execute("COMMIT")
        size = max((r[0] for r in sizes), default=0) + 1
        lengths = np.zeros(size, dtype=np.float64)
        present = np.zeros(size, dtype=bool)
        for rid, blob in sizes:
            lengths[rid] = _row_length(blob)
            present[rid] = True
        cap = token_budget() if max_tokens is None else max_tokens
        if lengths.sum() > cap:
            need = int(lengths.sum()) * BYTES_PER_TOKEN >> 20
            raise IndexTooLarge(f"{int(lengths.sum()):,} tokens (~{need:,} MB of postings) > {cap:,} "
                                f"(~{cap * BYTES_PER_TOKEN >> 20:,} MB budget, MEM_KEYWORD_INDEX_MAX_MB): "
                                "FTS5 serves this store")
        terms: dict[str, tuple[int, int]] = {}
        doc_parts: list[np.ndarray] = []
        wtf_parts: list[np.ndarray] = []
        at = 0
        # One string per term of "row*8+column" codes: SQLite walks the index in C
        # and numpy parses the string in C; ~25x faster than a Python row per token.
        for term, codes in _term_groups(conn, col_code, size):
            if cancel.is_set():
                return None
            code = np.fromstring(codes, dtype=np.int64, sep=",")
            docs = code >> 3
            if len(docs) > 1 and np.any(docs[1:] < docs[:-1]):
                order = np.argsort(docs, kind="stable")
                code, docs = code[order], docs[order]
            starts = np.flatnonzero(np.r_[True, docs[1:] != docs[:-1]])
            doc_parts.append(docs[starts].astype(np.int32))
            wtf_parts.append(np.add.reduceat(colw[code & 7], starts))
            terms[term] = (at, at + len(starts))
            at += len(starts)
        wtf, values = _coded(np.concatenate(wtf_parts) if wtf_parts else np.zeros(0, dtype=np.float64))
        if values is None and len(wtf) * 12 > cap * BYTES_PER_TOKEN:  # codes did not fit: 12 bytes a posting
            raise IndexTooLarge(f"{len(wtf):,} postings at 12 bytes > the {cap * BYTES_PER_TOKEN >> 20:,} MB budget "
                                "(MEM_KEYWORD_INDEX_MAX_MB): FTS5 serves this store")
        return _Base(
            seq=seq, generation=generation, terms=terms,
            docs=np.concatenate(doc_parts) if doc_parts else np.zeros(0, dtype=np.int32),
            wtf=wtf, wtf_values=values,
            lengths=lengths, present=present, nrow=len(sizes), ntokens=float(lengths.sum()))
    finally:
        conn.close()


class KeywordIndex:
    """bm25 over FTS5's tokens in process memory; see the module docstring.

    ``start()`` builds the first base in the background; ``search`` returns ``None``
    until it is ready (and for queries it cannot answer exactly), so callers fall back
    to FTS5. Thread-safe: one lock around searches and delta updates.
    """

    def __init__(self, path: Any, weights: Sequence[float], max_tokens: int | None = None) -> None:
        self.path = path
        self.weights = tuple(weights)
        self.max_tokens = max_tokens
        self._lock = threading.Lock()
        self._cancel = threading.Event()
        self._builder: threading.Thread | None = None
        self._next: _Base | None = None  # a finished build, adopted at the next sync
        self._base: _Base | None = None
        self._stems: dict[str, tuple[str, ...]] = {}
        self.build_error: str | None = None
        self.builds = 0

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> None:
        """Build a new base on a background thread (no-op while one is being built)."""
        if self._builder is not None and self._builder.is_alive():
            return

        def run() -> None:
            try:
                base = _build_base(self.path, self.weights, self._cancel, self.max_tokens)
            except Exception as exc:  # a broken index must not break recall: FTS5 serves
                self.build_error = f"{type(exc).__name__}: {exc}"
                return
            if base is not None:
                self._next = base

        # daemon: a process that exits mid-build must not wait for it (close() cancels)
        self._builder = threading.Thread(target=run, name="mem-keyword-index", daemon=True)
        self._builder.start()

    @property
    def ready(self) -> bool:
        """A base is built (adopted or waiting to be): searches will be answered."""
        return self._base is not None or self._next is not None

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for a running build; True when a base is ready to serve."""
        if self._builder is not None:
            self._builder.join(timeout)
        return self.ready

    def close(self) -> None:
        """Stop a running build (checked between terms) and wait for it briefly."""
        self._cancel.set()
        if self._builder is not None:
            self._builder.join(5.0)

    # ------------------------------------------------------------------ keeping current

    def _adopt(self, base: _Base) -> None:
        self._base = base
        self._seq = base.seq
        self._lengths = base.lengths.copy()
        self._present = base.present.copy()
        self._stale = np.zeros(len(base.lengths), dtype=bool)
        self._any_stale = False
        self._nrow = base.nrow
        self._ntokens = base.ntokens
        self._delta_docs: dict[int, dict[str, float]] = {}
        self._delta_terms: dict[str, dict[int, float]] = {}
        self._norm_cache: np.ndarray | None = None
        self._score = np.zeros(len(base.lengths), dtype=np.float64)  # all zero between searches
        self._slot = np.zeros(len(base.lengths), dtype=np.int32)  # scratch for _matched_rows
        self._kept = np.zeros(len(base.lengths), dtype=bool)  # all False between searches (_narrowed's rows)
        self._bounds: dict[str, tuple[float, float]] = {}  # stem -> (largest tf part of its base postings, avgdl then)
        self._counts: dict[str, int] = {}  # stem -> rows matching it now (stale rows out, delta in)
        self.builds += 1

    def _norm(self) -> np.ndarray:
        """bm25's length normalisation per row, K1·(1 − B + B·len/avgdl); kept until rows change."""
        if self._norm_cache is None or len(self._norm_cache) != len(self._lengths):
            avgdl = self._ntokens / max(1, self._nrow)
            self._norm_cache = K1 * (1 - B + B * self._lengths / max(avgdl, 1e-9))
        return self._norm_cache

    def _grow(self, size: int) -> None:
        if size > len(self._lengths):
            extra = max(size, len(self._lengths) + len(self._lengths) // 4) - len(self._lengths)
            self._lengths = np.concatenate([self._lengths, np.zeros(extra)])
            self._present = np.concatenate([self._present, np.zeros(extra, dtype=bool)])
            self._stale = np.concatenate([self._stale, np.zeros(extra, dtype=bool)])
            self._score = np.zeros(len(self._lengths), dtype=np.float64)
            self._slot = np.zeros(len(self._lengths), dtype=np.int32)
            self._kept = np.zeros(len(self._lengths), dtype=bool)

    def _sync(self, conn: Any) -> bool:
        """Adopt a finished build and apply logged changes; True if a base can serve."""
        if self._next is not None:
            base, self._next = self._next, None
            self._adopt(base)
        if self._base is None:
            return False
        row = conn.execute("SELECT value FROM _mem_meta WHERE key = 'keywords_generation'").fetchone()
        if (row[0] if row else None) != self._base.generation:
            self._base = None  # the FTS index was rebuilt under us: nothing here can be trusted
            self.start()
            return False
        log = conn.execute("SELECT seq, memory_id FROM _keyword_changes WHERE seq > ? ORDER BY seq",
                           (self._seq,)).fetchall()
        if not log:
            return True
        changed = {int(r[1]) for r in log}
        limit = max(REBUILD_MIN_ROWS, REBUILD_SHARE * self._nrow)
        # trimmed past what we saw (changes are lost to us), or a bulk write (an import) too
        # large to re-tokenize inside a recall: FTS5 serves until a new base is built
        if int(log[0][0]) != self._seq + 1 or len(changed | self._delta_docs.keys()) > 2 * limit:
            self._base = None
            self.start()
            return False
        self._apply(conn, changed)
        self._norm_cache = None  # lengths and the average changed
        self._counts = {}  # stale rows and the delta changed (the bounds hold: see _bound)
        self._seq = int(log[-1][0])
        if len(self._delta_docs) > limit:
            self.start()  # keep serving base + delta until the new base is adopted
        return True

    def _apply(self, conn: Any, ids: set[int]) -> None:
        """Re-read the indexed text of ``ids`` and replace their postings by a delta."""
        self._grow(max(ids) + 1)
        for rid in ids:
            for term in self._delta_docs.pop(rid, {}):
                self._delta_terms[term].pop(rid, None)
            if self._present[rid]:
                self._nrow -= 1
                self._ntokens -= self._lengths[rid]
            self._present[rid] = False
            self._lengths[rid] = 0.0
            if self._base is not None and rid < len(self._base.lengths):
                self._stale[rid] = self._any_stale = True
        conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.kw_scratch USING fts5({', '.join(COLUMNS)}, "
                     f"tokenize='{FTS_TOKENIZER}')")
        conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.kw_scratch_inst USING fts5vocab(temp, kw_scratch, instance)")
        conn.execute("DELETE FROM temp.kw_scratch")
        cols = ", ".join(COLUMNS)
        for row in select_in(conn, f"SELECT id, {cols} FROM memories_text WHERE id IN ({{ids}})", sorted(ids)):
            conn.execute(f"INSERT INTO temp.kw_scratch(rowid, {cols}) VALUES (?, ?, ?, ?, ?, ?)", tuple(row))
            self._present[row[0]] = True
            self._nrow += 1
        colw = dict(zip(COLUMNS, self.weights))
        for term, doc, col in conn.execute("SELECT term, doc, col FROM temp.kw_scratch_inst"):
            terms = self._delta_docs.setdefault(doc, {})
            terms[term] = terms.get(term, 0.0) + colw[col]
            self._lengths[doc] += 1.0
            self._ntokens += 1.0
        conn.execute("DELETE FROM temp.kw_scratch")
        for rid in ids:
            for term, w in self._delta_docs.get(rid, {}).items():
                self._delta_terms.setdefault(term, {})[rid] = w

    # ------------------------------------------------------------------ searching

    def _stem(self, conn: Any, words: Sequence[str]) -> list[tuple[str, ...]]:
        """Each word as FTS5 tokenizes it (``memengine.text.fts_tokens``), cached per process."""
        todo = [w for w in dict.fromkeys(words) if w not in self._stems]
        if todo:
            self._stems.update(zip(todo, fts_tokens(conn, todo)))
        return [self._stems[w] for w in words]

    def _postings(self, base: _Base, stem: str) -> tuple[np.ndarray, np.ndarray]:
        """(rows, weighted term frequencies) of one word now: the base's postings less its stale
        rows, then the delta's (a row is in one or the other)."""
        lo, hi = base.terms.get(stem, (0, 0))
        docs, wtf = base.docs[lo:hi], base.wtf[lo:hi]
        if base.wtf_values is not None:
            wtf = base.wtf_values[wtf]
        if self._any_stale and len(docs):
            keep = ~self._stale[docs]
            docs, wtf = docs[keep], wtf[keep]
        delta = self._delta_terms.get(stem)
        if delta:
            docs = np.concatenate([docs, np.fromiter(delta.keys(), dtype=np.int32, count=len(delta))])
            wtf = np.concatenate([wtf, np.fromiter(delta.values(), dtype=np.float64, count=len(delta))])
        return docs, wtf

    def _idf(self, n: int) -> float:
        """FTS5's idf of a word in ``n`` rows (floored: a word in over half the rows weighs IDF_FLOOR)."""
        idf = math.log((self._nrow - n + 0.5) / (n + 0.5))
        return idf if idf > 0 else IDF_FLOOR

    def _count(self, base: _Base, stem: str) -> int:
        """Rows matching one word now (its ``_postings``' length), without reading them when nothing changed."""
        got = self._counts.get(stem)
        if got is None:
            lo, hi = base.terms.get(stem, (0, 0))
            got = hi - lo
            if self._any_stale and got:
                got -= int(np.count_nonzero(self._stale[base.docs[lo:hi]]))
            got = self._counts[stem] = got + len(self._delta_terms.get(stem, ()))
        return got

    def _bound(self, base: _Base, stem: str, idf: float) -> float:
        """An upper bound on one word's bm25 contribution to any row (idf × the largest tf part).

        The base postings' largest ``wtf·(K1+1) / (wtf + norm)`` is read once per word and kept:
        those rows' lengths never change (an edited row leaves the base: stale), only the average
        length does, and norm = K1·(1 − B + B·len/avgdl) shrinks at most by avgdl_then/avgdl_now
        when the average grows, so the kept value times max(1, avgdl_now/avgdl_then) still bounds.
        Delta postings are few: read exactly.
        """
        avgdl = self._ntokens / max(1, self._nrow)
        kept = self._bounds.get(stem)
        if kept is None:
            lo, hi = base.terms.get(stem, (0, 0))
            tf = 0.0
            if hi > lo:
                wtf = base.wtf[lo:hi]
                wtf = base.wtf_values[wtf] if base.wtf_values is not None else wtf
                tf = float(np.max(wtf * (K1 + 1) / (wtf + self._norm()[base.docs[lo:hi]])))
            kept = self._bounds[stem] = (tf, avgdl)
        tf = kept[0] * max(1.0, avgdl / max(kept[1], 1e-9))
        delta = self._delta_terms.get(stem)
        if delta:
            docs = np.fromiter(delta.keys(), dtype=np.int32, count=len(delta))
            wtf = np.fromiter(delta.values(), dtype=np.float64, count=len(delta))
            tf = max(tf, float(np.max(wtf * (K1 + 1) / (wtf + self._norm()[docs]))))
        return idf * tf * (1 + 1e-9)

    def _pruned(self, base: _Base, stems: list[str], k: int) -> list[tuple[int, float]] | None:
        """The search's exact top ``k``, reading the common words only where a row can still win
        (MaxScore); None below PRUNE_MIN_POSTINGS (the caller's plain loop is as fast there).

        Words are read rarest first into the score buffer. After a word, the rows matched so far
        (C) have a partial score s, and the words left can add at most U = Σ bound(word) to any
        row. Once U is below θ, the k-th best partial score in C (a lower bound on the k-th best
        final score), no row outside C can make the top k, nor can a row of C with s + U < θ.
        Where that never happens, every word is read (U = 0) and the same cut keeps the top k
        and its ties. The rows kept get their final scores from lookups into each word's
        postings in the query's word order: the additions of the full search, so the same
        doubles (the partial sums, added in another order, may differ in the last bits: the
        PRUNE_EPS margin keeps every row whose score could reach the cut to TIE_DECIMALS).
        """
        counts = {s: self._count(base, s) for s in stems}
        if sum(counts[s] for s in stems) < PRUNE_MIN_POSTINGS:
            return None
        idfs = {s: self._idf(n) for s, n in counts.items() if n}
        order = sorted((s for s in dict.fromkeys(stems) if counts[s]), key=lambda s: (counts[s], s))
        if len(order) < 2:
            return None  # one word: every row it matches is a candidate anyway
        uses = {s: stems.count(s) for s in order}
        ub = [self._bound(base, s, idfs[s]) * uses[s] for s in order]
        rest = [sum(ub[j + 1:]) for j in range(len(order))]
        # θ is at most the best partial score, at most Σ bound(words read): no check pays before
        reach = next((j for j in range(len(order)) if rest[j] < sum(ub[:j + 1])), len(order) - 1)
        score, norm = self._score, self._norm()
        touched: list[np.ndarray] = []
        checks = 0
        try:
            for j, stem in enumerate(order):
                docs, wtf = self._postings(base, stem)
                part = idfs[stem] * (wtf * (K1 + 1)) / (wtf + norm[docs])
                for _ in range(uses[stem]):
                    score[docs] += part
                touched.append(docs)
                last = j == len(order) - 1
                if last:  # every word read: the k best partial scores are the k best scores
                    return self._final(base, stems, idfs, _top_postings(touched, score, k), k)
                if j < reach or checks >= PRUNE_CHECKS:
                    continue
                hit = _matched_rows(touched, score, self._slot)
                if len(hit) <= k:
                    continue
                checks += 1
                partial = score[hit]
                theta = float(np.partition(partial, len(hit) - k)[len(hit) - k])
                if rest[j] < theta - PRUNE_EPS:
                    cand = hit[partial + rest[j] >= theta - PRUNE_EPS]
                    left = [(s, idfs[s], uses[s], rest[i]) for i, s in enumerate(order) if i > j]
                    return self._final(base, stems, idfs, self._narrowed(base, left, cand, k, touched), k)
            return []
        finally:
            for docs in touched:
                score[docs] = 0.0

    def _narrowed(self, base: _Base, left: list[tuple[str, float, int, float]], cand: np.ndarray, k: int,
                  touched: list[np.ndarray]) -> np.ndarray:
        """The rows of ``cand`` that can still make the top ``k``, the words ``left`` (stem, idf, uses,
        bound of the words after it) read for those rows only, rarest first (MaxScore continued).

        After each word the partial scores of the candidates grow and the bound of the words left
        shrinks: θ, the k-th best partial score among them, rises, and a row whose partial score
        plus that bound is below θ (less PRUNE_EPS) cannot reach the k-th best final score. At 1M
        a cut at the first check kept 60-145k rows for the final lookups (15-24 ms of binary
        searches); reading the last words for the kept rows only leaves a few hundred.
        """
        score, norm, kept = self._score, self._norm(), self._kept
        marked = cand
        kept[marked] = True
        try:
            for stem, idf, uses, after in left:
                if len(cand) <= k or len(cand) * NARROW_RATIO < self._count(base, stem):
                    break  # few rows left: the final lookups (binary searches) are cheaper than a read
                docs, wtf = self._postings(base, stem)
                sel = kept[docs]
                docs, wtf = docs[sel], wtf[sel]
                part = idf * (wtf * (K1 + 1)) / (wtf + norm[docs])
                for _ in range(uses):
                    score[docs] += part
                touched.append(docs)
                partial = score[cand]
                theta = float(np.partition(partial, len(cand) - k)[len(cand) - k])
                keep = partial + after >= theta - PRUNE_EPS
                kept[cand[~keep]] = False
                cand = cand[keep]
            return cand
        finally:
            kept[marked] = False

    def _final(self, base: _Base, stems: list[str], idfs: dict[str, float], rows: np.ndarray,
               k: int) -> list[tuple[int, float]]:
        """The final scores of ``rows`` (each word's postings looked up), then the ``k`` best."""
        rows = np.sort(rows)
        norm = self._norm()
        final = np.zeros(len(rows), dtype=np.float64)
        for stem in stems:  # the query's order, a repeated word twice: as the full search adds
            if stem not in idfs:
                continue
            idf = idfs[stem]
            lo, hi = base.terms.get(stem, (0, 0))
            if hi > lo:
                docs = base.docs[lo:hi]
                pos = np.minimum(np.searchsorted(docs, rows), hi - lo - 1)
                found = docs[pos] == rows
                if self._any_stale:
                    found &= ~self._stale[rows]
                at = np.flatnonzero(found)
                wtf = base.wtf[lo:hi][pos[at]]
                wtf = base.wtf_values[wtf] if base.wtf_values is not None else wtf
                final[at] += idf * (wtf * (K1 + 1)) / (wtf + norm[rows[at]])
            delta = self._delta_terms.get(stem)
            if delta:
                ddocs = np.fromiter(delta.keys(), dtype=np.int32, count=len(delta))
                dwtf = np.fromiter(delta.values(), dtype=np.float64, count=len(delta))
                pos = np.minimum(np.searchsorted(rows, ddocs), len(rows) - 1)
                found = rows[pos] == ddocs
                at, ddocs, dwtf = pos[found], ddocs[found], dwtf[found]
                final[at] += idf * (dwtf * (K1 + 1)) / (dwtf + norm[ddocs])
        keep = final != 0  # (a row scores 0 only through a column weighing 0: not a match, as in the full search)
        return _best(rows[keep], final[keep], k)

    def _ready(self, conn: Any, words: Sequence[str]) -> tuple[_Base, list[tuple[str, ...]]] | None:
        """The synced base and the FTS5 stems of ``words``, or None when this index cannot answer exactly (not built
        yet, or a word FTS5 would run as a phrase: more than one stem). Called under ``self._lock``."""
        if not self._sync(conn):
            return None
        stems = self._stem(conn, words)
        if any(len(s) != 1 for s in stems):
            return None
        base = self._base
        assert base is not None
        return base, stems

    def search(self, conn: Any, words: Sequence[str], k: int) -> list[tuple[int, float]] | None:
        """(row id, bm25) of the ``k`` best rows for the OR of ``words``, best first.

        ``None`` when the index cannot answer exactly (not built yet, or a word FTS5 would
        run as a phrase); the caller then asks FTS5. Scores are FTS5's ``-bm25()``.
        """
        with self._lock:
            ready = self._ready(conn, words)
            if ready is None:
                return None
            base, stems = ready
            # One buffer kept across searches and reset only where a search wrote, and the
            # matched rows taken from the postings: a fresh N-element array and a scan of it
            # cost O(rows in the store) a query (~3 ms at 1M), this O(postings read). Same
            # additions in the same order as into a fresh array: the same doubles.
            pruned = self._pruned(base, [s for (s,) in stems], k)
            if pruned is not None:
                return pruned
            score = self._score
            norm = self._norm()
            touched: list[np.ndarray] = []
            for (stem,) in stems:
                docs, wtf = self._postings(base, stem)
                n = len(docs)
                if not n:
                    continue
                idf = self._idf(n)
                # FTS5's own order of operations (fts5Bm25Function), so doubles round alike
                score[docs] += idf * (wtf * (K1 + 1)) / (wtf + norm[docs])
                touched.append(docs)
            if not touched:
                return []
            try:
                hit = _matched_rows(touched, score, self._slot)
                scores = score[hit]
            finally:
                for docs in touched:
                    score[docs] = 0.0
            return _best(hit, scores, k)

    def holding(self, conn: Any, words: Sequence[str], ids: Sequence[int]) -> set[int] | None:
        """The rows of ``ids`` that hold any of ``words`` in any column, as FTS5's MATCH of their quoted OR finds
        them (users33: recall's state_words asked FTS5, whose OR of a question's common words read their whole
        doclists, ~25 ms at 100k; here a lookup in the postings). ``None`` when the index cannot answer exactly
        (not built yet, or a word FTS5 would run as a phrase)."""
        with self._lock:
            ready = self._ready(conn, words)
            if ready is None:
                return None
            base, stems = ready
            want = np.fromiter(ids, dtype=np.int64, count=len(ids))
            hit = np.zeros(len(want), dtype=bool)
            for (stem,) in dict.fromkeys(stems):
                docs, _ = self._postings(base, stem)
                if len(docs):
                    hit |= np.isin(want, docs, kind="table")
            return set(want[hit].tolist())

    def degraded_note(self) -> str | None:
        """Why FTS5 serves instead of this index, and what it costs; None while all is well."""
        if self.build_error is None or self.ready:
            return None
        return (f"keyword side on FTS5 (slower: ~1 us per matching row, 15-130 ms a query at 100k turns): "
                f"in-process index not built: {self.build_error}")

    def stats(self) -> dict[str, Any]:
        """Size and state, for ``bench/`` and diagnostics."""
        base = self._base
        return {
            "ready": base is not None,
            "builds": self.builds,
            "rows": getattr(self, "_nrow", 0),
            "terms": len(base.terms) if base else 0,
            "postings": len(base.docs) if base else 0,
            "bytes": int(base.docs.nbytes + base.wtf.nbytes + base.lengths.nbytes
                         + (base.wtf_values.nbytes if base.wtf_values is not None else 0)) if base else 0,
            "delta_rows": len(getattr(self, "_delta_docs", {})),
            "build_error": self.build_error,
            "path": "in-process" if base is not None else "fts5",
            "max_bytes": max_index_bytes() if self.max_tokens is None else self.max_tokens * BYTES_PER_TOKEN,
        }
