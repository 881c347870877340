"""Reported speech: "Ana said the team meeting moved to Tuesdays" states that the meeting moved.

A fact is often learned from someone ("the landlord says rent goes to 1520 in June", "o síndico disse que
a reunião passou pra quinta", "le prof a dit que le yoga passe au jeudi", "Trainer meinte, das Training
ist ab jetzt um 17:30", "Marco ha detto che la riunione è spostata a martedì"). The reporting frame — a
short subject, a verb of saying, "that" — hides the clause from the frame rules (its subject is the
speaker) and from the learned decision's value features. :func:`reported` returns the clause said, so a
write compares *that* with the old fact (memengine/supersession.py); its mood is read as usual: "Ana
said the meeting might move" is a plan (memengine/fact_mood.py), "Ana asked if ..." is no report.

The frame is read from the sentence's start only: a subject of at most four words (no verb of its
own, no "if"), then a verb of saying in one of six languages (English, French, Spanish, German,
Portuguese, Italian), then the clause; or "according to X," / selon / según / segundo / laut / secondo; or
told without a speaker ("we were told", "nos acaban de avisar que", "on m'a dit que", "mir wurde gesagt").
Pure: no SQL, no I/O.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["reported"]

# verbs of saying, as they follow the speaker; a conjunction "that" after them is part of the frame
_SAY = (
    # English
    "said", "says", "told me", "told us", "tells me", "tells us", "mentioned", "confirmed", "announced",
    "let me know", "let us know", "texted", "emailed", "wrote", "just said", "just told me", "just told us",
    # French
    "a dit", "dit", "m'a dit", "nous a dit", "m'a confirmé", "a confirmé", "a annoncé", "a prévenu", "a écrit",
    "m'a écrit", "nous a prévenus",
    # Spanish
    "dijo", "dice", "me dijo", "nos dijo", "ha dicho", "me ha dicho", "confirmó", "avisó", "nos avisó",
    "me avisó", "comentó", "me contó", "escribió",
    # Portuguese
    "disse", "diz", "me disse", "nos disse", "falou", "avisou", "confirmou", "contou", "escreveu",
    # German (a comma may follow)
    "hat gesagt", "sagt", "sagte", "meinte", "meint", "hat geschrieben", "schrieb", "hat bestätigt",
    "hat mitgeteilt",
    # Italian
    "ha detto", "dice", "mi ha detto", "ci ha detto", "ha confermato", "ha scritto", "ha avvisato",
    "mi ha scritto",
    # Dutch (facts27)
    "zegt", "zei", "heeft gezegd", "vertelde", "vertelt", "liet weten", "schreef",
)
_THAT = r"(?:that|que|qu'|dass|daß|che|ch'|dat)"
# the speaker: one to four words, none of them a verb of saying itself or "if" / "whether"
_SPEAKER = r"((?:[\w.'’&-]+\s+){0,3}?[\w.'’&-]+)"
_SAY_RE = re.compile(
    rf"^\s*{_SPEAKER}\s+(?P<verb>{'|'.join(re.escape(s) for s in sorted(sorted(set(_SAY)), key=len, reverse=True))})"
    rf"\s*,?\s+(?:{_THAT}\s*)?(?P<clause>\S.*)$", re.IGNORECASE | re.DOTALL)
# told without a speaker: "we were told the flight leaves at 11:15", "nos acaban de avisar que ...", "on m'a dit que"
_TOLD = (
    "we were told", "i was told", "we've been told", "i've been told", "we just heard", "word is",
    "on m'a dit", "on nous a dit", "on nous a prévenus", "on m'a prévenu", "on vient de nous dire",
    "me dijeron", "nos dijeron", "me han dicho", "nos han dicho", "me avisaron", "nos avisaron",
    "nos acaban de avisar", "me acaban de avisar", "nos acaban de decir", "me acaban de decir",
    "mir wurde gesagt", "uns wurde gesagt", "man hat uns gesagt", "man hat mir gesagt", "es hieß", "es heißt",
    "me disseram", "nos disseram", "fomos avisados", "fui avisado", "fui avisada", "acabaram de avisar",
    "mi hanno detto", "ci hanno detto", "ci hanno avvisato", "mi hanno avvisato", "ci hanno appena detto",
)
_TOLD_RE = re.compile(
    rf"^\s*(?:{'|'.join(re.escape(s) for s in sorted(_TOLD, key=len, reverse=True))})\s*[,:]?\s+(?:{_THAT}\s*)?"
    r"(?P<clause>\S.*)$", re.IGNORECASE | re.DOTALL)
_ACCORDING_RE = re.compile(
    r"^\s*(?:according to|selon|d'après|según|segundo|de acordo com|laut|secondo)\s+[^,]{1,40},\s*(?P<clause>\S.*)$",
    re.IGNORECASE | re.DOTALL)
# a speaker that is no speaker: "if", "whether", a question word, or a sentence already under way
_NOT_SPEAKER = re.compile(r"(?<![\w'-])(?:if|whether|si|se|wenn|falls|ob|what|who|whoever|when|why|how)(?![\w'-])",
                          re.IGNORECASE)


@lru_cache(maxsize=4096)
def reported(text: str) -> str:
    """The clause ``text`` reports ("Ana said the meeting moved" -> "the meeting moved"), or ``text``
    itself when it reports nothing. A clause of fewer than two words is no statement (``text``)."""
    m = _SAY_RE.match(text)
    if m is not None and _NOT_SPEAKER.search(m.group(1)):
        m = None
    if m is None:
        m = _TOLD_RE.match(text) or _ACCORDING_RE.match(text)
    if m is None:
        return text
    clause = m.group("clause").strip()
    if len(clause.split()) < 2:
        return text
    if m.re is _SAY_RE:  # (the speaker is whom a clause with no subject of its own is about: memengine/fact_speaker.py)
        from memengine import fact_speaker

        clause = fact_speaker.about_speaker(m.group(1), m.group("verb"), clause)
    return clause
