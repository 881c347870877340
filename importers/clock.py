"""Clock and calendar words of chat exports, as data: 12-hour markers and eras.

* **12-hour markers** (``PM``, ``p. m.``, ``午後``, ``ص``, ``nachm.``, ``in the morning``,
  ``de la mañana``, ``上午``, ``SA``/``CH`` ...) come from CLDR through Babel: every AM/PM and
  day-period word of the languages WhatsApp speaks, in every width, with the hours each one
  covers (CLDR's day-period rules, read through :func:`babel.dates.get_period_id`). The table
  is built once per process, lazily: a 24-hour chat never loads Babel, and plain ``AM``/``PM``
  need no table at all.
* **Eras**: the Buddhist era (``2565 BE``, ``พ.ศ.``; year - 543) and the Japanese imperial eras
  (``R4``/``令和4`` = 2022, ``H31``/``平成31`` = 2019); anything else is Gregorian.
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
    calendar: str  # "buddhist" | "japanese"
    prefixes: tuple[str, ...]  # written before the year: "R4/3/18", "令和4/3/18"
    suffixes: tuple[str, ...]  # written after the date: "3/18/2565 BE"
    offset: int  # gregorian year = era year + offset


ERAS = (
    Era("buddhist", "buddhist", (), ("BE", "B.E.", "พ.ศ."), -543),
    Era("reiwa", "japanese", ("R", "令和"), (), 2018),
    Era("heisei", "japanese", ("H", "平成"), (), 1988),
)


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
