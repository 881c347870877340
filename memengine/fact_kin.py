"""Kinship words of seven languages mapped to one concept each ("Mutter" = "mother" = "moeder", "ouders" =
"parents"; facts32): whose relative a fact is about, compared across the languages an agent's notes are in.

memengine/fact_cue_lexicon.py's ``KIN`` holds six languages; Dutch is added here. Pure: a table.
"""

from __future__ import annotations

from memengine.fact_cue_lexicon import KIN as _CUE_KIN
from memengine.fact_lexicon import fold

__all__ = ["KIN", "concept"]

KIN: dict[str, str] = {**_CUE_KIN, **{fold(w): c for c, words in {
    "mother": "moeder mama", "father": "vader papa", "parents": "ouders", "son": "zoon zoontje",
    "daughter": "dochter dochtertje", "sister": "zus zuster", "brother": "broer", "husband": "man",
    "wife": "vrouw", "boyfriend": "vriend vriendin", "grandma": "oma", "grandpa": "opa"}.items()
    for w in words.split()}}


def concept(word: str) -> str:
    """The kinship concept of ``word`` (folded), else the word itself."""
    return KIN.get(word, word)
