"""The keyword index's pruned search (MaxScore: common words read only where a row can still win)
returns exactly what the full search returns: the same rows, in the same order, with the same doubles.

The reference is the full search of the same index (``_pruned`` switched off), on a store whose
words range from rare to very common (in most rows: idf floored), with templated rows that tie
at the cut, before and after edits and deletes (stale base rows and a delta, whose bounds and
counts must follow), and with PRUNE_MIN_POSTINGS at 0 so the pruned path serves these small stores.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import memory_core as mc
from memengine import keyword_index as ki
from memengine.keyword_index import KeywordIndex

# words by how many rows hold them: a few rare, some common, "note" in every row
COMMON = "garden tomato bicycle repair lisbon trip parser crash meeting budget".split()
VERY_COMMON = "went really today".split()


def _insert(store: mc.MemoryStore, text: str) -> None:
    """A row straight into SQLite (the FTS triggers index it): thousands of rows in a second."""
    store.conn.execute("INSERT INTO memories(content, content_hash, created_at, updated_at, memory_type, status) "
                       "VALUES (?, ?, '2024-01-01', '2024-01-01', 'semantic', 'active')", (text, text))


def _text(rng: random.Random, i: int) -> str:
    words = [f"rare{rng.randrange(400)}" for _ in range(rng.randint(0, 3))]
    words += rng.sample(COMMON, rng.randint(0, 3))
    words += [w for w in VERY_COMMON if rng.random() < 0.7]
    if i % 50 == 0:  # templated rows: equal scores at the cut, broken by row id
        return "note went really today garden"
    return f"note {i}: {' '.join(words * rng.randint(1, 2))}"


def _built(store: mc.MemoryStore, rng: random.Random, rows: int) -> KeywordIndex:
    """An index built over ``rows`` generated rows of ``store`` (its base ready)."""
    with store.conn:
        for i in range(rows):
            _insert(store, _text(rng, i))
    index = KeywordIndex(store.path, mc.FTS_WEIGHTS)
    index.start()
    assert index.wait(60)
    return index


def _queries(rng: random.Random, n: int) -> list[list[str]]:
    out = []
    for _ in range(n):
        words = rng.sample(COMMON, rng.randint(1, 3)) + rng.sample(VERY_COMMON, rng.randint(0, 3))
        if rng.random() < 0.6:
            words.append(f"rare{rng.randrange(400)}")
        if rng.random() < 0.15:
            words.append(words[0])  # a repeated word counts twice, as in the full search
        if rng.random() < 0.1:
            words.append("nosuchword")
        rng.shuffle(words)
        out.append(words)
    return out + [["note", "garden"], ["went", "really", "today"], ["note"], ["nosuchword", "garden"]]


def _check(store: mc.MemoryStore, index: KeywordIndex, queries: list[list[str]]) -> tuple[int, int]:
    """Compare both paths on every query and k: (searches the pruned path served, those of them
    that left a word's postings unread)."""
    pruned_path, final, postings = index._pruned, index._final, index._postings
    calls: list[int] = []  # rows given a final score, per pruned search
    read: list[str] = []  # words whose postings were read

    def spy_final(base: Any, stems: Any, idfs: Any, rows: np.ndarray, k: int) -> Any:
        calls.append(len(rows))
        return final(base, stems, idfs, rows, k)

    def spy_postings(base: Any, stem: str) -> Any:
        read.append(stem)
        return postings(base, stem)

    served = early = 0
    for words in queries:
        matched = {w for w in words if index.search(store.conn, [w], 1)}
        for k in (1, 10, 200):
            calls.clear()
            read.clear()
            index._final, index._postings = spy_final, spy_postings  # type: ignore[method-assign]
            got = index.search(store.conn, words, k)
            index._final, index._postings = final, postings  # type: ignore[method-assign]
            index._pruned = lambda *a: None  # type: ignore[method-assign]
            want = index.search(store.conn, words, k)
            index._pruned = pruned_path  # type: ignore[method-assign]
            assert got is not None and want is not None, words
            assert [r for r, _ in got] == [r for r, _ in want], (words, k)
            assert [s for _, s in got] == [s for _, s in want], (words, k)  # the same doubles
            served += bool(calls)
            early += bool(calls) and len(set(read)) < len(matched)
        assert not index._score.any(), words  # the kept buffer is clean between searches
        assert not index._kept.any(), words  # and so is the mask of the rows kept
    return served, early


@pytest.fixture
def prune_always(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ki, "PRUNE_MIN_POSTINGS", 0)


def test_pruned_search_equals_full_search_before_and_after_changes(store: mc.MemoryStore,
                                                                   prune_always: None) -> None:
    rng = random.Random(7)
    index = _built(store, rng, 3000)
    queries = _queries(rng, 150)
    served, early = _check(store, index, queries)
    assert served > 300 and early > 100  # the pruned path served most searches, often reading less
    with store.conn:  # edits and deletes: stale base rows, a delta, a longer average row
        for rid in rng.sample(range(1, 3001), 80):
            store.conn.execute("UPDATE memories SET content = ? WHERE id = ?",
                               (f"garden garden tomato rare{rng.randrange(400)} went " * 3, rid))
        for rid in rng.sample(range(1, 3001), 40):
            store.conn.execute("DELETE FROM memories WHERE id = ?", (rid,))
        for i in range(60):
            _insert(store, f"late {i} rare{rng.randrange(400)} garden budget really " * 2)
    served, early = _check(store, index, queries)
    assert served > 300 and early > 100
    assert index.stats()["delta_rows"] > 0
    index.close()


def test_words_left_are_read_for_the_kept_rows_only(store: mc.MemoryStore, prune_always: None) -> None:
    """Past the first successful cut the last words are read only for the rows kept (``_narrowed``),
    which drops rows as the bound of the words left shrinks: fewer rows get final lookups, same results."""
    rng = random.Random(11)
    index = _built(store, rng, 3000)
    narrowed = index._narrowed
    sizes: list[tuple[int, int]] = []  # (rows in, rows out) of each narrowing

    def spy(base: Any, left: Any, cand: np.ndarray, k: int, touched: Any) -> np.ndarray:
        out = narrowed(base, left, cand, k, touched)
        sizes.append((len(cand), len(out)))
        return out

    index._narrowed = spy  # type: ignore[method-assign]
    served, early = _check(store, index, _queries(rng, 120))
    assert served > 200 and early > 50
    assert len(sizes) > 50  # the narrowing served many searches ...
    assert sum(a > b for a, b in sizes) > 20  # ... and often dropped rows before the final lookups
    assert all(b <= a for a, b in sizes)
    index.close()


def test_bounds_hold_for_every_posting(store: mc.MemoryStore) -> None:
    """bound(word) ≥ the word's contribution to every row that holds it, also after the rows changed."""
    rng = random.Random(3)
    index = _built(store, rng, 1500)
    index.search(store.conn, ["garden"], 1)  # adopt the base

    def check() -> None:
        base = index._base
        assert base is not None
        norm = index._norm()
        for stem in ["garden", "tomato", "went", "really", "note", "rare5"]:
            docs, wtf = index._postings(base, stem)
            idf = index._idf(len(docs))
            exact = idf * (wtf * (ki.K1 + 1)) / (wtf + norm[docs])
            assert index._bound(base, stem, idf) >= exact.max(initial=0.0), stem
            assert index._count(base, stem) == len(docs), stem

    check()
    with store.conn:  # the average length grows (longer rows): kept bounds are scaled up
        for _ in range(300):
            _insert(store, "garden went " + " ".join(f"filler{j}" for j in range(40)))
        for rid in rng.sample(range(1, 1501), 30):
            store.conn.execute("UPDATE memories SET content = 'garden garden garden went' WHERE id = ?", (rid,))
    index.search(store.conn, ["garden"], 1)  # sync the changes
    check()
    index.close()
