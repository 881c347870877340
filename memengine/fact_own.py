"""A person now works for themselves: the job the older fact says they hold is over (facts29).

"Femke werkt als UX-designer bij een bureau in Utrecht" / "Femke is voor zichzelf begonnen als freelance
ontwerper", "La mujer de Javier, Carmen, trabaja en una gestoría" / "Carmen ha montado su propia gestoría", "Le
compagnon d'Élodie, Hugo, est boulanger" / "Hugo a repris une boulangerie à son compte", "O Tiago é cozinheiro
num restaurante no Chiado" / "O Tiago abriu o seu próprio restaurante em Setúbal". The newer names neither the
older's employer nor its role in the older's words, and its vectors are far (0.43 for Femke's pair); what it
says is structural: the older's person (memengine/fact_person.py) now works on their own account — a word of
self-employment (freelance, self-employed, "voor zichzelf", "à son compte", autónomo, selbstständig, "in
proprio", "por conta própria"), or "own" (propre, propia, eigen, proprio, próprio) with a verb of opening or
starting a business, or with the older's trade said again ("gestoría", "restaurant", "boulang-").

The older must be that person's job: a verb of working (works, travaille, trabaja, arbeitet, trabalha, lavora,
werkt) or a trade the newer says again, with no number, time or date (a shift, "de 4h à 12h", is another fact
of the same job). Guards: the newer is asserted and its subject names the older's person; the older reports no
change itself. Pure: no SQL, no model.
"""

from __future__ import annotations

import re

from memengine import fact_mood, fact_person, facts
from memengine.fact_change_words import CHANGE_WORDS
from memengine.fact_lexicon import STOPWORDS, _set, fold
from memengine.fact_types import Verdict

__all__ = ["REASON", "on_own_account"]

REASON = "now works on their own account"

# Working, said of a job (folded).
WORK_VERBS = _set("works worked working", "travaille travaillait", "trabaja trabajaba", "arbeitet arbeitete",
                  "trabalha trabalhava", "lavora lavorava", "werkt werkte")
# Words that say one works for oneself (folded; a phrase as its words joined by a space).
_SELF_WORDS = _set("freelance freelancer freelancing selfemployed", "liberal liberale independant independante",
                   "autonomo autonoma", "selbststandig selbstandig freiberuflich freiberufler freiberuflerin",
                   "zelfstandig zzp zzper", "autonomo autonoma", "autonomo")
# (matched on the sentence in lower case, accents kept: "Élodie a son compte courant" is her bank account)
_SELF_PHRASES = ("self employed", "self-employed", "for himself", "for herself", "for themselves", "à son compte",
                 "à mon compte", "por su cuenta", "por cuenta propia", "voor zichzelf", "por conta própria", "in proprio",
                 "libero professionista", "auto-entrepreneur", "auto-entrepreneuse", "auto entrepreneur")
# "own" and its kin, and the verbs of opening or starting a business (folded)
_OWN = _set("own", "propre", "propia propio", "eigene eigenen eigenes eigener eigen", "propria proprio")
_OPENED = _set("opened opens started starts set founded launched runs run took",
               "ouvert ouvre lance cree fonde repris reprend monte",
               "abierto abrio abre montado monto fundado fundo lanzado",
               "eroffnet gegrundet gestartet ubernommen", "abriu abre montou fundou lancou",
               "aperto aperta apre fondato lanciato rilevato", "geopend opgericht begonnen gestart overgenomen")
_WORD = re.compile(r"[^\W\d_]+")
# a role said with a copula and where it is held ("es profesora ... en una academia")
_COPULAS = _set("is", "est", "es", "ist", "e", "is")
_AT = _set("at", "chez au dans", "en", "bei beim", "no na num numa", "al alla nel nella presso", "bij")
_ROLE_REACH = 4
# the shortest stem two words must share to be one trade ("boulanger" / "boulangerie")
_TRADE_STEM = 6


def _trade(old: list[str], new: list[str]) -> str | None:
    """A content word of the older said again in the newer, or one sharing its first letters ("boulanger" /
    "boulangerie")."""
    for a in old:
        if a in STOPWORDS or len(a) < _TRADE_STEM:
            continue
        for b in new:
            if b not in STOPWORDS and len(b) >= _TRADE_STEM and a[:_TRADE_STEM] == b[:_TRADE_STEM]:
                return b
    return None


def _role_at(words: list[str]) -> bool:
    """Whether folded ``words`` say a role held at a place: a copula, then a workplace preposition within
    :data:`_ROLE_REACH` words ("es profesora de inglés en una academia", "is verpleegkundige in het UMC", "ist
    Lokführer bei der Bahn", "é cozinheiro num restaurante")."""
    for i, w in enumerate(words[:-1]):
        if w in _COPULAS and not _participle(words[i + 1]) and any(x in _AT for x in words[i + 2:i + 2 + _ROLE_REACH]):
            return True
    return False


def _participle(word: str) -> bool:
    """Whether a folded word after a copula reads as a participle, not a role ("is verzekerd bij CZ", "está
    inscrita en", "è iscritto al"): a state held at a place, not a job."""
    if word.startswith(("ge", "ver", "be")) and word.endswith(("d", "t", "en")) and len(word) > 5:
        return True  # "verzekerd", "versichert", "geboren"
    return word.endswith(("ed", "ado", "ada", "ido", "ida", "ato", "ata", "ito", "ita", "itto", "itta"))


def _own_account(words: list[str], joined: str) -> bool:
    """Whether a sentence's words say one works for oneself (a word of it, or "own" with a verb of opening)."""
    if set(words) & _SELF_WORDS or any(f" {p} " in joined for p in _SELF_PHRASES):
        return True
    return bool(set(words) & _OWN) and bool(set(words) & _OPENED)


def on_own_account(old: str, new: str) -> Verdict | None:
    """A verdict when ``new`` says the older's person now works on their own account and ``old`` is their job,
    else None (see the module docstring)."""
    if not fact_person.same_person(old, new) or fact_mood.unasserted(new):
        return None
    ow = [fold(w) for w in _WORD.findall(old)]
    nw = [fold(w) for w in _WORD.findall(new.replace("-", ""))]
    joined = " " + " ".join(re.findall(r"[^\W\d_]+(?:-[^\W\d_]+)?", new.lower())) + " "
    if set(ow) & CHANGE_WORDS or _own_account(ow, " " + " ".join(re.findall(r"[^\W\d_]+(?:-[^\W\d_]+)?",
                                                                              old.lower())) + " "):
        return None  # the older reports a change, or works on its own account already
    if facts.analyse(old).values:
        return None  # "Hugo travaille de 4h à 12h": another fact of the job
    names = fact_person.subject_names(old)
    trade = _trade([w for w in ow if w not in names], [w for w in nw if w not in names])
    if not set(ow) & WORK_VERBS and trade is None and not _role_at(ow):
        return None  # not a job ("A Mariana é vegetariana")
    own = set(nw) & _OWN
    if set(nw) & _SELF_WORDS or any(f" {p} " in joined for p in _SELF_PHRASES) or own and (
            set(nw) & _OPENED or trade is not None):
        return Verdict("slot", f"{REASON}: {trade or 'self-employed'}", 0.8)
    return None
