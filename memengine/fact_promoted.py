"""A new role at the same place: "Marcus is now a senior data engineer at Spotify" after "Marcus works at Spotify as a
data engineer" (facts25).

The older states where someone works and, after "as / als / comme / como / come", in which role; the newer names the
same person and the same organisation, says the change ("now", "jetzt", "désormais", "ahora", "agora", "ora", "nu",
or "promoted") and puts another role where the older's stood: in an identity ("is now <role> at <org>", "ist jetzt
<role> bei <org>") or in the same frame again ("werkt nu bij ING als afdelingshoofd"). A promotion changes the role, so
the older is retired. The shared organisation name made the pair look like a restatement or another attribute of the
person to every other path (no verdict, or the learned middle band's "maybe").

Read by shape, not by a list of job titles: the older's role is the words after its role marker, the newer's the
content words it says beyond the person, the organisation, the change word and its copula. The same role said again
("Marcus is now a data engineer at Spotify") is no change; a newer that names another organisation, another person or
no role at all is not read here. Pure: no SQL, no model.
"""

from __future__ import annotations

import re

from memengine import fact_kind, fact_name_kind, facts
from memengine.fact_align import same_word
from memengine.fact_change import ADDITIVE
from memengine.fact_change_words import CHANGE_WORDS, NOW_WORDS
from memengine.fact_lexicon import STOPWORDS, _set, fold
from memengine.fact_types import Verdict

__all__ = ["FRAME", "ROLE", "new_name", "new_role"]

# The reasons this module's verdicts start with: the slot is named by its frame, not only by whom it is about
# (memengine/supersession.py's ``_one_subject`` counts them so).
FRAME = "the same frame"
ROLE = "a new role"

# "works at X as <role>" in seven languages ("en tant que", "in qualità di" end in a marker too: "que", "di" are not
# read; their role follows the last word)
_AS = _set("as", "als", "comme", "como", "come")
# The identity the newer states its role in, and being promoted.
_COPULAS = _set("is became becomes", "ist wurde wird", "est devenu devenue devient", "es fue sera",
                "e foi virou", "e diventato diventata", "is werd wordt")
_PROMOTED = _set("promoted", "befordert", "promu promue", "ascendido ascendida promovido promovida",
                 "promossa promosso", "gepromoveerd bevorderd")
# Auxiliaries and reflexives a change's verb is said with ("has moved", "ist gezogen", "s'est installée", "si è
# trasferita", "heeft", "se ha mudado")
_AUXILIARIES = _set("has have had was were been", "hat haben sind war sich", "ont sont etait", "han hemos fue",
                    "tem foi", "hanno sono era", "heeft hebben zijn was zich")
_ALSO = ADDITIVE | _set("ook eveneens")  # a second value said "also" adds one, it replaces none
_NOW = _set("nu inmiddels tegenwoordig")  # (Dutch "now": not among the change words memengine/fact_change_words.py reads)
_WORD = re.compile(r"[^\W\d_][\w'’-]*")


def _capitalised(words: list[str]) -> list[int]:
    """Indexes of the words written with a capital, the sentence's first word excepted."""
    return [n for n, w in enumerate(words) if n and w[:1].isupper()]


def _role(words: list[str]) -> set[str]:
    """The content words of a role phrase (folded): "a senior data engineer" -> {"senior", "data", "engineer"}."""
    return {fold(w) for w in words if fold(w) not in STOPWORDS and len(w) > 1}


def new_role(old: str, new: str) -> Verdict | None:
    """A ``role`` verdict when ``new`` gives the person ``old`` says works somewhere in a role another role at the
    same organisation ("Lena arbeitet bei Siemens als Projektleiterin" / "Lena ist jetzt Abteilungsleiterin bei
    Siemens"), else None."""
    ow, nw = _WORD.findall(old), _WORD.findall(new)
    marks = [n for n, w in enumerate(ow) if fold(w) in _AS]
    if not marks or not ow or not nw:
        return None
    at = marks[0]
    lead = [fold(w) for w in ow[:at] if fold(w) not in STOPWORDS]
    subject = set(lead[:1])  # "Marcus", "A Beatriz", "O usuário"
    # the organisation: a name before the role ("Spotify", "Natura"), else after it ("works as a data engineer at
    # Spotify"); German capitalises its role nouns too ("als Projektleiterin")
    caps = [(n, fold(ow[n])) for n in _capitalised(ow) if fold(ow[n]) not in subject]
    org = [w for n, w in caps if n < at] or [w for _, w in caps]
    old_role = {w for w in _role(ow[at + 1:]) if w not in org}
    if not subject or not org or not old_role:
        return None
    folded = [fold(w) for w in nw]
    if not all(any(same_word(s, w) for w in folded[:3]) for s in subject):
        return None  # another person's role
    if not all(any(same_word(o, w) for w in folded) for o in org):
        return None  # another organisation: a new employer is the other paths' (the frame, the cue)
    if not any(w in NOW_WORDS or w in _NOW or w in _PROMOTED for w in folded) or any(w in _ALSO for w in folded):
        return None
    n_marks = [n for n, w in enumerate(folded) if w in _AS]
    if n_marks:
        # the same frame again: "werkt nu bij ING als afdelingshoofd"
        new_role_words = {w for w in _role(nw[n_marks[0] + 1:]) if not any(same_word(w, o) for o in org)}
    elif any(w in _COPULAS or w in _PROMOTED for w in folded):
        new_role_words = {w for w in _role(nw) if w not in NOW_WORDS and w not in _NOW and w not in _COPULAS
                          and w not in _PROMOTED
                          and not any(same_word(w, x) for x in subject | set(org))}
    else:
        return None
    if not new_role_words or new_role_words == old_role:
        return None
    if not new_role_words - old_role and not n_marks:
        return None  # fewer words of the same role ("… is now an engineer at Spotify"): no new one said
    return Verdict("slot", f"{ROLE} at {' '.join(org)}: {' '.join(sorted(old_role))} -> "
                           f"{' '.join(sorted(new_role_words))}", 0.8)


# A cue that is a preposition governs many slots ("Konto bei der Sparkasse", "bei der TK versichert"): no frame.
_PREPOSITION_CUES = fact_name_kind.ORG_PREPOSITIONS


def _same_cue(a: str, b: str) -> bool:
    """Whether two cue words govern one slot: the same word ("gehost" / "gehost"), or living somewhere and moving
    there ("woont" / "verhuisd": memengine/fact_name_kind.py's dwelling and moving verbs)."""
    return same_word(a, b) or a in fact_name_kind.RESIDE and b in fact_name_kind.RESIDE


def _before(words: list[str], cue: str) -> list[str]:
    """The content words (folded) said before ``cue`` in ``words``: the slot's subject phrase ("user sister" of
    "The user's sister is called Mhairi"), less change and "now" words ("nu", "new")."""
    at = words.index(cue) if cue in words else len(words)
    return [w for w in words[:at] if w not in STOPWORDS and w not in NOW_WORDS and w not in _NOW
            and w not in CHANGE_WORDS and w not in _COPULAS and w not in _AUXILIARIES and len(w) > 2]


def _same_words(a: list[str], b: list[str]) -> bool:
    """Whether every word of ``a`` is said in ``b`` and every word of ``b`` in ``a`` (inflected alike)."""
    return all(any(same_word(x, y) for y in b) for x in a) and all(any(same_word(x, y) for y in a) for x in b)


def new_name(old: str, new: str) -> Verdict | None:
    """A ``slot`` verdict when ``new`` says a change and puts another name where ``old`` had one, governed by the
    same cue word in both ("De databaseserver wordt gehost door TransIP" / "De databaseserver wordt nu gehost door
    Hetzner", "Sanne woont in Utrecht" / "Sanne is verhuisd naar Amersfoort"), about the same subject (the first
    content word of both, and the same words before the cue: "The user's new landlord is called Gordon" is not "The
    user's sister is called Mhairi"), not said "also" ("Nina now also uses Obsidian"), else None."""
    ow, nw = [fold(w) for w in _WORD.findall(old)], [fold(w) for w in _WORD.findall(new)]
    lead = [w for w in ow if w not in STOPWORDS][:1]
    new_lead = [w for w in nw if w not in STOPWORDS][:1]
    if not lead or not new_lead or not same_word(lead[0], new_lead[0]) or any(w in _ALSO for w in nw):
        return None  # (another subject first: "A irmã da Beatriz vive no Porto" is not Beatriz's home)
    if not any(w in NOW_WORDS or w in _NOW or w in CHANGE_WORDS or w in fact_name_kind.MOVED for w in nw):
        return None
    # the older's value named as what the newer leaves ("from Lille", "von Leipzig", "de Lille à Nantes")
    left = {nw[n + 1] for n, w in enumerate(nw[:-1]) if w in fact_name_kind.FROM}
    names_o = [w for w in fact_kind.names(old) if w in left or not any(same_word(w, x) for x in nw)]
    names_n = [w for w in fact_kind.names(new) if w not in left and not any(same_word(w, x) for x in ow)]
    if not names_o or not names_n:
        return None
    ko = fact_name_kind.kinds_of(old, facts.analyse(old).lang)
    kn = fact_name_kind.kinds_of(new, facts.analyse(new).lang)
    cues_o = {ko[w][1] for w in names_o if w in ko and ko[w][1] and ko[w][1] not in _PREPOSITION_CUES}
    cues_n = {kn[w][1] for w in names_n if w in kn and kn[w][1] and kn[w][1] not in _PREPOSITION_CUES}
    both = [(a, b) for a in cues_o for b in cues_n if _same_cue(a, b)
            and _same_words(_before(ow, a), _before(nw, b))]
    if not both:
        return None
    return Verdict("slot", f"{FRAME} ({both[0][0]} / {both[0][1]}), another name: {' '.join(names_o)} -> "
                           f"{' '.join(names_n)}", 0.75)
