"""Issue 19, round 50: the list-question switches re-decided over ELEVEN pooled sets — LoCoMo dev, real-chat dev,
held-outs 30, 35, 37, 38, 39, 40 and 41 (read by round 48: pooled now), and the lead's probes chat21 and chat22
(``bench/data/lead_probes21`` / ``22``, no longer blind). Held-out 42 stays out, scored once at the end by
bench/recall50.py.

Each switch's per-set r@5 / r@10 / MRR / multi-hop all@10, the leave-one-set-out report of bench/recall44_pool.py
(objective: the mean over sets of each set's r@5), the same choice made on r@10 and on multi-hop all@10, and the list
questions apart (``--lists``: per set, the questions the engine reads as a list, r@10 and all@10 per variant, and the
questions each variant moves).

    python bench/recall50_pool.py --reuse /tmp/r50/pool                       # every switch of this round
    python bench/recall50_pool.py --reuse /tmp/r50/pool --only spread --lists

``DIR/loo`` holds the dev stores, ``DIR/base-hNN`` each held-out's, ``DIR/base-cNN`` the lead's chats,
``DIR/pool50-cache.json`` the per-question scores.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from bench import loo  # noqa: E402
from bench.common import DEFAULT_LOCOMO  # noqa: E402
from bench.realchat import DEFAULT_DATA, DEFAULT_QUESTIONS, build_chat_stores, load_questions  # noqa: E402
from bench.recall46_pool import print_grids  # noqa: E402
from bench.recall48_pool import by_metric  # noqa: E402
from memory_core import RecallConfig  # noqa: E402

HELD = ("30", "35", "37", "38", "39", "40", "41")
LEAD = {"c21": HERE / "bench" / "data" / "lead_probes21" / "chat21",
        "c22": HERE / "bench" / "data" / "lead_probes22" / "chat22"}


def chat_items(name: str, data: Path, qpath: Path, reuse: Path, emb: Any) -> list[loo.Item]:
    """One chat set's questions as Items: set ``name``, one fold per chat file, stores under ``reuse``."""
    qs = load_questions(qpath)
    stores = build_chat_stores(qs, data, reuse, emb, reuse=True)
    return [loo.Item(name, f"{name}:{q.file}", f"{name.upper()}:{q.id}", stores[q.file], q.question, q.evidence,
                     q.category == "multi-hop") for q in qs]


def pooled_items(reuse: Path, held: list[str], lead: list[str]) -> list[loo.Item]:
    """LoCoMo dev, real-chat dev, the held-outs ``held`` and the lead's chats ``lead``."""
    from embedder import get_embedder

    emb = loo.QueryCache(get_embedder())
    items = loo.load_items(DEFAULT_LOCOMO, DEFAULT_DATA, DEFAULT_QUESTIONS, reuse / "loo")
    for n in held:
        d = HERE / "bench" / "data" / f"realchat_heldout{n}"
        items += chat_items(f"h{n}", d, d.with_suffix(".jsonl"), reuse / f"base-h{n}", emb)
    for c in lead:
        items += chat_items(c, LEAD[c], LEAD[c].with_suffix(".jsonl"), reuse / f"base-{c}", emb)
    return items


def grids() -> dict[str, dict[str, RecallConfig]]:
    """This round's switches, each against the default (its label marked ``*``)."""
    d = RecallConfig()
    spread = {"off*": d}
    for f in (0.9, 0.8):
        for gap in (0, 60):
            spread[f"{f}:5:{gap}"] = replace(d, list_spread=f"{f}:5:{gap}")
    # round 50: the refill reaches past rank 30 (the spec's pool, honoured by the pipeline since this round)
    deep = {"off*": d}
    for f in (0.9, 0.7, 0.5):
        for pool in (30, 60, 100):
            deep[f"{f}:5:0:{pool}"] = replace(d, list_spread=f"{f}:5:0:{pool}")
    hop = {"off*": d}
    # measured first (load 19, all 0 on every chat set: no seed word is in 1 % of an 80-turn chat but the seed's own):
    # w 0.2 / 0.5 / 1.0 × seeds 1 / 3 × pool 30 / 60, and 0.5:3:100 — LoCoMo r@10 0.828-0.832, all@10 0.296-0.310
    # a chat's rare words by count too (in at most 3 / 6 memories)
    for spec in ("0.2:1:60", "0.5:3:60", "0.5:1:60:6", "0.5:3:60:6", "1.0:3:60:6", "0.2:1:60:3"):
        hop[spec] = replace(d, list_hop=spec)
    return {"a list question's second hop into other sessions, past rank 30 (list_hop w:seeds:pool)": hop,
            "list questions spread over bursts (list_spread factor:start:gap)": spread,
            "list questions spread over bursts, from deeper (list_spread factor:5:0:pool)": deep}


def list_report(items: list[loo.Item], variants: dict[str, Any], is_list: Callable[[str], bool]) -> None:
    """Per set, the list questions (as the engine reads them) under each variant, and every question a variant moves
    on r@10 or all@10."""
    from bench import common

    default = next(lab for lab in variants if lab.endswith("*"))
    rows = []
    for s in sorted({it.set for it in items}, key=lambda s: (s.startswith(("h", "c")), s)):
        sub = [it for it in items if it.set == s and is_list(it.question)]
        if not sub:
            continue
        for lab, sc in variants.items():
            rows.append([s, lab, len(sub), *(f"{statistics.fmean(sc[it.key][m] for it in sub):.3f}"
                                              for m in ("recall@5", "recall@10", "all@10"))])
    print("\n### list questions (as the engine reads them)\n")
    print(common.md_table(["set", "variant", "n", "recall@5", "recall@10", "all@10"], rows))
    for lab, sc in variants.items():
        if lab == default:
            continue
        moved = [(it, sc[it.key]["recall@10"] - variants[default][it.key]["recall@10"],
                  sc[it.key]["all@10"] - variants[default][it.key]["all@10"]) for it in items]
        moved = [m for m in moved if m[1] or m[2]]
        up = sum(1 for m in moved if m[1] > 0 or m[2] > 0)
        print(f"\n{lab}: {len(moved)} questions moved ({up} up)")
        for it, d10, dall in sorted(moved, key=lambda m: (m[0].set, m[1])):
            print(f"  {it.set:9} r@10 {d10:+.2f} all@10 {dall:+.0f}  {it.question[:90]}")


def main(argv: list[str] | None = None) -> int:
    """Per-set figures of every variant, the pooled leave-one-set-out report, the choice on r@10 and all@10."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", required=True, metavar="DIR")
    ap.add_argument("--held", default=",".join(HELD), help="held-out sets pooled (default: %(default)s)")
    ap.add_argument("--lead", default=",".join(LEAD), help="the lead's chats pooled (default: %(default)s)")
    ap.add_argument("--only", default="", help="comma list of switch names (substrings; default: all)")
    ap.add_argument("--lists", action="store_true", help="the list questions apart, and the questions moved")
    args = ap.parse_args(argv)
    from memengine.recall.spread import asks_list

    reuse = Path(args.reuse)
    items = pooled_items(reuse, [s for s in args.held.split(",") if s], [c for c in args.lead.split(",") if c])

    def more(items: list[loo.Item], variants: dict[str, Any]) -> None:
        for metric in ("recall@10", "all@10"):
            gain, per = by_metric(items, variants, metric)
            print(f"\nleave-one-set-out on {metric}{' (multi-hop)' if metric == 'all@10' else ''}: mean gain "
                  f"{gain:+.4f}; " + ", ".join(f"{s} {d:+.3f}" for s, d in per.items()))
        if args.lists:
            list_report(items, variants, asks_list)

    return print_grids(items, loo.Scorer(items, reuse / "pool50-cache.json"), grids(), args.only, more,
                       later=("h", "c"))


if __name__ == "__main__":
    raise SystemExit(main())
