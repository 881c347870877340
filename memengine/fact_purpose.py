"""A switch said for one purpose retires the older fact about that purpose only (facts30).

"The user switched from Notion to Linear for sprint planning", after "The user plans his team's sprints in
Notion" and "The user keeps his personal journal in Notion": the write names the value it left (Notion) and
what for (sprint planning). The rules read each older holding Notion as the slot left (memengine/fact_migrated.py)
or changed (memengine/facts.py), and retired both; and a cue rule read an older that does not hold Notion at all
through a loose alias ("Inès est passée de WebStorm à VS Code pour le boulot" retired "Inès est développeuse
front-end dans une agence web", 'web' read in "WebStorm"). :func:`narrowed` reads, for one write's decisions:

- the write names a value it left: an older that does not hold it is not what changed (dropped);
- it also names a purpose ("for …", "pour …", "para …", "per …", "für …", "voor …", "au travail"): of two or
  more olders holding the value left, those sharing a word with the purpose are the ones it changed, the others
  are kept; when none shares one, nobody can tell which: all are flagged (``may_update``), none retired.

Pure: no SQL, no model; texts in, ids out.
"""

from __future__ import annotations

import re

from memengine import fact_migrated
from memengine.fact_align import same_word
from memengine.fact_lexicon import STOPWORDS, fold

__all__ = ["Narrowed", "narrowed", "purpose"]

# The words a purpose is said after, in seven languages ("for sprint planning", "pour le boulot", "para as
# maquetes", "per il lavoro", "für die Arbeit", "voor het werk"; "au travail", "al lavoro" name a place of use).
_FOR = frozenset({"for", "pour", "para", "pra", "per", "fur", "voor", "au", "al", "zum", "zur", "bij"})
_WORD = re.compile(r"[^\W_][\w.+-]*[^\W_]|[^\W_]")


def purpose(new: str) -> frozenset[str]:
    """The content words (folded) of the purpose ``new`` names after the last value it says (see :data:`_FOR`),
    or none."""
    toks = [fold(t) for t in _WORD.findall(new)]
    names = fact_migrated._names(new)
    last = max((i for i, t in enumerate(toks) if t in names), default=-1)
    for i in range(last + 1, len(toks)):
        if toks[i] in _FOR:
            return frozenset(t for t in toks[i + 1:] if t not in STOPWORDS and not t.isdigit() and len(t) > 2)
    return frozenset()


class Narrowed:
    """What :func:`narrowed` keeps: ``dropped`` olders (not what changed) and ``flagged`` ones (which of them
    changed, nobody can tell: may_update, none retired)."""

    def __init__(self, dropped: frozenset[int], flagged: frozenset[int]) -> None:
        self.dropped = dropped
        self.flagged = flagged


def _holds(text: str, word: str) -> bool:
    return any(same_word(fold(t), word) for t in _WORD.findall(text))


def narrowed(new: str, olders: dict[int, str]) -> Narrowed:
    """Of the olders (id -> text) a write ``new`` was read to retire, those it did not (see the module
    docstring). Nothing when the write names no value it left."""
    left = fact_migrated.left_names(new)
    if not left or not olders:
        return Narrowed(frozenset(), frozenset())
    holding = {i for i, t in olders.items() if any(_holds(t, w) for w in left)}
    if not holding:
        return Narrowed(frozenset(), frozenset())  # (the value left named in other words: the rules' reading stands)
    dropped = set(olders) - holding
    flagged: set[int] = set()
    goal = purpose(new)
    if goal and len(holding) > 1:
        about = {i for i in holding if any(_holds(olders[i], w) for w in goal)}
        if about:
            dropped |= holding - about
        else:
            flagged = holding
    return Narrowed(frozenset(dropped), frozenset(flagged))
