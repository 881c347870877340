"""(brief37) A topic heading said in one turn only is named anew from what its turns say, not their quotes.

A topic's members are a chat's turns and the episodes that quote them (several turns in one memory). A name must be
said by two members (memengine/topic_names.py), and a rare word said in ONE turn is said twice once its episode
quotes it: with its rarity it beats what the topic's turns share. So the hen do's topic was "unreal tho" (one
turn's "the spa was unreal tho"), a degree's "Vengo sicuro" (a friend's "I'll be there!"), a care home's "changé"
(one turn's "Il a changé son traitement"): labels of a word said once, not of what the topic is about.

Here a chat's heading is asked again when the topic has at least MIN_TURNS turns (members of one line; an episode
quotes several) and its name is said, word for word after folding, in at most one of them and again in an episode
quoting it, or names a professional met by title ("Maître Le Gall": brief_firms). A store of notes has no quotes: its
headings are left as they are (the caller asks only of a group holding a chat's turns). The new name is topic_names' choice over the turns alone (what two turns or
more say, by its rarity), so a quote counts no more than what it quotes. No such name: the heading stays.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from memengine import brief_firms, brief_opener, topic_names
from memengine.topic_words import _WORD, fold

# the switch: OFF. On (14:07 UTC, held-outs 1-8 but 3 and 7 run), names good 92 -> 86, said once 9 -> 13, expected
# names held unchanged: the turns' names were "certo mamma", "Brutta notizia", "petit souci", "drinks" for "Santa
# Maria", "Nightjet", "fête", "Lantern"; only "Résidence Les Tilleuls" and the lead's "Gall" -> "compromis" better
HEAD_PHRASE = False
OPENER_FALLBACK = True  # no run two turns say: the opening line's name (brief_opener)
MIN_TURNS = 3  # turns a topic needs for its heading to be asked again (fewer: one turn saying it is the topic)


def turns_of(texts: Sequence[str]) -> list[str]:
    """The members of one line (a chat turn, a note): an episode quotes several turns, one per line."""
    return [t for t in texts if "\n" not in t.strip()]


def said_in(name: str, texts: Sequence[str]) -> int:
    """In how many of ``texts`` the words of ``name`` stand together, folded ("Cottage" in "the cottages")."""
    key = [fold(w) for w in _WORD.findall(name)]
    if not key:
        return 0
    n = len(key)
    got = 0
    for text in texts:
        if key[0][:3] not in text.lower():
            continue  # (most texts: no need to split their words)
        words = [fold(w) for w in _WORD.findall(text)]
        got += any(words[i: i + n] == key for i in range(len(words) - n + 1))
    return got


def weak(name: str, texts: Sequence[str], more: Callable[[], Sequence[str]] | None = None) -> bool:
    """Whether ``name`` heads a topic of MIN_TURNS turns or more while said in one turn at most, and again in an
    episode quoting it, or names a professional met by title: asked again (the module docstring). ``more``: what
    reads the topic's stored members (the brief's pool of it often lacks the episode; its label was named from them)."""
    if name in (topic_names.MIXED, topic_names.UNTITLED):
        return False  # (no word shared at all: brief_opener's, not this)
    if brief_firms.titled(name, texts):
        return True
    turns = turns_of(texts)
    if len(turns) < MIN_TURNS or said_in(name, turns) > 1:
        return False
    members = list(texts) + list(more() if more is not None else [])
    if said_in(name, list(dict.fromkeys(turns_of(members)))) > 1:
        return False  # (a stored turn the pool left out says it too)
    # its second saying is a quote: an episode of the exchange holds it
    return said_in(name, [t for t in members if "\n" in t.strip()]) >= 1


def renamed(name: str, texts: Sequence[str], stop: frozenset[str], exclude: set[str],
            rarity: Callable[[tuple[str, ...]], float], taken: set[str], inflected: bool,
            taken_words: frozenset[str], more: Callable[[], Sequence[str]] | None = None) -> str:
    """``name`` when it is no :func:`weak` heading, else topic_names' name of the topic's turns alone (what two
    turns say), when there is one that shares no word with the names given (``taken_words``)."""
    if not HEAD_PHRASE or not weak(name, texts, more):
        return name
    turns = turns_of(texts)
    # a professional met by title: neither the name nor a title names the topic ("Maître Le Gall")
    office = {w.lower() for w in _WORD.findall(name)} | brief_firms.OFFICE_TITLES \
        if brief_firms.titled(name, texts) else set()
    got = topic_names.name(turns, stop, exclude | office, rarity, taken, inflected)
    if office and not _free(got, stop, taken, taken_words):
        # a professional's name: what the members say without it, quotes counted ("compromis", not "Gall")
        got = topic_names.name(texts, stop, exclude | office, rarity, taken, inflected)
        if _free(got, stop, taken, taken_words):
            return got
        # nothing shared: what the turn that names the professional is about ("signature du compromis … chez
        # Maître Le Gall": "compromis")
        got = topic_names.name([t for t in texts if brief_firms.titled(name, [t])][:1], stop, exclude | office,
                               rarity, taken, inflected)
        if _free(got, stop, taken, taken_words):
            return got
    if not _free(got, stop, taken, taken_words) or said_in(got, turns) < 2:
        # no run two turns say: what the exchange's opening line names (brief_opener), else the heading stays
        return (brief_opener.opener_name(texts, stop, exclude | office, rarity, taken, taken_words, 1) or name
                ) if OPENER_FALLBACK else name
    return got


def _free(got: str, stop: frozenset[str], taken: set[str], taken_words: frozenset[str]) -> bool:
    """Whether ``got`` is a name (not MIXED / untitled) no other topic has, sharing no word with their names."""
    return got not in (topic_names.MIXED, topic_names.UNTITLED) and got.lower() not in taken and \
        not topic_names.content_words(got, stop) & taken_words
