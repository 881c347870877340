"""Which clause a veto word belongs to (facts33): "still" and "too" held back clear changes in an agent's notes.

The learned decision (memengine/fact_slot.py) and the cue rule (memengine/fact_cue.py) never read a sentence holding
"also", "too", "another" (a second value, not a new one) or "still" (no change) as an update. Agents' notes say a
change and what did not change in one line, and give reasons:

- "Python bumped to 3.12 as of March; pyenv still manages it": the "still" clause restates the older and
  memengine/fact_kept.py takes it off first (its own subject "pyenv" allowed); :func:`continuity` stays the plain
  veto on what is left (a clause-by-clause lift was measured and not kept: see its docstring).
- "Poetry's lock step got too slow", "Leah is too busy", "Fiken got too expensive": "too" before a word is "overly",
  not "as well"; only a "too" that ends its clause ("Sam drinks oat milk too") or stands before a comma adds a second
  value. :func:`additive` is the veto with that reading.

Pure: tokens in (memengine/fact_cue_find.py's), booleans out.
"""

from __future__ import annotations

from collections.abc import Sequence

from memengine import fact_cue_lexicon as C
from memengine.fact_cue_find import Tok, phrase_at

__all__ = ["additive", "continuity"]


def additive(toks: Sequence[Tok]) -> bool:
    """Whether the sentence adds a second value: an additive word or phrase ("also", "another", "as well"),
    "too" only where it ends its clause (before a word it is "overly": "got too slow")."""
    keys = [t.key for t in toks if t.word]
    if phrase_at(keys, C.ADDITIVE_PHRASES):
        return True
    for i, t in enumerate(toks):
        if not t.word or t.key not in C.ADDITIVE:
            continue
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if t.key == "too" and nxt is not None and nxt.word:
            continue  # "too slow", "too expensive", "too busy"
        return True
    return False


def continuity(toks: Sequence[Tok]) -> bool:
    """Whether a continuity word ("still", "sigue", "immer noch") says the sentence's value did not change.

    Read on the sentence as memengine/fact_kept.py leaves it: a clause that restates what the older says ("…; pyenv
    still manages it") is taken off before; one left says something stays that the older does not hold, and a
    clause-by-clause lift was measured and not kept ("Je suis toujours végétarienne, depuis dix ans maintenant",
    "Arjun is in Year 5 now, still at Ashley Down" flagged his football; facts33)."""
    return any(t.word and t.key in C.CONTINUITY for t in toks)
