"""The change a sentence states, read from its words alone: tokens and cues (issue: facts that change).

A cue is a closed-class word or phrase that says a value changed: "now", "no longer", "instead", "New X:", a
change verb ("raised", "switched", "moved ... to"), a change noun ("Umzug"), a revert ("rolled back", "back on"),
in the languages of memengine/fact_cue_lexicon.py. :func:`find_cue` is what recall's chat updates and the
brief's plans ask; memengine/fact_cue.py's :func:`~memengine.fact_cue.detect` asks it too, then decides whether
the change is of the older fact's slot. Pure: no SQL, no model; no facts module is loaded here (a cold process
asking only a cue pays ~10 ms, not the facts engine's ~40).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memengine import fact_cue_lexicon as C
from memengine import fact_lexicon as L
from memengine.fact_lexicon import DETERMINERS, STOPWORDS, fold
from memengine.fact_tokens import MAX_CHARS, guess_lang

__all__ = ["BREAKS", "MOTION_REACH", "TOKEN_RE", "Cue", "Tok", "adds", "cue_beyond", "find_cue", "phrase_at", "reverted", "tokens"]

# Token distance within which a motion verb needs its destination ("moved the standup to").
MOTION_REACH = 6
TOKEN_RE = re.compile(r"\d+(?:[.,:h]\d+)*[^\W\d_]*|[^\W\d_]+|[,;:!?()]")  # "9am", "40mg": one token
BREAKS = frozenset(",;:!?()")


@dataclass(frozen=True)
class Tok:
    """One token of a sentence as the fact rules read it: as written, folded, capitalised, a word."""

    text: str
    key: str  # folded, lower-case
    cap: bool
    word: bool


@dataclass(frozen=True)
class Cue:
    """The change a sentence states: ``kind`` ("now", "new", "verb", "noun", "habit") and the words."""

    kind: str
    words: str


def tokens(text: str) -> list[Tok]:
    """The tokens of ``text`` (its first MAX_CHARS characters): words, numbers with their unit ("9am",
    "40mg"), and the punctuation that breaks a clause."""
    out = []
    for m in TOKEN_RE.finditer(text[:MAX_CHARS]):
        t = m.group(0)
        out.append(Tok(t, fold(t), t[:1].isupper(), t[:1].isalpha()))
    return out


def phrase_at(keys: list[str], phrases: tuple[str, ...]) -> str | None:
    joined = " " + " ".join(keys) + " "
    return next((p for p in phrases if " " + p + " " in joined), None)


def _discontinuous(keys: list[str]) -> str | None:
    """"ne ... plus", "kein ... mehr", "não ... mais", "not ... anymore": a negation ended."""
    for first, last in (({"ne", "n"}, "plus"), ({"kein", "keine", "keinen", "keinem", "nicht"}, "mehr"),
                        ({"nao"}, "mais")):
        i = next((i for i, k in enumerate(keys) if k in first), None)
        if i is not None and last in keys[i + 1:]:
            return f"{keys[i]} ... {last}"
    return None


def _verb_cue(toks: list[Tok], lang: str) -> Cue | None:
    """A change verb ("raised", "switched"), a motion verb with a destination ("pushed back to",
    "passés chez"), a holder verb ("joined", "took over"), a leaving verb with the name it leaves
    ("left Deloitte") or a habit verb with a verb after it ("started eating", "a recommencé à
    manger", "volvió a comer")."""
    for i, t in enumerate(toks):
        k = t.key
        if not t.word:
            continue
        if k in C.CHANGE_VERBS:
            return Cue("verb", t.text)
        if k in C.MOTION_VERBS and _destination_follows(toks, i, lang):
            return Cue("verb", t.text)
        if k in C.HOLDER_VERBS:
            if k in ("took", "taken"):
                if "over" in [x.key for x in toks[i + 1:i + 5]]:
                    return Cue("verb", t.text + " over")
                continue
            return Cue("verb", t.text)
        if k in C.LEAVE_VERBS and any(x.cap and x.word for x in toks[i + 1:i + 4]) \
                or k in C.LEAVE_VERBS_LAST and any(x.cap and x.word for x in toks[max(1, i - 3):i]):
            return Cue("verb", t.text)
        if k in C.HABIT_VERBS and _habit_follows(toks, i):
            return Cue("habit", t.text)
    return None


def _habit_follows(toks: list[Tok], i: int) -> bool:
    """A verb after a habit verb: "started eating", "started to eat", "a recommencé à manger",
    "volvió a comer", German "aufgehört zu rauchen" / "mit dem Rauchen"."""
    k = toks[i].key
    if k in ("angefangen", "begonnen", "aufgehort"):
        return any(t.key in C.GERMAN_HABIT_LINKS for t in toks)
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    if nxt is None or not nxt.word:
        return False
    if nxt.key.endswith("ing") and len(nxt.key) > 4:
        return True
    after = toks[i + 2] if i + 2 < len(toks) else None
    if nxt.key in C.HABIT_LINKS and after is not None and after.word and after.key not in STOPWORDS:
        return nxt.key == "to" or after.key.endswith(C.ROMANCE_INFINITIVE)
    return False


def _destination_follows(toks: list[Tok], i: int, lang: str) -> bool:
    """A destination within the clause after a motion verb: "pushed Leo's bedtime back to"."""
    dest = C.DESTINATIONS_BY_LANG.get(lang, C.DESTINATIONS)
    for t in toks[i + 1:i + 1 + MOTION_REACH]:
        if not t.word and t.text in BREAKS:
            return False
        if t.key in dest:
            return True
    return False


def find_cue(text: str) -> Cue | None:
    """The change ``text`` states, or None; None too when it also states an addition ("also")."""
    toks = tokens(text)
    keys = [t.key for t in toks if t.word]
    if adds(toks) or phrase_at(keys, C.ADDITIVE_PHRASES):
        return None
    return cue_beyond(toks, keys, set(), guess_lang(text))


# Words that may open a sentence before its first word proper ("Oh and also, ...", "Ok so also ...").
_OPENERS = frozenset({"and", "oh", "ok", "okay", "btw", "so", "ah", "und", "et", "y", "e"})
# What starts a clause's subject right after a sentence-opening "also": a definite determiner or possessive
# (DETERMINERS without the indefinites, which may start an added value: "Also a second repo: …").
_SUBJECT_START = DETERMINERS - frozenset(
    "a an some no one every each un une des una unos unas ein eine einen einem einer eines um uma uns umas uno".split())
_PRONOUNS_ANY = frozenset().union(*L.PRONOUNS.values())


def adds(toks: list[Tok]) -> bool:
    """Whether ``toks`` state an addition ("also", "too", "another", "auch"...): a second value beside the
    old one, not a new one. An additive word that opens a sentence before its subject ("Also, the install
    moved", "Also the standup moved to 10", "Auch der Termin ist verschoben") adds a piece of news or
    another subject, not a value: it adds nothing beside the value the clause changes. A subjectless
    "Also uses Vim", "uses Vim too" and "now also accepts cards" still add."""
    opening = True
    for i, t in enumerate(toks):
        if not t.word:
            continue  # (a comma keeps a sentence's opening: "Oh, also, ...")
        starts = opening or t.cap
        if t.key in C.ADDITIVE:
            nxt = toks[i + 1] if i + 1 < len(toks) else None
            if starts and nxt is not None and (
                    not nxt.word and nxt.text == ","
                    or nxt.word and (nxt.key in _SUBJECT_START or nxt.text.lower() in _PRONOUNS_ANY or nxt.cap)):
                opening = False
                continue
            return True
        opening = starts and t.key in _OPENERS
    return False


def cue_beyond(toks: list[Tok], keys: list[str], old: set[str], lang: str) -> Cue | None:
    """The first cue of ``keys`` whose words are not all in ``old`` (the old fact's words: "joined"
    in both "joined in January" and "joined on January 15" tells no change)."""
    cue = _first_cue(toks, keys, lang)
    if cue is None or not all(fold(w) in old for w in cue.words.split() if w != "..."):
        return cue
    rest = [t for t in toks if t.key not in old]
    return _first_cue(rest, [t.key for t in rest if t.word], lang)


# the first word of a bare "back on" / "back to" (the revert phrases read against a date after them)
_BARE_BACK = frozenset({"back", "zuruck", "revenu", "revenus", "retour", "vuelta", "volta"})
_DATE_DIGITS = re.compile(r"\d+(?:st|nd|rd|th|am|pm|h)$|\d+[:.h]\d+")  # "9th", "5pm", "9:30": a day or a time


def reverted(toks: list[Tok]) -> str | None:
    """A revert phrase of ``toks`` (fact_cue_lexicon.REVERT_PHRASES: "rolled back", "reverted", "back on").
    A bare "back on" / "back to" (any language's) followed by a day, a month or a time is a return in time
    or a visit, not a revert: "Tom is back on Monday", "back on the 9th", "I go back to the dentist on June 10"."""
    keys = [t.key for t in toks]
    for p in C.REVERT_PHRASES:
        words = p.split()
        n = len(words)
        for i in range(len(keys) - n + 1):
            if keys[i:i + n] != words:
                continue
            if len(words) == 2 and words[0] in _BARE_BACK and any(
                    t.key in L.WEEKDAYS or t.key in L.MONTHS or t.key in L.SHORT_WEEKDAYS
                    or _DATE_DIGITS.match(t.key) for t in toks[i + n:]):
                continue
            return p
    return None


def _first_cue(toks: list[Tok], keys: list[str], lang: str) -> Cue | None:
    p = phrase_at(keys, C.NOW_PHRASES) or reverted(toks) or _discontinuous(keys)
    if p is not None:
        return Cue("now", p)
    for i, t in enumerate(toks):  # "New gym fee: 42", "the new one is", "Neuer Türcode:"
        if t.word and t.key in C.NEW_WORDS and any(
                not x.word and x.text == ":" or x.key in C.COPULAS for x in toks[i + 1:i + 7]):
            return Cue("new", t.text)
    if any(k in C.CHANGE_NOUNS or len(k) > 8 and k.endswith(C.CHANGE_NOUN_SUFFIXES) for k in keys):
        return Cue("noun", next(k for k in keys if k in C.CHANGE_NOUNS or k.endswith(C.CHANGE_NOUN_SUFFIXES)))
    return _verb_cue(toks, lang)
