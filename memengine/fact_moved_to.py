"""Where people moved to is a place (facts31).

memengine/fact_name_kind.py reads "moved to", "para", "nach" as no evidence of a name's kind (a thing moves to a
city, a host or a system alike: "we moved the analytics server to Rocky Linux"), so a move of people leaves its
destination without a kind, compatible with every name: "O Rodrigo e a Inês mudaram-se para Guimarães" then read
as a new value of "O Rodrigo e a Inês têm um cão chamado Tejo" (a pet's name, a person's kind) and retired it.
When the movers are people — names in the subject — and the verb is intransitive (the destination's preposition
right after it, or, verb last, right before it: "sind nach Sülz gezogen"), what they moved to is where they live:
:func:`destination` gives its name, which memengine/supersession.py adds to the store's known kinds as a place. A
verb with an object between ("Tom moved the database to Postgres") is no such move. Pure: no SQL, no model.
"""

from __future__ import annotations

import re

from memengine import fact_person
from memengine.fact_lexicon import fold
from memengine.fact_relocated import MOVE, TO

__all__ = ["destination"]

_TOKEN = re.compile(r"[^\W\d_][\w'’-]*")
# verbs said last in their clause (German, Dutch): the destination comes before them
_VERB_LAST = frozenset({"gezogen", "umgezogen", "weggezogen", "verhuisd"})
_AND = frozenset({"and", "e", "y", "und", "et", "en"})
_BETWEEN = frozenset({"back", "away", "over", "se", "nos", "si", "ci", "zuruck", "terug"})


def _verb(token: str) -> str:
    """A token folded, a clitic pronoun after a hyphen off ("mudaram-se")."""
    return fold(token.lower()).split("-")[0]


def destination(text: str) -> str | None:
    """The name (folded) of the place the people ``text`` names as its subject moved to, else None."""
    toks = _TOKEN.findall(text)
    low = [_verb(t) for t in toks]
    for i, w in enumerate(low):
        if w not in MOVE:
            continue
        # the movers: the subject's names, or ("O Rodrigo e a Inês mudaram-se …", which the subject reading
        # stops at "e") the capitalised words before the verb but the first, two joined by "and"
        movers = fact_person.subject_names(text) or (frozenset(low[k] for k in range(1, i) if toks[k][:1].isupper())
                                                     if set(low[1:i]) & _AND else frozenset())
        if not movers:
            return None
        j = i + 1
        while j < len(low) and low[j] in _BETWEEN:
            j += 1
        span = [j] + (list(range(max(0, i - 4), i)) if w in _VERB_LAST else [])
        for k in span:
            if k < len(low) and low[k] in TO and k + 1 < len(toks) and toks[k + 1][:1].isupper() and _verb(toks[k + 1]) not in movers:
                return _verb(toks[k + 1])
    return None
