"""What a fact sentence is read into (memengine/facts.py :func:`~memengine.facts.analyse`): its
:class:`Fact`, the content :class:`Word` s of its frame, and the :class:`Verdict` of a comparison.
Pure dataclasses, apart from memengine/facts.py so that the comparing primitives
(memengine/fact_align.py) can name them without importing the reader."""

from __future__ import annotations

from dataclasses import dataclass, field

from memengine.fact_tokens import Value

__all__ = ["Fact", "Verdict", "Word"]


@dataclass(frozen=True)
class Verdict:
    """Why ``new`` contradicts ``old``: kind ("negation", "antonym", "preference", "number",
    "time", "date", "code", "place", "slot"), one readable line, a confidence in [0, 1]."""

    kind: str
    reason: str
    confidence: float


@dataclass
class Word:
    """A content word: ``key`` is its canonical form (folded, synonyms and opposites mapped)."""

    key: str
    text: str
    pos: int  # index in the token stream
    name: bool = False  # capitalised inside the sentence
    place: bool = False  # a name right after a place preposition ("in Osaka")
    agent: bool = False  # followed by "by" / "par" / "por" / "von": a passive verb ("is led by Hana")


@dataclass
class Fact:
    """What :func:`analyse` reads from one sentence."""

    text: str
    lang: str
    words: list[Word]
    values: list[Value]
    negations: list[str]  # words that flip polarity (negative poles included)
    modals: frozenset[str]
    subject_end: int  # words[:subject_end] are the subject phrase
    predicate: int | None  # index in words of the main verb, when it is not a copula
    exclusive: bool  # one value at a time ("lives in", "is"), not several ("likes", "has")
    identifiers: set[str] = field(default_factory=set)  # "version#2": numbers naming the subject
    # change language (memengine/fact_change.py): "verb" ("switched to", "moved to Friday"), "now",
    # "instead" or ""; the old value it names ("from Jira") is kept out of words / values
    change: str = ""
    old_words: list[str] = field(default_factory=list)
    old_values: list[Value] = field(default_factory=list)
    new_pos: frozenset[int] = frozenset()  # token positions of the new value phrase ("to Linear")
    pronoun: str = ""  # the subject when it is a pronoun ("we") or a verb ending ("-amos")
    adding: frozenset[str] = frozenset()  # "also", "another": the sentence adds to what is known
    changer: list[str] = field(default_factory=list)  # who made the change ("the school raised ...")
    keys: frozenset[str] = frozenset()  # every word of the sentence, folded

    @property
    def polarity(self) -> int:
        """0 or 1: the parity of the negations."""
        return len(self.negations) % 2
