"""Dates written out in words, in any language CLDR knows: "Πέμπτη, 14 Μαρτίου 2024 στις 9:10:00 μ.μ.",
"14. maaliskuuta 2024 klo 21.10.00", "2024年3月14日 21:10:00", "2024. március 14., csütörtök 21:10".

Apps that write a date for people (Day One's plain-text export, Keep's pages, front matter of note apps) use
the phone's language: its month names (genitive forms too: "Μαρτίου", "березня", "maaliskuuta"), a weekday,
an "at" word ("στις", "klo", "o"), a dotted time ("21.10.00") or a 12-hour word ("μ.μ.", "오후"). dateparser
reads many of these but not all; this reader needs no table of its own: the month names come from CLDR through
Babel (every width and context of the languages WhatsApp speaks, :data:`clock.WHATSAPP_LOCALES`), the 12-hour
words from :mod:`importers.clock`. A name two languages give to different months is left out (ambiguous).

A date is read only when a month name (or CJK ``年…月…日``), a 4-digit year and one day number are all there;
numeric dates ("14/03/2024") are not read here: their order is ambiguous."""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime
from functools import lru_cache

from importers import clock

MAX_CHARS = 200  # a written date is short; anything longer is no date (and is never scanned)
_YEAR_RE = re.compile(r"(?<!\d)(1[6-9]\d\d|2[0-2]\d\d)(?!\d)")
_TIME_RE = re.compile(r"(?<![\d.:])(\d{1,2})[:.](\d{2})(?:[:.](\d{2}))?(?![\d:])")
_CJK_RE = re.compile(r"(\d{4})\s*[年년]\s*(\d{1,2})\s*[月월]\s*(\d{1,2})\s*[日일]")
_WORD_RE = re.compile(r"[^\W\d_]+")
_NUMBER_RE = re.compile(r"(?<!\d)\d{1,2}(?!\d)")
_TOKEN_RE = re.compile(r"\S+")


@lru_cache(maxsize=1)
def month_names() -> tuple[dict[str, int], dict[str, int]]:
    """(full names, abbreviations) → month number, casefolded, of every CLDR form of the WhatsApp locales;
    names that two languages give to different months are left out. Built once per process."""
    from babel import Locale, UnknownLocaleError

    found: tuple[dict[str, set[int]], dict[str, set[int]]] = ({}, {})
    for ident in clock.WHATSAPP_LOCALES:
        try:
            locale = Locale.parse(ident)
        except (UnknownLocaleError, ValueError):
            continue
        for context in locale.months.values():
            for width, names in context.items():
                table = found[0] if width == "wide" else found[1] if width == "abbreviated" else None
                if table is None:
                    continue
                for number, name in names.items():
                    key = _key(str(name))
                    if len(key) >= 3 and not key.isdigit():
                        table.setdefault(key, set()).add(int(number))
    full = {k: next(iter(v)) for k, v in found[0].items() if len(v) == 1}
    short = {k: next(iter(v)) for k, v in found[1].items() if len(v) == 1 and k not in found[0]}
    return full, short


@lru_cache(maxsize=1)
def weekday_names() -> dict[str, int]:
    """Weekday name (every CLDR width and context of the WhatsApp locales, casefolded) → 0 (Monday) .. 6;
    names two languages give to different days are left out. Built once per process."""
    from babel import Locale, UnknownLocaleError

    found: dict[str, set[int]] = {}
    for ident in clock.WHATSAPP_LOCALES:
        try:
            locale = Locale.parse(ident)
        except (UnknownLocaleError, ValueError):
            continue
        for context in locale.days.values():
            for width, names in context.items():
                if width in ("wide", "abbreviated"):
                    for number, name in names.items():
                        key = _key(str(name))
                        if len(key) >= 2 and not key.isdigit():
                            found.setdefault(key, set()).add(int(number))
    return {k: next(iter(v)) for k, v in found.items() if len(v) == 1}


def weekday(name: str) -> int | None:
    """0 (Monday) .. 6 for a weekday's name in any CLDR language ("Thursday", "Do.", "czwartek"), else None."""
    return weekday_names().get(_key(name)) if name and len(name) <= 40 else None


def _key(word: str) -> str:
    return unicodedata.normalize("NFC", word).casefold().strip(".")


def _month(text: str) -> int | None:
    """The one month a text names (a full name first, else an abbreviation); None for none or two."""
    full, short = month_names()
    words = [_key(w) for w in _WORD_RE.findall(text)]
    for table in (full, short):
        months = {table[w] for w in words if w in table}
        if months:
            return months.pop() if len(months) == 1 else None
    return None


def _hour(hour: int, text: str, span: tuple[int, int]) -> int:
    """``hour`` on a 24-hour clock: a 12-hour word just before or after the time ("오후 9:10", "9:10 μ.μ.")
    turns it, as WhatsApp's markers are (:func:`clock.to_24h`)."""
    before = _TOKEN_RE.findall(text[: span[0]])
    after = _TOKEN_RE.findall(text[span[1]:])
    for token in (after[0] if after else "", before[-1] if before else ""):
        if token and not any(c.isdigit() for c in token) and clock.known_marker(token):
            return clock.to_24h(hour, token)
    return hour


def written_date(value: str) -> datetime | None:
    """The date (and time, when written) that ``value`` spells out with a month name of any CLDR language, or
    ``年/月/日``; None when it holds no such date (see the module docstring)."""
    if not value or len(value) > MAX_CHARS:
        return None
    text = unicodedata.normalize("NFC", value).replace("\u202f", " ").replace("\u00a0", " ")
    time_match = _TIME_RE.search(text)
    hour = minute = second = 0
    if time_match:
        hour, minute, second = (int(g) if g else 0 for g in time_match.groups())
        hour = _hour(hour, text, time_match.span())
        rest = text[: time_match.start()] + " " + text[time_match.end():]
    else:
        rest = text
    cjk = _CJK_RE.search(rest)
    if cjk:
        year, month, day = (int(g) for g in cjk.groups())
    else:
        years = _YEAR_RE.findall(rest)
        days = _NUMBER_RE.findall(_YEAR_RE.sub(" ", rest))
        if len(years) != 1 or len(days) != 1:
            return None  # told before the month table is built ("Note 2024" costs no CLDR load)
        month_no = _month(rest)
        if month_no is None:
            return None
        year, month, day = int(years[0]), month_no, int(days[0])
    try:
        return datetime(year, month, day, hour, minute, second)
    except ValueError:
        return None
