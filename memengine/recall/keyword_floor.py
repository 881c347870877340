"""A keyword side that matched only words most memories hold says nothing (round 34, bench/README.md).

SQLite's FTS5 scores a word held by more than half of the rows with an inverse document frequency of 1e-6 (its
floor: ``log((N - n + 0.5) / (n + 0.5))`` would be negative), so a question whose only indexed words are such words
gets bm25 scores near 1e-6 on every candidate. Fusion then normalises that list like any other (min-max, or z-scores
from Z_MIN_SCORES scores): the shortest rows holding the word get the keyword side's full weight. In a store of one
agent's notes about one user the user's name is such a word: "What project is Lucía leading at work?" put
"Lucía es alérgica a la penicilina." first, keyword score 1.0 of a bm25 of 0.000001. A word held by fewer than half
of the rows scores at least ~0.05 (its idf, times a term frequency factor near 1), so the gap is four orders wide
and any bound inside it reads the same (1e-5 .. 0.05 give identical rankings on held-out 29).

FTS5 floors a word held by exactly half of the rows too (idf log(1) = 0; "Lucía" is in 18 of her 36 notes), and
in a store of four notes "amlodipine" in two of them is no name of the user: the candidates of both sides must be
at least Z_MIN_SCORES (fusion's own bound for a list read as a distribution).

When the best keyword score is below :data:`NO_IDF_SCORE` and every keyword candidate is an agent's note
(notes.is_note: no chat turn, episode, summary or shared memory), hybrid recall fuses the vector side alone (the
keyword candidates stay candidates, scored by their vectors). Not on chat turns: on LoCoMo dev the same reading of a
conversation's turns lost 0.001 of recall@5, in-sample and leave-one-out (chosen by 1 fold of 27), and held-out 24
lost one question for one gained.
"""

from __future__ import annotations

from collections.abc import Mapping

from memengine.recall.config import Z_MIN_SCORES
from memengine.records import Candidate

# Below this the best match holds only words with FTS5's idf floor (1e-6 x a term frequency factor of a few).
NO_IDF_SCORE = 1e-3


def says_nothing(kw: Mapping[int, float], rows: Mapping[int, Candidate]) -> bool:
    """Whether a keyword side's bm25 scores (higher is better) all sit at FTS5's idf floor — every word they
    matched is held by half of the rows or more — among ``rows`` (the candidates of both sides, by id) of at least
    Z_MIN_SCORES, every keyword candidate a note."""
    if not kw or max(kw.values()) >= NO_IDF_SCORE or len(rows) < Z_MIN_SCORES:
        return False
    from memengine.recall.notes import is_note  # (rare: a cold command never loads the notes step)

    return all(mid in rows and is_note(rows[mid]) for mid in kw)
