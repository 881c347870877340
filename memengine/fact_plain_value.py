"""A new value said plainly in the older's frame, with no change word (facts41): "Gate code's 7302" after "The
security gate code is 4471"; "Diesel's £1.41 a litre at the fuel berth" after "Diesel at the fuel berth is £1.32 a
litre"; "Die Rezeption ist bis 20 Uhr besetzt" after "… bis 19 Uhr besetzt".

A store keeps facts in time order: the same frame said again later with another value is what a person does when a
value changes and they do not say so. memengine/fact_shift.py reads the frame said again *with* a shift in time
("from now on", "these days"); this reading needs none, and asks more of the frame instead:

- **one frame once values are masked**: the content words left of each sentence once its values (names, codes,
  numbers, clock times, days, months, ordinals, places: memengine/fact_shift.py's reading) are masked; the newer says
  no word of its own (every one is a word of the older's frame, in any word form: a qualifier says another thing,
  "the Otley practice", "the support act", "le ramassage du verre"), and says at least two of the older's and a
  share of them of at least the caller's floor (chosen leaving one set out by ``bench/fact_families.py``);
- **one kind of value apart**: exactly one kind has a value in the newer the older does not say, the older's value
  of that kind is not said by the newer, the newer says no kind of value the older does not, and every other value
  the newer says is the older's;
- **not a label, not whose**: the older's value is no label of its subject (memengine/facts.py's identifiers: "Mobile
  home 3", "Pontoon C") nor said before the first word of its frame ("Tom lives in Leeds" / "Ana lives in Leeds");
  the older's predicate holds one value at a time (memengine/facts.py: not "likes", "has").

Guards: the newer is asserted (memengine/fact_mood.py), says no while nor one time (memengine/fact_cause.one_time),
adds nothing ("also", "a second"), names no possessor the older does not. Pure: no SQL, no model.
"""

from __future__ import annotations

import os
import re

from memengine import fact_cause, fact_mood, fact_shift, fact_vacated, facts
from memengine.fact_lexicon import fold_text
from memengine.fact_types import Verdict

__all__ = ["GRID", "MIN_SHARE", "REASON", "frame_gap", "label_or_subject", "restated"]

REASON = "the older's frame said again with one value apart"

# the share of the older's frame words the newer must say (leave-one-set-out, bench/fact_families.py, chose 0.5 over
# the writes; 1.0 since olders stored together retired each other at 0.5: "The lab manager is Dominik" / "The lab's
# reference manager is Mendeley"); above 1: off
MIN_SHARE = 1.0
GRID = [0.3, 0.5, 0.6, 0.67, 0.75, 0.8, 1.0, 2.0]
# one frame is near in meaning: a pair farther than supersession's own floor (memengine/supersession.py MIN_COSINE)
# says another thing in the same words ("Wir sind zurück bei Elasticsearch" / "Wir sind zurück auf Redux Toolkit")
NEAR = 0.55

_WORD = re.compile(r"[^\W_]+(?:[:.'’][^\W_]+)*")


def frame_gap(old: str, new: str, min_shared: int = 2) -> tuple[float, str, str, str] | None:
    """(share of the older's frame said, the kind apart, the older's value, the newer's) when ``new`` says the
    older's frame (``min_shared`` of its words at least) and one kind of value apart (no guard of mood or time),
    else None."""
    old_frame, old_values = fact_shift._read(old)
    new_frame, new_values = fact_shift._read(new)
    if not old_frame or not new_frame:
        return None
    if any(not any(fact_shift._one(n, k) for k in old_frame) for n in new_frame):
        return None  # a word of its own: another thing ("Reception at the Otley practice opens at 8.30am")
    shared = [k for k in dict.fromkeys(old_frame) if any(fact_shift._one(k, n) for n in new_frame)]
    if len(shared) < min_shared:
        return None
    if set(new_values) - set(old_values):
        return None  # a kind of value the older has not ("Soundcheck at Cambridge Folk Festival is at 2pm")
    apart = [kind for kind, vals in new_values.items() if vals - old_values.get(kind, set())]
    if len(apart) != 1:
        return None
    kind = apart[0]
    gone = old_values[kind] - new_values[kind]
    if not gone:
        return None  # (the older's value said too: one more, not another)
    came = new_values[kind] - old_values.get(kind, set())
    if not (_one_span(old, gone) and _one_span(new, came)):
        return None  # (two places apart: "Huisje 3 kost 125 euro", "Mi hermano Pablo vive en Valencia")
    return len(shared) / len(set(old_frame)), kind, sorted(gone)[0], sorted(new_values[kind] - old_values[kind])[0]


def _one_span(text: str, values: set[str]) -> bool:
    """Whether the words of ``values`` stand side by side in ``text`` (one span: "0800 123 456", "Minor Figures")."""
    at = [i for i, w in enumerate(_WORD.findall(text)) if fold_text(w) in values]
    return bool(at) and at[-1] - at[0] == len(at) - 1


def label_or_subject(old: str, value: str) -> bool:
    """Whether the older's ``value`` labels its subject or is said before the first word of its frame."""
    f = facts.analyse(old)
    if any(value in fold_text(i) for i in f.identifiers) or not f.exclusive:
        return True
    frame, _ = fact_shift._read(old)
    words = [fold_text(w) for w in _WORD.findall(old)]
    first_frame = min((i for i, k in enumerate(words) if k.removesuffix("'s").removesuffix("’s") in frame), default=0)
    first_value = min((i for i, k in enumerate(words) if k == value), default=len(words))
    return first_value < first_frame


def restated(old: str, new: str, cos: float | None, min_share: float = MIN_SHARE) -> Verdict | None:
    """A ``slot`` verdict when ``new`` says the older's frame again with one value apart (see the module docstring),
    else None. ``cos`` None (a word candidate) is taken as near; on with ``MEM_PLAIN_VALUE=1`` (off by default: its share constant failed
    its leave-one-set-out, and the pairwise bench read three look-alikes as changes: "Debug logging is off in staging",
    "Ana's flight lands at 15:00", "Anna isst auch keinen Fisch")."""
    if min_share > 1 or cos is not None and cos < NEAR or os.environ.get("MEM_PLAIN_VALUE", "0") != "1":
        return None
    gap = frame_gap(old, new)
    if gap is None or gap[0] < min_share:
        return None
    if fact_mood.unasserted(new) or fact_cause.one_time(old, new):
        return None
    ln = fold_text(new)
    if set(_WORD.findall(ln)) & fact_vacated.ADDING or "as well" in ln:
        return None
    owners = {fold_text(m.group(1)) for m in re.finditer(r"([^\W_]+)(?:'s|’s)\s+\w", old)}
    if any(fold_text(m.group(1)) not in owners for m in re.finditer(r"([^\W_]+)(?:'s|’s)\s+\w", new)
           if m.start() > 0):
        return None  # a possessor of its own ("Dr Osei's clinic opens at 8am"; not the subject's "Diesel's £1.41")
    _, kind, was, now = gap
    if label_or_subject(old, was):
        return None
    return Verdict("slot", f"{REASON}: {kind} {was} -> {now}", 0.8)
