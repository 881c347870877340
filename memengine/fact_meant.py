"""A correction said as a fragment: "sorry i meant the medium one" after "We're getting the large moving van
on Saturday", "je voulais dire la bleue", "quise decir el pequeño", "ich meinte den roten", "quis dizer o
grande", "intendevo quella piccola".

The newer names no subject at all, only the word it corrects: a size or a colour (the closed classes
such fragments correct). :func:`meant` reads that word; :func:`corrects` accepts an older fact that holds
exactly one word of the same class, another one. The fragment is far in meaning from every fact, so
memengine/supersession.py compares it whatever the cosine, and (its verdict's reason holds
memengine/fact_swap.py's ``REASON``) retires a fact only when it is the one candidate that reads so.
Pure: no SQL, no I/O.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine import fact_mood
from memengine.fact_lexicon import fold, fold_text
from memengine.fact_swap import REASON
from memengine.fact_types import Verdict

__all__ = ["corrects", "meant"]

# Closed classes a fragment corrects (folded; a word's gender and number forms each listed).
_CLASSES = {k: frozenset(fold(w) for w in ws.split()) for k, ws in {
    "size": "small medium large big little tiny huge xl xxl petit petite moyen moyenne grand grande "
            "pequeno pequena mediano mediana grande klein kleine kleinen kleiner mittel mittlere mittleren gross "
            "grosse grossen grosser medio media piccolo piccola",
    "colour": "red blue green black white grey gray silver yellow pink purple orange brown beige navy "
              "rouge rouges bleu bleue vert verte noir noire blanc blanche gris grise jaune rose "
              "rojo roja azul verde negro negra blanco blanca amarillo amarilla rosa marron "
              "rot rote roten roter blau blaue blauen gruen grun grune grunen schwarz schwarze schwarzen weiss weisse "
              "weissen gelb gelbe gelben "
              "vermelho vermelha azul preto preta branco branca cinza amarelo amarela "
              "rosso rossa blu nero nera bianco bianca grigio grigia giallo gialla",
}.items()}
_MEANT_RE = re.compile(
    r"^\W*(?:(?:sorry|oops|my bad|correction|pardon|perdon|perdona|desculpa|desculpe|scusa|scusate|sry|"
    r"entschuldigung|sorry)\W+)?(?:i\s+)?(?:meant|mean|je\s+voulais\s+dire|quise\s+decir|queria\s+decir|"
    r"ich\s+meinte|meinte|quis\s+dizer|queria\s+dizer|intendevo|volevo\s+dire)\s+"
    r"(?:the|le|la|les|el|los|las|o|a|os|as|il|lo|i|gli|den|die|das|dem|der|quella|quello|that|this)?\s*"
    r"(?P<word>[^\W\d_]+)")


@lru_cache(maxsize=4096)
def meant(text: str) -> tuple[str, str] | None:
    """(class, word) when ``text`` is a fragment correcting a size or colour ("sorry i meant the medium
    one"), else None."""
    m = _MEANT_RE.match(fold_text(text))
    if m is None or len(text) > 120:
        return None
    word = m.group("word")
    return next(((k, word) for k, ws in _CLASSES.items() if word in ws), None)


@lru_cache(maxsize=4096)
def corrects(old: str, new: str) -> Verdict | None:
    """A verdict of kind "correction" when ``new`` corrects the one size or colour ``old`` states."""
    got = meant(new)
    if got is None or fact_mood.unasserted(old):
        return None
    kind, word = got
    olds = {w for w in re.findall(r"[^\W\d_]+", fold(old)) if w in _CLASSES[kind]}
    if len(olds) != 1 or word in olds:
        return None
    return Verdict("correction", f"{REASON}: meant {word}, not {next(iter(olds))}", 0.7)
