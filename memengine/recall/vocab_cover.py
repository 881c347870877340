"""How much of a question the store can match by its words, and the keyword side's weight for it (issue 19, round 26).

Fusion min-max normalises bm25: the best keyword candidate scores 1 whatever it matched. When the question's telling
words are words the store never holds ("what race is Priya preparing for?" of a chat that says "half marathon";
"who did Aoife's sibling marry?" of one that says "brother"), the keyword side's best is a turn holding a common word
of the question ("way", "back", "now") and still earns the keyword side's whole weight. ``held_share`` measures the
question's word weight (idf) the store holds at all; ``cover_weights`` moves the keyword weight a question cannot
earn by its words to the vector side, which reads meaning rather than spelling.

Cost: one count per question word, bounded (``KeywordSearch.doc_shares`` with ``upto``: an indexed vocabulary
lookup, stopping at ``CAP`` memories), then arithmetic. It does not depend on the number of candidates.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

# A word in more than this many memories counts as in this many (its idf is small either way; counting a common
# word to its end costs a warm recall milliseconds at 100k: keyword.py doc_shares).
CAP = 200


def held_share(counts: Mapping[str, int], n: int, by: str = "idf") -> float:
    """The share of the question's words the store holds (1.0 when every word is held, or no word is given).

    ``by`` "idf": each word weighs its idf, and a word no memory holds weighs as a word in half a memory (rarer
    than any held word, as a telling word is); "words": each word weighs the same. ``counts``: memories holding
    each word (capped is fine); ``n``: memories in the store."""
    if not counts or n <= 0:
        return 1.0
    total = held = 0.0
    for count in counts.values():
        weight = math.log((n + 1) / max(count, 0.5)) if by == "idf" else 1.0
        total += weight
        if count > 0:
            held += weight
    return held / total if total > 0 else 1.0


def cover_weights(w_keyword: float, w_vector: float, share: float, full: float) -> tuple[float, float]:
    """(keyword, vector) weights for a question whose words the store holds ``share`` of: the keyword weight in
    proportion to ``share`` up to ``full``, the whole weight from there on; what it loses moves to the vector
    weight (the sum stays, so the priors keep their scale against the base score). ``full`` 0 leaves both as given."""
    if full <= 0 or share >= full:
        return w_keyword, w_vector
    kept = w_keyword * max(0.0, share) / full
    return kept, w_vector + (w_keyword - kept)
