"""Where two fact sentences look alike but are not one fact, or not one slot (used by memengine/facts.py).

- :func:`name_articles`: a name carries its article ("El Salvador", "La Paz", "Le Mans"): "Salvador" /
  "El Salvador" are two places, never a duplicate.
- :func:`count_changed`: "in the drawer" / "in the drawers": how many is part of the value (the subject
  and the verb may inflect: "The deploys run" / "The deploy runs").
- :func:`other_boundary`: "the clinic closes at 6pm" / "opens at 8am": another end of the same thing,
  never an update of it (boundaries in five languages: memengine/fact_cue_lexicon.py).

Pure functions: no SQL, no model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from memengine import fact_cue_lexicon
from memengine.fact_lexicon import STOPWORDS, fold


class _Word(Protocol):
    @property
    def key(self) -> str: ...
    @property
    def text(self) -> str: ...


class _Value(Protocol):
    @property
    def kind(self) -> str: ...


class Fact(Protocol):
    """What these functions read of a :class:`memengine.facts.Fact` (facts.py imports this module)."""

    @property
    def words(self) -> Sequence[_Word]: ...
    @property
    def values(self) -> Sequence[_Value]: ...
    @property
    def keys(self) -> frozenset[str]: ...
    @property
    def subject_end(self) -> int: ...
    @property
    def predicate(self) -> int | None: ...

__all__ = ["count_changed", "name_articles", "other_boundary"]

# A capitalised word right before another, not first in the sentence nor after a full stop.
_BEFORE_A_NAME = re.compile(r"(?<!^)(?<![.!?]\s)(?<=\s)([A-ZÀ-Ý][\w'’-]*)(?=\s+[A-ZÀ-Ý])")
# A bare time ("the standup is at 9:15") reads as the start: "starts at 9:45" is the same end.
_IMPLIED_BY_A_BARE_TIME = frozenset(("start", "open", "depart"))


def name_articles(text: str) -> frozenset[str]:
    """The function words a name carries inside the sentence ("el" of "El Salvador")."""
    return frozenset(k for k in (fold(m.group(1)) for m in _BEFORE_A_NAME.finditer(text)) if k in STOPWORDS)


def count_changed(fa: Fact, fb: Fact, i: int, j: int) -> bool:
    """Whether aligned words ``fa.words[i]`` / ``fb.words[j]`` of the value part differ only by a plural
    ending ("drawer" / "drawers"): how many is part of the value."""
    wa, wb = fa.words[i], fb.words[j]
    if wa.key == wb.key or i < fa.subject_end or j < fb.subject_end or i == fa.predicate or j == fb.predicate:
        return False
    a, b = sorted((fold(wa.text), fold(wb.text)), key=len)
    return b in (a + "s", a + "es")


def other_boundary(fa: Fact, fb: Fact) -> bool:
    """Whether ``fb`` times another end (opens / closes, starts / ends, departs / arrives) of the thing
    ``fa`` times."""
    # (keys keep "ß": "schließt" is the table's "schliesst"; a bare hour, "cierra a las 22", reads as a number)
    ends_a = {g for g in (fact_cue_lexicon.BOUNDARY.get(_key(k)) for k in fa.keys) if g}
    ends_b = {g for g in (fact_cue_lexicon.BOUNDARY.get(_key(k)) for k in fb.keys) if g}
    ends = ends_b - ends_a - (set() if ends_a else _IMPLIED_BY_A_BARE_TIME)
    return bool(ends) and any(v.kind in ("time", "date", "weekday", "number") for v in fb.values)


def _key(word: str) -> str:
    """A word as the boundary table holds it (folded, "ß" written "ss")."""
    return fold(word).replace("ß", "ss")
