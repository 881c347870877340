#!/usr/bin/env python3
"""How fusion puts bm25 and cosine on one scale (issue 7): min-max or z-scores.

Scores the 760 LoCoMo dev questions with ``RecallConfig.normalise`` = ``minmax`` and
``zscore`` at several ``z_scale`` values, then selects among them by leave-one-conversation-
out (LOO) on recall@10, recall@5 and all@10: for each held-out conversation the setting
best on the other four is scored on it.

    python bench/recall_norm.py --reuse /tmp/locomo-stores
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

# the repository first: bench/keyword_index.py must not shadow the engine's keyword_index
# (this script's own directory is already on the path, after it)
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import common  # noqa: E402
import recall_ablation as ra  # noqa: E402

from memory_core import RecallConfig  # noqa: E402

SCALES = (0.1, 0.15, 0.2, 0.25)


def main() -> None:
    stores, questions = ra.dev_stores(ra.dev_parser(__doc__).parse_args())
    base = RecallConfig()
    configs = {"min-max": replace(base, normalise="minmax")}
    configs.update({f"z-score x{z}": replace(base, normalise="zscore", z_scale=z) for z in SCALES})
    rows = []
    for name, cfg in configs.items():
        res = common.evaluate(stores, questions, ra.fn_for(cfg))
        o, cats = res["overall"], res["by_category"]
        rows.append([name, o["recall@5"], o["recall@10"], o["mrr"], o["all@10"], cats[1]["all@10"],
                     *[cats[c]["recall@5"] for c in ra.SCORED]])
        common.log(f"  {name}: r@10 {o['recall@10']:.3f}")
    print("## normalisation (LoCoMo dev, 760 questions, categories 1-4)\n")
    print(common.md_table(["normalisation", "r@5", "r@10", "MRR", "all@10", "multi-hop all@10", "multi-hop r@5",
                           "temporal r@5", "open-domain r@5", "single-hop r@5"], rows))
    fns = {name: ra.fn_for(cfg) for name, cfg in configs.items()}
    for metric in ("recall@10", "recall@5", "all@10"):
        loo = common.leave_one_out(stores, questions, fns, metric=metric)
        print(f"\n### leave-one-conversation-out on {metric}: estimate {loo['loo_estimate']:.3f}\n")
        print(common.md_table(["held out", "chosen", f"train {metric}", f"held-out {metric}", "n"],
                              [[f["held_out"], f["chosen"], f["train"], f["test"], f["n"]] for f in loo["folds"]]))


if __name__ == "__main__":
    main()
