"""A change told in two clauses: "I sold the Civic and now drive a Tesla", "My flight is delayed
and now lands at 5:15pm", "Le match est retardé, il commence à 21h", and their French, Spanish,
German and Portuguese forms.

memengine/facts.py compares a sentence as one frame; these put the new value in a second clause
whose subject is the first clause's (or a pronoun for it). Two readings, both narrow:

*An event on the old value.* The first clause gets rid of something ("sold", "left", "quit",
"vendu", "dejé", "verkauft", "saí de") and the second names what came instead ("and now drive
a Tesla", "y ahora tengo un Toyota"). It updates an old fact only when the thing given up is
that fact's value ("I drive a Honda Civic") and both sentences speak of the same person ("I" /
"my", "we" / "our", a first-person verb ending): "My wife sold her Golf" updates nothing of mine.

*The second clause alone.* Its subject carried over from the first clause ("My flight to Boston
| now lands at 5:15pm"), it is compared with the old fact like any sentence, and counts only
when a time, date or number changed: a word for another word is left to the event reading,
which names the old value ("I sold my bike and now ride the bus more" updates no car).
Pure functions: no SQL, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from memengine import fact_lexicon as L
from memengine.fact_change import NOW, THIRD_POSSESSIVES
from memengine.fact_lexicon import _set, fold
from memengine.fact_tokens import Tok, prepare, read_tokens
from memengine.fact_view import Fact

F = TypeVar("F", bound=Fact)
V = TypeVar("V")

# Verbs that give up the old value; "away" / "rid of" are read as particles.
DISPOSAL = _set("sold sell sells gave give left quit ditched dumped traded",
                "vendu vendue quitte quittee laisse abandonne",
                "vendi vendio vendimos deje dejamos abandone",
                "verkauft gekundigt verlassen aufgegeben abgegeben",
                "vendi vendemos sai saimos deixei larguei")
PARTICLES = _set("away rid of up")
AUX_DE = L.LANG_AUX["de"] | _set("habe hast habt bin bist")
COORDINATORS = _set("and", "et", "y", "und", "e")
# Who a sentence speaks of, from its first word: a pronoun, a possessive or a verb ending.
PERSON = {**{w: "1s" for w in _set("i my me je j mon ma mes moi yo mi mis me ich mein meine meinen meinem meiner "
                                  "mir mich eu meu minha meus minhas")},
          **{w: "1p" for w in _set("we our us nous notre nos nosotros nosotras nuestro nuestra nuestros nuestras "
                                  "wir unser unsere unseren unserem unserer uns nos nosso nossa nossos nossas")}}
PRONOUNS = _set("i we je j nous yo nosotros nosotras ich wir eu nos")
# First-person verb endings of Spanish / Portuguese sentences without a subject ("Tengo un ...",
# "Vendí el ...", "Saí da ..."), read only before an article, a preposition or a number.
ENDINGS = (("amos", "1p"), ("emos", "1p"), ("imos", "1p"), ("o", "1s"), ("é", "1s"), ("í", "1s"), ("i", "1s"))
VALUE_KINDS = ("time", "date", "number", "code")
_WORD = re.compile(r"[^\W\d_][\w-]*")
# (a comma inside a date or a number, "June 30, 2024", "1,200", is no clause boundary)
_SPLIT = re.compile(r"\s*(?<!\d),(?!\s*\d)\s*(?:(?:and|et|y|und|e)\s+)?|\s+(?:and|et|y|und|e)\s+", re.I)


@dataclass
class _Clauses:
    first: list[Tok]
    second: list[Tok]
    second_text: str


def _key(t: Tok) -> str:
    return fold(t.low) if t.kind == "word" else ""


def _content(toks: list[Tok]) -> list[Tok]:
    return [t for t in toks if t.kind != "word" or (_key(t) not in L.STOPWORDS and _key(t) not in NOW
                                                    and _key(t) not in PARTICLES)]


def person(toks: list[Tok], pronoun_only: bool = False) -> str:
    """"1s", "1p" or "" for the first word of a clause (a short sentence's language is often
    guessed wrong: the endings are read whatever the guess). With ``pronoun_only`` a possessive
    does not count: "My son sold ..." is the son's doing, while "My phone is ..." is a fact of mine."""
    words = [t for t in toks if t.kind == "word"]
    if not words:
        return ""
    first = words[0]
    if _key(first) in PERSON:
        return PERSON[_key(first)] if not pronoun_only or _key(first) in PRONOUNS else ""
    nxt = toks[toks.index(first) + 1] if toks.index(first) + 1 < len(toks) else None
    if nxt is not None and (nxt.kind != "word" or _key(nxt) in L.AFTER_VERB) or _key(first) in DISPOSAL:
        # ("Dejé Mapfre": a verb giving something up, whatever follows it)
        return next((p for e, p in ENDINGS if first.orig.endswith(e)), "")
    return ""


def split_text(text: str) -> tuple[str, str] | None:
    """The two clauses of ``text`` as written (see :func:`split`), else None."""
    parts = _SPLIT.split(text, maxsplit=1)
    return (parts[0], parts[1]) if len(parts) == 2 and parts[0].strip() and parts[1].strip() else None


def split(text: str) -> _Clauses | None:
    """The two clauses of ``text`` joined by "and" / "et" / "y" / "und" / "e" or a comma, else None."""
    parts = _SPLIT.split(text, maxsplit=1)
    if len(parts) != 2 or not parts[0].strip() or not parts[1].strip():
        return None
    first, second = (read_tokens(prepare(p), p) for p in parts)
    lead = next((t for t in second if t.kind == "word"), None)
    if not first or not second or lead is None or lead.text[:1].isupper() and lead.orig not in (
            L.PRONOUNS.get("en", frozenset()) | L.PRONOUNS.get("fr", frozenset())):
        return None  # "Tom and Jerry ...": not a clause of its own
    return _Clauses(first, second, parts[1])


def _disposed(first: list[Tok]) -> list[Tok] | None:
    """What the first clause gives up: the object of its disposal verb."""
    for i, t in enumerate(first):
        if _key(t) not in DISPOSAL:
            continue
        if i == len(first) - 1:  # verb last: "Ich habe | den Golf | verkauft"
            aux = next((j for j in range(i) if _key(first[j]) in AUX_DE), None)
            obj = first[aux + 1:i] if aux is not None else []
        else:
            obj = first[i + 1:]
        obj = [t for t in _content(obj) if t.kind == "word" and not t.role]
        return obj or None
    return None


def _matches(key: str, fact: Fact) -> bool:
    """Whether ``key`` is one of ``fact``'s value words (outside its subject), or a part of one
    ("civic" in "Honda Civic")."""
    for i, w in enumerate(fact.words):
        if i < fact.subject_end or i == fact.predicate:  # (the verb is no value: "fahre" / "Fahrrad")
            continue
        if w.key == key or key in w.key.split():  # (no looser match: "Fahrrad" is not "fahre")
            return True
    return False


def _event(old: Fact, cl: _Clauses, lang: str) -> tuple[str, str] | None:
    """(was, now) when the first clause gives up ``old``'s value and the second names the new one."""
    gone = _disposed(cl.first)
    if gone is None or not all(_matches(fold(t.low), old) for t in gone):
        return None
    if any(_key(t) in THIRD_POSSESSIVES for t in cl.first):
        return None  # "... sold his Trek": someone else's
    who = person(cl.first, pronoun_only=True)
    # the old fact's possessive counts when it states what a thing of mine is ("My phone is an
    # iPhone 12"), not what someone of mine does ("My brother drives a Peugeot")
    if not who or who != person(read_tokens(prepare(old.text), old.text), pronoun_only=old.predicate is not None):
        return None  # "My wife sold her Golf": not my car
    rest = [t for t in _content(cl.second) if t.kind == "word" and t.orig not in L.PRONOUNS.get(lang, ())]
    new = rest[1:]  # (the first content word is the verb: "now | drive | a Tesla Model 3")
    if not new or any(_key(t) == _key(g) for t in new for g in gone):
        return None
    return " ".join(t.text for t in gone), " ".join(t.text for t in new)


def _second_alone(old: F, cl: _Clauses, analyse: Callable[[str], F], compare: Callable[[F, F], V | None],
                  kind: Callable[[V], str]) -> V | None:
    """The second clause with the first clause's subject, compared alone: only a changed value counts."""
    first = analyse(" ".join(t.text for t in cl.first))
    if first.subject_end == 0 and not first.pronoun:
        return None
    end = first.words[first.subject_end - 1].pos + 1 if first.subject_end else 1
    subject = " ".join(t.text for t in read_tokens(prepare(first.text), first.text)[:end])
    second = cl.second_text
    lead = re.match(r"\s*(\w+)\s+", second)
    if lead and lead.group(1).lower() in L.PRONOUNS.get(first.lang, ()) and first.subject_end:
        second = second[lead.end():]  # "Le match est retardé, | il | commence à 21h"
    verdict = compare(old, analyse(f"{subject} {second}"))
    return verdict if verdict is not None and kind(verdict) in VALUE_KINDS else None


def compare_clauses(old: F, new: F, analyse: Callable[[str], F], compare: Callable[[F, F], V | None],
                    kind: Callable[[V], str],
                    verdict: Callable[[str, str], V]) -> V | None:
    """Whether ``new``, read as two clauses, updates ``old`` (see the module docstring). The
    callables are memengine/facts.py's (its reading, frame comparison, a verdict's kind, and a "slot changed: was -> now" verdict): this module never imports it."""
    gives_up = bool(new.keys & DISPOSAL)
    values = bool(old.values and new.values)
    if values and not gives_up:  # the second clause alone must state a value ("and now lands at 5:15pm")
        parts = _SPLIT.split(new.text, maxsplit=1)
        values = len(parts) == 2 and (any(ch.isdigit() for ch in parts[1]) or any(
            fold(w) in L.WEEKDAYS or fold(w) in L.MONTHS for w in _WORD.findall(parts[1].lower())))
    if not values and not gives_up:
        return None  # neither reading can apply: no values to compare, nothing given up
    cl = split(new.text)
    if cl is None:
        return None
    event = _event(old, cl, new.lang) if gives_up else None
    if event is not None:
        return verdict(*event)
    return _second_alone(old, cl, analyse, compare, kind) if values else None
