"""consolidate at scale (issue 22): the shortcuts that make a 100k first run fast change nothing they should not.

- a summary's vector is its cluster's centroid (no model call per summary);
- live episodes with derived vectors are written in larger batches, their vectors read in one scan and
  their topic shifts pre-tested for all points at once: the same rows, ids and edges;
- the kNN search cuts long candidate rows by a partition before sorting: the same lists;
- the summarizer's faster text helpers give the very outputs of the plain ones.
"""

from __future__ import annotations

import shutil
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import memory_core as core
from memengine import chat_episodes
from memengine import consolidate as cons
from memengine.vectors import vec_blob, vectors_from_blobs
from memory_core import NewMemory

NOW = datetime(2030, 1, 1, 12, 0, 0)
T0 = datetime(2024, 6, 8, 9, 0)

TOPICS = {
    "garden": "we planted tomatoes and basil in the garden beds, note {i}. The soil was dry.",
    "gateway": "the gateway server crashed and was restarted again, note {i}. Logs were full.",
    "hiking": "hiking trip in the alps mountains with the group, note {i}. It rained at noon.",
}


class RecordingEmbedder:
    """The test suite's hash embedder, recording every text it is asked to embed."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.model_id = inner.model_id
        self.dims = inner.dims
        self.texts: list[str] = []

    def count_tokens(self, text: str) -> int:
        return int(self.inner.count_tokens(text))

    def embed(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        self.texts.extend(texts)
        return np.asarray(self.inner.embed(texts, batch_size))


def test_a_summary_vector_is_its_cluster_centroid_and_no_summary_is_embedded(db_path: Path) -> None:
    from embedder import HashEmbedder

    emb = RecordingEmbedder(HashEmbedder())
    store = core.MemoryStore(db_path, embedder=emb)
    try:
        for topic, pattern in TOPICS.items():
            store.store_many([NewMemory(content=pattern.format(i=i), memory_type="episodic", ref=f"{topic}{i}")
                              for i in range(8)])
        stored = list(emb.texts)
        rep = cons.run(store, now=NOW, keep_backups=0)
        assert rep.counts()["summarize"]["summaries_created"] >= 3
        assert emb.texts == stored  # consolidate embedded nothing: no summary text went to the model
        rows = store.conn.execute(
            "SELECT c.summary_memory_id, c.centroid FROM clusters c WHERE c.status = 'active' "
            "AND c.summary_memory_id IS NOT NULL").fetchall()
        assert rows
        vecs = store.vectors([int(r[0]) for r in rows])
        for sid, centroid in rows:
            as_stored = vectors_from_blobs([vec_blob(np.frombuffer(centroid, dtype=np.float32))])[0]
            assert np.array_equal(vecs[int(sid)], as_stored)
    finally:
        store.close()


def test_a_cluster_without_a_centroid_still_gets_its_summary_embedded(db_path: Path) -> None:
    from embedder import HashEmbedder

    emb = RecordingEmbedder(HashEmbedder())
    store = core.MemoryStore(db_path, embedder=emb)
    try:
        ids = [store.store(TOPICS["garden"].format(i=i), "episodic", dedup=False).id for i in range(3)]
        job = cons.Consolidator(store, NOW)
        job._df = ({}, 0)
        with store.conn:
            cid = int(store.conn.execute(
                "INSERT INTO clusters(level, member_count, status, created_at, updated_at) "
                "VALUES (1, 3, 'active', '2030-01-01', '2030-01-01')").lastrowid)
            store.conn.executemany("INSERT INTO cluster_members(cluster_id, memory_id, similarity, added_at) "
                                   "VALUES (?, ?, 1.0, '2030-01-01')", [(cid, m) for m in ids])
        before = len(emb.texts)
        assert job._summarize_level(1) == (1, 0)
        text, sid = store.conn.execute("SELECT m.content, m.id FROM clusters c JOIN memories m "
                                       "ON m.id = c.summary_memory_id WHERE c.id = ?", (cid,)).fetchone()
        assert emb.texts[before:] == [text]
        as_stored = vectors_from_blobs([vec_blob(HashEmbedder().embed([text])[0])])[0]
        assert np.array_equal(store.vectors([sid])[sid], as_stored)
    finally:
        store.close()


def _thread(n: int) -> list[NewMemory]:
    """A live thread of ``n`` messages in bursts of 3-7 separated by pauses longer than EPISODE_GAP."""
    out, t, burst = [], T0, 0
    for i in range(n):
        if i and i % (3 + burst % 5) == 0:
            t += chat_episodes.EPISODE_GAP + timedelta(minutes=5)
            burst += 1
        out.append(NewMemory(content=f"Ana: message {i} about topic {burst % 4}", ref=f"m{i}", source="chat",
                             thread="t", position=i, author="Ana", event_at=t))
        t += timedelta(minutes=1)
    return out


def _rows(store: core.MemoryStore) -> tuple[list[Any], list[Any], dict[int, bytes]]:
    mems = [tuple(r) for r in store.conn.execute(
        "SELECT id, content, ref, metadata, event_at, date_terms FROM memories ORDER BY id")]
    edges = [tuple(r) for r in store.conn.execute(
        "SELECT id, source_id, target_id, edge_type, weight FROM associations ORDER BY id")]
    ids = [m[0] for m in mems]
    return mems, edges, {k: v.tobytes() for k, v in store.vectors(ids).items()}


def test_episodes_in_larger_batches_from_one_vector_scan_are_the_same_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = tmp_path / "a.db"
    store = core.MemoryStore(first)
    store.store_many(_thread(300))
    store.close()
    shutil.copy(first, tmp_path / "b.db")
    out = []
    # before: 4 per transaction and each thread's vectors read by id; after: 64, and one scan for all
    for name, batch, preload in (("a.db", 4, 10**9), ("b.db", chat_episodes.DERIVED_BATCH, 0)):
        monkeypatch.setattr(chat_episodes, "DERIVED_BATCH", batch)
        monkeypatch.setattr(chat_episodes, "PRELOAD_MIN", preload)
        s = core.MemoryStore(tmp_path / name)
        try:
            made = chat_episodes.close_all(s, T0 + timedelta(days=30))
            out.append((made, _rows(s)))
        finally:
            s.close()
    assert out[0][0] == out[1][0] > 40
    assert out[0][1] == out[1][1]


SAMPLES = [
    "Ana restarted the gateway after the outage. Oscar moved the billing job to Tuesdays!",
    "ΟΔΟΣ ΚΑΙ ΣΟΦΙΑ: Ο ΟΔΥΣΣΕΑΣ ΣΤΗΝ ΙΘΑΚΗ. Σ σ ς",  # final sigma depends on what follows a word
    "İstanbul'da KIŞ çok soğuk, ama İzmir’de değil",  # İ lowercases to two characters
    "Straße STRASSE ǅungla ǈudevit ﬁnance Ǆ K Å",  # titlecase digraphs, ligatures, Kelvin and Ångström signs
    "don’t can't rock’n’roll it's o'clock __init__ snake_case 3rd 10gb",
    "Nous sommes allés au marché, et il pleuvait pas mal; c'est la vie. Donc voilà.",
    "Wir sind gestern nach Berlin gefahren und es war nicht so kalt wie erwartet.",
    "", "   ", "…", "1234 5678",
]


def test_lower_words_are_the_per_word_lowercase() -> None:
    from memengine import summarize

    for text in SAMPLES:
        plain = [w.lower().replace("’", "'") for w in summarize._WORD.findall(text)]
        assert summarize._lower_words(text) == plain, text


def test_detect_language_is_the_per_language_count() -> None:
    from collections import Counter

    from memengine import summarize

    def plain(texts: list[str]) -> str | None:
        words = [w for t in texts for w in summarize._lower_words(t)]
        if not words:
            return None
        counts = Counter(words)
        best, share = None, 0.0
        for lang, stop in sorted(summarize._language_lists().items()):
            s = sum(n for w, n in counts.items() if w in stop) / len(words)
            if s > share:
                best, share = lang, s
        return best if share >= summarize.LANGUAGE_MIN_SHARE else None

    cases = [[t] for t in SAMPLES] + [SAMPLES, SAMPLES[5:7], [SAMPLES[5]] * 3 + [SAMPLES[0]], []]
    got = [summarize.detect_language(c) for c in cases]
    assert got == [plain(c) for c in cases]
    assert "french" in got and "german" in got  # the cases do exercise the language lists


@pytest.mark.parametrize("exact_max", [4096, 64])
def test_knn_partition_cut_gives_the_lists_of_the_full_sort(exact_max: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows with many candidates above the threshold are first cut to their k+1 largest: same lists,
    same tie order (duplicated vectors make exact ties), exact and inverted-file paths alike."""
    from memengine import knn

    monkeypatch.setattr(knn, "EXACT_MAX", exact_max)
    rng = np.random.default_rng(7)
    centres = rng.standard_normal((6, 32)).astype(np.float32)
    base = centres[rng.integers(0, 6, 900)] + 0.35 * rng.standard_normal((900, 32)).astype(np.float32)
    vecs = knn.normalise(np.concatenate([base, base[:300], base[:100]]).astype(np.float32))  # ties
    ids = np.arange(10, 10 + len(vecs), dtype=np.int64)
    allowed = rng.random(len(vecs)) < 0.8
    for k, min_sim, mask in ((5, 0.5, None), (3, 0.2, allowed), (16, 0.3, allowed), (5, -1.0, None), (1, 0.95, None)):
        lists = []
        for cut in (10**9, 0):  # never cut / always cut
            monkeypatch.setattr(knn, "SORT_MAX_PER_ROW", cut)
            idx = knn.VectorIndex(ids, vecs, n_workers=1)
            lists.append(idx.knn(np.arange(len(ids)), k, allowed=mask, min_sim=min_sim))
        assert np.array_equal(lists[0][0], lists[1][0]) and np.array_equal(lists[0][1], lists[1][1])
        assert (lists[0][0] >= 0).sum() > len(ids) // 2  # real lists, not empty ones


def _segment_plain(times: list[datetime | None], vecs: Any) -> list[tuple[int, int]]:
    """chat_episodes.segment before the vectorised pre-test: every point tested in float32."""
    ce = chat_episodes
    n, out, start = len(times), [], 0
    for i in range(1, n + 1):
        if i == n:
            out.append((start, n))
            break
        size = i - start
        t0, t1 = times[i - 1], times[i]
        gap = t0 is not None and t1 is not None and t1 - t0 >= ce.EPISODE_GAP
        shift = False
        if vecs is not None and size >= ce.EPISODE_MIN_FOR_SHIFT and i + ce.TOPIC_WINDOW <= n:
            left = vecs[max(start, i - ce.TOPIC_WINDOW): i].mean(axis=0)
            right = vecs[i: i + ce.TOPIC_WINDOW].mean(axis=0)
            denom = float(np.linalg.norm(left) * np.linalg.norm(right)) or 1.0
            shift = float(left @ right) / denom < ce.TOPIC_SHIFT_COSINE
        if gap or shift or size >= ce.EPISODE_MAX:
            out.append((start, i))
            start = i
    return out


@pytest.mark.parametrize("seed", range(6))
def test_segment_finds_the_boundaries_of_the_pointwise_test(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = 600
    topics = rng.standard_normal((8, 24)).astype(np.float32)
    which = np.repeat(rng.integers(0, 8, n // 5 + 1), rng.integers(2, 9, n // 5 + 1))[:n]
    noise = rng.uniform(0.3, 2.5)  # from clear topics to near-threshold windows everywhere
    vecs = topics[np.resize(which, n)] + noise * rng.standard_normal((n, 24)).astype(np.float32)
    vecs[rng.integers(0, n, 5)] = 0.0  # zero vectors: a zero window mean
    vecs = vecs.astype(np.float32)
    times: list[datetime | None] = [T0 + timedelta(minutes=int(m)) for m in np.cumsum(rng.integers(0, 20, n))]
    times[7] = None
    got = chat_episodes.segment(times, vecs)
    assert got == _segment_plain(times, vecs)
    assert len(got) > 20
    # and some boundaries were topic shifts (not only gaps and the size cap)
    assert _segment_plain(times, vecs) != _segment_plain(times, None)


def _lively(n: int, seed: int) -> list[NewMemory]:
    """Two threads: bursts with pauses around EPISODE_GAP, lone messages, and the size cap."""
    rng = np.random.default_rng(seed)
    out, t = [], T0
    for i in range(n):
        t += timedelta(minutes=int(rng.choice([1, 2, 30, 44, 46, 50, 120], p=[.5, .2, .05, .05, .05, .1, .05])))
        out.append(NewMemory(content=f"Ana: message {i} about topic {int(rng.integers(0, 3))}", ref=f"m{i}",
                             source="chat", thread=f"t{i % 2}", position=i // 2, author="Ana", event_at=t))
    return out


def test_episode_marks_skip_only_what_would_make_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Night after night (new messages, a forgotten and a restored one, time passing), close_all with
    its marks writes exactly what it writes re-segmenting every thread; unchanged threads are skipped."""
    from memengine import episode_marks

    msgs = _lively(400, seed=3)
    builds: list[tuple[str, str]] = []
    real_build = chat_episodes._build

    def counting(store: Any, source: str, thread: str, *rest: Any) -> Any:
        builds.append((source, thread))
        return real_build(store, source, thread, *rest)

    monkeypatch.setattr(chat_episodes, "_build", counting)
    stores = [core.MemoryStore(tmp_path / n) for n in ("marks.db", "plain.db")]
    real_settled = episode_marks.settled
    try:
        def night(at: datetime, act: Any = None) -> list[int]:
            made = []
            for k, s in enumerate(stores):
                if act:
                    act(s)
                monkeypatch.setattr(episode_marks, "settled", real_settled if k == 0 else lambda *a: False)
                builds.clear()
                made.append(chat_episodes.close_all(s, at))
            monkeypatch.setattr(episode_marks, "settled", real_settled)
            assert _rows(stores[0]) == _rows(stores[1])
            return made

        for s in stores:
            s.store_many(msgs[:300])
        end = msgs[299].event_at
        assert end is not None
        assert night(end)[0] > 10
        # the second night re-segments what the first left open and makes an episode of two lone
        # messages the first had kept apart: a case the marks must not skip (so it is in the data)
        assert night(end + timedelta(days=1)) == [1, 1]
        night(end + timedelta(days=2))
        builds.clear()
        assert chat_episodes.close_all(stores[0], end + timedelta(days=3)) == 0
        assert builds == []  # nothing changed: every thread skipped
        assert episode_marks.load(stores[0].conn)  # (and marks were kept)
        night(end + timedelta(days=4), lambda s: s.store_many(msgs[300:]))
        lone = stores[0].conn.execute(
            "SELECT ref FROM memories m WHERE level = 0 AND json_extract(metadata, '$.kind') IS NOT 'episode' AND NOT "
            "EXISTS (SELECT 1 FROM associations a WHERE a.source_id = m.id AND a.edge_type = 'part_of') ORDER BY id"
        ).fetchall()
        assert len(lone) >= 4
        gone = [r[0] for r in lone[:2]]
        night(end + timedelta(days=5), lambda s: [s.forget(s.id_by_ref("chat", r)) for r in gone])
        night(end + timedelta(days=6), lambda s: [s.restore(s.id_by_ref("chat", r)) for r in gone])
        night(end + timedelta(days=7))
    finally:
        for s in stores:
            s.close()


def test_summary_features_are_the_hstack_of_both_parts() -> None:
    """The dense and sparse parts are [√w·semantic | √(1-w)·tf-idf] built apart (to rounding: sparse norms)."""
    import math
    from collections import Counter

    from memengine import summarize as S

    rng = np.random.default_rng(5)
    members = [S.Member(id=i, content=f"{SAMPLES[i % 7]} Extra words {i} here. And more {i % 3} text!",
                        embedding=rng.standard_normal(384).astype(np.float32)) for i in range(12)]
    split = {m.id: S.split_sentences(m.content) for m in members}
    cands = S._candidates(members, split)
    docs = [[t for t in S.tokenize(c.text) if t != "ana"] for c in cands]

    def plain_tfidf(docs: list[list[str]]) -> np.ndarray:
        vocab = sorted({t for d in docs for t in d})
        index = {t: i for i, t in enumerate(vocab)}
        m = np.zeros((len(docs), max(1, len(vocab))))
        df = Counter(t for d in docs for t in set(d))
        for r, d in enumerate(docs):
            for t, c in Counter(d).items():
                m[r, index[t]] = (1.0 + math.log(c)) * (math.log((1 + len(docs)) / (1 + df[t])) + 1.0)
        return S._normalise_rows(m)

    by_id = {m.id: np.asarray(m.embedding, dtype=np.float64) for m in members}
    sem = S._normalise_rows(np.stack([by_id[c.member_id] for c in cands]))
    want = np.hstack([math.sqrt(S.SEMANTIC_WEIGHT) * sem, math.sqrt(1 - S.SEMANTIC_WEIGHT) * plain_tfidf(docs)])
    got = S._features(cands, members, None, {"ana"}).dense()
    assert got.shape == want.shape and np.allclose(got, want, rtol=0, atol=1e-15)
    assert np.allclose(S._features(cands, [], None, {"ana"}).dense(), plain_tfidf(docs), rtol=0, atol=1e-15)


def test_agglomerate_distances_are_the_upper_triangle() -> None:
    """squareform's condensed vector is the triu_indices one: the clusters are those of before."""
    from scipy.spatial.distance import squareform

    from memengine import clustering, knn

    rng = np.random.default_rng(11)
    x = knn.normalise(rng.standard_normal((300, 16)).astype(np.float32)).astype(np.float64)
    g = x @ x.T
    assert np.array_equal(squareform(g, force="tovector", checks=False), g[np.triu_indices(len(x), 1)])
    groups = clustering._agglomerate(knn.normalise((np.repeat(rng.standard_normal((6, 16)), 50, axis=0)
                                                   + 0.3 * rng.standard_normal((300, 16))).astype(np.float32)), 0.5)
    assert len(groups) >= 6 and sum(map(len, groups)) > 250


def test_relative_date_lookahead_matches_what_the_plain_pattern_matches() -> None:
    import re

    from memengine import timeparse

    pattern = timeparse._REL_RE.pattern
    prefix = r"(?=[\dtylnpcaofse])(?:"
    assert pattern.startswith(prefix) and pattern.endswith(")")
    plain = re.compile(pattern[len(prefix):-1], re.IGNORECASE)
    words = ("today Tonight YESTERDAY tomorrow the day before yesterday the day after tomorrow last next this past "
             "coming week weekend month year Monday sunday summer winter spring 3 12 a an one two Three ten few "
             "several a couple of a few days weeks ago later from now on Friday ſeven ſeveral ٣ ２ K İ ǅ x, . ! "
             "lately onward another stoday").split()
    rng = np.random.default_rng(2)
    texts = [" ".join(rng.choice(words, int(rng.integers(1, 60)))) for _ in range(3000)]
    texts += ["ſeven days ago and ٣ weeks later, on ſunday", "The Day Before Yesterday", "2 years from now"]
    found = 0
    for t in texts:
        a = [(m.span(), m.groupdict()) for m in timeparse._REL_RE.finditer(t)]
        assert a == [(m.span(), m.groupdict()) for m in plain.finditer(t)], t
        found += len(a)
    assert found > 3000
