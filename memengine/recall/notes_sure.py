"""``weak`` on an agent's own notes: the question's cosine and its keyword score together (recall47, round 47).

``weak`` (confidence.py) says a result is the best of nothing: its cosine to the question under 0.40 and under half
of the question's words in it, calibrated on LoCoMo's chat turns. On an agent's notes it says little about whether a
first hit is the answer: over the ten agent-note dev sets (671 questions) it flagged 109 first hits, 54 of them
right (11 % of the right first hits; the calibration allowed 5 % of hits), AUC 0.60 for "the first hit is right"
(bench/recall47_sure.py). The fused score is relative (min-max over the candidates), AUC 0.68; the two absolute
signals read apart do better: the cosine (0.69) and the keyword side's raw bm25 (0.75: a rare word of the question
said by the note), and together better still.

Raw bm25 alone would also vouch for an off-topic question sharing one word with a note ("What is the API rate limit
of the billing service?" / "Bill Turner moves to …": bm25 2.2 in a store of 25 notes), so it counts in the share of
the question's words the note says (confidence.coverage). A note result (no thread, no episode, no summary, not
shared: notes_links.note_memory) is ``weak`` when ``cosine + BM25_WEIGHT * bm25 * coverage < floor``
(``RecallConfig.notes_weak``); chat turns keep confidence.py's rule, and so does every result of a recall with no
query vector. ``BM25_WEIGHT`` and the floor were chosen by leaving each agent-note dev set out
(bench/recall47_sure.py --choose): on the other sets, the pair whose flag has the largest share of wrong first hits
among those it flags, flagging at least 30 % of the wrong ones (the old flag's 31 %) and at least the old flag's
share of the first three results of bench/recall_weak.py's off-topic questions: 8 of 10 folds chose 0.2 / 0.5.

What it does not promise (round 49, bench/recall49_sure.py): half the flagged first hits are right (dev 46 %, held-outs
40 + 41 36 %) and a fifth of the unflagged are wrong (20 % / 23 %); over a question asked in another language than the
notes it says nothing (dev: 52 % of flagged, 54 % of unflagged first hits wrong), since the English model's cosine is
low there, right or wrong. Neither the gap to the second result, nor the cosine's gap, nor the two retrievers agreeing
carried to a set left out (every fold chose the flag as it is). SKILL.md tells an agent so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

# bench/recall47_sure.py --choose (leave one agent-note set out)
BM25_WEIGHT = 0.2
FLOOR = 0.5


def sure(cosine: float, bm25: float, cover: float, weight: float = BM25_WEIGHT) -> float:
    """How sure a note result is: its cosine to the question plus ``weight`` times its raw bm25 times the share of
    the question's words it says."""
    return cosine + weight * bm25 * cover


def mark_weak_notes(results: Sequence[Any], terms: Sequence[str], cosines: Mapping[int, float],
                    bm25: Mapping[int, float], floor: float = FLOOR) -> None:
    """Set ``weak`` on each note result that has a cosine: :func:`sure` under ``floor`` (``terms``: the question's
    content words, as confidence.mark_weak reads them; other results keep theirs)."""
    from memengine.recall.confidence import coverage
    from memengine.recall.notes_links import note_memory

    for m in results:
        cos = cosines.get(m.id)
        if cos is not None and note_memory(m):
            bm = bm25.get(m.id, 0.0)
            m.weak = sure(cos, bm, coverage(terms, m.content) if bm else 0.0) < floor
