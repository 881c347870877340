"""Issue 19, round 48: round 44's pooled protocol over EIGHT sets (LoCoMo dev, real-chat dev, held-outs 30, 35, 37,
38, 39 and 40 — held-out 40, read by round 46, joins the pool; held-out 41 stays out, scored once at the end by
bench/recall48.py) for this round's switches: list questions' results spread over bursts or by what they say
(``list_spread``, memengine/recall/spread.py), a list question's person prior (``list_person``), and a question's
ordinal nudging the top toward the end of time it names (``ordinal``, memengine/recall/ordinal.py). Each set's r@5 /
r@10 / MRR / multi-hop all@10 per variant, then leave-one-set-out and leave-one-chat-out as ``bench/recall44_pool.py``
scores them (objective: the mean over sets of each set's r@5), and the same choice made on r@10 and on multi-hop
all@10 (the ranks a spread from rank 6 can move).

    python bench/recall48_pool.py --reuse /tmp/r48/pool
    python bench/recall48_pool.py --reuse /tmp/r48/pool --only ordinal

``DIR/loo`` holds the dev stores, ``DIR/base-hNN`` each held-out's, ``DIR/pool48-cache.json`` the per-question scores.
"""

from __future__ import annotations

import statistics
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from bench import loo, recall46_pool  # noqa: E402
from memory_core import RecallConfig  # noqa: E402

POOLED = ("30", "35", "37", "38", "39", "40")


def grids() -> dict[str, dict[str, RecallConfig]]:
    """This round's switches, each against the default (its label marked ``*``)."""
    d = RecallConfig()
    spread = {"off*": d}
    for f in (0.9, 0.8, 0.6):
        for start in (2, 5):
            for gap in (0, 60):
                spread[f"{f}:{start}:{gap}"] = replace(d, list_spread=f"{f}:{start}:{gap}")
    like = {"off*": d}
    for f in (0.9, 0.8, 0.6):
        for start in (2, 5):
            for tau in (0.8, 0.65):
                like[f"{f}:{start}:c{tau}"] = replace(d, list_spread=f"{f}:{start}:c{tau}")
    # the person prior scaled for a list question alone (a spread that changes nothing: factor 1)
    person = {"off*": d, **{f"x{m}": replace(d, list_spread="1:9:0", list_person=m) for m in (0.5, 1.5, 2.0, 3.0)}}
    ordinal = {"off*": d}
    for w in (0.1, 0.2, 0.4, 0.8):
        for depth in (10, 30):
            ordinal[f"{w}:{depth}"] = replace(d, ordinal=f"{w}:{depth}")
        ordinal[f"{w}:10:early"] = replace(d, ordinal=f"{w}:10:early")
    return {"a question's ordinal, the end of time it names (ordinal w:depth[:ends])": ordinal,
            "list questions spread over bursts (list_spread factor:start:gap)": spread,
            "list questions spread over what they say (list_spread factor:start:c<cosine>)": like,
            "a list question's person prior (list_person, the person's own turns)": person}


def by_metric(items: list[loo.Item], variants: dict[str, Any], metric: str) -> tuple[float, dict[str, float]]:
    """Leave-one-set-out on ``metric`` (every set weighs the same): each set scored with the variant that is best on
    the other sets; the mean gain over the default and each set's delta."""
    sets = sorted({it.set for it in items})
    multi = metric == "all@10"

    def val(sc: Any, s: str) -> float:
        sub = [it for it in items if it.set == s and (it.multi or not multi)]
        return statistics.fmean(sc[it.key][metric] for it in sub) if sub else 0.0

    default = next(lab for lab in variants if lab.endswith("*"))
    per: dict[str, float] = {}
    for s in sets:
        others = [o for o in sets if o != s]
        best = max(variants, key=lambda lab: (statistics.fmean(val(variants[lab], o) for o in others),
                                              lab == default))
        per[s] = val(variants[best], s) - val(variants[default], s)
    return statistics.fmean(per.values()), per


def _other_metrics(items: list[loo.Item], variants: dict[str, Any]) -> None:
    for metric in ("recall@10", "all@10"):
        gain, per = by_metric(items, variants, metric)
        print(f"\nleave-one-set-out on {metric}{' (multi-hop)' if metric == 'all@10' else ''}: mean gain "
              f"{gain:+.4f}; " + ", ".join(f"{s} {d:+.3f}" for s, d in per.items()))


def main(argv: list[str] | None = None) -> int:
    """Per-set figures of every variant, the pooled leave-one-set-out report, and the choice on r@10 and all@10."""
    return recall46_pool.run(argv, __doc__, POOLED, grids, "pool48-cache.json", after=_other_metrics)

if __name__ == "__main__":
    raise SystemExit(main())
