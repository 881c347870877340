"""A switch that names the provider it left (facts32): "Priya's energy supplier is Ovo" / "Priya is with Octopus
now, Ovo kept raising the direct debit".

memengine/fact_provider.py reads a switch that names only the new provider by a word of the provider's kind the
older says too ("savings" is a bank's); a write naming the old provider is left to other rules, and its kind
words may belong to another of the person's providers: "direct debit" read as a bank's retired "Priya's current
account is with Nationwide" (held-out 11). Two readings, both structural:

- :func:`left_named`: the newer's subject goes over to a new name (fact_provider's phrases) and also names a
  value of the older — a capitalised name the older holds that is not whom it is about — which is what it left:
  the older is updated, whatever its kind words;
- :func:`names_another`: the names a switch says besides its new provider and its person; fact_provider's
  kind reading stands only when the older holds every such name (a write naming Ovo is no switch from
  Nationwide).

Pure: no SQL, no model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine import fact_crossed, fact_mood, fact_provider
from memengine.fact_lexicon import MONTHS, fold
from memengine.fact_types import Verdict

__all__ = ["REASON", "left_named", "names_another"]

REASON = "provider switched, the old one named"

_NAME = re.compile(r"(?<![\w'’])[A-ZÀ-Ý][\w'’.&+-]*")
_UNITS = frozenset("gb mb tb euro euros eur usd kwh".split())


@lru_cache(maxsize=4096)
def _names(text: str) -> frozenset[str]:
    """The capitalised words of ``text`` but its first, folded (a genitive "'s" off), no unit, month nor
    weekday."""
    out = set()
    for m in _NAME.finditer(text):
        if m.start() == 0:
            continue
        k = fold(m.group().lower().replace("’", "'")).removesuffix("'s").rstrip("'.")
        if k and k not in _UNITS and k not in MONTHS and fact_crossed.day_of(k) is None:
            out.add(k)
    return frozenset(out)


def names_another(old: str, new: str) -> bool:
    """Whether ``new`` names someone or something ``old`` does not hold, besides the provider it went over to
    and whom it is about (its subject's names)."""
    now = fact_provider._switched_to(new)
    people = set(fact_crossed.whose(new)[0]) | set(fact_crossed.whose(old)[0])
    said = {fold(w) for w in re.findall(r"[\w'’.&+-]+", old.lower())}
    return any(n not in said and n not in people and not now.startswith(n) for n in _names(new))


def left_named(old: str, new: str) -> Verdict | None:
    """A verdict when ``new``'s person, ``old``'s too, goes over to a new name and names a value of ``old``
    (a capitalised name there, not whom it is about) as well: what they left, else None."""
    if fact_mood.unasserted(new) or not fact_crossed.same_whose(old, new):
        return None
    now = fact_provider._switched_to(new)
    if not now or now in fold(old.lower()):
        return None
    people = set(fact_crossed.whose(old)[0]) | set(fact_crossed.whose(new)[0])
    was = [n for n in _names(old) if n not in people and n != now and not now.startswith(n)]
    left = [n for n in was if n in _names(new)]
    return Verdict("slot", f"{REASON}: {left[0]} -> {now}", 0.8) if left else None
