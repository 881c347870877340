"""Among an agent's notes that score alike, the later one a little higher when the question wants what holds now
(round 45, recall45).

An agent's note is replaced by a later one that the store often never links to it and that recall's pairing
(notes.py) does not read as its version: "Maya climbs at Vertical World on Tuesday and Thursday evenings" and,
weeks on, "Maya switched to Edgeworks in Fremont, closer to her bus line" share one word ("evenings"); the older,
worded like the question ("which gym does Maya climb at?"), ranks first and the newer second. Fusion's scores of
a small store's notes sit close together (the first hit of a right and of a wrong answer have the same median
score on the note sets), so a small nudge by date decides such near ties and leaves clear leads alone.

:func:`later_nudged`: when every one of the first ``k`` candidates is an agent's note (notes.is_note) and the
question does not ask for the past (past.asks_past, counter.asks_first), each note gets ``weight`` times its place
in date order among them (the oldest 0, the newest ``weight``) and the ``k`` are sorted again. ``gate`` "now": only
for a question saying it wants the current state (state_words: "now", "these days", "still", "adesso", "im Moment"
…); "all": any question that is not about the past. Chat turns are never touched (a store holding one among the
first ``k`` is left as it is).
"""

from __future__ import annotations

import re

from memengine.records import Candidate

_WORD = re.compile(r"\w+", re.UNICODE)


def parse_recent(spec: str) -> tuple[str, float]:
    """``"GATE:WEIGHT"`` ("now:0.05", "all:0.1") as (gate, weight); ``""`` is off (``("", 0.0)``)."""
    if not spec:
        return "", 0.0
    gate, _, weight = spec.partition(":")
    try:
        w = float(weight)
    except ValueError:
        w = -1.0
    if gate not in ("now", "all") or not 0 < w <= 1:
        raise ValueError(f"notes_recent must be 'now:W' or 'all:W' with 0 < W <= 1, got {spec!r}")
    return gate, w


def wants_now(query: str) -> bool:
    """Whether ``query`` says it wants the current state ("now", "these days", "still", "adesso" …)."""
    from memengine.recall.state_words import state_terms

    return bool(state_terms(query, [w.lower() for w in _WORD.findall(query)]))


def later_nudged(scored: list[Candidate], k: int, query: str, spec: str) -> list[Candidate]:
    """``scored`` (best first) with the first ``k`` re-sorted after each note's date nudge (see the module's text);
    unchanged when off, for a past question, or when a candidate among the first ``k`` is no agent's note."""
    gate, weight = parse_recent(spec)
    top = scored[:k]
    if not weight or len(top) < 2:
        return scored
    from memengine.recall.notes import is_note

    if not all(is_note(c) for c in top):
        return scored
    from memengine.recall.counter import asks_first
    from memengine.recall.past import asks_past

    if asks_past(query)[0] or asks_first(query) or (gate == "now" and not wants_now(query)):
        return scored
    order = sorted(top, key=lambda c: (c.event_at or "", c.id))
    step = weight / (len(order) - 1)
    for place, c in enumerate(order):
        c.score = (c.score or 0.0) + place * step
    return sorted(top, key=lambda c: -(c.score or 0.0)) + scored[k:]
