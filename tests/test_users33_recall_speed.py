"""users33: warm recall's speed-ups answer exactly as the paths they replace.

* ``KeywordIndex.holding`` (state_words' "does this row hold any other word of the question") gives the rows FTS5's
  MATCH gives, before and after edits and deletes, and leaves phrase words to FTS5;
* ``state_gated`` keeps the same ids through the index as through FTS5;
* ``fts_tokens`` answers a word seen before from memory, as FTS5 tokenized it.
"""

from __future__ import annotations

import random
import sqlite3

import pytest

import memory_core as mc
from memengine import text as text_mod
from memengine.keyword_index import KeywordIndex
from memengine.recall.state_words import state_gated

WORDS = ("garden tomato bicycle repair lisbon trip parser crash meeting budget painting dog adopt school concert "
         "guitar recipe bread sourdough marathon training knee doctor running releases deadlines").split()


def _fill(store: mc.MemoryStore) -> None:
    rng = random.Random(33)
    for i in range(90):
        store.store(f"note {i}: " + " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 14))), dedup=False)
    for i in range(60):
        store.store(" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 8))), "episodic",
                    author=rng.choice(["Ana", "Ben"]), thread="chat-1", position=i, dedup=False)


def _fts_holding(store: mc.MemoryStore, words: list[str], ids: list[int]) -> set[int]:
    match = " OR ".join(mc.quote_fts(w) for w in words)
    rows = store.conn.execute("SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?", (match,)).fetchall()
    return {int(r[0]) for r in rows} & set(ids)


@pytest.fixture
def indexed(store: mc.MemoryStore) -> tuple[mc.MemoryStore, KeywordIndex]:
    _fill(store)
    index = KeywordIndex(store.path, mc.FTS_WEIGHTS)
    index.start()
    assert index.wait(30)
    return store, index


CASES = [["tomato"], ["garden", "lisbon"], ["run"], ["running", "deadline"], ["zebra"], ["ana"],
         ["releases", "knee", "bread", "concert"]]


def test_holding_gives_the_rows_fts5_matches(indexed: tuple[mc.MemoryStore, KeywordIndex]) -> None:
    store, index = indexed
    ids = list(range(1, 160, 2)) + [999]  # every other row, and one that does not exist
    for words in CASES:
        got = index.holding(store.conn, words, ids)
        assert got == _fts_holding(store, words, ids), words
    assert index.holding(store.conn, ["tomato"], []) == set()


def test_holding_follows_edits_and_deletes(indexed: tuple[mc.MemoryStore, KeywordIndex]) -> None:
    store, index = indexed
    index.holding(store.conn, ["tomato"], [1])  # synced once before the writes
    new = store.store("zebra crossing by the garden", dedup=False).id
    with mc.write_tx(store.conn):
        store.conn.execute("UPDATE memories SET content = 'zebra zebra' WHERE id = 4")
        store.conn.execute("DELETE FROM memories WHERE id = 6")
    ids = list(range(1, new + 1))
    for words in [*CASES, ["zebra"], ["crossing", "garden"]]:
        assert index.holding(store.conn, words, ids) == _fts_holding(store, words, ids), words
    assert {4, new} <= (index.holding(store.conn, ["zebra"], ids) or set())
    assert 6 not in (index.holding(store.conn, WORDS, ids) or set())


def test_holding_leaves_phrase_words_to_fts5(indexed: tuple[mc.MemoryStore, KeywordIndex]) -> None:
    store, index = indexed
    assert index.holding(store.conn, ["don't"], [1, 2]) is None  # two tokens: FTS5 reads it as a phrase
    assert index.holding(store.conn, ["e-mail", "garden"], [1, 2]) is None


def test_state_gated_keeps_the_same_ids_through_the_index(indexed: tuple[mc.MemoryStore, KeywordIndex]) -> None:
    store, index = indexed
    kw = {i: float(i) for i in range(1, 151)}
    for query, said in [("which garden does Ana still tend now?", {"still", "now"}),
                        ("is the tomato bread recipe still the latest?", {"still", "latest"}),
                        ("what about zebra now", {"now"})]:
        by_fts = state_gated(store.conn, query, said, kw)
        by_index = state_gated(store.conn, query, said, kw,
                               lambda words, ids: index.holding(store.conn, words, ids))
        assert by_index == by_fts, query
        assert len(by_fts) < len(kw), query  # (the gate drops rows: the two paths are compared on a real cut)


def test_a_store_recall_uses_the_index_for_state_words(store: mc.MemoryStore) -> None:
    _fill(store)
    assert store._holding(["tomato"], [1, 2]) is None  # no in-process index on a small, cold store: FTS5 serves


def test_fts_tokens_answers_a_word_seen_before_from_memory(tmp_path: object) -> None:
    conn = sqlite3.connect(":memory:")
    words = ["Running", "e-mail", "caf\u00e9s", "don't", "", "running", "Z\u00fcrich"]
    text_mod._TOKENS.clear()
    first = text_mod.fts_tokens(conn, words)
    assert first == text_mod._fts_tokens(conn, words)
    assert first[0] == ("run",) and first[1] == ("e", "mail") and first[4] == () and first[0] == first[5]
    conn.close()  # a closed connection: the words seen are answered without it
    assert text_mod.fts_tokens(conn, ["running", "e-mail", "Z\u00fcrich"]) == [first[5], first[1], first[6]]
    with pytest.raises(sqlite3.ProgrammingError):
        text_mod.fts_tokens(conn, ["unseen"])


def test_fts_tokens_cache_starts_again_when_full(monkeypatch: pytest.MonkeyPatch) -> None:
    conn = sqlite3.connect(":memory:")
    text_mod._TOKENS.clear()
    monkeypatch.setattr(text_mod, "TOKENS_KEPT", 3)
    assert text_mod.fts_tokens(conn, ["apples", "pears"]) == [("appl",), ("pear",)]
    assert text_mod.fts_tokens(conn, ["plums", "figs"]) == [("plum",), ("fig",)]
    assert set(text_mod._TOKENS) == {"plums", "figs"}
