"""Where two fact sentences look alike but are not one fact, or not one slot (used by memengine/facts.py).

- :func:`name_articles`: a name carries its article ("El Salvador", "La Paz", "Le Mans"): "Salvador" /
  "El Salvador" are two places, never a duplicate.
- :func:`count_changed`: "in the drawer" / "in the drawers": how many is part of the value (the subject
  and the verb may inflect: "The deploys run" / "The deploy runs").
- :func:`other_boundary`: "the clinic closes at 6pm" / "opens at 8am": another end of the same thing,
  never an update of it (boundaries in five languages: memengine/fact_cue_lexicon.py).
- :func:`kin_added`: "I'm reading The Hobbit" / "my son is reading Dune": the newer sentence opens on a
  kinship word the older lacks, so it is someone else's fact (dropping one is not: "Our daughter's swim
  class is at 4:30" / "swim class moved to 5:15").
- :func:`trip_added`: "Jake lives in Denver" / "Jake is flying to Seattle for a conference", "Dr. Martin est
  en vacances jusqu'au 15": a trip, a holiday, a stay away is for a while, never a new value.

Pure functions: no SQL, no model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memengine import fact_cue_lexicon
from memengine.fact_lexicon import STOPWORDS, fold
from memengine.fact_view import Fact

__all__ = ["count_changed", "kin_added", "name_articles", "other_boundary", "trip_added"]

# A capitalised word right before another, not first in the sentence nor after a full stop.
_BEFORE_A_NAME = re.compile(r"(?<!^)(?<![.!?]\s)(?<=\s)([A-ZÀ-Ý][\w'’-]*)(?=\s+[A-ZÀ-Ý])")
# A bare time ("the standup is at 9:15") reads as the start: "starts at 9:45" is the same end.
_IMPLIED_BY_A_BARE_TIME = frozenset(("start", "open", "depart"))


def name_articles(text: str) -> frozenset[str]:
    """The function words a name carries inside the sentence ("el" of "El Salvador")."""
    return frozenset(k for k in (fold(m.group(1)) for m in _BEFORE_A_NAME.finditer(text)) if k in STOPWORDS)


def count_changed(fa: Fact, fb: Fact, i: int, j: int) -> bool:
    """Whether aligned words ``fa.words[i]`` / ``fb.words[j]`` of the value part differ only by a plural
    ending ("drawer" / "drawers"): how many is part of the value."""
    wa, wb = fa.words[i], fb.words[j]
    if wa.key == wb.key or i < fa.subject_end or j < fb.subject_end or i == fa.predicate or j == fb.predicate:
        return False
    a, b = sorted((fold(wa.text), fold(wb.text)), key=len)
    return b in (a + "s", a + "es")


def other_boundary(fa: Fact, fb: Fact) -> bool:
    """Whether ``fb`` times another end (opens / closes, starts / ends, departs / arrives) of the thing
    ``fa`` times."""
    # (keys keep "ß": "schließt" is the table's "schliesst"; a bare hour, "cierra a las 22", reads as a number)
    ends_a = {g for g in (fact_cue_lexicon.BOUNDARY.get(_key(k)) for k in fa.keys) if g}
    ends_b = {g for g in (fact_cue_lexicon.BOUNDARY.get(_key(k)) for k in fb.keys) if g}
    ends = ends_b - ends_a - (set() if ends_a else _IMPLIED_BY_A_BARE_TIME)
    return bool(ends) and any(v.kind in ("time", "date", "weekday", "number") for v in fb.values)


def _key(word: str) -> str:
    """A word as the boundary table holds it (folded, "ß" written "ss")."""
    return fold(word).replace("ß", "ss")


_WORDS = re.compile(r"[^\W\d_]+")
_SON_OWNERS = frozenset("my our your his her their".split())  # (French "son" is "his / her")
KIN_OPENING = 3  # the words a subject's kinship word stands within ("my son is", "la hermana de Marta")
# "moved to Kyoto with my wife": who comes along, not whose fact it is
_WITH = frozenset(fold(w) for w in "with avec con com mit insieme".split())
# German "Frau" / "Mann" are "Mrs" / "man" unless a possessive owns them: "meine Frau", "bei meinem Mann"
_SPOUSE = {"frau": "wife", "mann": "husband"}
_GERMAN_POSSESSIVE = re.compile(r"(?:mein|dein|sein|ihr|unser|euer)(?:e|er|em|en|es)?$")


def _kin(words: Sequence[str], spouse: bool = False) -> set[str]:
    out = set()
    for i, w in enumerate(words):
        g = fact_cue_lexicon.KIN.get(w) or (
            _SPOUSE.get(w) if spouse and i and _GERMAN_POSSESSIVE.match(words[i - 1]) else None)
        if g is None or w in ("son", "sons") and (i == 0 or words[i - 1] not in _SON_OWNERS):
            continue
        if any(b in _WITH for b in words[max(0, i - 2):i]):
            continue  # "with my wife", "com o namorado": who comes along
        out.add(g)
    return out


def kin_added(old: str, new: str, opening: int | None = KIN_OPENING, spouse: bool = False) -> bool:
    """Whether ``new`` holds a kinship word ``old`` does not hold anywhere — in its first ``opening`` words
    (None: anywhere, but after "with"): someone else's fact, never an update of ``old``. ``spouse``: German
    "Frau" / "Mann" after a possessive count too ("bei meiner Frau"; the learned decision's features and the
    rules read them as before, where its thresholds were fitted)."""
    words = [fold(w) for w in _WORDS.findall(new)]
    found = _kin(words[:opening] if opening is not None else words, spouse)
    return bool(found) and not found <= _kin([fold(w) for w in _WORDS.findall(old)], spouse)


# A trip, a holiday, a stay away (six languages): for a while, not a new value of where or who.
_TRIP = ("trip", "vacation", "holiday", "holidays", "travelling", "traveling", "travelled", "traveled", "flying to",
         "visiting", "conference", "spent the weekend", "for the weekend", "on leave",
         "vacances", "voyage", "en deplacement", "sejour", "a passe le week-end", "en conge",
         "viaje", "viajo", "vacaciones", "de visita", "de viaje", "paso el fin de semana", "de permiso",
         "urlaub", "reise", "verreist", "dienstreise", "im urlaub", "auf reisen",
         "ferias", "viagem", "viajou", "passou o fim de semana", "passou as ferias", "de licenca",
         "vacanza", "vacanze", "viaggio", "in gita", "in trasferta", "in ferie")
_TRIP_RE = re.compile(r"(?<![\w'-])(?:" + "|".join(re.escape(w) for w in sorted(_TRIP, key=len, reverse=True))
                      + r")(?![\w'-])")


def trip_added(old: str, new: str) -> bool:
    """Whether ``new`` tells of a trip, a holiday or a stay away that ``old`` does not mention (a
    holiday's own date may change: "the holiday is booked for June 3" / "holiday moved to June 10")."""
    return bool(_TRIP_RE.search(fold(new.lower()))) and not _TRIP_RE.search(fold(old.lower()))
