"""Chat reactions in the brief: they say nothing themselves, and point at the news they answer.

A reaction is a chat turn of at most one content word and no number ("haha", "omg", "nice!!",
"legend", "we're in!!", "ok I'll drive"): shown, it takes a line and often a topic heading,
and in a small store every word of it is rare, so it read as informative. Its information is
set to zero, and it credits the turn it answers — the latest informative turn of the same chat
at most REACT_MINUTES before it — with REACTION_CREDIT (at most REACTION_CREDIT_MAX in all): a
short news turn ("got the job at Harland Audio!!") that four people answered within minutes
is what the chat will want remembered, and otherwise loses its topic's few lines to longer ones.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from memengine import summarize, topic_names

REACT_MINUTES = 30  # a reaction answers a turn at most this long before it
REACTION_CREDIT = 1.0  # information a turn gains per reaction to it...
REACTION_CREDIT_MAX = 3.0  # ...at most
LANGUAGE_SAMPLE = 300  # the chats' language is read from this many of their turns in the pool
REACTION_MAX_CHARS = 160  # a longer turn (its author's name and a media placeholder included) is no reaction
_PLACEHOLDER = re.compile(r"<[^<>\n]{0,80}>")  # "<Media omitted>", "<attached: 0001-PHOTO.jpg>"
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_AUTHOR = re.compile(r"^[^:\n]{1,60}:\s")  # a chat turn's "Name: " prefix
_DIGIT = re.compile(r"\d")


def is_reaction(text: str, stop: frozenset[str] | None = None) -> bool:
    """A turn of at most one content word (not a stop word, filler, a title or a contraction, 3+ letters, its
    drawn-out letters read once: "YESSS" is "yes") and no digit. ``stop``: the stop words of the chat's language
    (summarize.stopwords_for; English by default)."""
    if len(text) > REACTION_MAX_CHARS:
        return False  # (most turns of a large store: no need to read their words)
    return content_words(text, 2, stop) <= 1


# Round 12: a greeting, or one passed on, opens the turn: "tell Grandpa I said hi and to do his exercises",
# "Grandma Rose says hi to everyone", "happy birthday Aunt Carol", "good night everyone": it says the chat is
# fond of someone, not the news of its topic, and leads no topic (it headed a knee injury's topic). English and
# the greetings of the languages the brief reads most.
_GREETING = re.compile(
    r"^(?:(?:please\s+)?(?:tell|give)\s+(?:[^\W\d_]+\s+){1,2}(?:i\s+said\s+|we\s+said\s+)?"
    r"(?:hi|hello|hey|my\s+love|our\s+love|a\s+hug|hugs)\b|(?:say|said)\s+hi\s+to\b|"
    r"(?:[^\W\d_]+\s+){1,2}(?:says|said|sends)\s+(?:hi|hello|(?:her|his|their)\s+love)\b|"
    r"happy\s+birthday|good\s*(?:morning|night|nite)|"
    r"(?:g')?night(?:\s+(?:all|everyone|everybody|guys|folks))?\s*(?:[!.,]|$)|love\s+you|miss\s+you|"
    r"dis\s+bonjour|bisous|gr[üu](?:ß|ss)\s+|saluda\s+a|saludos|manda\s+saludos|pozdr[óo]w|buona?\s*notte|"
    r"buongiorno|bonne\s+nuit|gute\s+nacht|buenas\s+noches|dobranoc|dzie[ńn]\s+dobry|godnat|god\s+morgen)",
    re.IGNORECASE)


def is_greeting(text: str) -> bool:
    """Whether a chat turn opens on a greeting, or passes one on ("tell Grandpa I said hi and ...", "Grandma says hi
    to everyone"): it leads no topic (the brief still shows it as a line when it says more)."""
    body = _PLACEHOLDER.sub(" ", _AUTHOR.sub("", text, count=1)).strip(" \t\"“(")
    return _GREETING.match(body) is not None


def content_words(text: str, cap: int, stop: frozenset[str] | None = None) -> int:
    """min(cap, the content words of a chat turn), as :func:`is_reaction` counts them; a digit counts
    as ``cap`` (a number says something). Recall reads it too (memengine/recall/answerable.py), with the
    English stop words (``stop`` None)."""
    stop = summarize.STOPWORDS if stop is None else stop
    body = _PLACEHOLDER.sub(" ", _AUTHOR.sub("", text, count=1))
    if _DIGIT.search(body):
        return cap
    body = topic_names.unstretched(body)  # a cheer's letters drawn out: "LETS GOOOO" is "lets go"
    content = 0
    for w in _WORD.findall(body):
        low = w.lower()
        if len(low) >= 3 and low not in stop and not topic_names.is_filler(low) \
                and low not in topic_names.CONTRACTIONS and low not in topic_names.TITLES:
            content += 1
            if content >= cap:
                return cap
    return content


def _minutes(when: str | None) -> float | None:
    try:
        return datetime.fromisoformat(str(when)[:19]).timestamp() / 60.0 if when else None
    except ValueError:
        return None


def credit(pool: list[tuple[int, str, str | None, str, int | None, float]], texts: list[str], info: Any) -> set[int]:
    """Zero the information (``info``, one per pool row) of chat reactions and credit the turns they answer;
    returns the pool indexes of the reactions.

    ``pool`` rows are (id, content, date, chat key, ...); a chat key ending in "/" is no chat
    (a memory without a thread): its rows are left alone. The chats' reactions are read with the stop words of
    the language they are written in (round 8: "brava, pausa però" of an Italian chat is a reaction; with the
    English list alone "però" was a content word)."""
    by_chat: dict[str, list[tuple[str, int, int]]] = {}
    for i, p in enumerate(pool):
        if p[2] and not p[3].endswith("/"):
            by_chat.setdefault(p[3], []).append((str(p[2]), int(p[0]), i))
    reacting: set[int] = set()
    # the chats' language, read once from a sample of their turns (one detection per chat cost ~20 ms at 100k)
    sample = [texts[i] for rows in by_chat.values() for _w, _m, i in rows][:LANGUAGE_SAMPLE]
    stop = summarize.stopwords_for(sample) if sample else summarize.STOPWORDS
    for rows in by_chat.values():
        rows.sort()  # ISO dates sort as text
        gained: dict[int, float] = {}
        last: int | None = None  # pool index of the latest informative turn
        for when, _mid, i in rows:
            if not is_reaction(texts[i], stop):
                last = i
                continue
            reacting.add(i)
            info[i] = 0.0
            if last is None or gained.get(last, 0.0) >= REACTION_CREDIT_MAX:
                continue
            t, t_last = _minutes(when), _minutes(pool[last][2])
            if t is not None and t_last is not None and t - t_last <= REACT_MINUTES:
                gained[last] = gained.get(last, 0.0) + REACTION_CREDIT
                info[last] += REACTION_CREDIT
    return reacting
