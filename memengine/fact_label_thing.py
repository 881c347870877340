"""A note's label naming another thing of the older's kind (facts36): "New guest wifi: Larchwood-Guest, password
welcome-2024" is no new password of "The home wifi is called Larchwood, password mossy-fern-42".

An agent opens a note with what it is about and a colon ("New wifi password: …", "Guest wifi: …", "Office printer:
…"). The label is the newer's subject: when its head word is a word of the older, and right before it each says a word
the other does not ("guest wifi" / "home wifi"), the two are two things of a kind; a label opening with "new" none of
whose words the older says ("New guest wifi: …" / "User's password manager is 1Password") is a new thing of its own,
whatever its value's words share ("password"). The head alone ("New wifi password: tidal-heron-77" after "The home
wifi …, password mossy-fern-42") says the same thing. :func:`another_labelled` is a veto of
memengine/supersession.py's ``vetoed``: whichever path read an update.

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
_NEW = frozenset("new neu neue neuer neues nuevo nueva nouveau nouvelle novo nova nuovo nuova".split())
_LINKS = frozenset().union(*LANG_COPULA.values(), *LANG_AUX.values())


def _phrase(words: list[str], head: str) -> list[str]:
    """The words right before the first word of ``words`` that is ``head``, back to a stop word (at most three):
    the head's modifiers ("front door" of "The front door code …"; none of "responsabile del frontend")."""
    at = next((i for i, k in enumerate(words) if same_word(k, head)), -1)
    out: list[str] = []
    for k in reversed(words[max(0, at - 3):max(0, at)]):
        if k in STOPWORDS or k in _NOT_THING or k == "s":
            break
        out.insert(0, k)
    return out


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
    if raw[0] in _NEW and not any(same_word(k, o) for k in label for o in old_words):
        return f"the note's new {' '.join(label)} is another thing"  # ("New guest wifi: …" / "… password manager …")
    theirs_all = _phrase(old_words, head)
    if re.search(rf"(?:'s|’s)\s+(?:\w+\s+){{0,2}}{re.escape(head)}", old, re.IGNORECASE):
        return ""  # (a possessor before the older's head is whose, not which: "The repository's default branch")
    mine = [k for k in label[:-1] if not any(same_word(k, o) for o in old_words)]
    theirs = [k for k in theirs_all if not any(same_word(k, n) for n in label)]
    if not mine or not theirs:
        return ""
    return f"another {head} named by the note's label: {' '.join(mine)} / {' '.join(theirs)}"
