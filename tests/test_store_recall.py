"""store / recall / forget through the Python API, with exact expectations."""

from __future__ import annotations

import json
from datetime import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

import memory_core
from memengine import ingest, storebase, vectors
from memengine import text as mtext
from memory_core import MemoryStore, NotFound, UserError


def ids(res) -> list[int]:
    return [m.id for m in res.results]


def test_store_and_recall_ranks_the_matching_memory_first(store: MemoryStore) -> None:
    a = store.store("Oscar prefers morning meetings", "semantic", importance=0.8).id
    b = store.store("To restart the gateway run openclaw gateway restart", "procedural").id
    c = store.store("The cafeteria serves pasta on Tuesdays", "semantic").id
    assert (a, b, c) == (1, 2, 3)
    assert ids(store.recall("gateway restart", k=3, touch=False))[0] == b
    assert ids(store.recall("Oscar meetings", k=3, touch=False))[0] == a
    kw = store.recall("pasta", k=3, strategy="keyword", touch=False)
    assert ids(kw) == [c]


def test_identical_content_reinforces_instead_of_duplicating(store: MemoryStore) -> None:
    first = store.store("Oscar prefers morning meetings", "semantic")
    again = store.store("Oscar  prefers morning meetings", "semantic")
    assert again.id == first.id and again.deduplicated and again.dedup_reason == "identical"
    m = store.get(first.id)
    assert m.access_count == 1 and m.last_accessed_at is not None
    assert store.stats()["memories"] == 1


def test_near_duplicate_facts_merge_but_episodes_never(store: MemoryStore) -> None:
    a = store.store("meetings Oscar prefers morning", "semantic")  # same words: cosine 1.0 with the fake embedder
    b = store.store("Oscar prefers morning meetings", "semantic")
    assert b.deduplicated and b.id == a.id and b.dedup_reason.startswith("near-duplicate")
    e1 = store.store("ok", "episodic", event_at=datetime(2024, 3, 1, 10, 0))
    e2 = store.store("ok", "episodic", event_at=datetime(2024, 3, 1, 10, 5))
    assert not e2.deduplicated and e1.id != e2.id
    t1 = store.store("see you at the station", "semantic", thread="chat-1")
    t2 = store.store("station at see you", "semantic", thread="chat-1")
    assert not t2.deduplicated and t1.id != t2.id


def test_dedup_can_be_disabled(store: MemoryStore) -> None:
    a = store.store("same text", "semantic")
    b = store.store("same text", "semantic", dedup=False)
    assert a.id != b.id


def test_ref_is_idempotent_per_source(store: MemoryStore) -> None:
    a = store.store("first version", "semantic", source="notes", ref="n1")
    b = store.store("changed text", "semantic", source="notes", ref="n1")
    c = store.store("changed text", "semantic", source="other", ref="n1")
    assert b.id == a.id and b.deduplicated and b.dedup_reason == "ref"
    assert c.id != a.id


@pytest.mark.parametrize("bad", ["", "   ", "\n\t"])
def test_empty_content_is_an_error(store: MemoryStore, bad: str) -> None:
    with pytest.raises(UserError, match="empty"):
        store.store(bad)
    assert store.stats()["memories"] == 0


def test_oversized_content_needs_truncate(store: MemoryStore) -> None:
    big = "x" * (memory_core.MAX_CONTENT_BYTES + 10)
    with pytest.raises(UserError, match="over the 1,000,000 limit"):
        store.store(big)
    res = store.store(big, truncate=True)
    m = store.get(res.id)
    assert len(m.content) == memory_core.MAX_CONTENT_BYTES
    assert m.metadata["truncated_from_bytes"] == memory_core.MAX_CONTENT_BYTES + 10


def test_bad_type_and_importance(store: MemoryStore) -> None:
    with pytest.raises(UserError, match="memory_type"):
        store.store("x", "opinion")
    with pytest.raises(UserError, match="importance"):
        store.store("x", importance=1.5)


def test_relative_dates_resolved_against_event_time(store: MemoryStore) -> None:
    mid = store.store("tomorrow I fly to Rome", "episodic", event_at=datetime(2024, 3, 11, 9, 0)).id
    store.store("I fly often for work", "episodic", event_at=datetime(2024, 5, 2, 9, 0))
    m = store.get(mid)
    assert m.metadata["resolved_dates"] == [{"phrase": "tomorrow", "date": "2024-03-12", "granularity": "day"}]
    res = store.recall("what did I do on 2024-03-12", k=1, strategy="keyword", touch=False)
    assert ids(res) == [mid]


def test_filters(store: MemoryStore) -> None:
    a = store.store("deploy with make deploy", "procedural", tags=["infra"], source="agent")
    b = store.store("deploy went wrong yesterday", "episodic", event_at=datetime(2024, 1, 5))
    c = store.store("deploy freeze in december", "semantic", tags=["policy"])
    assert ids(store.recall("deploy", types=["procedural"], touch=False)) == [a.id]
    assert ids(store.recall("deploy", tags=["policy"], touch=False)) == [c.id]
    assert ids(store.recall("deploy", sources=["agent"], touch=False)) == [a.id]
    assert ids(store.recall("deploy", until=datetime(2024, 2, 1), touch=False)) == [b.id]
    with pytest.raises(UserError):
        store.recall("deploy", types=["nope"])


def test_recall_touches_unless_told_not_to(store: MemoryStore) -> None:
    mid = store.store("the wifi password is on the fridge", "semantic").id
    store.recall("wifi", touch=False)
    assert store.get(mid).access_count == 0
    store.recall("wifi")
    assert store.get(mid).access_count == 1


def test_forget_hides_and_restore_brings_back(store: MemoryStore) -> None:
    mid = store.store("Ana's birthday is on 3 May", "semantic").id
    assert store.forget(mid).status == "deleted"
    assert ids(store.recall("birthday", touch=False)) == []
    assert store.recall("birthday", include_archived=True, touch=False).results == []  # deleted is not archived
    assert store.get(mid).content == "Ana's birthday is on 3 May"  # never destroyed
    assert store.restore(mid).status == "active"
    assert ids(store.recall("birthday", touch=False)) == [mid]
    with pytest.raises(NotFound):
        store.forget(999)


def test_explain_shows_each_signal(store: MemoryStore) -> None:
    store.store("Oscar prefers morning meetings", "semantic")
    r = store.recall("Oscar meetings", explain=True, touch=False).results[0]
    assert set(r.explain) >= {"keyword_bm25", "keyword_norm", "cosine", "vector_norm", "prior", "weights"}
    assert r.explain["keyword_norm"] == 1.0 and r.explain["vector_norm"] == 1.0


def test_degraded_mode_is_loud_and_reindex_catches_up(db_path, monkeypatch) -> None:
    monkeypatch.setenv("MEM_EMBEDDER", "none")
    s = MemoryStore(db_path)
    res = s.store("keyword only memory about tea", "semantic")
    assert res.degraded == "no-vectors"
    rec = s.recall("tea", touch=False)
    assert rec.degraded == "no-vectors" and ids(rec) == [res.id]
    s.close()
    monkeypatch.setenv("MEM_EMBEDDER", "hash")
    s = MemoryStore(db_path)
    assert s.doctor()["missing_vectors"] == 1
    assert s.reindex(only_missing=True)["embedded"] == 1
    assert s.doctor()["missing_vectors"] == 0
    assert s.recall("tea", touch=False).degraded is None


def test_model_mismatch_refuses_to_mix(db_path, monkeypatch) -> None:
    s = MemoryStore(db_path)
    s.store("a fact", "semantic")
    s.close()
    from embedder import HashEmbedder

    other = HashEmbedder()
    other.model_id = "some-other-model"
    s = MemoryStore(db_path, embedder=other)
    with pytest.raises(memory_core.ModelMismatch, match="reindex"):
        s.store("another fact", "semantic")
    s.reindex()
    assert s.meta("embedding_model") == "some-other-model"
    assert s.store("another fact", "semantic").id == 2


def test_jsonl_round_trip_and_idempotent(tmp_path, store: MemoryStore) -> None:
    store.store("fact one", "semantic", tags=["a"])
    store.store("went hiking", "episodic", event_at=datetime(2024, 6, 1, 8, 30), source="diary", ref="d1")
    out = tmp_path / "all.jsonl"
    out.write_text("".join(json.dumps(r) + "\n" for r in store.export()))
    other = MemoryStore(tmp_path / "other.db")
    first = ingest.import_jsonl(other, out)
    assert (first.seen, first.added, first.duplicates) == (2, 2, 0)
    again = ingest.import_jsonl(other, out)
    assert (again.added, again.duplicates) == (0, 2)
    exported = [(r["content"], r["memory_type"], r["event_at"], r["tags"], r["source"]) for r in other.export()]
    assert exported == [("fact one", "semantic", None, ["a"], "user"),
                        ("went hiking", "episodic", "2024-06-01T08:30:00", [], "diary")]


@pytest.mark.parametrize(("line", "message"), [
    ('{"content": ""}', "line.jsonl:2: field 'content' is required"),
    ('{"content": "x", "memory_type": "bogus"}', "line.jsonl:2: memory_type must be one of"),
    ('{"content": "x", "colour": 1}', "line.jsonl:2: unknown field 'colour'"),
    ('not json', "line.jsonl:2: invalid JSON"),
    ('{"content": "x", "event_at": "when pigs fly"}', "line.jsonl:2: field 'event_at'"),
])
def test_jsonl_bad_line_names_file_and_line_and_writes_nothing(tmp_path, store: MemoryStore, line, message) -> None:
    f = tmp_path / "line.jsonl"
    f.write_text('{"content": "good one"}\n' + line + "\n")
    with pytest.raises(UserError) as err:
        ingest.import_jsonl(store, f)
    assert str(err.value).endswith(str(err.value)) and message in str(err.value).replace(str(tmp_path) + "/", "")
    assert store.stats()["memories"] == 0


def test_matrix_knn_matches_sqlite_vec_and_stays_fresh(store: MemoryStore, monkeypatch) -> None:
    import numpy as np

    for i in range(60):
        store.store(f"note {i} about topic {i % 7} and colour {i % 5}", "semantic")
    q = store.embedder.embed(["topic 3 colour 2"])[0]
    exact = dict(store._nearest(q, 60))  # sqlite-vec scan (small store); every row, so ties cannot differ
    monkeypatch.setattr(storebase, "MATRIX_MIN_ROWS", 0)
    monkeypatch.setattr(storebase, "WARM_AFTER", 0)  # the matrix from the first operation on
    fast = dict(store._nearest(q, 60))
    assert "vec_memories" in store._matrices
    assert fast.keys() == exact.keys()
    assert np.allclose([fast[i] for i in exact], list(exact.values()), atol=1e-5)
    new = store.store("topic 3 colour 2 exactly", "semantic").id  # incremental load picks it up
    assert store._nearest(q, 1)[0][0] == new
    store.reindex()  # vectors rewritten in place: generation bump forces a full reload
    assert store.recall("topic 3 colour 2 exactly", k=1, touch=False).results[0].id == new
    assert store._matrices["vec_memories"].generation == store.meta("vectors_generation") == "1"


def test_coarse_matrix_scan_finds_the_exact_neighbours_of_clustered_vectors(monkeypatch) -> None:
    """The sign shortlist + exact int8 re-rank returns what the exact scan returns, from int8 rows in memory."""
    import numpy as np

    from memengine import signrank

    monkeypatch.setattr(vectors, "COARSE_MIN_ROWS", 100)
    monkeypatch.setattr(signrank, "SHORTLIST", 80)  # (1000 in use: for k=10 the shortlist is 1000 rows)
    rng = np.random.default_rng(1)
    centres = rng.standard_normal((30, memory_core.DIMS)).astype(np.float32)
    mat = centres[rng.integers(0, 30, 3000)] + 0.3 * rng.standard_normal((3000, memory_core.DIMS)).astype(np.float32)
    mat /= np.linalg.norm(mat, axis=1, keepdims=True)
    ids = np.arange(1, 3001, dtype=np.int64)
    fast = memory_core.VectorMatrix.of("t", ids, mat)
    exact = memory_core.VectorMatrix.of("t", ids, mat, coarse=False)
    assert fast._exact is None and exact._exact is not None  # int8 rows only once the shortlist serves
    assert fast.nbytes < 3000 * (memory_core.DIMS + 64) < exact.nbytes
    q = mat[17] + 0.1 * rng.standard_normal(memory_core.DIMS).astype(np.float32)
    q /= np.linalg.norm(q)
    short = fast._shortlist(q, 10)
    assert len(short) == 80 and exact._shortlist(q, 10) is None
    got, want = fast.search(q, 10), exact.search(q, 10)
    assert [i for i, _ in got] == [i for i, _ in want]
    assert np.allclose([s for _, s in got], [s for _, s in want], atol=1e-6)
    stored = memory_core.vectors_from_blobs([vectors.vec_blob(mat[17])])[0]  # cosines are those of the stored int8 rows
    cos = fast.cosines(q, [18, 3000, 99999])  # unknown ids are skipped, known ones exact
    assert set(cos) == {18, 3000} and abs(cos[18] - float(stored @ q)) < 1e-6


def test_frequent_query_words_left_out_are_reported(store: MemoryStore) -> None:
    for i in range(30):
        store.store(f"coffee break number {i} with the team", "episodic")
    rare = store.store("coffee in zanzibar with Ana", "episodic").id
    assert store.recall("coffee zanzibar", k=3, strategy="keyword", touch=False).pruned_terms == []  # default: off
    res = store.recall("coffee zanzibar", k=3, strategy="keyword", touch=False,
                       config=memory_core.RecallConfig(max_df=0.5))
    assert res.pruned_terms == ["coffee"] and [m.id for m in res.results] == [rare]


def test_known_people_follow_new_authors_and_aliases(store: MemoryStore) -> None:
    store.store("hi there", "episodic", author="Ana García", thread="t")
    assert store.known_people() == {"ana garcía": "Ana García", "ana": "Ana García"}
    store.store("hello", "episodic", author="Oscar", thread="t")  # newer id: read incrementally
    assert store.known_people()["oscar"] == "Oscar"
    with memory_core.write_tx(store.conn):
        store.conn.execute("INSERT INTO aliases(alias, name, kind, created_at) VALUES ('Mei', 'Mei Chen', 'person', 'x')")
    assert store.people_in("what did Mei say?") == {"mei": "Mei Chen"}


def test_keyword_search_on_a_worker_thread_gives_the_same_ranking(store: MemoryStore, monkeypatch) -> None:
    for i in range(40):
        store.store(f"memory {i}: the {['red', 'blue', 'green'][i % 3]} bicycle needs {i % 4} new tyres", "semantic")
    queries = ["blue bicycle tyres", "green", "memory 7 red", "unrelated words"]
    seq = [[(m.id, m.score) for m in store.recall(q, k=5, touch=False).results] for q in queries]
    monkeypatch.setattr(storebase, "PARALLEL_MIN_ROWS", 0)
    par = [[(m.id, m.score) for m in store.recall(q, k=5, touch=False).results] for q in queries]
    assert store._keyword_worker is not None  # the worker path really ran
    assert par == seq and all(seq)
    with pytest.raises(UserError, match="bad FTS5 query"):  # errors cross the thread as they are
        store.recall('"unbalanced', raw=True, touch=False)
    store.close()
    assert store._keyword_worker is None


def test_cosines_by_id_agree_between_sqlite_vec_and_the_matrix(store: MemoryStore, monkeypatch) -> None:
    ids = [store.store(f"note {i} on topic {i % 3}", "semantic").id for i in range(12)]
    q = store.embedder.embed(["topic 1"])[0]
    small = store.cosines(q, ids + [999])
    monkeypatch.setattr(storebase, "MATRIX_MIN_ROWS", 0)
    monkeypatch.setattr(storebase, "WARM_AFTER", 0)
    big = store.cosines(q, ids + [999])
    assert "vec_memories" in store._matrices
    assert small.keys() == big.keys() == set(ids)
    assert all(abs(small[i] - big[i]) < 1e-6 for i in ids)


def test_pruned_fusion_gives_the_same_top_k(store: MemoryStore, monkeypatch) -> None:
    """_fuse skips the priors of candidates that cannot reach the top k: the top k of scoring all."""
    import random

    rng = random.Random(5)
    words = "ana ben lisbon trip garden tomato parser crash monday yesterday 2023 meeting budget guitar".split()
    for i in range(150):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(1, 25)))
        if i % 3 == 0:  # a chat with questions and their replies: the reply prior is in play
            text = text.capitalize() + ("?" if i % 2 else ".")
            store.store(text, "episodic", author=["Ana", "Ben"][i % 2], thread="chat", position=i // 3, dedup=False)
        else:
            store.store(text, "episodic", author=rng.choice(["Ana", "Ben", None]), importance=rng.random(),
                        dedup=False)
    queries = ("When did Ana go to Lisbon?", "parser crash", "Ben guitar meeting", "tomato garden yesterday",
               "What did Ben say about the budget?")
    from memory_core import RecallConfig

    configs = {"default": RecallConfig(), "big reply bonus": RecallConfig(w_reply=0.9)}
    pruned = {(q, s, k, c): [(m.id, m.score) for m in store.recall(q, k=k, strategy=s, touch=False,
                                                                   config=configs[c]).results]
              for q in queries for s in ("hybrid", "keyword", "vector") for k in (3, 10) for c in configs}
    original = MemoryStore._fuse
    monkeypatch.setattr(MemoryStore, "_fuse", lambda self, *a, k=None, **kw: original(self, *a, **kw))  # score all
    replies = 0
    for (q, s, k, c), got in pruned.items():
        res = store.recall(q, k=k, strategy=s, touch=False, explain=True, config=configs[c]).results
        assert got == [(m.id, m.score) for m in res], (q, s, k, c)
        replies += sum(1 for m in res if m.explain and "reply" in m.explain["priors"])
    assert replies > 0  # the comparison covered reply bonuses


def test_a_one_shot_process_never_loads_the_matrix(db_path, monkeypatch) -> None:
    """A process's first vector operation is served by sqlite-vec; the matrix comes from the second on."""
    with MemoryStore(db_path) as writer:
        for i in range(40):
            writer.store(f"note {i} about topic {i % 7}", "semantic")
        assert "vec_memories" in writer._matrices  # 40 near-duplicate checks: a warm process
    with MemoryStore(db_path) as store:  # a CLI call: a new process, one recall
        first = store.recall("topic 3", k=5, touch=False)
        assert store._matrices == {}  # no 150 MB load (at 100k) for one query
        second = store.recall("topic 3", k=5, touch=False)
        assert set(store._matrices) == {"vec_memories", "vec_contexts"}
    assert [(m.id, m.score) for m in first.results] == [(m.id, m.score) for m in second.results]


@given(st.text(alphabet="ab c’'\n é1_-,.", max_size=1500), st.integers(min_value=1, max_value=40))
def test_word_count_for_the_length_prior_matches_counting_every_match(text: str, cap: int) -> None:
    import itertools

    expected = sum(1 for _ in itertools.islice(mtext.TOKEN_RE.finditer(text), cap))
    assert mtext.count_words(text, cap) == expected
    assert mtext.count_words("y" * 2000 + " a b", 20) == 3  # one long word in the head, the rest after it


class _DenseEmbedder:
    """Dense word vectors (a seeded Gaussian per word, summed): int8 storage rounds them,
    unlike the hash embedder's one-hots, so the stored precision shows."""

    dims = 384
    model_id = "test-dense-384"

    def count_tokens(self, text: str) -> int:
        return len(text.split())

    def embed(self, texts: list[str], batch_size: int = 32):
        import hashlib
        import re

        import numpy as np

        out = np.zeros((len(texts), self.dims), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"\w+", text.lower()):
                seed = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=8).digest(), "little")
                out[row] += np.random.default_rng(seed).normal(size=self.dims).astype(np.float32)
            out[row] /= max(float(np.linalg.norm(out[row])), 1e-9)
        return out


def test_one_shot_and_warm_processes_rank_alike_with_int8_vectors(db_path, monkeypatch) -> None:
    """A one-shot call (sqlite-vec, FTS5) and a warm process (matrices, keyword index, the
    context scan on the worker) compare the same int8-precision query: same ids and scores."""
    monkeypatch.setattr(storebase, "MATRIX_MIN_ROWS", 30)
    monkeypatch.setattr(storebase, "PARALLEL_MIN_ROWS", 30)
    emb = _DenseEmbedder()
    words = "ana ben lisbon trip garden tomato parser crash budget guitar meeting river".split()
    with MemoryStore(db_path, embedder=emb) as s:
        for i in range(80):
            text = " ".join(words[(i * j) % len(words)] for j in range(1, 2 + i % 6)) + f" item{i}"
            s.store(text, "episodic", author=["Ana", "Ben"][i % 2], thread="chat", position=i, dedup=False)
    queries = ["lisbon trip budget", "What did Ana say about the guitar?", "parser crash meeting", "river garden"]
    cold = {}
    for q in queries:  # each in a fresh one-shot store: sqlite-vec and FTS5
        with MemoryStore(db_path, embedder=emb, keyword_index=False) as one:
            cold[q] = [(m.id, m.score) for m in one.recall(q, k=10, touch=False).results]
            assert one._matrices == {}
    with MemoryStore(db_path, embedder=emb, keyword_index=True) as warm:
        warm.warm_up()
        for q in queries:
            got = [(m.id, m.score) for m in warm.recall(q, k=10, touch=False).results]
            assert [i for i, _ in got] == [i for i, _ in cold[q]], q
            # the two scans sum in another order: scores agree to float rounding
            assert max(abs(a[1] - b[1]) for a, b in zip(got, cold[q])) <= 2e-6, q
        assert set(warm._matrices) == {"vec_memories", "vec_contexts"}


def test_a_possessive_names_its_person(store: MemoryStore) -> None:
    store.store("The puppy learns commands fast", "episodic", author="Maria", thread="t")
    store.store("Good luck with the puppy", "episodic", author="John", thread="t")
    assert store.people_in("How is Maria's puppy?") == {"maria": "Maria"}
    assert store.people_in("How is Maria’s puppy?") == {"maria": "Maria"}
    assert store.people_in("what did Marias say? Maria'sx") == {}
    top = store.recall("How is Maria's puppy adjusting?", k=2, touch=False, explain=True).results
    # the person prior for her turn alone
    assert {m.author: "person" in (m.explain or {})["priors"] for m in top} == {"Maria": True, "John": False}
