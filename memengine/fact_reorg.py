"""A new manager said as whom I report to now, often after a reorganisation, without the old one leaving.

"My line manager is Marcus Bell" / "reorg happened, i now report to anjali rao", "Mein Teamleiter ist
Herr Kraus" / "nach der umstrukturierung bin ich jetzt bei frau demir im team", "Mi coordinador es
Andrés" / "con la reorganización ahora dependo de marisa", "Meu gestor é o Fábio" / "teve
reestruturação, agora respondo pra carla", "Il mio responsabile è Marco Ferri" / "riorganizzazione:
adesso rispondo a silvia".

The two sentences share no word (the older names a role, the newer a relation), so neither the frame
rules nor the cue can align them, and their cosine is low (0.2-0.45): :func:`reports` lets
memengine/supersession.py compare such a sentence with its candidates whatever the cosine, and
:func:`new_boss` accepts a pair when

1. the older says who *my* manager is: a possessive of the first person before a manager noun (my
   manager / line manager / boss / team lead, mon responsable, mi jefa, mein Teamleiter, meu gestor,
   il mio capo ...) or "I report to" in six languages;
2. the newer says whom *I* report to or work under now (a first-person verb: "i now report to", "je
   dépends de", "ahora dependo de", "bin jetzt bei X im team", "agora respondo pra", "adesso rispondo
   a") with a change marker (now, a reorganisation noun, "new");
3. the person it names is not a word of the older (the same manager restated is no change), and
   nothing says "still".

Someone else's manager ("my wife's line manager is ...", "Marcus now reports to Anjali") never reads
so: the newer must speak in the first person; memengine/supersession.py's owner veto applies too.
Pure: no SQL, no I/O.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine import fact_mood
from memengine.fact_lexicon import fold_text
from memengine.fact_types import Verdict

__all__ = ["new_boss", "reports"]

# The manager nouns of the older (folded), six languages.
_BOSS = (r"(?:line\s+|direct\s+|team\s+)?(?:manager|boss|lead|supervisor|team\s*lead|teamlead|"
         r"responsable|chef|cheffe|manageur|n\+1|superieur|superieure|"
         r"jefe|jefa|coordinador|coordinadora|supervisora|encargado|encargada|"
         r"chefin|teamleiter|teamleiterin|vorgesetzter|vorgesetzte|abteilungsleiter|abteilungsleiterin|"
         r"gruppenleiter|gruppenleiterin|"
         r"chefe|gestor|gestora|coordenador|coordenadora|"
         r"capo|responsabile|coordinatore|coordinatrice|supervisore)")
_MY = r"(?:my|mon|ma|mi|mein|meine|meu|minha|(?:il|la)\s+mia?|mio|mia)"
_OLD_RE = re.compile(rf"\b{_MY}\s+(?:\w+\s+)?{_BOSS}\b|\bi\s+(?:currently\s+)?report\s+to\b|\bje\s+reporte\s+a\b|"
                     r"\bdependo\s+de\b|\brespondo\s+(?:a|ao|a|para|pra|pro)\b|\brispondo\s+a[l]?\b|"
                     r"\bich\s+berichte\s+an\b")
# Whom I report to now: the relation, then the person (a word that is no function word).
_NEW_RE = re.compile(
    r"\bi(?:'m|\s+am)?\s+(?:now\s+)?(?:report(?:ing)?|answer(?:ing)?)\s+(?:now\s+)?to\s+(?P<en>[^\W\d_]+)|"
    r"\bje\s+(?:reporte|depends)\s+(?:maintenant\s+|desormais\s+)?(?:a|de)\s+(?P<fr>[^\W\d_]+)|"
    r"\b(?:dependo|respondo|reporto)\s+(?:ahora\s+|agora\s+)?(?:de|a|ante|para|pra|pro|ao)\s+(?:(?:la|el|a|o)\s+)?"
    r"(?P<es>[^\W\d_]+)|"
    r"\brispondo\s+(?:ora\s+|adesso\s+)?(?:a|al|alla|ad)\s+(?P<it>[^\W\d_]+)|"
    r"\b(?:ich\s+)?berichte\s+(?:ich\s+)?(?:jetzt\s+|nun\s+)?an\s+(?:(?:frau|herrn?)\s+)?(?P<de>[^\W\d_]+)|"
    r"\bbin\s+(?:ich\s+)?(?:jetzt\s+|nun\s+)?(?:bei|unter)\s+(?:(?:frau|herrn?)\s+)?(?P<de2>[^\W\d_]+)\s+im\s+team|"
    r"\bbin\s+(?:ich\s+)?(?:jetzt\s+|nun\s+)?im\s+team\s+(?:von|bei)\s+(?:(?:frau|herrn?)\s+)?(?P<de3>[^\W\d_]+)")
# A change is said: now, new, a reorganisation (six languages, folded).
_CHANGE_RE = re.compile(
    r"\b(?:now|new|reorg\w*|re-org\w*|restructur\w*|maintenant|desormais|nouveau|nouvelle|reorganisation|"
    r"restructuration|ahora|nuevo|nueva|reorganizacion|reestructuracion|jetzt|nun|neue[rn]?|umstrukturierung|"
    r"reorganisation|neuorganisation|agora|novo|nova|reestruturacao|reorganizacao|adesso|ora|nuovo|nuova|"
    r"riorganizzazione|ristrutturazione)\b")
_KEEPS_RE = re.compile(r"\b(?:still|toujours|todavia|aun|sigo|noch immer|immer noch|weiterhin|ainda|continuo|ancora)\b")
_FUNCTION = frozenset("the a an my our her his la le el los las o a os as il lo un una uno der die das dem den "
                      "him her them lui ella ele lei ihm ihr mis mi tu su sus mes mon ma ses meu minha meus minhas "
                      "seu sua mio mia miei mie tutti tutte todos todas tous toutes alle".split())
# What one reports to that is no person ("i report to work at 8 now", "reporting to hr about the incident").
_NOT_A_PERSON = frozenset(
    "work duty hr reception security office desk headquarters hq base school class court police management board "
    "site shift travail bureau trabajo oficina arbeit buro dienst trabalho escritorio lavoro ufficio clientes "
    "cliente clients client kunden kunde clienti".split())
# Verbs that also mean answering or depending on anything ("agora respondo pro cliente", "dependo de mis
# padres"): whom I report to only with a reorganisation said, a title or a capitalised name.
_WEAK = ("es", "it")
_TITLE_RE = re.compile(r"\b(?:frau|herrn?|mr|mrs|ms|dr|mme|m|sr|sra|senor|senora|dona|don|sig|sigra|signor|signora)\.?"
                       r"\s+$")
_REORG_RE = re.compile(r"\b(?:reorg\w*|re-org\w*|restructur\w*|reorganis\w*|reorganiz\w*|reestructur\w*|"
                       r"umstrukturier\w*|neuorganis\w*|reestrutur\w*|reorganiz\w*|riorganizz\w*|ristruttur\w*|"
                       r"neue\s+struktur|nouvelle\s+organisation|new\s+structure|nova\s+estrutura|nuova\s+struttura)")


@lru_cache(maxsize=2048)
def _person(text: str) -> str | None:
    low = fold_text(text)
    m = _NEW_RE.search(low)
    if m is None:
        return None
    group, name = next((k, g) for k, g in m.groupdict().items() if g)
    if name in _FUNCTION or name in _NOT_A_PERSON:
        return None
    start = m.start(group)
    # (folding keeps the offsets: the name as written)
    said = text[start:start + len(name)] if len(text) == len(low) else ""
    if _SCOPED_RE.match(low[m.end():]):
        return None  # "i now report to Tim on the side project": for one thing, not my manager
    if _REORG_RE.search(low) or _TITLE_RE.search(low[:start]) or said[:1].isupper() or group not in _WEAK:
        return name
    return None


# After the person (and a second name), a scope: for one project or matter only.
_SCOPED_RE = re.compile(r"^(?:\s+[^\W\d_]+)?\s+(?:on|for|about|regarding|re|sur|pour|concernant|para|sobre|en|fur|"
                        r"uber|bei|zu|em|sobre|per|su|sul|sulla|riguardo)\s")


def reports(text: str) -> bool:
    """Whether ``text`` says whom I report to now ("reorg happened, i now report to anjali"): far in
    meaning from the role fact it updates, so memengine/supersession.py compares it whatever the cosine."""
    return len(text) < 200 and _person(text) is not None and _CHANGE_RE.search(fold_text(text)) is not None


@lru_cache(maxsize=4096)
def new_boss(old: str, new: str) -> Verdict | None:
    """A verdict of kind "slot" when ``new`` says I now report to someone ``old`` does not name and ``old``
    says who my manager is (see the module docstring), else None."""
    if not reports(new) or fact_mood.unasserted(new) or fact_mood.unasserted(old):
        return None
    lo, ln = fold_text(old), fold_text(new)
    if _OLD_RE.search(lo) is None or _KEEPS_RE.search(ln):
        return None
    name = _person(new)
    if name is None or name in re.findall(r"[^\W\d_]+", lo):
        return None  # the same manager restated
    return Verdict("slot", f"new manager: now reports to '{name}'", 0.8)
