"""A person's diet turned: meat eaten again after a vegetarian fact, or given up after one that eats it (facts29).

"A Mariana é vegetariana" / "A Mariana voltou a comer carne", "Owen eats vegetarian" / "Owen's back to eating
meat", "Katrin isst kein Fleisch" / "Katrin isst wieder Fleisch", "Tariq eats everything, meat included" / "Tariq
went vegan". The two share no word a frame rule could align ("vegetariana" / "carne"), and the learned decision
leaves them in its middle band. A diet is one slot of a person with two readings: no meat (a word of vegetarian
or vegan, or eating meat negated or stopped) or meat (eating meat, asserted). When the older and the newer are
about one person (memengine/fact_person.py) and read the two ways, the older no longer holds.

Guards: the newer is asserted ("überlegt, ob sie wieder Fleisch essen soll" is weighed, not done); each sentence
reads one way only. Pure: no SQL, no model.
"""

from __future__ import annotations

import re

from memengine import fact_mood, fact_person
from memengine.fact_lexicon import CESSATION, NEGATIONS, _set, fold_text
from memengine.fact_quit import QUIT_VERBS
from memengine.fact_types import Verdict

__all__ = ["REASON", "diet", "turned"]

REASON = "the person's diet turned"

_VEG = _set("vegetarian vegan veggie pescatarian",
            "vegetarien vegetarienne vegetariens vegetariennes vegane vegetalien vegetalienne",
            "vegetariano vegetariana vegetarianos vegetarianas vegano vegana veganos veganas",
            "vegetarisch vegetarier vegetarierin veganer veganerin",
            "vegetariano vegetariana vegano vegana", "vegetariano vegetariana vegano vegana vegani",
            "vegetarier vegetarische veganist veganistisch veganistische")
_MEAT = _set("meat", "viande", "carne", "fleisch", "carne", "carne", "vlees")
_EAT = _set("eat eats eating ate eaten", "mange manger mangent mangeait remange", "come comer comiendo comio",
            "isst essen gegessen ass", "come comer comeu", "mangia mangiare mangiato", "eet eten at gegeten")
_WORD = re.compile(r"[^\W\d_]+")


def diet(text: str) -> str | None:
    """"veg" / "meat" when ``text`` says whether someone eats meat, else None (both read: None)."""
    words = _WORD.findall(fold_text(text))
    ws = set(words)
    veg = bool(ws & _VEG)
    meat_said = bool(ws & _MEAT) and (bool(ws & _EAT) or bool(ws & QUIT_VERBS) or "back" in ws)
    denied = bool(ws & (NEGATIONS | CESSATION | QUIT_VERBS)) or "geen" in ws or "kein" in ws or "keine" in ws
    if meat_said and denied:
        veg = True
        meat_said = False
    if veg and meat_said:
        return None
    return "veg" if veg else "meat" if meat_said else None


def turned(old: str, new: str) -> Verdict | None:
    """A verdict when ``old`` and ``new`` say one person's diet two ways, else None (see the module docstring)."""
    if not fact_person.same_person(old, new) or fact_mood.unasserted(new):
        return None
    a, b = diet(old), diet(new)
    if a is None or b is None or a == b:
        return None
    return Verdict("slot", f"{REASON}: {a} -> {b}", 0.8)
