"""Updates that name the value they replace, and short settlements (issue 19, round 10).

A chat update often says only the new value and the one it replaces, the subject unsaid:
"garage rang, wednesday not tuesday" after "drop off tuesday 8am"; "1:15 instead of 12:30",
"ils nous donnent 16h30 au lieu de 15h", "Mittwoch statt Dienstag", "28 und nicht 35". It shares
no word stem with the turn it updates, so memengine/recall/updates.py paired nothing. Here the
replaced value itself is the link: the value right after a replacement marker ("not", "instead of",
"rather than", "no longer", "au lieu de", "et non", "pas", "plutôt que", "statt", "nicht", "en vez de",
"em vez de", "invece di"...) names the earlier turn that stated it.

The other form is a short settlement of a value proposed in between: "ok friday then", "yep 12 then",
"ok 13h alors", "ok dann 8" (a few words, one of "then / alors / dann / entonces / então / allora").

A bare number is read against the other side's kind: "7 ist mir zu früh, 8?" names "Abfahrt 7 Uhr" (an hour),
"pas le 3" names "prêtes le 3 avril" (a day of the month). A value with a unit matches only the same
unit ("15 min not 45" names no "45 minutes"). Pure functions of the texts (updates.py caches them).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

Value = tuple[str, tuple[object, ...]]

# A marker, then up to three short words before the value ("not the 19th", "pas le 3", "nicht am 14.",
# "instead of 12:30", "au lieu de 15h"); matched on lower-cased, accent-folded text.
_MARKERS = (
    r"not|instead of|rather than|no longer|not anymore|in place of|"
    r"au lieu de|au lieu d|et non|et pas|pas|plutot que|plutot qu|non plus|"
    r"statt|anstatt|anstelle von|und nicht|nicht mehr|nicht|"
    r"en vez de|en lugar de|y no|no|em vez de|ao inves de|e nao|nao|invece di|anziche|e non|non"
)
# (only articles and prepositions may stand between the marker and the value: "not sure 5 works" names none)
_FUNCTION = (r"(?:the|a|an|at|on|in|of|for|le|la|les|l'|l|de|du|des|a|au|aux|am|um|an|im|der|die|das|den|dem|"
             r"el|los|las|al|o|os|as|il|lo|gli|alle|ao|ate|bis|zum|zur)")
_WEEKDAY = (r"(?:mon|tue|wed|thu|fri|sat|sun|lun|mar|mer|jeu|ven|sam|dim|mont|dien|mitt|donn|frei|sams|sonn|"
            r"mier|juev|vier|saba|domi|segu|terc|quar|quin|sext)")
_REPLACED = (rf"\b(?:{_MARKERS})\s+((?:{_FUNCTION}\s+){{0,2}}(?:[^\s,;!?]*\d[^\s,;!?]*|"
             rf"{_WEEKDAY}[^\s,;!?]*))")  # (compiled on first use: ~1 ms a cold CLI call that reads no pair saves)
@functools.cache
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


# A settlement: a few words ending on (or holding) "then" and its kin
_SETTLE = re.compile(r"\b(?:then|it is|alors|dann|entonces|entao|allora|va pour|c'est bon pour)\b")
SETTLE_WORDS = 6
_TOKENS = re.compile(r"\S+")


# The cheap gate on a raw text (its "[date]" stamp and "Author:" label included: a superset): a word a
# marker or a settlement can be made of, accents either way (a set lookup per word: ~3 us a turn).
_MAY_NAME = frozenset(("not instead rather longer place lieu non pas plutot plutôt statt anstatt anstelle nicht vez "
                       "lugar nao não inves invés invece anziche anziché then alors dann entonces entao então "
                       "allora").split())
_LOW_WORDS = re.compile(r"[^\W\d_]+")


def may_name(content: str) -> bool:
    """Whether a memory's raw text may name a replaced value or settle one (a superset of both tests)."""
    return not _MAY_NAME.isdisjoint(_LOW_WORDS.findall(content.lower()))


def _fold(text: str) -> str:
    low = text.lower().replace("’", "'")
    if not low.isascii():
        from memengine.fact_lexicon import fold

        low = fold(low)
    return low


@functools.lru_cache(maxsize=4096)
def replaced_fragments(text: str) -> tuple[str, ...]:
    """The fragments of a chat turn's bare text that name a replaced value ("tuesday" in "wednesday not
    tuesday", "le 3" in "le bijoutier dit le 10, pas le 3"), in order; () when it names none."""
    low = _fold(text)
    return tuple(m.group(1).rstrip(".") for m in _compiled(_REPLACED).finditer(low))


@functools.lru_cache(maxsize=4096)
def settles(text: str) -> bool:
    """Whether a chat turn is a short settlement of a value: "ok friday then", "ok 13h alors", "ok dann 8"."""
    low = _fold(text).strip(" .!?")
    return len(_TOKENS.findall(low)) <= SETTLE_WORDS and _SETTLE.search(low) is not None


def _hour(n: object) -> int | None:
    # (as the value reader reads "at 5": 5:00; "19 Uhr" is not "7")
    if isinstance(n, (int, float)) and float(n).is_integer() and 0 <= n < 24:
        return int(n) * 60
    return None


def same_value(v: Value, w: Value) -> bool:
    """Whether two read values name the same thing: equal, or a bare number read as the other's hour
    ("8" / "8:00", "20:00") or day of the month ("3" / "3 April")."""
    if v == w:
        return True
    for a, b in ((v, w), (w, v)):
        if a[0] == "number" and a[1]:
            n = a[1][0]
            if b[0] == "time" and b[1] and b[1][0] == _hour(n):
                return True
            if b[0] == "date" and len(b[1]) == 3 and b[1][2] is not None and b[1][2] == n:
                return True
    return False


def kin(v: Value, w: Value) -> bool:
    """Whether two values are of one kind, a bare number being kin to a time (an hour) or a date (a day)."""
    if v[0] == w[0]:
        return True
    kinds = {v[0], w[0]}
    return kinds in ({"number", "time"}, {"number", "date"}) and any(
        x[0] == "number" and x[1] and isinstance(x[1][0], (int, float)) and 0 < x[1][0] <= 31 for x in (v, w))


def names_replaced(old_values: Iterable[Value], new_values: Iterable[Value],
                   replaced: Iterable[Value]) -> set[str]:
    """The kinds of the earlier turn's values that the later turn names as replaced (a value of
    ``replaced`` equal to one of ``old_values``) while stating another of that kind (one of
    ``new_values``, outside the replaced fragments, not equal to it); empty when it names none."""
    out: set[str] = set()
    news = list(new_values)
    for r in replaced:
        for o in old_values:
            if same_value(r, o) and any(kin(n, o) and not same_value(n, o) for n in news):
                out.add(o[0])
    return out


def settled(old_values: Iterable[Value], new_values: Iterable[Value]) -> set[str]:
    """The kinds of the earlier turn's values that a settlement gives another value of."""
    olds, news = list(old_values), list(new_values)
    return {o[0] for o in olds if any(kin(n, o) for n in news) and not any(same_value(n, o) for n in news)}
