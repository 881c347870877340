"""One write, one slot: a write that would retire several older facts that do not say one slot retires the nearest.

A change states one new value ("The build server moved to Amsterdam", "Science club moved to Thursday lunchtimes").
When the rules and the learned decision read it as an update of several candidates at once, those olders are
either one slot said twice (the older fact and an earlier restatement of it: "Orion läuft auf Kubernetes 1.28" /
"kubernetes is on 1.29 after the upgrade") or several attributes of one thing, of which the write changes one
("The build server runs Debian 12" / "… uses Java 17 for the pipelines"; "Year 7 science club uses Lab 5 on
Wednesdays" / "Science club is cancelled this Wednesday for the fire drill"). Which is which is read from the
olders themselves, not from any word: two olders whose cosine with each other is under :data:`SAME_SLOT` say two
things. The write retires the older nearest it in meaning and those saying the nearest one's slot; the others stay
as they were (memengine/supersession.py), so no statement is hidden on a guess: a wrong retirement hides a true
fact, a missed one leaves an older beside the newer. Measured over every crowded fact set pooled
(bench/fact_stage.py: writes retiring a fact not theirs 99 -> 64, updates retired 727 -> 726; the constant chosen
leaving one set out, bench/README.md).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

# Two olders a write would retire whose cosine with each other is at least this say one slot (chosen leaving one
# crowded set out at a time among 0.7, 0.8, 0.9: 0.8 in 20 of 21 folds; bench/README.md, facts40).
SAME_SLOT = 0.8


def apart(losers: Sequence[int], cos: dict[int, float | None], texts: dict[int, str],
          embed: Callable[[list[str]], Any] | None) -> set[int]:
    """The olders of ``losers`` (ids) the write should not retire: all but the nearest to the write (``cos``) and
    those whose text (``texts``) is within :data:`SAME_SLOT` of the nearest's. Empty for fewer than two, without
    an embedder, or with ``MEM_ONE_SLOT=0``."""
    if len(losers) < 2 or embed is None or os.environ.get("MEM_ONE_SLOT", "1") == "0":
        return set()
    best = max(losers, key=lambda i: (cos.get(i) if cos.get(i) is not None else -1.0, -i))
    others = [i for i in losers if i != best]
    vecs = embed([texts[best]] + [texts[i] for i in others])
    if vecs is None:
        return set()
    return {i for i, v in zip(others, vecs[1:]) if float(vecs[0] @ v) < SAME_SLOT}
