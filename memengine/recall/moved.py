"""A plan moved to another place ranks above the older place (issue 19, round 12).

"Thanksgiving is at my sister's in Madison now" after "Thanksgiving at mom's in Milwaukee"; "Rolf feiert jetzt
im Vereinsheim vom Tennisclub, soll regnen" after "bei ihm im Garten, ab 15 Uhr". A place is no value the update
links of memengine/recall/updates.py read (a time, a date, an amount), so nothing there puts the newer first,
and the older is often worded closer to the question.

For a question asking where (where, wo, dónde, onde, où, dove), a chat turn of the top ``k`` that says a place
with a word of change ("now", "instead", "jetzt", "ahora", "agora", "maintenant", "finalement", "invece"…),
is no question, and shares a content word with the question, goes just above an earlier top turn of its
thread that says a place too (a place preposition and a word after it); the earlier is returned as outdated.
"""

from __future__ import annotations

import functools
import re

from memengine.recall.counter import asks_first
from memengine.recall.episodes import is_episode
from memengine.recall.updates import stems
from memengine.records import Candidate
from memengine.text import bare_text

MODES = ("", "on")
_WHERE = re.compile(r"\b(?:where|wo|wohin|donde|adonde|onde|dove|in which (?:place|city|town|restaurant))\b|\bo[uù]\s+(?:est|sont|on|se|a|va|ce)\b")
# a word that says the place is another one now (folded, lower case)
_CHANGE = re.compile(r"\b(?:now|instead|anymore|no longer|moved|moving|moves|jetzt|nun doch|stattdessen|doch|"
                     r"ahora|al final|finalmente|en vez|en cambio|agora|no fim|maintenant|finalement|plutot|au lieu|"
                     r"desormais|invece|adesso|alla fine)\b")
# a place: a preposition of place and a word after it
_PLACE = re.compile(r"\b(?:at|in|to|im|am|bei|beim|zum|zur|ins|en|al|a la|na|no|em|chez|a|au|aux|dans|nel|nella|"
                    r"alla|presso)\s+[^\W\d_]{2,}")


@functools.lru_cache(maxsize=4096)
def _said(text: str) -> tuple[bool, bool]:
    """(says a place, says it changed) of a turn's bare text."""
    from memengine.fact_lexicon import fold

    low = fold(text.lower())
    return _PLACE.search(low) is not None, _CHANGE.search(low) is not None


def _when(c: Candidate) -> tuple[str, int]:
    return c.event_at or "", c.position if c.position is not None else -1


def moved_first(ranked: list[Candidate], k: int, query: str) -> tuple[list[Candidate], dict[int, list[int]]]:
    """``ranked`` with every top-``k`` chat turn that says a place changed moved just above the earlier top
    turn of its thread saying a place (see the module's text), and ``{earlier id: [later ids]}``."""
    if k < 2 or not query:
        return ranked, {}
    from memengine.fact_lexicon import fold

    low = query.lower()
    if not _WHERE.search(fold(low)) and "où" not in low or asks_first(query):
        return ranked, {}
    named = stems(query)
    top = [c for c in ranked[:k] if c.thread is not None and not is_episode(c)]
    text = {c.id: bare_text(c.content, c.author) for c in top}
    out = list(ranked)
    marks: dict[int, list[int]] = {}
    for new in top:
        place, change = _said(text[new.id])
        if not (place and change) or "?" in text[new.id] or not named & stems(text[new.id]):
            continue
        at = out.index(new)
        older = [i for i, c in enumerate(out[:at]) if c.id in text and c.thread == new.thread
                 and _when(c) < _when(new) and _said(text[c.id]) == (True, False)]
        if older:
            first = older[0]
            out.pop(at)
            new.score = out[first].score
            out.insert(first, new)
            mine = named | stems(text[new.id])
            for i in older:  # (marked only when it shares a word with the question or the newer: the same plan)
                if mine & stems(text[out[i + 1].id]):
                    marks.setdefault(out[i + 1].id, []).append(new.id)
    return out, marks
