"""Issue 19, round 28: which local model the vectors come from — held-out 28 and the dev sets under each model.

Held-out 28 (``bench/data/realchat_heldout28``, committed with the base score before any engine code): a Leipzig flat
share (German), two sisters in Seville planning their father's 70th (Spanish) and two friends sharing a Leeds allotment
(English); 37 questions, most asked in words their evidence does not hold, 7 asked in English of the German and Spanish
chats. Scored as ``bench/recall_round12.py`` scores every held-out chat set (each chat imported into its own store as
``mem.py import`` does), then by kind.

    python bench/model_choice.py heldout --reuse /tmp/r28/h28                  # held-out 28, this tree's model
    python bench/model_choice.py heldout --reuse /tmp/r28/h28 --misses
    python bench/model_choice.py heldout --resolve DRAFT.json --reuse DIR      # authoring: texts -> refs, flags
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

DATA = HERE / "bench" / "data" / "realchat_heldout28"
QUESTIONS = HERE / "bench" / "data" / "realchat_heldout28.jsonl"
CHATS = {"wg_leipzig.txt": ("the Leipzig flat share (de)", "de"),
         "hermanas_sevilla.txt": ("the Seville sisters (es)", "es"),
         "allotment_leeds.txt": ("the Leeds allotment (en)", "en")}


def kinds(rows: list[dict[str, Any]], meta: dict[str, dict[str, Any]]) -> list[list[Any]]:
    """Rows of (subset, n, recall@5, recall@10, MRR, newer above older, decoys above) by kind and by chat."""
    from bench.recall_round27 import kinds as by_kind

    subsets = {
        "other words (none in the evidence)": [r for r in rows if meta[r["id"]].get("other_words")],
        "asked in English of a German / Spanish chat": [
            r for r in rows if meta[r["id"]].get("lang") != CHATS[r["file"]][1]],
        "multi-hop": [r for r in rows if meta[r["id"]].get("category") == "multi-hop"],
        **{name: [r for r in rows if r["file"] == f] for f, (name, _) in CHATS.items()},
        "all": rows,
    }
    out: list[list[Any]] = []
    for name, sub in subsets.items():
        # round 27's table for one subset: its last row ("all") is that subset's figures
        out.append([name, *by_kind(sub, meta)[-1][1:]])
    return out


def resolve(draft: Path, reuse: Path) -> int:
    """Authoring: round 27's resolver pointed at this set (texts -> refs, the measured ``other_words`` flags)."""
    from bench import recall_round27

    recall_round27.DATA, recall_round27.QUESTIONS = DATA, QUESTIONS
    return recall_round27.resolve(draft, reuse)


def heldout(argv: list[str]) -> int:
    """Held-out 28 by kind (round 25's command line: ``--reuse``, ``--config``, ``--misses``, ``--json``)."""
    from bench import recall_updates25

    return recall_updates25.run(argv, __doc__, DATA, QUESTIONS, kinds, resolve)


def main(argv: list[str] | None = None) -> int:
    """``heldout ...`` (more commands follow with the model switch)."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["heldout"]:
        return heldout(args[1:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
