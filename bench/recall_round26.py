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
    python bench/recall_round26.py --loo /tmp/loo                                # the round's switch on both dev sets
    python bench/recall_round26.py --reuse /tmp/r26 --config kw_cover=0.5        # the held-out set with it on

``--loo DIR`` scores the round's switch (``RecallConfig.kw_cover``, memengine/recall/vocab_cover.py: the keyword
weight in proportion to the share of the question's words the store holds, up to that share, the rest moved to the
vector weight; the words weighed by idf or alike) on both dev sets with bench/loo.py's stores and protocol: each
held-out fold chooses its variant on the other folds by recall@5 (``--objective recall@10`` to choose by that).
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


FULL = (1.0, 0.75, 0.5, 0.35)


def variants() -> dict[str, Any]:
    """label -> RecallConfig: the engine (``off*``) and the round's settings."""
    from dataclasses import replace

    from memory_core import RecallConfig

    d = replace(RecallConfig(), kw_cover=0.0)
    return {"off*": d, **{f"kw_cover {f} {by}": replace(d, kw_cover=f, kw_cover_by=by)
                          for by in ("idf", "words") for f in FULL}}


def dev_loo(directory: Path, objective: str = "recall@5") -> int:
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
    print(f"# The keyword weight by the question words the store holds (vocab_cover.py); folds choose by {objective}: "
          f"{counts}\n")
    print(md_table(["variant", "LoCoMo r@5", "LoCoMo r@10", "LoCoMo multi all@10", "real r@5", "real r@10",
                    "real multi all@10"], rows))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Round 26's held-out chats, scored by kind (or ``--loo DIR [--objective METRIC]``: the switch on both dev sets)."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--loo"] and len(args) in (2, 4):
        return dev_loo(Path(args[1]), args[3] if len(args) == 4 and args[2] == "--objective" else "recall@5")
    return run_by_kind(argv, __doc__ or "", DATA, QUESTIONS, by_kind)


if __name__ == "__main__":
    raise SystemExit(main())
