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
# words that say a change, a time, a reaction: they name no thing ("moved", "now", "same", "time"); the names of months
# and weekdays are the caller's (``calendar``: memengine/brief_dates.py holds them)
_NOT_THING = frozenset("""
now same time times still just moved move moving changed change changes instead again back new old also then when
day days week weeks weekend month months year today tomorrow tonight morning evening night afternoon next last this
booked book booking got get going gonna want said says told tell think know yes yeah yep nope okay fine sure cool
lol haha omg ugh wow nice great good thanks thank please pls sorry
""".split())
# (brief36) the sentence a day is said in: what it names is the thing the day is of ("bad news part 2, half my friends
# are away on the 14th. can we do the party on the 21st instead": the 21st is the party's)
_SENTENCE_END = re.compile(r"[.!?;]+(?=\s)|\n")
EXCHANGE = True  # off: a bare day of a change no rule placed is the next such day (before brief36)
EXCHANGE_TURNS = 6  # (brief36) the turns right before a change whose bare days, as placed there, give its month...
EXCHANGE_DAYS = 1  # ...written at most this many days before it (brief_dates.MONTH_TURNS / MONTH_DAYS alike)


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


def thing_words(text: str, calendar: Callable[[str], bool] = lambda w: False) -> frozenset[str]:
    """The words of ``text`` that may name what it is about ("tap", "flight", "kitchen", "Hollis"): three letters or
    more, lower-cased without a possessive or a plural "s"; no stop word, word of change or time, author prefix, or
    word ``calendar`` says is a month's or weekday's name."""
    body = _AUTHOR.sub("", text[:600])
    out = set()
    for w in _WORD.findall(body):
        low = w.lower().replace("’", "'").removesuffix("'s")
        if len(low) < 3 or low in _stop() or low in _NOT_THING or calendar(low):
            continue
        if low.endswith("s") and not low.endswith("ss") and len(low) > 3:
            low = low[:-1]
        if low in _NOT_THING:
            continue
        out.add(low)
    return frozenset(out)


def sentence_at(text: str, at: int) -> str:
    """(brief36) The sentence of ``text`` that holds position ``at`` (sentences end at ". ", "! ", "? ", "; " or a
    line's end; commas do not end one: "Hollis rang, they're running late, kitchen now starts the 27th")."""
    start = 0
    for m in _SENTENCE_END.finditer(text):
        if m.end() > at:
            return text[start: m.start()]
        start = m.end()
    return text[start:]


def placed(day: int, text: str, written: date, context: Sequence[tuple[str, date]],
           days_of: Callable[[str, date], list[date]], months_of: Callable[[str], list[int]],
           in_year: Callable[[int, int, date], date | None], at: int | None = None,
           calendar: Callable[[str], bool] = lambda w: False) -> date | None:
    """The ``day``-th in the month the chat booked the thing of ``text`` for (see the module docstring), or None.

    ``context``: earlier turns of the chat, newest first (text, day written; a :class:`Turns` reads its further
    turns, and is told the turn that placed the day: ``booked_by``); ``days_of(text, written)``: the days a
    turn names with their month; ``months_of(text)``: the months it names; ``in_year(month, day, written)``: the
    day/month nearest ``written``; ``at``: where the day is said (its sentence names the thing: ``sentence_at``, else
    the whole text); ``calendar(word)``: a month's or weekday's name (no thing)."""
    if not (THING_MONTH and says_change(text)):
        return None
    words = (thing_words(sentence_at(text, at), calendar) if at is not None else frozenset()) \
        or thing_words(text, calendar)
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
        if not words & thing_words(ctx_text, calendar):
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


def exchange_month(day: int, text: str, written: date, context: Sequence[tuple[str, date]],
                   days_placed: Callable[[str, date, Sequence[tuple[str, date]]], list[date]],
                   in_year: Callable[[int, int, date], date | None], before: str = "", negation: bool = False
                   ) -> date | None:
    """(brief36) The ``day``-th in the month the same exchange's bare days were read in, for a change no nearer rule
    placed: "I'll change the ryokan in Kyoto, need it from the 8th now not the 6th", ten minutes after "ANA moved our
    outbound to the 3rd" (placed in October by the flight's booking), is 8 October, not 8 May; the ryokan was never
    booked by name. A person reads a change said in the middle of one talk in the month the talk is about.

    ``before``: this text up to the day (its own bare days count first: "moved our outbound to the 3rd ... return still
    the 17th"); then the EXCHANGE_TURNS turns of ``context`` (newest first) written within EXCHANGE_DAYS.
    ``days_placed(text, written, its_context)``: the bare days a turn names that a rule placed (none guessed). Only
    a day still ahead when its turn was written counts, and only a text that says a change (or ``negation``: the text
    is the part of one that a negation holds, "not the 6th", read alone to tell the day it takes back)."""
    if not (EXCHANGE and (negation or says_change(text))):
        return None
    turns: list[tuple[str, date, Sequence[tuple[str, date]]]] = [(before, written, context)] if before else []
    for i, (ctx_text, ctx_written) in enumerate(context[:EXCHANGE_TURNS]):
        if (written - ctx_written).days > EXCHANGE_DAYS:
            break
        turns.append((ctx_text, ctx_written, rest(context, i + 1)))
    for ctx_text, ctx_written, ctx_context in turns:
        for d in days_placed(ctx_text, ctx_written, ctx_context):
            got = in_year(d.month, day, written) if d > ctx_written and day <= 31 else None
            if got is not None and got >= written:
                return got
    return None


BESIDE = True  # (brief37) off: a day said with its weekday no rule placed is the next such day, as before
BESIDE_DAYS = 3  # a day said with its weekday is read beside a booked day at most this many days from it


def beside_booked(day: int, weekday: int, written: date, context: Sequence[tuple[str, date]],
                  days_of: Callable[[str, date], list[date]]) -> date | None:
    """(brief37) The ``day``-th said with its weekday ("domingo 15", "Sunday the 15th") that no nearer rule placed,
    in the month of a day an earlier turn booked (said with its month, still ahead when written, within THING_DAYS):
    when that month's ``day``-th falls on the weekday said and lies at most BESIDE_DAYS from the booked day. A lunch
    "el sábado 14 de marzo", moved in February to "domingo 15", is 15 March, not the next Sunday the 15th (15
    February): a day moved is said beside the day it moves, and its weekday tells which month's. Newest turn first;
    None when no booked day fits (the caller takes the next such day)."""
    if not BESIDE or not 1 <= day <= 31:
        return None
    for ctx_text, ctx_written in older(context):
        if (written - ctx_written).days > THING_DAYS:
            break
        for booked in days_of(ctx_text, ctx_written):
            if booked <= written:
                continue
            for y, m in ((booked.year, booked.month - 1), (booked.year, booked.month), (booked.year, booked.month + 1)):
                y, m = (y - 1, 12) if m == 0 else (y + 1, 1) if m == 13 else (y, m)
                try:
                    got = date(y, m, day)
                except ValueError:
                    continue
                if got > written and got.weekday() == weekday and abs((got - booked).days) <= BESIDE_DAYS:
                    return got
    return None
