"""The keyword index's sparse search (one kept buffer, reset where written; matched rows from
the postings) returns exactly what the dense one did (a fresh N-element array, scanned).

The reference below is the search as it was before (issue 22): it zeroed and scanned an
array the size of the store at every query. Both run on the same built index of a few
thousand memories, before and after edits and deletes (the delta and stale paths), with
rare words and common ones (a row matched by several words is counted once).
"""

from __future__ import annotations

import math
import random

import numpy as np

import memory_core as mc
from memengine import keyword_index as ki
from memengine.keyword_index import KeywordIndex

COMMON = "garden tomato bicycle repair lisbon trip parser crash meeting budget".split()


def _dense(index: KeywordIndex, conn: object, words: list[str], k: int) -> list[tuple[int, float]] | None:
    """The pre-issue-22 search, verbatim but for the lock and sync (done by the caller's search)."""
    stems = index._stem(conn, words)
    if any(len(s) != 1 for s in stems):
        return None
    base = index._base
    assert base is not None
    score = np.zeros(len(index._lengths), dtype=np.float64)
    norm = index._norm()
    matched = False
    for (stem,) in stems:
        lo, hi = base.terms.get(stem, (0, 0))
        docs, wtf = base.docs[lo:hi], base.wtf[lo:hi]
        if base.wtf_values is not None:
            wtf = base.wtf_values[wtf]
        if index._any_stale and len(docs):
            keep = ~index._stale[docs]
            docs, wtf = docs[keep], wtf[keep]
        delta = index._delta_terms.get(stem)
        if delta:
            docs = np.concatenate([docs, np.fromiter(delta.keys(), dtype=np.int32, count=len(delta))])
            wtf = np.concatenate([wtf, np.fromiter(delta.values(), dtype=np.float64, count=len(delta))])
        n = len(docs)
        if not n:
            continue
        idf = math.log((index._nrow - n + 0.5) / (n + 0.5))
        idf = idf if idf > 0 else ki.IDF_FLOOR
        score[docs] += idf * (wtf * (ki.K1 + 1)) / (wtf + norm[docs])
        matched = True
    if not matched:
        return []
    hit = np.flatnonzero(score)
    key = np.round(score[hit], ki.TIE_DECIMALS)
    if len(hit) > k:
        cut = -np.partition(-key, k - 1)[k - 1]
        keep = key >= cut
        hit, key = hit[keep], key[keep]
    order = np.lexsort((hit, -key))[:k]
    return [(int(r), float(score[r])) for r in hit[order]]


def _queries(rng: random.Random, n: int) -> list[list[str]]:
    out = []
    for _ in range(n):
        words = [f"rare{rng.randrange(3000)}" for _ in range(rng.randint(1, 4))]
        if rng.random() < 0.4:
            words.append(rng.choice(COMMON))
        if rng.random() < 0.1:
            words.append(words[0])  # a repeated word is added twice, as before
        out.append(words)
    out.append(["nosuchword"])
    out.append(COMMON[:3])
    return out


def _check(store: mc.MemoryStore, index: KeywordIndex, queries: list[list[str]]) -> int:
    nonempty = 0
    for words in queries:
        for k in (10, 400):
            got = index.search(store.conn, words, k)
            assert got is not None, words
            want = _dense(index, store.conn, words, k)
            assert [r for r, _ in got] == [r for r, _ in want], (words, k)
            assert [s for _, s in got] == [s for _, s in want], (words, k)  # the same doubles
            nonempty += bool(got)
        assert not index._score.any(), words  # the kept buffer is clean between searches
    return nonempty


def _insert(store: mc.MemoryStore, text: str) -> None:
    """A row straight into SQLite (the FTS triggers index it): thousands of rows in a second."""
    store.conn.execute("INSERT INTO memories(content, content_hash, created_at, updated_at, memory_type, status) "
                       "VALUES (?, ?, '2024-01-01', '2024-01-01', 'semantic', 'active')", (text, text))


def test_sparse_search_equals_dense_before_and_after_changes(store: mc.MemoryStore) -> None:
    rng = random.Random(22)
    with store.conn:
        for i in range(2500):
            words = [f"rare{rng.randrange(3000)}" for _ in range(rng.randint(1, 6))]
            if rng.random() < 0.5:
                words.append(rng.choice(COMMON))
            _insert(store, f"note {i}: {' '.join(words)}")
    index = KeywordIndex(store.path, mc.FTS_WEIGHTS)
    index.start()
    assert index.wait(60)
    queries = _queries(rng, 120)
    assert _check(store, index, queries) > 150  # most queries match rows
    with store.conn:  # edits and deletes: stale base rows, a delta, a grown buffer
        for rid in rng.sample(range(1, 2501), 60):
            store.conn.execute("UPDATE memories SET content = ? WHERE id = ?",
                               (f"rare{rng.randrange(3000)} tomato rare{rng.randrange(3000)}", rid))
        for rid in rng.sample(range(1, 2501), 30):
            store.conn.execute("DELETE FROM memories WHERE id = ?", (rid,))
        for i in range(40):
            _insert(store, f"late {i} rare{rng.randrange(3000)} garden")
    assert _check(store, index, queries) > 150
    assert index.stats()["delta_rows"] > 0
    index.close()


def test_matched_rows_are_the_distinct_nonzero_postings() -> None:
    score = np.zeros(100)
    slot = np.full(100, 77, dtype=np.int32)  # any leftover content
    touched = [np.array([5, 9, 40], dtype=np.int32), np.array([9, 2, 5], dtype=np.int32)]
    for docs in touched:
        score[docs] += 1.0
    assert sorted(ki._matched_rows(touched, score, slot).tolist()) == [2, 5, 9, 40]
    score[40] = 0.0  # a zero contribution (a column weighing 0) is not a match, as before
    assert sorted(ki._matched_rows(touched, score, slot).tolist()) == [2, 5, 9]
    one = [np.arange(0, 100, 2, dtype=np.int32)]
    assert len(ki._matched_rows(one, np.ones(100), slot)) == 50
