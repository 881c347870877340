"""One topic, one subject: a cluster whose members form separable groups of words is split
(memengine/cluster_split.py), and the merges leave the parts apart.

The pure functions are read on hand-made word sets; the consolidate test imports a work chat of two
projects whose turns share the same filler (the hash embedder, a bag of words, puts them in one
cluster by that filler, as a real model does by the chat's shared days and people).
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import numpy as np

import memory_core
from memengine import cluster_split, consolidate, ingest


def _unit(n: int, dim: int = 8, seed: int = 3) -> np.ndarray:
    v = np.random.default_rng(seed).normal(size=(n, dim)) * 0.05 + 1.0  # all close: one cluster by meaning
    return v / np.linalg.norm(v, axis=1, keepdims=True)


# two projects: each turn names its own project's words, one opener names both, two replies name nothing
TWO = [
    {"harlow", "steel"}, {"harlow", "planning"}, {"harlow", "steel", "padstones"}, {"planning", "harlow"},
    {"harlow", "steel"},
    {"kite", "carpet"}, {"kite", "partitions"}, {"carpet", "partitions", "kite"}, {"kite", "budget"},
    {"kite", "carpet"},
    {"harlow", "kite"},  # the opener: both projects
    set(), set(),  # "go ahead", "done"
]
# one subject on several days: the same names come back in every exchange, other words vary
ONE = [
    {"brightside", "clutch"}, {"brightside", "quote"}, {"clutch", "part"}, {"brightside", "part"},
    {"clutch", "garage"}, {"garage", "brightside"}, {"quote", "clutch"}, {"part", "garage"},
    {"brightside", "clutch", "ready"}, {"ready", "part"},
]
# a third store-wide filler word, so no subject word is the store's background (GENERIC_SHARE)
FILLER = [{f"filler{i}"} for i in range(40)]


def _words(groups: list[set[str]]) -> cluster_split.Words:
    return cluster_split.Words([frozenset(g) for g in groups] + [frozenset(g) for g in FILLER], names=set())


def test_two_projects_are_two_parts() -> None:
    words = _words(TWO)
    gv = _unit(len(TWO) + len(FILLER))
    parts = cluster_split.split(list(range(len(TWO))), gv, words)
    assert len(parts) == 2
    sides = [{w for r in p for w in TWO[r]} for p in parts]
    assert {"steel", "planning"} <= sides[0] | sides[1]
    harlow = next(p for p in parts if 0 in p)
    kite = next(p for p in parts if 5 in p)
    assert {0, 1, 2, 3, 4} <= set(harlow) and {5, 6, 7, 8, 9} <= set(kite)
    assert sorted(harlow + kite) == list(range(len(TWO)))  # replies and the opener go with one side, none lost
    assert cluster_split.apart(harlow, kite, words)


def test_one_subject_over_days_is_not_cut() -> None:
    words = _words(ONE)
    gv = _unit(len(ONE) + len(FILLER))
    assert cluster_split.split(list(range(len(ONE))), gv, words) == [list(range(len(ONE)))]
    assert not cluster_split.apart(list(range(5)), list(range(5, 10)), words)


def test_small_clusters_and_switch_off() -> None:
    words = _words(TWO)
    gv = _unit(len(TWO) + len(FILLER))
    assert cluster_split.split([0, 1, 5, 6, 7], gv, words) == [[0, 1, 5, 6, 7]]  # under SPLIT_MIN: one exchange
    old = cluster_split.ENABLED
    cluster_split.ENABLED = False
    try:
        assert cluster_split.split(list(range(len(TWO))), gv, words) == [list(range(len(TWO)))]
        assert not cluster_split.apart(list(range(5)), list(range(5, 10)), words)
    finally:
        cluster_split.ENABLED = old


def test_a_word_one_side_lets_fall_is_no_subject() -> None:
    # the second group's only words are each said once there and also by the first: no word of its own
    groups = [{"harlow", "steel"}, {"harlow", "steel"}, {"harlow", "planning"}, {"planning", "steel"},
              {"harlow"}, {"steel", "harlow"}, {"steel"}, {"planning"}, {"harlow"}]
    words = _words(groups)
    gv = _unit(len(groups) + len(FILLER))
    assert cluster_split.split(list(range(len(groups))), gv, words) == [list(range(len(groups)))]


FILL = "ok so we have that on the list for this week then"
HARLOW = ["Harlow extension steel beam sized", "Harlow planning officer replied", "Harlow padstones and steel quoted",
          "Harlow planning drawings updated", "Harlow steel fabricator booked"]
KITE = ["Kite carpet tiles ordered", "Kite partitions glass delayed", "Kite carpet fitters moved",
        "Kite partitions install booked", "Kite budget raised again"]

def _chat(path: Path) -> Path:
    lines = []
    for day, (h, k) in enumerate(zip(HARLOW, KITE), start=1):  # both projects on every day, by the same people
        lines.append(f"0{day}/03/2024, 09:00 - Ana: {h}, {FILL}")
        lines.append(f"0{day}/03/2024, 15:00 - Ben: {k}, {FILL}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _topics(tmp_path: Path, name: str) -> list[list[str]]:
    store = memory_core.MemoryStore(tmp_path / f"{name}.db")
    ingest.import_path(store, _chat(tmp_path / f"{name}.txt"), "whatsapp")
    consolidate.run(store, now=datetime(2024, 3, 20), keep_backups=0)
    first = _members(store)
    consolidate.run(store, now=datetime(2024, 3, 21), keep_backups=0)  # a rerun changes nothing
    assert _members(store) == first
    store.close()
    return first


def _members(store: memory_core.MemoryStore) -> list[list[str]]:
    got: dict[int, list[str]] = {}
    for cid, content in store.conn.execute(
            """SELECT cm.cluster_id, m.content FROM cluster_members cm JOIN clusters c ON c.id = cm.cluster_id
               JOIN memories m ON m.id = cm.memory_id WHERE c.level = 1 AND c.status = 'active'
               AND json_extract(m.metadata, '$.kind') IS NOT 'episode'"""):
        got.setdefault(int(cid), []).append("harlow" if "Harlow" in content else "kite")
    return sorted(sorted(v) for v in got.values())


def test_consolidate_keeps_two_projects_of_one_week_apart(tmp_path: Path) -> None:
    topics = _topics(tmp_path, "split")
    assert ["harlow"] * 5 in topics and ["kite"] * 5 in topics
    assert not any("harlow" in t and "kite" in t for t in topics)


# The array forms below (word ids read once, every cut read together, apart() remembered) must give what one
# member, one word and one cut at a time gave (serve15: cost only). A reference of that reading, on random words:
def _matrix_by_words(words: cluster_split.Words, rows: list[int]) -> np.ndarray:
    held: dict[str, int] = {}
    for r in rows:
        for w in words.words[r]:
            held[w] = held.get(w, 0) + 1
    vocab = sorted((w for w, k in held.items() if k >= 2 and words.df[w] <= words.limit),
                   key=lambda w: (-held[w], w))[:cluster_split.VOCAB_MAX]
    return np.array([[1.0 if w in words.words[r] else 0.0 for w in vocab] for r in rows]).reshape(len(rows), len(vocab))


def _separable_one_by_one(m: np.ndarray, side: np.ndarray) -> bool:
    na, nb = m[side].sum(axis=0), m[~side].sum(axis=0)
    of_a, of_b = na >= nb, nb >= na
    bridge = np.where(side, m[:, (~of_a & of_b) | (of_a & of_b & (na > 0))].sum(axis=1) > 0,
                      m[:, (of_a & ~of_b) | (of_a & of_b & (na > 0))].sum(axis=1) > 0)
    plain = (m.sum(axis=1) > 0) & ~bridge

    def own(s: np.ndarray) -> bool:
        mine, theirs = m[s & plain], m[~s & plain]
        need = max(2.0, cluster_split.COVER * int((mine.sum(axis=1) > 0).sum()))
        return bool(((mine.sum(axis=0) >= need) & (theirs.sum(axis=0) == 0)).any())

    small = min(int((side & plain).sum()), int((~side & plain).sum()))
    return small >= cluster_split.WORDED_MIN and int(bridge.sum()) <= cluster_split.BRIDGE_SHARE * small \
        and own(side) and own(~side)


def test_array_reading_is_the_word_by_word_reading() -> None:
    rng = np.random.default_rng(7)
    vocab = [f"w{i:03d}" for i in range(60)]
    groups = [set(rng.choice(vocab[:30] if i % 2 else vocab[25:], size=int(rng.integers(0, 6)), replace=False))
              for i in range(300)]
    words = cluster_split.Words([frozenset(g) for g in groups], names={"w001", "w040"})
    separable_seen = 0
    for _ in range(200):
        rows = sorted(int(r) for r in rng.choice(300, size=int(rng.integers(2, 40)), replace=False))
        m, weight = words.matrix(rows)
        ref = _matrix_by_words(words, rows)
        assert m.shape == ref.shape and (m == ref).all()
        if not m.shape[1]:
            continue
        sides = rng.random((6, len(rows))) < 0.5
        many = cluster_split._separable_many(m, sides)
        for side, got in zip(sides, many):
            assert bool(got) == _separable_one_by_one(m, side) == cluster_split.separable(m, side)
            separable_seen += int(got)
    assert separable_seen > 0  # the random words do hold separable cuts: both answers were compared
    a, b = list(range(0, 20, 2)), list(range(1, 20, 2))
    first = cluster_split.apart(a, b, words)
    assert cluster_split.apart(a, b, words) == first  # remembered: the same answer
    m = words.matrix(a + b)[0]
    assert first == _separable_one_by_one(m, np.arange(len(a) + len(b)) < len(a))
