"""A terse note: a label, a colon, a new value (facts43): "Back door alarm: 9052" after "The back door alarm code is
4417", "Sourdough loaf: £4.80" after "A sourdough loaf costs £4.50", "Mats: Liforme" after "The studio's mats are
from Manduka".

People write a changed value as a label and the value, no verb and no change word. memengine/fact_plain_value.py
reads a frame said again with one value apart but asks the whole frame of the newer (off by default: plain
sentences of one frame are often two things); the label shape is its own evidence that the label names the slot
and what follows is its value. Read here:

- **the shape**: the whole newer is one label of at most five words, a colon, and a value of at most six words;
- **the label says the older's frame**: every content word of the label is a word of the older's frame (values
  masked: memengine/fact_plain_value.frame_gap, in any word form), at least one;
- **one kind of value apart**: the value is of a kind the older has a value of (a number, a code, a name, a
  day, a time), another value than the older's, and the label's frame names nothing of its own.

Guards (fact_plain_value's): asserted, no one time, nothing added, no possessor the older does not name, the older's
value no label of its subject. Pure: no SQL, no model.
"""

from __future__ import annotations

import re

from memengine import fact_cause, fact_mood, fact_plain_value, fact_vacated
from memengine.fact_lexicon import fold_text
from memengine.fact_types import Verdict

__all__ = ["REASON", "label_value", "terse"]

REASON = "a terse label with a new value"

_SHAPE = re.compile(r"^\s*([^:\n]{2,60}?)\s*:\s*([^:\n]{1,60}?)\s*[.!]?\s*$")
_WORD = re.compile(r"[^\W_]+")


def label_value(text: str) -> tuple[str, str] | None:
    """(the label, the value) when ``text`` is a label of at most five words, a colon and a value of at most six
    words, else None."""
    m = _SHAPE.match(text)
    if m is None or "http" in m.group(1).lower():
        return None
    label, value = m.group(1), m.group(2)
    if not 1 <= len(_WORD.findall(label)) <= 5 or not 1 <= len(_WORD.findall(value)) <= 6:
        return None
    return label, value


def terse(old: str, new: str) -> Verdict | None:
    """A ``slot`` verdict when ``new`` is a terse label of the older's frame with another value of the older's kind
    (see the module docstring), else None."""
    lv = label_value(new)
    if lv is None or label_value(old) == lv:
        return None
    gap = fact_plain_value.frame_gap(old, f"{lv[0]} is {lv[1]}", min_shared=1)
    if gap is None:
        return None
    if fact_mood.unasserted(new) or fact_cause.one_time(old, new):
        return None
    ln = fold_text(new)
    if set(_WORD.findall(ln)) & fact_vacated.ADDING:
        return None
    owners = {fold_text(m.group(1)) for m in re.finditer(r"([^\W_]+)(?:'s|’s)\s+\w", old)}
    if any(fold_text(m.group(1)) not in owners for m in re.finditer(r"([^\W_]+)(?:'s|’s)\s+\w", new)):
        return None  # a possessor of its own ("Jen's alarm: 2231")
    _, kind, was, now = gap
    if fact_plain_value.label_or_subject(old, was):
        return None
    return Verdict("slot", f"{REASON}: {kind} {was} -> {now}", 0.8)
