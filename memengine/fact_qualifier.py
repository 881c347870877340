"""The same statement about another named thing, not the slot's new value (memengine/supersession.py's ``vetoed``).

"The build server for project Apollo uses port 8001" and "The build server for project Zeus uses port 8001"
are two facts: they differ only in a name or number inside a phrase that qualifies the subject ("for project
X", "of flat 3", "im Büro Y") BEFORE the verb, and say the same thing after it. The frame rules read "slot
changed: Apollo -> Zeus" (users27's eight agents: "project 3 uses port 8001" retired "project 0 uses port
8001"). An update of a qualified subject changes what comes AFTER the verb ("... uses port 8002"); a change of
the subject itself ("Alice is our contact at Acme" / "Bob is our contact at Acme") has no qualifier before
its difference and is left to the other rules.

Read conservatively: the two have the same number of words; every word that differs is a name (capitalised)
or holds a digit on both sides; no verb stands before the first difference; a preposition stands within the
two words before a difference; after the last difference at least two words are shared and one of them is a
verb of the short lists below; the newer says no change. Pure; no model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine import facts

__all__ = ["another_qualified"]

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)

# prepositions that open a qualifier of a noun ("the server FOR project X", "die Miete FÜR Wohnung 3")
_PREPS = frozenset("""for of in at on from per with
    für von vom im am beim bei zur zum der des
    pour de du des en chez dans
    para del en con
    da do dos das no na em
    per di del della nel
    voor van bij""".split())

# verbs that state a fact's value after its subject (a short list: outside it the pair is left to the rules)
_VERBS = frozenset("""is are was were uses use used runs run has have had costs cost pays pay lives live works work
    opens open closes close starts start takes take needs need gets get sits points listens
    ist sind war hat haben nutzt läuft kostet zahlt wohnt arbeitet öffnet beginnt
    est sont a ont utilise coûte paie habite travaille ouvre commence
    es son está están tiene tienen usa cuesta paga vive trabaja abre empieza
    é são está tem usa custa paga mora trabalha abre começa
    è sono ha hanno usa costa paga vive lavora apre inizia""".split())


def _distinct(a: str, b: str) -> bool:
    """Whether two differing words are both names (capitalised) or both hold a digit: another thing named."""
    return (a[:1].isupper() and b[:1].isupper()) or (any(c.isdigit() for c in a) and any(c.isdigit() for c in b))


@lru_cache(maxsize=4096)
def another_qualified(old: str, new: str) -> bool:
    """Whether ``new`` says what ``old`` says about another named thing of a qualifier before the verb
    ("... for project Apollo uses port 8001" / "... for project Zeus uses port 8001"): see the module."""
    wa, wb = _WORD.findall(old), _WORD.findall(new)
    if len(wa) != len(wb) or len(wa) < 4:
        return False
    diff = [i for i, (x, y) in enumerate(zip(wa, wb)) if x.casefold() != y.casefold()]
    if not diff or not all(_distinct(wa[i], wb[i]) for i in diff):
        return False
    low = [w.casefold() for w in wa]
    if any(w in _VERBS for w in low[:diff[0]]):
        return False  # "Standup is at 9:30 ...": the difference is the value, after the verb
    if not any(p in _PREPS for i in diff for p in low[max(0, i - 2):i]):
        return False  # "Alice is our contact ...": the subject itself, no qualifier
    tail = low[diff[-1] + 1:]
    if len(tail) < 2 or not any(w in _VERBS for w in tail):
        return False
    return not facts.analyse(new).change
