"""(brief35) The month of a day said by its number alone, taken from what the chat said about the same thing.

"tap changed the flight to the 15th, same time", written on 30 April, is not 15 May: the flight was booked
"tap from gatwick, 14 june" twelve days before. "ANA moved our outbound to the 3rd", written in April, means the
October flight booked in January ("flights booked for october ... ANA from heathrow"); "kitchen now starts the 27th
not the 6th", written in June, the refit the fitters had set for "6th july". A person reads the day in the month the
thing was booked for; the brief read it in the month of the message (the next such day).

:func:`placed` is asked by memengine/brief_dates.py (``_placed``) after the nearer rules (the same day said with its
month, a month named in this text or the turns right before it) found nothing: the newest earlier turn of the chat,
within THING_DAYS, that shares a word naming the thing with this text (``thing_words``: not a stop word, a word of
change or time, a month or weekday) and names a day or month still ahead when it was written (a booking for later)
gives its month, if the day in that month is not before the text was written, and only when the text says a change
("changed", "moved", "now", "instead": fact_cue_lexicon's words): a bare day moves a booked thing; "interview on the
17th" said beside a job that starts in May is March's 17th. Nothing else is guessed: no change, no shared word, or no
month ahead, and the caller keeps its own reading.

Imports memengine.text, and when asked stopword_lists and fact_cue_lexicon (brief_dates imports this module; the day
readers are passed in).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from datetime import date

from memengine.text import STOPWORDS

THING_MONTH = True  # off: a bare day no nearer rule placed is the next such day, as before brief35
THING_DAYS = 300  # an earlier turn about the thing, at most this many days before: bookings are made months ahead

_OTHER_DAY = re.compile(r"\bthe\s+([0-3]?\d)(?:st|nd|rd|th)\b", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_][\w'’&-]*[^\W_]|[^\W\d_]{2,}")
_AUTHOR = re.compile(r"^[^\n:]{1,40}:\s", re.MULTILINE)  # "Rui: " before a chat turn's text (each line of an episode)
# words that say a change, a time, a reaction or a calendar place: they name no thing ("moved", "now", "same", "time")
_NOT_THING = frozenset("""
now same time times still just moved move moving changed change changes instead again back new old also then when
day days week weeks weekend month months year today tomorrow tonight morning evening night afternoon next last this
monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun
january february march april may june july august september october november december
jan feb mar apr jun jul aug sep sept oct nov dec
lundi mardi mercredi jeudi vendredi samedi dimanche montag dienstag mittwoch donnerstag freitag samstag sonntag
lunes martes miércoles jueves viernes sábado domingo lunedì martedì mercoledì giovedì venerdì sabato domenica
segunda terça quarta quinta sexta maandag dinsdag woensdag donderdag vrijdag zaterdag zondag
booked book booking got get going gonna want said says told tell think know yes yeah yep nope okay fine sure cool
lol haha omg ugh wow nice great good thanks thank please pls sorry
news bad worse worst sad happy glad part update fyi btw heads
""".split())


class Turns(list[tuple[str, date]]):
    """Earlier turns of a chat, newest first (those the nearer rules read), and ``further``: what reads the turns up
    to THING_DAYS back, of which these are the first (memengine/brief_upcoming.py's ``PlanDays._context``)."""

    further: Callable[[], Sequence[tuple[str, date]]] | None = None
    booked_by: str | None = None  # the earlier turn that placed a bare day of the text these turns are before


def older(context: Sequence[tuple[str, date]]) -> Sequence[tuple[str, date]]:
    """The turns the thing rule reads: ``context``'s further turns when it has them, else ``context``."""
    further = getattr(context, "further", None)
    return further() if further is not None else context


def rest(context: Sequence[tuple[str, date]], start: int) -> Sequence[tuple[str, date]]:
    """``context`` from its ``start``-th turn on (the turns before that turn), its further turns cut alike."""
    out = Turns(context[start:])
    further = getattr(context, "further", None)
    if further is not None:
        out.further = lambda: further()[start:]
    return out


@functools.cache
def _stop() -> frozenset[str]:
    """English stop words and those of every language the stop-word lists hold ("pour", "und"): a thing's word is
    none of them, whatever the chat's language."""
    from memengine import stopword_lists

    return STOPWORDS.union(*stopword_lists._language_lists().values())


@functools.cache
def _change_words() -> frozenset[str]:
    """The single words of change and of "now" (memengine/fact_cue_lexicon.py: "moved", "changed", "instead",
    "verschoben", "adesso"), folded as fact_lexicon folds."""
    from memengine.fact_cue_lexicon import CHANGE_NOUNS, CHANGE_VERBS, MOTION_VERBS, NOW_PHRASES

    return frozenset(CHANGE_VERBS | MOTION_VERBS | CHANGE_NOUNS | {p for p in NOW_PHRASES if " " not in p}) \
        | {"instead", "now", "pushed", "rebooked", "rescheduled"}


def says_change(text: str) -> bool:
    """Whether ``text`` says that something changed ("tap changed the flight", "kitchen now starts", "moved our
    outbound"): a bare day is read in the month of a booking only when the text moves that booking."""
    from memengine.fact_lexicon import fold

    return any(fold(w) in _change_words() or w.lower() in _change_words() for w in _WORD.findall(text[:600]))


def thing_words(text: str) -> frozenset[str]:
    """The words of ``text`` that may name what it is about ("tap", "flight", "kitchen", "Hollis"): three letters or
    more, lower-cased without a possessive or a plural "s"; no stop word, word of change or time, or author prefix."""
    body = _AUTHOR.sub("", text[:600])
    out = set()
    for w in _WORD.findall(body):
        low = w.lower().replace("’", "'").removesuffix("'s")
        if len(low) < 3 or low in _stop() or low in _NOT_THING:
            continue
        if low.endswith("s") and not low.endswith("ss") and len(low) > 3:
            low = low[:-1]
        if low in _NOT_THING:
            continue
        out.add(low)
    return frozenset(out)


def placed(day: int, text: str, written: date, context: Sequence[tuple[str, date]],
           days_of: Callable[[str, date], list[date]], months_of: Callable[[str], list[int]],
           in_year: Callable[[int, int, date], date | None]) -> date | None:
    """The ``day``-th in the month the chat booked the thing of ``text`` for (see the module docstring), or None.

    ``context``: earlier turns of the chat, newest first (text, day written; a :class:`Turns` reads its further
    turns, and is told the turn that placed the day: ``booked_by``); ``days_of(text, written)``: the days a
    turn names with their month; ``months_of(text)``: the months it names; ``in_year(month, day, written)``: the
    day/month nearest ``written``."""
    words = thing_words(text) if THING_MONTH and says_change(text) else frozenset()
    if not words:
        return None
    # the day it replaces, said in this text by its number ("away on the 14th ... the 21st instead"), as an earlier
    # turn placed it ("14th march"): the new day is in that month (the lead's house-share chat, 29 Nov 2026)
    others = {int(m.group(1)) for m in _OTHER_DAY.finditer(text)} - {day}
    for ctx_text, ctx_written in (context if others else ()):
        for d in days_of(ctx_text, ctx_written):
            if d.day in others:
                got = in_year(d.month, day, written) if day <= 31 else None
                return got if got is not None and got >= written else None
    for ctx_text, ctx_written in older(context):
        if (written - ctx_written).days > THING_DAYS:
            break
        if not words & thing_words(ctx_text):
            continue
        # the months this turn books ahead: its days after the day it was written, else the months it names ahead
        ahead = sorted({d.month: d for d in days_of(ctx_text, ctx_written) if d > ctx_written}.values())
        months = [d.month for d in ahead]
        if not months:
            for m in months_of(ctx_text):
                first = in_year(m, 28, ctx_written)  # (late in the month: a month named in its own first days is ahead)
                if first is not None and first > ctx_written and m not in months:
                    months.append(m)
        for m in months:
            got = in_year(m, day, ctx_written) if day <= 31 else None
            if got is not None and got >= written:
                if isinstance(context, Turns):
                    context.booked_by = ctx_text
                return got
        if months:
            return None  # the thing's booking is found and its days do not fit this one: no guess from it
    return None
