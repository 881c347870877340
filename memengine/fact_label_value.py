"""The older's slot written as a note's label, another value after it (facts36): "Password manager: Bitwarden these
days" after "User's password manager is 1Password", "Accountant: Jon Mbeki" after "The accountant is Petra Vance".

An agent's shorthand puts the slot before a colon and the value after it. When every word of the label is a word of
the older's thing (its words before its verb, the store's owner "user" aside) and the label holds the thing's head,
the label names the older's slot; a name after the colon the older does not say, the older's own value a name the
newer does not say, is the slot's new value. A label with a word of its own ("Password manager for work: …", "New
guest wifi: …") names another slot and is left to the other readings. Pure: no SQL, no model.
"""

from __future__ import annotations

import re

from memengine import fact_ended, fact_mood
from memengine.fact_align import same_word
from memengine.fact_lexicon import STOPWORDS, fold_text
from memengine.fact_types import Verdict

__all__ = ["REASON", "labelled"]

REASON = "the older's slot as a note's label, another value"

_LABEL = re.compile(r"^\s*([^\W\d_][^:;,.()\d]{1,40}?)\s*:\s+(\S.*)$")
_WORD = re.compile(r"[^\W_]+(?:[-+.][^\W_]+)*")
_NOT_THING = frozenset("new current latest our my the a an".split())
_OWNERS = frozenset("user users".split())
_ADD = frozenset("also too another second extra additional".split())


def labelled(old: str, new: str) -> Verdict | None:
    """A ``slot`` verdict when ``new`` is the older's slot as a label and another name after it, else None."""
    m = _LABEL.match(new)
    if m is None or fact_mood.unasserted(new):
        return None
    label = [k for k in (fold_text(w) for w in _WORD.findall(m.group(1))) if k not in _NOT_THING and k not in STOPWORDS]
    keys = [fold_text(w) for w in _WORD.findall(new)]
    if not label or set(keys) & _ADD:
        return None
    old_keys = [fold_text(w) for w in _WORD.findall(old)]
    thing = [k for k in fact_ended._thing_words(old_keys) if k not in _OWNERS]
    if not thing or not all(any(same_word(k, t) for t in thing) for k in label) \
            or not any(same_word(thing[-1], k) for k in label):
        return None
    value = {fold_text(w) for w in _WORD.findall(m.group(2))}
    came = [k for k in fact_ended._named_new(new, set(old_keys)) if k in value and k not in label]
    _subject, _value, names = fact_ended._older(old)
    gone = [n for n in dict.fromkeys(old_keys) if n in names and any(c.isalpha() for c in n) and n not in keys
            and n not in thing]  # (in the older's order: one reason under every hash seed)
    if not came or not gone:
        return None
    return Verdict("slot", f"{REASON}: {gone[0]} -> {came[0]}", 0.8)
