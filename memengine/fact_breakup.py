"""A relationship ended: "Split up with Tom in the summer; seeing someone called Ravi now" (facts37).

An agent notes a partner as a fact ("User's partner is Tom", "Morag's partner is Kenny", "User is dating Niamh") and
its end as an event told by the break-up, often with no "now" and a new name said only in passing: "Morag and Kenny
broke up; she's with Alasdair now", "Niamh and I split up", "Sam and I got divorced". No frame rule reads it (the
older's value is the partner, the newer's verb takes the partner as its object or as one of two subjects) and the
learned decision sees two sentences about one person's love life, near in meaning whether or not they are one slot.

:func:`ended` accepts the pair when

- the older states a partner: "<owner>'s partner / boyfriend / girlfriend / husband / wife / fiancé(e) is <Name>",
  "<owner> is dating / seeing / married to / engaged to / going out with <Name>", "<owner> and <Name> are together";
- the newer says a break-up (split up, broke up, separated, divorced, dumped, parted ways) whose clause names that
  partner, not as a possessor ("Maya's sister broke up with her boyfriend" is about the sister);
- whom the break-up is about is the older's owner: no subject or "I" / "we" for the user's own, the owner's name
  otherwise ("Morag and Kenny broke up" for "Morag's partner is Kenny");
- the newer is asserted (memengine/fact_mood.py: "Thinking of breaking up with Tom" is no break-up).

Pure: no SQL, no model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine import fact_mood
from memengine.fact_lexicon import fold_text
from memengine.fact_types import Verdict

__all__ = ["REASON", "ended"]

REASON = "a relationship ended"

_NAME = r"[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)?"
_OWNER = r"(?P<owner>[A-Z][\w-]*(?:\s+[A-Z][\w-]*)?)"
_ROLE = r"(?:partner|boyfriend|girlfriend|husband|wife|fianc[eé]e?|spouse|other\s+half|significant\s+other)"
# the older's partner, by three shapes
_OLDER = (
    re.compile(rf"^\W*(?:the\s+)?{_OWNER}(?:'s|’s)\s+{_ROLE}\s+(?:is|was)\s+(?:called\s+|named\s+)?(?P<name>{_NAME})"),
    re.compile(rf"^\W*{_OWNER}\s+(?:is|has\s+been)\s+(?:dating|seeing|married\s+to|engaged\s+to|going\s+out\s+with|"
               rf"in\s+a\s+relationship\s+with|with)\s+(?P<name>{_NAME})"),
    re.compile(rf"^\W*{_OWNER}\s+and\s+(?P<name>{_NAME})\s+are\s+(?:together|a\s+couple|dating|married|engaged)\b"),
)
_BREAK = re.compile(r"\b(?:split\s+up|broke\s+up|broken\s+up|separated|divorced|parted\s+ways|dumped|"
                    r"called\s+it\s+(?:a\s+day|quits)|ended\s+things|finished\s+with)\b", re.IGNORECASE)
_USER = frozenset("user i we me my".split())


@lru_cache(maxsize=4096)
def _partner(old: str) -> tuple[str, str] | None:
    """(owner, partner) folded, when the older states a partner; else None."""
    for rx in _OLDER:
        m = rx.match(old.strip())
        if m is not None:
            return fold_text(m.group("owner")), fold_text(m.group("name"))
    return None


def _clause(new: str, at: int) -> str:
    """The sentence part of ``new`` around position ``at`` (split at ";", ".", "!", "?")."""
    start = 0
    for m in re.finditer(r"[;.!?]", new):
        if m.start() < at:
            start = m.end()
        else:
            return new[start:m.start()]
    return new[start:]


def ended(old: str, new: str) -> Verdict | None:
    """A ``slot`` verdict when ``new`` says the relationship ``old`` states ended (see the module docstring)."""
    got = _partner(old)
    if got is None:
        return None
    owner, partner = got
    m = _BREAK.search(new)
    if m is None or fact_mood.unasserted(new):
        return None
    clause = _clause(new, m.start())
    words = re.findall(r"[^\W_]+(?:['’][^\W_]+)?", clause)
    plain = {fold_text(w) for w in words if not w.lower().endswith(("'s", "’s"))}
    owned = {fold_text(w[:-2]) for w in words if w.lower().endswith(("'s", "’s"))}
    first = partner.split()[0]
    if first not in plain or first in owned:
        return None  # (the partner not named, or named as whose: "Maya's sister broke up with her boyfriend")
    if owned - {owner.split()[0]} or plain & _PEOPLE_WORDS:
        return None  # someone else's break-up: "Ana's sister split up with …", "My friend Jo split up with …"
    if owner not in _USER and owner.split()[0] not in plain:
        return None  # (the owner's relationship, the owner named: "Morag and Kenny broke up")
    if owner in _USER and any(w[:1].isupper() and fold_text(w) not in (first, "i", *_OPENERS) and fold_text(w) in plain
                              and _subject_of(clause, w, m.group(0)) for w in words):
        return None  # another person's break-up with the user's partner's namesake: "Jo split up with Tom"
    return Verdict("slot", f"{REASON}: {owner} / {partner}", 0.8)


# a clause's first word that is no person ("Split up with Tom", "Finally broke up with Maya")
_OPENERS = frozenset("split broke finally separated divorced dumped got just".split())
# words of the clause that say it is someone else's break-up
_PEOPLE_WORDS = frozenset("sister brother mum mom dad friend cousin colleague son daughter neighbour neighbor".split())


def _subject_of(clause: str, word: str, verb: str) -> bool:
    """Whether ``word`` is said before the break-up verb as its subject ("Jo split up with Tom")."""
    at = clause.find(verb)
    return at > 0 and re.search(rf"\b{re.escape(word)}\b", clause[:at]) is not None
