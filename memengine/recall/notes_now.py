"""Two versions of one slot the store did not link: the later first when asked how things stand, the earlier first
when asked about the past (notes5, session 24).

An agent restates a slot with a new value and no change word ("Tvättstugan kan bokas 7–21 alla dagar …" and, weeks
on, "Tvättstugan öppnar en timme tidigare, 6–21, från april"; "Sponsor for Q1 is Kestrel Bank … £900 per episode"
and "Q2 sponsor: Ferngrove Insurance … £1,100 per episode"). The store links neither pair (no change word its facts
engine reads as one slot), and recall's own pairing (notes.newer_notes_first) asks two rare stems shared by the two
notes, or one and a close vector with a change word: of the pooled agent-note dev sets' misses whose first hit is the
older version, 19 of 38 share ONE rare stem with the answer. For a past question past.older_first walks the store's
links only, so an unlinked older version stays under the newer one.

Here the question says which subject is meant. The first hit ``a`` and a note ``b`` among the first ``WINDOW``
results are read as two versions of one slot when

* both are an agent's short notes (notes.is_note) of one source and author;
* the question's subject stems (updates.subject_stems without function words) that ``a`` says — at least one of
  them said by at most notes.RARE_IN of the first notes.SUBJECT_DEPTH candidates (not the store's person, whom most
  notes name) — are all said in ``b``'s head (notes_head: a note naming them only in a reason clause is no version);
* ``b`` states another value of a kind ``a`` states (notes.other_value: a date, a time, a weekday, a number of one
  unit): the slot with a different value;
* their stored vectors are at least ``cos`` close (the same frame said again);
* ``b`` is asserted (fact_mood.unasserted) and the two do not name two people (notes._other_people).

Mode ``now`` (a question not about the past, past.asks_past / counter.asks_first): the latest such ``b`` written
after ``a`` goes above it, and ``a`` is returned ``possibly_outdated`` by it. Mode ``past`` (a question about the
past): the earliest ``b`` written before ``a`` goes above it (past.older_first then still applies the store's links).
``both``: each. Order by the notes' own times (``--at``), else store order. No word list of any language. Chat turns,
episodes and summaries are never read, so imported chats are untouched.

Measured, not kept (bench/recall_notes5.py, the 15 pooled dev note sets): a name said by each note and not the other
as the differing value (11 questions lower, 4 higher); the second hit read as an older version too (one more lower).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from memengine.records import Candidate

# The first hits an agent takes (1-3): a version further down is what notes.py's pairing is for.
WINDOW = 3

Vectors = Callable[[list[int]], dict[int, Any]]


def parse_now(spec: str) -> tuple[str, float]:
    """``"MODE:COS"`` as (mode, cosine): mode ``now`` (a question for the present: the later version first), ``past``
    (a question about the past: the earlier version first) or ``both``; ``""`` is off (``("", 0.0)``)."""
    if not spec:
        return "", 0.0
    mode, _, head = spec.partition(":")
    try:
        cos = float(head)
    except ValueError:
        cos = -1.0
    if mode not in ("now", "past", "both") or not 0 < cos <= 1:
        raise ValueError(f"notes_now must be 'now:COS', 'past:COS' or 'both:COS' with 0 < COS <= 1, got {spec!r}")
    return mode, cos


def versions_first(ranked: list[Candidate], query: str, vectors: Vectors | None,
                   spec: str) -> tuple[list[Candidate], dict[int, list[int]]]:
    """``ranked`` (best first) with the first hit's other version among the first ``WINDOW`` moved above it (the
    later for a question for the present, the earlier for one about the past: see the module's text), and ``{older
    id: [newer id]}`` to mark; unchanged when off, without vectors, or when the first hit is no agent's note."""
    mode, cos_min = parse_now(spec)
    if not mode or vectors is None or len(ranked) < 2 or not query:
        return ranked, {}
    from memengine.recall.notes import NOTE_CHARS, _later, is_note

    a = ranked[0]
    if not is_note(a) or len(a.content) > NOTE_CHARS:
        return ranked, {}
    below = [b for b in ranked[1:WINDOW] if is_note(b) and len(b.content) <= NOTE_CHARS
             and b.source == a.source and b.author == a.author]
    if not below:
        return ranked, {}
    from memengine.recall.counter import asks_first
    from memengine.recall.past import asks_past

    past = bool(asks_past(query)[0] or asks_first(query))
    if (past and mode == "now") or (not past and mode == "past"):
        return ranked, {}
    # (the cheap test first: a note written after the first hit for the present, before it for the past)
    below = [b for b in below if (_later(b, a) if past else _later(a, b))]
    if not below:
        return ranked, {}
    found = _version_of(a, below, query, ranked, vectors, cos_min, older=past)
    if found is None:
        return ranked, {}
    found.score = a.score
    out = [found, *(c for c in ranked if c.id != found.id)]
    return out, ({} if past else {a.id: [found.id]})


def _version_of(a: Candidate, below: list[Candidate], query: str, ranked: list[Candidate], vectors: Vectors,
                cos_min: float, older: bool) -> Candidate | None:
    """The latest of ``below`` (``older``: the earliest) read as another version of ``a``'s slot for ``query``."""
    from memengine import fact_mood
    from memengine.recall.notes import RARE_IN, SUBJECT_DEPTH, _cos, _later, _other_people, other_value
    from memengine.recall.notes_head import head_and_tail
    from memengine.recall.notes_lexicon import without_function_words
    from memengine.recall.updates import subject_stems

    said_a = subject_stems(without_function_words(query)) & subject_stems(without_function_words(a.content))
    if not said_a:
        return None
    # (a word of the question most candidates say is no subject of two versions: the store's person, "Lucía", "Graça")
    df = Counter(s for c in ranked[:SUBJECT_DEPTH] for s in said_a & subject_stems(without_function_words(c.content)))
    if all(df[s] > RARE_IN for s in said_a):
        return None
    found: Candidate | None = None
    vecs: dict[int, Any] | None = None
    for b in below:
        # (its head: a note naming the subject only in a reason clause is no version of it — notes_head.py)
        if not said_a <= subject_stems(without_function_words(head_and_tail(b.content)[0])):
            continue
        if not other_value(a.content, b.content):
            continue
        if vecs is None:
            vecs = vectors([a.id, *(c.id for c in below)])
        if _cos(vecs, a.id, b.id) < cos_min:
            continue
        if fact_mood.unasserted(b.content) or _other_people(a.content, b.content):
            continue
        if found is None or (_later(b, found) if older else _later(found, b)):
            found = b
    return found
