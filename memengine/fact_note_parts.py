"""One statement of a note read alone (facts42): an agent's note says several things ("Ersatzteile bestellen wir bei
Rose Versand, Kundennummer 30417"), and a later note changes one of them ("Teile kommen jetzt von Bike-Components,
Rose hatte zu lange Lieferzeiten").

memengine/fact_reason_value.py and memengine/fact_denied.py read an older of one statement only: the whole older is
what they would retire. Here each statement of an older of several (its clauses, memengine/fact_left_clause.py) is
handed to them alone; a reading of one is the verdict, and ``supersession._covered`` then links the two
(``may_update``) when the older says more that the newer neither repeats nor changes — the customer number is not
retired with the supplier. A German or Dutch compound is read by its head ("Teile" names the slot of
"Ersatzteile"): those languages write a thing's kind as the last part of one word.

Off with ``MEM_NOTE_PARTS=0``. Pure: no SQL, no model.
"""

from __future__ import annotations

import os

from memengine import fact_denied, fact_left_clause, fact_reason_value
from memengine.fact_types import Verdict

__all__ = ["REASONS", "on", "one_part"]

REASONS = (fact_reason_value.REASON, fact_denied.REASON)


def on() -> bool:
    """Whether this reading (and the compound heads and a leading label it brings to fact_reason_value and
    fact_denied) is on: ``MEM_NOTE_PARTS``, default on."""
    return os.environ.get("MEM_NOTE_PARTS", "1") != "0"


def one_part(old: str, new: str, cos: float | None) -> Verdict | None:
    """The first reading (fact_reason_value, fact_denied) of one statement of a several-statement ``old`` by
    ``new``, else None."""
    if not on():
        return None
    parts = [p.strip(" .;") for p in fact_left_clause.clauses(old)]
    if len(parts) < 2:
        return None
    for part in (p for p in parts if len(p.split()) >= 3):  # (a statement to read: not a bare "Kundennummer 30417")
        got = fact_reason_value.replaced(part, new, cos) or fact_denied.denied(part, new, cos)
        if got is not None:
            return got
    return None
