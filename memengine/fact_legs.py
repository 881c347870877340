"""Two legs of one journey are two facts: the way there and the way back.

"Flight to Lagos on 18 December at 07:10" and, later, "Flight back from Lagos on 3 January at 22:40" name
the same kind of thing (a flight, Lagos, a day, a time) with other values, so the period rule read the
second as the first moved to another day and retired it (lead, session 12: a blind agent probe; the outbound
flight left recall). The way back is a second journey, not a new date for the first. The same holds for
"the outbound train on the 3rd" / "the return train on the 10th" and for a place said once as where one goes
and once as where one comes from ("ferry to Mallorca" / "ferry from Mallorca").

:func:`another_leg` says so when both sentences speak of a journey (a means of travel, or a verb of going)
and exactly one of them is the way back: a word of return, or the place the other goes TO said as where it
comes FROM. A moved return ("return flight now on 4 January" after "return flight on 3 January") and a moved
outbound ("the flight to Lagos moved to the 19th") are the same leg and stay updates. Pure: no SQL, no I/O.
"""

from __future__ import annotations

import re

from memengine.fact_lexicon import fold, fold_text

__all__ = ["another_leg"]

# a means of travel or a word of going, in the languages the fact rules read (en, es, pt, fr, it, de, nl, pl)
_JOURNEY = re.compile(
    r"\b(?:flights?|fly(?:ing)?|flew|train|coach|ferry|trip|journey|"
    r"vuelos?|tren|ferri|viaje|trayecto|"
    r"voos?|comboio|viagem|"
    r"vols?|navette|traversee|trajet|"
    r"vol[oi]|treno|traghetto|viaggio|"
    r"(?:hin|ruck|heim|aus)?(?:flug|fluge|fahrt|reise)|zug|fahre|"
    r"(?:terug|heen)?(?:vlucht|reis)|trein|veerboot|"
    r"pociag|podroz)\b")
# the way back, said so: "back from" / "flight back" (not "rolled back", "back to Gradle": a revert is an update),
# "return", "retour", "vuelta", "regreso", "volta", "regresso", "ritorno", "Rückflug", "zurück von", "terugvlucht",
# "powrót"
_BACK = re.compile(
    r"\b(?:back\s+(?:from|home)|(?:flight|train|ferry|trip|way|journey)\s+back|return(?:ing)?|homeward|inbound|"
    r"retour|vuelta|regreso|volta|regresso|ritorno|"
    r"ruck(?:flug|fahrt|reise|weg)|zuruck\s+(?:von|aus|nach\s+hause)|heimflug|heimfahrt|"
    r"terug(?:vlucht|reis|weg|rit)|terug\s+van|powrot\w*)\b")
# "to X" / "from X" with X a capitalised place (folded afterwards)
_TO = re.compile(r"\b(?:to|a|para|pour|vers|per|nach|naar|do)\s+([A-ZÀ-Þ][\w'-]+)")
_FROM = re.compile(r"\b(?:from|de|desde|da|depuis|aus|von|vanuit|van|z)\s+([A-ZÀ-Þ][\w'-]+)")


def _places(pattern: re.Pattern[str], text: str) -> set[str]:
    return {fold(m.group(1).lower()) for m in pattern.finditer(text)}


def _back(text: str) -> bool:
    """Whether ``text`` speaks of the way back (a word of return)."""
    return bool(_BACK.search(fold_text(text)))


def another_leg(old: str, new: str) -> str:
    """Why ``new`` is the other leg of ``old``'s journey, not a change of it ("" when it is not): both speak of
    a journey and exactly one is the way back (a word of return), or one goes TO a place the other comes FROM."""
    if not (_JOURNEY.search(fold_text(old)) and _JOURNEY.search(fold_text(new))):
        return ""
    if _back(old) != _back(new):
        return "the way back of the other's journey"
    if _places(_TO, old) & _places(_FROM, new) and not _places(_TO, old) & _places(_TO, new) \
            or _places(_FROM, old) & _places(_TO, new) and not _places(_FROM, old) & _places(_FROM, new):
        return "one goes to the place the other comes from"
    return ""
