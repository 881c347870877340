"""A person's value named as what the newer replaces: "… instead of X" (facts29).

"Priya drinks two cups of black coffee before work" / "Priya now drinks decaf tea instead of coffee", "Bianca va
al lavoro in macchina" / "Bianca va al lavoro in bici invece che in macchina", "Tariq trinkt morgens Kaffee" /
"Tariq trinkt jetzt Tee statt Kaffee". The newer says the older's value by name as the thing it replaces (instead
of, rather than; au lieu de, à la place de; en vez de, en lugar de; statt, anstatt, anstelle von; em vez de, em
lugar de; invece di, invece che, al posto di; in plaats van): when the words right after that marker are words
of the older outside its subject, and the newer is about the older's person (memengine/fact_person.py), the older
no longer holds. memengine/fact_joined.py reads the first-person "quit X, joined Y instead"; this reads the
replaced value itself, with the person named.

Guards: the newer is asserted ("thinking of tea instead of coffee" is a plan) and says something of its own (a
content word the older does not have); the older reports no change itself. Pure: no SQL, no model.
"""

from __future__ import annotations

import re

from memengine import fact_mood, fact_named_switch, fact_person
from memengine.fact_align import same_word
from memengine.fact_change_words import CHANGE_WORDS
from memengine.fact_lexicon import STOPWORDS, fold_text
from memengine.fact_types import Verdict

__all__ = ["REASON", "replaced"]

REASON = "the older's value replaced"

_INSTEAD = re.compile(
    r"\b(?:instead\s+of|rather\s+than|in\s+place\s+of|au\s+lieu\s+(?:de|du|des|d)|a\s+la\s+place\s+(?:de|du|des|d)|"
    r"en\s+vez\s+de(?:l)?|en\s+lugar\s+de(?:l)?|statt|anstatt|anstelle\s+(?:von|vom)?|em\s+vez\s+d[eoa]s?|"
    r"em\s+lugar\s+d[eoa]s?|invece\s+(?:di|del|della|dello|dei|delle|che)|al\s+posto\s+(?:di|del|della|dello|dei)|"
    r"in\s+plaats\s+van)\b")
# "from X" said with a verb of change ("è passato dal liceo a insegnare all'università", "switched from the night
# shift to days"): X is what was left
_FROM = re.compile(r"\b(?:from|de|du|des|desde|del|von|vom|van|do|da|das|dos|dal|dalla|dallo|dai|dalle)\b")
# "traded X for Y", "a échangé sa 208 contre une Zoé", "cambió el Ibiza por un León", "den Golf gegen einen ID.3
# getauscht", "trocou o Clio por um Zoe", "ha scambiato la Panda con una Yaris", "de Fiat ingeruild voor een Kia"
_TRADED = re.compile(
    r"\b(?:traded|exchanged|swapped|echange|echangee|troque|troquee|cambio|cambiado|canjeado|getauscht|"
    r"eingetauscht|umgetauscht|trocou|trocaram|troquei|trocado|scambiato|scambiata|cambiato|cambiata|ingeruild|"
    r"geruild|omgeruild)\b")
_FOR = re.compile(r"\b(?:for|contre|por|gegen|pela|pelo|por|con|voor|per)\b")
_WORD = re.compile(r"[^\W_]+")
_TAKEN = 3  # content words read after the marker (the replaced value)


def replaced(old: str, new: str) -> Verdict | None:
    """A verdict when ``new`` names a value of ``old`` as what it replaces, about the older's person, else None
    (see the module docstring)."""
    if not fact_person.same_person(old, new) or fact_mood.unasserted(new):
        return None
    ln = fold_text(new)
    m = _marker(ln)
    if m is None:
        return None
    lo = fold_text(old)
    ow = _WORD.findall(lo)
    if set(ow) & CHANGE_WORDS or _marker(lo) is not None:
        return None  # the older reports a change itself
    names = fact_person.subject_names(old)
    value = [w for w in ow if w not in STOPWORDS and w not in names and len(w) > 2]
    after = [w for w in _WORD.findall(ln[m[1]:m[2]]) if w not in STOPWORDS][:_TAKEN]
    hit = next((a for a in after if any(same_word(a, v) for v in value)), None)
    if hit is None:
        return None
    before = [w for w in _WORD.findall(ln[:m[1]] + " " + ln[m[2]:]) if w not in STOPWORDS and len(w) > 2
              and w not in fact_person.subject_names(new) and w not in CHANGE_WORDS]
    if not any(not any(same_word(b, v) for v in ow) for b in before):
        return None  # nothing of its own comes instead
    if fact_named_switch.dated(hit) and not any(
            same_word(b, v) for b in before for v in value if b != hit and not fact_named_switch.dated(b)):
        return None  # a day replaced, and nothing else of the older said: "reviews … instead of Tuesdays" (facts33)
    return Verdict("slot", f"{REASON}: {hit} ({m[0]})", 0.8)


def _marker(ln: str) -> tuple[str, int, int] | None:
    """The marker of a replaced value in the folded newer ``ln`` (its name, and where the replaced value's words
    start and end): "instead of X", "from X" with a verb of change, "traded X for"."""
    m = _INSTEAD.search(ln)
    if m is not None:
        return "instead", m.end(), len(ln)
    t = _TRADED.search(ln)
    if t is not None:
        f = _FOR.search(ln, t.end())
        if f is not None:
            return "traded", t.end(), f.start()
        before = list(_FOR.finditer(ln, 0, t.start()))  # verb last: "hat den Golf gegen einen ID.3 eingetauscht"
        return ("traded", 0, before[-1].start()) if before else None
    words = set(_WORD.findall(ln))
    if words & CHANGE_WORDS:
        f = _FROM.search(ln)
        if f is not None:  # (up to the next "to", comma or clause)
            end = re.search(r"\b(?:to|a|au|aux|al|alla|all|zu|zum|zur|nach|naar|para|pra|in|en)\b|[,;.]", ln[f.end():])
            return "from", f.end(), f.end() + (end.start() if end is not None else len(ln) - f.end())
    return None
