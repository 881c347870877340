"""Question words bridged to the words the store says them with (issue 19, round 33).

People ask of their own history in other words than they typed: "what did I order so I'd never have to empty the
loo again" of a chat saying "compost toilet", "my thesis defence" of "viva moved to 12 feb", "who lent a truck" of
"Tito Ramon helped with his pickup". The keyword side then matches nothing of the answer, and its best candidates
are turns holding a common word of the question. Here each content word of the question is looked up in a static
table of the embedding model's own word neighbours (``models/word_neighbours.npz``, built once from the model's
input word vectors by ``bench/recall33_vocab.py``: "toilet" -> restroom, bathroom; "thesis" -> dissertation;
"truck" -> pickup, trailer); the neighbours at least ``floor`` alike that this store holds and the question does not
say are searched as one more keyword query, whose bm25 times ``weight`` adds to each candidate's keyword score.

No model run at recall time (a table lookup per question word, one vocabulary read for the neighbours, one keyword
query); nothing stored in the memory file, no schema change. Which question words are bridged (``gate``):

* ``all`` — every content word the table holds;
* ``rare`` — those in at most RARE_SHARE of the memories (absent ones included): a word the store says often is
  its own bridge already, and its neighbours are the store's common words too.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

import numpy as np

from memengine.paths import data_file

TABLE = data_file("models", "word_neighbours.npz")  # (the checkout's, else the installed copy)
RARE_SHARE = 0.01  # "rare": a question word held by at most this share of the memories
MAX_WORDS = 12  # neighbours searched per question at most, the most alike first (one keyword query)
MIN_KNOWN = 0.5  # a question is bridged only when at least this share of its content words are in the table


@functools.lru_cache(maxsize=1)
def _table() -> tuple[dict[str, int], list[str], np.ndarray, np.ndarray]:
    """(word -> row, words, neighbour rows, cosines): read once per process (~0.5 MB); empty when missing."""
    if not TABLE.exists():
        return {}, [], np.zeros((0, 0), np.int16), np.zeros((0, 0), np.float32)
    with np.load(TABLE, allow_pickle=False) as z:
        words = z["words"].tobytes().decode("ascii").split("\n")
        nbr, sim = z["nbr"], z["sim"].astype(np.float32) / 1000.0
    return {w: i for i, w in enumerate(words)}, words, nbr, sim


def neighbours(word: str, floor: float = 0.0) -> list[tuple[str, float]]:
    """The table's neighbours of ``word`` (lower case) at least ``floor`` alike, most alike first."""
    index, words, nbr, sim = _table()
    row = index.get(word)
    if row is None:
        return []
    return [(words[j], float(s)) for j, s in zip(nbr[row], sim[row]) if j >= 0 and s >= floor]


def kin(a: str, b: str) -> bool:
    """Whether two words are one family by their spelling (one the other's head: "wars" of "war"; or the crude
    prefix stem of expand.py in common: "painting" of "paint"), which the keyword side's stemmer mostly folds."""
    from memengine.recall.expand import _stem

    return a.startswith(b) or b.startswith(a) or _stem(a) == _stem(b)


def bridge_words(terms: Sequence[str], floor: float, gate: str, shares: Callable[[list[str]], dict[str, float]],
                 held_by: Callable[[list[str]], dict[str, float]] | None = None) -> list[str]:
    """The store's words a question's content words (``terms``) are said otherwise with: each term's neighbours at
    least ``floor`` alike, neither a question word nor of a question word's family, held by the store (``held_by``:
    word -> a share above 0 when some memory holds it; ``shares`` when not given). ``gate`` "rare" bridges only
    terms in at most RARE_SHARE of the memories (``shares``: word -> share). At most MAX_WORDS, the most alike
    first."""
    index, asked = _table()[0], list(terms)
    if sum(t in index for t in terms) < MIN_KNOWN * len(terms):
        return []  # (a question in a language the table does not read: "war", "hat" are no English words there)
    if gate == "rare":
        held = shares(list(terms))
        terms = [t for t in terms if held.get(t, 0.0) <= RARE_SHARE]
    pairs = [(n, s) for t in terms for n, s in neighbours(t, floor) if not any(kin(n, a) for a in asked)]
    if not pairs:
        return []
    best: dict[str, float] = {}
    for n, s in pairs:
        best[n] = max(best.get(n, 0.0), s)
    ranked = sorted(best, key=lambda n: (-best[n], n))
    held = (held_by or shares)(ranked)
    return [n for n in ranked if held.get(n, 0.0) > 0.0][:MAX_WORDS]
