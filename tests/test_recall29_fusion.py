"""Round 29's bench (bench/model_fusion.py): two models' vector legs fused — the arithmetic, and the twin stores'
pairing and retrieval on real SQLite files (two bag-of-words embedders stand in for MiniLM and e5)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import loo
from bench import model_fusion as mf
from embedder import HashEmbedder
from memory_core import MemoryStore, RecallConfig

TURNS = ["Ana: the boiler broke again on Monday", "Ben: I called the plumber, he comes Thursday",
         "Ana: great, the kitchen tap drips too", "Ben: we should ask the landlord about the rent",
         "Ana: rent goes up in March by forty euros", "Ben: the plumber fixed the boiler and the tap"]


class OtherHash(HashEmbedder):
    """A second 'model': the same bag of words with each word reversed (other vectors, other cosines)."""

    def __init__(self) -> None:
        super().__init__()
        self.model_id = "hash-reversed-384"

    def embed(self, texts: list[str], batch_size: int = 32):  # type: ignore[no-untyped-def]
        return super().embed([" ".join(w[::-1] for w in t.split()) for t in texts])


def _store(path: Path, emb: HashEmbedder) -> MemoryStore:
    st = MemoryStore(path, embedder=emb)
    for t in TURNS:
        st.store(t, "episodic")
    return st


def test_fuse_legs_zscores_each_model_over_the_union_with_its_floor() -> None:
    first = {1: 0.9, 2: 0.5, 3: 0.1}
    second = {2: 0.8, 4: 0.2}  # 1 and 3 missing: they get second's lowest score (0.2)
    fused = mf.fuse_legs(first, second, 1.0)
    assert list(fused) == [1, 2, 3, 4]
    # w = 1: first's z-scores over the union (4 missing from first: its floor 0.1)
    vals = [0.9, 0.5, 0.1, 0.1]
    mu = sum(vals) / 4
    sd = (sum((v - mu) ** 2 for v in vals) / 4) ** 0.5
    assert fused == pytest.approx({m: (v - mu) / sd for m, v in zip([1, 2, 3, 4], vals)})
    half = mf.fuse_legs(first, second, 0.5)
    # second over the union: [0.2, 0.8, 0.2, 0.2] -> 2 is its only peak; 1 is first's
    assert max(half, key=half.__getitem__) == 2
    assert half[3] == half[4] == min(half.values())
    # per question: the model whose best stands out more is picked alone (second: z 1.73 vs first's 1.51)
    assert mf.fuse_legs(first, second, "peak-pick") == pytest.approx(mf.fuse_legs(first, second, 0.0))


def test_twin_stores_pair_by_rows_and_the_fused_leg_follows_the_weight(tmp_path: Path) -> None:
    a = _store(tmp_path / "a.db", HashEmbedder())
    b = _store(tmp_path / "b.db", OtherHash())
    try:
        mf.TWINS.clear()
        assert mf.pair_stores(a, b, "pair") == 0
        _, id_map = mf.TWINS[id(a)]
        assert id_map == {i: i for i in range(1, len(TURNS) + 1)}
        q = "when does the plumber come for the boiler"
        cfg = RecallConfig()
        plain = loo.retrieve(a, q, cfg)
        same = mf.fused_retrieve(a, q, mf.as_fused(cfg, 1.0))
        assert same.vs == plain.vs and same.kw == plain.kw
        only_b = mf.fused_retrieve(a, q, mf.as_fused(cfg, 0.0))
        second = mf._second_leg(b, q, cfg, *b.filter_sql(None, None, None, None, None, False), 100)
        order = sorted(only_b.vs, key=lambda m: (-only_b.vs[m], m))
        assert order == sorted(second, key=lambda m: (-second[m], m))[:len(order)]
        assert only_b.kw == plain.kw  # the keyword side is the first store's, unchanged
        refs = [m.id for m in a._rank(mf.fused_retrieve(a, q, mf.as_fused(cfg, 0.5)), False)]
        assert sorted(refs) == list(range(1, len(TURNS) + 1))
    finally:
        mf.TWINS.clear()
        a.close()
        b.close()


def test_stores_with_different_messages_do_not_pair(tmp_path: Path) -> None:
    a = _store(tmp_path / "a.db", HashEmbedder())
    b = MemoryStore(tmp_path / "b.db", embedder=OtherHash())
    try:
        for t in TURNS[:-1]:
            b.store(t, "episodic")
        with pytest.raises(SystemExit, match="do not hold the same messages"):
            mf.pair_stores(a, b, "pair")
    finally:
        mf.TWINS.clear()
        a.close()
        b.close()
