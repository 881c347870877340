"""When a newer fact starts to hold, said beside it, is no value of its slot (facts35): "Terraform is on 1.7 as of
October", "As of April the shop is on the Shopify Grow plan", "Paperpile is the group's reference manager from
January", "Oligos come from Sigma as of November, IDT's shipping got too slow".

An agent's note dates its change: "as of <when>", "from <month>", "starting <when>", "effective <when>", "from
next week". Left in, the date reads as the newer's value: against an older that states a name and no time at all
("The group's reference manager is Zotero"), a month against a name is another attribute
(memengine/fact_kind.py) and the clear update is set aside. :func:`without` takes such a phrase off the newer, for
one older, when the older itself states no time of the kind (no month, no weekday, no date, no year): against
"Deploys are frozen on Fridays" a weekday "from Thursday" is the new value and stays; "moved from January to
March" names the older's month and stays.

Only the phrase's own words go: the opening word ("as of", "from", "starting", "effective", and the same in five
more languages) and one time expression right after it (a month with its day and year, a year, a weekday, "next
week", "this month", "the new year", "Monday the 3rd"). "From now on" is a change word of its own
(memengine/fact_change_words.py) and stays. Pure: no SQL, no I/O.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine.fact_lexicon import MONTHS, SHORT_WEEKDAYS, WEEKDAYS, fold_text

__all__ = ["without"]

_OPENERS = (r"as\s+of|as\s+from|starting(?:\s+from|\s+in|\s+on)?|effective(?:\s+from|\s+on)?|beginning(?:\s+in)?|from|"
            r"ab|seit|a\s+partir\s+(?:de|du|d')|des|dès|desde|depuis|a\s+partire\s+da(?:l|lla)?|dal|dalla|vanaf")
_UNITS = (r"week|month|year|quarter|term|semester|sprint|release|season|woche|monat|jahr|semaine|mois|annee|semana|"
          r"mes|ano|settimana|mese|anno|grant\s+year|financial\s+year|school\s+year|billing\s+cycle")
_WORD_TIMES = "|".join(sorted((re.escape(w) for w in {*MONTHS, *WEEKDAYS, *SHORT_WEEKDAYS} if len(w) >= 3),
                              key=lambda w: (-len(w), w)))
# (a bare weekday after "from" is a value as often as a start: "Deploys are frozen from Thursday 17:00 now"; only
# "from next Monday" is a start)
_MONTH_WORDS = "|".join(sorted((re.escape(w) for w in MONTHS if len(w) >= 3), key=lambda w: (-len(w), w)))
_WHEN = (rf"(?:(?:the\s+|this\s+|next\s+|that\s+)?(?:{_MONTH_WORDS})(?:\s+(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?)?"
         rf"(?:\s*,?\s*(?:19|20)\d\d)?"
         rf"|(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?(?:\s+of)?\s+(?:{_MONTH_WORDS})(?:\s*,?\s*(?:19|20)\d\d)?"
         rf"|(?:19|20)\d\d"
         rf"|(?:this|next|the\s+new|the\s+next|the\s+coming|le\s+mois\s+prochain|nachste[nr]?|el\s+proximo|"
         rf"il\s+prossimo)\s+(?:{_UNITS})"
         rf"|(?:this|next)\s+(?:{_WORD_TIMES}))")
_PHRASE_RE = re.compile(rf"(?:^|(?<=[\s,;(]))(?:{_OPENERS})\s+(?P<when>{_WHEN})(?![\w-])", re.IGNORECASE)
_TIMEY_RE = re.compile(rf"(?<![\w-])(?:{_WORD_TIMES}|(?:19|20)\d\d|\d{{1,2}}(?:st|nd|rd|th)|\d{{1,2}}[./]\d{{1,2}}[./]\d{{2,4}})(?![\w-])")


def _has_time(text: str) -> bool:
    """Whether ``text`` (folded) states a time of its own: a month, a weekday, a year, a day of the month."""
    return _TIMEY_RE.search(fold_text(text)) is not None


@lru_cache(maxsize=4096)
def without(old: str, new: str) -> str:
    """``new`` without the phrase saying when it starts to hold, when ``old`` states no time (see the module
    docstring); ``new`` itself otherwise, or when fewer than three words would be left."""
    low = fold_text(new)
    if len(low) != len(new) or _has_time(old):  # (offsets on the folded text must cut the original)
        return new
    m = _PHRASE_RE.search(low)
    if m is None:
        return new
    # (at the sentence's start the phrase's comma goes with it; inside, the clause's own comma stays)
    tail = new[m.end():].lstrip(" ,;") if m.start() == 0 else new[m.end():]
    out = (new[:m.start()].rstrip(" ") + " " + tail).strip()
    out = re.sub(r"([,;])\s*[,;]", r"\1", re.sub(r"\s+([,;.])", r"\1", re.sub(r"\s{2,}", " ", out)))
    if len(out.split()) < 3:
        return new
    return out[:1].upper() + out[1:] if m.start() == 0 else out
