"""Issue 19, round 37: recall on chats nobody tuned it on — held-out 35.

Held-out 35 (``bench/data/realchat_heldout35``, committed with the base score before any engine code): two sisters in
Derby (a mother's hip operation that moved, a new job, a father's 70th whose restaurant closed), a stag-do group of
four (Edinburgh dropped for Newcastle, karting swapped for axes after a broken ankle, money owed), a Cologne couple in
German (a Kita place, a stolen bike, a holiday that moved from Rømø to the Baltic, a grandmother's 80th) and two
bandmates in Bristol (a drummer who left, a support slot, an EP whose studio dates moved). 135 questions asked as a
person asks of their own history, 48 multi-hop (a plan and its later change, a recommendation and who gave it, an
event and its date said elsewhere, a question and its reply). Scored as every held-out chat set is
(``bench/recall_round12.py``: each chat imported into its own store as ``mem.py import`` does, turn-level scoring).

    python bench/recall37.py heldout --reuse /tmp/recall37/h35                 # held-out 35, this tree
    python bench/recall37.py heldout --reuse /tmp/recall37/h35 --misses
    python bench/recall37.py heldout --resolve DRAFT.json --reuse DIR          # authoring: texts -> refs, flags
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

DATA = HERE / "bench" / "data" / "realchat_heldout35"
QUESTIONS = HERE / "bench" / "data" / "realchat_heldout35.jsonl"
CHATS = {"sisters_derby.txt": "the Derby sisters (en)", "stag_group.txt": "the stag-do group (en, 4 people)",
         "familie_koeln.txt": "the Cologne couple (de)", "band_bristol.txt": "the Bristol bandmates (en)"}


def heldout(argv: list[str]) -> int:
    """Held-out 35 by kind: round 32's scorer (bench/recall32.py) pointed at this set."""
    from bench import recall32

    return recall32.heldout(argv, DATA, QUESTIONS, CHATS, __doc__)


def main(argv: list[str] | None = None) -> int:
    """``heldout ...``."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["heldout"]:
        return heldout(args[1:])
    print(__doc__)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
