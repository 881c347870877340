"""The in-process keyword index (keyword_index.py) gives FTS5's bm25, exactly, and stays current.

Every check compares against FTS5 itself on a real SQLite file: the same rows with the
same scores, before and after inserts, edits, hard deletes, conversation turns that
change their neighbours' context, a trimmed change log, and an FTS rebuild.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import memory_core as mc
from memengine import storebase
from memengine.keyword_index import KeywordIndex

ROOT = Path(__file__).resolve().parents[1]
WORDS = ("garden tomato bicycle repair lisbon trip parser crash meeting budget painting dog adopt "
         "school concert guitar recipe bread sourdough marathon training knee doctor python release "
         "deadline invoice holiday beach camping tent mountain coffee").split()
QUERIES = ["tomato garden", "bicycle repair lisbon", "parser crash release", "dog adopt school",
           "sourdough bread recipe", "marathon knee doctor", "camping tent mountain coffee",
           "guitar concert", "invoice deadline budget", "trip", "painting holiday beach", "zebra"]


def _fts(store: mc.MemoryStore, words: list[str], k: int = 1000) -> list[tuple[int, float]]:
    w = ", ".join(str(x) for x in mc.FTS_WEIGHTS)
    match = " OR ".join(mc.quote_fts(x) for x in words)
    rows = store.conn.execute(f"SELECT rowid, -bm25(memories_fts, {w}) AS s FROM memories_fts "
                              "WHERE memories_fts MATCH ? ORDER BY s DESC, rowid LIMIT ?", (match, k)).fetchall()
    return [(int(r[0]), float(r[1])) for r in rows]


def _assert_same(store: mc.MemoryStore, index: KeywordIndex, queries: list[str] = QUERIES) -> None:
    for q in queries:
        words = mc.query_terms(q)
        got = index.search(store.conn, words, 1000)
        assert got is not None, q
        ref = dict(_fts(store, words))
        # every matching row (k is above the row count), each with FTS5's score
        assert {r for r, _ in got} == set(ref), q
        for rid, score in got:
            assert score == pytest.approx(ref[rid], rel=1e-6), (q, rid)
        d = mc.KEYWORD_TIE_DECIMALS  # best first; scores equal to d decimals are ties (by row id)
        assert all((-round(a[1], d), a[0]) < (-round(b[1], d), b[0]) for a, b in zip(got, got[1:])), q


def _fill(store: mc.MemoryStore, n_notes: int = 120, n_turns: int = 80, seed: int = 7) -> None:
    rng = random.Random(seed)
    for i in range(n_notes):
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 30)))
        store.store(f"note {i}: {text}", tags=[rng.choice(WORDS)], dedup=False)
    for i in range(n_turns):
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12)))
        store.store(text, "episodic", author=rng.choice(["Ana", "Ben"]), thread="chat-1", position=i, dedup=False)


@pytest.fixture
def filled(store: mc.MemoryStore) -> mc.MemoryStore:
    _fill(store)
    return store


def _built(store: mc.MemoryStore) -> KeywordIndex:
    index = KeywordIndex(store.path, mc.FTS_WEIGHTS)
    index.start()
    assert index.wait(30)
    return index


def test_scores_equal_fts5_and_context_columns_count(filled: mc.MemoryStore) -> None:
    index = _built(filled)
    _assert_same(filled, index)
    stats = index.stats()
    assert stats["rows"] == 200 and stats["builds"] == 1 and stats["delta_rows"] == 0
    # the conversation's context columns are indexed: a turn matches words only its neighbours said
    ctx_only = filled.conn.execute(
        "SELECT t.id, t.context FROM memories_text t JOIN memories m USING (id) "
        "WHERE m.thread = 'chat-1' AND t.context <> '' LIMIT 1").fetchone()
    word = next(w for w in ctx_only[1].split() if w in WORDS and w not in filled.get(ctx_only[0]).content)
    assert ctx_only[0] in {r for r, _ in index.search(filled.conn, [word], 1000)}


def test_follows_inserts_edits_deletes_and_neighbour_context(filled: mc.MemoryStore) -> None:
    index = _built(filled)
    _assert_same(filled, index)
    new = filled.store("zebra crossing near the lisbon garden", dedup=False).id
    # a new turn rewrites the context columns of the turns before it
    filled.store("zebra stripes on the guitar", "episodic", author="Ana", thread="chat-1", position=80, dedup=False)
    gone_words = mc.query_terms(filled.get(5).content)
    with mc.write_tx(filled.conn):
        filled.conn.execute("UPDATE memories SET content = 'tomato tomato tomato' WHERE id = 3")
        filled.conn.execute("DELETE FROM memories WHERE id = 5")
    _assert_same(filled, index)
    assert new in {r for r, _ in index.search(filled.conn, ["zebra"], 10)}
    assert 5 not in {r for r, _ in index.search(filled.conn, gone_words, 1000)}
    assert index.search(filled.conn, ["tomato"], 1)[0][0] == 3
    stats = index.stats()
    assert stats["builds"] == 1 and stats["delta_rows"] >= 4  # served as a delta, no rebuild


def test_rebuilds_when_the_log_was_trimmed_past_it(filled: mc.MemoryStore) -> None:
    index = _built(filled)
    _assert_same(filled, index)
    for i in range(3):
        filled.store(f"zebra number {i}", dedup=False)
    with mc.write_tx(filled.conn):  # what the trim trigger does to a reader that fell far behind
        filled.conn.execute("DELETE FROM _keyword_changes WHERE seq < (SELECT max(seq) FROM _keyword_changes)")
    assert index.search(filled.conn, ["zebra"], 10) is None  # cannot catch up: rebuilds, FTS5 serves
    assert index.wait(30)
    _assert_same(filled, index)
    assert index.stats()["builds"] == 2


def test_rebuilds_after_an_fts_rebuild(filled: mc.MemoryStore) -> None:
    index = _built(filled)
    filled._repair({"orphan_vectors": [], "orphan_context_vectors": [], "missing_vectors": []}, rebuild_fts=True)
    assert filled.meta("keywords_generation") == "1"
    assert index.search(filled.conn, ["tomato"], 10) is None
    assert index.wait(30)
    _assert_same(filled, index)


def test_phrase_words_are_left_to_fts5(filled: mc.MemoryStore) -> None:
    index = _built(filled)
    assert index.search(filled.conn, ["e-mail"], 10) is None  # two tokens: FTS5 runs it as a phrase
    assert index.search(filled.conn, ["tomato"], 10) is not None


def test_change_log_trims_itself() -> None:
    conn = mc.connect(":memory:")
    mc.migrate(conn)
    conn.executemany("INSERT INTO _keyword_changes(memory_id) VALUES (?)", [(i,) for i in range(25_000)])
    lo, hi, n = conn.execute("SELECT min(seq), max(seq), count(*) FROM _keyword_changes").fetchone()
    assert hi == 25_000 and lo == 25_000 - mc.KEYWORD_LOG_KEEP + 1 and n == mc.KEYWORD_LOG_KEEP


def test_recall_through_the_index_equals_recall_through_fts5(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seed = mc.MemoryStore(db_path)
    _fill(seed)
    seed.close()
    monkeypatch.setattr(storebase, "PARALLEL_MIN_ROWS", 100)  # "at scale" for this small file
    plain = mc.MemoryStore(db_path, keyword_index=False)
    warm = mc.MemoryStore(db_path, keyword_index=True)
    try:
        assert warm.warm_up()["ready"]
        for strategy in ("hybrid", "keyword"):
            for q in QUERIES:
                a = warm.recall(q, k=10, strategy=strategy, touch=False)
                b = plain.recall(q, k=10, strategy=strategy, touch=False)
                # same ranking; scores equal up to the vector side's float32 cosines (the warm store
                # scans its in-process matrix, the other sqlite-vec: sums in another order differ in
                # the 8th decimal, which min-max fusion can carry into the 6th decimal of a score)
                assert [m.id for m in a.results] == [m.id for m in b.results], (strategy, q)
                assert [m.score for m in a.results] == pytest.approx([m.score for m in b.results], abs=2e-6)
        assert warm._keyword_index.stats()["ready"]
    finally:
        warm.close()
        plain.close()


def test_one_recall_never_starts_a_build(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seed = mc.MemoryStore(db_path)
    _fill(seed, n_notes=60, n_turns=0)
    seed.close()
    monkeypatch.setattr(storebase, "PARALLEL_MIN_ROWS", 50)
    s = mc.MemoryStore(db_path)
    try:
        s.recall("tomato", touch=False)
        assert s._keyword_index is None  # a one-shot CLI call exits before a build could pay off
        s.recall("garden", touch=False)
        assert s._keyword_index is not None
    finally:
        s.close()


WRITER = """
import sys
sys.path.insert(0, {root!r})
import memory_core as mc
s = mc.MemoryStore({db!r})
for i in range(40):
    s.store(f"zebra {{i}} from another process, lisbon garden", dedup=False)
s.store("zebra turn", "episodic", author="Ben", thread="chat-1", position=81, dedup=False)
s.close()
"""


def test_follows_writes_of_another_process(filled: mc.MemoryStore) -> None:
    index = _built(filled)
    _assert_same(filled, index)
    env = {"MEM_EMBEDDER": "hash", "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", WRITER.format(root=str(ROOT), db=str(filled.path))],
                          capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    _assert_same(filled, index, QUERIES + ["zebra lisbon"])
    said = {r[0] for r in filled.conn.execute("SELECT id FROM memories WHERE content LIKE 'zebra%'")}
    assert len(said) == 41 and said <= {r for r, _ in index.search(filled.conn, ["zebra"], 1000)}


def test_a_store_too_large_for_memory_keeps_fts5(filled: mc.MemoryStore) -> None:
    index = KeywordIndex(filled.path, mc.FTS_WEIGHTS, max_tokens=100)
    index.start()
    assert not index.wait(30)
    assert index.build_error is not None and "FTS5 serves this store" in index.build_error
    assert index.search(filled.conn, ["tomato"], 10) is None  # the caller asks FTS5
    assert index.stats()["ready"] is False


def test_large_deltas_rebuild_in_the_background(filled: mc.MemoryStore, monkeypatch: pytest.MonkeyPatch) -> None:
    from memengine import keyword_index

    monkeypatch.setattr(keyword_index, "REBUILD_MIN_ROWS", 5)
    monkeypatch.setattr(keyword_index, "REBUILD_SHARE", 0.0)
    index = _built(filled)
    for i in range(7):  # more than the limit (5), less than twice it: served from the delta, rebuilt meanwhile
        filled.store(f"zebra {i} in lisbon", dedup=False)
    assert index.search(filled.conn, ["zebra"], 100) is not None
    assert index.wait(30)
    _assert_same(filled, index, QUERIES + ["zebra"])
    assert index.stats()["builds"] == 2 and index.stats()["delta_rows"] == 0
    for i in range(20):  # a bulk write: not re-tokenized inside a search, FTS5 serves until rebuilt
        filled.store(f"okapi {i} in lisbon", dedup=False)
    assert index.search(filled.conn, ["okapi"], 100) is None
    assert index.wait(30)
    _assert_same(filled, index, QUERIES + ["okapi zebra"])
    assert index.stats()["builds"] == 3


def test_not_used_inside_an_open_transaction(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seed = mc.MemoryStore(db_path)
    _fill(seed, n_notes=60, n_turns=0)
    seed.close()
    monkeypatch.setattr(storebase, "PARALLEL_MIN_ROWS", 50)
    s = mc.MemoryStore(db_path, keyword_index=True)
    try:
        assert s.warm_up()["ready"]
        seq = s._keyword_index._seq
        with pytest.raises(RuntimeError):
            with mc.write_tx(s.conn):
                s.conn.execute("INSERT INTO memories(content, content_hash, created_at, updated_at) "
                               "VALUES ('zebra rolled back', 'h', '2026-01-01T00:00:00', '2026-01-01T00:00:00')")
                assert [m.content for m in s.recall("zebra", strategy="keyword", touch=False).results] == \
                       ["zebra rolled back"]  # FTS5 sees the transaction's own write
                raise RuntimeError("roll back")
        assert s._keyword_index._seq == seq  # the index never took in the rolled-back row
        s.store("zebra kept", dedup=False)
        assert [m.content for m in s.recall("zebra", strategy="keyword", touch=False).results] == ["zebra kept"]
    finally:
        s.close()


def test_ties_at_the_cut_go_to_the_same_rows_on_both_paths(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from memengine import keyword_index

    assert mc.KEYWORD_TIE_DECIMALS == keyword_index.TIE_DECIMALS
    seed = mc.MemoryStore(db_path)
    for i in range(300):  # templated text: 300 rows with the very same bm25 for "soup"
        seed.store(f"tomato soup recipe card {i:03d}", dedup=False)
    seed.close()
    monkeypatch.setattr(storebase, "PARALLEL_MIN_ROWS", 100)
    plain = mc.MemoryStore(db_path, keyword_index=False)
    warm = mc.MemoryStore(db_path, keyword_index=True)
    try:
        assert warm.warm_up()["ready"]
        for strategy in ("keyword", "hybrid"):
            a = plain.recall("soup", k=20, strategy=strategy, touch=False).results
            b = warm.recall("soup", k=20, strategy=strategy, touch=False).results
            assert [(m.id, m.score) for m in a] == [(m.id, m.score) for m in b]
        # the keyword pool (200 rows asked for 100 kept) is cut inside the tie: lowest ids first
        where, args = plain.filter_sql(None, None, None, None, None, False)
        assert [i for i, _ in plain._keyword('"soup"', where, args, 100)] == list(range(1, 101))
        assert [i for i, _ in warm._keyword('"soup"', where, args, 100, words=["soup"])] == list(range(1, 101))
    finally:
        warm.close()
        plain.close()


def test_the_cap_is_a_memory_budget_and_recall_says_when_fts5_serves(
        filled: mc.MemoryStore, monkeypatch: pytest.MonkeyPatch) -> None:
    from memengine import keyword_index

    monkeypatch.setenv("MEM_KEYWORD_INDEX_MAX_MB", "0.001")  # 1,048 bytes: 174 tokens
    assert keyword_index.max_index_bytes() == 1048 and keyword_index.token_budget() == 174
    want = [(m.id, m.score) for m in filled.recall("tomato soup", k=5, touch=False).results]
    filled._warm = True
    assert filled.warm_up(timeout=30)["ready"] is False
    index = filled._keyword_index
    assert index.stats()["path"] == "fts5" and index.stats()["max_bytes"] == 1048
    res = filled.recall("tomato soup", k=5, touch=False)
    # the same answer, from FTS5 (scores up to the warm store's float32 matrix cosines, see above)
    assert [m.id for m in res.results] == [i for i, _ in want]
    assert [m.score for m in res.results] == pytest.approx([sc for _, sc in want], abs=2e-6)
    assert len(res.warnings) == 1 and res.warnings[0].startswith("keyword side on FTS5")
    assert "MB budget, MEM_KEYWORD_INDEX_MAX_MB" in res.warnings[0]
    monkeypatch.setenv("MEM_KEYWORD_INDEX_MAX_MB", "not a number")  # ignored: the default budget
    assert keyword_index.max_index_bytes() == min(keyword_index.MAX_BYTES_CEILING,
                                                  os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 8)
    monkeypatch.delenv("MEM_KEYWORD_INDEX_MAX_MB")
    big = KeywordIndex(filled.path, mc.FTS_WEIGHTS)
    big.start()
    assert big.wait(30) and big.degraded_note() is None
    big.close()


def test_term_weights_are_coded_in_two_bytes_and_decode_to_the_same_floats(filled: mc.MemoryStore) -> None:
    import numpy as np

    from memengine import keyword_index

    index = _built(filled)
    index.search(filled.conn, ["warm"], 1)  # adopts the build
    base = index._base
    assert base.wtf.dtype == np.uint16 and base.wtf_values is not None
    assert len(base.wtf) == index.stats()["postings"]
    wtf = np.array([0.4, 1.0, 1.4, 0.4, 2.0000000000000004, 1.0])
    codes, values = keyword_index._coded(wtf)
    assert codes.dtype == np.uint16 and values is not None and values[codes].tobytes() == wtf.tobytes()
    many = np.arange(70_000, dtype=np.float64) / 7  # more distinct values than uint16 codes: kept as float64
    same, none = keyword_index._coded(many)
    assert none is None and same is many
    index.close()
