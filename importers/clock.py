"""Clock and calendar words of chat exports, as data: 12-hour markers and eras.

* **12-hour markers** (``PM``, ``p. m.``, ``午後``, ``ص``, ``nachm.``, ``in the morning``,
  ``de la mañana``, ``上午``, ``SA``/``CH`` ...) come from CLDR through Babel: every AM/PM and
  day-period word of the languages WhatsApp speaks, in every width, with the hours each one
  covers (CLDR's day-period rules, read through :func:`babel.dates.get_period_id`). The table
  is built once per process, lazily: a 24-hour chat never loads Babel, and plain ``AM``/``PM``
  need no table at all.
* **Eras**: the Buddhist era (``2565 BE``, ``พ.ศ.``; year - 543), the Japanese imperial eras
  (``R4``/``令和4`` = 2022, ``H31``/``平成31`` = 2019) and Taiwan's Minguo era (``民國113`` = 2024, or a
  three-digit year first); the Solar Hijri (Persian) and lunar
  Hijri calendars, told by their years; anything else is Gregorian.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import time
from functools import lru_cache

# The languages WhatsApp's apps are offered in, with the regional variants whose CLDR clock
# words differ from the base language (es_MX "p.m." vs es "p. m.", en_GB "pm", zh_Hant "下午"...).
# This is a list of locales, not of words: the words come from CLDR.
WHATSAPP_LOCALES = (
    "af", "am", "ar", "as", "az", "be", "bg", "bn", "ca", "cs", "da", "de", "de_AT", "de_CH", "el", "en", "en_AU",
    "en_GB", "en_IN", "es", "es_419", "es_AR", "es_MX", "es_US", "et", "eu", "fa", "fi", "fil", "fr", "fr_CA", "ga",
    "gl", "gu", "ha", "he", "hi", "hr", "hu", "hy", "id", "ig", "it", "ja", "ka", "kk", "km", "kn", "ko", "ky", "lo",
    "lt", "lv", "mk", "ml", "mn", "mr", "ms", "my", "nb", "ne", "nl", "or", "pa", "pl", "ps", "pt", "pt_PT", "ro",
    "ru", "rw", "si", "sk", "sl", "so", "sq", "sr", "sr_Latn", "sv", "sw", "ta", "te", "th", "tk", "tl", "tr", "uk",
    "ur", "uz", "vi", "xh", "yo", "zh", "zh_Hant", "zh_Hant_HK", "zu",
)

AM_HOURS = frozenset(range(0, 12))
PM_HOURS = frozenset(range(12, 24))

_NORM_RE = re.compile(r"[\W_]+")


def normalise_marker(text: str) -> str:
    """Case-folded letters only: ``p. m.`` / ``P.M.`` / ``pm`` all read ``pm``."""
    return _NORM_RE.sub("", text.casefold())


@lru_cache(maxsize=1)
def marker_hours() -> dict[str, frozenset[int]]:
    """Normalised marker → the 24-hour hours it can stand for (union over locales and widths).

    Built once per process from Babel's CLDR data (about half a second for the locales above).
    """
    from babel import Locale, UnknownLocaleError
    from babel.dates import get_period_id

    table: dict[str, set[int]] = {"am": set(AM_HOURS), "pm": set(PM_HOURS)}
    for ident in WHATSAPP_LOCALES:
        try:
            locale = Locale.parse(ident)
        except (UnknownLocaleError, ValueError):
            continue
        # Which day period each hour falls in, by the locale's own CLDR rules (at half past,
        # so a period starting or ending on the hour is counted whole).
        hours_of: dict[str, set[int]] = {}
        for hour in range(24):
            try:
                pid = get_period_id(time(hour, 30), locale=locale)
            except (KeyError, ValueError, NotImplementedError):
                continue
            hours_of.setdefault(pid, set()).add(hour)
        hours_of["am"] = set(AM_HOURS)
        hours_of["pm"] = set(PM_HOURS)
        hours_of["noon"] = {12}
        hours_of["midnight"] = {0}
        for context in locale.day_periods.values():
            for width in context.values():
                for pid, word in width.items():
                    hours = hours_of.get(pid)
                    key = normalise_marker(str(word))
                    if hours and key and not key.isdigit():
                        table.setdefault(key, set()).update(hours)
    return {k: frozenset(v) for k, v in table.items()}


def known_marker(text: str) -> bool:
    """True when ``text`` is a 12-hour marker of some language (loads the table if needed)."""
    key = normalise_marker(text)
    return key in ("am", "pm", "a", "p") or key in marker_hours()


def to_24h(hour: int, marker: str) -> int:
    """The 24-hour hour for a 12-hour ``hour`` said with ``marker``.

    Of the two readings (``hour % 12`` and ``hour % 12 + 12``) the one inside the marker's
    hours wins; when both or neither are (an odd marker), the morning reading. An hour past
    12 is already 24-hour ("13:23 PM" occurs in real exports) and is kept.
    """
    if hour > 12:
        return hour
    key = normalise_marker(marker)
    if key in ("am", "a"):
        return hour % 12
    if key in ("pm", "p"):
        return hour % 12 + 12
    hours = marker_hours().get(key)
    low, high = hour % 12, hour % 12 + 12
    if hours is None:
        return hour
    if high in hours and low not in hours:
        return high
    return low


# --- eras ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Era:
    """A calendar era: the words that mark it and how its years map to Gregorian years."""

    name: str
    calendar: str  # "buddhist" | "japanese" | "roc"
    prefixes: tuple[str, ...]  # written before the year: "R4/3/18", "令和4/3/18"
    suffixes: tuple[str, ...]  # written after the date: "3/18/2565 BE"
    offset: int  # gregorian year = era year + offset


ERAS = (
    Era("buddhist", "buddhist", (), ("BE", "B.E.", "พ.ศ."), -543),
    Era("reiwa", "japanese", ("R", "令和"), (), 2018),
    Era("heisei", "japanese", ("H", "平成"), (), 1988),
    # Taiwan's Minguo (Republic of China) calendar: 民國113 is 2024. Phones set to it write the era word
    # (iOS) or the bare year (Android), told apart by :data:`MINGUO_YEARS`.
    Era("minguo", "roc", ("民國", "民国"), (), 1911),
)
# No Gregorian WhatsApp year has three digits; the Minguo years of the WhatsApp era (2009-) are 98 onwards.
MINGUO_YEARS = range(100, 200)
MINGUO_OFFSET = 1911


def era_by_word(word: str) -> Era | None:
    """The era a prefix or suffix word names, or None."""
    w = word.strip()
    for era in ERAS:
        if w in era.prefixes or w in era.suffixes:
            return era
    return None


def era_pattern(part: str) -> str:
    """Regex alternation of every era prefix (``part="prefixes"``) or suffix word, longest first."""
    words = sorted({w for era in ERAS for w in getattr(era, part)}, key=len, reverse=True)
    return "|".join(re.escape(w) for w in words)


BUDDHIST_OFFSET = -543


# --- solar and lunar Hijri calendars -----------------------------------------------------------
# Phones set to Persian or (some) Arabic locales write dates in their own calendar: "۱۴۰۲/۱۲/۲۱"
# is 11 March 2024. No Gregorian WhatsApp date has a year below 2009, so the year tells them apart:
# Solar Hijri years of the WhatsApp era are 1388..~1420, lunar Hijri ones 1430..~1470.
PERSIAN_YEARS = range(1300, 1425)
ISLAMIC_YEARS = range(1425, 1500)


def persian_to_gregorian(jy: int, jm: int, jd: int) -> tuple[int, int, int]:
    """A Solar Hijri (Jalali) date as (year, month, day) Gregorian, exact (the 33-year
    arithmetic used by Iranian calendars for 1178..1633 SH)."""
    if not (1 <= jm <= 12 and 1 <= jd <= (31 if jm <= 6 else 30)):
        raise ValueError(f"no Persian date {jy}/{jm}/{jd}")
    jy += 1595
    days = -355668 + 365 * jy + (jy // 33) * 8 + ((jy % 33) + 3) // 4 + jd
    days += (jm - 1) * 31 if jm < 7 else (jm - 7) * 30 + 186
    gy = 400 * (days // 146097)
    days %= 146097
    if days > 36524:
        days -= 1
        gy += 100 * (days // 36524)
        days %= 36524
        if days >= 365:
            days += 1
    gy += 4 * (days // 1461)
    days %= 1461
    if days > 365:
        gy += (days - 1) // 365
        days = (days - 1) % 365
    gd = days + 1
    leap = (gy % 4 == 0 and gy % 100 != 0) or gy % 400 == 0
    for gm, length in enumerate((31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31), start=1):
        if gd <= length:
            return gy, gm, gd
        gd -= length
    raise ValueError(f"no Persian date {jy - 1595}/{jm}/{jd}")


_ISLAMIC_EPOCH = 227015  # date(622, 7, 19).toordinal(): 1 Muharram 1 AH of the tabular calendar


def islamic_to_gregorian(hy: int, hm: int, hd: int) -> tuple[int, int, int]:
    """A lunar Hijri date as Gregorian (year, month, day) by the tabular (civil) calendar; the
    Umm al-Qura calendar phones use can differ from it by a day or two."""
    from datetime import date

    if not (1 <= hm <= 12 and 1 <= hd <= 30):
        raise ValueError(f"no Hijri date {hy}/{hm}/{hd}")
    days = hd + (295 * (hm - 1) + 9) // 10 + (hy - 1) * 354 + (3 + 11 * hy) // 30 - 1
    g = date.fromordinal(_ISLAMIC_EPOCH + days)
    return g.year, g.month, g.day


def to_gregorian(calendar: str, year: int, month: int, day: int) -> tuple[int, int, int]:
    """(year, month, day) of ``calendar`` ("persian", "islamic"; others pass through) in Gregorian."""
    if calendar == "persian":
        return persian_to_gregorian(year, month, day)
    if calendar == "islamic":
        return islamic_to_gregorian(year, month, day)
    return year, month, day


# --- 12-hour markers no table knows, told by the file itself -----------------------------------
# Older phones write markers today's CLDR no longer lists (Tamil "பிற்பகல்", Marathi "म.उ.", Bengali
# "অপরাহ্ণ" became "PM"), or lists with other hours. A chat tells them apart itself: within one day
# the morning marker comes before the afternoon one, so the marker that follows the others on the
# same date is the afternoon's.
MAX_MARKERS = 16  # distinct marker words followed in one file (a 12-hour clock has two)


class MarkerEvidence:
    """What a file says about its 12-hour markers, gathered header by header in O(1) memory: the
    hours each is written with, and how often one follows another within a date."""

    def __init__(self) -> None:
        self.written: dict[str, str] = {}  # normalised marker -> as first written
        self.hours: dict[str, set[int]] = {}  # normalised marker -> hours written with it (1..12)
        self.follows: dict[tuple[str, str], int] = {}  # (earlier, later) marker on one date -> times
        self._prev: tuple[str, str] | None = None  # (date as written, marker) of the last header
        self._keys: dict[str, str] = {}  # marker as written -> normalised (a file writes a few, a line each)

    def add(self, day: str, marker: str | None, hour: int) -> None:
        """One header: its date as written, its marker (None for none) and its hour as written."""
        key = ""
        if marker:
            key = self._keys.get(marker) or (self._keys.setdefault(marker, normalise_marker(marker))
                                             if len(self._keys) < 4 * MAX_MARKERS else normalise_marker(marker))
        if not key or (key not in self.written and len(self.written) >= MAX_MARKERS):
            self._prev = None
            return
        if key not in self.written:
            self.written[key], self.hours[key] = str(marker), set()
        if hour <= 12:
            self.hours[key].add(hour)
        prev = self._prev
        if prev is not None and prev[0] == day and prev[1] != key:
            self.follows[(prev[1], key)] = self.follows.get((prev[1], key), 0) + 1
        self._prev = (day, key)

    def inferred(self) -> dict[str, bool]:
        """Normalised marker -> True for afternoon, for the markers the file itself decides: those no
        table knows, and (in a file of two markers, a plain 12-hour clock) those whose table hours fit
        neither reading of an hour written with them. A marker never seen beside another stays out."""
        out: dict[str, bool] = {}
        for key in self.written:
            if key in ("am", "pm", "a", "p"):
                continue
            table = marker_hours().get(key)
            if table is not None:
                fits = all(h % 12 in table or h % 12 + 12 in table for h in self.hours[key])
                if fits or len(self.written) > 2:
                    continue
            net = sum(n for (a, _), n in self.follows.items() if a == key) - sum(
                n for (_, b), n in self.follows.items() if b == key)
            if net:
                out[key] = net < 0
        return out


def hour_24(hour: int, marker: str, inferred: dict[str, bool] | None = None) -> int:
    """:func:`to_24h`, unless the file decided the marker (:meth:`MarkerEvidence.inferred`)."""
    if inferred and hour <= 12:
        pm = inferred.get(normalise_marker(marker))
        if pm is not None:
            return hour % 12 + (12 if pm else 0)
    return to_24h(hour, marker)
