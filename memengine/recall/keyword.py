"""The keyword retriever: FTS5's bm25 (or the in-process copy of it), filtered by status;
term document frequencies for pruning frequent words."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from memengine.db import sqlite3
from memengine.errors import UserError
from memengine.recall.config import FTS_WEIGHTS, KEYWORD_TIE_DECIMALS
from memengine.storebase import StoreBase
from memengine.text import FTS_COLUMNS, fts_tokens, quote_fts


class KeywordSearch(StoreBase):
    """The keyword room of recall (a part of :class:`memengine.store.MemoryStore`)."""

    def _keyword_async(self, *args: Any, **kwargs: Any) -> Any:
        """Run ``_keyword`` on the worker thread with its own read connection; returns a Future.

        SQLite, onnxruntime and numpy all release the GIL, so FTS5's bm25 (the larger half
        of a recall at scale) runs while the query is embedded and the matrix scanned:
        on two cores a recall then costs the slower side, not the sum. WAL lets the
        second connection read while the first one writes.
        """
        pool, conn = self._worker()
        return pool.submit(self._keyword, *args, conn=conn, **kwargs)

    def _keyword_prefetch(self, match: str, where: str, args: list[Any], limit: int,
                          weights: tuple[float, ...] = FTS_WEIGHTS, words: list[str] | None = None,
                          rows: dict[int, Any] | None = None) -> Callable[[], list[tuple[int, float]]]:
        """``_keyword`` in two halves: the in-process index's search starts now on the worker thread
        (its own connection), and the function returned, called later on this thread, filters its
        rows as ``_keyword`` does (anything else: ``_keyword`` itself), so the result is the same.

        A warm recall embeds its query meanwhile (onnxruntime releases the GIL): the keyword side
        leaves the critical path. The filter stays here: the live set belongs to this thread.
        ``rows`` (given: filled by the worker too) gets the fusion columns of the ``limit`` best rows
        (``_candidates``), read there while the query is embedded; the ids filtered out are extra.
        """
        index = self._keyword_index
        want = limit * 2
        future = None
        if index is not None and words and weights == FTS_WEIGHTS and not self.conn.in_transaction:
            pool, conn = self._worker()

            def search() -> list[tuple[int, float]] | None:
                ranked = index.search(conn, words, want)
                if ranked and rows is not None:
                    rows.update(self._candidates([r[0] for r in ranked[:limit]], conn))
                return ranked
            future = pool.submit(search)

        def finish() -> list[tuple[int, float]]:
            ranked = future.result() if future is not None else None
            if ranked is not None:
                allowed = self.allowed([r[0] for r in ranked], where, args)
                hits = [r for r in ranked if r[0] in allowed]
                if len(hits) >= limit or len(ranked) < want:
                    return hits[:limit]
            return self._keyword(match, where, args, limit, weights, words=words)  # (widens, or FTS5)
        return finish

    def _holding(self, words: list[str], ids: list[int]) -> set[int] | None:
        """The ``ids`` holding any of ``words`` in any indexed column, from the warm in-process keyword index; None
        where FTS5 must answer (no index, or inside a transaction: the index would take in uncommitted rows)."""
        index = self._keyword_index
        if index is None or self.conn.in_transaction:
            return None
        return index.holding(self.conn, words, ids)

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
        want = limit * 2
        while True:
            ranked = index.search(conn, words, want) if index is not None else None
            if ranked is None:
                index = None  # not built yet, or a word FTS5 runs as a phrase: FTS5 answers
                try:
                    ranked = fts_ranked(conn, match, w, want)
                except sqlite3.OperationalError as exc:
                    raise UserError(f"bad FTS5 query {match!r}: {exc}") from exc
            allowed = self.allowed([r[0] for r in ranked], where, args, conn)
            hits = [r for r in ranked if r[0] in allowed]
            if len(hits) >= limit or len(ranked) < want:
                return hits[:limit]
            want *= 4

    def doc_shares(self, terms: list[str], column: str | None = None, upto: int | None = None) -> dict[str, float]:
        """Share of memories whose indexed text contains each query term (0..1).

        Read from FTS5's own vocabulary (``fts5vocab``, an index lookup per term); terms are
        stemmed by a scratch FTS5 table with the same tokenizer. A term the tokenizer splits
        ("a-b") counts as its rarest part. Cached for 30 s like :meth:`known_people`.

        ``upto``: only shares of at most ``upto`` memories are needed exactly; a term in more reads
        as in ``upto + 1`` or more (never fewer), so its share still compares above ``upto / n``.
        A one-token term is then counted by FTS5 itself, stopping after ``upto + 1`` rows:
        fts5vocab counts a term by reading its whole doclist (and, for a column, every position
        list), ~1.5-5 ms for a word in most of 100k turns, which a recall's rare-word tests paid
        for each common word of the question (bench/README.md, serve12).
        """
        n, cache = self._df_state()
        todo = [t for t in terms if (t, column) not in cache and (t, column, upto) not in cache]
        if todo:
            c = self.conn
            for t, stems in zip(todo, fts_tokens(c, todo)):
                if upto is not None and len(stems) == 1:
                    # (the word itself: MATCH tokenizes it into the one stem above; a quoted stem would be
                    # stemmed again, and porter is not idempotent)
                    match = ("{" + column + "} : " if column else "") + quote_fts(t)
                    got = int(c.execute("SELECT count(*) FROM (SELECT 1 FROM memories_fts WHERE memories_fts "
                                        "MATCH ? LIMIT ?)", (match, upto + 1)).fetchone()[0])
                    if got > upto:
                        cache[(t, column, upto)] = got  # (a bound: kept apart from the exact counts)
                        continue
                    cache[(t, column)] = got
                    continue
                counts = []
                for stem in stems:
                    if column is None:
                        row = c.execute("SELECT doc FROM temp.mem_vocab_row WHERE term = ?", (stem,)).fetchone()
                    else:
                        row = c.execute("SELECT doc FROM temp.mem_vocab_col WHERE term = ? AND col = ?",
                                        (stem, column)).fetchone()
                    counts.append(int(row[0]) if row else 0)
                cache[(t, column)] = min(counts) if counts else 0
        return {t: cache.get((t, column), cache.get((t, column, upto), 0)) / max(1, n) for t in terms}

    def _df_state(self) -> tuple[int, dict[tuple[Any, ...], int]]:
        """(active memories, term counts) of :meth:`doc_shares`' cache, renewed every 30 s."""
        now = time.monotonic()
        if not self._df_cache or now - self._df_cache[0] >= 30:
            c = self.conn
            c.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.mem_vocab_row USING fts5vocab(main, memories_fts, row)")
            c.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.mem_vocab_col USING fts5vocab(main, memories_fts, col)")
            # (m008's counts, kept exact by triggers: count(*) over 100k rows' status index took 5-130 ms, once in
            # 30 s, in whichever recall renewed the cache)
            n = int(c.execute("SELECT coalesce(sum(n), 0) FROM _mem_counts WHERE what = 'memories' "
                              "AND status = 'active'").fetchone()[0])
            self._df_cache = (now, n, {})
        return self._df_cache[1], self._df_cache[2]


# Rows fetched past the cut by fts_ranked: a group of scores equal to KEYWORD_TIE_DECIMALS that
# straddles the cut is then usually whole (longer groups fall back to rounding every match).
TIE_SLACK = 64


def fts_ranked(conn: Any, match: str, weights: str, want: int) -> list[tuple[int, float]]:
    """(rowid, score) of the ``want`` best FTS5 matches: by bm25 rounded to KEYWORD_TIE_DECIMALS, ties
    by the lower rowid (as the in-process index ranks), scores unrounded. SQLite's ``round(r, 9)``
    prints and parses each value (half of the query's CPU at 100k rows, ~40 ms for 60k matches):
    here only the best ``want + TIE_SLACK`` by plain bm25 are rounded, by SQLite itself. Rounding never
    reverses an order, so the result is exactly the old ``ORDER BY round(r, 9), rowid LIMIT want``
    over every match whenever the fetched rows hold every row rounding like the one at the cut (the
    last fetched rounds higher); otherwise (a tie group longer than the slack) that query runs as it was.
    """
    fetch = want + TIE_SLACK
    inner = f"SELECT rowid, bm25(memories_fts, {weights}) AS r FROM memories_fts WHERE memories_fts MATCH ?"
    rows = conn.execute(f"SELECT rowid, r, round(r, {KEYWORD_TIE_DECIMALS}) FROM ({inner} ORDER BY r, rowid "
                        f"LIMIT ?)", (match, fetch)).fetchall()
    rows.sort(key=lambda x: (x[2], x[0]))
    if len(rows) >= fetch and max(x[2] for x in rows) <= rows[want - 1][2]:
        rows = conn.execute(f"SELECT rowid, r, 0 FROM ({inner}) ORDER BY round(r, {KEYWORD_TIE_DECIMALS}), rowid "
                            f"LIMIT ?", (match, want)).fetchall()
    return [(int(x[0]), -float(x[1])) for x in rows[:want]]
