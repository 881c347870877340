"""Issue 19, round 32: the gap between the real-chat dev set and the chats nobody tuned on.

Held-out 30 (``bench/data/realchat_heldout30``, committed with the base score before any engine code): a Polish-English
couple in Kraków (a move, a cat, a car, a May trip that changed), two Brazilian flatmates in Dublin (Portuguese with
English: visas, rent, a stolen bike, a trip one of them missed) and a Texan family planning a quinceañera (Spanish and
English: a venue lost to a storm, godparents, a DJ, a cake). 77 questions asked as a person asks of their own history,
18 multi-hop, most in English of turns written in Polish, Portuguese or Spanish. Scored as every held-out chat set is
(``bench/recall_round12.py``: each chat imported into its own store as ``mem.py import`` does, turn-level scoring),
then by kind.

    python bench/recall32.py heldout --reuse /tmp/recall32/h30                 # held-out 30, this tree
    python bench/recall32.py heldout --reuse /tmp/recall32/h30 --misses
    python bench/recall32.py heldout --resolve DRAFT.json --reuse DIR          # authoring: texts -> refs, flags
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

DATA = HERE / "bench" / "data" / "realchat_heldout30"
QUESTIONS = HERE / "bench" / "data" / "realchat_heldout30.jsonl"
CHATS = {"kawa_krakow.txt": "the Kraków couple (pl/en)", "casa_dublin.txt": "the Dublin flatmates (pt/en)",
         "quince_sa.txt": "the quinceañera family (es/en)"}


def kinds(rows: list[dict[str, Any]], meta: dict[str, dict[str, Any]]) -> list[list[Any]]:
    """Rows of (subset, n, recall@5, recall@10, MRR, newer above older, decoys above) by kind and by chat."""
    from bench.recall_round27 import kinds as by_kind

    subsets = {
        "other words (none in the evidence)": [r for r in rows if meta[r["id"]].get("other_words")],
        "multi-hop": [r for r in rows if meta[r["id"]].get("category") == "multi-hop"],
        "temporal": [r for r in rows if meta[r["id"]].get("category") == "temporal"],
        "a value that changed": [r for r in rows if meta[r["id"]].get("kind") == "update"],
        **{name: [r for r in rows if r["file"] == f] for f, name in CHATS.items()},
        "all": rows,
    }
    # round 27's table for one subset: its last row ("all") is that subset's figures
    return [[name, *by_kind(sub, meta)[-1][1:]] for name, sub in subsets.items()]


def resolve(draft: Path, reuse: Path) -> int:
    """Authoring: round 27's resolver pointed at this set (texts -> refs, the measured ``other_words`` flags)."""
    from bench import recall_round27

    recall_round27.DATA, recall_round27.QUESTIONS = DATA, QUESTIONS
    return recall_round27.resolve(draft, reuse)


def heldout(argv: list[str]) -> int:
    """Held-out 30 by kind (round 25's command line: ``--reuse``, ``--config``, ``--misses``, ``--json``)."""
    from bench import recall_updates25

    return recall_updates25.run(argv, __doc__, DATA, QUESTIONS, kinds, resolve)


def main(argv: list[str] | None = None) -> int:
    """``heldout ...``."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["heldout"]:
        return heldout(args[1:])
    print(__doc__)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
