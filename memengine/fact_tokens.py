"""Reading a fact sentence into tokens and values (memengine/facts.py reads the rest).

Tokens keep the word as written (``orig``: accents kept) beside the folded form compared with
the word tables; values are numbers with units, times ("4pm", "16:00", "9h", "15 Uhr"), dates
and weekdays in the tables' languages, versions, codes, phone numbers, emails and URLs, each
in a normal form compared for equality. Pure functions: no SQL, no I/O.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

from memengine import fact_change, recache
from memengine import fact_lexicon as L
from memengine.fact_lexicon import fold

MAX_CHARS = 2000  # memories are short; the analysis must stay cheap on any input
PHONE_DIGITS = 9  # phone numbers compare on their last digits: "+33 6 12..." = "06 12..."


@dataclass(frozen=True)
class Value:
    """A fact-bearing token: ``kind`` and a normal form compared for equality."""

    kind: str
    norm: tuple[object, ...]
    text: str
    pos: int = field(default=-1, compare=False)  # index in the token stream


TOKEN_RE = re.compile(
    r"""
    (?P<url>(?:https?|s3|gs|ftp|sftp|ssh|git|file|smb|postgres(?:ql)?|mysql|redis|mongodb)://[^\s,;]+|www\.[^\s,;]+
      |(?<![\w/])(?:~|\.{1,2})?/[\w.~@+-]+(?:/[\w.~@+-]*)+      # ~/vpn/office.ovpn, /etc/nginx/conf.d (a path)
      |\b[A-Za-z]:\\[^\s,;]+                                    # C:\Users\ana\app.ini
      |\b[\w.-]+(?:/[\w.-]+)*/[\w-]+\.[A-Za-z]\w{0,5}\b)           # src/maps/index.ts (a relative path with an extension)
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


# longest first; a tie by the words (not the set's order, which changes with the hash seed: the same pattern in
# every process, which memengine/recache.py can then keep between one-shot calls)
_NOT_A_PLACE = "|".join(sorted(set(L.MONTHS) | set(L.WEEKDAYS), key=lambda w: (-len(w), w)))


_CONTRACTED = {"ve": "have", "re": "are", "ll": "will", "m": "am", "d": "would"}  # "We've switched"


def prepare(text: str) -> str:
    t = _fold_keep_case(text[:MAX_CHARS].replace("’", "'").replace("`", "'"))
    t = re.sub(r"\b(can|won|ain)'t\b", r"\1 not", t, flags=re.I)
    t = re.sub(r"n't\b", " not", t, flags=re.I)
    t = re.sub(r"(?<=\w)'(ve|re|ll|m|d)\b", lambda m: " " + _CONTRACTED[m.group(1).lower()], t, flags=re.I)
    t = _phrase_patterns().sub(lambda m: _PHRASE_REPL[m.group(0).lower()], t)
    for phrase, repl in L.MOVE_TO_PLACE:  # a house move only when a place name follows ("moved to Porto")
        if phrase in t.lower():  # (each pattern compiled on first use: ~10 ms for all of them up front)
            t = _move_pattern(phrase).sub(repl, t)
    if "gezogen" in t:  # "ist dieses Jahr nach Leipzig gezogen"
        for pattern, repl in _move_split():
            t = pattern.sub(repl, t)
    return t


_PHRASE_REPL = {p: r for p, r in L.PHRASES + L.MULTIWORD + fact_change.INSTEAD_PHRASES}


@lru_cache(maxsize=1)
def _phrase_patterns() -> re.Pattern[str]:
    """The rewritten phrases as one pattern (longest first)."""
    alternation = "|".join(re.escape(p) for p in sorted(_PHRASE_REPL, key=len, reverse=True))
    return recache.fixed(rf"(?<![\w'])(?:{alternation})(?![\w'])", re.I)  # (kept between calls: recache.py)


@lru_cache(maxsize=16)
def _move_pattern(phrase: str) -> re.Pattern[str]:
    """The house-move pattern of one MOVE_TO_PLACE phrase (an ASCII phrase: found case-blind by ``in``)."""
    return recache.fixed(rf"(?<![\w'])(?i:{re.escape(phrase)})(?= (?:the )?[A-Z])(?! (?i:(?:the )?(?:{_NOT_A_PLACE}))\b)")


@lru_cache(maxsize=1)
def _move_split() -> list[tuple[re.Pattern[str], str]]:
    return [(re.compile(p), r) for p, r in L.MOVE_SPLIT]


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
class Tok:
    kind: str
    text: str
    low: str
    role: str = ""  # "", "value", "unit", "neg", "stop", "ident", "change", "old"
    orig: str = ""  # the lower-case word as written, accents kept ("thé" where low is "the")


def read_tokens(text: str, original: str = "") -> list[Tok]:
    out = _tokens_folded(text)
    accents = _accents(original)
    for t in out:
        t.orig = _restore_accents(t.low, accents) if t.kind == "word" else t.low
    return out


def _tokens_folded(text: str) -> list[Tok]:
    out: list[Tok] = []
    for m in TOKEN_RE.finditer(text):
        kind = m.lastgroup or "word"
        raw = m.group(0)
        if kind == "word":
            low = raw.lower().strip("'-")
            el = _ELISION_RE.match(low)
            if el:
                out.append(Tok("word", raw[: len(el.group(1))], el.group(1)))
                raw, low = raw[len(el.group(1)) + 1:], el.group(2)
            low = _CLITIC_RE.sub("", low)  # Portuguese "chama-se", "mudou-se"
            possessive = low.endswith("'s")
            low = low.removesuffix("'s").strip("'")
            if low:
                out.append(Tok("word", raw.removesuffix("'s"), low))
            if possessive:
                out.append(Tok("word", "'s", "'s", role="poss"))
            continue
        out.append(Tok(kind, raw, raw.lower()))
    return out


def guess_lang(text: str) -> str:
    """The language whose function words the sentence uses most (English on a tie).

    Read from the text before accents are folded: "thé" must not count as English "the"."""
    text = re.sub(r"n['’]t\b", " not", text[:MAX_CHARS].lower())
    words = re.findall(r"[^\W\d_]+", text)
    keys = [w for w in words if len(w) > 1]  # (t, s, l: every language has them)
    best, hits = "en", 0
    for lang, stop in L.LANG_STOP.items():
        n = sum(1 for k in keys if k in stop or k in L.LANG_COPULA[lang] or k in L.LANG_AUX[lang]
                or lang in L.NEGATION_LANGS.get(k, ()))  # (Italian "non", "mai")
        n += sum(1 for w in words if lang in L.ONE_LETTER_HINTS.get(w, ()))
        if n > hits:
            best, hits = lang, n
    return best


def _number(tok: Tok) -> float | None:
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


def _clock(tok: Tok) -> int | None:
    """Minutes since midnight ("4pm", "16:00", "9h", "10h30", "7 p.m.", "15 Uhr", "9.30 Uhr")."""
    if tok.kind == "uhr":
        return clock_minutes(tok.low.replace("uhr", "").strip().replace(".", ":"))
    return clock_minutes(tok.low)


def _day(tok: Tok | None) -> int | None:
    if tok is None or tok.role or tok.kind not in ("num", "ordinal"):
        return None
    digits = re.match(r"\d+", tok.low)
    n = int(digits.group(0)) if digits else 0
    return n if 1 <= n <= 31 else None


def _year(tok: Tok | None) -> int | None:
    if tok is None or tok.role or tok.kind != "num" or not tok.low.isdigit() or len(tok.low) != 4:
        return None
    n = int(tok.low)
    return n if 1900 <= n <= 2100 else None


def _dates(toks: list[Tok], values: list[Value]) -> None:
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
            if day_tok is None and key in L.MONTHS_SPELT_WITH_ACCENT and t.orig == key:
                continue  # "Marco", not "março"
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


def read_values(toks: list[Tok], lang: str = "en") -> tuple[list[Value], set[str]]:
    values, idents = _values_unplaced(toks, lang)
    placed: list[Value] = []
    taken: set[int] = set()
    for v in values:  # each value at the first token showing its text not yet taken
        pos = next((i for i, t in enumerate(toks) if i not in taken and t.role == "value" and t.text == v.text), -1)
        taken.add(pos)
        placed.append(Value(v.kind, v.norm, v.text, pos))
    return placed, idents


def _glued_quantity(tok: Tok) -> tuple[float, tuple[str, float]] | None:
    """"20mg" -> (20.0, ("grams", 0.001)): a number glued to a unit word, else None."""
    m = L.GLUED_UNIT.fullmatch(tok.low)
    if m is None or fold(m.group(2)) not in L.UNITS:
        return None
    return float(m.group(1).replace(",", ".")), L.UNITS[fold(m.group(2))]


def _values_unplaced(toks: list[Tok], lang: str) -> tuple[list[Value], set[str]]:
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
        if t.kind == "num" and _bare_hour(toks, i, lang):
            t.role = "value"
            values.append(Value("time", (int(t.low) * 60,), t.text))
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
            glued = _glued_quantity(t) if t.kind == "code" and t.low[:1].isdigit() else None
            if glued is not None:
                amount, (unit, mult) = glued
                t.role = "value"
                values.append(Value("number", (unit, _significant(amount * mult)), t.text))
                continue
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
            values.append(Value("number", (unit, _significant(value)), t.text))
    return values, idents


# A bare hour after a clock preposition is a time: "standup's at 10", "a las 9", "às 9", "um 9", "alle 10",
# "à 9" (accents kept in ``orig``). Not before a unit ("at 10 km/h") or a name ("at 10 Downing Street").
_CLOCK_PREP = {"en": ("at",), "de": ("um",), "it": ("alle",), "pt": ("às",), "fr": ("à",)}
_CLOCK_PREP_ES = ("las", "la")  # after "a" / "sobre" / "desde" / "hasta": "a las 9"
_CLOCK_PREP_ES_BEFORE = frozenset(("a", "sobre", "desde", "hasta", "para"))


def _bare_hour(toks: list[Tok], i: int, lang: str) -> bool:
    """Whether the number ``toks[i]`` is an hour told without minutes after a clock preposition."""
    low = toks[i].low
    if i == 0 or not low.isdigit() or not 1 <= int(low) <= 24:
        return False
    prev = toks[i - 1].orig or toks[i - 1].low
    if prev in ("a", "as") and lang == "pt" and toks[i - 1].low == "as":
        prev = "às"  # (read without its accent in chat: "as 9")
    if toks[i - 1].kind != "word":
        return False
    if prev in _CLOCK_PREP_ES:
        ok = i > 1 and fold(toks[i - 2].low) in _CLOCK_PREP_ES_BEFORE
    else:
        ok = prev in _CLOCK_PREP.get(lang, ()) or prev in ("at", "alle", "às")
    if not ok:
        return False
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    return nxt is None or not (nxt.kind == "word" and (fold(nxt.low) in L.UNITS or nxt.text[:1].isupper()))


def _significant(x: float) -> float:
    """``x`` to 9 significant digits: a rate per second keeps its digits ("42 dollars a month" is
    1.62e-05 per second, "43 dollars a month" 1.66e-05), while float noise ("0.1 * 3") goes."""
    return float(f"{x:.9g}")
