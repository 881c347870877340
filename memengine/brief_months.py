"""(brief25) A plan placed by its month alone, and whether that month has gone by.

"we got the flat on Chapel Allerton Road! we move in April", written on 5 February, plans April 2026; read by the brief
on 15 June it is history, but it names no day, so the checks on days (brief_news.ahead, brief_dates.when_note) took it
for news and a Key fact showed "Jana will im Mai mit dem Fahrrad den Elberadweg … fahren" in June as if still ahead.
Here each month a text names is placed in the first such month from the month it was written in ("in April" written
in February: April of that year; written in May: next April), or in the year written after it ("April 2027"); the
plan has gone by when the last day of every month it names is before the brief's day. A text that names a day ("10
May", "on the 17th") is brief_dates' to read, not this module's.

Month words that are other words too are months here only where a month is meant: the Italian "mai" (never) and
the French "sept" (seven) only capitalised ("im Mai") or after a word that places a month ("en mai", "fin mai",
"début sept."), the Dutch "mei" in lower case or so placed (not the name "Mei"); "May" and "March" only capitalised
(brief_dates' rule). Of the month words of three letters only these are read ("Jan" is a name, "dec" an abbreviation).
"""

from __future__ import annotations

import calendar
import re
from datetime import date

from memengine import brief_dates

_WORD = re.compile(r"[^\W\d_]{3,12}")
# brief_dates' rules: English verbs that are months only capitalised, a given name that is a month only in lower case
_CAPITAL_ONLY = frozenset(("may", "march"))
_NAME_TOO = frozenset(("marco",))
# another word in a language these months are read in: "non l'ho mai visto" (never), "sept ans" (seven)
_OTHER_WORD = frozenset(("mai", "sept"))
# months of three letters ("im Mai", "in mei", "in May"; the others of three are abbreviations or names: "Jan")
_SHORT = frozenset(("may", "mai", "mei"))
# (brief33) months read only after a day's number (Turkish places a month by an ending, "Haziran'da": not read here)
_DAY_ONLY = frozenset(w for words in brief_dates.MONTHS_TR.values() for w in words)
_MONTH_CUE = re.compile(r"(?:\b(?:en|de|d'|début|debut|fin|mi|mi-|au|pour|dès|des|depuis|avant|après|apres|jusqu'en)"
                        r"\s*(?:mois\s+de\s+|mois\s+d')?)$", re.I)
# a plan is placed IN a month, or by its start or end: the word before the month ("we move in April", "pay by the end
# of May", "nos mudamos en abril", "o cruzeiro é em maio", "im Mai", "in maart", "do końca października", "a fine
# giugno", "Anfang Juli"); "typisk oktober", "what an October" place nothing
_PLACING = re.compile(r"(?:\b(?:in|im|by|before|until|till|of|early|late|mid|next|this|en|em|no|na|à|a|au|de|del|d'|"
                      r"début|debut|fin|fine|finales|final|principios|inicio|início|começo|hasta|até|ate|para|pra|"
                      r"entro|per|ad|op|eind|begin|half|anfang|ende|mitte|bis|vor|w|we|do|po|i|på|til|"
                      r"innan|före|inden|før|tot|voor|av|af|końca|konca|początku|poczatku|połowy)\s+|\bmi-|-)$", re.I)
# ...but not from a month on ("desde octubre, Lucía cambia pilates a los lunes": a state from then, no plan that passes)
_FROM = re.compile(r"(?:\b(?:partir\s+d[e']|from|since|seit|ab|vanaf|desde|dès|des|depuis|od|fra|från|sedan|dal|"
                   r"dalla|dallo|a\s+contar\s+de)\s*)$", re.I)
_LISTED = re.compile(r"(?:\b(?:or|and|o|y|e|ou|et|und|oder|of|en|og|eller|lub|albo|i)\s+|[,/–-]\s*)$", re.I)
_YEAR_AFTER = re.compile(r"^\s*(?:de\s+|del\s+|,\s*)?((?:19|20)\d\d)\b")


def placed(text: str, written: date) -> list[date]:
    """The last day of each month ``text`` places a plan in (no day named with it), in order; [] when it names a day
    (brief_dates reads it) or no month."""
    if brief_dates.says_a_date(text):
        return []
    out: list[date] = []
    listed = False  # a month placed: the months listed with it are too ("in October or November")
    for m in _WORD.finditer(text):
        w = m.group()
        low = w.lower()
        month = brief_dates.MONTH_OF.get(low)
        if month is None or len(low) < 4 and low not in _SHORT or low in _DAY_ONLY:
            continue
        if low in _CAPITAL_ONLY and not w[0].isupper() or low in _NAME_TOO and w[0].isupper():
            continue
        before = text[max(0, m.start() - 24): m.start()]
        cued = bool(_MONTH_CUE.search(before))
        if low in _OTHER_WORD and not w[0].isupper() and not cued or low == "mei" and w[0].isupper() and not cued:
            continue
        if _FROM.search(before):
            return []
        if not (_PLACING.search(before) or listed and _LISTED.search(before)):  # ("typisk oktober": no plan placed)
            continue
        listed = True
        year_said = _YEAR_AFTER.match(text[m.end(): m.end() + 12])
        year = int(year_said.group(1)) if year_said else written.year + (month < written.month)
        out.append(date(year, month, calendar.monthrange(year, month)[1]))
    return out


def gone(text: str, written: date | None, today: date | None) -> date | None:
    """The last day of the last month ``text`` places its plan in when every such month has gone by on ``today``
    ("we move in April", written in February, read in June), else None."""
    if written is None or today is None:
        return None
    months = placed(text, written)
    return max(months) if months and max(months) < today else None


def note(text: str, written: date | None, today: date) -> str:
    """`` (2026-04: past)`` for a text whose months have all gone by (:func:`gone`), else ""."""
    last = gone(text, written, today)
    return f" ({last.year}-{last.month:02d}: past)" if last else ""
