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

from memengine import recache

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
    return recache.fixed(pattern)  # (the module's own: kept for the next one-shot call, memengine/recache.py)


# A settlement: a few words ending on (or holding) "then" and its kin
_SETTLE = re.compile(r"\b(?:then|it is|alors|dann|entonces|entao|allora|va pour|c'est bon pour)\b")
SETTLE_WORDS = 6
_TOKENS = re.compile(r"\S+")


# The cheap gate on a raw text (its "[date]" stamp and "Author:" label included: a superset): a word a
# marker or a settlement can be made of, accents either way (a set lookup per word: ~3 us a turn).
_MAY_NAME = frozenset(("not instead rather longer place lieu non pas plutot plutôt statt anstatt anstelle nicht vez "
                       "lugar nao não inves invés invece anziche anziché then alors dann entonces entao então "
                       "allora "
                       # (round 12: a choice among alternatives, a value said dismissed)
                       "took taking chose picked booked went going opted settled decided ended pris choisi "
                       "quedamos quede quedé elegimos escogimos ficamos escolhemos preso scelto haben namen kozen "
                       "tog valde valgte wzielismy wzięliśmy wybralismy wybraliśmy "
                       "through sold cancelled canceled taken gone full").split())
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
    tuesday", "le 3" in "le bijoutier dit le 10, pas le 3"), in order; () when it names none. Round 12:
    also the alternatives a choice did not take (:func:`not_chosen`) and the values said dismissed
    (:func:`dismissed`)."""
    low = _fold(text)
    marked = tuple(m.group(1).rstrip(".") for m in _compiled(_REPLACED).finditer(low))
    return marked + not_chosen(low) + dismissed(low)


# --------------------------------------------------------------------------- round 12 (brief12)

# A choice among alternatives said in one turn: "$295 for a midsize or $340 for the SUV, I took the midsize",
# "1,050 for 4 nights or 1,150 for 3, we took the 4 nights", "2050 on a 2 year, 2100 on 1 year — we took the 2
# year". The settling turn names the old offer again beside the one taken, so it read as restating it ("Coming
# up" kept "they want 2100 from dec 1"); the alternatives not taken are the values it replaces.
_CHOICE = (r"\b(?:(?:we|i|they|she|he)(?:'ve|'ll|'re|'d| have| will| are| had)?\s+"
           r"(?:took|taking|chose|picked|booked|went with|going with|opted for|settled on|decided on|"
           r"ended up with|ended up taking)|"
           r"on a (?:pris|choisi)|j'ai (?:pris|choisi)|nos quedamos con|me quede con|elegimos|escogimos|"
           r"ficamos com|escolhemos|abbiamo (?:preso|scelto)|wir haben (?:die|den|das)|we (?:namen|kozen)|"
           r"vi (?:tog|valde|valgte)|wzielismy|wybralismy)"
           r"\s+(?:(?:the|a|an|le|la|les|el|los|o|a|il|lo|die|den|das|de|het)\s+)?"
           r"([^\s,;.!?:—–()]+(?:\s+[^\s,;.!?:—–()]+)?)")
_OR = re.compile(r"\s(?:or|vs\.?|versus|ou|o|oder|of|eller|albo|lub)\s")
_LIST = re.compile(r"[,;]|\s[—–-]\s")
_DIGIT = re.compile(r"\d")


def not_chosen(low: str) -> tuple[str, ...]:
    """The alternatives a turn lists before saying which it took, other than the one taken (``low``: folded):
    "$340 for the suv" of "$295 for a midsize or $340 for the suv, i took the midsize". The alternatives are
    the parts of what precedes the choice split on "or" (or, with none, on commas and dashes) that hold a
    digit; the one taken is the one holding the choice's object (its first two words, else its first), and it
    must be exactly one; () otherwise."""
    m = _compiled(_CHOICE).search(low)
    if m is None:
        return ()
    before = low[:m.start()]
    parts = _OR.split(before)
    if len(parts) < 2:
        parts = _LIST.split(before)
    parts = [p.strip(" ,;.:—–-") for p in parts if _DIGIT.search(p)]
    if len(parts) < 2:
        return ()
    words = m.group(1).split()
    for n in (len(words), 1):
        said = re.compile(rf"(?<![\w.,]){re.escape(' '.join(words[:n]))}(?![\w])")
        taken = [i for i, p in enumerate(parts) if said.search(p)]
        if len(taken) == 1:
            return tuple(p for i, p in enumerate(parts) if i != taken[0])
        if len(taken) > 1:
            return ()
    return ()


# A value said dismissed, at the end of its clause: "the Dec 3 slot fell through", "the Tuesday flight went
# up", "the 6:10 one sold out", "the 14th got cancelled": the value it names is replaced (by the one the turn
# states instead). DISMISSALS is read by memengine/brief_dates.py too (a day so said is no plan).
DISMISSALS = (r"fell through|went up|sold out|(?:is|was|got|has been) (?:cancell?ed|taken|gone)|is full|"
              r"(?:is|was) fully booked")
_DISMISSED = (rf"((?:[^\s,;.!?:—–()]+\s+){{0,3}}?[^\s,;.!?:—–()]*\d[^\s,;!?:—–()]*"
              rf"(?:\s+[^\s,;.!?:—–()]+){{0,2}}|"
              rf"(?:mon|tues|wednes|thurs|fri|satur|sun)day(?:\s+[^\s,;.!?:—–()]+){{0,2}})"
              rf"\s+(?:{DISMISSALS})(?=\s*(?:[,;.!?)\n]|$|\s[—–-]\s|\s(?:so|because|and|but)\b))")


def dismissed(low: str) -> tuple[str, ...]:
    """The fragments of a turn (``low``: folded) that name a value said dismissed at the end of its clause:
    "the dec 3 slot" of "moved it to thursday dec 10, the dec 3 slot fell through"; () when none."""
    if "through" not in low and " up" not in low and "out" not in low and "cancel" not in low \
            and "taken" not in low and "gone" not in low and "full" not in low:
        return ()
    return tuple(m.group(1) for m in _compiled(_DISMISSED).finditer(low))


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
                   replaced: Iterable[Value], pm: Iterable[Value] = ()) -> set[str]:
    """The kinds of the earlier turn's values that the later turn names as replaced (a value of
    ``replaced`` equal to one of ``old_values``) while stating another of that kind (one of
    ``new_values``, outside the replaced fragments, not equal to it); empty when it names none.
    ``pm``: those of ``replaced`` said as a bare hour ("instead of 7", not "pas le 3"), which name the
    earlier turn's pm time too (:func:`pm_same`, round 11)."""
    out: set[str] = set()
    news, bare = list(new_values), set(pm)
    for r in replaced:
        for o in old_values:
            if ((same_value(r, o) or (r in bare and pm_same(r, o)))
                    and any(kin(n, o) and not same_value(n, o) for n in news)):
                out.add(o[0])
    return out


def settled(old_values: Iterable[Value], new_values: Iterable[Value]) -> set[str]:
    """The kinds of the earlier turn's values that a settlement gives another value of."""
    olds, news = list(old_values), list(new_values)
    return {o[0] for o in olds if any(kin(n, o) for n in news) and not any(same_value(n, o) for n in news)}


# --------------------------------------------------------------------------- round 11

# A value restated in the same form, with no change word: "cabin guy emailed, 200 a night now" after "180 a
# night", "le loueur m'a renvoyé le contrat : 110 € la journée" after "95 € la journée", "pullman prenotato,
# 75 a testa" after "60 a testa" (an amount per unit: the unit word is the form); "dice que él puede del 31 al
# 2" after "libre del 28 al 30 de julio", "la nonna può solo dal 5 al 9" after "dal 3 al 6" (a range of days).
_RATE = (r"(?<![\d:.,])(\d+(?:[.,]\d+)?)\s*(?:€|\$|£|eur|euros?|dollars?|bucks|quid|pounds?|francs?|reais)?\s*"
         r"(?:a|an|per|par|pro|al|la|le|por|the)\s+([^\W\d_]{3,})")
# (a time of day after an hour is no unit: "9 le matin", "7 la mattina", "8 la tarde")
_NOT_UNIT = frozenset(("matin", "soir", "soiree", "mattina", "sera", "pomeriggio", "manana", "tarde", "morning",
                       "evening", "afternoon", "abend", "morgen", "nachmittag", "manha", "noite", "next", "same",
                       "first", "last", "end", "latest", "most", "least", "plus", "moins"))
_RANGE = (r"\b(?:from(?: the)?|du|del|dal|dall'|vom|von|desde el|do|entre el|entre le)\s*(\d{1,2})(?:st|nd|rd|th|er|\.)?"
          r"\s*(?:to(?: the)?|au|al|bis(?: zum)?|a|till|until|-|–)\s*(\d{1,2})(?:st|nd|rd|th|\.)?"
          r"(?!\s*(?:h\b|:|\d|uhr|pm|am\b|p\.m|a\.m|hours?|heures?|ore\b|horas?|min|people|persons?|personnes))")
FormValue = tuple[str, tuple[float, ...]]


@functools.lru_cache(maxsize=4096)
def forms(text: str) -> frozenset[FormValue]:
    """The values of a chat turn's bare text said in a form that names its slot without a subject: an amount
    per unit (``("rate:night", (180.0,))``) and a range of days of the month (``("range", (28.0, 30.0))``)."""
    low = _fold(text)
    out: set[FormValue] = set()
    for m in _compiled(_RATE).finditer(low):
        if m.group(2) not in _NOT_UNIT:
            out.add((f"rate:{m.group(2)[:5]}", (float(m.group(1).replace(",", ".")),)))
    for m in _compiled(_RANGE).finditer(low):
        a, b = int(m.group(1)), int(m.group(2))
        if 1 <= a <= 31 and 1 <= b <= 31 and a != b:
            out.add(("range", (float(a), float(b))))
    return frozenset(out)


def restated(old: frozenset[FormValue], new: frozenset[FormValue]) -> set[str]:
    """The forms the later turn states again with other values ("200 a night" / "180 a night"): the value
    kind each answers ("number" for an amount, "date" for a range of days)."""
    out = set()
    for kind, val in new:
        same = [v for k, v in old if k == kind]
        if same and val not in same:
            out.add("date" if kind == "range" else "number")
    return out


# A settlement that opens on an agreement ("ok 4:30 then", "bon va pour 10h30", "d'accordo, 9 e un quarto",
# "pues a las 11 y comemos en ruta"): read only after a counter-proposal (updates.py: a chain of three turns).
_AGREE = (r"^(?:ok(?:ay|ey)?|k|fine|deal|sure|alright|right|so|bon|d'accord|d'acc|dac|va|alors|daccordo|d'accordo|"
          r"va bene|vale|pues|bueno|dale|vale pues|entonces|ok pues|beleza|combinado|entao|fechado|gut|okay dann|"
          r"einverstanden|passt|dann|also)\b")
AGREE_WORDS = 10


@functools.lru_cache(maxsize=4096)
def agrees(text: str) -> bool:
    """Whether a short chat turn opens on an agreement, or settles (:func:`settles`)."""
    low = _fold(text).strip(" .!?")
    return settles(text) or (len(_TOKENS.findall(low)) <= AGREE_WORDS and _compiled(_AGREE).search(low) is not None)


_BARE_HOUR = re.compile(r"\d{1,2}")


def bare_hours(fragments: Iterable[str]) -> tuple[str, ...]:
    """The replaced fragments that are a bare number of one or two digits ("7" in "6 instead of 7")."""
    return tuple(f for f in fragments if _BARE_HOUR.fullmatch(f.strip()))


def pm_same(v: Value, w: Value) -> bool:
    """A bare hour read in the other side's half of the day: "6 instead of 7" names "friday 7pm" (19:00)."""
    for a, b in ((v, w), (w, v)):
        if a[0] == "number" and a[1] and b[0] == "time" and b[1]:
            n = a[1][0]
            if isinstance(n, (int, float)) and float(n).is_integer() and 1 <= n <= 11 and b[1][0] == (int(n) + 12) * 60:
                return True
    return False
