"""Facts that change: what a fact sentence states, and how two of them relate.

A sentence is read into a :class:`Fact`: its content words in order (the *frame*), its
fact-bearing values (numbers with units, times, dates, weekdays, versions, codes such as
``tiger-42``, phone numbers, emails, URLs), its polarity (negations, plus the negative
pole of a closed-class opposite such as "closed" or "forbidden"), its modals (must / may /
should) and where its subject ends. Two questions are asked of a pair:

``same_fact(a, b)``
    Do they state the same thing (a write may reinforce the old memory instead of storing
    a new one)? Same content words (inflection and listed synonyms aside), identical values,
    same polarity, same modals.
``compare(old, new)``
    Does ``new`` contradict ``old`` — a new value in the same slot of the same frame, or
    the same frame with the opposite polarity? Returns a :class:`Verdict` or ``None``.

The mechanism is language-neutral: frames are compared by aligning content words, values
by type, polarity by parity. Only function words, negations and a few closed-class
opposites come from tables (memengine/fact_lexicon.py: English, French, Spanish, German).
Pure functions: no SQL, no model, no I/O.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from memengine import fact_change
from memengine import fact_lexicon as L
from memengine.fact_lexicon import fold

__all__ = ["Fact", "Value", "Verdict", "analyse", "compare", "same_fact"]

MAX_CHARS = 2000  # memories are short; the analysis must stay cheap on any input
# Share of the smaller frame's words the other must contain for the two to be one frame.
MIN_SHARED = 0.5
# Two words are one word when they share a prefix this long (and >= 75 % of the shorter):
# "allergic" / "allergy", "deployment" / "deployments", "alergica" / "alergia".
MIN_PREFIX = 4
PREFIX_SHARE = 0.75
PHONE_DIGITS = 9  # phone numbers compare on their last digits: "+33 6 12..." = "06 12..."


@dataclass(frozen=True)
class Verdict:
    """Why ``new`` contradicts ``old``: kind ("negation", "antonym", "preference", "number",
    "time", "date", "code", "place", "slot"), one readable line, a confidence in [0, 1]."""

    kind: str
    reason: str
    confidence: float


@dataclass(frozen=True)
class Value:
    """A fact-bearing token: ``kind`` and a normal form compared for equality."""

    kind: str
    norm: tuple[object, ...]
    text: str
    pos: int = field(default=-1, compare=False)  # index in the token stream


@dataclass
class Word:
    """A content word: ``key`` is its canonical form (folded, synonyms and opposites mapped)."""

    key: str
    text: str
    pos: int  # index in the token stream
    name: bool = False  # capitalised inside the sentence
    place: bool = False  # a name right after a place preposition ("in Osaka")
    agent: bool = False  # followed by "by" / "par" / "por" / "von": a passive verb ("is led by Hana")


@dataclass
class Fact:
    """What :func:`analyse` reads from one sentence."""

    text: str
    lang: str
    words: list[Word]
    values: list[Value]
    negations: list[str]  # words that flip polarity (negative poles included)
    modals: frozenset[str]
    subject_end: int  # words[:subject_end] are the subject phrase
    predicate: int | None  # index in words of the main verb, when it is not a copula
    exclusive: bool  # one value at a time ("lives in", "is"), not several ("likes", "has")
    identifiers: set[str] = field(default_factory=set)  # "version#2": numbers naming the subject
    # change language (memengine/fact_change.py): "verb" ("switched to", "moved to Friday"), "now",
    # "instead" or ""; the old value it names ("from Jira") is kept out of words / values
    change: str = ""
    old_words: list[str] = field(default_factory=list)
    old_values: list[Value] = field(default_factory=list)
    new_pos: frozenset[int] = frozenset()  # token positions of the new value phrase ("to Linear")

    @property
    def polarity(self) -> int:
        """0 or 1: the parity of the negations."""
        return len(self.negations) % 2


# --------------------------------------------------------------------------- reading

TOKEN_RE = re.compile(
    r"""
    (?P<url>https?://[^\s,;]+|www\.[^\s,;]+)
  | (?P<email>[\w.+-]+@[\w-]+(?:\.[\w-]+)+)
  | (?P<iso>\b\d{4}-\d{1,2}-\d{1,2}\b)
  | (?P<slash>\b\d{1,2}/\d{1,2}/\d{2,4}\b)
  | (?P<phone>(?<![\w.,:])\+?(?=(?:[\s().-]{0,2}\d){7})\d[\d\s().-]*\d(?![\w:]))
  | (?P<clock>\b\d{1,2}[:h]\d{2}(?:\s?[ap]\.?m\b\.?)?)
  | (?P<ampm>\b\d{1,2}\s?[ap]\.?m\b\.?)
  | (?P<hour>\b\d{1,2}\s?h\b)
  | (?P<uhr>\b\d{1,2}(?:[.:]\d{2})?\s?(?i:uhr)\b)
  | (?P<money>[$€£]\s?\d[\d,.]*[kKmM]?\b)
  | (?P<version>\bv?\d+(?:\.\d+)+\b)
  | (?P<ordinal>\b\d{1,2}(?:st|nd|rd|th|er|eme|e|o|a|º)\b)
  | (?P<code>\b(?=[\w-]*[^\W\d_])(?=[\w-]*\d)[^\W_]+(?:[-_][^\W_]+)*\b)
  | (?P<num>\d+(?:[.,]\d+)*%?[kK]?\b%?)
  | (?P<word>[^\W\d_][\w'-]*|[%$€£#/])
    """,
    re.VERBOSE,
)
_ELISION_RE = re.compile(r"^(l|d|n|qu|j|s|c|m|t)'(.+)$")
_CLITIC_RE = re.compile(r"(?<=\w\w)-(se|me|te|lhe|lhes)$")


def _fold_keep_case(text: str) -> str:
    w = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in w if not unicodedata.combining(ch))


_NOT_A_PLACE = "|".join(sorted(set(L.MONTHS) | set(L.WEEKDAYS), key=len, reverse=True))


def _prepare(text: str) -> str:
    t = _fold_keep_case(text[:MAX_CHARS].replace("’", "'").replace("`", "'"))
    t = re.sub(r"\b(can|won|ain)'t\b", r"\1 not", t, flags=re.I)
    t = re.sub(r"n't\b", " not", t, flags=re.I)
    for phrase, repl in L.PHRASES + L.MULTIWORD + fact_change.INSTEAD_PHRASES:
        t = re.sub(r"(?<![\w'])" + re.escape(phrase) + r"(?![\w'])", repl, t, flags=re.I)
    for phrase, repl in L.MOVE_TO_PLACE:  # a house move only when a place name follows ("moved to Porto")
        t = re.sub(rf"(?<![\w'])(?i:{re.escape(phrase)})(?= (?:the )?[A-Z])(?! (?i:(?:the )?(?:{_NOT_A_PLACE}))\b)",
                   repl, t)
    return t


def _accents(text: str) -> dict[str, list[str]]:
    """Each accented letter run of ``text`` by its folded form, in order ("the" -> ["thé"])."""
    out: dict[str, list[str]] = {}
    for run in re.findall(r"[^\W\d_]+", text[:MAX_CHARS].lower()):
        key = fold(run)
        if key != run:
            out.setdefault(key, []).append(run)
    return out


def _restore_accents(low: str, accents: dict[str, list[str]]) -> str:
    if not accents:
        return low
    return re.sub(r"[^\W\d_]+", lambda m: accents[m.group(0)].pop(0) if accents.get(m.group(0)) else m.group(0), low)


@dataclass
class _Tok:
    kind: str
    text: str
    low: str
    role: str = ""  # "", "value", "unit", "neg", "stop", "ident", "change", "old"
    orig: str = ""  # the lower-case word as written, accents kept ("thé" where low is "the")


def _tokens(text: str, original: str = "") -> list[_Tok]:
    out = _tokens_folded(text)
    accents = _accents(original)
    for t in out:
        t.orig = _restore_accents(t.low, accents) if t.kind == "word" else t.low
    return out


def _tokens_folded(text: str) -> list[_Tok]:
    out: list[_Tok] = []
    for m in TOKEN_RE.finditer(text):
        kind = m.lastgroup or "word"
        raw = m.group(0)
        if kind == "word":
            low = raw.lower().strip("'-")
            el = _ELISION_RE.match(low)
            if el:
                out.append(_Tok("word", raw[: len(el.group(1))], el.group(1)))
                raw, low = raw[len(el.group(1)) + 1:], el.group(2)
            low = _CLITIC_RE.sub("", low)  # Portuguese "chama-se", "mudou-se"
            possessive = low.endswith("'s")
            low = low.removesuffix("'s").strip("'")
            if low:
                out.append(_Tok("word", raw.removesuffix("'s"), low))
            if possessive:
                out.append(_Tok("word", "'s", "'s", role="poss"))
            continue
        out.append(_Tok(kind, raw, raw.lower()))
    return out


def _guess_lang(text: str) -> str:
    """The language whose function words the sentence uses most (English on a tie).

    Read from the text before accents are folded: "thé" must not count as English "the"."""
    text = re.sub(r"n['’]t\b", " not", text[:MAX_CHARS].lower())
    keys = [w for w in re.findall(r"[^\W\d_]+", text) if len(w) > 1]  # (t, s, l: every language has them)
    best, hits = "en", 0
    for lang, stop in L.LANG_STOP.items():
        n = sum(1 for k in keys if k in stop or k in L.LANG_COPULA[lang] or k in L.LANG_AUX[lang])
        if n > hits:
            best, hits = lang, n
    return best


def _number(tok: _Tok) -> float | None:
    low = tok.low.replace(" ", "").lstrip("$€£").rstrip("%")
    mult = 1.0
    if low[-1:] in ("k", "m") and tok.kind in ("money", "num"):
        mult = 1000.0 if low[-1] == "k" else 1_000_000.0
        low = low[:-1]
    if re.fullmatch(r"\d{1,3}(,\d{3})+(\.\d+)?", low):
        low = low.replace(",", "")
    else:
        low = low.replace(",", ".")
    try:
        return float(low) * mult
    except ValueError:
        return None


def clock_minutes(text: str, french_h: bool = True) -> int | None:
    """Minutes since midnight of a clock token ("4pm", "16:00", "7 p.m."; "9h", "10h30" when
    ``french_h``), else None. Shared by write-time facts and consolidate's contradictions."""
    low = text.lower().replace(".", "").replace(" ", "")
    sep = "[:h]" if french_h else ":"
    m = re.fullmatch(rf"(\d{{1,2}})(?:{sep}(\d{{2}}){'?' if french_h else ''})?([ap]m)?", low)
    if not m:
        return None
    hour, minute = int(m.group(1)), int(m.group(2) or 0)
    if m.group(3):
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if m.group(3) == "pm" else 0)
    return hour * 60 + minute if hour < 24 and minute < 60 else None


def _clock(tok: _Tok) -> int | None:
    """Minutes since midnight ("4pm", "16:00", "9h", "10h30", "7 p.m.", "15 Uhr", "9.30 Uhr")."""
    if tok.kind == "uhr":
        return clock_minutes(tok.low.replace("uhr", "").strip().replace(".", ":"))
    return clock_minutes(tok.low)


def _day(tok: _Tok | None) -> int | None:
    if tok is None or tok.role or tok.kind not in ("num", "ordinal"):
        return None
    digits = re.match(r"\d+", tok.low)
    n = int(digits.group(0)) if digits else 0
    return n if 1 <= n <= 31 else None


def _year(tok: _Tok | None) -> int | None:
    if tok is None or tok.role or tok.kind != "num" or not tok.low.isdigit() or len(tok.low) != 4:
        return None
    n = int(tok.low)
    return n if 1900 <= n <= 2100 else None


def _dates(toks: list[_Tok], values: list[Value]) -> None:
    """Day-month-year groups in any of the tables' languages, weekdays, bare years."""
    n = len(toks)
    for i, t in enumerate(toks):
        if t.kind != "word" or t.role:
            continue
        key = fold(t.low)
        if key in L.MONTHS:
            prev = toks[i - 1] if i > 0 else None
            prev2 = toks[i - 2] if i > 1 else None
            nxt = toks[i + 1] if i + 1 < n else None
            day_tok = None
            if _day(prev) is not None:
                day_tok = prev
            elif prev is not None and fold(prev.low) == "de" and _day(prev2) is not None:
                day_tok = prev2  # "14 de julio"
            elif _day(nxt) is not None:
                day_tok = nxt
            capital = t.text[:1].isupper() and i > 0
            after_prep = prev is not None and fold(prev.low) in L.YEAR_PREPOSITIONS | {"le", "el", "au", "im"}
            if day_tok is None and not capital and not (after_prep and key != "may"):
                continue
            if key == "may" and day_tok is None and not capital:
                continue
            t.role = "value"
            day = None
            if day_tok is not None:
                day = _day(day_tok)
                day_tok.role = "value"
            year = None
            for j in range(i + 1, min(n, i + 5)):
                cand = toks[j]
                year = _year(cand)
                if year is not None:
                    cand.role = "value"
                    break
                if cand.role != "value" and fold(cand.low) not in (",", "de", "del") and cand.kind != "word":
                    break
                if cand.kind == "word" and fold(cand.low) not in ("de", "del"):
                    break
            values.append(Value("date", (year, L.MONTHS[key], day), t.text))
        elif key in L.WEEKDAYS or key in L.SHORT_WEEKDAYS and i > 0 and fold(toks[i - 1].low) in L.SHORT_WEEKDAY_AFTER:
            t.role = "value"
            values.append(Value("weekday", (L.WEEKDAYS.get(key, L.SHORT_WEEKDAYS.get(key)),), t.text))
    for i, t in enumerate(toks):
        year = _year(t)
        if year is not None and i > 0 and fold(toks[i - 1].low) in L.YEAR_PREPOSITIONS:
            t.role = "value"
            values.append(Value("date", (year, None, None), t.text))


def _values(toks: list[_Tok], lang: str = "en") -> tuple[list[Value], set[str]]:
    values, idents = _values_unplaced(toks, lang)
    placed: list[Value] = []
    taken: set[int] = set()
    for v in values:  # each value at the first token showing its text not yet taken
        pos = next((i for i, t in enumerate(toks) if i not in taken and t.role == "value" and t.text == v.text), -1)
        taken.add(pos)
        placed.append(Value(v.kind, v.norm, v.text, pos))
    return placed, idents


def _values_unplaced(toks: list[_Tok], lang: str) -> tuple[list[Value], set[str]]:
    values: list[Value] = []
    idents: set[str] = set()
    for t in toks:
        if t.kind == "iso":
            y, mo, d = (int(p) for p in t.low.split("-"))
            values.append(Value("date", (y, mo, d), t.text))
            t.role = "value"
        elif t.kind == "slash":
            values.append(Value("date", (t.low,), t.text))
            t.role = "value"
    _dates(toks, values)
    for i, t in enumerate(toks):
        if t.role:
            continue
        prev = fold(toks[i - 1].low) if i > 0 else ""
        if t.kind in ("num", "version", "code", "ordinal") and prev in L.IDENTIFIER_WORDS and (
                i == 1 or prev not in L.VALUE_IDENTIFIERS):
            # "room 4", "note number 3": the number names a thing (see also analyse); "runs
            # version 2.4" states a value, "Version 2 was released" names one
            t.role = "ident"
            idents.add(f"{prev}#{t.low}")
            continue
        if t.kind in ("clock", "ampm", "hour", "uhr"):
            minutes = _clock(t)
            if minutes is not None:
                t.role = "value"
                values.append(Value("time", (minutes,), t.text))
        elif t.kind == "url":
            t.role = "value"
            values.append(Value("url", (re.sub(r"^(https?://)?(www\.)?", "", t.low).rstrip("/.)"),), t.text))
        elif t.kind == "email":
            t.role = "value"
            values.append(Value("email", (t.low.rstrip("."),), t.text))
        elif t.kind == "phone":
            t.role = "value"
            digits = re.sub(r"\D", "", t.low)
            values.append(Value("phone", (digits[-PHONE_DIGITS:],), t.text))
        elif t.kind in ("code", "version"):
            t.role = "value"
            values.append(Value("code", (t.low.lstrip("v") if t.kind == "version" else t.low,), t.text))
        elif t.kind in ("num", "money", "ordinal") or (t.kind == "word" and fold(t.low) in L.WORD_NUMBERS
                                                        and L.WORD_NUMBER_LANG.get(fold(t.low), lang) == lang
                                                        and i + 1 < len(toks) and toks[i + 1].kind == "word"
                                                        and fold(toks[i + 1].low) not in L.STOPWORDS):
            # an ordinal is a rank ("the 14th", "3rd floor"): compared with ranks only
            value = (float(re.match(r"\d+", t.low).group(0)) if t.kind == "ordinal"  # type: ignore[union-attr]
                     else _number(t) if t.kind != "word" else L.WORD_NUMBERS[fold(t.low)])
            if value is None:
                continue
            t.role = "value"
            unit, mult = ("ordinal" if t.kind == "ordinal" else ""), 1.0
            if t.kind == "money":
                unit = L.UNITS[fold(t.low[0])][0]
            elif t.low.endswith("%"):
                unit = "%"
            j = i + 1
            if not unit and j < len(toks) and toks[j].kind == "word" and fold(toks[j].low) in L.UNITS:
                unit, mult = L.UNITS[fold(toks[j].low)]
                toks[j].role = "unit"
                j += 1
            value *= mult
            # a rate: "per minute", "a month", "par mois"
            if j + 1 < len(toks) and fold(toks[j].low) in L.RATE_WORDS and fold(toks[j + 1].low) in L.UNITS \
                    and L.UNITS[fold(toks[j + 1].low)][0] == "duration":
                value /= L.UNITS[fold(toks[j + 1].low)][1]
                unit = (unit or "count") + "/duration"
                toks[j].role = toks[j + 1].role = "unit"
            values.append(Value("number", (unit, round(value, 6)), t.text))
    return values, idents


def _participle(low: str, lang: str) -> bool:
    """Whether ``low`` (accents kept) looks like a past participle in ``lang``."""
    if lang == "en":
        return low.endswith(("ed", "en", "ing")) and len(low) > 4
    if lang == "fr":
        return low.endswith(("é", "ée", "és", "ées"))
    if lang in ("es", "pt"):
        return low.endswith(("ado", "ada", "ados", "adas", "ido", "ida", "idos", "idas"))
    # German: "gewechselt", "geschrieben", and the inseparable prefixes ("erhöht", "verschoben")
    return low.startswith(("ge", "er", "ver", "be", "ent", "zer")) and low.endswith(("t", "en")) and len(low) > 5


def _switch_state(toks: list[_Tok], i: int, lang: str, copulas: frozenset[str]) -> str | None:
    """"+" / "-" when "on" / "off" ("an" / "aus") at ``i`` is a switch state: right after a copula
    and with no object after it. "The heating is on (now / in winter / , but ...)" is a state;
    "the review is on Thursday", "on the 14th", "on Elm Street", "ist aus Berlin" are prepositions."""
    pole = L.SWITCH.get(lang, {}).get(fold(toks[i].low))
    if pole is None or i == 0 or fold(toks[i - 1].low) not in copulas:
        return None
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    if nxt is None:
        return pole
    if nxt.kind != "word" or nxt.role:
        return None  # a value: "on Thursday", "on 3 May", "on the 14th"
    k = fold(nxt.low)
    return pole if k in L.STOPWORDS and k not in L.DETERMINERS else None


def _is_stop(t: _Tok, key: str) -> bool:
    """A function word. A word written with an accent only when listed with it (L.ACCENTED_STOP):
    folded, French "thé" would be English "the"."""
    if t.orig and t.orig != t.low:
        return t.orig in L.ACCENTED_STOP
    return key in L.STOPWORDS


@dataclass
class _Reading:
    words: list[Word] = field(default_factory=list)
    negations: list[str] = field(default_factory=list)
    modals: set[str] = field(default_factory=set)
    boundary: tuple[int, str] | None = None  # (token index, "copula" | "aux")
    old_words: list[str] = field(default_factory=list)


def _function_word(t: _Tok, i: int, key: str, lang: str, r: _Reading, has_ne: bool, nxt: str) -> bool:
    """Negations, modals, copulas and auxiliaries: recorded in ``r``; True when ``t`` is one
    (``nxt`` is the kind of the next token)."""
    if key in L.NEGATIONS and not (key == "n" and lang != "fr") and not (key == "no" and nxt == "num") \
            and key not in L.NEGATION_EXCEPT.get(lang, ()):
        r.negations.append(t.low)
        t.role = "neg"
        return True
    if key in L.NE_COMPLEMENTS:
        if has_ne or key == "plus":
            t.role = "stop"
            return True
        if lang == "fr":  # spoken French drops the "ne": "j'aime pas"
            r.negations.append(t.low)
            t.role = "neg"
            return True
    if key in L.CESSATION:
        r.negations.append(t.low)
        t.role = "neg"
        return True
    if key in L.MODALS:
        r.modals.add(L.MODALS[key])
    copula = key in L.LANG_COPULA[lang] and t.orig != "à" and not (key in L.COPULA_NEEDS_ACCENT and t.orig == key)
    if copula or (key in L.LANG_AUX[lang] and t.orig != "à") or key in L.MODALS:
        if r.boundary is None:
            r.boundary = (i, "copula" if copula else "aux")
        t.role = "stop"
        return True
    return False


def _read(toks: list[_Tok], lang: str) -> _Reading:
    """Content words (synonyms and axes mapped), negations, modals, the copula / aux boundary."""
    r = _Reading()
    copulas = L.LANG_COPULA[lang]
    has_ne = any(t.kind == "word" and fold(t.low) in ("ne", "n") for t in toks) and lang == "fr"
    place_next = False
    for i, t in enumerate(toks):
        if t.role == "old" and t.kind == "word":
            key = fold(t.low)
            if not _is_stop(t, key):
                r.old_words.append(L.SYNONYMS.get(key, key).replace("-", ""))
            continue
        if t.kind != "word" or t.role:
            place_next = False
            continue
        key = fold(t.low)
        if _function_word(t, i, key, lang, r, has_ne, toks[i + 1].kind if i + 1 < len(toks) else ""):
            continue
        pole = _switch_state(toks, i, lang, copulas)
        if pole is not None:
            if pole == "-":
                r.negations.append(t.low)
            r.words.append(Word("AX:switch", t.text, i))
            continue
        if _is_stop(t, key) or len(key) < 2 and not t.text.isupper():
            t.role = "stop"
            place_next = key in L.PLACE_PREPOSITIONS
            continue
        canon = L.SYNONYMS.get(key, key).replace("-", "")  # "stand-up" = "standup"
        for axis, (pos, neg) in L.AXES.items():
            if key in pos or key in neg:
                canon = "AX:" + axis
                if key in neg:
                    r.negations.append(t.low)
                break
        name = t.text[:1].isupper() and (i > 0 or key not in L.STOPWORDS)
        last = r.words[-1] if r.words else None
        if name and last is not None and last.name and last.pos == i - 1 and last.pos > 0:
            # "Keiko Tanaka", "Acme Corp": one name, one slot value
            r.words[-1] = Word(f"{last.key} {canon}", f"{last.text} {t.text}", i, name=True, place=last.place)
            continue
        agent = i + 1 < len(toks) and fold(toks[i + 1].low) in L.AGENT_PREPOSITIONS
        r.words.append(Word(canon, t.text, i, name=name, place=name and place_next, agent=agent))
        place_next = False
    return r


def _subject(toks: list[_Tok], lang: str, words: list[Word], boundary: tuple[int, str] | None,
             change_verb: int | None) -> tuple[int, int | None]:
    """Where the subject ends (``words[:n]``) and which word is the verb (None: a copula)."""
    if change_verb is not None:  # the change verb is the verb: "the team | switched to Linear"
        end = boundary[0] if boundary is not None and boundary[0] < change_verb else change_verb
        return sum(1 for w in words if w.pos < end), None
    if boundary is not None and any(w.pos < boundary[0] for w in words):
        subject_end = sum(1 for w in words if w.pos < boundary[0])
        after = subject_end if subject_end < len(words) else None
        if after is not None and (boundary[1] == "aux" or _participle(toks[words[after].pos].orig, lang)):
            return subject_end, after
        return subject_end, None
    first = next((t for t in toks if t.kind == "word"), None)
    if boundary is None and words and first is not None and first.orig in L.PRONOUNS.get(lang, ()):
        return 0, 0  # "We use GitLab": a pronoun subject, the first content word is the verb
    if boundary is None and words:
        # no copula: the subject is the first word and what its possessives chain to
        k = 1
        while k < len(words) and any(toks[j].role == "poss" or fold(toks[j].low) in ("de", "del", "of")
                                     for j in range(words[k - 1].pos + 1, words[k].pos)) and words[k - 1].name:
            k += 1
        return k, (k if k < len(words) else None)
    return (0 if boundary is not None else (1 if words else 0)), None


def analyse(text: str) -> Fact:
    """Read one sentence into a :class:`Fact` (never raises on str input)."""
    toks = _tokens(_prepare(text), text)
    lang = _guess_lang(text)
    values, idents = _values(toks, lang)
    change = fact_change.find(toks, lang)
    if change is not None:
        for i in change.old:
            toks[i].role = "old" if toks[i].role in ("", "value", "unit") else toks[i].role
        if change.verb is not None:
            toks[change.verb].role = "change"
    r = _read(toks, lang)
    words, boundary = r.words, r.boundary
    old_values = [v for v in values if change is not None and v.pos in change.old]
    values = [v for v in values if v not in old_values]
    subject_end, predicate = _subject(toks, lang, words, boundary, change.verb if change else None)
    # a number or code inside the subject names which thing is meant ("server 42 runs ...",
    # "room 4 is ..."): it is part of the subject, not the value the sentence states
    if words:
        limit = boundary[0] if boundary is not None and subject_end else (
            words[1].pos if len(words) > 1 else words[0].pos)
        inside = [v for v in values if v.kind in ("number", "code") and words[0].pos < v.pos < limit]
        for v in inside:
            idents.add(f"{v.kind}#{v.norm}")
        values = [v for v in values if v.pos not in {x.pos for x in inside}]
    exclusive = True
    if change is not None:
        exclusive = True  # a change replaces the value: "now uses Linear" retires "uses Jira"
    elif predicate is not None:
        pk = words[predicate].key
        exclusive = not (pk == "AX:likes" or fold(toks[words[predicate].pos].low) in L.NON_EXCLUSIVE)
    elif boundary is not None and fold(toks[boundary[0]].low) in L.NON_EXCLUSIVE:
        exclusive = False
    return Fact(text, lang, words, values, r.negations, frozenset(r.modals), subject_end, predicate, exclusive,
                idents, change.marker if change else "", r.old_words, old_values,
                frozenset(change.new) if change else frozenset())


# --------------------------------------------------------------------------- comparing

_SUFFIXES = ("ing", "es", "ed", "s", "e", "d")


def _stem(w: str) -> str:
    """Drop one inflection ending ("uses", "used" -> "use"): enough to compare, never shown."""
    for suf in _SUFFIXES:
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            w = w[: -len(suf)]
            if suf in ("ing", "ed") and len(w) > 3 and w[-1] == w[-2]:
                w = w[:-1]  # "running" -> "run", "stopped" -> "stop"
            return w
    return w


def _same_word(a: str, b: str) -> bool:
    if a == b:
        return True
    if a.startswith("AX:") or b.startswith("AX:"):
        return False
    if _stem(a) == _stem(b):
        return True
    if a == "re" + b or b == "re" + a:  # "rewritten" / "written": the same verb done again
        return min(len(a), len(b)) >= 4
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n >= MIN_PREFIX and n >= PREFIX_SHARE * min(len(a), len(b))


@dataclass
class _Alignment:
    shared: list[tuple[int, int]]
    only_a: list[int]
    only_b: list[int]


def _align(fa: Fact, fb: Fact) -> _Alignment:
    used: set[int] = set()
    shared: list[tuple[int, int]] = []
    only_a: list[int] = []
    for i, wa in enumerate(fa.words):
        j = next((j for j, wb in enumerate(fb.words) if j not in used and wb.key == wa.key), None)
        if j is None:
            j = next((j for j, wb in enumerate(fb.words) if j not in used and _same_word(wa.key, wb.key)), None)
        if j is None:
            only_a.append(i)
        else:
            used.add(j)
            shared.append((i, j))
    return _Alignment(shared, only_a, [j for j in range(len(fb.words)) if j not in used])


def _by_kind(f: Fact) -> dict[str, set[tuple[object, ...]]]:
    out: dict[str, set[tuple[object, ...]]] = {}
    for v in f.values:
        out.setdefault(v.kind, set()).add(v.norm)
    return out


def _dates_agree(x: tuple[object, ...], y: tuple[object, ...]) -> bool | None:
    """True / False when comparable component by component, None when nothing is shared."""
    if len(x) != 3 or len(y) != 3:
        return x == y
    shared = False
    for u, v in zip(x, y):
        if u is not None and v is not None:
            shared = True
            if u != v:
                return False
    return True if shared else None


def _value_conflict(fa: Fact, fb: Fact) -> tuple[str, str] | None:
    """The first kind of value both state with no value in common: (kind, "a vs b")."""
    va, vb = _by_kind(fa), _by_kind(fb)
    for kind in ("date", "weekday", "time", "number", "code", "phone", "email", "url"):
        if kind not in va or kind not in vb:
            continue
        if kind == "date":
            verdicts = [_dates_agree(x, y) for x in va[kind] for y in vb[kind]]
            comparable = [v for v in verdicts if v is not None]
            if not comparable or any(comparable):
                continue
        elif kind == "number":
            # numbers compare within a unit class ("45 dollars" vs "3 kids" are two slots)
            units_a = {u for u, _ in va[kind]}  # type: ignore[misc]
            units_b = {u for u, _ in vb[kind]}  # type: ignore[misc]
            common = units_a & units_b
            if not common or all(
                    {x for x in va[kind] if x[0] == u} & {y for y in vb[kind] if y[0] == u} for u in common):
                continue
        elif va[kind] & vb[kind]:
            continue
        show_a = next(v.text for v in fa.values if v.kind == kind)
        show_b = next(v.text for v in fb.values if v.kind == kind)
        return ("time" if kind == "time" else "date" if kind in ("date", "weekday")
                else "number" if kind == "number" else "code"), f"{show_a} -> {show_b}"
    return None


def _topic(f: Fact, al: _Alignment) -> str:
    return " ".join(f.words[i].text for i, _ in al.shared[:4]) or "statement"


def _in_subject(f: Fact, idx: list[int]) -> bool:
    return any(i < f.subject_end for i in idx)


def compare(old: str | Fact, new: str | Fact, similarity: float | None = None) -> Verdict | None:
    """Whether ``new`` contradicts ``old``: the same frame with another value, or with the
    opposite polarity. ``None`` when they agree, add to each other, or are about different
    things. ``similarity`` (an embedding cosine) only nudges the confidence."""
    fa = old if isinstance(old, Fact) else analyse(old)
    fb = new if isinstance(new, Fact) else analyse(new)
    if not fa.words or not fb.words:
        return None
    if fa.identifiers != fb.identifiers and fa.identifiers and fb.identifiers:
        return None  # "version 2 ..." vs "version 3 ...": two things
    al = _align(fa, fb)
    if fb.change:
        return _compare_change(fa, fb, al, similarity)
    smaller = min(len(fa.words), len(fb.words))
    if not al.shared or len(al.shared) < MIN_SHARED * smaller:
        return None
    if _in_subject(fa, al.only_a) or _in_subject(fb, al.only_b):
        return None  # "Lena's sister", "the admin gateway": another subject
    if len(al.only_a) > 1 or len(al.only_b) > 1:
        return _modifier_swap(fa, fb, al, similarity)
    conf = 0.8 + (0.1 * max(0.0, min(1.0, similarity)) if similarity is not None else 0.05)
    topic = _topic(fa, al)
    flipped = fa.polarity != fb.polarity
    swap = (al.only_a[0], al.only_b[0]) if al.only_a and al.only_b else None
    verbs = (_verb_like(fa, swap[0]), _verb_like(fb, swap[1])) if swap is not None else (False, False)
    if verbs[0] != verbs[1]:
        return None  # a verb against a complement ("is scheduled for Friday" / "is on Friday afternoon")
    if swap is not None and fa.words[swap[0]].key.startswith("AX:") != fb.words[swap[1]].key.startswith("AX:"):
        return None  # a state against a value ("is open on Sundays" / "is on Elm Street")
    # two verbs, every other word and value shared: a restatement ("is led by Hana" / "Hana leads")
    # or another relation, never a new value of one slot
    predicate_swap = verbs[0] and verbs[1]
    value = _value_conflict(fa, fb)
    if value is not None:
        if flipped or (swap is not None and not predicate_swap):
            return None  # "doesn't live in Porto" / "lives in Lisbon" can both hold
        kind, what = value
        return Verdict(kind, f"{kind} changed for '{topic}': {what}", round(conf, 3))
    if swap is not None and not predicate_swap:
        if flipped or not (fa.exclusive and fb.exclusive):
            return None
        wa, wb = fa.words[swap[0]], fb.words[swap[1]]
        kind = "place" if wa.place and wb.place else "preference" if any(
            w.key == "AX:prefers" for w in fa.words) else "slot"
        return Verdict(kind, f"{kind} changed for '{topic}': {wa.text} -> {wb.text}", round(conf, 3))
    if flipped:
        if al.only_a and al.only_b and not predicate_swap or _negates_an_addition(fa, fb, al):
            # (the second: "black" / "black with no sugar" adds a fact, it does not deny one)
            return None
        axis = next((w.key[3:] for w in fa.words + fb.words if w.key.startswith("AX:")
                     and any(n.lower() == w.text.lower() for n in fa.negations + fb.negations)), None)
        if axis is not None:
            kind = "preference" if axis in ("likes", "prefers") else "antonym"
            return Verdict(kind, f"opposite '{axis}' for '{topic}'", round(conf, 3))
        if any(fa.words[i].key in ("AX:likes", "AX:prefers") for i, _ in al.shared):
            return Verdict("preference", f"preference reversed ('{(fb.negations or fa.negations)[0]}') "
                           f"for '{topic}'", round(conf, 3))
        word = (fb.negations or fa.negations)[0]
        return Verdict("negation", f"negation ('{word}') of '{topic}'", round(conf, 3))
    return None


def _modifier_swap(fa: Fact, fb: Fact, al: _Alignment, similarity: float | None) -> Verdict | None:
    """One modifier of a shared thing replaced by a two-word one, at the same place after the
    same shared word: "drinks his coffee black" / "drinks his coffee with oat milk"."""
    a, b = al.only_a, al.only_b
    if not a or not b or len(a) > 2 or len(b) > 2 or not (_run(a) and _run(b)) or fa.values or fb.values:
        return None
    if fa.polarity != fb.polarity or not (fa.exclusive and fb.exclusive) or fa.change or fb.change:
        return None
    if any(_verb_like(fa, i) for i in a) or any(_verb_like(fb, i) for i in b):
        return None
    if any(fa.words[i].key.startswith("AX:") or fa.words[i].name for i in a) or any(
            fb.words[i].key.startswith("AX:") or fb.words[i].name for i in b):
        return None
    pairs = dict(al.shared)
    before_a, before_b = min(a) - 1, min(b) - 1
    if before_a < 0 or pairs.get(before_a) != before_b or max(a) != len(fa.words) - 1 or max(b) != len(fb.words) - 1:
        return None  # both at the end, after the same shared word
    if fa.predicate is None or fb.predicate is None or not (fa.predicate < before_a and fb.predicate < before_b):
        return None  # ... which is the object of the verb ("coffee"), not the subject or the verb itself
    conf = 0.75 + (0.1 * max(0.0, min(1.0, similarity)) if similarity is not None else 0.05)
    was, now = " ".join(fa.words[i].text for i in a), " ".join(fb.words[i].text for i in b)
    return Verdict("slot", f"slot changed for '{_topic(fa, al)}': {was} -> {now}", round(conf, 3))


def _verb_like(f: Fact, i: int) -> bool:
    """Whether word ``i`` is the sentence's verb, or a passive one ("led by")."""
    return i == f.predicate or f.words[i].agent or f.words[i].key in ("AX:likes", "AX:prefers")


def _negates_an_addition(fa: Fact, fb: Fact, al: _Alignment) -> bool:
    """Whether the one side's extra negations each govern a word only that side has, the other
    side having no word of its own: "with no sugar" adds a fact about sugar."""
    more, extra, other = (fb, al.only_b, al.only_a) if len(fb.negations) > len(fa.negations) \
        else (fa, al.only_a, al.only_b)
    if not extra or other:
        return False
    extra_pos = {more.words[i].pos for i in extra}
    text = [w.pos for w in more.words]
    negs = [i for i, w in enumerate(_tokens(_prepare(more.text))) if w.role == "" and i not in text
            and w.low in {n.lower() for n in more.negations}]
    for n in negs:
        nxt = next((p for p in text if p > n), None)
        if nxt is None or nxt not in extra_pos:
            return False
    return bool(negs)


def _run(idx: list[int]) -> bool:
    """Whether word indices are one contiguous run ("green tea")."""
    return not idx or max(idx) - min(idx) == len(idx) - 1


def _compare_change(fa: Fact, fb: Fact, al: _Alignment, similarity: float | None) -> Verdict | None:
    """``fb`` says a slot changed ("switched from Jira to Linear", "moved to Friday", "now uses"):
    its verb stands for ``fa``'s verb, the old value it names must be ``fa``'s, and the new value
    may be a phrase ("green tea", "GitHub Actions")."""
    only_a, only_b = list(al.only_a), list(al.only_b)
    if not al.shared and not (fa.subject_end == 0 and fb.subject_end == 0 and fb.old_words):
        return None  # (with pronoun subjects, "we use GitLab" / "we switched from GitLab to ...")
    if fb.change == "verb" and fa.predicate in only_a:
        only_a.remove(fa.predicate)  # "switched to" stands for "uses", "moved to" for "is on"
    named_old = bool(fb.old_words or fb.old_values)
    held: list[int] = []
    if named_old:
        fa_values = {(v.kind, v.norm) for v in fa.values}
        if not all((v.kind, v.norm) in fa_values for v in fb.old_values):
            return None
        held = [i for i in only_a if any(_same_word(fa.words[i].key, k) for k in fb.old_words)]
        if len(held) < len({k for k in fb.old_words}) and fb.old_words:
            return None  # "from Trello to Jira" does not update "uses Jira"
        only_a = [i for i in only_a if i not in held]
        if only_a and any(fb.words[i].pos not in fb.new_pos for i in only_b):
            return None  # each side keeps words of its own: "GitLab for CI" / "to GitHub for the wiki"
    if al.shared and len(al.shared) + len(held) < MIN_SHARED * min(len(fa.words), len(fb.words) + len(held)):
        return None
    if _in_subject(fa, only_a) or _in_subject(fb, only_b):
        return None
    if fa.polarity != fb.polarity or len(only_a) > fact_change.MAX_PHRASE or len(only_b) > fact_change.MAX_PHRASE:
        return None
    if fb.change != "verb" and (fa.predicate in only_a or fb.predicate in only_b or len(only_a) > 2
                                or len(only_b) > 2):
        return None  # "now" keeps the verb: "now drinks green tea" updates "drinks espresso" only
    conf = 0.8 + (0.1 * max(0.0, min(1.0, similarity)) if similarity is not None else 0.05)
    topic = _topic(fa, al)
    value = _value_conflict(fa, fb)
    if value is not None:
        kind, what = value
        return Verdict(kind, f"{kind} changed for '{topic}': {what}", round(conf, 3))
    if not only_b or not (only_a or named_old) or not (_run(only_a) and _run(only_b)):
        return None
    was = " ".join(fb.old_words) if named_old else " ".join(fa.words[i].text for i in only_a)
    now = " ".join(fb.words[i].text for i in only_b)
    kind = "place" if all(fb.words[i].place for i in only_b) and only_a and all(
        fa.words[i].place for i in only_a) else "preference" if any(
        w.key == "AX:prefers" for w in fa.words) else "slot"
    return Verdict(kind, f"{kind} changed for '{topic}': {was} -> {now}", round(conf, 3))


def same_fact(a: str | Fact, b: str | Fact) -> bool:
    """Whether ``a`` and ``b`` state the same fact: same content words (inflection,
    listed synonyms and a swapped verb aside), identical values, polarity and modals."""
    fa = a if isinstance(a, Fact) else analyse(a)
    fb = b if isinstance(b, Fact) else analyse(b)
    if fa.polarity != fb.polarity or fa.modals != fb.modals or fa.identifiers != fb.identifiers:
        return False
    if _by_kind(fa) != _by_kind(fb):
        return False
    al = _align(fa, fb)
    if not al.only_a and not al.only_b:
        return True
    if len(al.only_a) == 1 and len(al.only_b) == 1:
        return al.only_a[0] == fa.predicate and al.only_b[0] == fb.predicate
    return False
