"""Plans in a memory's text: the days it names that were still ahead when it was written.

"Booked the dentist for 3 December at 9:00", written on 9 November, is a plan for 3 December;
"the e-bike arrived on the 12th", written on the 12th, is not. The brief (memengine/brief.py)
shows the plans still ahead of ``now`` in a "Coming up" section ordered by day, and marks a
line whose every planned day has gone by (``(2026-10-16: past)``), so an agent does not take an
old deadline for an open one.

Recognised, case-insensitively and in English, French, German, Spanish, Portuguese, Italian and
Dutch month names: ``3 December``, ``3rd of December``, ``30. Oktober``, ``3 de diciembre``,
``December 3rd, 2026``, ``2026-12-03``; in English also ``the 25th`` / ``Thursday 23rd`` / ``moved
to the 19th`` (a day named by its number alone: the same day said with its month in this text or an
earlier turn of the chat, else the month named in this text or the few turns before, unless it is a
deadline, "by the 1st"; else the next such day of a month), ``tomorrow``, ``the day after tomorrow``
and ``on / by / next / this Friday`` (the next such weekday); and the days with a name (Christmas, Christmas Eve, New Year's Eve
and Day, Halloween, in the same languages). A day named without a year is taken in the year that puts it
nearest the day the memory was written (at most ~10 months ahead, ~2 months back). "May" and
"March" count as months only capitalised (the verbs "may", "march"). Round 15: dotted numeric dates, day first
(``bis 30.11.``, ``am 28.12.``, ``30.11.2026``, ``2026.12.05``), not versions, times, amounts or IP runs; slash dates
(``03/12``) only when the chat's order is known (``order``) or one part is > 12; a day by its number alone after a
weekday or preposition in the other languages (``Freitag den 11.``, ``le 11``, ``el 11``, ``il 16``, ``dia 11``,
``op de 11e``, ``den 11:e``), placed as the English "the 25th". A day said under a
negation is no plan ("we're NOT going on the 5th any more", "Vi holder den IKKE lørdag den 21.": ``negated_days``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from datetime import date, timedelta

from memengine import brief_numdates, brief_thingmonth
from memengine.brief_numdates import AMOUNT_AFTER as _AMOUNT_AFTER
from memengine.brief_numdates import EN_WEEKDAY as _EN_WEEKDAY
from memengine.brief_numdates import WD_ALT as _WD_ALT
from memengine.brief_numdates import WEEKDAY_OF as _WEEKDAY_OF
from memengine.text import STOPWORDS as TEXT_STOPWORDS
from memengine.timeparse import WEEKDAYS

_MONTH_WORDS: dict[int, tuple[str, ...]] = {
    1: ("january", "jan", "janvier", "januar", "jänner", "enero", "janeiro", "gennaio", "januari"),
    2: ("february", "feb", "février", "fevrier", "februar", "febrero", "fevereiro", "febbraio", "februari"),
    3: ("march", "mar", "mars", "märz", "maerz", "marzo", "março", "marco", "maart"),
    4: ("april", "apr", "avril", "abril", "aprile"),
    5: ("may", "mai", "mayo", "maio", "maggio", "mei"),
    6: ("june", "jun", "juin", "juni", "junio", "junho", "giugno"),
    7: ("july", "jul", "juillet", "juli", "julio", "julho", "luglio"),
    8: ("august", "aug", "août", "aout", "agosto", "augustus"),
    9: ("september", "sep", "sept", "septembre", "septiembre", "setiembre", "setembro", "settembre"),
    10: ("october", "oct", "octobre", "oktober", "octubre", "outubro", "ottobre"),
    11: ("november", "nov", "novembre", "noviembre", "novembro"),
    12: ("december", "dec", "décembre", "decembre", "dezember", "diciembre", "dezembro", "dicembre"),
}
# round 12: Polish, the genitive a day is said with ("w sobotę 14 listopada") and the nominative
_MONTHS_PL: dict[int, tuple[str, ...]] = {
    1: ("stycznia", "styczeń", "styczen"), 2: ("lutego", "luty"), 3: ("marca", "marzec"),
    4: ("kwietnia", "kwiecień", "kwiecien"), 5: ("maja",), 6: ("czerwca", "czerwiec"), 7: ("lipca", "lipiec"),
    8: ("sierpnia", "sierpień", "sierpien"), 9: ("września", "wrzesnia", "wrzesień", "wrzesien"),
    10: ("października", "pazdziernika", "październik", "pazdziernik"), 11: ("listopada", "listopad"),
    12: ("grudnia", "grudzień", "grudzien"),
}
# (brief33) Turkish, read after a day's number only ("8 Ekim Perşembe", "26 Haziran'a", "17 Ekim'de": the case ending
# comes after an apostrophe); brief_months places no plan by these alone (Turkish says "in June" with an ending, and
# "aralık" is also "an interval")
MONTHS_TR: dict[int, tuple[str, ...]] = {
    1: ("ocak",), 2: ("şubat", "subat"), 3: ("mart",), 4: ("nisan",), 5: ("mayıs", "mayis"), 6: ("haziran",),
    7: ("temmuz",), 8: ("ağustos", "agustos"), 9: ("eylül", "eylul"), 10: ("ekim",), 11: ("kasım", "kasim"),
    12: ("aralık", "aralik"),
}
MONTH_OF = {w: n for table in (_MONTH_WORDS, _MONTHS_PL, MONTHS_TR) for n, words in table.items() for w in words}
_CAPITAL_ONLY = {"may", "march", "mar"}  # English verbs / words: a month only when capitalised
_ORD = r"(?:st|nd|rd|th|er|e|º|ª)?"
_YEAR = r"(?:,?\s+(?P<y>(?:19|20)\d\d)\b)?"
# (a month is any word here, looked up in MONTH_OF after the match: an alternation of the 80
# month names costs ~15 ms to compile, paid by every one-shot `mem.py brief`)
_DAY_MONTH = re.compile(rf"\b(?P<d>[0-3]?\d){_ORD}\.?\s+(?:of\s+|de\s+)?(?P<m>[^\W\d_]{{3,12}})\b\.?{_YEAR}",
                        re.IGNORECASE)
_MONTH_DAY = re.compile(rf"\b(?P<m>[^\W\d_]{{3,12}})\.?\s+(?P<d>[0-3]?\d){_ORD}\b(?!\s*[:.]\d){_YEAR}",
                        re.IGNORECASE)
_ISO = re.compile(r"\b(?P<y>(?:19|20)\d\d)-(?P<mn>[01]\d)-(?P<d>[0-3]\d)\b")
# English day-of-month alone: "on the 25th", "Thursday 23rd", "by the 3rd" (the next such day);
# not followed by a month (that is _DAY_MONTH's) nor by words of a rank or a recurring day
_ORDINAL_DAY = re.compile(
    r"\b(?:(?:on|by|until|till|from|for|before|after|to|now)\s+the|(?P<wd>(?:mon|tues|wednes|thurs|fri|satur|sun)day"
    r"|mon|tues?|weds?|thu|thur|thurs|fri|sat|sun)\.?,?"
    # (brief34) a chat's word between the weekday and its day: "moved to the sunday btw, 14th"
    r"(?:\s+(?:btw|then|instead|now|again)\.?,?)?"
    r"(?:\s+the)?)\s+(?P<d>[0-3]?\d)(?:st|nd|rd|th)\b(?:\s+(?:of\s+)?(?P<next>[^\W\d_]+))?", re.IGNORECASE)
# ...and "the 9th" with no preposition ("we said January, let's do the 9th"): a day only when what was said
# before places it (its month in this turn or the few before, or the same day with its month)
_BARE_ORDINAL = re.compile(r"\bthe\s+(?P<d>[0-3]?\d)(?:st|nd|rd|th)\b(?:\s+(?:of\s+)?(?P<next>[^\W\d_]+))?",
                           re.IGNORECASE)
_NOT_A_DAY = frozenset("each every the working business day week month year time floor place century anniversary "
                       "birthday grade row attempt round edition best worst most biggest largest highest lowest one ones times".split())
_SENTENCE_OPEN = re.compile(r"(?:^|[.!?:;\n(\"“]|\s[-–—])\s*$")  # (brief37) what stands before a sentence's first word
_RELATIVE = re.compile(
    r"\b(?:(?P<tomorrow>(?:the\s+day\s+after\s+)?tomorrow)"
    r"|(?:on|by|next|this|coming|until|till)\s+(?P<wd>(?:mon|tues|wednes|thurs|fri|satur|sun)day)"
    r"(?!\s+(?:the\s+)?[0-3]?\d))\b", re.IGNORECASE)
# days with a name (a chat says "Christmas ... on the 25th": that 25th is December's)
_HOLIDAYS = re.compile(r"\b(?P<h>christmas(?:\s+eve)?|xmas|new\s+years?'?s?\s+(?:eve|day)|halloween|no[eë]l|weihnachten|"
                       r"heiligabend|silvester|navidad|nochebuena|natale?|kerstmis|r[ée]veillon|saint[- ]sylvestre)\b",
                       re.IGNORECASE)
_HOLIDAY_DAY = {"christmas eve": (12, 24), "heiligabend": (12, 24), "nochebuena": (12, 24), "halloween": (10, 31),
                "new year's eve": (12, 31), "new years eve": (12, 31), "silvester": (12, 31), "saint-sylvestre": (12, 31),
                "saint sylvestre": (12, 31), "réveillon": (12, 31), "reveillon": (12, 31),
                "new year's day": (1, 1), "new years day": (1, 1)}
# a cheap first look: no digit and no such word, no date (most chat turns stop here)
_MAYBE = re.compile(r"\d|tomorrow|day\b|christmas|xmas|halloween|no[eë]l|weihnacht|navidad|natal|kerst|silvester|"
                    r"r[ée]veillon", re.IGNORECASE)

AHEAD_DAYS = 310  # a day without a year is at most this far after the writing...
BACK_DAYS = 60  # ...or this far before it ("the invoice of 28 September", written 2 October)


def _in_year(month: int, day: int, written: date) -> date | None:
    """The day/month nearest ``written`` within [written - BACK_DAYS, written + AHEAD_DAYS]."""
    for year in (written.year, written.year + 1, written.year - 1):
        try:
            d = date(year, month, day)
        except ValueError:
            continue
        if -BACK_DAYS <= (d - written).days <= AHEAD_DAYS:
            return d
    return None


Context = Sequence[tuple[str, date]]  # earlier turns of the same chat, newest first: (text, day written)
ContextOf = Context | Callable[[], Context]  # ...or what reads them, asked only when a day needs them
MONTH_TURNS = 6  # a month named in this many turns before a bare "the 18th" (and within MONTH_DAYS)...
MONTH_DAYS = 1  # ...is the month that "18th" means
REPEAT_DAYS = 14  # a bare "the 26th" said again within this many days is the 26th it was then (round 10)


def maybe_dated(text: str) -> bool:
    """A cheap first look: False when ``text`` can name no day (no digit, no day word)."""
    return _MAYBE.search(text) is not None


def needs_context(text: str) -> bool:
    """Whether ``text`` (that may be dated) names a day by its number alone ("on the 18th"), which
    earlier turns may place."""
    return _ORDINAL_DAY.search(text) is not None or _BARE_ORDINAL.search(text) is not None \
        or _OTHER_DAY.search(text) is not None


# (brief23) A day and month that is part of a place's name: "rua 25 de Março", "Avenida 9 de Julio", "Straße des 17.
# Juni", "la 9 de Julio y Tucumán" (the avenue), "na 25 de Março" (the street): no date. Told by a street word right
# before it (an article between: "Straße des", "rue du"), or a feminine article right before the number, which no
# language the brief reads puts before a date ("el 9 de julio", "le 14 juillet", "no dia 25", "il 25 marzo").
_STREET_WORDS = frozenset("""rua avenida av avda calle rue boulevard bd bld via viale vía piazza praça plaza paseo
largo travessa estação estación straße strasse str platz allee ulica ul aleja plac street st avenue ave road rd square
station""".split())
_NAME_BEFORE = re.compile(r"(?:^|[^\w])(?P<w>[^\W\d_]+)\.?\s+(?:(?P<art>des|der|du|de|da|do|del|della|di|dos|das|"
                          r"of|the)\s+)?$", re.IGNORECASE)
_FEMININE_BEFORE = frozenset("la na pela nella della alla sulla".split())


def _place_name(text: str, m: re.Match[str]) -> bool:
    """Whether the day and month matched by ``m`` is part of a place's name ("rua 25 de Março", "Avenida 9 de Julio",
    "Straße des 17. Juni", "la 9 de Julio"): a street word before it, or a feminine article right before the number."""
    before = _NAME_BEFORE.search(text, max(0, m.start() - 40), m.start())
    if before is None:
        return False
    w = before.group("w").lower()
    return w in _STREET_WORDS or before.group("art") is None and w in _FEMININE_BEFORE


# months the languages that capitalise them write so (English, German, Dutch forms): a capital says nothing there
_CAPITALISED_MONTHS = frozenset("""january jan february feb march mar april apr may june jun july jul august aug september
sep sept october oct november nov december dec januar jänner februar märz maerz mai juni juli oktober dezember januari
februari maart mei augustus""".split())


def _named_again(text: str, context_of: ContextOf, taken: list[tuple[int, int]]) -> None:
    """(brief23) A day and month written as a name ("25 de Março", its month capitalised where the language writes
    months in lower case) that an earlier turn of the chat wrote as a place's name ("rua 25 de Março"): the place
    again ("25 de Março foi um caos"), its span added to ``taken``. The earlier turns are read only for such a one."""
    asked = [m for m in _DAY_MONTH.finditer(text) if m.group("m")[:1].isupper()
             and m.group("m").lower() in MONTH_OF and m.group("m").lower() not in _CAPITALISED_MONTHS
             and not _place_name(text, m)]
    if not asked:
        return
    context = context_of() if callable(context_of) else context_of
    for m in asked:
        phrase = m.group()
        for ctx_text, _w in context:
            at = ctx_text.find(phrase)
            if at >= 0 and any(c.start() == at and _place_name(ctx_text, c) for c in _DAY_MONTH.finditer(ctx_text)):
                taken.append((m.start(), m.end()))
                break


def says_a_date(text: str) -> bool:
    """(brief23) Whether ``text`` names a day with its month ("Saturday 5 December", "piątek 30 października", "sexta
    6 de novembro"), not as a place's name: a plan, which Coming up shows, moved or past as it is (the People line of
    its author quotes none)."""
    if not _MAYBE.search(text):
        return False
    for rx in (_ISO, _DAY_MONTH, _MONTH_DAY):
        for m in rx.finditer(text):
            word = (m.groupdict().get("m") or "").lower()
            if rx is _ISO or word in MONTH_OF and not (word in _CAPITAL_ONLY and not m.group("m")[0].isupper()) \
                    and not (rx is _DAY_MONTH and _place_name(text, m)):
                return True
    # (brief24) a day by its number alone, as named_days reads it: "viajo dia 5", "le 12", "am 3.", "domingo 29",
    # "on the 25th", "bis 30.11." (a plan as much as "Saturday 5 December"); read against any day, no context
    if any(m.group("next") is None or m.group("next").lower() not in _NOT_A_DAY for m in _ORDINAL_DAY.finditer(text)):
        return True
    got: list[date] = []
    _other_days(text, _ANY_DAY, got, [], [], set(), ())
    if not got:
        brief_numdates.numeric(text, _ANY_DAY, got, [], None, _in_year)
    return bool(got)


_ANY_DAY = date(2026, 1, 1)  # (says_a_date: whether a day is named, not which)


def _explicit(text: str, written: date, out: list[date], taken: list[tuple[int, int]]) -> set[int]:
    """Days with their month (ISO, day + month, month + day) and named days (holidays) of ``text``,
    appended to ``out`` (their spans to ``taken``); returns the days of the month the holidays name."""

    def free(m: re.Match[str]) -> bool:
        return all(m.end() <= a or m.start() >= b for a, b in taken)

    for rx in (_ISO, _DAY_MONTH, _MONTH_DAY):
        for m in rx.finditer(text):
            if not free(m):
                continue
            if rx is _DAY_MONTH and _place_name(text, m):
                taken.append((m.start(), m.end()))  # (its number is no day of another reading either)
                continue
            g = m.groupdict()
            word = (g.get("m") or "").lower()
            if g.get("m") and (word not in MONTH_OF or (word in _CAPITAL_ONLY and not g["m"][0].isupper())):
                continue
            month = int(g["mn"]) if g.get("mn") else MONTH_OF[word]
            try:
                d: date | None = date(int(g["y"]), month, int(g["d"])) if g.get("y") else \
                    _in_year(month, int(g["d"]), written)
            except ValueError:
                d = None
            if d is not None:
                out.append(d)
                taken.append((m.start(), m.end()))
    named = set()
    for m in _HOLIDAYS.finditer(text):
        month, day = _HOLIDAY_DAY.get(" ".join(m.group("h").lower().split()), (12, 25))
        d = _in_year(month, day, written)
        if d is not None:
            if not _event_name(text, m):
                out.append(d)
            named.add(day)  # ("the Christmas concert ... on the 25th": still December's 25th)
    return named


# Round 8: "Christmas concert", "concerto di Natale", "festa de Natal" name an event held at some day of the
# season, not the holiday's day: shown as "(→ 2026-12-25)", the wrong day stood next to the one said for it
# (or alone). A season's holiday names its day only where it stands as a time ("at Christmas", "a Natale",
# "Christmas Eve"); the days that are one day by name (Christmas Eve, New Year's Eve, Silvester...) keep it
# as a modifier too ("New Year's Eve party" is on the 31st).
_SEASON = frozenset("christmas xmas noël noel natale natal navidad weihnachten kerstmis halloween".split())
_SEASON_EN = frozenset(("christmas", "xmas", "halloween"))
# what may follow a holiday that still says its day: time words and the words that join a sentence
_TIME_AFTER = frozenset("""eve day days morning night evening time break holiday holidays hols week weeks weekend
period season break""".split())
_EVENT_AFTER = re.compile(r"[ \t]+(?P<w>[^\W\d_]{3,})\b")  # the word right after it (a noun it modifies)
# "concerto di Natale": a noun, then "of" (Romance / Dutch / German), then the holiday
_EVENT_BEFORE = re.compile(r"(?P<w>[^\W\d_]{3,})\s+(?:di|de|du|del|della|da|do|des|der|van|voor)\s+"
                           r"(?:la\s+|le\s+|il\s+|o\s+|el\s+|l['’]\s*)?$", re.IGNORECASE)
_DAY_NOUNS = frozenset("""giorno giornata dia jour journée día tag dag vigilia véspera veille notte noite nuit noche
nacht avond mattina manhã matin mañana morgen sera soir soirée tarde abend""".split())


def _event_name(text: str, m: re.Match[str]) -> bool:
    """Whether the holiday matched by ``m`` is part of an event's name ("Christmas concert", "concerto di
    Natale") rather than a day said ("at Christmas", "Christmas Eve", "il giorno di Natale")."""
    h = m.group("h").lower()
    if h not in _SEASON:
        return False
    after = _EVENT_AFTER.match(text, m.end()) if h in _SEASON_EN else None  # (English puts the noun after)
    if after and after.group("w").lower() not in _TIME_AFTER and after.group("w").lower() not in TEXT_STOPWORDS:
        return True
    before = _EVENT_BEFORE.search(text, 0, m.start())
    return before is not None and before.group("w").lower() not in _DAY_NOUNS


_MONTH_WORD = re.compile(r"[^\W\d_]{3,12}")


# (brief24) a month's spelling that is a given name too: capitalised, the name ("Marco: per Capodanno ... partiamo il
# 27?" placed the 27th in March: the author's label of a turn named the month), a month only in lower case ("em marco")
_NAME_TOO = frozenset(("marco",))


def _months(text: str) -> list[int]:
    """The months ``text`` names, in order: a month word of 4+ letters ("May" capitalised), or a holiday."""
    out: list[tuple[int, int]] = []
    for m in _MONTH_WORD.finditer(text):
        w = m.group()
        low = w.lower()
        if low in MONTH_OF and (len(low) >= 4 or w == "May") and (low not in _CAPITAL_ONLY or w[0].isupper()) \
                and not (low in _NAME_TOO and w[0].isupper()):
            out.append((m.start(), MONTH_OF[low]))
    for m in _HOLIDAYS.finditer(text):
        out.append((m.start(), _HOLIDAY_DAY.get(" ".join(m.group("h").lower().split()), (12, 25))[0]))
    return [month for _, month in sorted(out)]


def months_named(text: str) -> set[int]:
    """The months ``text`` names, a day with them or not ("nos mudamos en abril", "launch in June", "à Noël"): a plan
    placed by its month, which a later turn can move as much as a dated one."""
    return set(_months(text)) if _MONTH_WORD.search(text) else set()


_DEADLINE = frozenset(("by", "before", "until", "till"))  # "by the 1st": the next 1st, whatever month was talked of


def _placed(day: int, text: str, at: int, written: date, own: list[date], context_of: ContextOf,
            deadline: bool = False, before_only: bool = False, depth: int = 0, weekday: bool = False) -> date | None:
    """The day a bare "the ``day``th" of ``text`` (at ``at``) means, from what was said around it:

    1. the same day with its month, in this text or an earlier turn ("we now play Friday 18
       December" ... "soundcheck on the 18th"; "plumber booked for Tuesday 3 November" ...
       "the plumber who came on the 3rd"); else the same day by its number alone in a turn of the last
       REPEAT_DAYS, as placed there ("the weekend of the 26th", said on 20 September, is September's: a later
       "train booked for 3 october, and the 26th is still on" means it, not October's 26th), unless a deadline;
    2. else a month named before it in this text, or in the last MONTH_TURNS turns ("we said
       January, let's do the 9th"; "Christmas at ours?" ... "we arrive on the 24th") unless it is
       a deadline ("by the 1st", said after "the December gig": the next 1st).
    3. (brief35) else the month an earlier turn about the same thing booked it for ("tap from gatwick, 14 june" ...
       "tap changed the flight to the 15th": 15 June; memengine/brief_thingmonth.py), unless a deadline.
    None: nothing placed it (the caller takes the next such day). ``before_only``: a month named after
    it in the text does not place it (a bare "the 9th" then needs what was said before). (brief35) A range said
    with one month ("4-5 july") holds its first day for step 1; a day said again (round 10) is placed as its first
    saying was, with that turn's own earlier turns (``depth``: once)."""
    for d in own:
        if d.day == day:
            return d
    context = context_of() if callable(context_of) else context_of
    for ctx_text, ctx_written in context:
        if _MAYBE.search(ctx_text):
            found: list[date] = []
            _explicit(ctx_text, ctx_written, found, [])
            _range_starts(ctx_text, found)  # (brief35) "its now 4-5 july" ... "i'm at a wedding on the 4th"
            for d in found:
                if d.day == day:
                    return d
    if WEEKDAY_MONTH and not weekday:  # (brief40) "sun 18th" a day before: the 18th its weekday put in the next month
        for ctx_text, ctx_written in context:
            if (written - ctx_written).days > REPEAT_DAYS:
                break
            for d in _weekday_placed(ctx_text, ctx_written):
                if d.day == day:
                    return d
    if not deadline:  # (round 10) the same day said by its number alone a few days before: the day it meant then
        for i, (ctx_text, ctx_written) in enumerate(context):
            if (written - ctx_written).days > REPEAT_DAYS:
                break
            m = re.search(rf"\bthe\s+0?{day}(?:st|nd|rd|th)\b(?:\s+(?:of\s+)?(?P<next>[^\W\d_]+))?", ctx_text,
                          re.IGNORECASE) if _MAYBE.search(ctx_text) else None
            if m is not None and (m.group("next") or "").lower() not in MONTH_OF \
                    and (m.group("next") or "").lower() not in _NOT_A_DAY:
                said = _months(ctx_text[:m.start()])
                got = _in_year(said[-1], day, ctx_written) if said else None
                if got is None and not said and not depth:  # (brief35) placed as that turn placed it: "stick with the 27th"
                    got = _placed(day, ctx_text, m.start(), ctx_written, [], brief_thingmonth.rest(context, i + 1),
                                  before_only=True, depth=depth + 1)
                if got is None and not said:
                    got = _next_day_of_month(day, ctx_written - timedelta(days=1))
                if got is not None:
                    return got
    months = _months(text[:at]) or ([] if before_only else _months(text[at:]))
    if not months and not deadline:
        for ctx_text, ctx_written in context[:MONTH_TURNS]:
            if (written - ctx_written).days > MONTH_DAYS:
                break
            months = _months(ctx_text)
            if months:
                break
    if months:
        try:
            return _in_year(months[-1], day, written)
        except ValueError:
            return None
    if deadline:
        return None
    if WEEKDAY_MONTH and not weekday:  # (brief40) "they can do sun 25th" ... "back on the 22nd": that weekday's month
        got = _weekday_month(day, text[:at], written, context)
        if got is not None:
            return got
    got = brief_thingmonth.placed(day, text, written, context, _booked_days, _months, _in_year, at, is_calendar)
    if got is None and not depth:  # (brief36) 4. the month the same exchange's bare days were read in
        got = brief_thingmonth.exchange_month(day, text, written, context, _bare_placed, _in_year, text[:at],
                                              _NEGATION.match(text) is not None)
    return got


# (brief40) a day said with its weekday ("sun 18th", "domingo 15") is read in the month where that weekday falls
# ("sun 18th" said 3 September is 18 October), and a person reads a bare "the 18th" or "the 22nd" said a turn or a day
# later in that month too; on, a weekday's day places a bare day as a day said with its month does (steps 1 and 2 of
# _placed), a month only for a day still ahead; a day said with its own weekday is left to that weekday ("domingo 15"
# a day after "¿la pasamos al domingo 15?" is read beside the booked day, brief_thingmonth.beside_booked)
WEEKDAY_MONTH = True


def _weekday_placed(text: str, written: date) -> list[date]:
    """(brief40) The days ``text`` says with their weekday and no month ("sun 18th", "Sunday the 18th", "domingo
    15"), each in the first month after ``written`` where it falls on that weekday."""
    if not _MAYBE.search(text):
        return []
    out: list[date] = []
    for m in _ORDINAL_DAY.finditer(text):
        after = (m.group("next") or "").lower()
        if m.group("wd") and after not in MONTH_OF and after not in _NOT_A_DAY:
            wd_at = [w[:3] for w in WEEKDAYS].index(m.group("wd")[:3].lower())
            d = _next_day_of_month(int(m.group("d")), written, wd_at)
            if d is not None and d.weekday() == wd_at:
                out.append(d)
    for m in _OTHER_DAY.finditer(text):
        wd = _WEEKDAY_OF.get(m.group("wd").lower()) if m.group("wd") else None
        nxt = _NEXT_WORD.match(text, m.end())
        word = (nxt.group(1) or "").lower() if nxt else ""
        if wd is not None and word not in MONTH_OF and len(word) < 5 and not _AMOUNT_AFTER.match(text, m.end()):
            d = _next_day_of_month(int(m.group("d")), written, wd)
            if d is not None and d.weekday() == wd:
                out.append(d)
    return out


def _weekday_month(day: int, before: str, written: date, context: Context) -> date | None:
    """(brief40) The ``day``-th in the month of the newest day said with its weekday, in ``before`` (this text up to
    the day) or the MONTH_TURNS turns of ``context`` written within MONTH_DAYS, when that day is still ahead."""
    for ctx_text, ctx_written in [(before, written)] + list(context[:MONTH_TURNS]):
        if (written - ctx_written).days > MONTH_DAYS:
            break
        placed = _weekday_placed(ctx_text, ctx_written)
        if placed:
            got = _in_year(placed[-1].month, day, written)
            return got if got is not None and got >= written else None
    return None


def _bare_placed(text: str, written: date, context: Context) -> list[date]:
    """(brief36) The days "the Nth" of ``text`` means that a rule placed (:func:`_placed`, once deep; none guessed)."""
    out: list[date] = []
    for m in _BARE_ORDINAL.finditer(text) if _MAYBE.search(text) else ():
        if (m.group("next") or "").lower() not in MONTH_OF:
            d = _placed(int(m.group("d")), text, m.start(), written, [], context, before_only=True, depth=1)
            if d is not None:
                out.append(d)
    return out


@functools.cache
def is_calendar(word: str) -> bool:
    """(brief36) Whether a lower-cased word names a month or a weekday, in any language read here ("march", "tues",
    "samstag"): brief_thingmonth's things are none of them."""
    return word in MONTH_OF or word in _WEEKDAY_OF or _EN_WEEKDAY.fullmatch(word) is not None


def _booked_days(text: str, written: date) -> list[date]:
    """(brief35) The days ``text`` names with their month (and a range's first day): what a turn booked."""
    if not _MAYBE.search(text):
        return []
    found: list[date] = []
    _explicit(text, written, found, [])
    _range_starts(text, found)
    return found


def named_days(text: str, written: date, context: ContextOf = (), order: str | None = None) -> list[date]:
    """Every day ``text`` names (see the module docstring), resolved against the day it was written
    and, for a day named by its number alone, the earlier turns of its chat (``context``). ``order``: the
    chat's numeric date order ("dmy" / "mdy", as its importer read it), which lets a slash date be read."""
    if not _MAYBE.search(text):
        return []
    out: list[date] = []
    taken: list[tuple[int, int]] = []

    def free(m: re.Match[str]) -> bool:
        return all(m.end() <= a or m.start() >= b for a, b in taken)

    _named_again(text, context, taken)
    named = _explicit(text, written, out, taken)
    if RANGE_STARTS:
        _range_starts(text, out)
    brief_numdates.numeric(text, written, out, taken, order, _in_year)
    own = list(out)
    for m in _ORDINAL_DAY.finditer(text):
        after = (m.group("next") or "").lower()
        if after in MONTH_OF or after in _NOT_A_DAY:
            continue  # "the 3rd of December" (read above), "by the 10th of each month", "the 5th floor"
        if free(m) and int(m.group("d")) not in named:  # "Christmas ... on the 25th": the holiday's day
            wd = m.group("wd")
            d = _placed(int(m.group("d")), text, m.start(), written, own, context,
                        m.group().split(None, 1)[0].lower() in _DEADLINE, weekday=wd is not None)
            if d is None:
                wd_at = None if wd is None else [w[:3] for w in WEEKDAYS].index(wd[:3].lower())
                d = None if wd_at is None else brief_thingmonth.beside_booked(  # (brief37) "Sunday the 15th"
                    int(m.group("d")), wd_at, written, context() if callable(context) else context, _booked_days)
                d = d or _next_day_of_month(int(m.group("d")), written, wd_at)
            if d is not None:
                out.append(d)
                taken.append((m.start(), m.end()))
    for m in _BARE_ORDINAL.finditer(text):  # no preposition: placed by what was said before, never guessed
        after = (m.group("next") or "").lower()
        if free(m) and after not in MONTH_OF and after not in _NOT_A_DAY and int(m.group("d")) not in named:
            d = _placed(int(m.group("d")), text, m.start(), written, own, context, before_only=True)
            if d is not None:
                out.append(d)
                taken.append((m.start(), m.end()))
    _other_days(text, written, out, taken, own, named, context)
    titled = _titled_tomorrow(text)
    for m in _RELATIVE.finditer(text):
        if not free(m) or _dated_weekday(text, m.end(), taken):
            continue
        if m.group("tomorrow"):
            if titled and m.group("tomorrow")[:1].isupper():
                continue  # (brief37) a title's word: "Tomorrow, and Tomorrow, and Tomorrow" (a novel)
            out.append(written + timedelta(days=2 if m.group("tomorrow").lower().startswith("the") else 1))
        else:
            wd = WEEKDAYS.index(m.group("wd").lower())
            if _said_past(text, m.start(), m.end()):  # (brief30) "the housewarming on Sunday was so lovely"
                out.append(written - timedelta(days=(written.weekday() - wd) % 7 or 7))
                continue
            ahead = (wd - written.weekday()) % 7 or 7
            out.append(written + timedelta(days=ahead))
    return out


# (brief30) a weekday said of something that has happened: a past copula right after it ("the bbq on Saturday was
# class", "on Sunday it was packed"), or a past verb of the event a few words before it in the same clause ("Claire
# ran 10K in 56:20 on Sunday", "we went to the market on Saturday"); the next such weekday was read (held-out 23:
# "the housewarming on Sunday was so lovely", said on Monday, was "→ today"). English, as _RELATIVE is.
_PAST_AFTER = re.compile(r"\s*,?\s*(?:(?:it|that|this|which|everything|everyone|all)\s+)?(?:was|were|went|had\s+been)\b",
                         re.IGNORECASE)
_PAST_BEFORE = re.compile(r"\b(?:was|were|went|ran|came|met|saw|did|had|played|loved|enjoyed)\s+(?:[^\s.!?;]+\s+){0,3}$",
                          re.IGNORECASE)
_NOT_PAST = re.compile(r"(?:\b(?:will|going|gonna|can|could|shall|should|would|supposed|if|hope|hoping|planning|thinking|"
                       r"i|we|you|they|he|she|let's|lets|maybe)\b|['’]ll\b)", re.IGNORECASE)


def _said_past(text: str, start: int, end: int) -> bool:
    """Whether the weekday of ``text[start:end]`` ("on Sunday") is said of a day gone by (:data:`_PAST_AFTER`,
    :data:`_PAST_BEFORE`; nothing of a plan between the verb and the day: "we were hoping to meet on Sunday")."""
    if _PAST_AFTER.match(text, end):
        return True
    m = _PAST_BEFORE.search(text[max(0, start - 60): start])
    return m is not None and not _NOT_PAST.search(m.group())


_JOIN = re.compile(r"[\s,]{1,3}")
# (brief29, measured, off) a range of days that says its month once ("from 26 to 29 May", "29–31 May", "Friday 29 to Sunday 31 May",
# "del 9 al 12 de octubre", "od 18 do 31 lipca", "vom 2. bis 5. Juni"): its first day too, not only the last
RANGE_STARTS = False  # on: held-out 22 dated right +2, but held-out 11 lost a booking "od piątku 13 do niedzieli 15
# listopada" (its first day became the day of a newer turn changing the train of the 13th: brief_upcoming paired them)
_RANGE = re.compile(r"(?<![\d.,:/])(?P<d1>\d{1,2})\.?\s*(?:-|–|—|to|till|until|through|au|al|a|bis|do|tot|t/m|ao|fino\s+al)"
                    r"\s*(?:[^\W\d_]+,?\s+)?(?P<d2>\d{1,2})\.?\s+(?:de\s+|of\s+)?(?P<month>[^\W\d_]+)", re.IGNORECASE)


def _range_starts(text: str, out: list[date]) -> None:
    """The first day of each range of days ``text`` names with one month (:data:`_RANGE`), in the month and year
    its last day was read as (``out``, :func:`_explicit`'s days), when that is a later day of the month."""
    for m in _RANGE.finditer(text):
        d1, d2, month = int(m.group("d1")), int(m.group("d2")), MONTH_OF.get(m.group("month").lower())
        if month is None or not 1 <= d1 < d2:
            continue
        last = next((d for d in out if d.day == d2 and d.month == month), None)
        if last is not None and date(last.year, month, d1) not in out:
            out.append(date(last.year, month, d1))


def _titled_tomorrow(text: str) -> bool:
    """(brief37) Whether ``text`` writes "Tomorrow" capitalised inside a sentence: a name's word (a book, a song:
    "we're reading Tomorrow, and Tomorrow, and Tomorrow"), and then no capitalised "Tomorrow" of it is a day."""
    if "Tomorrow" not in text:
        return False
    return any(not _SENTENCE_OPEN.search(text[max(0, m.start() - 6): m.start()])
               for m in re.finditer(r"\bTomorrow\b", text))


def _dated_weekday(text: str, end: int, taken: list[tuple[int, int]]) -> bool:
    """Whether the weekday ending at ``end`` is the weekday of a day said right after it ("on Saturday
    December 5", "by Friday, 4 December"): one day, not the next Saturday and then the 5th (round 9)."""
    gap = _JOIN.match(text, end)
    start = gap.end() if gap else end
    return any(a == start for a, _ in taken)


def _next_day_of_month(day: int, written: date, weekday: int | None = None) -> date | None:
    """The first ``day``-th of a month after ``written`` (this month's, else a later one's) that
    falls on ``weekday`` when one is said ("Thursday 23rd"), within three months."""
    if not 1 <= day <= 31:
        return None
    y, m = written.year, written.month
    first: date | None = None
    for _ in range(3):
        try:
            d = date(y, m, day)
            if d > written and (weekday is None or d.weekday() == weekday):
                return d
            first = first or (d if d > written else None)
        except ValueError:
            pass
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return first  # a weekday that fits none of them (a slip of the writer's): the day decides



# "Freitag den 11.", "am 11.", "bis zum 1.", "le 11", "jusqu'au 11", "el 11", "il 16", "dia 11", "op de 11e",
# "den 11:e", "lørdag den 21.", "11-го": the English "on the 25th" in the other languages. The German and Nordic
# forms need the ordinal's dot (or ":e"), Dutch its "e"/"ste"/"de"; what follows must not make it a time, an amount,
# a range of hours or a count ("le 11h", "el 11 %", "venerdì 9-13", "el 12-hour", "el 11 jugador": a word of 5+
# letters after it).
_OTHER_DAY = re.compile(
    rf"\b(?:(?P<wd>{_WD_ALT})(?:-feira)?,?(?:\s+(?:den|der|le|el|il|o|dia))?"
    r"|(?P<ger>am|bis\s+zum|zum|vom|ab\s+dem|den|til\s+den|innen\s+den|fra\s+den|senest\s+den|till\s+den)"
    r"|(?P<rom>le|au|jusqu['’]au|du|el|hasta\s+el|desde\s+el|para\s+el|el\s+d[ií]a|dia|no\s+dia|at[ée]\s+(?:o\s+)?"
    r"dia|il|entro\s+il|dal|fino\s+al)"
    r"|(?P<nl>op\s+de|tot\s+de|de)"
    # (brief34) Italian's elided article: "domenica, l'8", "entro l'11"
    r"|(?P<el>l['’](?=(?:1|8|11)(?!\d))))(?:\s+|(?<=['’]))(?P<d>[0-3]?\d)(?P<suf>\.|:[ea]|er|e|ste|de|º|ª|-го)?(?![.,:/\-–]?\d|-[^\W\d_])",
    re.IGNORECASE)
_OTHER_DEADLINE = re.compile(r"^(?:bis|til|innen|senest|till|jusqu|hasta|até|ate|entro|fino|tot)", re.IGNORECASE)
_STREET = frozenset("rue av ave via vía rua calle str gate vej väg weg".split())
# "with" right before the article of a bare number: the number a thing is ("velas con el 8 y el 0", "avec le 12", "com o
# 7 nas costas"), no day
_WITH_BEFORE = re.compile(r"(?<![\w])(?:con|com|avec|col|coi|mit)\s+$", re.IGNORECASE)
_NEXT_WORD = re.compile(r"\s*([^\W\d_]+|[%€$£]|\d+\s*h\b|\d+(?:[:.]\d\d)?)?", re.IGNORECASE)


def _other_days(text: str, written: date, out: list[date], taken: list[tuple[int, int]], own: list[date],
                named: set[int], context: ContextOf) -> None:
    """Days named by their number alone in the other languages (``_OTHER_DAY``), placed as the English "the 25th"."""
    for m in _OTHER_DAY.finditer(text):
        suf = (m.group("suf") or "").lower()
        if m.group("ger") and suf not in (".", ":e", ":a"):
            continue
        if m.group("nl") and suf not in ("e", "ste", "de"):
            continue
        if m.group("rom") and suf == ".":
            continue  # ("le 11." at a sentence end: a count as often as a day)
        if m.group("rom") and suf == "e":
            continue  # (brief23) "dans le 7e", "la mairie du 6e": an arrondissement, a floor; French says "le 1er"
        nxt = _NEXT_WORD.match(text, m.end())
        word = (nxt.group(1) or "").lower() if nxt else ""
        # a count? ("el 11 jugador", "au 11 rue", "au 18e siècle"; not "lørdag den 21. alligevel": an ordinal's dot)
        counted = not m.group("ger") and not m.group("nl") and suf not in (".", ":e", ":a")
        if word in MONTH_OF or word[:1].isdigit() and "h" in word or _AMOUNT_AFTER.match(text, m.end()) \
                or counted and (len(word) >= 5 or word in _STREET) and not word[:1].isdigit():
            continue
        if m.group("rom") and _WITH_BEFORE.search(text, 0, m.start()):
            continue  # (lead) "velas con el 8 y el 0", "avec le 12": the number a thing is, no day
        day = int(m.group("d"))
        if not all(m.end() <= a or m.start() >= b for a, b in taken) or day in named:
            continue
        first = m.group().split(None, 1)[0]
        wd = _WEEKDAY_OF.get(m.group("wd").lower()) if m.group("wd") else None
        d = _placed(day, text, m.start(), written, own, context, _OTHER_DEADLINE.match(first) is not None,
                    weekday=wd is not None)
        if d is None and wd is not None:  # (brief37) "domingo 15" beside a day booked: that day's month
            d = brief_thingmonth.beside_booked(day, wd, written, context() if callable(context) else context,
                                               _booked_days)
        if d is None:
            d = _next_day_of_month(day, written, wd)
        if d is not None:
            out.append(d)
            taken.append((m.start(), m.end()))


# Round 10: a day said under a negation is no plan ("we're NOT going on the 5th any more", "the engineer can't do
# the 4th", "Vi holder den IKKE lørdag den 21."): the word of negation of the languages the brief reads, or of the
# Scandinavian ones, at most NEG_WORDS words before the day in one clause; not the idioms that plan ("can't wait for",
# "don't forget", "not until", "no later than", "n'oubliez pas").
NEG_WORDS = 4
_NEGATION = re.compile(
    r"\b(?:not|never|n['’]t|cannot|can['’]?t|won['’]?t|no\s+longer|ikke|inte|icke|nicht|kein|keine|pas|non|"
    r"não|nao|niet|geen|nie)\b", re.IGNORECASE)
_NEG_IDIOM = re.compile(r"\s*(?:\w+\s+)?(?:wait|forget|miss|until|till|before|later|sooner|earlier|only|just|"
                        r"vergessen|oublie[rz]?|olvides|esquecer|dimenticare|vergeten|glem|glöm)\b", re.IGNORECASE)
_CLAUSE_END = re.compile(r"(?<!\d)\.|[;!?\n,]|\s[—–-]\s|\b(?:but|and|instead|men|og|och|aber|mais|ma|pero|mas|maar)\b",
                         re.IGNORECASE)
_DAY_AT = re.compile(r"\b[0-3]?\d(?:st|nd|rd|th|\.)?(?!\d)|\b(?:tomorrow|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b",
                     re.IGNORECASE)


def _negated_spans(text: str) -> list[tuple[int, int]]:
    """The spans of ``text`` a negation covers: from a word of negation to the end of its clause, at most NEG_WORDS
    words on (the day must follow it closely: "can't make it, see you on the 5th" plans the 5th)."""
    out = []
    for m in _NEGATION.finditer(text):
        if _NEG_IDIOM.match(text, m.end()):
            continue
        end = _CLAUSE_END.search(text, m.end())
        stop = end.start() if end else len(text)
        words = list(re.finditer(r"\S+", text[m.end():stop]))
        if len(words) > NEG_WORDS + 2:  # (a day's own words: "lørdag den 21.", "on the 5th")
            stop = m.end() + words[NEG_WORDS + 1].end()
        out.append((m.start(), stop))
    return out


@functools.cache
def _dismissal() -> re.Pattern[str]:
    from memengine.recall.replaced import DISMISSALS

    return re.compile(rf"\b(?:{DISMISSALS})(?=\s*(?:[,;.!?)\n]|$|\s[—–-]\s|\s(?:so|because|and|but)\b))",
                      re.IGNORECASE)


def _dismissed_spans(text: str) -> list[tuple[int, int]]:
    """Round 12: the spans of ``text`` that say a value dismissed at the end of their clause ("the Dec 3 slot fell
    through", "the Tuesday flight went up": memengine/recall/replaced.DISMISSALS): from the clause's start, at most
    NEG_WORDS + 2 words back, to the dismissal."""
    out = []
    for m in _dismissal().finditer(text):
        start = 0
        for end in _CLAUSE_END.finditer(text, 0, m.start()):
            start = end.end()
        words = list(re.finditer(r"\S+", text[start:m.start()]))
        if len(words) > NEG_WORDS + 2:
            start += words[-(NEG_WORDS + 2)].start()
        out.append((start, m.end()))
    return out


_MAY_DISMISS = re.compile(r"through|went up|sold out|cancel|taken|gone|full", re.IGNORECASE)


def negated_days(text: str, written: date, context: ContextOf = (), order: str | None = None) -> set[date]:
    """The days ``text`` names under a negation ("not on the 5th any more") or said dismissed ("the Dec 3
    slot fell through") and not said again, plainly, after it: said, not planned."""
    negated = _NEGATION.search(text) is not None
    if not negated and not _MAY_DISMISS.search(text):
        return set()
    spans = (_negated_spans(text) if negated else []) + _dismissed_spans(text)
    if not spans:
        return set()
    plain = text
    for a, b in spans:
        plain = plain[:a] + " " * (b - a) + plain[b:]
    out: set[date] = set()
    for a, b in spans:  # (round 15) the last word on a day wins: "they double-booked Saturday the 21st. We're NOT
        said = set(named_days(text[a:b], written, context, order))  # holding it Saturday the 21st" plans nothing
        if said:
            out |= said - set(named_days(plain[b:], written, context, order))
    return out


def plan_days(text: str, written: date, context: ContextOf = (), order: str | None = None) -> list[date]:
    """The days ``text`` names that were after the day it was written, sorted: what it planned (a day said only under
    a negation is none: ``negated_days``)."""
    days = {d for d in named_days(text, written, context, order) if d > written}
    if days:
        days -= negated_days(text, written, context, order)
    return sorted(days)


def when_note(days: list[date], today: date) -> str:
    """`` (→ 2026-12-03, in 13 days)`` for the first planned day from ``today`` on; `` (2026-10-16: past)``
    when every one has gone by; "" for no day."""
    if not days:
        return ""
    ahead = [d for d in days if d >= today]
    if not ahead:
        return f" ({days[-1].isoformat()}: past)"
    n = (ahead[0] - today).days
    rel = "today" if n == 0 else "tomorrow" if n == 1 else f"in {n} days"
    return f" (→ {ahead[0].isoformat()}, {rel})"
