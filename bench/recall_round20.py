"""Issue 19, round 20: recall on the held-out chats written for it (bench/data/realchat_heldout18), by kind.

``bench/recall_round12.py`` on the set (each chat imported into its own store as ``mem.py import`` does,
turn-level scoring, "newer above older" for the questions about a value that changed), then the figures
by kind: the questions asked in words the chat does not use (``gap: true``), the multi-hop ones, the
updates, the questions asking how much, and each chat (Singapore co-parents, a Mexico City band, an
Indonesian catering business, a Claude export of a year with a new diagnosis).

    python bench/recall_round20.py --reuse /tmp/r20                              # this tree
    python bench/recall_round20.py --reuse /tmp/r20b --tree /work/base-start     # the session start
    python bench/recall_round20.py --reuse /tmp/r20 --misses                     # every miss, one by one
    python bench/recall_round20.py --rows OUT.json                               # the table of a saved run
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from bench.recall_round13 import amount_kinds, run_by_kind  # noqa: E402

DATA = HERE / "bench" / "data" / "realchat_heldout18"
QUESTIONS = HERE / "bench" / "data" / "realchat_heldout18.jsonl"
CHATS = {"coparents.txt": "the Singapore co-parents", "banda.txt": "the Mexico City band",
         "katering.txt": "the Indonesian catering business", "claude_export.json": "the Claude export (a diagnosis)"}


by_kind = amount_kinds(CHATS)


def main(argv: list[str] | None = None) -> int:
    """Round 20's held-out chats, scored by kind."""
    return run_by_kind(argv, __doc__ or "", DATA, QUESTIONS, by_kind)


if __name__ == "__main__":
    raise SystemExit(main())
