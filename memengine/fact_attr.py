"""Which of a person's attributes a fact is about, read from the words that name it (facts30).

A person's facts in one agent's store share the person, the city, the partner: "Lucía y Andrés se han ido
a vivir juntos a Benimaclet" and "Andrés trabaja para una empresa de reformas en Paterna" name the same people
and places, and the multilingual model puts them near; the learned same-slot decision (memengine/fact_slot.py)
read such pairs as one slot (last round: a move linked to a new job at p=0.94). Where each sentence names its
attribute by a word of its own — where one lives (or moved to live), where or as what one works, how one gets
there, which school a child goes to — two sentences naming two attributes and none in common are two slots:
:func:`other_attribute`, a guard of the learned decision (the rules read their own frames).

Read conservatively: a sentence naming no such word names no attribute (a job said as "X is a nurse", a
provider, a dose: the score decides as before); getting to work is the commute, not the job ("va al trabajo
en bici"); teaching at a school is a job, not the school ("insegna al liceo Righi"). Words of seven languages,
accents folded. Pure: no SQL, no model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine.fact_lexicon import fold

__all__ = ["ATTRIBUTES", "attributes", "other_attribute"]

# word -> attribute; a word ending in "*" is a stem (every word it begins)
_LEXICON: dict[str, str] = {}
ATTRIBUTES: dict[str, str] = {
    "home": """live lives living lived relocated relocating wohnt wohnen wohnte umgezogen
        gezogen zieht ziehen
        habite habitent habitait demenage demenagent demenagé vive viven vivia vivir mudado mudaron mudamos mudan
        mudando
        vivem vivia viver morar mora moram mudou mudaram abita abitano abitava vivono trasferit* woont wonen
        woonde verhuisd verhuist verhuizen""",
    "work": """works working worked job jobs employer employed hired career arbeitet arbeiten arbeitete job
        arbeitgeber eingestellt travaille travaillent travaillait boulot emploi embauche embauchee poste trabaja
        trabajan trabajaba empleo contratado contratada lavora lavorano lavorava impiego assunto assunta
        werkt werken werkte baan aangenomen trabalha trabalham trabalhava emprego teaches teaching
        unterrichtet enseigne ensena insegna leciona lesgeeft""",
    "commute": """bus buses tram trams metro subway tube train trains cycles cycling bike bikes bicycle drives
        carpool bahn zug strassenbahn straßenbahn fahrrad rad radelt autobus treno bici bicicleta bicicletta fiets fietst
        fietsen comboio valenbisi velo""",
    "school": """school schools nursery kindergarten preschool schule grundschule gymnasium kita
        kindergarten ecole college lycee creche escuela colegio instituto guarderia scuola liceo asilo
        nido escola creche basisschool""",
}
for _attr, _words in ATTRIBUTES.items():
    for _w in _words.split():
        _LEXICON[_w] = _attr
_STEMS = tuple((w[:-1], a) for w, a in _LEXICON.items() if w.endswith("*"))
# English "move" is a home only before a place's name ("are moving to Brighton"; "got moved to day shifts" is not)
_MOVED_TO = re.compile(r"\b(?:move|moves|moved|moving)\s+(?:back\s+)?to\s+[A-Z]")
_WORD = re.compile(r"[^\W\d_]+")


@lru_cache(maxsize=4096)
def attributes(text: str) -> frozenset[str]:
    """The attributes ``text`` names by a word of :data:`ATTRIBUTES` (getting to work is the commute only;
    teaching at a school is work only)."""
    out: set[str] = set()
    for w in _WORD.findall(fold(text.lower())):
        attr = _LEXICON.get(w) or next((a for stem, a in _STEMS if w.startswith(stem)), None)
        if attr is not None:
            out.add(attr)
    if _MOVED_TO.search(text):
        out.add("home")
    if "commute" in out:
        out.discard("work")  # "fährt mit dem Rad zur Arbeit": how one gets to work
    if "work" in out:
        out.discard("school")  # "insegna al liceo", "teaches at a primary school": where one works
    return frozenset(out)


# (older's, newer's) attributes that are never one slot. A move is no job change; a new job may say where one
# is now ("sarah's in manchester now, new job" after "Sarah lives in Leeds": a labelled update), and teaching
# at a school may be said as the school alone ("ahora da clases en un instituto"), and a student's school
# gives way to a job: those are left to the score.
_APART = frozenset({("work", "home"), ("home", "school"), ("school", "home"),
                    *((a, "commute") for a in ("home", "work", "school")),
                    *(("commute", a) for a in ("home", "work", "school"))})


def other_attribute(old: str, new: str) -> str | None:
    """``"<old's>/<new's>"`` when both sentences name an attribute, none in common, and every older's
    attribute is apart from every newer's (:data:`_APART`), else None."""
    a, b = attributes(old), attributes(new)
    if not a or not b or a & b or not all((x, y) in _APART for x in a for y in b):
        return None
    return f"{'+'.join(sorted(a))}/{'+'.join(sorted(b))}"
