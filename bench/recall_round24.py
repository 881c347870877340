"""Issue 19, round 24: recall on the held-out chats written for it (bench/data/realchat_heldout21), by kind.

``bench/recall_round12.py`` on the set (each chat imported into its own store as ``mem.py import`` does,
turn-level scoring), then the figures by kind: the questions asked in words the chat does not use (``gap:
true``), the multi-hop ones (and their all@10: every evidence turn in the top 10, LoCoMo's multi-hop aim), and
each chat: two LONG chats of the LoCoMo kind (two friends telling each other about their lives over months in
sessions of short turns, 390 and 326 turns: a Bergen music teacher and a Porto Alegre sound engineer, a Cardiff
firefighter and a Helsinki game developer), an allotment society's group chat, and a ChatGPT export of three
conversations planning a cycling trip.

    python bench/recall_round24.py --reuse /tmp/r24                              # this tree
    python bench/recall_round24.py --reuse /tmp/r24b --tree /work/base-start     # another tree (the base)
    python bench/recall_round24.py --reuse /tmp/r24 --misses                     # every miss, one by one
    python bench/recall_round24.py --rows OUT.json                               # the table of a saved run
    python bench/recall_round24.py --loo /tmp/loo                                # the round's switch on both dev sets

``--loo DIR`` scores the round's step (memengine/recall/answers.py: the answer to a top hit's question placed right
after it, below the first five) on both dev sets with bench/loo.py's stores and protocol; as it cannot move the first
five, each held-out fold chooses its variant by recall@10 on the other folds (as bench/recall_tail.py).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from bench.recall_round13 import kind_subsets, question_meta, run_by_kind, subset_rows  # noqa: E402
from bench.recall_round22 import all_at_10  # noqa: E402

DATA = HERE / "bench" / "data" / "realchat_heldout21"
QUESTIONS = HERE / "bench" / "data" / "realchat_heldout21.jsonl"
CHATS = {"bandmates.txt": "Bergen-Porto Alegre friends (390 turns)",
         "gamedev.txt": "Cardiff-Helsinki friends (326 turns)",
         "allotment.txt": "the allotment society group", "danube_export.json": "the ChatGPT trip planning"}


def by_kind(rows: list[dict[str, Any]], questions: Path) -> list[list[Any]]:
    """Rows of (subset, n, recall@5, recall@10, MRR) by kind and chat, then the multi-hop all@10."""
    meta = question_meta(questions)
    table = subset_rows(kind_subsets(rows, meta, CHATS))
    multi = [r for r in rows if r["category"] == "multi-hop"]
    table.append(["multi-hop **all@10** (recall@5 column)", len(multi), all_at_10(multi), "", ""])
    return table


def variants() -> dict[str, Any]:
    """label -> RecallConfig: the engine (``off*``) and the answer step's settings."""
    from dataclasses import replace

    from memory_core import RecallConfig

    d = replace(RecallConfig(), answer_seeds=0)
    out: dict[str, Any] = {"off*": d}
    for seeds in (5, 10):
        out[f"seeds {seeds}"] = replace(d, answer_seeds=seeds, answer_gate="")
        for gate in ("self", "prompt"):
            out[f"seeds {seeds} {gate}"] = replace(d, answer_seeds=seeds, answer_gate=gate)
    return out


def dev_loo(directory: Path, objective: str = "recall@10") -> int:
    """Both dev sets under every variant, then leave-one-out by ``objective`` (the table printed)."""
    from bench import loo
    from bench.common import md_table

    items = loo.load_items(Path(loo.DEFAULT_LOCOMO), Path(loo.DEFAULT_DATA), Path(loo.DEFAULT_QUESTIONS), directory)
    scorer = loo.Scorer(items, directory / "loo-cache.json")
    got = {lab: scorer.scores(cfg) for lab, cfg in variants().items()}
    loo.OBJECTIVE = objective
    chosen = loo.loo_choose(items, got)
    ho = loo.held_out(items, chosen, got)
    counts: dict[str, int] = {}
    for lab in chosen.values():
        counts[lab] = counts.get(lab, 0) + 1
    rows = []
    for lab, sc in [*got.items(), ("leave-one-out", ho)]:
        row: list[Any] = [lab]
        for s in loo.SETS:
            m = loo.set_metrics(loo.by_set(items, s), sc)
            row += [m["recall@5"], m["recall@10"], m["multi_all@10"]]
        rows.append(row)
    print(f"# The answer to a top hit's question, ranks 6+ (answers.py); folds choose by {objective}: {counts}\n")
    print(md_table(["variant", "LoCoMo r@5", "LoCoMo r@10", "LoCoMo multi all@10", "real r@5", "real r@10",
                    "real multi all@10"], rows))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Round 24's held-out chats, scored by kind (or ``--loo DIR``: the round's step on both dev sets)."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--loo"] and len(args) == 2:
        return dev_loo(Path(args[1]))
    return run_by_kind(argv, __doc__ or "", DATA, QUESTIONS, by_kind)


if __name__ == "__main__":
    raise SystemExit(main())
