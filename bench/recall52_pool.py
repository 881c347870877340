"""Issue 19, round 52: multi-hop — all the evidence in the top 10, decided over FIFTEEN pooled sets: LoCoMo dev,
real-chat dev, held-outs 30, 35, 37–43 and the lead's chat21 … chat24 (``bench/data/lead_probes21`` … ``24``, no
longer blind). Held-out 44 stays out, scored once at the end by bench/recall52.py.

Each switch's per-set r@5 / r@10 / MRR / multi-hop all@10, the leave-one-set-out report of bench/recall44_pool.py
(objective: the mean over sets of each set's r@5) and the same choice made on r@10 and on multi-hop all@10.

    python bench/recall52_pool.py --reuse /tmp/r52/pool [--only partner]

``DIR/loo`` holds the dev stores, ``DIR/base-hNN`` each held-out's, ``DIR/base-cNN`` the lead's chats,
``DIR/pool52-cache.json`` the per-question scores.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from bench import loo, recall50_pool, recall51_pool  # noqa: E402
from bench.recall46_pool import print_grids  # noqa: E402
from bench.recall48_pool import by_metric  # noqa: E402
from memory_core import RecallConfig  # noqa: E402

HELD = (*recall51_pool.HELD, "43")
LEAD = {**recall51_pool.LEAD, "c24": HERE / "bench" / "data" / "lead_probes24" / "chat24"}
recall50_pool.LEAD.update(LEAD)


def grids() -> dict[str, dict[str, RecallConfig]]:
    """This round's switches, each against the default (its label marked ``*``)."""
    d = RecallConfig()
    partner = {"off*": d}
    # (a post-hoc simulation over the same fifteen sets' top 30 chose the region first: seeds 3, a seed of at most
    # 10-12 words, the next 4 turns by others within a day; these are its neighbours, each way)
    for spec in ("3:10:4:24", "3:12:4:24", "3:8:4:24", "3:15:4:24", "3:20:4:24", "3:999:4:24", "1:10:4:24",
                 "2:10:4:24", "5:10:4:24", "3:10:1:24", "3:10:2:24", "3:10:6:24", "3:10:4:6", "3:10:4:72"):
        partner[spec] = replace(d, partner=spec)
    return {"the reply a short top hit invited, at the tenth place (partner seeds:words:others:hours)": partner}


def main(argv: list[str] | None = None) -> int:
    """Per-set figures of every variant, the pooled leave-one-set-out report."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", required=True, metavar="DIR")
    ap.add_argument("--held", default=",".join(HELD), help="held-out sets pooled (default: %(default)s)")
    ap.add_argument("--lead", default=",".join(LEAD), help="the lead's chats pooled (default: %(default)s)")
    ap.add_argument("--only", default="", help="comma list of switch names (substrings; default: all)")
    args = ap.parse_args(argv)
    reuse = Path(args.reuse)
    items = recall50_pool.pooled_items(reuse, [s for s in args.held.split(",") if s],
                                       [c for c in args.lead.split(",") if c])
    scorer = loo.Scorer(items, reuse / "pool52-cache.json")

    def more(items: list[loo.Item], variants: dict[str, Any]) -> None:
        for metric in ("recall@10", "all@10"):
            gain, per = by_metric(items, variants, metric)
            print(f"\nleave-one-set-out on {metric}{' (multi-hop)' if metric == 'all@10' else ''}: mean gain "
                  f"{gain:+.4f}; " + ", ".join(f"{s} {d:+.3f}" for s, d in per.items()))

    return print_grids(items, scorer, grids(), args.only, more, later=("h", "c"))


if __name__ == "__main__":
    raise SystemExit(main())
