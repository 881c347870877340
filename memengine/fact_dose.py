"""A dose changed: "The GP doubled his ramipril to 10 mg" after "takes 5 mg of ramipril every morning" (facts30).

A dose is told with the substance next to its amount ("5 mg of ramipril", "75 Mikrogramm L-Thyroxin",
"omeprazol verhoogd naar 40 mg") and changed with a verb of raising or lowering, or with a word of now; the
rest of the sentence (who prescribed it, when) shares nothing with the older, so neither the frame rules nor the
learned decision read one slot (held-out 9: four of four doses missed or only flagged). :func:`changed` reads a
dose of the same substance, another amount, and a change said; whose dose it is stays the vetoes'
question (memengine/supersession.py: another person, a kinship word). Pure: no SQL, no model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine import fact_mood, fact_person
from memengine.fact_align import same_word
from memengine.fact_langs import FUNCTION_WORDS
from memengine.fact_lexicon import STOPWORDS, fold

__all__ = ["REASON", "changed", "doses"]

REASON = "a dose changed"

# An amount with a unit a dose is said in (seven languages; "Mikrogramm" the analyser reads no unit of).
_DOSE = re.compile(r"(\d+(?:[.,]\d+)?)\s*(mg|mcg|µg|ug|milligrams?|milligrammes?|milligramm|milligrammi|miligramos?|"
                   r"miligramas?|microgram(?:me)?s?|mikrogramm|microgrammi|microgramos?|microgramas?|"
                   r"units|unidades|unità|einheiten|eenheden|unités|ie|ui|iu)(?![\w])", re.IGNORECASE)
_SCALE = {"mcg": 0.001, "µg": 0.001, "ug": 0.001, "mikrogramm": 0.001}
_WINDOW = 3  # words on each side of an amount that may name its substance
_WORD = re.compile(r"[^\W\d_][\w'-]*")
# Verbs of raising or lowering a dose, and words of now (folded).
_CHANGE = frozenset(fold(w) for w in """raised increased upped doubled tripled halved lowered reduced cut bumped
    dropped put moved erhoht erhöht hochgesetzt heruntergesetzt reduziert gesenkt verdoppelt halbiert umgestellt
    augmente augmenté baisse baissé reduit réduit double doublé passe passé subido subida aumentado aumentada
    bajado bajada reducido reducida doblado duplicado aumentato aumentata ridotto ridotta abbassato abbassata
    raddoppiato portato aumentou aumentaram baixou baixaram reduziu reduziram dobrou passou verhoogd verlaagd
    verdubbeld gehalveerd now jetzt nun maintenant desormais ahora adesso ora agora nu""".split())
# The words of taking a dose, never its substance.
_TAKE = frozenset(fold(w) for w in """take takes taking took on prescribed prescribes nimmt nehme nehmen verschrieben
    prend prends prennent prescrit toma tomo toman tomar recetado recetada prende prendo prescritto prescritta
    tomo toma tomam receitou receitado neemt neem nemen voorgeschreven morning evening night day daily morgens
    abends täglich matin soir jour mañana noche día mattina sera giorno manhã noite dia ochtend avond dag""".split())


@lru_cache(maxsize=2048)
def doses(text: str) -> tuple[tuple[float, frozenset[str]], ...]:
    """Each dose ``text`` states: its amount (in the unit's scale) and the words around it that may name its
    substance (no function word, no word of taking, no name of whom the sentence is about)."""
    people = fact_person.subject_names(text)  # (the other sentence's: :func:`_doses`)
    out: list[tuple[float, frozenset[str]]] = []
    for m in _DOSE.finditer(text):
        amount = float(m.group(1).replace(",", ".")) * _SCALE.get(m.group(2).lower(), 1.0)
        before = _WORD.findall(text[:m.start()])[-_WINDOW:]
        after = _WORD.findall(text[m.end():])[:_WINDOW]
        words = frozenset(k for k in (fold(w.lower()) for w in before + after)
                          if k not in STOPWORDS and k not in FUNCTION_WORDS and k not in _TAKE and k not in _CHANGE and k not in people
                          and len(k) > 2 and not _DOSE.fullmatch("1 " + k))
        out.append((amount, words))
    return tuple(out)


def _doses(text: str, other: str) -> list[tuple[float, frozenset[str]]]:
    """:func:`doses` of ``text`` without the names of whom either sentence is about ("hat Jonas auf 100 ...")."""
    people = fact_person.subject_names(text) | fact_person.subject_names(other)
    return [(x, w - people) for x, w in doses(text)]


def _shared(a: frozenset[str], b: frozenset[str]) -> bool:
    return any(same_word(x, y) for x in a for y in b)


def changed(old: str, new: str) -> str | None:
    """``REASON: <old amount> -> <new amount> (<substance>)`` when ``new`` states one dose of a substance
    ``old`` states a dose of, another amount, and says a change (a verb of raising or lowering, a word of
    now), else None."""
    a, b = _doses(old, new), _doses(new, old)
    if len(b) != 1 or not a:
        return None
    amount, words = b[0]
    same = [x for x, w in a if _shared(w, words)]
    if len(same) != 1 or abs(same[0] - amount) < 1e-9:
        return None
    if not any(fold(w.lower()) in _CHANGE for w in _WORD.findall(new)) or fact_mood.unasserted(new):
        return None
    drug = next(iter(sorted(w for w in words if any(same_word(w, x) for _, ws in a for x in ws))))
    return f"{REASON}: {same[0]:g} -> {amount:g} ({drug})"
