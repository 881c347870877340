"""One topic, one subject: a level-1 cluster whose members form separable groups of words is split.

Two subjects of one chat often share its days, its people and its places: a studio's two projects
handled by the same four people in the same week, a friends' trip and a hen do planned on the same
evenings, a mother's move and her operation in the same town. Their turns sit close in meaning (the
same people, "Tuesday", "booked", "the 14th"), so average linkage and the merge by cosine put them in
one cluster, and the brief showed a 19-turn topic "Harlow" that held the other project's budget, or a
23-turn topic of one subject with two or three turns of others.

What keeps them apart is what each group names: "Harlow", "steel", "planning" on one side, "Kite
Legal", "carpet", "partitions" on the other, and only a turn or two naming both ("site visits Tuesday:
Didsbury at 9, Kite Legal at 2"). So, for consolidate's level-1 clustering only, a new cluster of at
least SPLIT_MIN members is read as a graph of its members linked by the words they share (the words
memengine/cluster_names.py reads: no stop word, filler, common verb, calendar word, general noun or
person's name; a word held by at least two of its members and by at most GENERIC_SHARE of the store's
memories, as a chat of two subjects names each in a third of its turns; a name 2 points, another word
1), and cut along the graph's Fiedler vector (the least conductance first) where the two sides hold
two subjects (:func:`separable`):

* each side keeps WORDED_MIN members with words that name nothing of the other side's, and at least
  TOPIC_MIN members in all;
* the bridges, members that name something of the other side (a word more of the other side's
  members hold), are at most BRIDGE_SHARE of the smaller side's others: an opener naming both
  projects is one, while a subject's exchanges of different days share their names ("Brightside",
  "clutch") in most of their turns, so no cut of them leaves few bridges;
* each side has a word of its own: held by at least two of its members that are no bridge and by
  COVER of them, and by none of the other side's (the subject's name, not a word one turn let fall).

Members with no such word (replies, "go ahead", "put it in the calendar") go with the side they are
closer to by meaning (the grouping vectors: their exchange's subject, memengine/cluster_context.py).
Each side is cut again the same way, up to MAX_PARTS parts. The merges of memengine/clustering.py ask
:func:`apart` of a pair first, so two parts of a split are not merged back, and a rerun changes
nothing. A stored cluster is never cut (its members are never taken out). Stored vectors, centroids and
recall never see the words. (How the bridge test came to be, and what it measured: bench/README.md, "Brief,
round 13".)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import numpy as np

ENABLED = True  # bench/brief_quality.py measures with and without (BRIEF_QUALITY_SET)
SPLIT_MIN = 8  # a cluster of fewer members is read as one exchange: not cut
SPLIT_MAX = 400  # nor one of more (chat subjects are a few dozen turns; the cost stays bounded at 1M)
VOCAB_MAX = 120  # the cluster's most held words read (an eigen-decomposition of their graph)
TOPIC_MIN = 3  # each part keeps at least this many members (clustering.TOPIC_MIN_SIZE)...
WORDED_MIN = 2  # ...this many of them with words of the graph that name no other side
GENERIC_SHARE = 0.5  # a word held by more of the store's memories is its background (a chat of two subjects
# names each in a third of its turns)
BRIDGE_SHARE = 0.5  # members naming both sides: at most this share of the smaller side's other worded members
CUTS_TRIED = 8  # cuts along the Fiedler vector tried, least conductance first
COVER = 0.25  # a side's own word is held by at least this share of its turns with words
MAX_PARTS = 4  # parts one cluster is cut into at most


class Words:
    """The words of the rows being clustered (cluster_names.words_of) and the store's document frequencies, read
    once per run: each row's words as ids (ids in the words' sorted order, so a sort by id is one by word), so a
    cluster's matrix is a few array operations rather than a loop over its members' words."""

    def __init__(self, words: list[frozenset[str]], names: set[str]) -> None:
        self.words = words
        self.names = names
        df: Counter[str] = Counter()
        for ws in words:
            df.update(ws)
        self.df = df
        self.limit = max(4, int(GENERIC_SHARE * len(words)))
        vocab = sorted(df)
        ids = {w: i for i, w in enumerate(vocab)}
        # row r's words: _flat[_start[r] : _start[r + 1]] (one array: no 100k small ones to build)
        self._flat = np.array([ids[w] for ws in words for w in ws], dtype=np.int64)
        self._start = np.concatenate(([0], np.cumsum([len(ws) for ws in words]))).astype(np.int64)
        self._df = np.array([df[w] for w in vocab], dtype=np.int64)
        self._weight = np.array([2.0 if w in names else 1.0 for w in vocab], dtype=np.float64)
        self._apart: dict[tuple[tuple[int, ...], tuple[int, ...]], bool] = {}  # apart() asked again of a pair

    def matrix(self, rows: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """The members x graph words matrix (words held by >= 2 members, not the store's background; the
        VOCAB_MAX most held, ties by word) and each word's weight (a name 2, another word 1)."""
        at = np.asarray(rows, dtype=np.int64)
        starts, lens = self._start[at], self._start[at + 1] - self._start[at]
        total = int(lens.sum())
        if not total:
            return np.zeros((len(rows), 0), dtype=np.float64), np.zeros(0, dtype=np.float64)
        ends = np.cumsum(lens)
        flat = self._flat[np.arange(total) + np.repeat(starts - (ends - lens), lens)]
        uniq, held = np.unique(flat, return_counts=True)  # uniq ascending: by word
        keep = (held >= 2) & (self._df[uniq] <= self.limit)
        uniq, held = uniq[keep], held[keep]
        order = np.lexsort((uniq, -held))[:VOCAB_MAX]  # most held first, then by word
        vocab = uniq[order]
        m = np.zeros((len(rows), len(vocab)), dtype=np.float64)
        if len(vocab):
            by_id = np.argsort(vocab)
            sorted_vocab = vocab[by_id]
            pos = np.minimum(np.searchsorted(sorted_vocab, flat), len(vocab) - 1)
            hit = sorted_vocab[pos] == flat
            row_of = np.repeat(np.arange(len(rows)), lens)
            m[row_of[hit], by_id[pos[hit]]] = 1.0
        return m, self._weight[vocab]


def _separable_many(m: np.ndarray, sides: np.ndarray) -> np.ndarray:
    """:func:`separable` of each row of ``sides`` (cuts x members), read together: the cuts along one vector are a
    few matrix products rather than one pass each (the weights are whole numbers: the sums are exact)."""
    s = sides.T  # members x cuts
    sf = s.astype(np.float64)
    na = sf.T @ m  # cuts x words: the members holding each word on the side...
    nb = m.sum(axis=0)[None, :] - na  # ...and on the other side
    # each graph word belongs to the side more of whose members hold it, a word held as often by both to both;
    # a bridge holds a word of the other side's
    of_a, of_b = na >= nb, nb >= na
    both = of_a & of_b & (na > 0)
    names_b = m @ ((~of_a & of_b) | both).astype(np.float64).T > 0  # members x cuts
    names_a = m @ ((of_a & ~of_b) | both).astype(np.float64).T > 0
    bridge = np.where(s, names_b, names_a)
    worded = m.sum(axis=1) > 0
    plain = worded[:, None] & ~bridge
    mine_a, mine_b = s & plain, ~s & plain
    pa, pb = mine_a.sum(axis=0), mine_b.sum(axis=0)
    small = np.minimum(pa, pb)
    held_a = mine_a.T.astype(np.float64) @ m
    held_b = mine_b.T.astype(np.float64) @ m
    # a side's own word: held by >= 2 and >= COVER of its plain members (plain members are worded), by no plain
    # member of the other side
    own_a = ((held_a >= np.maximum(2.0, COVER * pa)[:, None]) & (held_b == 0)).any(axis=1)
    own_b = ((held_b >= np.maximum(2.0, COVER * pb)[:, None]) & (held_a == 0)).any(axis=1)
    return (small >= WORDED_MIN) & (bridge.sum(axis=0) <= BRIDGE_SHARE * small) & own_a & own_b


def separable(m: np.ndarray, side: np.ndarray) -> bool:
    """Whether the members split as ``side`` / ``~side`` hold two subjects: each side keeps WORDED_MIN members with
    words that are no bridge (a member naming something of the other side: each word belongs to the side more of
    whose members hold it) and a word of its own, held by >= 2 and >= COVER of its members that are no bridge and by
    none of the other side's; and the bridges are at most BRIDGE_SHARE of the smaller side's other worded members."""
    return bool(_separable_many(m, side[None, :])[0])


def _cut_rows(rows: list[int], gv: np.ndarray, words: Words) -> list[list[int]] | None:
    """Two parts of ``rows`` (module docstring), or None: the cuts along the member graph's Fiedler vector, least
    conductance first, until one is separable."""
    m, weight = words.matrix(rows)
    worded = np.nonzero(m.any(axis=1))[0]
    if len(worded) < 2 * WORDED_MIN:
        return None
    sub = (m[worded] * weight) @ m[worded].T
    np.fill_diagonal(sub, 0.0)
    deg = sub.sum(axis=1)
    if (deg <= 0).all():
        return None
    inv = 1.0 / np.sqrt(np.where(deg > 0, deg, 1.0))
    lap = np.eye(len(worded)) - inv[:, None] * sub * inv[None, :]
    _vals, vecs = np.linalg.eigh(lap)
    order = np.argsort(vecs[:, 1] * inv, kind="stable")
    total = float(deg.sum())
    # the cut and the volume of the first k members along the vector, for every k at once: the weights are whole
    # numbers (a name 2, another word 1), so these sums are exact in any order (the same cuts as one by one)
    d = deg[order]
    inner = np.tril(sub[np.ix_(order, order)], -1).sum(axis=1)  # member k-1's links to the k-1 before it
    ks = np.arange(WORDED_MIN, len(order) - WORDED_MIN + 1)
    cut = np.cumsum(d - 2.0 * inner)[ks - 1]
    vol = np.cumsum(d)[ks - 1]
    small = np.minimum(vol, total - vol)
    ks, cut, small = ks[small > 0], cut[small > 0], small[small > 0]
    decided = np.zeros(len(rows), dtype=bool)
    decided[worded] = True
    tried = np.lexsort((ks, cut / small))[:CUTS_TRIED]  # least conductance first, then the fewer members
    sides = np.zeros((len(tried), len(rows)), dtype=bool)
    for t, j in enumerate(tried):
        sides[t, worded[order[: int(ks[j])]]] = True
    for side, ok in zip(sides, _separable_many(m, sides)):
        if not ok:
            continue
        # members with no graph word ("go ahead", "done") go with the side they are closer to by meaning
        vecs_rows = gv[rows]
        ma = vecs_rows[side & decided].mean(axis=0)
        mb = vecs_rows[~side & decided].mean(axis=0)
        side = np.where(decided, side, vecs_rows @ ma >= vecs_rows @ mb)
        if side.sum() >= TOPIC_MIN and (~side).sum() >= TOPIC_MIN:
            return [sorted(r for r, x in zip(rows, side) if x), sorted(r for r, x in zip(rows, side) if not x)]
    return None


def split(rows: list[int], gv: np.ndarray, words: Words) -> list[list[int]]:
    """The parts of a cluster (``rows``: rows of ``gv``), in one list when it is one subject (module docstring)."""
    if not ENABLED or len(rows) < SPLIT_MIN or len(rows) > SPLIT_MAX:
        return [rows]
    todo = [sorted(rows)]
    done: list[list[int]] = []
    while todo:
        cur = todo.pop(0)
        cut = _cut_rows(cur, gv, words) if len(cur) >= SPLIT_MIN and len(done) + len(todo) + 2 <= MAX_PARTS \
            else None
        if cut is None:
            done.append(cur)
        else:
            todo.extend(cut)
    return sorted(done, key=lambda p: (-len(p), p[0]))


def apart(a: list[int], b: list[int], words: Words) -> bool:
    """Whether two clusters (rows) hold separable subjects (:func:`separable` of the two): the merge steps leave
    such a pair apart, so the parts of a split are not merged back."""
    if not ENABLED or len(a) + len(b) < SPLIT_MIN or len(a) < TOPIC_MIN or len(b) < TOPIC_MIN:
        return False
    key = (tuple(a), tuple(b))
    known = words._apart.get(key)
    if known is None:  # the merge steps ask again of a pair that did not change (a third of the asks at 100k)
        m, _weight = words.matrix(list(a) + list(b))
        known = words._apart[key] = separable(m, np.arange(len(a) + len(b)) < len(a))
    return known


def split_all(clusters: dict[int, list[int]], assign: np.ndarray, gv: np.ndarray, words: Words,
              new_id: Callable[[], int], seen: dict[tuple[int, ...], bool]) -> bool:
    """Split every new cluster (negative id: made in this run) that holds separable subjects; the first part
    keeps its id, the others get ids from ``new_id()``. True if any was split. ``seen``: the member lists already
    read whole in this run (each round asks again only of the clusters that changed). (A stored cluster is left
    as it is: its members are never taken out; the merges' :func:`apart` keeps new parts from it instead.)"""
    changed = False
    for cid in sorted(c for c in clusters if c < 0):
        key = tuple(clusters[cid])
        if key in seen:
            continue
        parts = split(clusters[cid], gv, words)
        if len(parts) < 2:
            seen[key] = True
            continue
        clusters[cid] = parts[0]
        for part in parts[1:]:
            nid = new_id()
            clusters[nid] = part
            assign[part] = nid
        changed = True
    return changed
