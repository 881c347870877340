"""Round 47: a later note's subject read outside its reason / purpose clauses (memengine/recall/notes_head.py),
chosen by leave-one-set-out on the agent-note dev sets.

``RecallConfig.notes_head``: notes.newer_notes_first and the store's links (notes_links) read a later note's subject
from its head only ("… switched delivery to Wednesdays to match the evening session" is no newer version of the
evening session's note). ``--field`` scores another switch of RecallConfig the same way. This scores every value
on the agent-note sets written before round 47 (held-outs 29, 29/after, 32, 34, 36-39 and the lead's agent30 and
agent31: 671 questions), then, leaving each set out in turn, picks the value best on the others (mean top-1; ties:
r@5, then the earlier value, "off" first) and scores it on the set left out. ``--changes`` prints each question
whose evidence rank moved against off.

    .venv/bin/python bench/recall47_head.py --reuse /tmp/head47
    .venv/bin/python bench/recall47_head.py --reuse /tmp/head47 --changes
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.recall45_same import print_loo, print_rank_changes  # noqa: E402
from bench.recall_notes import run  # noqa: E402
from memengine.recall.config import RecallConfig  # noqa: E402

SETS = ("recall_heldout29", "recall_heldout29/after", "recall_heldout32", "recall_heldout34", "recall_heldout36",
        "recall_heldout37", "recall_heldout38", "recall_heldout39", "lead_probes19/agent30", "lead_probes20/agent31")
VALUES = (False, True)


def _label(v: bool) -> str:
    return "on" if v else "off"


def main(argv: list[str] | None = None) -> int:
    """Score every value on every set, then the leave-one-set-out choice."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", metavar="DIR", required=True, help="keep / reuse the stores here")
    ap.add_argument("--changes", action="store_true", help="print each question whose top-1 moved against off")
    ap.add_argument("--sets", nargs="*", default=list(SETS), help="the sets (folders under bench/data)")
    ap.add_argument("--field", default="notes_head", help="the RecallConfig switch (default notes_head)")
    args = ap.parse_args(argv)
    grid = [_label(v) for v in VALUES]
    scores: dict[str, dict[str, tuple[float, float]]] = {}
    rows_of: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for s in args.sets:
        d = Path(args.reuse) / s.replace("/", "_")
        d.mkdir(parents=True, exist_ok=True)
        scores[s] = {}
        for v in VALUES:
            rows, _ = run(d, True, replace(RecallConfig(), **{args.field: v}), data=REPO / "bench" / "data" / s)
            rows_of[s, _label(v)] = rows
            n = len(rows) or 1
            scores[s][_label(v)] = (sum(r["top1"] for r in rows) / n, sum(r["r5"] for r in rows) / n)
    print("| set | " + " | ".join(grid) + " |")
    print("|---|" + "---|" * len(grid))
    for s in args.sets:
        print(f"| {s} | " + " | ".join(f"{t:.3f} / {r:.3f}" for t, r in scores[s].values()) + " |")
    print("| mean top-1 | " + " | ".join(f"{sum(scores[s][v][0] for s in args.sets) / len(args.sets):.4f}"
                                        for v in grid) + " |")
    print_loo(scores, args.sets, grid)
    if args.changes:
        print_rank_changes(rows_of, args.sets, grid[1:])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
