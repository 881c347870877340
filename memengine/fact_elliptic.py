"""A measurement restated without its subject: "My resting heart rate is 72 bpm" / "Down to 64
bpm this month", "I weigh 82 kg" / "Now at 78 kg", "Mon poids est de 80 kg" / "Descendu à 76 kg",
"Mein Ruhepuls liegt bei 70 bpm" / "Jetzt bei 62 bpm", "O meu peso é 70 kg" / "Subiu para 74 kg".

People write the new value of a number they track as a fragment: a direction or "now" marker, the
number with its unit, at most a time phrase ("this month", "since January", "as of last week",
"ce mois-ci", "seit Januar", "desde enero"). Nothing names the subject, so memengine/facts.py
has no frame to align. :func:`restated` accepts exactly that shape and nothing more:

- ``new`` is the marker, one number and its unit, and an optional time phrase from a closed list
  (anything else, "during the run", "on rainy days", "for the water bill", "of range left",
  "after the race", names another reading or another thing, and the sentence is left alone);
- ``old`` states exactly one number in that unit and has a clear owner: it starts with a
  possessive ("my", "our", "mon", "mi", "mein", "o meu" ...), a first-person subject ("I weigh",
  "je pèse"), a possessor ("Dad's ...") or a definite article ("The car has ...");
- the two numbers differ, by no more than a factor of :data:`MAX_RATIO`, and in the marker's
  direction ("down to" a smaller one, "up to" a larger one).

memengine/supersession.py applies such a verdict only when it is the one candidate that reads so
(two facts in kg, "I weigh 82 kg" and "My suitcase weighs 23 kg", leave "Now at 78 kg" unowned).
Pure: no SQL, no I/O.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine.fact_lexicon import fold
from memengine.fact_tokens import guess_lang

__all__ = ["REASON", "fragment", "restated"]

REASON = "restated without its subject"

_MARKERS = (
    "down to", "up to", "now at", "now down to", "now up to", "now", "back down to", "back up to", "dropped to",
    "fell to", "rose to", "went up to", "went down to", "increased to", "reduced to", "lowered to", "raised to",
    "descendu a", "descendue a", "descendus a", "monte a", "montee a", "passe a", "passee a", "maintenant a",
    "desormais a", "baisse a", "tombe a", "tombee a", "maintenant",
    "bajo a", "bajado a", "subio a", "subido a", "ahora en", "ahora a", "ya en", "ahora",
    "jetzt bei", "nun bei", "mittlerweile bei", "inzwischen bei", "runter auf", "gesunken auf", "gestiegen auf",
    "jetzt auf", "jetzt nur noch", "nur noch", "jetzt",
    "desceu para", "desceu a", "subiu para", "subiu a", "baixou para", "caiu para", "agora em", "agora a",
    "agora com", "agora",
)
# The first word of a marker that says which way the number went.
_UP = frozenset(("up", "rose", "increased", "raised", "monte", "montee", "subio", "subido", "subiu", "gestiegen"))
_DOWN = frozenset(("down", "dropped", "fell", "reduced", "lowered", "descendu", "descendue", "descendus", "baisse",
                   "tombe", "tombee", "bajo", "bajado", "runter", "gesunken", "desceu", "baixou", "caiu"))
# A new value this many times the old one (or its fraction) is another number, not this one's update.
MAX_RATIO = 5.0
_TIME_WORDS = (
    r"(?:this|last|past)\s+(?:week|month|year|morning|quarter|season)|these\s+days|lately|recently|today|now|"
    r"since\s+[\w' ]{1,30}|as\s+of\s+[\w' ]{1,25}|"
    r"ce\s+mois(?:-ci)?|cette\s+(?:semaine|annee)|cette\s+semaine|depuis\s+[\w' ]{1,30}|aujourd'hui|maintenant|"
    r"desormais|"
    r"este\s+(?:mes|ano|año)|esta\s+semana|desde\s+[\w' ]{1,30}|hoy|ahora|ya|"
    r"diese\s+woche|diesen\s+monat|dieses\s+jahr|seit\s+[\w' ]{1,30}|heute|jetzt|"
    r"este\s+(?:mes|ano)|esta\s+semana|hoje|agora"
)
_NUMBER = r"(\d+(?:[.,]\d+)?)\s*([^\W\d_][^\s\d.,;!?]*(?:\s*/\s*[^\W\d_]+)?|%|€|\$)"
_FRAGMENT = re.compile(
    rf"^\s*(?:{'|'.join(re.escape(m) for m in sorted(_MARKERS, key=len, reverse=True))})\s+{_NUMBER}"
    rf"(?:\s*,?\s*(?:{_TIME_WORDS}))?\s*[.!]?\s*$", re.I)
_IN_OLD = re.compile(_NUMBER)
# One name for a unit written several ways.
_UNITS = {
    "kg": "kg", "kgs": "kg", "kilo": "kg", "kilos": "kg", "kilogram": "kg", "kilograms": "kg", "kilogramm": "kg",
    "kilogrammes": "kg", "kilogramos": "kg", "quilos": "kg", "lb": "lb", "lbs": "lb", "pounds": "lb",
    "km": "km", "kms": "km", "kilometres": "km", "kilometers": "km", "kilometros": "km", "kilometer": "km",
    "mi": "mi", "miles": "mi", "bpm": "bpm", "mbps": "mbps", "gbps": "gbps", "mmhg": "mmhg",
    "mg": "mg", "g": "g", "mg/dl": "mg/dl", "g/l": "g/l", "mmol/l": "mmol/l", "%": "%",
    "eur": "eur", "euro": "eur", "euros": "eur", "€": "eur", "dollars": "usd", "dollar": "usd", "$": "usd",
    "usd": "usd", "pounds sterling": "gbp", "gbp": "gbp",
    "minutes": "min", "minute": "min", "min": "min", "mins": "min", "minutos": "min", "minuten": "min",
    "hours": "h", "hour": "h", "heures": "h", "horas": "h", "stunden": "h",
    "steps": "steps", "pas": "steps", "pasos": "steps", "schritte": "steps", "passos": "steps",
    "cigarettes": "cigarettes", "cigarettes a day": "cigarettes", "cups": "cups", "tasses": "cups",
    "tazas": "cups", "tassen": "cups", "chavenas": "cups",
}
_OWNERS = frozenset(fold(w) for w in (
    "my our i we the mon ma mes notre nos je j le la les mi mis nuestro nuestra yo el "
    "mein meine meinen unser unsere ich der die das meu minha nosso nossa eu").split())
_PT_ARTICLES = frozenset(("o", "a", "os", "as"))  # (English "a" is no owner: "A typical adult weighs ...")
_FIRST_WORD = re.compile(r"[^\W\d_]+(?:'s)?", re.I)


def _unit(text: str) -> str:
    k = fold(re.sub(r"\s+", "", text))
    return _UNITS.get(k, "")


def _number(text: str) -> float:
    return float(text.replace(",", "."))


@lru_cache(maxsize=1024)  # (one new sentence, ~20 candidates)
def _match(text: str) -> re.Match[str] | None:
    return _FRAGMENT.match(fold(text.replace("’", "'")))


def fragment(text: str) -> bool:
    """Whether ``text`` is such a fragment ("Down to 64 bpm this month"): it names nothing but its
    number, so its nearest facts in meaning are far (cosine ~0.4): memengine/supersession.py compares
    it with them whatever the cosine."""
    return _match(text) is not None


def restated(old: str, new: str) -> tuple[str, str, str] | None:
    """(unit, old number, new number) when ``new`` restates ``old``'s one number in that unit
    without naming its subject (see the module docstring)."""
    m = _match(new)
    if m is None:
        return None
    unit = _unit(m.group(2))
    if not unit:
        return None
    same = [(n, u) for n, u in ((x.group(1), _unit(x.group(2))) for x in _IN_OLD.finditer(fold(old))) if u == unit]
    if len(same) != 1:
        return None
    first = _FIRST_WORD.search(old)
    head = fold(first.group(0)) if first is not None else ""
    if first is None or not (head in _OWNERS or first.group(0).lower().endswith("'s")
                             or head in _PT_ARTICLES and guess_lang(old) == "pt"):
        return None  # no clear owner: "A typical adult weighs 70 kg"
    was, now = _number(same[0][0]), _number(m.group(1))
    if was <= 0 or now <= 0 or was == now or not 1 / MAX_RATIO <= now / was <= MAX_RATIO:
        return None  # (the same number, or one too far off to be this one's new value: "1200 euros" / "130 euros")
    head = fold(new).split()[0] if new.split() else ""
    if head in _UP and now < was or head in _DOWN and now > was:
        return None  # "Down to 90" does not follow 82
    return unit, same[0][0], m.group(1)
