"""Issue 19, round 26: recall on the held-out chats written for it (bench/data/realchat_heldout23), by kind.

``bench/recall_round12.py`` on the set (each chat imported into its own store as ``mem.py import`` does,
turn-level scoring), then the figures by kind: the questions asked in words the chat does not use (``gap:
true``), the multi-hop ones (and their all@10: every evidence turn in the top 10, LoCoMo's multi-hop aim), and
each chat: two LONG chats of the LoCoMo kind (two friends telling each other about their lives over months in
sessions of short turns: a Bengaluru air-traffic trainee and a Winnipeg history teacher, 371 turns over eleven
months; a Galway midwife and a Lusaka bridge engineer, 308 turns over nine months) and a Melbourne book club's
group chat (100 turns, five members).

    python bench/recall_round26.py --reuse /tmp/r26                              # this tree
    python bench/recall_round26.py --reuse /tmp/r26b --tree /work/base-start     # another tree (the base)
    python bench/recall_round26.py --reuse /tmp/r26 --misses                     # every miss, one by one
    python bench/recall_round26.py --rows OUT.json                               # the table of a saved run
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from bench.recall_round13 import kind_subsets, question_meta, run_by_kind, subset_rows  # noqa: E402
from bench.recall_round22 import all_at_10  # noqa: E402

DATA = HERE / "bench" / "data" / "realchat_heldout23"
QUESTIONS = HERE / "bench" / "data" / "realchat_heldout23.jsonl"
CHATS = {"radar_canoe.txt": "Bengaluru-Winnipeg friends (371 turns)",
         "galway_lusaka.txt": "Galway-Lusaka friends (308 turns)",
         "bookclub.txt": "the Melbourne book club group"}


def by_kind(rows: list[dict[str, Any]], questions: Path) -> list[list[Any]]:
    """Rows of (subset, n, recall@5, recall@10, MRR) by kind and chat, then the multi-hop all@10."""
    meta = question_meta(questions)
    table = subset_rows(kind_subsets(rows, meta, CHATS))
    multi = [r for r in rows if r["category"] == "multi-hop"]
    table.append(["multi-hop **all@10** (recall@5 column)", len(multi), all_at_10(multi), "", ""])
    return table


def main(argv: list[str] | None = None) -> int:
    """Round 26's held-out chats, scored by kind."""
    return run_by_kind(argv, __doc__ or "", DATA, QUESTIONS, by_kind)


if __name__ == "__main__":
    raise SystemExit(main())
