"""(brief35) A topic whose members share no word named by the line that opens its thread, not "mixed subjects".

A topic is named by a run of words several of its members say (memengine/topic_names.py). In a busy group chat many
topics are one short exchange: "GIG!! the hug and pint want us 18th april, support for Lacuna" / "omg yes" / "🔥🔥",
or "doors 7.30, we're on at 8.15" / "load in 6 at the back lane". No word recurs, and the brief headed four of twelve
topics of the lead's band chat "mixed subjects", which tells the reader nothing. A person names such an exchange by
what its opening line is about: the gig, the studio session.

:func:`opener_name` reads the members' lines in the order the chat said them (an episode's lines first: it quotes the
exchange from its start, which a turn of the topic may not hold) and names the topic by the first line that yields a
name as a topic of one member is named (the same run, judge and taken names: topic_names.name), skipping lines of
filler ("omg yes") and lines the chat says in most topics. None when no line of the first OPENER_LINES names one: the
caller keeps "mixed subjects" (the brief shows the topic's lines, which say what it is).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Sequence

from memengine import brief_greetings, topic_names

OPENER = True  # the switch (off: "mixed subjects", as before brief35)
OPENER_LINES = 4  # lines read from the start of the exchange
EXCHANGE_MAX = 30  # members of a topic read this way (and widened from its stored members): a chat's short exchange;
# a topic of hundreds of turns at 100k is many exchanges ("Hey Mel", "closer to your dream"), and reading it costs
_LABEL = re.compile(r"^\s*(?:[^\s:]+\s+){0,3}[^\s:]+:\s+")  # "Niamh: " before a chat line


def lines_in_order(texts: Sequence[str]) -> list[str]:
    """The members' lines without their "Name: " label, an episode's (a member of several lines) first, each once."""
    episodes = [t for t in texts if "\n" in t.strip()]
    out: list[str] = []
    seen: set[str] = set()
    for t in [*episodes, *(t for t in texts if "\n" not in t.strip())]:
        for ln in t.split("\n"):
            body = _LABEL.sub("", ln, count=1).strip()
            if body and body.lower() not in seen:
                seen.add(body.lower())
                out.append(body)
    return out


_TOKEN = re.compile(r"[^\W\d_][\w'’-]*")
_JOINERS = frozenset(("and", "&", "of", "n"))  # "hug and pint", "Old Man of Coniston"


def _phrases(body: str, stop: frozenset[str], exclude: set[str]) -> list[tuple[int, str]]:
    """(tier, phrase) candidates of one line: a proper name of two capitalised words or more ("Cava Sound", not at
    the line's start alone), two content words joined by "and" / "of" ("hug and pint"), a run of content words
    (topic_names.runs). Higher tiers first."""
    out: list[tuple[int, str]] = []
    toks = [(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(body)]

    def content(w: str) -> bool:
        low = w.lower()
        return len(low) >= topic_names.MIN_WORD_CHARS and low not in stop and low not in exclude \
            and not topic_names.is_filler(low) and not topic_names.weak(w)

    def adjacent(i: int) -> bool:  # nothing but a space between token i and i + 1
        return i + 1 < len(toks) and body[toks[i][2]: toks[i + 1][1]] == " "

    i = 0
    while i < len(toks):
        j = i
        while True:
            if j + 1 < len(toks) and toks[j][0][:1].isupper() and toks[j + 1][0][:1].isupper() and adjacent(j) \
                    and not toks[j + 1][0].isupper():
                j += 1
            elif j > i and j + 2 < len(toks) and toks[j + 1][0] in _JOINERS and toks[j + 2][0][:1].isupper() \
                    and adjacent(j) and adjacent(j + 1):
                j += 2  # "Old Man of Coniston"
            else:
                break
        if j > i and toks[i][0][:1].isupper() and not any(
                t[0].lower() in exclude or topic_names.is_filler(t[0].lower()) for t in toks[i: j + 1]):
            out.append((3, body[toks[i][1]: toks[j][2]]))
            i = j + 1
            continue
        i += 1
    for i in range(len(toks) - 2):
        if toks[i + 1][0].lower() in _JOINERS and adjacent(i) and adjacent(i + 1) and content(toks[i][0]) \
                and content(toks[i + 2][0]):
            out.append((2, body[toks[i][1]: toks[i + 2][2]]))
    for key, phrase in topic_names.runs(body, stop, exclude).items():
        out.append((1 if len(key) > 1 else 0, phrase))
    return out


def episode_of(conn: sqlite3.Connection, cluster: int) -> list[str]:
    """The episode that quotes the exchange cluster ``cluster``'s turns are from (its first lines open it): a member
    of the cluster, else the episode of the chat whose span holds the cluster's earliest turn; [] when none."""
    if not OPENER:
        return []
    row = conn.execute(
        """SELECT m.content FROM cluster_members cm JOIN memories m ON m.id = cm.memory_id WHERE cm.cluster_id = ?
           AND json_extract(m.metadata, '$.kind') = 'episode' AND m.status != 'deleted' ORDER BY m.id LIMIT 1""",
        (cluster,)).fetchone()
    if row is not None:
        return [str(row[0])]
    first = conn.execute(
        """SELECT m.thread, coalesce(m.event_at, m.created_at) AS at FROM cluster_members cm JOIN memories m
           ON m.id = cm.memory_id WHERE cm.cluster_id = ? AND m.thread IS NOT NULL ORDER BY at LIMIT 1""",
        (cluster,)).fetchone()
    if first is None or first[1] is None:
        return []
    at = str(first[1])[:19]
    row = conn.execute(
        """SELECT content FROM memories WHERE thread = ? AND json_extract(metadata, '$.kind') = 'episode'
           AND status != 'deleted' AND substr(json_extract(metadata, '$.span[0]'), 1, 19) <= ?
           AND substr(json_extract(metadata, '$.span[1]'), 1, 19) >= ? LIMIT 1""", (first[0], at, at)).fetchone()
    return [str(row[0])] if row is not None else []


def opener_name(texts: Sequence[str], stop: frozenset[str], exclude: set[str],
                rarity: Callable[[tuple[str, ...]], float], taken: set[str] | None,
                taken_words: frozenset[str] = frozenset(), min_tier: int = 0) -> str | None:
    """The name of the first of the group's opening lines that names something (module docstring), or None.
    ``min_tier``: (brief37) the lowest tier of ``_phrases`` taken (1: no one capitalised word said once)."""
    if not OPENER:
        return None
    for body in lines_in_order(texts)[:OPENER_LINES]:
        if brief_greetings.has_opener(body):  # "Guten Morgen, ..." names nothing
            body = brief_greetings.without_greetings(body)
        cands = []
        for tier, phrase in _phrases(body, stop, exclude):
            if tier < min_tier:
                continue
            key = tuple(topic_names.fold(w) for w in topic_names._WORD.findall(phrase))
            if not key or (taken is not None and phrase.lower() in taken):
                continue
            if tier < 2 and not topic_names.name_shaped(phrase, [body], stop):
                continue
            if tier == 0 and not (phrase[:1].isupper() and not body.startswith(phrase)):
                continue  # one word said once: only a name written capitalised inside the line ("Lacuna")
            if taken_words and {topic_names.fold(w) for w in topic_names._WORD.findall(phrase)} & taken_words:
                continue  # a word of another topic's name: the two headings would not tell their topics apart
            cands.append((-tier, -rarity(key), phrase))
        if cands:
            return min(cands)[2]
    return None


def renamed(got: str, size: int, conn: sqlite3.Connection, cluster: int, texts: Sequence[str], stop: frozenset[str],
            exclude: set[str], rarity: Callable[[tuple[str, ...]], float], taken: set[str] | None,
            taken_words: frozenset[str]) -> str:
    """``got`` (a topic's name), or when it is "mixed subjects" and the topic a short exchange (``size`` members at
    most EXCHANGE_MAX), what the exchange's opening line names (the episode quoting it read first), if one does."""
    if got != topic_names.MIXED or size > EXCHANGE_MAX:
        return got
    return opener_name([*episode_of(conn, cluster), *texts], stop, exclude, rarity, taken, taken_words) or got
