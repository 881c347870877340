"""(brief39) The learned heading ranker fitted on headings a person wrote, leaving one SET out.

brief38's ranker (memengine/topic_rank.py, bench/brief_headrank.py) learnt from the ``.expect`` lists, which hold
bare keywords, so it learnt keywords. Here each candidate heading of a shown topic is labelled by the new judge
(bench/brief_heads.py): its best credit against the set's ``.heads`` labels (a phrase saying what was decided scores
more than a keyword). The candidates a topic takes as right are those of its best credit, when above zero. A
conditional logit (brief_headrank.fit) is fitted on every labelled set but one and picks the headings of the set
left out (brief_headrank.pick: none twice, the rules' heading kept unless beaten by ``--margin``).

Per set: the new judge's credit / phrases for today's headings and the learned ones, and the old judge (``.expect``
goodname lines held, as brief_headrank scores) today and learned. ``--no-decided`` drops the candidates made of the
deciding lines (memengine/topic_decided.py) to see what they add.

    python bench/brief_heads.py --dumps DUMPS --lead DUMPS/lead      # dumps of every labelled set
    python bench/brief_headrank39.py --dumps DUMPS [--margin 1] [--lam 0.1] [--no-decided] [--show]
"""

from __future__ import annotations

import argparse
import pickle
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import brief_headrank, brief_heads  # noqa: E402
from memengine import topic_rank  # noqa: E402


def load(dumps: Path) -> list[dict[str, Any]]:
    """Every labelled set whose brief was dumped: topics with candidates (deciding lines' phrases included), each
    candidate's credit, the labels, and the ``.expect`` good names (old judge) when there is one."""
    out = []
    for name, path in brief_heads.label_files():
        md = brief_heads.find_brief(dumps, name, "after")
        if md is None:
            continue
        tj = md.with_name(f"{name}.after.topics.json")
        if not tj.exists():
            continue
        s = brief_headrank.load_set(name, md, tj, decided=True)
        s["labels"] = brief_heads.read_heads(path)
        stop = brief_heads.stop_for(s["labels"])
        for t in s["topics"]:
            t["credit"] = [max((brief_heads.credit(c[0], alts, stop)[0] for alts in s["labels"]), default=0.0)
                           for c in t["cands"]]
        exp = path.with_suffix(".expect")
        good: list[list[str]] = []
        if exp.exists():
            lines = brief_headrank.read_expect(exp)
            good = [alts for k, alts in lines if k == "goodname"] or [alts for k, alts in lines if k == "topic"]
        s["good"] = good
        out.append(s)
    return out


def label(sets: list[dict[str, Any]], decided: bool) -> None:
    """Each topic's right candidates (``y``): those of its best credit, when above zero; ``decided`` False drops the
    deciding lines' candidates."""
    for s in sets:
        for t in s["topics"]:
            keep = [i for i, c in enumerate(t["all"]) if decided or c[1] != "decided"]
            t["cands"] = [t["all"][i] for i in keep]
            cr = [t["all_credit"][i] for i in keep]
            top = max(cr, default=0.0)
            t["y"] = [top > 0 and c == top for c in cr]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dumps", type=Path, required=True)
    ap.add_argument("--lam", type=float, default=0.1)
    ap.add_argument("--margin", type=float, default=1.0)
    ap.add_argument("--no-decided", action="store_true", help="without the deciding lines' candidates")
    ap.add_argument("--cache", type=Path, help="pickle of the candidates (made once, reused)")
    ap.add_argument("--show", action="store_true")
    ap.add_argument("--fit-all", action="store_true", help="print the weights fitted on every set but the held-out")
    ap.add_argument("--held", default="heldout31_",
                    help="sets (name prefix) never fitted on: the round's held-out, scored by a fit on all the others")
    args = ap.parse_args(argv)
    if args.cache and args.cache.exists():
        sets = pickle.loads(args.cache.read_bytes())
    else:
        sets = load(args.dumps)
        for s in sets:
            for t in s["topics"]:
                t["all"], t["all_credit"] = t["cands"], t["credit"]
        if args.cache:
            args.cache.write_bytes(pickle.dumps(sets))
    label(sets, not args.no_decided)
    print("| set | labels | credit today | learned | phrases today | learned | old judge today | learned |")
    print("|---|---|---|---|---|---|---|---|")
    tot, held = np.zeros(6), np.zeros(6)
    lost, gained_new, lost_new = [], 0, 0
    for s in sets:
        train = [t for o in sets if o is not s and not o["set"].startswith(args.held) for t in o["topics"]]
        w, mean, scale = brief_headrank.fit(train, args.lam)
        brief_headrank.pick([s], w, mean, scale, args.margin)
        a = brief_heads.score([t["today"] for t in s["topics"]], s["labels"])
        b = brief_heads.score([t["learned"] for t in s["topics"]], s["labels"])
        oa = brief_headrank.score(s, "today")[1] if s["good"] else 0
        ob = brief_headrank.score(s, "learned")[1] if s["good"] else 0
        if ob < oa - 1:
            lost.append(f"{s['set']} ({oa} → {ob})")
        gained_new += b["credit"] > a["credit"] + 1e-9
        lost_new += b["credit"] < a["credit"] - 1e-9
        row = [a["credit"], b["credit"], a["phrase"], b["phrase"], oa, ob]
        if s["set"].startswith(args.held):
            held += row
        else:
            tot += row
        print(f"| {s['set']} | {len(s['labels'])} | {a['credit']:.2f} | {b['credit']:.2f} | {a['phrase']} | "
              f"{b['phrase']} | {oa} | {ob} |")
        if args.show:
            for t in s["topics"]:
                mark = "=" if t["today"] == t["learned"] else "*"
                print(f"   {mark} «{t['today']}» → «{t['learned']}»")
    for what, r in (("all but held-out", tot), (f"held-out {args.held}*", held)):
        print(f"| {what} | | {r[0]:.2f} | {r[1]:.2f} | {r[2]:.0f} | {r[3]:.0f} | {r[4]:.0f} | {r[5]:.0f} |")
    print(f"sets gaining on the new judge {gained_new}, losing {lost_new}; "
          f"losing more than one old-judge line: {', '.join(lost) or 'none'}")
    if args.fit_all:
        w, mean, scale = brief_headrank.fit([t for s in sets if not s["set"].startswith(args.held)
                                             for t in s["topics"]], args.lam)
        for f, wi in sorted(zip(topic_rank.FEATURES, w), key=lambda p: -abs(p[1])):
            print(f"   {f:14s} {wi:+.3f}")
        print("WEIGHTS =", tuple(round(float(v), 4) for v in w))
        print("MEAN =", tuple(round(float(v), 4) for v in mean))
        print("SCALE =", tuple(round(float(v), 4) for v in scale))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
