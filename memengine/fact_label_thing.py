"""A note's label naming another thing of the older's kind (facts36): "New guest wifi: Larchwood-Guest, password
welcome-2024" is no new password of "The home wifi is called Larchwood, password mossy-fern-42".

An agent opens a note with what it is about and a colon ("New wifi password: …", "Guest wifi: …", "Office printer:
…"). The label is the newer's subject: when its head word is a word of the older, and right before it each says a word
the other does not ("guest wifi" / "home wifi"), the two are two things of a kind. The head alone ("New wifi password: tidal-heron-77" after "The home wifi …, password mossy-fern-42") says the same
thing. :func:`another_labelled` is a veto of memengine/supersession.py's ``vetoed``: whichever path read an update.

Labels of one word ("Internet: …", "Update: …"), a sentence before a colon ("Tom has a new number: …") and a possessor
before the older's head ("The repository's default branch" / "default git branch: main": whose, not which) are left
to the other readings. Pure: no SQL, no model.
"""

from __future__ import annotations

import re

from memengine.fact_align import same_word
from memengine.fact_lexicon import LANG_AUX, LANG_COPULA, STOPWORDS, fold_text

__all__ = ["another_labelled"]

_LABEL = re.compile(r"^\s*([^\W\d_][^:;,.()\d]{1,40}?)\s*:\s+\S")
_WORD = re.compile(r"[^\W_]+(?:[-+.][^\W_]+)*")
# words of a label that name no thing ("New wifi password", "Our new …")
_NOT_THING = frozenset("new neu neue neuer neues nuevo nueva nouveau nouvelle novo nova nuovo nuova our my the a an "
                       "current latest updated".split())
_LINKS = frozenset().union(*LANG_COPULA.values(), *LANG_AUX.values())


def _before(words: list[str], head: str) -> str:
    """The word right before the first word of ``words`` that is ``head``, or ""."""
    at = next((i for i, k in enumerate(words) if same_word(k, head)), -1)
    return words[at - 1] if at > 0 else ""


def another_labelled(old: str, new: str) -> str:
    """Why the newer's label names another thing of the older's kind (see the module docstring), or ""."""
    m = _LABEL.match(new)
    if m is None:
        return ""
    raw = [fold_text(w) for w in _WORD.findall(m.group(1))]
    if len(raw) > 4 or any(k in _LINKS or k.endswith("ed") for k in raw):
        return ""  # (a sentence, not a label: "Tom has a new number: …", "User moved house: …")
    label = [k for k in raw if k not in _NOT_THING and k not in STOPWORDS]
    if len(label) < 2:
        return ""
    head = label[-1]
    old_words = [fold_text(w) for w in _WORD.findall(old)]
    mine, theirs = _before(label, head), _before(old_words, head)
    if not mine or not theirs or theirs in STOPWORDS or theirs in _NOT_THING or re.search(
            rf"\b{re.escape(theirs)}(?:'s|’s)", old, re.IGNORECASE):
        return ""  # (the older's word before it a possessor is whose, not which: "The repository's default branch")
    if any(same_word(mine, k) for k in old_words) or any(same_word(theirs, k) for k in label):
        return ""
    return f"another {head} named by the note's label: {mine} / {theirs}"
