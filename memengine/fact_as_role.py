"""A person's new job said by the role they now hold, "as" a role (facts32).

"Priya is a physiotherapist at Southmead Hospital" / "Priya started as a clinical lead at the Bristol Royal
Infirmary in April"; "Bram is buschauffeur bij Qbuzz" / "Bram rijdt tegenwoordig 's nachts als taxichauffeur";
"Davide fa il cameriere in un'osteria" / "Davide ora fa il cuoco alla trattoria Da Me"; "O Miguel é programador"
/ "O Miguel agora faz noites como segurança no porto". No verb of being hired (memengine/fact_hired.py) is said:
the newer names the role it now holds, after a word of "as" ("as", "als", "comme", "como", "come"; Italian and
Portuguese "fa il" / "faz de" too), and either a verb of starting ("started as", "hat als … angefangen",
"começou como", "ha iniziato come") or a word of now ("now", "tegenwoordig", "agora", "ora", "jetzt").

Read only when the older states the same person's job (memengine/fact_hired.py's ``job``), the role named is
one the older does not say, and the newer is asserted, is no "too" / "as well", names no weekday (a role on
Saturdays is a second one) and no volunteering. Pure: no SQL, no model.
"""

from __future__ import annotations

import re

from memengine import fact_crossed, fact_hired, fact_kin, fact_mood, facts
from memengine.fact_lexicon import fold
from memengine.fact_types import Verdict

__all__ = ["REASON", "role_now"]

REASON = "a new role said as a role"

_AS = r"(?:as|als|comme|como|come)"
_ARTICLE = r"(?:(?:a|an|the|een|de|het|ein|eine|einen|un|une|le|la|l'|el|um|uma|o|il|lo|uno|una)\s+)?"
# A verb of starting, then (within a few words) a word of "as": the role follows.
_STARTED = re.compile(r"(?<![\w])(?:" + "|".join((
    r"(?:started|starts|starting|began|begins|begun)(?: (?:work|working|out))?",
    r"(?:a|ont) (?:commence|debute)(?: a travailler)?",
    r"(?:ha|han) (?:empezado|comenzado|arrancado)(?: a trabajar)?",
    r"(?:comecou|comecaram|comecou a trabalhar|comecaram a trabalhar|estreou-se)",
    r"(?:ha|hanno) (?:iniziato|cominciato)(?: a lavorare)?",
    r"(?:is|zijn) (?:begonnen|gestart)",
)) + r")(?: [\w'-]+){0,2}? " + _AS + r" " + _ARTICLE + r"(?P<role>[\w-]+)")
# The German verb of starting comes last ("hat als Fahrdienstleiter bei der Deutschen Bahn angefangen").
_STARTED_DE = re.compile(r"(?<![\w])(?:hat|haben|ist|sind) (?:[\w'-]+ ){0,2}?als " + _ARTICLE + r"(?P<role>[\w-]+)")
_DE_LAST = re.compile(r"\b(?:angefangen|begonnen|eingestiegen)\b")
# A word of now, then (within a few words) a word of "as" (or Spanish / Portuguese "trabaja de"): the role;
# Italian and Portuguese say a job by "fa il" / "faz de" ("ora fa il cuoco"), read when no "as" is said.
_NOW = r"(?:now|nowadays|tegenwoordig|nu|jetzt|inzwischen|maintenant|desormais|ahora|agora|ora|adesso)"
_NOW_AS = re.compile(r"(?<![\w])" + _NOW + r"(?: [\w'-]+){0,4}? (?:" + _AS + r"|(?<=trabaja )de|(?<=trabalha )de) "
                     + _ARTICLE + r"(?P<role>[\w-]+)")
_NOW_FA = re.compile(r"(?<![\w])" + _NOW + r"(?: [\w'-]+){0,2}? (?:fa|faz) (?:il|la|lo|l'|o|a|de) ?(?P<role>[\w-]+)")
# A role of an organisation said with a copula ("O Rui é motorista da Carris", "Ines is accountant of Veolia")
_ROLE_OF = re.compile(r"^(?:\w+ )?[A-ZÀ-Ý][\w'’-]* (?:é|e|es|est|ist|is|è) [\w-]+ (?:da|do|de|del|della|di|van|von|of|du) "
                      r"[A-ZÀ-Ý]")
# The older holds a job said so too ("Davide fa il cameriere in un'osteria")
_DOES_JOB = re.compile(r"(?<![\w])(?:fa|faz) (?:il|la|lo|l'|o|a|de) ?[\w-]+ (?:in|a|al|alla|allo|nel|nella|na|no|numa|num|em) ")
_ADDED = re.compile(r"\b(?:too|as well|also|auch|ebenfalls|aussi|tambien|tambem|anche|pure|ook|second|zweiten|"
                    r"volunteer|volunteers|volunteering|vrijwilliger|ehrenamtlich|benevole|voluntario|voluntaria|"
                    r"volontario|volontaria)\b")
_WORD = re.compile(r"[^\W\d_][\w'-]*")
# Words after a word of "as" that are no role ("as well", "as usual", "de noche", "de nuevo")
_NO_ROLE = frozenset("well usual before always ever nuevo noche dia manana tarde vez casa novo noite".split())


def _person_first(old: str) -> bool:
    """Whether ``old``'s subject starts with its person's name (an article before it: "A Beatriz", "Il Davide"),
    not with a thing or a relative of theirs ("El fisio de Andrés es Sergio", "Jonas' Hausarzt ist Dr. Krüger",
    "Katrins Zahnarzt": the physio's or the doctor's job, not the person's)."""
    words = _WORD.findall(old.replace("’", "'"))[:_HEAD]
    if len(words) > 1 and fold(words[0].lower()) in _ARTICLES:
        words = words[1:]
    if not words or not words[0][:1].isupper() or words[0].endswith(("'", "'s")):
        return False
    return "doctor" not in fact_crossed.attributes(old) and not any(fold(w.lower()) in fact_kin.KIN for w in words)


_ARTICLES = frozenset("a o il la lo el le the de het der die das".split())
_HEAD = 4  # the words a subject is read in


def _role(new: str) -> str:
    """The role ``new`` says its subject started as, or now holds, folded; else ""."""
    low = fold(new.lower().replace("’", "'"))
    m = _STARTED.search(low) or (_STARTED_DE.search(low) if _DE_LAST.search(low) else None) \
        or _NOW_AS.search(low) or _NOW_FA.search(low)
    if not m or m.group("role") in _NO_ROLE:
        return ""
    return m.group("role")


def role_now(old: str, new: str) -> Verdict | None:
    """A verdict when ``new`` says the older's person now holds a role, said "as" that role, that the older's
    job does not name, else None (see the module docstring)."""
    if not fact_crossed.same_whose(old, new) or not _person_first(old) or fact_mood.unasserted(new):
        return None
    if not fact_hired.job(old) and not ((_DOES_JOB.search(fold(old.lower().replace("’", "'"))) or _ROLE_OF.match(old))
                                        and not facts.analyse(old).values):
        return None
    low = fold(new.lower().replace("’", "'"))
    if _ADDED.search(low) or any(fact_crossed.day_of(w) is not None for w in _WORD.findall(low)):
        return None
    role = _role(new)
    said = {fold(w.lower()) for w in _WORD.findall(old)}
    # (the role the older names, held somewhere the older does not name, is a new job too: "começou como
    # enfermeira de família no centro de saúde de Matosinhos" after "é enfermeira no Hospital de São João")
    if not role or role in said and not any(w[:1].isupper() and fold(w.lower()) not in said
                                            for w in _WORD.findall(new)[1:]):
        return None
    return Verdict("slot", f"{REASON}: {role}", 0.8)
