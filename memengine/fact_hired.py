"""A person taken on somewhere else: the job the older fact says they hold is over (facts31).

"Nadia works as a product designer at Auto Trader" / "Nadia got taken on by the BBC as a senior UX designer",
"Hugo est infirmier aux urgences du CHU" / "Hugo a été recruté comme infirmier anesthésiste à la clinique",
"Rafa es electricista y trabaja por su cuenta" / "Rafa ha entrado en la plantilla de Emasesa", "Joost werkt als
data-analist bij de Gasunie" / "Joost is in dienst gekomen bij de RUG als onderzoeker". The newer says no "job"
word, nor the older's employer or role, and its vectors are far (0.37 for Joost's pair); what it says is
structural: its subject is the older's person (memengine/fact_person.py) and its verb is one of being HIRED —
the person is the one taken on (a passive or an intransitive arrival: "was hired", "got taken on", "a été
recruté", "la han contratado", "foi contratado", "è stato assunto", "wurde eingestellt", "is aangenomen", "ha
entrado en la plantilla", "is in dienst gekomen"), never one who hires ("Nadia hired a cleaner"). A teacher now
teaching at another school is read the same way (:func:`teaches_elsewhere`: "Lukas ist Lehrer an einer
Gesamtschule" / "Lukas unterrichtet seit den Sommerferien an einem Gymnasium"): the role's own verb, where it is
now done, said with a word of time or "now", and a place the older does not name.

The older must be that person's job (memengine/fact_own.py's reading: a verb of working, or a role said with a
copula and where it is held; teaching too, memengine/fact_attr.py's "work"), with no number, time or date (a
shift is another fact of the job). Guards: the newer is asserted; the older reports no change itself. Pure: no
SQL, no model.
"""

from __future__ import annotations

import re

from memengine import fact_attr, fact_mood, fact_own, fact_person, facts
from memengine.fact_change_words import CHANGE_WORDS
from memengine.fact_lexicon import _set, fold
from memengine.fact_types import Verdict

__all__ = ["REASON", "hired", "job", "teaches_elsewhere"]

REASON = "taken on elsewhere"

# Being hired, said with the person as the one taken on (matched on the folded sentence in lower case, a word
# boundary before each). An active "X hired Y" is no such phrase: only passives, clitic passives and arrivals.
_HIRED = re.compile(r"(?<![\w])(?:" + "|".join((
    # English: a passive, or taking a job / being taken on
    r"(?:was|were|got|get|gets|been|being|is|'s|has been|have been) (?:just |now |finally )?(?:hired|recruited|"
    r"taken on|employed|headhunted|appointed|poached|brought in|offered a (?:job|post|position|role))",
    r"(?:took|takes|taken|accepted|accepts|landed|lands|got|gets|started|starts|starting) (?:a|an|the) "
    r"(?:new )?(?:job|post|position|role|contract)",
    r"(?:started|starts|starting|began|begins) (?:work|working) (?:at|for|with)",
    # French
    r"(?:a ete|ont ete|est|sera|vient d'etre) (?:recrute|recrutee|embauche|embauchee|engage|engagee|nomme|nommee|"
    r"pris|prise|muté|mute|mutee|affecte|affectee)",
    r"(?:l'|les |la |le )(?:a|ont) (?:recrute|recrutee|embauche|embauchee|engage|engagee|pris|prise)",
    r"(?:a integre|a rejoint|est entre|est entree) (?:[\w'-]+ ){0,5}?(?:chez|comme) ",
    # Spanish
    r"(?:ha sido|han sido|fue|sera) (?:contratado|contratada|fichado|fichada|destinado|destinada|nombrado|nombrada|"
    r"trasladado|trasladada|seleccionado|seleccionada)",
    r"(?:la|lo|le|los|las) (?:han|ha|hayan) (?:contratado|fichado|cogido|destinado|nombrado|trasladado|"
    r"seleccionado)",
    r"(?:ha entrado|entro|ha empezado|empezo) (?:a trabajar|en la plantilla|de [a-z]+ en|como)",
    r"(?:ha fichado|fichó|ficho) por",
    # Portuguese
    r"(?:foi|foram|sera|tem sido) (?:contratado|contratada|admitido|admitida|chamado|chamada|nomeado|nomeada|"
    r"colocado|colocada|transferido|transferida)",
    r"(?:entrou|entraram) (?:para|na|no) (?:[\w'-]+ ){0,5}?como ",
    r"(?:foi|vai) trabalhar (?:para|na|no|com)",
    # Italian
    r"(?:e stato|e stata|sono stati|stato|stata) (?:assunto|assunta|assunti|preso|presa|chiamato|chiamata|"
    r"nominato|nominata|trasferito|trasferita)",
    r"(?:l'hanno|lo hanno|la hanno|l'ha) (?:assunto|assunta|preso|presa|chiamato|chiamata)",
    r"(?:e entrato|e entrata) (?:[\w'-]+ ){0,5}?(?:come|presso) ",
    r"(?:ha preso servizio|ha iniziato a lavorare|ha cominciato a lavorare)",
    # German (verb last: the participle alone, a passive's auxiliary before it)
    r"(?:bei|als|von) [\w. -]{1,40}? (?:eingestellt|angestellt|angeheuert|abgeworben|ubernommen worden)",
    r"(?:hat|haben) (?:bei|an|im|in der) [\w. -]{1,40}? (?:angefangen|begonnen)",
    r"(?:fangt|fängt|beginnt) (?:bei|an|im) [\w. -]{1,40}? an",
    # Dutch
    r"(?:is|zijn|werd|wordt) (?:aangenomen|aangesteld|in dienst genomen|benoemd)",
    r"(?:is|zijn) in dienst (?:gekomen|getreden|gegaan)",
    r"(?:is|zijn) (?:begonnen|gestart) (?:bij|als|aan|op)",
    r"(?:is|zijn) (?:gaan werken) (?:bij|als|aan|op)",
)) + r")(?![\w])")

# The verbs of teaching, and where they are done (folded): "teaches at", "unterrichtet an", "insegna al".
_TEACH = _set("teaches teaching taught", "enseigne enseignait", "ensena ensenaba", "unterrichtet unterrichtete",
              "ensina ensinava leciona", "insegna insegnava", "doceert lesgeeft")
# ("a" is none: an English or Portuguese article, a Spanish "to": "Owen's phone is on a Vodafone contract")
_AT = _set("at", "au aux dans", "en", "an am bei in im", "na no num numa em", "al alla allo nel nella presso",
           "op aan bij")
# a word of time or "now": the teaching is news, not a detail of the older's job
_SINCE = _set("now since", "maintenant depuis desormais", "ahora desde ya", "jetzt nun seit inzwischen mittlerweile",
              "agora desde ja", "adesso ora da", "nu sinds inmiddels")
# going to work is the commute, not the job ("Hugo va au boulot en Bicloo")
_GOES = _set("go goes went cycles cycled drives drove walks walked", "va vais vont allait", "va van iba",
             "fahrt fahrt geht ging radelt", "vai vao ia", "va vanno andava", "gaat ging fietst rijdt")
_COPULAS = _set("is", "est", "es", "ist", "e", "is")
_WORD = re.compile(r"[^\W\d_]+")
_REACH = 5  # words from the teaching verb to where it is done


def job(old: str) -> bool:
    """Whether ``old`` states its person's job: a verb of working, a role said with a copula where it is held,
    or a word of work (memengine/fact_attr.py), with no value of its own (a shift, a day, a number)."""
    words = [fold(w) for w in _WORD.findall(old)]
    if set(words) & CHANGE_WORDS:
        return False  # the older reports a change itself
    if set(words) & _GOES:
        return False  # how one gets to work
    # (a role said where it is held is a job, whatever it drives: "Karim est chauffeur de bus aux TCL")
    attrs = fact_attr.attributes(old)
    if not (set(words) & fact_own.WORK_VERBS or _role_at(words) or "work" in attrs and "commute" not in attrs):
        return False
    return not facts.analyse(old).values


def _role_at(words: list[str]) -> bool:
    """Whether folded ``words`` say a role held at a place: a copula, a word that is no participle, then where
    within :data:`_REACH` words ("est infirmier aux urgences", "ist Lehrer an einer Gesamtschule")."""
    for i, w in enumerate(words[:-1]):
        if w in _COPULAS and not fact_own._participle(words[i + 1]) and any(
                x in _AT for x in words[i + 2:i + 2 + _REACH]):
            return True
    return False


def _hired(new: str) -> str:
    """The phrase of being hired ``new`` says, else ""."""
    low = fold(new.lower().replace("’", "'"))
    m = _HIRED.search(low)
    return m.group() if m else ""


def teaches_elsewhere(old: str, new: str) -> str:
    """The place ``new`` says its person now teaches at, when it is none the older names (a word of time or
    "now" said), else ""."""
    ow = {fold(w) for w in _WORD.findall(old)}
    nw = [fold(w) for w in _WORD.findall(new)]
    if not set(nw) & _SINCE:
        return ""
    for i, w in enumerate(nw):
        if w not in _TEACH:
            continue
        for j in range(i + 1, min(len(nw), i + 1 + _REACH)):
            if nw[j] not in _AT:
                continue
            place = [x for x in nw[j + 1:j + 4] if len(x) > 3]
            if place and not set(place) & ow:
                return place[0]
    return ""


def hired(old: str, new: str) -> Verdict | None:
    """A verdict when ``new`` says the older's person was taken on somewhere (or now teaches elsewhere) and
    ``old`` is their job, else None (see the module docstring)."""
    if not fact_person.same_person(old, new) or fact_mood.unasserted(new) or not job(old):
        return None
    phrase = _hired(new)
    if not phrase:
        phrase = teaches_elsewhere(old, new)
    if not phrase:
        return None
    return Verdict("slot", f"{REASON}: {phrase.strip()}", 0.8)
