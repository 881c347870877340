"""Issue 19, round 16: recall on the held-out chats written for it (bench/data/realchat_heldout15), by kind.

``bench/recall_round12.py`` on the set (each chat imported into its own store as ``mem.py import`` does,
turn-level scoring, "newer above older" for the questions about a value that changed), then the figures
by kind: the questions asked in words the chat does not use (``gap: true``: a paraphrase, a category, a
time said differently), the multi-hop ones, the updates, and each chat (a Claude export of three
conversations, a Taglish group of six, two friends writing in bursts months apart, a French / English
flat-share).

    python bench/recall_round15.py --reuse /tmp/r16                              # this tree
    python bench/recall_round15.py --reuse /tmp/r16b --tree /work/base-start     # the session start
    python bench/recall_round15.py --reuse /tmp/r16 --misses                     # every miss, one by one
    python bench/recall_round15.py --rows OUT.json                               # the table of a saved run

(``--rows`` reads the ``--json`` output of ``bench/recall_round12.py --set bench/data/realchat_heldout15.jsonl``
run in any tree: the way to score a tree whose bench/ predates this file.)
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from bench.recall_round13 import kind_subsets, question_meta, run_by_kind, subset_rows  # noqa: E402

DATA = HERE / "bench" / "data" / "realchat_heldout15"
QUESTIONS = HERE / "bench" / "data" / "realchat_heldout15.jsonl"
CHATS = {"claude_export.json": "the Claude export (3 conversations)", "pinsan.txt": "the Taglish group of six",
         "helsinki.txt": "bursts months apart (two friends)", "coloc.txt": "the French / English flat-share"}


def by_kind(rows: list[dict[str, Any]], questions: Path) -> list[list[Any]]:
    """Rows of (subset, n, recall@5, recall@10, MRR) by kind of question and by chat."""
    meta = question_meta(questions)
    subsets = kind_subsets(rows, meta, CHATS)
    return subset_rows(subsets)


def main(argv: list[str] | None = None) -> int:
    """Round 16's held-out chats, scored by kind."""
    return run_by_kind(argv, __doc__ or "", DATA, QUESTIONS, by_kind)


if __name__ == "__main__":
    raise SystemExit(main())
