"""Numeric dates in a memory's text, as most of Europe writes them (brief_dates' round 15, split out by brief37).

``bis 30.11.``, ``am 28.12.``, ``30.11.2026``, ``2026.12.05``: dotted dates, day first, not versions, times, amounts
or IP runs; slash dates (``03/12``) only when the chat's order is known or one part is > 12. Also the weekday names of
the other languages, which brief_dates' cues and its "Freitag den 11." reader share.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date

InYear = Callable[[int, int, date], "date | None"]  # (month, day, written) -> the day meant, or None

# Round 15: numeric dates as most of Europe writes them, and a day by its number alone in the other languages.
# A dotted D.M. is day-first wherever it is used (German, Nordic, Polish, Czech, Russian, Turkish, Finnish...);
# a slash date is read only when the chat's order is known (``order``: "dmy" / "mdy", from the importer) or when
# one part is > 12. Without a year such a number is a date only with a cue (a word that dates it before it, a
# Turkish case suffix after it, or at the head of a line): "the score was 2.5" is no 2 May.
WEEKDAY_OF: dict[str, int] = {w: i for i, words in enumerate((
    "montag lundi lunes segunda lunedì lunedi maandag mandag måndag",
    "dienstag mardi martes terça terca martedì martedi dinsdag tirsdag tisdag",
    "mittwoch mercredi miércoles miercoles quarta mercoledì mercoledi woensdag onsdag",
    "donnerstag jeudi jueves quinta giovedì giovedi donderdag torsdag",
    "freitag vendredi viernes sexta venerdì venerdi vrijdag fredag",
    "samstag sonnabend samedi sábado sabado sabato zaterdag lørdag lordag lördag",
    "sonntag dimanche domingo domenica zondag søndag sondag söndag")) for w in words.split()}
WD_ALT = "|".join(sorted(WEEKDAY_OF, key=len, reverse=True))
EN_WD = "(?:mon|tues|wednes|thurs|fri|satur|sun)day"
EN_WEEKDAY = re.compile(rf"{EN_WD}|mon|tues?|weds?|thu|thur|thurs|fri|sat|sun")  # (is_calendar)
# words that date the number right after them (a day's prepositions, "Termin", weekdays; for a dotted date not the
# English prepositions: "grew by 1.5", "from 1.5 to 2.5" are decimals); not a colon ("VERSION:2.1", "score: 2.5")
_CUE_WORDS = (r"due|deadline|am|bis(?:\s+zum)?|zum|vom|ab|ab\s+dem|den|der|termin|frist|abgabe|datum|le|au|"
              r"jusqu['’]au|du|avant|dès|el|hasta(?:\s+el)?|desde(?:\s+el)?|para(?:\s+el)?|dia|até|il|entro(?:\s+il)?|"
              r"dal|fino\s+al|op|tot|vanaf|uiterlijk|til|innen|fra|senest|innan|till|från|do|od|na|dnia|dne|до|с|к|"
              rf"на|mennessä|viimeistään|{WD_ALT}|{EN_WD}|mo|fr|sa|ma|ti|ke|pe|la|su")
_CUE_TAIL = r"[\s,.:]*(?:(?:den|der|le|el|il|o|dia)\s+)?$"
_NUM_CUE = re.compile(rf"\b(?:{_CUE_WORDS}){_CUE_TAIL}", re.IGNORECASE)
_SLASH_CUE = re.compile(rf"\b(?:{_CUE_WORDS}|on|by|until|till|from|before|after|for){_CUE_TAIL}", re.IGNORECASE)
_LINE_HEAD = re.compile(r"^\s*(?:[-–•*]\s*)?$")  # "30.11. Abgabe" / "- 28.12. Umzug" heading a line
_DOTTED = re.compile(
    r"(?<![\w.,/])(?:(?P<y0>(?:19|20)\d\d)\.(?P<m0>[01]?\d)\.(?P<d0>[0-3]?\d)\.?"
    r"|(?P<d>[0-3]?\d)\.(?P<mn>[01]?\d)(?:(?P<dot>\.)(?P<y>(?:19|20)?\d\d)?)?)(?![.,]?\d)(?P<suf>['’][^\W\d_]+)?")
_SLASH = re.compile(r"(?<![\w./])(?P<a>[0-3]?\d)/(?P<b>[0-3]?\d)(?:/(?P<y>(?:19|20)?\d\d))?(?![/.,]?\d)")
_VERSION_BEFORE = re.compile(r"(?:\bv|\b(?:version|ver|release|python|node|nodejs|java|php|ruby|perl|go|rust|"
                             r"ios|android|macos|windows|ubuntu|debian|fedora|kernel|linux|chrome|firefox|safari|"
                             r"npm|pip|sdk|api|firmware|build|patch|update|app|postgres|postgresql|mysql|redis|"
                             r"django|rails|react|angular|vue|gcc|clang|llvm|cuda|qt|gtk)[\s:=]*)$", re.IGNORECASE)
# a time or an amount: "8.30 Uhr", "10.30 h", "klo 9.15", "3.10 €", "4.5 %", "2.5 km"
_TIME_BEFORE = re.compile(r"\b(?:um|kl|klo|kello|at|à|a\s+las|às|alle|ore|om|godz|o)\.?\s*$", re.IGNORECASE)
AMOUNT_AFTER = re.compile(r"\s*(?:[%‰€$£]|(?:uhr|h|hrs?|hours?|heures?|uur|timer|tim|ore|horas|godz|am|pm|min|"
                           r"eur|euro|euros|usd|chf|kr|zł|zl|pln|czk|kč|sek|nok|dkk|km|kg|g|m|cm|mm|l|ml|mb|gb|"
                           r"tb|mio|mrd|prozent|percent|procent|por\s+ciento|pour\s+cent|per\s+cento|x)\b)",
                           re.IGNORECASE)
_AMOUNT_BEFORE = re.compile(r"(?:[€$£]|\b(?:eur|usd|chf|kr|zł|pln|r\$))\s*$", re.IGNORECASE)
_IDIOMS = frozenset(((24, 7), (50, 50)))  # "open 24/7", "50/50"


def _cued(text: str, start: int, cue: re.Pattern[str] = _NUM_CUE, head: bool = False) -> bool:
    """Whether the number at ``start`` is dated by what stands right before it on its line: a cue word (with at most
    ", den" / "bis zum" between), or (``head``: a "30.11." with its final dot) nothing but a bullet."""
    window = text[max(0, start - 32):start]
    line = window.rsplit("\n", 1)[-1]
    if head and (start < 32 or "\n" in window) and _LINE_HEAD.match(line):
        return True
    return cue.search(line) is not None


def _amount(text: str, start: int, end: int) -> bool:
    """A version, a time or an amount, not a date: "Python 3.11", "um 8.30", "8.30 Uhr", "3.10 €"."""
    before = text[max(0, start - 24):start]
    return _VERSION_BEFORE.search(before) is not None or _TIME_BEFORE.search(before) is not None or \
        _AMOUNT_BEFORE.search(before) is not None or AMOUNT_AFTER.match(text, end) is not None


def numeric(text: str, written: date, out: list[date], taken: list[tuple[int, int]], order: str | None,
            in_year: InYear) -> None:
    """Dotted and slash dates of ``text`` (see above), appended to ``out`` (their spans to ``taken``); ``in_year``
    places a day and month said without a year (brief_dates._in_year)."""
    if "." not in text and "/" not in text:
        return
    for m in _DOTTED.finditer(text):
        if m.group("y0"):
            y, mn, d, dated = int(m.group("y0")), int(m.group("m0")), int(m.group("d0")), True
        else:
            mn, d = int(m.group("mn")), int(m.group("d"))
            y = int(m.group("y")) if m.group("y") else 0
            y += 2000 if 0 < y < 100 else 0
            dated = y > 0
        if not (1 <= mn <= 12 and 1 <= d <= 31) or _amount(text, m.start(), m.end()):
            continue
        if not dated and not m.group("suf") and not _cued(text, m.start(), head=m.group("dot") is not None):
            continue
        _add(y, mn, d, written, m, out, taken, in_year)
    if "/" not in text:
        return
    for m in _SLASH.finditer(text):
        a, b = int(m.group("a")), int(m.group("b"))
        if (a, b) in _IDIOMS or _amount(text, m.start(), m.end()):
            continue
        if a > 12 and b <= 12:
            d, mn = a, b
        elif b > 12 and a <= 12:
            d, mn = b, a
        elif order in ("dmy", "mdy") and a <= 12 and b <= 12:
            d, mn = (a, b) if order == "dmy" else (b, a)
        else:
            continue
        if order == "ymd" or not 1 <= d <= 31 or not 1 <= mn <= 12:
            continue
        y = int(m.group("y")) if m.group("y") else 0
        y += 2000 if 0 < y < 100 else 0
        if y == 0 and not _cued(text, m.start(), _SLASH_CUE):
            continue
        _add(y, mn, d, written, m, out, taken, in_year)


def _add(y: int, mn: int, d: int, written: date, m: re.Match[str], out: list[date], taken: list[tuple[int, int]],
         in_year: InYear) -> None:
    try:
        got: date | None = date(y, mn, d) if y else in_year(mn, d, written)
    except ValueError:
        got = None
    if got is not None and all(m.end() <= a or m.start() >= b for a, b in taken):
        out.append(got)
        taken.append((m.start(), m.end()))
