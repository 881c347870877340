"""Issue 19, round 18: recall on the held-out chats written for it (bench/data/realchat_heldout16), by kind.

``bench/recall_round12.py`` on the set (each chat imported into its own store as ``mem.py import`` does,
turn-level scoring, "newer above older" for the questions about a value that changed), then the figures
by kind: the questions asked in words the chat does not use (``gap: true``: a paraphrase, a category, a
time said differently, another language), the multi-hop ones, the updates, the questions asking how much,
and each chat (a two-project work chat, a ChatGPT export that comes back to subjects, a Turkish reunion
planned over six months, a Greeklish couple's short turns).

    python bench/recall_round18.py --reuse /tmp/r18                              # this tree
    python bench/recall_round18.py --reuse /tmp/r18b --tree /work/base-start     # the session start
    python bench/recall_round18.py --reuse /tmp/r18 --misses                     # every miss, one by one
    python bench/recall_round18.py --rows OUT.json                               # the table of a saved run

(``--rows`` reads the ``--json`` output of ``bench/recall_round12.py --set bench/data/realchat_heldout16.jsonl``
run in any tree: the way to score a tree whose bench/ predates this file.)
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from bench.recall_round13 import amount_kinds, run_by_kind  # noqa: E402

DATA = HERE / "bench" / "data" / "realchat_heldout16"
QUESTIONS = HERE / "bench" / "data" / "realchat_heldout16.jsonl"
CHATS = {"agentur.txt": "the work chat of two projects", "chatgpt_export.json": "the ChatGPT export (9 conversations)",
         "mezuniyet.txt": "the Turkish reunion group", "spiti.txt": "the Greeklish couple"}


by_kind = amount_kinds(CHATS)


def main(argv: list[str] | None = None) -> int:
    """Round 18's held-out chats, scored by kind."""
    return run_by_kind(argv, __doc__ or "", DATA, QUESTIONS, by_kind)


if __name__ == "__main__":
    raise SystemExit(main())
