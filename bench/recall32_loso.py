"""Issue 19, round 32: a recall constant chosen by leave-one-SET-out over the dev sets and the held-out chat sets.

The items are bench/loo.py's (the five LoCoMo dev conversations and the real-chat dev set, every chat a fold) plus
the held-out chat sets 19-24 and 28 (each set one fold, and one set of its own). Each variant of a grid is scored once
per question through loo.py's ``Scorer`` (the retrieval of a question is computed once and reused by every variant:
the steps after fusion are all that a post-fusion constant changes). Then, for every fold, the variant with the best
objective on all OTHER folds is scored on the held-out fold. The objective is the mean over the sets of each set's
recall@5 (every set weighs the same, however many questions it has). Reported per set: the step off (the session's base), each
variant in-sample, and the leave-one-out figure (LoCoMo and real-chat dev: leave-one-conversation/chat-out as
bench/loo.py; a held-out set: leave-that-set-out), with the choice each fold made.

    python bench/recall32_loso.py --reuse /tmp/recall32 --grid newname       # held-outs in DIR/base-hNN
    python bench/recall32_loso.py --reuse DIR --grid newname --sets 19,20,21 --no-locomo

``DIR/loo`` holds the dev stores (as bench/loo.py's ``--reuse``), ``DIR/loso-cache.json`` the per-question scores.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from bench import loo  # noqa: E402
from bench.common import DEFAULT_LOCOMO, log, md_table  # noqa: E402
from bench.realchat import DEFAULT_DATA, DEFAULT_QUESTIONS, build_chat_stores, load_questions  # noqa: E402
from memory_core import RecallConfig  # noqa: E402

HELDOUTS = ("19", "20", "21", "22", "23", "24", "28")
D = RecallConfig()


def grids() -> dict[str, dict[str, RecallConfig]]:
    """The grids of this round (each holds the default, marked *)."""
    def label(gate: str, w: float) -> str:
        return f"{gate} {w}" + ("*" if (gate, w) == (D.newname, D.w_newname) else "")

    newname = {"off": replace(D, newname="", w_newname=0.0)}
    for gate, weights in (("wh", (0.5, 0.75)), ("wh:rare", (0.75, 1.0, 1.5))):
        for w in weights:
            newname[label(gate, w)] = replace(D, newname=gate, w_newname=w)
    final = {"off": newname["off"], label(D.newname, D.w_newname): D}
    return {"newname": newname, "final": final}


def heldout_items(sets: list[str], reuse: Path, emb: Any) -> list[loo.Item]:
    """The held-out chat sets' questions as Items (set and fold: ``hNN``), their stores in ``reuse/base-hNN``."""
    items = []
    for n in sets:
        qs = load_questions(HERE / "bench" / "data" / f"realchat_heldout{n}.jsonl")
        stores = build_chat_stores(qs, HERE / "bench" / "data" / f"realchat_heldout{n}", reuse / f"base-h{n}", emb,
                                   reuse=True)
        items += [loo.Item(f"h{n}", f"h{n}", f"H{n}:{q.id}", stores[q.file], q.question, q.evidence,
                           q.category == "multi-hop") for q in qs]
    return items


def objective(items: list[loo.Item], sc: dict[str, dict[str, float]]) -> float:
    """Mean over the sets present of each set's mean recall@5."""
    sets = sorted({it.set for it in items})
    return statistics.fmean(statistics.fmean(sc[it.key]["recall@5"] for it in items if it.set == s) for s in sets)


def choose(items: list[loo.Item], variants: dict[str, dict[str, dict[str, float]]]) -> dict[str, str]:
    """For every fold, the label with the best objective on all other folds (ties to the default)."""
    out = {}
    for fold in sorted({it.fold for it in items}):
        train = [it for it in items if it.fold != fold]
        out[fold] = max(variants, key=lambda lab: (round(objective(train, variants[lab]), 9), lab.endswith("*")))
    return out


def main(argv: list[str] | None = None) -> int:
    """In-sample and leave-one-set-out figures of a grid."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", required=True, metavar="DIR")
    ap.add_argument("--grid", default="newname", help=f"one of {', '.join(grids())}")
    ap.add_argument("--sets", default=",".join(HELDOUTS), help="held-out sets (default: %(default)s)")
    ap.add_argument("--no-locomo", action="store_true", help="the real-chat dev set and the held-outs only")
    args = ap.parse_args(argv)
    from embedder import get_embedder

    reuse = Path(args.reuse)
    emb = loo.QueryCache(get_embedder())
    items: list[loo.Item] = []
    if args.no_locomo:
        rq = load_questions(DEFAULT_QUESTIONS)
        rstores = build_chat_stores(rq, DEFAULT_DATA, reuse / "loo" / "realchat", emb, reuse=True)
        items += [loo.Item("realchat", q.fold, f"R:{q.id}", rstores[q.file], q.question, q.evidence,
                           q.category == "multi-hop") for q in rq]
    else:
        items += loo.load_items(DEFAULT_LOCOMO, DEFAULT_DATA, DEFAULT_QUESTIONS, reuse / "loo")
    items += heldout_items([s for s in args.sets.split(",") if s], reuse, emb)
    scorer = loo.Scorer(items, reuse / "loso-cache.json")
    grid = grids()[args.grid]
    variants = {}
    for lab, cfg in grid.items():
        log(f"{args.grid} {lab}")
        variants[lab] = scorer.scores(cfg)
    chosen = choose(items, variants)
    sets = sorted({it.set for it in items}, key=lambda s: (s.startswith("h"), s))
    default = "off"  # the gain is against the step switched off (the session's base)
    rows = []
    for s in sets:
        sub = [it for it in items if it.set == s]
        r5 = {lab: statistics.fmean(v[it.key]["recall@5"] for it in sub) for lab, v in variants.items()}
        held = statistics.fmean(variants[chosen[it.fold]][it.key]["recall@5"] for it in sub)
        r10 = statistics.fmean(variants[chosen[it.fold]][it.key]["recall@10"] for it in sub)
        base10 = statistics.fmean(variants[default][it.key]["recall@10"] for it in sub)
        picks = sorted({chosen[it.fold] for it in sub})
        rows.append([s, len(sub), f"{r5[default]:.3f}", *(f"{r5[lab]:.3f}" for lab in grid if lab != default),
                     f"**{held:.3f}** ({held - r5[default]:+.3f})", f"{base10:.3f} → {r10:.3f}", ", ".join(picks)])
    print(md_table(["set", "n", "off (base)", *(lab for lab in grid if lab != default),
                    "leave-one-out r@5 (gain)", "r@10 shipped → LOO", "chosen"], rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
