"""Round 42: how a side with only a few keyword hits is scaled, chosen by leave-one-set-out on the agent-note sets.

In a small store a question's words often match two or three notes; min-max then gives the lowest of them the
keyword score of a note that matched nothing (memengine/recall/few_scores.py). This scores every value of
``RecallConfig.kw_few`` (and ``vec_few``) on the agent-note sets written before round 42 (held-outs 29, 29/after,
32, 34, 36, 37: 467 questions), then, leaving each set out in turn, picks the value whose mean top-1 over the other
sets is best (ties: r@5, then the earlier value in the grid, "off" first) and scores it on the set left out.
The chats' side of the same choice is ``bench/loo.py --only "few scores"`` (LoCoMo and real chats, 27 folds).

    .venv/bin/python bench/recall42_few.py --reuse /tmp/few42            # stores kept in DIR
    .venv/bin/python bench/recall42_few.py --reuse /tmp/few42 --changes  # each question whose top-1 moved

Prints per set and value: top-1 and r@5; the leave-one-set-out choice per set; with ``--changes`` the questions
whose first hit became / stopped being an answer against "off".
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

from bench.recall_notes import run  # noqa: E402
from memengine.recall.config import RecallConfig  # noqa: E402

SETS = ("recall_heldout29", "recall_heldout29/after", "recall_heldout32", "recall_heldout34", "recall_heldout36",
        "recall_heldout37")
GRID: dict[str, dict[str, str]] = {
    "off": {"kw_few": "", "vec_few": ""},
    **{f"kw ratio:{n}": {"kw_few": f"ratio:{n}", "vec_few": ""} for n in (3, 5, 10, 20, 1000)},
    "kw floor:0.25:10": {"kw_few": "floor:0.25:10", "vec_few": ""},
    "kw floor:0.5:20": {"kw_few": "floor:0.5:20", "vec_few": ""},
    "vec ratio:20": {"kw_few": "", "vec_few": "ratio:20"},
}


def choose(scores: dict[str, dict[str, tuple[float, float]]], train: list[str]) -> str:
    """The grid value with the best mean top-1 over ``train`` (ties: mean r@5, then grid order)."""
    order = list(GRID)
    return max(order, key=lambda v: (round(sum(scores[s][v][0] for s in train) / len(train), 9),
                                      round(sum(scores[s][v][1] for s in train) / len(train), 9), -order.index(v)))


def main(argv: list[str] | None = None) -> int:
    """Score the grid on every set, then the leave-one-set-out choice."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", metavar="DIR", required=True, help="keep / reuse the stores here")
    ap.add_argument("--changes", action="store_true", help="print each question whose top-1 moved against off")
    args = ap.parse_args(argv)
    base = RecallConfig()
    scores: dict[str, dict[str, tuple[float, float]]] = {}
    rows_of: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for s in SETS:
        d = Path(args.reuse) / s.replace("/", "_")
        d.mkdir(parents=True, exist_ok=True)
        scores[s] = {}
        for label, fields in GRID.items():
            rows, _ = run(d, True, replace(base, **fields), data=REPO / "bench" / "data" / s)
            rows_of[s, label] = rows
            n = len(rows) or 1
            scores[s][label] = (sum(r["top1"] for r in rows) / n, sum(r["r5"] for r in rows) / n)
    print("| set | " + " | ".join(GRID) + " |")
    print("|---|" + "---|" * len(GRID))
    for s in SETS:
        print(f"| {s} | " + " | ".join(f"{t:.3f} / {r:.3f}" for t, r in scores[s].values()) + " |")
    print("| mean top-1 | " + " | ".join(f"{sum(scores[s][v][0] for s in SETS) / len(SETS):.4f}" for v in GRID) + " |")
    print("\nleave one set out (top-1 of the set left out):")
    off_sum = loo_sum = 0.0
    for s in SETS:
        pick = choose(scores, [t for t in SETS if t != s])
        off, got = scores[s]["off"][0], scores[s][pick][0]
        off_sum, loo_sum = off_sum + off, loo_sum + got
        print(f"  {s}: chose {pick}: {off:.3f} -> {got:.3f}")
    print(f"  mean: off {off_sum / len(SETS):.4f}, LOO {loo_sum / len(SETS):.4f}")
    if args.changes:
        for label in GRID:
            if label == "off":
                continue
            for s in SETS:
                before = {r["id"]: r for r in rows_of[s, "off"]}
                for r in rows_of[s, label]:
                    b = before[r["id"]]
                    if b["top1"] != r["top1"]:
                        print(f"  {label}: {r['id']} {'won' if r['top1'] else 'lost'} {b['top'][:3]} -> {r['top'][:3]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
