"""Issue 19, round 22: the expansion's bonuses on ranks 6+ only (``RecallConfig.expand_keep``), by leave-one-out.

Rounds 5 and 11 judged multi-hop expansion (memengine/recall/expand.py: a bonus for covering question words the
results above lack, and a second hop over the first hits' rare words into other sessions) by recall@5, and it
failed: the bonuses reordered ranks 2–5. Since round 21 a recall's list for k ≤ ``step_depth`` is the head of the
list for a larger k, so a step can leave the first five exactly as they are and move only what is below: recall@5
cannot drop, recall@10 and multi-hop all@10 can rise. ``expand_keep = 5`` does that; the variants below are the
expansion's settings with it, each scored on both dev sets (bench/loo.py's stores and protocol). As recall@5 cannot
move, each held-out fold chooses its variant by recall@10 on the other folds of both sets (the objective round 21
used for ranks 6–10 only); the tables give recall@5, recall@10 and multi-hop all@10, in-sample and leave-one-out.

    python bench/recall_tail.py --reuse /tmp/loo      # bench/loo.py's stores and result cache
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from bench import loo  # noqa: E402
from bench.common import md_table  # noqa: E402


def variants() -> dict[str, object]:
    """label -> RecallConfig: the engine (label ``off*``), and the expansion's bonuses on ranks 6+ only."""
    from memory_core import RecallConfig

    d = RecallConfig()
    out: dict[str, object] = {"off*": d}
    for w in (0.1, 0.2, 0.4, 1.0, 2.0):
        out[f"coverage {w}"] = replace(d, w_coverage=w, expand_keep=5)
    for w in (0.05, 0.1, 0.2, 0.5, 1.0):
        for seeds in (1, 3):
            out[f"hop {w} seeds {seeds}"] = replace(d, w_hop=w, expand_seeds=seeds, hop_rare_share=0.03,
                                                    expand_keep=5)
    out["coverage 0.2 + hop 0.1 seeds 1"] = replace(d, w_coverage=0.2, w_hop=0.1, expand_seeds=1,
                                                    hop_rare_share=0.03, expand_keep=5)
    return out


def main(argv: list[str] | None = None) -> int:
    """Both dev sets under every variant, then leave-one-out by recall@10."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", metavar="DIR", required=True, help="dev stores and result cache (as bench/loo.py)")
    ap.add_argument("--objective", default="recall@10", choices=("recall@10", "all@10"),
                    help="what each fold chooses by on the other folds (default: %(default)s)")
    args = ap.parse_args(argv)
    directory = Path(args.reuse)
    items = loo.load_items(Path(loo.DEFAULT_LOCOMO), Path(loo.DEFAULT_DATA), Path(loo.DEFAULT_QUESTIONS), directory)
    scorer = loo.Scorer(items, directory / "loo-cache.json")
    got = {lab: scorer.scores(cfg) for lab, cfg in variants().items()}  # type: ignore[arg-type]
    loo.OBJECTIVE = args.objective
    chosen = loo.loo_choose(items, got)
    ho = loo.held_out(items, chosen, got)
    counts: dict[str, int] = {}
    for lab in chosen.values():
        counts[lab] = counts.get(lab, 0) + 1
    rows = []
    for lab, sc in [*got.items(), ("leave-one-out", ho)]:
        row: list[object] = [lab]
        for s in loo.SETS:
            m = loo.set_metrics(loo.by_set(items, s), sc)
            row += [m["recall@5"], m["recall@10"], m["multi_all@10"]]
        rows.append(row)
    print(f"# The expansion on ranks 6+ (expand_keep 5); folds choose by {args.objective}: {counts}\n")
    print(md_table(["variant", "LoCoMo r@5", "LoCoMo r@10", "LoCoMo multi all@10", "real r@5", "real r@10",
                    "real multi all@10"], rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
