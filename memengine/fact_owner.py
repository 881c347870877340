"""Whether a newer sentence names an owner of its thing that the older one does not: then it is
another person's (or another group's) fact, never a new value of the older one.

The frame rules (memengine/facts.py) find the subject before the verb; people also name the owner
where those rules do not look:

- **after the value** ("9am is when my sister's shift starts", "10 is when my daughter's class
  starts") or anywhere in the sentence: a first-person possessive and a relative or a neighbour
  owning the thing, in six languages ("my brother's", "de ma mère", "de mi sobrino", "meiner
  Schwester", "da minha sogra", "di mia sorella", "der Nachbarn"), or relatives with an article ("dei
  bambini", "des enfants", "de los niños", "das crianças");
- **in a German genitive after the head noun** ("Der Elternabend der 3b", "der Flohmarkt der
  Nachbarschule", "die Probe des Jugendchors"): an article of the genitive right after the older's
  head noun and a word the older does not have.

Only what the NEWER adds counts: an owner the older names and the newer leaves out is the same fact
said shorter ("Mum's physio appointment" / "physio appointment moved to ...", memengine/fact_dropped.py).
memengine/supersession.py asks :func:`owner_added` of every verdict (the rules, the cue, the learned
decision): a miss leaves two current facts, a false supersession would hide one. Pure: no SQL, no I/O.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine.fact_cue_lexicon import KIN
from memengine.fact_lexicon import fold, fold_text

__all__ = ["kin_named", "owner_added"]

# Relatives by marriage and plural neighbours the cue lexicon's KIN does not list.
_MORE_OWNERS = frozenset(fold(w) for w in (
    "sister-in-law brother-in-law mother-in-law father-in-law in-laws nachbarn vecinos vizinhos vicini voisins "
    "belle-mere beau-pere belle-soeur beau-frere suegra suegro cunada cunado schwiegermutter schwiegervater "
    "schwagerin schwager sogra sogro cunhada cunhado suocera suocero cognata cognato nipote nipoti "
    "stepson stepdaughter niece nephew nieces nephews bambini bambino bambina bambine bimbi bimbo bimba").split())
_FIRST_POSSESSIVES = (
    "my", "our", "mon", "ma", "mes", "notre", "nos", "mi", "mis", "nuestro", "nuestra", "nuestros", "nuestras",
    "mein", "meine", "meiner", "meines", "meinem", "meinen", "unser", "unsere", "unserer", "unseres",
    "meu", "minha", "meus", "minhas", "nosso", "nossa", "mio", "mia", "miei", "mie", "nostro", "nostra",
)
_POSS = "|".join(sorted(_FIRST_POSSESSIVES, key=len, reverse=True))
# "my sister's", "our neighbours'": an owner in the English genitive
# (not a place: "dinner is at my mom's", "moved to my sister's")
_EN_OWNER = re.compile(rf"(?<![\w'-])(?<!at )(?<!to )(?:{_POSS})\s+([\w-]+?)(?:'s|s'|')(?![\w])")
# "de ma mère", "de mi hermano", "da minha irmã", "di mia sorella", "do meu filho", "del mio capo"
_OF_OWNER = re.compile(rf"(?<![\w'-])(?:de|del|da|do|das|dos|di|della|dello|dei|delle|of|von|vom)\s+"
                       rf"(?:(?:la|le|il|lo|o|a|os|as|i|the)\s+)?(?:{_POSS})\s+([\w-]+)")
# "il corso di nuoto dei bambini", "le cours des enfants", "la clase de los niños", "a aula das crianças", "the
# class of the kids": relatives owning it with the article, no possessive
_OF_THE_OWNER = re.compile(r"(?<![\w'-])(?:of\s+the|des|de\s+los|de\s+las|das|dos|dei|delle|degli)\s+([\w-]+)")
# "die Kita meiner Schwester", "der Hund der Nachbarn": a German genitive with no preposition; "der" /
# "des" only right after a noun (first in the sentence or after a preposition it is another case:
# "Der Chef ist ...", "mit der Nachbarin")
_DE_GENITIVE = re.compile(r"(?<![\w'-])(?:meiner|meines|unserer|unseres)\s+([\w-]+)"
                          r"|(?<=[\w-]\s)(?<!\bvon\s)(?<!\bmit\s)(?<!\bbei\s)(?<!\bzu\s)(?<!\bin\s)(?<!\ban\s)"
                          r"(?<!\bauf\s)(?<!\bvor\s)(?<!\bnach\s)(?<!\baus\s)(?:der|des)\s+([\w-]+)")
# the older's head noun, then a genitive article and a word of its own: "der elternabend der 3b ist ..."
_HEAD_GENITIVE = re.compile(r"^\W*(?:(?:der|die|das|den|dem)\s+)?([\w-]+)\s+(?:der|des)\s+([\w-]+)")
_WORD = re.compile(r"[\w-]+")


def _is_owner(word: str) -> bool:
    return word in KIN or word in _MORE_OWNERS


@lru_cache(maxsize=4096)
def _owners(text: str) -> frozenset[str]:
    """The relatives and neighbours ``text`` names as owners (their KIN group when listed)."""
    low = fold_text(text)
    out = set()
    for pattern in (_EN_OWNER, _OF_OWNER, _OF_THE_OWNER, _DE_GENITIVE):
        for m in pattern.finditer(low):
            w = m.group(m.lastindex or 1)
            if _is_owner(w):
                out.add(KIN.get(w, w))
    return frozenset(out)


@lru_cache(maxsize=4096)
def kin_named(text: str) -> frozenset[str]:
    """Every relative or neighbour ``text`` names, in any form ("My sister pays ...")."""
    return frozenset(KIN.get(w, w) for w in _WORD.findall(fold_text(text)) if _is_owner(w))


def _stem_in(word: str, words: set[str]) -> bool:
    n = min(len(word), 5)
    return any(w[:n] == word[:n] and abs(len(w) - len(word)) <= 3 for w in words if len(w) >= 3)


@lru_cache(maxsize=4096)
def owner_added(old: str, new: str) -> str:
    """Why ``new`` is someone else's fact than ``old`` ("owner", "genitive"), or "" when it is not:
    ``new`` names a relative or neighbour owning its thing whom ``old`` does not name, or a German
    genitive after the older's head noun with a word the older lacks ("Der Elternabend der 3b")."""
    if _owners(new) - _owners(old) - kin_named(old):
        return "owner"  # ("My sister pays 900 in rent" / "my sister's rent went up": her fact both times)
    lo, ln = fold_text(old), fold_text(new)
    m = _HEAD_GENITIVE.match(ln)
    if m is not None:
        old_words = set(_WORD.findall(lo))
        head, owner = m.group(1), m.group(2)
        if _stem_in(head, old_words) and owner not in old_words and not _stem_in(owner, old_words):
            return "genitive"
    return ""
