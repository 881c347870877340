"""Small talk is no topic: a chat's exchange that names nothing (no number, no name, nothing at length) shows with
the memories in no topic.

Consolidate groups a chat's exchanges (memengine/cluster_context.py), and an exchange of banter is one
like any other: "my feet are destroyed, never wearing those boots again" / "same, sore feet club" /
"my calves hurt too lol", or "what's everyone having for lunch" / "toast. again." / "leftover dal". Shown as
topics they took headings beside the news (bench/data/brief_heldout7: 9 of 22 kinds of small talk headed
a topic). What a reader names as a topic happened somewhere, to someone, on some day, or costs
something: at least one of its lines says a number, a date or a name, or says a lot
(:func:`is_specific`). A cluster of chat turns none of which does is small talk: the brief shows its
turns with the memories in no topic (they still compete for lines by what they say), and gives it no
heading. Notes are left alone (a note's group is its subject whatever its words).

(brief20) A group of greetings and wishes is small talk too, whatever they name: "buon Ognissanti a tutti", "FELIZ
CUMPLEAÑOS MEMO", "happy birthday Dad" say a holiday's or a person's name, and an episode that quotes four of them
says a lot, yet none is news: a turn is judged without its greetings ("god morgon, snö i Farsta!" still says a
place), and a cluster of chat turns more than half of whose members are greetings (memengine/brief_greetings.py)
is small talk whatever else they say.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Set

from memengine import brief_greetings, summarize, topic_names

LONG_WORDS = 12  # a turn of this many words says enough to be about something
_AUTHOR = re.compile(r"^[^:\n]{1,60}:\s")  # a chat turn's "Name: " prefix
_PLACEHOLDER = re.compile(r"<[^<>\n]{0,80}>")  # "<Media omitted>"
_SENTENCE = re.compile(r"(?<=[.!?…])\s+|\n+")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_DIGIT = re.compile(r"\d")


def is_specific(text: str, people: Set[str]) -> bool:
    """A chat turn that says a number, a name or a lot: a digit, LONG_WORDS words, or a capitalised word that does
    not start its sentence and is no one's name the store knows (``people``, lower case), title, stop word or
    filler ("Utrecht", "Hope Mill", "Saturday"; not "I", "Marcus" of "nobody asked Marcus")."""
    body = _PLACEHOLDER.sub(" ", _AUTHOR.sub("", text, count=1))
    if _DIGIT.search(body):
        return True
    words = _WORD.findall(body)
    if len(words) >= LONG_WORDS:
        return True
    for sentence in _SENTENCE.split(body):
        for w in _WORD.findall(sentence)[1:]:  # a sentence's first word is capitalised whatever it is
            low = w.lower()
            if w[0].isupper() and low not in people and low not in summarize.STOPWORDS \
                    and not topic_names.is_filler(low) and not topic_names.is_title(w) and low != "i":
                return True
    return False


def small_talk(pool: Iterable[tuple[int, str, str | None, str, int | None, float]], people: Set[str]) -> set[int]:
    """The clusters of ``pool`` rows (id, content, date, chat key, cluster, similarity) whose rows are all chat
    turns (a chat key not ending in "/") and none of them specific once its greetings are left out, or at least
    more than half of them greetings (brief_greetings.mostly_greetings)."""
    texts: dict[int, list[str]] = {}  # cluster -> its rows' texts, while all are chat turns
    notes: set[int] = set()
    for p in pool:
        cid = p[4]
        if cid is None or cid in notes:
            continue
        if p[3].endswith("/"):  # a note: its group is a subject whatever its words
            notes.add(cid)
            texts.pop(cid, None)
            continue
        texts.setdefault(cid, []).append(p[1][:600])
    # a greeting's own words are no news: "buon Ognissanti a tutti", "FELIZ CUMPLEAÑOS MEMO" ("x" keeps a name
    # after a greeting inside its sentence: "God morgen 🌞 Bamse har gravet" still names Bamse)
    return {c for c, ts in texts.items()
            if not any(is_specific(brief_greetings.without_greetings(t, "x"), people) for t in ts)
            or brief_greetings.mostly_greetings(ts)}
