"""Issue 19, round 22: recall on the held-out chats written for it (bench/data/realchat_heldout19), by kind.

``bench/recall_round12.py`` on the set (each chat imported into its own store as ``mem.py import`` does,
turn-level scoring), then the figures by kind: the questions asked in words the chat does not use (``gap:
true``), the multi-hop ones (and their all@10: every evidence turn in the top 10, LoCoMo's multi-hop aim), the
updates, and each chat (two LONG chats of the LoCoMo kind — two friends telling each other about their lives
over months, 383 and 350 turns — a Norwegian housing co-op board, a Portuguese PhD student and her supervisor).

    python bench/recall_round22.py --reuse /tmp/r22                              # this tree
    python bench/recall_round22.py --reuse /tmp/r22b --tree /work/base-start     # the session start
    python bench/recall_round22.py --reuse /tmp/r22 --misses                     # every miss, one by one
    python bench/recall_round22.py --rows OUT.json                               # the table of a saved run
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from bench.recall_round13 import kind_subsets, question_meta, run_by_kind, subset_rows  # noqa: E402

DATA = HERE / "bench" / "data" / "realchat_heldout19"
QUESTIONS = HERE / "bench" / "data" / "realchat_heldout19.jsonl"
CHATS = {"penpals.txt": "Accra-Glasgow friends (383 turns)", "exroomies.txt": "Amman-Denver friends (350 turns)",
         "borettslag.txt": "the Norwegian co-op board", "orientacao.txt": "the Portuguese PhD supervision"}


def all_at_10(rows: list[dict[str, Any]]) -> float:
    """The share of questions with every evidence turn in the top 10 (LoCoMo's multi-hop all@10)."""
    return round(statistics.fmean(all(r is not None and r <= 10 for r in row["evidence_ranks"]) for row in rows),
                 3) if rows else 0.0


def by_kind(rows: list[dict[str, Any]], questions: Path) -> list[list[Any]]:
    """Rows of (subset, n, recall@5, recall@10, MRR) by kind and chat, then the multi-hop all@10."""
    meta = question_meta(questions)
    table = subset_rows(kind_subsets(rows, meta, CHATS))
    multi = [r for r in rows if r["category"] == "multi-hop"]
    table.append(["multi-hop **all@10** (recall@5 column)", len(multi), all_at_10(multi), "", ""])
    return table


def main(argv: list[str] | None = None) -> int:
    """Round 22's held-out chats, scored by kind."""
    return run_by_kind(argv, __doc__ or "", DATA, QUESTIONS, by_kind)


if __name__ == "__main__":
    raise SystemExit(main())
