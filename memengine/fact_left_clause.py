"""The older's value said gone in a clause of its own, after the change (facts33): "Code owner of the billing module
is Marta" / "Deshawn is the billing module's code owner now, Marta moved to the payments team", "Drucker im Büro:
Brother MFC-L3770" / "Neuer Drucker: HP Color LaserJet, der Brother war defekt", "Deploy to staging with `make
deploy-staging`" / "Staging deploys now happen automatically on merge; `make deploy-staging` is retired".

An agent notes a change and then what became of the old value, or why: the old value is named, in a later clause
than the one saying the change, and no clause before it names it. The learned decision (memengine/fact_slot.py)
scores such pairs in its middle band ("probably the same slot"): the two are one slot by its reading, and the newer
naming the older's value apart from the change is what says the older no longer holds. :func:`left_in_clause`
reads it; fact_slot.decide makes a middle-band verdict sure with it.

The older's value: a word after the older's subject (memengine/facts.py's reading), not a word of its subject
("Hiscox also quoted for the van" is about Hiscox: naming Hiscox says nothing of its value), written as a name
(capitalised past the sentence's first word), holding a digit, or quoted in backticks; never a day, a month or a
number alone. The newer's first clause says a change (memengine/fact_change_words.py) and does not name it
("Marc dejó el instituto; ahora da clases …" names the older's Marc first: it is about Marc, not his old value).

Pure: no SQL, no model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine import fact_person, facts
from memengine.fact_align import same_word
from memengine.fact_change_words import change_words
from memengine.fact_cue_lexicon import TITLES
from memengine.fact_lexicon import MONTHS, STOPWORDS, WEEKDAYS, fold

__all__ = ["REASON", "clauses", "left_in_clause"]

REASON = "the older's value said apart from the change"

_CLAUSE = re.compile(r"\s*(?:[,;:()]|\s[-–—]\s|\bbut\b|\baber\b|\bpero\b|\bmais\b)\s*")
# a reason given for the change opens a clause of its own (facts35): "Groceries come from Sainsbury's now because Tesco
# kept substituting things", "FBS is bought from Sigma now since Gibco's lot was back-ordered"
_REASON = re.compile(r"\s+(?:because|since|cause|weil|porque|parce\s+que|puisque|perche|perché|poiche|poiché|omdat|"
                     r"ya\s+que|visto\s+que|dado\s+que)\s+", re.IGNORECASE)
# the older's value said ended in a clause of its own, whatever its place (facts35): "No more Statuspage.io, the
# status page is on Instatus now", "Prism is no longer licensed"
_ENDED = re.compile(r"\b(?:no\s+more|no\s+longer|not\s+any\s*more|nicht\s+mehr|kein(?:e|en)?\s+\S+\s+mehr|ya\s+no|"
                    r"plus\s+de|ne\s+\S+\s+plus|non\s+più|non\s+piu|não\s+mais|nao\s+mais)\b", re.IGNORECASE)
# a while said with it is a pause, not an end ("No more Disney+ over the summer", "no more Fig & Cedar until the next
# batch", "keine Pizza mehr bis Ostern")
_WHILE = re.compile(r"\b(?:until|till|til|for\s+now|for\s+the|for\s+a|over\s+the|during|this\s+(?:week|month|year)|"
                    r"temporarily|bis|hasta|jusqu|fino|durante|pendant|vorerst|por\s+ahora|pour\s+l'instant|per\s+ora)\b",
                    re.IGNORECASE)
_WORD = re.compile(r"[^\W_]+(?:[-+.][^\W_]+)*\+?")
_TICKED = re.compile(r"`([^`]+)`")
_TICK = "`"
# a return said: the value is taken again ("back on Jenkins", "vuelve a Java", "wieder auf Jira")
_TAKEN = frozenset("again back wieder zuruck vuelve vuelven volvio volvemos vuelta volta voltou voltamos voltaram torna "
                   "tornato tornata tornano revient reviennent retour retourne retournee".split())
_INSTEAD = frozenset("instead statt anstatt anstelle invece lugar vez lieu plaats rather".split())
# a destination right before the value ("moved to Jenkins", "passa a Java", "auf Jira umgestellt")
_TO = frozenset("to into onto a al au aux auf zu zum zur nach naar para pra pro vers".split())
_TIME = re.compile(r"^\d+(?:am|pm|h|uhr)?$")


def _key(w: str) -> str:
    return fold(w.lower()).rstrip("+")


@lru_cache(maxsize=4096)
def _values(old: str) -> frozenset[str]:
    """The older's value words written as names, with a digit or in backticks (folded), none of its subject."""
    f = facts.analyse(old)
    subject = {part for w in f.words[:f.subject_end] for part in w.key.split()}
    people = fact_person.subject_names(old)
    ticked = {_key(w) for m in _TICKED.finditer(old) for w in _WORD.findall(m.group(1))}
    out = set()
    for i, m in enumerate(_WORD.finditer(old)):
        w, k = m.group(), _key(m.group())
        if not k or k in STOPWORDS or k in WEEKDAYS or k in MONTHS or _TIME.match(k) or len(k) < 3 or k in TITLES:
            continue
        if any(same_word(k, s) for s in subject) or k in people:
            continue
        if i > 0 and w[:1].isupper() or any(c.isdigit() for c in w):
            out.add(k)
        elif k in ticked:
            out.add(_TICK + k)  # (a word quoted in backticks names the value only quoted again: "`npm run bundle`")
    return frozenset(out)


def _names_new(clause: str, old: str) -> bool:
    """Whether ``clause`` names a name or a code the older does not (past its first word)."""
    said = {_key(w) for w in _WORD.findall(old)}
    for i, w in enumerate(_WORD.findall(clause)):
        k = _key(w)
        if k in said or k in STOPWORDS or k in MONTHS or k in WEEKDAYS or k in TITLES or _TIME.match(k):
            continue
        if i > 0 and w[:1].isupper() or any(ch.isdigit() for ch in w) and any(ch.isalpha() for ch in w):
            return True  # (a number alone, "up 20%", is no name)
    return False


def _taken(clause: str, hit: str) -> bool:
    """Whether ``clause`` says its value ``hit`` is taken: a return or a new state said, or a destination before it."""
    keys = [_key(w) for w in _WORD.findall(clause)]
    if set(keys) & _INSTEAD:
        return False  # "… instead of Docker Hub", "1Password statt Bitwarden": what was left
    if set(keys) & _TAKEN or change_words("", clause)[1]:
        return True
    at = next((i for i, k in enumerate(keys) if k == hit or k.removesuffix("s") == hit), -1)
    return any(k in _TO for k in keys[max(0, at - 2):max(0, at)])


def _named_in(clause: str, values: frozenset[str], said: set[str]) -> str:
    """The older's value word ``clause`` names, or "": a name run ("Shipton Mill") holding one, none of whose
    capitalised words is new ("Wessex Mill" names another mill)."""
    ticked = [_TICK + _key(w) for m in _TICKED.finditer(clause) for w in _WORD.findall(m.group(1))]
    if any(t in values for t in ticked):
        return next(t for t in ticked if t in values)[1:]
    words = _WORD.findall(clause)
    run: list[str] = []
    for i, w in enumerate(words + [""]):
        if w and (i > 0 and w[:1].isupper() or _key(w) in values):
            run.append(w)
            continue
        keys = [_key(x) for x in run]
        hit = next((k for k in keys if k in values or k.removesuffix("s") in values), "")
        if hit and all(k in said or k in TITLES for k in keys):
            return hit
        run = []
    return ""


def clauses(text: str, reasons: bool = False) -> list[str]:
    """The clauses of ``text``: cut at commas, semicolons, colons, brackets, a dash and "but" (and, with
    ``reasons``, before a reason: "because", "since", "weil", "porque", "parce que", "perché")."""
    parts = [c for c in _CLAUSE.split(text) if c and c.strip()]
    return [r for c in parts for r in _REASON.split(c) if r and r.strip()] if reasons else parts


def left_in_clause(old: str, new: str) -> str:
    """The older's value word that the newer names in a later clause than the one saying the change, none
    before naming it, or "" (see the module docstring)."""
    values = _values(old)
    if not values:
        return ""
    parts = clauses(new, reasons=True)
    if len(parts) < 2:
        return ""
    said = {_key(w) for w in _WORD.findall(old)}
    ended = _ended_first(parts, values, said, old)
    if ended:
        return ended
    changed = False
    for c in parts:
        hit = _named_in(c, values, said)
        if hit:
            # (a clause naming a new name or code beside it says the new value: "MacBook Pro M3" after "MacBook Air";
            # one saying it is taken again or now, or moved to, says it is the value: "builds run on Jenkins again",
            # "el backend vuelve a Java")
            return hit if changed and not _names_new(c, old) and not _taken(c, hit) else ""
        verb, now = change_words("", c)
        changed = changed or verb or now
    return ""


def _ended_first(parts: list[str], values: frozenset[str], said: set[str], old: str) -> str:
    """The older's value word a clause says ended ("No more Statuspage.io") while another clause, not naming it,
    names a new name or code ("the status page is on Instatus now"), or ""."""
    for i, c in enumerate(parts):
        if not _ENDED.search(c) or _WHILE.search(c):
            continue
        hit = _named_in(c, values, said)
        if not hit or _names_new(c, old):
            continue
        others = parts[:i] + parts[i + 1:]
        if any(_names_new(o, old) and not _named_in(o, values, said) for o in others):
            return hit
    return ""
