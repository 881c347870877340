"""Scores on fusion's common scale when a retriever found only a few memories (round 42).

Min-max maps a retriever's lowest score to 0, the score of a memory it did not find at all. Over a long list that
costs nothing: the lowest of forty keyword hits matched a word hardly worth a weight. Over two or three hits it
throws the ratio away: in an agent's small store "where is the warehouse now?" matched two notes, the second with
96 % of the top's bm25, and min-max gave that one (where it moved to) 0, as if it shared no word with the question.

``ratio`` keeps what the scores say when there are few: each score divided by the best (a bm25 and a cosine are
both 0 for "nothing in common"), so the lowest of a few hits keeps its share of the top's. With N scores or more
the list is long enough for min-max, which is left as it was. Only for agent's notes (``all_notes``) and only when
the best bm25 is above FTS5's idf floor (``min_top``): see those. Keyword side ``ratio:20`` (Z_MIN_SCORES, where a
list starts to be read as a distribution), chosen by leaving each agent-note dev set out (bench/recall42_few.py).

    few_scale(kw, "ratio:20", scale, NO_IDF_SCORE)   # < 20 keyword hits: score / best; else ``scale`` (min-max)

Modes (``RecallConfig.kw_few`` for the keyword side, ``vec_few`` for the vector side):

* ``""`` — off: min-max (or the configured normalisation) whatever the count;
* ``"ratio:N"`` — fewer than N scores: score / best score, negatives as 0;
* ``"floor:F:N"`` — fewer than N scores: F + (1 - F) · min-max, so any score found stays above none found.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from memengine.records import Candidate

Scale = Callable[[dict[int, float]], dict[int, float]]


def all_notes(d: Mapping[int, float], rows: Mapping[int, Candidate]) -> bool:
    """Whether every memory scored in ``d`` is an agent's note (notes.is_note: no chat turn, episode, summary or
    shared memory). The few-scores scale is for notes: in a chat the reply prior and the length prior were tuned
    against min-max's keyword side (a turn right after a matching question, lifted above a turn sharing two of its
    words, fell below it under the ratio), and the chat dev sets gained nothing from it (bench/loo.py)."""
    from memengine.recall.notes import is_note  # (as keyword_floor: the notes step loads only when asked)

    return all(mid in rows and is_note(rows[mid]) for mid in d)


def parse_few(mode: str) -> tuple[str, float, int]:
    """``mode`` as (kind, floor, below): ``"ratio:5"`` -> ("ratio", 0.0, 5), ``"floor:0.3:5"`` -> ("floor", 0.3, 5),
    ``""`` -> ("", 0.0, 0). Raises ValueError on anything else."""
    if not mode:
        return "", 0.0, 0
    parts = mode.split(":")
    try:
        if parts[0] == "ratio" and len(parts) == 2:
            return "ratio", 0.0, int(parts[1])
        if parts[0] == "floor" and len(parts) == 3:
            floor = float(parts[1])
            if 0.0 <= floor < 1.0:
                return "floor", floor, int(parts[2])
    except ValueError:
        pass
    raise ValueError(f"unknown few-scores mode {mode!r} (ratio:N or floor:F:N)")


def few_scale(d: dict[int, float], mode: str, otherwise: Scale, min_top: float = 0.0,
              only_if: Callable[[], bool] | None = None) -> dict[int, float]:
    """One retriever's scores on fusion's scale: by ``mode`` when it holds fewer scores than the mode's N, its
    best is at least ``min_top`` and ``only_if()`` holds (asked last: fusion's :func:`all_notes` reads every hit),
    else ``otherwise`` (fusion's normalisation). Equal scores all get 1, as in min-max: found beats not found.

    ``min_top`` for bm25 is keyword_floor.NO_IDF_SCORE: a word held by half of the rows or more scores FTS5's idf
    floor (~1e-6), and the ratio of two such scores says nothing (in a store of two chat turns both holding
    "pottery", a one-word turn kept 0.79 of the keyword side and went first); min-max is left to decide there."""
    kind, floor, below = parse_few(mode)
    if not kind or not d or len(d) >= below:
        return otherwise(d)
    hi = max(d.values())
    if hi < min_top or (only_if is not None and not only_if()):
        return otherwise(d)
    if kind == "ratio":
        if hi <= 1e-12:  # nothing positive: no ratio to keep
            return otherwise(d)
        return {mid: max(0.0, s) / hi for mid, s in d.items()}
    scaled = otherwise(d)  # floor: min-max lifted so the lowest found keeps ``floor``
    return {mid: floor + (1.0 - floor) * v for mid, v in scaled.items()}
