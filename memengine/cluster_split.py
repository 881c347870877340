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
    once per run."""

    def __init__(self, words: list[frozenset[str]], names: set[str]) -> None:
        self.words = words
        self.names = names
        df: Counter[str] = Counter()
        for ws in words:
            df.update(ws)
        self.df = df
        self.limit = max(4, int(GENERIC_SHARE * len(words)))

    def matrix(self, rows: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """The members x graph words matrix (words held by >= 2 members, not the store's background; the
        VOCAB_MAX most held) and each word's weight (a name 2, another word 1)."""
        held: Counter[str] = Counter()
        for r in rows:
            held.update(self.words[r])
        vocab = sorted((w for w, k in held.items() if k >= 2 and self.df[w] <= self.limit),
                       key=lambda w: (-held[w], w))[:VOCAB_MAX]
        col = {w: i for i, w in enumerate(vocab)}
        m = np.zeros((len(rows), len(vocab)), dtype=np.float64)
        for i, r in enumerate(rows):
            for w in self.words[r]:
                j = col.get(w)
                if j is not None:
                    m[i, j] = 1.0
        return m, np.array([2.0 if w in self.names else 1.0 for w in vocab])


def _bridges(m: np.ndarray, side: np.ndarray) -> np.ndarray:
    """The members that name something of the other side: each graph word belongs to the side more of whose
    members hold it, a word held as often by both to both; a bridge holds a word of the other side's."""
    na, nb = m[side].sum(axis=0), m[~side].sum(axis=0)
    of_a, of_b = na >= nb, nb >= na
    return np.where(side, m[:, ~of_a & of_b].sum(axis=1) + m[:, of_a & of_b & (na > 0)].sum(axis=1) > 0,
                    m[:, of_a & ~of_b].sum(axis=1) + m[:, of_a & of_b & (na > 0)].sum(axis=1) > 0)


def _own_word(m: np.ndarray, side: np.ndarray, plain: np.ndarray) -> bool:
    """Whether the members ``side`` have a word held by >= 2 and >= COVER of their worded members that are no bridge
    (``plain``) and by no plain member of the others."""
    mine = m[side & plain]
    theirs = m[~side & plain]
    worded = int((mine.sum(axis=1) > 0).sum())
    need = max(2.0, COVER * worded)
    return bool(((mine.sum(axis=0) >= need) & (theirs.sum(axis=0) == 0)).any())


def separable(m: np.ndarray, side: np.ndarray) -> bool:
    """Whether the members split as ``side`` / ``~side`` hold two subjects: each side keeps WORDED_MIN members with
    words that are no bridge and a word of its own, and the bridges (members naming both) are at most BRIDGE_SHARE
    of the smaller side's other worded members."""
    bridge = _bridges(m, side)
    worded = m.sum(axis=1) > 0
    plain = worded & ~bridge
    small = min(int((side & plain).sum()), int((~side & plain).sum()))
    return small >= WORDED_MIN and int(bridge.sum()) <= BRIDGE_SHARE * small \
        and _own_word(m, side, plain) and _own_word(m, ~side, plain)


def _cut_rows(rows: list[int], gv: np.ndarray, words: Words) -> list[list[int]] | None:
    """Two parts of ``rows`` (module docstring), or None: the cuts along the member graph's Fiedler vector, least
    conductance first, until one is separable."""
    m, weight = words.matrix(rows)
    worded = [i for i in range(len(rows)) if m[i].any()]
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
    order = [int(j) for j in np.argsort(vecs[:, 1] * inv, kind="stable")]
    total = float(deg.sum())
    cuts: list[tuple[float, int]] = []
    cut = vol = 0.0
    for k in range(1, len(order)):
        i = order[k - 1]
        cut += float(deg[i]) - 2.0 * float(sub[i, order[: k - 1]].sum())
        vol += float(deg[i])
        small = min(vol, total - vol)
        if small > 0 and WORDED_MIN <= k <= len(order) - WORDED_MIN:
            cuts.append((cut / small, k))
    vecs_rows = gv[rows]
    for _phi, k in sorted(cuts)[:CUTS_TRIED]:
        side = np.zeros(len(rows), dtype=bool)
        side[[worded[j] for j in order[:k]]] = True
        decided = np.zeros(len(rows), dtype=bool)
        decided[worded] = True
        if not separable(m, side):
            continue
        # members with no graph word ("go ahead", "done") go with the side they are closer to by meaning
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
    m, _weight = words.matrix(list(a) + list(b))
    return separable(m, np.arange(len(a) + len(b)) < len(a))


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
