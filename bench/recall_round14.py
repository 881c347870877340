"""Issue 19, round 14: recall on the held-out chats written for it (bench/data/realchat_heldout14), by kind.

``bench/recall_round12.py`` on round 14's set (each chat imported into its own store as ``mem.py import``
does, turn-level scoring, "newer above older" for the questions about a value that changed), plus the
figures of the round's subject: the questions asking by a role or category **the chat never says**
(``never: true``; ``role`` lists the word stems checked absent from the whole chat: "what's the dog
sitter's name?" over "Marta next door said she'd pop in and feed Biscuit") apart from the others.

    python bench/recall_round14.py --reuse /tmp/r14                              # this tree
    python bench/recall_round14.py --reuse /tmp/r14b --tree /work/base-start     # the session start
    python bench/recall_round14.py --reuse /tmp/r14 --config w_instances=0.0     # the round's switch off
    python bench/recall_round14.py --reuse /tmp/r14 --misses                     # every miss, one by one
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from bench.recall_round13 import question_meta, run_by_kind, subset_rows  # noqa: E402

DATA = HERE / "bench" / "data" / "realchat_heldout14"
QUESTIONS = HERE / "bench" / "data" / "realchat_heldout14.jsonl"


def by_kind(rows: list[dict[str, Any]], questions: Path) -> list[list[Any]]:
    """Rows of (subset, n, recall@5, recall@10, MRR) for the never-said / other / Polish-chat subsets."""
    meta = question_meta(questions)
    subsets = {
        "role or category the chat never says": [r for r in rows if meta[r["id"]].get("never")],
        "  of the English chats": [r for r in rows if meta[r["id"]].get("never") and r["file"] != "remont.txt"],
        "other": [r for r in rows if not meta[r["id"]].get("never")],
        "the Polish chat": [r for r in rows if r["file"] == "remont.txt"],
        "all": rows,
    }
    return subset_rows(subsets)


def main(argv: list[str] | None = None) -> int:
    """Round 14's held-out chats, scored by kind."""
    return run_by_kind(argv, __doc__ or "", DATA, QUESTIONS, by_kind)


if __name__ == "__main__":
    raise SystemExit(main())
