"""The stored sign plane (memengine/signplane.py): exact after every write, used for kNN at scale,
checked and repaired by doctor, filled by migration m009 for older stores."""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from memengine import migrations, signplane, signrank, storebase
from memengine.db import connect, write_tx
from memengine.vectors import VEC_PARAM, vec_blob, vectors_from_blobs
from memory_core import MemoryStore, NewMemory

TABLES = ("vec_memories", "vec_contexts")


class ClusterEmbedder:
    """Dense vectors in clusters: "c<k> ..." lies near centre k, anything else near no centre.

    MiniLM-like (dense, every dimension signed), unlike the sparse hash embedder, so the
    Hamming shortlist has real neighbours to find; deterministic per text.
    """

    model_id = "test-clusters-384"
    dims = 384

    def __init__(self, clusters: int = 12) -> None:
        rng = np.random.default_rng(0)
        self.centres = rng.standard_normal((clusters, self.dims)).astype(np.float32)

    def embed(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        out = np.zeros((len(texts), self.dims), dtype=np.float32)
        for i, t in enumerate(texts):
            seed = int.from_bytes(hashlib.blake2b(t.encode(), digest_size=8).digest(), "little")
            noise = np.random.default_rng(seed).standard_normal(self.dims).astype(np.float32)
            head = t.split()[0]
            centre = self.centres[int(head[1:]) % len(self.centres)] if head[:1] == "c" and head[1:].isdigit() else 0
            out[i] = centre + 0.8 * noise
        return out / np.linalg.norm(out, axis=1, keepdims=True)


def stored_signs(conn, table: str) -> dict[int, bytes]:
    """{memory id: 48 sign bytes} as stored in the sign plane."""
    out = {}
    for block, present, bits in conn.execute(f"SELECT block, present, bits FROM {signplane.SIGN_TABLES[table]}"):
        for slot in range(signplane.SLOTS):
            if present[slot]:
                out[block * signplane.SLOTS + slot] = bytes(bits[slot * 48:(slot + 1) * 48])
    return out


def expected_signs(conn, table: str) -> dict[int, bytes]:
    """{memory id: 48 sign bytes} computed from the vectors themselves."""
    rows = conn.execute(f"SELECT memory_id, embedding FROM {table}").fetchall()
    mat = vectors_from_blobs([r[1] for r in rows])
    return {int(r[0]): np.packbits(v > 0).tobytes() for r, v in zip(rows, mat)}


def assert_exact(conn) -> None:
    for table in TABLES:
        assert stored_signs(conn, table) == expected_signs(conn, table), table
        c = signplane.check(conn, table)
        assert (c["missing"], c["stale"], c["extra"]) == (0, 0, 0), (table, c)


def chat(n: int, thread: str = "t1", start: int = 0) -> list[NewMemory]:
    t0 = datetime(2024, 3, 1, 9, 0)
    return [NewMemory(content=f"c{(start + i) % 12} turn {start + i} of {thread}", memory_type="episodic",
                      source="chat", ref=f"{thread}-{start + i}", author="Ana" if i % 2 else "Bo", thread=thread,
                      position=start + i, event_at=t0 + timedelta(minutes=start + i)) for i in range(n)]


def test_signs_exact_after_store_forget_restore_update(store: MemoryStore) -> None:
    a = store.store("the boiler needs a service in May", "semantic").id
    b = store.store("Ana likes dinner at eight", "semantic").id
    store.store_many(chat(12))
    assert len(stored_signs(store.conn, "vec_contexts")) == 12  # turns have context vectors
    assert len(stored_signs(store.conn, "vec_memories")) == 14
    assert_exact(store.conn)
    store.forget(a)  # soft delete: the vector stays, so does its sign
    assert_exact(store.conn)
    assert a in stored_signs(store.conn, "vec_memories")
    store.restore(a)
    new = store.update(b, "Ana likes dinner at nine").id
    assert new in stored_signs(store.conn, "vec_memories")
    store.store_many(chat(5, start=12))  # new turns rewrite older turns' context vectors
    assert_exact(store.conn)


def test_signs_exact_after_reindex_and_purge(store: MemoryStore) -> None:
    ids = [store.store(f"note number {i} about gardening and tomatoes {i * 7}").id for i in range(30)]
    store.store_many(chat(8))
    store.reindex()
    assert_exact(store.conn)
    with write_tx(store.conn):  # a vector removed behind the engine's back, then repaired by doctor
        store.conn.execute("DELETE FROM memories WHERE id = ?", (ids[3],))
    report = store.doctor(fix=True)
    assert report["ok"], report
    assert ids[3] not in stored_signs(store.conn, "vec_memories")
    assert_exact(store.conn)


def test_block_boundaries_and_drop(store: MemoryStore) -> None:
    """Ids on both sides of a block edge land in their own slots; drop empties a block row."""
    conn = store.conn
    vecs = ClusterEmbedder().embed([f"c{i} x" for i in range(4)])
    ids = [signplane.SLOTS - 1, signplane.SLOTS, 3 * signplane.SLOTS + 5, 7]
    with write_tx(conn):
        signplane.put(conn, "vec_memories", [(mid, vec_blob(v)) for mid, v in zip(ids, vecs)])
    got = stored_signs(conn, "vec_memories")
    assert sorted(got) == sorted(ids)
    for mid, v in zip(ids, vecs):
        assert got[mid] == np.packbits(vectors_from_blobs([vec_blob(v)])[0] > 0).tobytes()  # the stored int8 form
    with write_tx(conn):
        signplane.drop(conn, "vec_memories", [3 * signplane.SLOTS + 5])
    assert sorted(stored_signs(conn, "vec_memories")) == sorted(ids[:2] + ids[3:])
    assert conn.execute("SELECT count(*) FROM sign_memories WHERE block = 3").fetchone()[0] == 0


def test_migration_fills_the_plane_of_an_old_store(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    conn = connect(path)
    migrations.migrate(conn, upto="m008_counts")
    vecs = ClusterEmbedder().embed([f"c{i % 3} old {i}" for i in range(600)])  # past one block
    with write_tx(conn):
        for i, v in enumerate(vecs, start=1):
            conn.execute("""INSERT INTO memories(id, content, content_hash, created_at, updated_at)
                            VALUES (?, ?, ?, '2024-01-01', '2024-01-01')""", (i, f"old {i}", f"h{i}"))
            conn.execute(f"INSERT INTO vec_memories(memory_id, embedding) VALUES (?, {VEC_PARAM})", (i, vec_blob(v)))
            if i % 2:
                conn.execute(f"INSERT INTO vec_contexts(memory_id, embedding) VALUES (?, {VEC_PARAM})",
                             (i, vec_blob(-v)))
    assert migrations.migrate(conn, upto="m009_signplane") == ["m009_signplane"]
    assert len(stored_signs(conn, "vec_memories")) == 600
    assert len(stored_signs(conn, "vec_contexts")) == 300
    assert_exact(conn)
    conn.close()


@pytest.fixture
def clustered(tmp_path: Path) -> MemoryStore:
    s = MemoryStore(tmp_path / "clusters.db", embedder=ClusterEmbedder())
    s.store_many([NewMemory(content=f"c{i % 12} note {i} about topic {i % 12}", source="t", ref=str(i))
                  for i in range(900)] + chat(60))
    yield s
    s.close()


@pytest.mark.parametrize("prefilter", [False, True])
def test_shortlist_returns_the_exact_top_k(clustered: MemoryStore, monkeypatch: pytest.MonkeyPatch,
                                           prefilter: bool) -> None:
    """Past the size threshold (lowered here) kNN goes through the sign plane and finds what the scan finds
    (with the Hamming pre-pass of large tables too, forced here)."""
    if prefilter:
        monkeypatch.setattr(signrank, "PREFILTER_FROM", 0)
        monkeypatch.setattr(signrank, "PREFILTER_SHARE", 0.3)
    qvecs = ClusterEmbedder().embed([f"c{k} what about topic {k}" for k in range(12)])
    monkeypatch.setenv("MEM_SIGNPLANE_MIN_ROWS", str(10**9))
    exact = {(t, k): clustered._knn(t, q, 10) for t in TABLES for k, q in enumerate(qvecs)}
    calls: list[int] = []
    real_search = signplane.search

    def counted(*a, **kw):
        calls.append(1)
        return real_search(*a, **kw)

    monkeypatch.setattr(signplane, "search", counted)
    monkeypatch.setenv("MEM_SIGNPLANE_MIN_ROWS", "500")
    monkeypatch.setattr(signrank, "SHORTLIST", 150)  # 150 of 960 rows re-ranked
    for (table, k), want in exact.items():
        got = clustered._knn(table, qvecs[k], 10)
        assert [m for m, _ in got] == [m for m, _ in want], (table, k)
        assert np.allclose([s for _, s in got], [s for _, s in want], atol=1e-6)
    assert len(calls) == len(exact)


def test_recall_through_the_shortlist_matches_the_scan(clustered: MemoryStore, monkeypatch: pytest.MonkeyPatch) -> None:
    queries = [f"c{k} topic {k} note" for k in range(0, 12, 3)]
    monkeypatch.setattr(storebase, "WARM_AFTER", 10**9)  # one-shot behaviour: no in-process matrices
    monkeypatch.setenv("MEM_SIGNPLANE_MIN_ROWS", str(10**9))
    exact = [[m.id for m in clustered.recall(q, k=5, touch=False).results] for q in queries]
    monkeypatch.setenv("MEM_SIGNPLANE_MIN_ROWS", "500")
    monkeypatch.setattr(signrank, "SHORTLIST_FACTOR", 1)
    monkeypatch.setattr(signrank, "SHORTLIST", 500)  # recall asks 400 per table: 500 of 960 re-ranked
    widths: list[int] = []
    real_shortlist = signplane.shortlist
    monkeypatch.setattr(signplane, "shortlist", lambda *a: widths.append(a[-1]) or real_shortlist(*a))
    assert [[m.id for m in clustered.recall(q, k=5, touch=False).results] for q in queries] == exact
    assert widths == [500] * 2 * len(queries)  # both tables, every query, through the sign plane
    assert not clustered._matrices


def test_vectors_read_from_sqlite_vec_storage_equal_vec0s_own(clustered: MemoryStore) -> None:
    """The shortcut around vec0's lookup reads the same bytes (guards a sqlite-vec layout change)."""
    conn = clustered.conn
    for table in TABLES:
        want = {int(r[0]): bytes(r[1]) for r in conn.execute(f"SELECT memory_id, embedding FROM {table}")}
        ask = sorted(want)[::7] + [10**6]  # and an id without a vector
        got = signplane._read_chunks(conn, table, ask)
        assert got is not None
        assert dict(zip(got[0], got[1])) == {m: want[m] for m in ask if m in want}


def test_doctor_detects_and_repairs_a_damaged_plane(clustered: MemoryStore) -> None:
    conn = clustered.conn
    assert clustered.doctor()["sign_plane"] == "ok"
    with write_tx(conn):
        conn.execute("DELETE FROM sign_memories WHERE block = 1")  # 256 signs missing
        conn.execute("UPDATE sign_contexts SET bits = zeroblob(length(bits))")  # every context sign stale
    report = clustered.doctor()
    assert not report["ok"]
    assert report["sign_plane"]["vec_memories"]["missing"] == 256
    assert report["sign_plane"]["vec_contexts"]["stale"] == 60
    assert any("sign plane of vec_memories" in p for p in report["problems"])
    fixed = clustered.doctor(fix=True)
    assert fixed["ok"] and fixed["sign_plane"] == "ok", fixed
    assert_exact(conn)


def test_doctor_restores_a_dropped_plane(clustered: MemoryStore) -> None:
    with write_tx(clustered.conn):
        clustered.conn.execute("DROP TABLE sign_contexts")
    assert signplane.search(clustered.conn, "vec_contexts", ClusterEmbedder().embed(["c1 x"])[0], 5) is None
    report = clustered.doctor()
    assert report["sign_plane"]["vec_contexts"]["missing"] == 60
    assert clustered.doctor(fix=True)["ok"]
    assert_exact(clustered.conn)


def test_recovered_file_has_an_exact_plane(clustered: MemoryStore, tmp_path: Path) -> None:
    from memengine.recovery import recover_file

    clustered.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    with write_tx(clustered.conn):  # a damaged plane in the source is not copied: it is rebuilt from the vectors
        clustered.conn.execute("UPDATE sign_memories SET bits = zeroblob(length(bits))")
    clustered.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    recover_file(clustered.path, tmp_path / "salvaged.db")
    conn = connect(tmp_path / "salvaged.db")
    assert len(stored_signs(conn, "vec_memories")) == 960
    assert_exact(conn)
    conn.close()


def _reference_check(conn, table: str) -> dict[str, int]:
    """The session-start check (a Python loop over vec0's rows, one comparison a row): what the fast one must equal."""
    stored = {}
    for block, present, bits in conn.execute(f"SELECT block, present, bits FROM {signplane.SIGN_TABLES[table]}"):
        if len(present) != signplane.SLOTS or len(bits) != signplane.SLOTS * signplane.BYTES:
            stored[int(block)] = (np.ones(signplane.SLOTS, dtype=np.uint8),
                                  np.full((signplane.SLOTS, signplane.BYTES), -1, dtype=np.int16))
            continue
        stored[int(block)] = (np.frombuffer(present, dtype=np.uint8).copy(),
                              np.frombuffer(bits, dtype=np.uint8).reshape(signplane.SLOTS, signplane.BYTES)
                              .astype(np.int16))
    out = {"missing": 0, "stale": 0, "extra": 0, "rows": 0}
    for mid, blob in conn.execute(f"SELECT memory_id, embedding FROM {table}"):
        bits = np.packbits(vectors_from_blobs([blob])[0] > 0)
        entry = stored.get(int(mid) >> signplane.BLOCK_SHIFT)
        slot = int(mid) & (signplane.SLOTS - 1)
        out["rows"] += 1
        if entry is None or not entry[0][slot]:
            out["missing"] += 1
            continue
        out["stale"] += int(not np.array_equal(entry[1][slot], bits))
        entry[0][slot] = 0
    out["extra"] = int(sum(int(p.astype(bool).sum()) for p, _ in stored.values()))
    return out


def test_check_counts_every_kind_of_damage_as_the_row_by_row_check_did(clustered: MemoryStore,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """doctor's sign-plane check reads sqlite-vec's chunks and compares a batch at once (10 s -> ~1 s at 100k):
    the same counts as the row-by-row check over vec0, on a clean plane and on each damage, by both of its
    reading paths."""
    conn = clustered.conn
    for table in TABLES:
        assert signplane._chunk_batches(conn, table) is not None  # the fast path is the one under test
    damages = [
        "DELETE FROM sign_memories WHERE block = 1",  # 256 missing
        "UPDATE sign_memories SET bits = zeroblob(length(bits)) WHERE block = 2",  # stale
        "UPDATE sign_memories SET present = zeroblob(256) WHERE block = 3",  # missing, by the presence bytes
        "UPDATE sign_memories SET bits = x'00' WHERE block = 0",  # a damaged row: every slot wrong
        "INSERT INTO sign_memories(block, present, bits) VALUES (99, zeroblob(256), zeroblob(12288))",  # empty row
        "shift",  # the context signs shifted by one slot: stale
    ]
    for step, sql in enumerate([None, *damages]):
        if sql == "shift":
            with write_tx(conn):
                for block, bits in conn.execute("SELECT block, bits FROM sign_contexts").fetchall():
                    conn.execute("UPDATE sign_contexts SET bits = ? WHERE block = ?", (bits[48:] + bits[:48], block))
        elif sql:
            with write_tx(conn):
                conn.execute(sql)
        if step == 3:  # vectors gone, their signs left behind: extra
            with write_tx(conn):
                conn.execute("DELETE FROM vec_memories WHERE memory_id IN (600, 601, 602)")
        for table in TABLES:
            want = _reference_check(conn, table)
            assert signplane.check(conn, table) == want, (step, table)
            with monkeypatch.context() as m:  # the vec0 path (another sqlite-vec layout) counts the same
                m.setattr(signplane, "_chunk_batches", lambda *_: None)
                assert signplane.check(conn, table, batch=97) == want, (step, table)
    assert signplane.check(conn, "vec_memories")["missing"] >= 256


def test_int8_signs_are_the_signs_of_the_unit_vectors() -> None:
    rng = np.random.default_rng(3)
    vecs = rng.standard_normal((50, 384)).astype(np.float32)
    vecs[3] = 0  # a zero vector: no positive component
    vecs[4, :10] = 1e-9  # components that round to 0 in int8
    blobs = [vec_blob(v) for v in vecs]
    want = np.packbits(vectors_from_blobs(blobs) > 0, axis=1)
    assert np.array_equal(signplane.sign_bytes(blobs), want)
    floats = [v.astype(np.float32).tobytes() for v in vecs]  # an old file's float rows: decoded, as before
    assert np.array_equal(signplane.sign_bytes(floats), np.packbits(vecs > 0, axis=1))
