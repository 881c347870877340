"""A thing done for another person is theirs (facts38): "Helped Dev set up plot 9 with raised beds" is Dev's plot, not
a new value of "Allotment plot number is 14" nor of "Gave up plot 14 and took over plot 22".

Helping names whose the thing is: the person helped, named after the verb ("helped Dev", "helping Mrs Okafor with"),
whom the older does not name. memengine/supersession.py's ``vetoed`` reads it (a veto on every path: the learned
decision reads "plot" and another number as one slot). Pure: no SQL, no model.
"""

from __future__ import annotations

import re

from memengine.fact_cue_lexicon import TITLES
from memengine.fact_lexicon import fold_text

__all__ = ["helped_other"]

_HELPED = re.compile(r"\b(?i:helped|helping|helps|help|assisted|assisting)\s+((?:[A-Z][\w'’-]*\s+){0,2}[A-Z][\w'’-]*)")


def helped_other(old: str, new: str) -> str:
    """Why ``new`` is another person's thing: it says it helped a person the older does not name; else ""."""
    lo = fold_text(old)
    for m in _HELPED.finditer(new):
        names = [fold_text(w) for w in m.group(1).split() if fold_text(w) not in TITLES]
        if names and not any(re.search(rf"\b{re.escape(n)}\b", lo) for n in names):
            return f"another person's thing: helped {m.group(1)!r} (memengine/fact_helped.py)"
    return ""
