"""Contradiction detection between two memory statements about the same subject.

The nightly ``consolidate`` job finds candidate pairs by embedding similarity and
asks :func:`detect` whether the two texts disagree.  Everything here is rule
based and deterministic (stdlib only): no SQL, no model, no network.

How a verdict is reached
------------------------
1. Each text is turned into a :class:`_Statement`: stemmed content words, a
   negation count, values on "opposition axes" (likes/hates, enabled/disabled,
   morning/evening ...), and typed slots (numbers, times of day, dates, places).
   Clauses describing the past ("used to live in Porto, ...") are dropped first,
   because a superseded fact does not contradict the current one.
2. A *context gate* checks that both texts talk about the same thing: they must
   share content words, must not name different subjects (words before the main
   verb), and must not each carry their own extra qualifiers ("on in production"
   vs "off in staging").  One-sided extra words are additional information.
3. Polarity is a parity: every negation difference and every axis on which the
   texts take opposite values is one "flip".  An odd number of flips is a
   contradiction ("not allowed" vs "forbidden" is two flips: agreement).
4. Slots aligned by their attribute ("port 8080" vs "port 9090", "3 kids" vs
   "2 kids") with disjoint values are a contradiction, unless polarity also
   flipped ("doesn't live in Porto" vs "lives in Lisbon" is consistent).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from memengine.contradiction_lexicon import (
    AUX,
    AXES,
    AXIS_BY_NAME,
    AXIS_BY_WORD,
    IDENTIFIER_WORDS,
    IRREGULAR,
    MONTHS,
    NEGATION_WORDS,
    PAST_CLAUSE_RE,
    PHRASES,
    PLACE_PREPOSITIONS,
    RATE_WORDS,
    STOPWORDS,
    SWITCH_CONTEXT,
    SYNONYMS,
    TOKEN_RE,
    UNITS,
    VERBS,
    WEEKDAYS,
    WORD_NUMBERS,
    YEAR_PREPOSITIONS,
)
from memengine.facts import clock_minutes

__all__ = ["Verdict", "detect", "subject_key"]


@dataclass(frozen=True)
class Verdict:
    """Why two statements are judged to contradict each other.

    ``kind`` is one of "negation", "number", "date", "place", "preference",
    "antonym"; ``reason`` is a single human-readable line; ``confidence`` is in
    [0, 1].
    """

    kind: str
    reason: str
    confidence: float


# ---------------------------------------------------------------------------
# Tunable constants
# ---------------------------------------------------------------------------

# Base confidence per kind.  Slot conflicts (numbers, dates) with an aligned
# attribute are the most reliable signal; preference words are the least,
# because "prefers X" and "likes Y" can both hold.
BASE_CONFIDENCE: dict[str, float] = {
    "number": 0.85,
    "date": 0.85,
    "place": 0.8,
    "negation": 0.8,
    "antonym": 0.8,
    "preference": 0.75,
}
# Weight of the caller's embedding similarity in the final confidence.  The
# rules decide *whether* to flag; similarity only nudges how sure we are.
SIMILARITY_WEIGHT = 0.3
# Minimum number of shared content words.  One shared word ("Oscar") is enough
# only when the texts are tiny; a pair sharing nothing is never about the
# same subject.
MIN_SHARED_CONTENT = 1
# Minimum share of the shorter statement's content words also present in the
# other one.  Below this the texts are too different to compare slot-by-slot.
MIN_OVERLAP_RATIO = 0.5
# Texts longer than this are truncated before analysis: memories are short,
# and the detector must stay fast on arbitrary (possibly huge) input.
MAX_TEXT_CHARS = 2000
# Stems shorter than this are left unstemmed: stripping "-s" from "gas" or
# "-ed" from "red" produces garbage that matches unrelated words.
MIN_STEM_LENGTH = 3
# Four-digit numbers in this range are read as years when a date preposition
# precedes them ("in 2019", "since 2015"); elsewhere they stay numbers (ports).
YEAR_RANGE = (1900, 2100)

# ---------------------------------------------------------------------------
# Stemming
# ---------------------------------------------------------------------------

_VOWELS = frozenset("aeiou")


def _measure(stem: str) -> int:
    """Porter's m: the number of vowel-consonant sequences in ``stem``."""
    pattern = "".join("v" if ch in _VOWELS else "c" for ch in stem)
    return len(re.findall(r"v+c+", pattern))


def _ends_cvc(stem: str) -> bool:
    """True when ``stem`` ends consonant-vowel-consonant (not w, x, y)."""
    if len(stem) < 3:
        return False
    a, b, c = stem[-3], stem[-2], stem[-1]
    return (a not in _VOWELS and b in _VOWELS and c not in _VOWELS
            and c not in "wxy")


def stem(word: str) -> str:
    """Reduce ``word`` to a crude stem (Porter steps 1a, 1b and 5a).

    Good enough to equate "lives"/"living"/"live" and "smokes"/"smoking";
    synonyms and irregular forms are mapped through small tables.
    """
    w = word.lower().replace("’", "'")
    w = w.removesuffix("'s").strip("'")
    if w in IRREGULAR:
        return SYNONYMS.get(IRREGULAR[w], IRREGULAR[w])
    if len(w) <= MIN_STEM_LENGTH or not w.isalpha():
        return SYNONYMS.get(w, w)
    if w.endswith("sses"):
        w = w.removesuffix("es")
    elif w.endswith("ies"):
        w = w[:-3] + "y"
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    for suffix in ("ing", "ed"):
        base = w[: -len(suffix)]
        if w.endswith(suffix) and len(base) >= 2 and _VOWELS & set(base):
            w = base
            if w.endswith(("at", "bl", "iz")):
                w += "e"
            elif (len(w) > 2 and w[-1] == w[-2] and w[-1] not in _VOWELS
                  and w[-1] not in "lsz"):
                w = w[:-1]
            elif _measure(w) == 1 and _ends_cvc(w) or len(w) == 2:
                w += "e"
            break
    if w.endswith("e") and len(w) > 3:
        base = w[:-1]
        if _measure(base) > 1 or (_measure(base) == 1 and not _ends_cvc(base)):
            w = base
    return SYNONYMS.get(w, w)


# ---------------------------------------------------------------------------
# Statement analysis
# ---------------------------------------------------------------------------


@dataclass
class _Token:
    text: str
    low: str
    group: str  # regex group name
    stem: str = ""
    role: str = ""  # "", "neg", "axis", "slot", "unit", "stop"


@dataclass(frozen=True)
class _NumberSlot:
    value: float
    unit: str  # unit class ("duration", "%", "usd", "" ...) or "time"
    before: str  # content stem before the number ("port")
    after: str  # content stem after the number/unit ("kid")
    text: str
    identifier: bool


@dataclass(frozen=True)
class _DateSlot:
    year: int | None
    month: int | None
    day: int | None
    weekday: int | None
    before: str
    text: str


@dataclass
class _Statement:
    tokens: list[_Token]
    content: set[str]
    subject: set[str]
    negations: list[str]
    axes: dict[str, tuple[str, str]]  # axis name -> (value, surface word)
    numbers: list[_NumberSlot] = field(default_factory=list)
    dates: list[_DateSlot] = field(default_factory=list)
    places: list[tuple[str, str]] = field(default_factory=list)  # (name, verb)
    head: str = ""
    surface: dict[str, str] = field(default_factory=dict)  # stem -> first word seen


def _preprocess(text: str) -> str:
    text = text[:MAX_TEXT_CHARS].replace("’", "'")
    text = PAST_CLAUSE_RE.sub(" ", text)
    for pattern, replacement in PHRASES:
        text = re.sub(pattern, replacement, text, flags=re.IGNORECASE)
    # Split negative contractions: "doesn't" -> "does not", "can't" -> "can not".
    text = re.sub(r"\b(can|won|ain)'t\b", r"\1 not", text, flags=re.IGNORECASE)
    text = re.sub(r"n't\b", " not", text, flags=re.IGNORECASE)
    return text


def _tokenize(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    for match in TOKEN_RE.finditer(text):
        group = match.lastgroup or "word"
        raw = match.group(0)
        low = raw.lower()
        if group == "word":
            low = re.sub(r"'s$", "", low).strip("'-")
            if not low:
                continue
        tokens.append(_Token(raw, low, group, stem(low) if group == "word" else low))
    return tokens


def _parse_number(tok: _Token) -> tuple[float, str] | None:
    """Value and unit class of a numeric token, or None."""
    low = tok.low.replace(" ", "")
    unit = ""
    if tok.group == "money":
        unit = UNITS[low[0]][0]
        low = low[1:]
    elif tok.group == "num" and low.endswith("%"):
        unit, low = "%", low[:-1]
    elif tok.group == "word":
        if low in WORD_NUMBERS:
            return WORD_NUMBERS[low], ""
        return None
    elif tok.group != "num":
        return None
    mult = 1.0
    if low.endswith("k"):
        mult, low = 1000.0, low[:-1]
    elif low.endswith("m"):
        mult, low = 1_000_000.0, low[:-1]
    try:
        return float(low.replace(",", "")) * mult, unit
    except ValueError:
        return None


def _parse_time(tok: _Token) -> int | None:
    """Minutes since midnight for "9am", "3:30", "15:00", "7 p.m.", else None."""
    return clock_minutes(tok.low, french_h=False)


def _prev_content(tokens: list[_Token], i: int, skip: frozenset[str] = frozenset()) -> str:
    """Stem of the nearest content word before position ``i``."""
    for j in range(i - 1, max(-1, i - 5), -1):
        t = tokens[j]
        if t.group == "word" and t.role in ("", "unit") and t.low not in STOPWORDS \
                and t.low not in skip and t.low not in AUX:
            return t.stem
        if t.role == "slot":
            return ""
    return ""


def _next_content(tokens: list[_Token], i: int) -> str:
    """Stem of the content word right after position ``i`` (skipping one adjective gap)."""
    for j in range(i + 1, min(len(tokens), i + 3)):
        t = tokens[j]
        if t.group == "word" and t.role == "" and t.low not in STOPWORDS \
                and t.low not in AUX:
            return t.stem
        if t.group != "word" or t.low in ("and", "or", "but", "per"):
            return ""
    return ""


def _extract_dates(tokens: list[_Token]) -> list[_DateSlot]:
    dates: list[_DateSlot] = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        start = i
        year = month = day = weekday = None
        if t.group == "iso":
            parts = [int(p) for p in t.low.split("-")]
            year, month, day = parts[0], parts[1], parts[2]
            t.role = "slot"
        elif t.group == "word" and t.text[:1].isupper() and t.low in MONTHS:
            month = MONTHS[t.low]
            t.role = "slot"
            # Day before: "1 March".
            if i > 0 and tokens[i - 1].group == "num" and tokens[i - 1].low.isdigit() \
                    and 1 <= int(tokens[i - 1].low) <= 31:
                day = int(tokens[i - 1].low)
                tokens[i - 1].role = "slot"
                start = i - 1
            j = i + 1
            if day is None and j < len(tokens) and tokens[j].group == "num" \
                    and tokens[j].low.isdigit() and 1 <= int(tokens[j].low) <= 31:
                day = int(tokens[j].low)
                tokens[j].role = "slot"
                j += 1
                if j < len(tokens) and tokens[j].low in ("st", "nd", "rd", "th"):
                    tokens[j].role = "slot"
                    j += 1
            if j < len(tokens) and tokens[j].group == "num" and tokens[j].low.isdigit() \
                    and YEAR_RANGE[0] <= int(tokens[j].low) <= YEAR_RANGE[1]:
                year = int(tokens[j].low)
                tokens[j].role = "slot"
                j += 1
            i = j - 1
        elif t.group == "word" and t.text[:1].isupper() and t.low in WEEKDAYS:
            weekday = WEEKDAYS[t.low]
            t.role = "slot"
        elif t.group == "num" and t.low.isdigit() and len(t.low) == 4 \
                and YEAR_RANGE[0] <= int(t.low) <= YEAR_RANGE[1] and t.role != "slot" \
                and i > 0 and tokens[i - 1].low in YEAR_PREPOSITIONS:
            year = int(t.low)
            t.role = "slot"
        if t.role == "slot" and (year, month, day, weekday) != (None, None, None, None):
            text = " ".join(tok.text for tok in tokens[start:i + 1])
            dates.append(_DateSlot(year, month, day, weekday,
                                   _prev_content(tokens, start, YEAR_PREPOSITIONS), text))
        i += 1
    return dates


def _extract_numbers(tokens: list[_Token]) -> list[_NumberSlot]:
    numbers: list[_NumberSlot] = []
    for i, t in enumerate(tokens):
        if t.role == "slot":
            continue
        if t.group in ("clock", "ampm"):
            minutes = _parse_time(t)
            if minutes is None:
                continue
            t.role = "slot"
            numbers.append(_NumberSlot(float(minutes), "time", _prev_content(tokens, i),
                                       "", t.text, False))
            continue
        parsed = _parse_number(t)
        if parsed is None:
            continue
        value, unit = parsed
        t.role = "slot"
        j = i + 1
        mult = 1.0
        shown = t.text
        if not unit and j < len(tokens) and tokens[j].low in UNITS and tokens[j].group == "word":
            unit, mult = UNITS[tokens[j].low]
            tokens[j].role = "unit"
            shown = f"{t.text} {tokens[j].text}"
            j += 1
        value *= mult
        # Rates: "per minute", "a month", "/h".
        if j + 1 < len(tokens) and tokens[j].low in RATE_WORDS \
                and tokens[j + 1].low in UNITS and UNITS[tokens[j + 1].low][0] == "duration":
            value /= UNITS[tokens[j + 1].low][1]
            unit = (unit or "count") + "/duration"
            tokens[j + 1].role = "unit"
        after = _next_content(tokens, j - 1)
        if after and j + 2 < len(tokens) and tokens[j + 1].low in RATE_WORDS \
                and tokens[j + 2].low in UNITS and UNITS[tokens[j + 2].low][0] == "duration":
            value /= UNITS[tokens[j + 2].low][1]
            unit = (unit or "count") + "/duration"
            tokens[j + 2].role = "unit"
        before_tok = tokens[i - 1].low if i > 0 else ""
        identifier = before_tok in IDENTIFIER_WORDS
        numbers.append(_NumberSlot(value, unit, _prev_content(tokens, i), after,
                                   shown, identifier))
    return numbers


def _extract_places(tokens: list[_Token]) -> list[tuple[str, str]]:
    places: list[tuple[str, str]] = []
    for i, t in enumerate(tokens):
        if t.low not in PLACE_PREPOSITIONS or t.group != "word":
            continue
        j = i + 1
        if j < len(tokens) and tokens[j].low == "the":
            j += 1
        name: list[_Token] = []
        while j < len(tokens) and tokens[j].group == "word" and tokens[j].text[:1].isupper() \
                and tokens[j].role == "" and tokens[j].low not in MONTHS \
                and tokens[j].low not in WEEKDAYS:
            name.append(tokens[j])
            j += 1
        if name:
            for tok in name:
                tok.role = "slot"
            places.append((" ".join(tok.text for tok in name), _prev_content(tokens, i)))
    return places


def _analyse(text: str) -> _Statement:
    tokens = _tokenize(_preprocess(text))
    negations: list[str] = []
    axes: dict[str, tuple[str, str]] = {}
    for i, t in enumerate(tokens):
        if t.group != "word":
            continue
        if t.low in NEGATION_WORDS:
            # "no" directly before a number is an identifier marker ("no. 5").
            t.role = "neg"
            negations.append(t.low)
            continue
        axis = AXIS_BY_WORD.get(t.low)
        if axis is None:
            continue
        if axis.name == "switch" and (i == 0 or tokens[i - 1].low not in SWITCH_CONTEXT):
            continue
        t.role = "axis"
        axes.setdefault(axis.name, (axis.values[t.low], t.low))
    dates = _extract_dates(tokens)
    numbers = _extract_numbers(tokens)
    places = _extract_places(tokens)
    pivot = len(tokens)
    for i, t in enumerate(tokens):
        if i > 0 and (t.low in AUX or t.low in VERBS or t.role in ("neg", "axis")
                      or (t.group == "word" and t.low.endswith("ed") and len(t.low) > 4)):
            pivot = i
            break
    content: set[str] = set()
    subject: set[str] = set()
    for i, t in enumerate(tokens):
        if t.group != "word" or t.role or t.low in STOPWORDS or t.low in AUX \
                or t.low in ("st", "nd", "rd", "th") or t.low in UNITS \
                or t.low in WORD_NUMBERS or len(t.stem) < 2:
            continue
        content.add(t.stem)
        if i < pivot:
            subject.add(t.stem)
    head = ""
    for p in tokens[pivot:]:
        if p.role == "axis":
            head = AXIS_BY_WORD[p.low].name
        elif p.low in VERBS or (p.low.endswith("ed") and len(p.low) > 4) \
                or p.stem in content:
            head = p.stem
        if head:
            break
    surface: dict[str, str] = {}
    for t in tokens:
        if t.group == "word":
            surface.setdefault(t.stem, t.low)
    return _Statement(tokens, content, subject, negations, axes, numbers, dates, places,
                      head, surface)


# ---------------------------------------------------------------------------
# Comparison
# ---------------------------------------------------------------------------


def _numbers_align(x: _NumberSlot, y: _NumberSlot, single: bool) -> bool:
    if (x.unit == "time") != (y.unit == "time"):
        return False
    if x.unit == "time":
        return True if single else (x.before == y.before and bool(x.before))
    if x.unit and y.unit and x.unit != y.unit:
        return False
    if x.after and y.after:
        return x.after == y.after
    if x.before and y.before and x.before == y.before:
        return True
    return single and x.unit == y.unit and bool(x.unit)


def _dates_compatible(x: _DateSlot, y: _DateSlot) -> bool | None:
    """True/False when comparable, None when the dates share no component."""
    shared = False
    for u, v in ((x.year, y.year), (x.month, y.month), (x.day, y.day),
                 (x.weekday, y.weekday)):
        if u is not None and v is not None:
            shared = True
            if u != v:
                return False
    return True if shared else None


def _show(stem_: str, sa: _Statement, sb: _Statement) -> str:
    """A stem as the user wrote it ("wed" -> "wedding"), for reasons."""
    return sa.surface.get(stem_) or sb.surface.get(stem_) or stem_


def _topic(sa: _Statement, sb: _Statement, *, whole: bool = False) -> str:
    """Shared words (subject only unless ``whole``), in text order, for reasons."""
    shared = sa.content & sb.content
    if not whole:
        shared = (sa.subject & sb.subject) or shared
    words = [t.low for t in sa.tokens if t.group == "word" and t.stem in shared]
    return " ".join(dict.fromkeys(words)) or "statement"


def _slot_conflict(sa: _Statement, sb: _Statement) -> tuple[str, str] | None:
    """First (kind, reason) slot conflict between the statements, or None."""
    # Dates.
    for dx in sa.dates:
        verdicts = [_dates_compatible(dx, dy) for dy in sb.dates]
        comparable = [v for v in verdicts if v is not None]
        if comparable and not any(comparable):
            dy = next(d for d, v in zip(sb.dates, verdicts) if v is False)
            attr = _show(dx.before or dy.before, sa, sb) or _topic(sa, sb)
            return "date", f"date differs for '{attr}': {dx.text} vs {dy.text}"
    # Places: compare only when the whole sets are disjoint.
    if sa.places and sb.places:
        names_a = {p.lower() for p, _ in sa.places}
        names_b = {p.lower() for p, _ in sb.places}
        if not names_a & names_b:
            (pa, va), (pb, vb) = sa.places[0], sb.places[0]
            attr = _show(va or vb, sa, sb) or _topic(sa, sb)
            return "place", f"place differs for '{attr}': {pa} vs {pb}"
    # Numbers and times of day.
    single = len(sa.numbers) == 1 and len(sb.numbers) == 1
    for x in sa.numbers:
        if x.identifier:
            continue
        aligned = [y for y in sb.numbers if not y.identifier and _numbers_align(x, y, single)]
        if aligned and not any(abs(x.value - y.value) <= 1e-9 * max(1.0, abs(x.value))
                               for y in aligned):
            y = aligned[0]
            attr = _show(x.after or y.after or x.before or y.before, sa, sb) or _topic(sa, sb)
            what = "time" if x.unit == "time" else "number"
            return "number", f"{what} differs for '{attr}': {x.text} vs {y.text}"
    return None


def _different_identifiers(sa: _Statement, sb: _Statement) -> bool:
    """True when both name a numbered thing ("version 2"/"version 3") differently."""
    ids_a = {(x.before, x.value) for x in sa.numbers if x.identifier}
    ids_b = {(y.before, y.value) for y in sb.numbers if y.identifier}
    keys_a = {k for k, _ in ids_a}
    keys_b = {k for k, _ in ids_b}
    return any(k in keys_b for k in keys_a) and not ids_a & ids_b


def _one_sided_qualifiers(sx: _Statement, sy: _Statement) -> bool:
    """True when ``sx`` has a time qualifier (date, time-of-day word) ``sy`` lacks.

    Sentiment and "always" are not qualifiers: they are what is being compared.
    """
    for name in sx.axes:
        if name not in sy.axes and AXIS_BY_NAME[name].kind == "preference" \
                and name != "prefers":
            return True
    return any(all(_dates_compatible(x, y) is None for y in sy.dates) for x in sx.dates)


def _same_context(sa: _Statement, sb: _Statement) -> tuple[bool, float]:
    """Whether the statements are about the same subject, and their overlap ratio."""
    shared = sa.content & sb.content
    only_a = sa.content - sb.content
    only_b = sb.content - sa.content
    smaller = max(1, min(len(sa.content), len(sb.content)))
    ratio = len(shared) / smaller
    if len(shared) < MIN_SHARED_CONTENT or ratio < MIN_OVERLAP_RATIO:
        return False, ratio
    # Each side brings its own qualifier: "on in production" / "off in staging",
    # "runs 5 km every morning" / "runs 10 km on Sundays".
    if (only_a or _one_sided_qualifiers(sa, sb)) and (only_b or _one_sided_qualifiers(sb, sa)):
        return False, ratio
    # A word in one subject phrase absent from the other text: "Lena" vs "Lena's sister".
    if (sa.subject - sb.content) or (sb.subject - sa.content):
        return False, ratio
    return True, ratio


def _absorbs_negation(pos: _Statement, neg: _Statement) -> bool:
    """True when the un-negated side already states a negative pole on its own.

    "Oscar hates coffee" vs "Oscar doesn't drink coffee": the dislike plays the
    role of the missing negation, so the two agree.
    """
    return any(value == "-" and name not in neg.axes
               for name, (value, _) in pos.axes.items())


def _polarity_flips(sa: _Statement, sb: _Statement) -> list[tuple[str, str]]:
    """Each (kind, reason) that flips polarity between the statements."""
    flips: list[tuple[str, str]] = []
    if len(sa.negations) % 2 != len(sb.negations) % 2:
        neg, pos = (sa, sb) if len(sa.negations) % 2 else (sb, sa)
        word = neg.negations[0]
        if word == "never" and pos.axes.get("frequency"):
            flips.append(("antonym", "opposite values for 'frequency': 'always' vs 'never'"))
        else:
            if not _absorbs_negation(pos, neg):
                flips.append(("negation",
                              f"negation mismatch ('{word}') about '{_topic(sa, sb, whole=True)}'"))
    for axis in AXES:
        va, vb = sa.axes.get(axis.name), sb.axes.get(axis.name)
        if va is None or vb is None or va[0] == vb[0]:
            continue
        what = "preference" if axis.kind == "preference" else "values"
        flips.append((axis.kind,
                      f"opposite {what} for '{axis.name}': '{va[1]}' vs '{vb[1]}'"))
    return flips


def _confidence(kind: str, ratio: float, similarity: float | None) -> float:
    conf = BASE_CONFIDENCE[kind] * (0.75 + 0.25 * min(1.0, ratio))
    if similarity is not None and not math.isnan(similarity):
        conf = (1 - SIMILARITY_WEIGHT) * conf + SIMILARITY_WEIGHT * max(0.0, min(1.0, similarity))
    return round(max(0.0, min(1.0, conf)), 3)


def detect(a: str, b: str, similarity: float | None = None) -> Verdict | None:
    """Decide whether statements ``a`` and ``b`` contradict each other.

    ``similarity`` is the caller's embedding cosine for the pair; it only
    adjusts the confidence.  Returns a :class:`Verdict` with the kind of
    disagreement and a one-line reason, or ``None`` when the texts agree, are
    about different subjects, or cannot be compared.  Never raises on str input.
    """
    sa, sb = _analyse(a), _analyse(b)
    if not sa.content or not sb.content:
        return None
    if _different_identifiers(sa, sb):
        return None
    same, ratio = _same_context(sa, sb)
    if not same:
        return None
    flips = _polarity_flips(sa, sb)
    slot = _slot_conflict(sa, sb) or _slot_conflict(sb, sa)
    if len(flips) % 2 == 1:
        if slot is not None:
            # "doesn't live in Porto" vs "lives in Lisbon": both can hold.
            return None
        kind, reason = next((f for f in flips if f[0] != "negation"), flips[0])
        return Verdict(kind, reason, _confidence(kind, ratio, similarity))
    if slot is not None:
        kind, reason = slot
        return Verdict(kind, reason, _confidence(kind, ratio, similarity))
    return None


def subject_key(text: str) -> str:
    """Normalised subject of a statement, e.g. "oscar prefers" or "gateway port".

    Built from the stemmed words before the main verb plus the attribute being
    stated (the noun next to a number, an opposition axis such as "prefers",
    or the main verb).  Negation and values are left out, so a statement and
    its contradiction share a key.
    """
    st = _analyse(text)
    words = [t.stem for t in st.tokens[: len(st.tokens)]
             if t.stem in st.subject and t.group == "word"]
    parts: list[str] = list(dict.fromkeys(words))
    attribute = ""
    for slot in st.numbers:
        if not slot.identifier and (slot.before or slot.after):
            attribute = slot.before or slot.after
            break
    if not attribute:
        axis_names = [ax.name for ax in AXES if ax.name in st.axes and ax.kind == "antonym"]
        attribute = st.head or (axis_names[0] if axis_names else "")
    if attribute and attribute not in parts:
        parts.append(attribute)
    return " ".join(parts)
