"""A note's opening label taken off (facts35): "Update: broadband is now Community Fibre", "Decided: Rosa comes every
Monday from next week", "FYI: …", "Mise à jour : …", "Aktualisierung: …", "Decidido: …".

An agent writing its notes opens a line with a word that says what kind of note it is. The word is no part of the
fact: left in, it reads as the sentence's subject — "Update" was read as a person named beside the older's
"user" (memengine/fact_person.py: "another person: ['update'] / ['user']") and vetoed a clear update; "Decided: Rosa
comes …" hid the frame "Rosa comes <day>" from the swap rule. :func:`unlabelled` gives the sentence after the label.

Only a closed list of note words, each right at the start and followed by a colon or a dash, is a label: "Drucker im
Büro: Brother …" (a label naming the subject) and "New printer: HP …" (a cue, memengine/fact_cue.py) stay whole.
Corrections ("Correction: …", "Korrektur: …") are memengine/fact_stated.py's own. Pure: no SQL, no I/O.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["unlabelled"]

# the words that open a note about a change or a decision, in six languages (lower case, accents kept and folded)
_LABELS = (
    "update", "updated", "status update", "decided", "decision", "note", "fyi", "heads up", "heads-up", "edit",
    "change", "changed", "changes", "news", "info",
    "aktualisierung", "änderung", "aenderung", "entschieden", "beschlossen", "entscheidung", "hinweis", "notiz",
    "mise à jour", "mise a jour", "décidé", "decide", "décision", "changement", "à noter", "a noter",
    "actualización", "actualizacion", "decidido", "decisión", "decision", "nota", "cambio", "aviso",
    "atualização", "atualizacao", "decisão", "decisao", "mudança", "mudanca",
    "aggiornamento", "deciso", "decisione", "modifica", "novità", "novita",
)
_LABEL_RE = re.compile(r"^\s*(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s+").replace(r"\-", r"[-\s]")
                                             for w in sorted(set(_LABELS), key=lambda w: (-len(w), w)))
                       + r")\s*(?::|\s[-–—])\s*", re.IGNORECASE)


@lru_cache(maxsize=4096)
def unlabelled(text: str) -> str:
    """``text`` without its opening note label ("Update: …", "Decided – …"); ``text`` itself when it has none or
    when fewer than two words would be left."""
    m = _LABEL_RE.match(text)
    if m is None:
        return text
    rest = text[m.end():].strip()
    if len(rest.split()) < 2:
        return text
    return rest[:1].upper() + rest[1:]
