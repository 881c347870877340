"""Issue 19, round 40: recall on chats nobody tuned it on — held-out 37.

Held-out 37 (``bench/data/realchat_heldout37``, committed with the base score before any engine code): two friends in
Glasgow over five months (a half marathon on a sore knee, a car that failed its MOT and was sold, a job in Dundee
whose start moved, a rescue greyhound afraid of stairs, a birthday dinner moved by a burst pipe), a French family
group of five in Lyon (a grandmother's 85th moved for an exam, a leak, a driving test failed then passed, a summer
rental cancelled and replaced), a long-distance couple Toronto–Manchester (a flight moved, a father's operation, a
PhD defence moved, a postdoc won) and four students sharing a house in Selly Oak (bills, a broken washing machine,
an inspection moved, a housemate leaving on Erasmus). 123 questions asked as a person asks of their own history, 44
multi-hop (two turns said days apart). Scored as every held-out chat set is (``bench/recall_round12.py``: each chat
imported into its own store as ``mem.py import`` does, turn-level scoring).

    python bench/recall40.py heldout --reuse /tmp/recall40/h37                 # held-out 37, this tree
    python bench/recall40.py heldout --reuse /tmp/recall40/h37 --misses
    python bench/recall40.py heldout --resolve DRAFT.json --reuse DIR          # authoring: texts -> refs, flags
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

DATA = HERE / "bench" / "data" / "realchat_heldout37"
QUESTIONS = HERE / "bench" / "data" / "realchat_heldout37.jsonl"
CHATS = {"jamie_shona.txt": "the Glasgow friends (en, 2)", "famille_moreau.txt": "the Lyon family (fr, 5)",
         "mei_sam.txt": "the Toronto-Manchester couple (en, 2)", "house_selly.txt": "the Selly Oak house (en, 5)"}


def heldout(argv: list[str]) -> int:
    """Held-out 37 by kind: round 32's scorer (bench/recall32.py) pointed at this set."""
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
