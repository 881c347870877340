"""Issue 19, round 46: round 44's pooled protocol over SEVEN sets (held-out 39, read by round 44, joins the pool), for
this round's switches: each set's r@5 / r@10 / MRR / multi-hop all@10 per variant, then leave-one-set-out and
leave-one-chat-out as ``bench/recall44_pool.py`` scores them (the objective: the mean over sets of each set's r@5; a
switch stays only when its LOSO gain is positive and no set loses beyond two paired standard errors).

    python bench/recall46_pool.py --reuse /tmp/r46/pool                    # every switch of this round
    python bench/recall46_pool.py --reuse /tmp/r46/pool --only when

``DIR/loo`` holds the dev stores, ``DIR/base-hNN`` each held-out's, ``DIR/pool46-cache.json`` the per-question scores.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from bench import loo  # noqa: E402
from bench.common import DEFAULT_LOCOMO, log, md_table  # noqa: E402
from bench.realchat import DEFAULT_DATA, DEFAULT_QUESTIONS  # noqa: E402
from bench.recall44_pool import heldout_items, print_report, report  # noqa: E402
from memory_core import RecallConfig  # noqa: E402

POOLED = ("30", "35", "37", "38", "39")


def grids() -> dict[str, dict[str, RecallConfig]]:
    """This round's switches, each against the default (its label marked ``*``)."""
    d = RecallConfig()
    lang = d.time_words.partition(":")[0]
    return {
        # "when" asked by a question's later clause gets the time prior too (priors.WHEN_CLAUSE_RE; on since round 46:
        # the other variant is the rule before it, "when" read at the question's head only)
        "when in a later clause (time_words :clause)": {
            f"{d.time_words}*": d, lang: replace(d, time_words=lang)},
        # an English "when" question over a chat in another language: the turns' time words in every language read
        # (calendar_words.py), the questions' "when" still English only (round 18's "all" tied the two together)
        "time words of any language in the turns, English questions (time_words en+)": {
            f"{d.time_words}*": d, "en+:clause": replace(d, time_words="en+:clause"),
            "all:clause": replace(d, time_words="all:clause")},
    }


def run(argv: list[str] | None, doc: str | None, pooled: Sequence[str],
        grid_of: Callable[[], dict[str, dict[str, RecallConfig]]], cache_name: str,
        after: Callable[[list[loo.Item], dict[str, Any]], None] | None = None) -> int:
    """Per-set figures of every variant of ``grid_of()``, and the pooled leave-one-set-out report, over LoCoMo dev,
    real-chat dev and the held-outs ``pooled`` (per-question scores cached in DIR/``cache_name``); ``after`` prints
    more of each switch from its items and variants (bench/recall48_pool.py: the same choice on other metrics)."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", required=True, metavar="DIR")
    ap.add_argument("--sets", default=",".join(pooled), help="held-out sets pooled (default: %(default)s)")
    ap.add_argument("--only", default="", help="comma list of switch names (substrings; default: all)")
    args = ap.parse_args(argv)
    from embedder import get_embedder

    reuse = Path(args.reuse)
    items = loo.load_items(DEFAULT_LOCOMO, DEFAULT_DATA, DEFAULT_QUESTIONS, reuse / "loo")
    items += heldout_items([s for s in args.sets.split(",") if s], reuse, loo.QueryCache(get_embedder()))
    return print_grids(items, loo.Scorer(items, reuse / cache_name), grid_of(), args.only, after,
                       later=("h",))


def print_grids(items: list[loo.Item], scorer: loo.Scorer, grids_: dict[str, dict[str, RecallConfig]], only: str,
                after: Callable[[list[loo.Item], dict[str, Any]], None] | None = None,
                later: tuple[str, ...] = ("h",)) -> int:
    """For each switch of ``grids_`` (those whose name holds a comma-listed substring of ``only``; all when empty):
    each set's r@5 / r@10 / MRR / multi-hop all@10 per variant (sets whose name starts with ``later`` last), the
    pooled leave-one-set-out report, then ``after(items, variants)``."""
    sets = sorted({it.set for it in items}, key=lambda s: (s.startswith(later), s))
    wanted = [w for w in only.split(",") if w]
    for name, grid in grids_.items():
        if wanted and not any(w in name for w in wanted):
            continue
        log(f"{name}: {len(grid)} variants")
        variants = {lab: scorer.scores(cfg) for lab, cfg in grid.items()}
        rows = []
        for s in sets:
            sub = [it for it in items if it.set == s]
            for lab, sc in variants.items():
                m = loo.set_metrics(sub, sc)
                rows.append([s, lab, len(sub), *(f"{m[k]:.3f}" for k in ("recall@5", "recall@10", "mrr",
                                                                           "multi_all@10"))])
        print(f"\n## {name}\n")
        print(md_table(["set", "variant", "n", "recall@5", "recall@10", "MRR", "multi-hop all@10"], rows))
        print_report(report(items, name, variants))
        if after is not None:
            after(items, variants)
        sys.stdout.flush()
    return 0


def main(argv: list[str] | None = None) -> int:
    """Per-set figures of every variant, and the pooled leave-one-set-out report."""
    return run(argv, __doc__, POOLED, grids, "pool46-cache.json")

if __name__ == "__main__":
    raise SystemExit(main())
