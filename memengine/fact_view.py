"""What the fact rule modules read of memengine.facts.Fact, declared once as structural types.

facts.py imports the rule modules, so they cannot import facts.Fact; they type their arguments with
these protocols instead (facts.Fact satisfies them). Pure typing: nothing runs here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

__all__ = ["Fact", "Value", "Word"]


class Word(Protocol):
    """A token of a fact sentence (memengine.facts.Word)."""

    @property
    def key(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def pos(self) -> int: ...
    @property
    def name(self) -> bool: ...


class Value(Protocol):
    """A value a fact sentence states (a time, a number, a place ...)."""

    @property
    def kind(self) -> str: ...
    @property
    def norm(self) -> tuple[object, ...]: ...


class Fact(Protocol):
    """A parsed fact sentence (memengine.facts.Fact)."""

    @property
    def text(self) -> str: ...
    @property
    def lang(self) -> str: ...
    @property
    def words(self) -> Sequence[Word]: ...
    @property
    def values(self) -> Sequence[Value]: ...
    @property
    def identifiers(self) -> set[str]: ...
    @property
    def subject_end(self) -> int: ...
    @property
    def predicate(self) -> int | None: ...
    @property
    def pronoun(self) -> str: ...
    @property
    def change(self) -> str: ...
    @property
    def polarity(self) -> int: ...
    @property
    def negations(self) -> list[str]: ...
    @property
    def keys(self) -> frozenset[str]: ...
