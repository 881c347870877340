"""Another instance of the same frame, not the slot's new value: read on BOTH the rule path and the
learned path (memengine/supersession.py's ``vetoed``).

Agents store facts in a handful of frames ("I run N km on <day>", "the max upload size is N MB",
"<env> runs version N"), and the frame alone repeats across instances of one kind. Two readings, both
general (no word list beyond the project's weekday and stop words, and a few prepositions):

- :func:`another_day`: the two name different weekdays AND different amounts of one unit ("I cycle 20 km on
  Wednesdays" / "I cycle 45 km on Sundays"): one session a day, two days; an update of a schedule moves
  the day and keeps its amount, or says so ("now"). The frame rules read "date changed".
- :func:`another_activity`: the two name the same weekday, each names something of its own (the activity:
  "rows" / "swims", "piano" / "swimming"), and the amounts or the times differ, no change said ("Lena rows
  8 km on Thursdays" / "Lena swims 2 km on Thursdays"): two sessions of one day, both true. The frame rules
  read a verb or a noun swapped with a new number; an update keeps the activity, or says so ("now").
- :func:`scope_tail`: the newer closes on a phrase that narrows whom or where its value holds, a phrase
  the older lacks: "for <group>" (memengine/fact_scope.py: "... 100 MB for admins") or "in / en / dans /
  im / em / di <words>" naming no value, no name, nothing the older names ("... 5 in the test environment",
  "... 2 en preproducción"): the value of a narrower slot.

Pure functions over memengine/facts.py's reading; no model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine import fact_scope, fact_template, facts
from memengine.fact_align import by_kind
from memengine.fact_change_words import change_words
from memengine.fact_lexicon import MONTHS, STOPWORDS, WEEKDAYS, fold_text

__all__ = ["another_activity", "another_day", "another_instance", "scope_tail"]


@lru_cache(maxsize=4096)
def another_day(old: str, new: str) -> bool:
    """Whether the two name disjoint weekdays and, for a unit both give, disjoint amounts, and the newer
    says no change ("I swim 2 km on Mondays" / "I swim 1 km on Thursdays": two sessions)."""
    fa, fb = facts.analyse(old), facts.analyse(new)
    if fb.change:
        return False  # "moved to Sundays, 30 km now": a change said
    va, vb = by_kind(fa), by_kind(fb)
    if not va.get("weekday") or not vb.get("weekday") or va["weekday"] & vb["weekday"]:
        return False
    units_a = {n[0] for n in va.get("number", set()) if n and n[0]}
    units_b = {n[0] for n in vb.get("number", set()) if n and n[0]}
    return any(not ({n for n in va["number"] if n[0] == u} & {n for n in vb["number"] if n[0] == u})
               for u in units_a & units_b)


# the value kinds whose change tells two sessions apart: an amount (km, hours, a count) or a clock time
_SESSION_KINDS = ("number", "time")


@lru_cache(maxsize=4096)
def another_activity(old: str, new: str) -> bool:
    """Whether the two name a weekday in common, each side has a content word of its own (what is done),
    an amount or a time of one kind differs, and the newer says no change ("On Fridays I play tennis for 2
    hours" / "On Fridays I play chess for 1 hour"). A name of its own is another owner, read elsewhere."""
    fa, fb = facts.analyse(old), facts.analyse(new)
    if fb.change or change_words(old, new)[1]:
        return False  # "... swims on Mondays now": a change said
    va, vb = by_kind(fa), by_kind(fb)
    if not va.get("weekday") or not vb.get("weekday") or not va["weekday"] & vb["weekday"]:
        return False
    if not any(k in va and k in vb and not va[k] & vb[k] for k in _SESSION_KINDS):
        return False  # no amount or time changed ("vendredi, pas jeudi"): nothing tells two sessions apart
    al = facts._align(fa, fb)
    own_a = [i for i in al.only_a if not fa.words[i].name]
    own_b = [i for i in al.only_b if not fb.words[i].name]
    return bool(own_a) and bool(own_b)


# "in the test environment", "en preproducción", "dans l'environnement de recette", "im Staging", "di staging":
# a closing phrase that says where the value holds
_WHERE_TAIL = re.compile(r"(?:^|\s)(?:in|en|dans|im|em|di|nel|nello|nella)\s+((?:[^\W\d_]+['\s]+){0,3}[^\W\d_]+)\s*[.!]?\s*$")
_LETTERS = re.compile(r"[^\W\d_]+")
_OLD_COVERED, _ALIGNED, _UNIT = (fact_template.NAMES.index(n) for n in ("old_covered", "aligned_changed", "unit_changed"))
_NOT_SCOPE = frozenset({"now", "maintenant", "ahora", "jetzt", "agora", "adesso", "ora", "future", "general",
                        "total", "person", "advance", "cash", "english", "french", "german", "spanish",
                        "italian", "portuguese"})


@lru_cache(maxsize=4096)
def scope_tail(old: str, new: str) -> bool:
    """Whether ``new`` closes on a phrase narrowing its value to a group or a place the older never names
    (see the module's docstring); not when the older closes the same way, nor on a name, a value, a time
    span or a month / weekday ("in March", "en octubre": when, not where)."""
    fb = facts.analyse(new)
    t = fact_template.features(old, new)
    if fb.change or t[_OLD_COVERED] < 0.99 or not (t[_ALIGNED] or t[_UNIT]):
        return False  # a change said, another frame, no new value: the tail is not what tells the two apart
    if fact_scope.scope_added(old, new):
        return True
    m = _WHERE_TAIL.search(new)
    if m is None or _WHERE_TAIL.search(old) is not None:
        return False
    raw = _LETTERS.findall(m.group(1))
    if any(w[:1].isupper() for w in raw):
        return False  # a name: where someone lives or works ("in Milan"), the value itself
    words = [w for w in (fold_text(x) for x in raw) if w not in STOPWORDS]
    if not words or any(w in _NOT_SCOPE or w in MONTHS or w in WEEKDAYS for w in words):
        return False
    olds = set(_LETTERS.findall(fold_text(old)))
    return not any(w in olds or any(len(w) >= 5 and o[:5] == w[:5] for o in olds) for w in words)


def another_instance(old: str, new: str) -> str:
    """Why ``new`` is another instance of ``old``'s frame ("day", "activity", "scope"), or ""."""
    if another_day(old, new):
        return "day"
    if another_activity(old, new):
        return "activity"
    return "scope" if scope_tail(old, new) else ""
