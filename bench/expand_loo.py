"""Multi-hop expansion (memengine/recall/expand.py) on both dev sets, in-sample and leave-one-out.

Each variant sets the expansion constants of ``RecallConfig`` (coverage bonus, second hop into
other sessions, seeds kept); every question of both dev sets is scored through the engine's own
``_rank`` (bench/loo.py's fast path: one retrieval per question). For each objective (the mean of
the two sets' recall@5, recall@10, or all-evidence@10) every held-out fold (a LoCoMo
conversation or a real chat) gets the variant best on all other folds of both sets.

    python bench/expand_loo.py --reuse /tmp/rc          # stores as bench/loo.py builds them
"""

from __future__ import annotations

import argparse
import itertools
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bench.loo as loo  # noqa: E402
from bench.common import log, md_table  # noqa: E402
from memory_core import RecallConfig  # noqa: E402


def grid() -> dict[str, RecallConfig]:
    """The variants: off, coverage alone, hop alone, both."""
    d = RecallConfig()
    out = {"off*": d}
    for seeds, w in itertools.product((1, 3, 5), (0.05, 0.1, 0.2, 0.4)):
        out[f"coverage w={w} seeds={seeds}"] = replace(d, w_coverage=w, expand_seeds=seeds)
    for seeds, w, share in itertools.product((1, 3, 5), (0.05, 0.1, 0.2), (0.003, 0.01, 0.03)):
        out[f"hop w={w} seeds={seeds} share={share}"] = replace(d, w_hop=w, expand_seeds=seeds, hop_rare_share=share)
    for w in (0.05, 0.1, 0.2):
        out[f"both w={w} seeds=3"] = replace(d, w_coverage=w, w_hop=w, expand_seeds=3)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", metavar="DIR", required=True, help="stores and the result cache (as bench/loo.py)")
    ap.add_argument("--only", default="", help="comma list of variant label prefixes (default: all)")
    args = ap.parse_args(argv)
    directory = Path(args.reuse)
    items = loo.load_items(Path(loo.DEFAULT_LOCOMO), Path(loo.DEFAULT_DATA), Path(loo.DEFAULT_QUESTIONS), directory)
    scorer = loo.Scorer(items, directory / "expand-cache.json")
    only = [s.strip() for s in args.only.split(",") if s.strip()]
    variants: dict[str, Any] = {}
    for lab, cfg in grid().items():
        if only and lab != "off*" and not any(lab.startswith(o) for o in only):
            continue
        log(f"variant {lab}")
        variants[lab] = scorer.scores(cfg)
    rows = []
    for lab, sc in variants.items():
        row: list[Any] = [lab]
        for s in loo.SETS:
            m = loo.set_metrics(loo.by_set(items, s), sc)
            row += [m["recall@5"], m["recall@10"], m["multi_all@10"]]
        rows.append(row)
    rows.sort(key=lambda r: -(r[3] + r[6]))
    print("## Expansion variants, in-sample (sorted by the mean of the two sets' multi-hop all@10)\n")
    print(md_table(["variant", "LoCoMo r@5", "LoCoMo r@10", "LoCoMo multi all@10", "real r@5", "real r@10",
                    "real multi all@10"], rows[:25]))
    print()
    out_rows = []
    for objective in ("recall@5", "recall@10", "all@10"):
        loo.OBJECTIVE = objective
        chosen = loo.loo_choose(items, variants)
        ho = loo.held_out(items, chosen, variants)
        counts: dict[str, int] = {}
        for lab in chosen.values():
            counts[lab] = counts.get(lab, 0) + 1
        for s in loo.SETS:
            its = loo.by_set(items, s)
            a, b = loo.set_metrics(its, variants["off*"]), loo.set_metrics(its, ho)
            out_rows.append([objective, s, a["recall@5"], b["recall@5"], a["recall@10"], b["recall@10"],
                             a["multi_all@10"], b["multi_all@10"],
                             ", ".join(f"{lab}×{n}" for lab, n in sorted(counts.items(), key=lambda x: -x[1])[:3])])
    print("## Leave-one-out: off (the engine) vs the variant each fold chose on the other folds\n")
    print(md_table(["objective", "set", "r@5 off", "r@5 LOO", "r@10 off", "r@10 LOO", "multi all@10 off",
                    "multi all@10 LOO", "chosen (top 3)"], out_rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
