"""Round 49: one RecallConfig field over the agent-note dev sets — each value's top-1 / r@5 per set, the value
chosen leaving each set out, and every question whose top-1 moved (``--changes``).

Sets: bench/recall47_head.SETS and the lead's agent32 (lead_probes21), or ``--sets``. Values are Python literals
(``0.0 0.5 1.0``, ``"" "ratio:20"``); the first is the one labelled off and compared against.

    .venv/bin/python bench/recall49_grid.py --reuse /tmp/r49dev --field notes_lang --values 0.0 0.5 1.0 --changes
"""

from __future__ import annotations

import argparse
import ast
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.recall45_same import print_loo, print_rank_changes  # noqa: E402
from bench.recall49_crosslang import DEV  # noqa: E402
from bench.recall_notes import load_questions, run  # noqa: E402
from memengine.recall.config import RecallConfig  # noqa: E402


def run_grid(sets: list[str], field: str, values: list[Any], reuse: Path
             ) -> tuple[list[str], dict[str, dict[str, tuple[float, float]]], dict[tuple[str, str], list[dict[str, Any]]]]:
    """Recall every note set (folders under bench/data, stores kept in ``reuse``) with ``field`` set to each of
    ``values`` (the first is "off") and print each set's top-1 / r@5 per value; returns the value labels, those
    scores by set and label, and each run's per-question rows (for the leave-one-set-out and the rank changes)."""
    grid = ["off", *[repr(v) for v in values[1:]]]
    scores: dict[str, dict[str, tuple[float, float]]] = {}
    rows_of: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for s in sets:
        data = REPO / "bench" / "data" / s
        d = reuse / s.replace("/", "_")
        d.mkdir(parents=True, exist_ok=True)
        scores[s] = {}
        for label, v in zip(grid, values, strict=True):
            rows, _ = run(d, True, replace(RecallConfig(), **{field: v}), data=data)
            rows_of[s, label] = rows
            n = len(rows) or 1
            scores[s][label] = (sum(r["top1"] for r in rows) / n, sum(r["r5"] for r in rows) / n)
    print(f"{field}: top-1 / r@5")
    print("| set | " + " | ".join(grid) + " |")
    print("|---|" + "---|" * len(grid))
    for s in sets:
        print(f"| {s} | " + " | ".join(f"{t:.3f} / {r:.3f}" for t, r in scores[s].values()) + " |")
    return grid, scores, rows_of


def main(argv: list[str] | None = None) -> int:
    """Score every value on every set, then the leave-one-set-out choice."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", metavar="DIR", required=True, help="keep / reuse the stores here")
    ap.add_argument("--field", required=True, help="the RecallConfig field")
    ap.add_argument("--values", nargs="+", required=True, help="its values (literals; the first is 'off')")
    ap.add_argument("--sets", nargs="*", default=list(DEV), help="the sets (folders under bench/data)")
    ap.add_argument("--changes", action="store_true", help="print each question whose top-1 moved against off")
    ap.add_argument("--kind", help="also the top-1 of the questions of this kind (e.g. crosslang)")
    args = ap.parse_args(argv)
    values: list[Any] = [ast.literal_eval(v) for v in args.values]
    grid, scores, rows_of = run_grid(args.sets, args.field, values, Path(args.reuse))
    kinds = {q["id"]: q.get("kinds", []) for s in args.sets for q in load_questions(REPO / "bench" / "data" / s)}
    print("| mean top-1 | " + " | ".join(f"{sum(scores[s][v][0] for s in args.sets) / len(args.sets):.4f}"
                                        for v in grid) + " |")
    print("| questions top-1 | " + " | ".join(str(sum(r["top1"] for s in args.sets for r in rows_of[s, v]))
                                             for v in grid) + " |")
    if args.kind:
        print(f"| {args.kind} top-1 | " + " | ".join(
            str(sum(r["top1"] for s in args.sets for r in rows_of[s, v] if args.kind in kinds[r["id"]]))
            for v in grid) + " |")
    print_loo(scores, args.sets, grid)
    if args.changes:
        print_rank_changes(rows_of, args.sets, grid[1:])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
