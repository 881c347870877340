"""Issue 19, round 51: the turn that closes an exchange (``closing``) and shortened words (``short_words``) decided
over THIRTEEN pooled sets — LoCoMo dev, real-chat dev, held-outs 30, 35, 37, 38, 39, 40, 41, 42 and the lead's
chat21, chat22, chat23 (``bench/data/lead_probes21`` … ``23``, no longer blind). Held-out 43 stays out, scored once
at the end by bench/recall51.py.

Each switch's per-set r@5 / r@10 / MRR / multi-hop all@10, the leave-one-set-out report of bench/recall44_pool.py
(objective: the mean over sets of each set's r@5) and the same choice made on r@10 and on multi-hop all@10;
``--census`` first counts the questions whose evidence is a closing turn (closing.py ``closing_of`` read from the
turn before it in its burst, for every earlier turn within the span: no ranking involved), and how many of those
miss the top 5 by default.

    python bench/recall51_pool.py --reuse /tmp/r51/pool [--only closing,short] [--census]

``DIR/loo`` holds the dev stores, ``DIR/base-hNN`` each held-out's, ``DIR/base-cNN`` the lead's chats,
``DIR/pool51-cache.json`` the per-question scores.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from bench import loo, recall50_pool  # noqa: E402
from bench.recall46_pool import print_grids  # noqa: E402
from bench.recall48_pool import by_metric  # noqa: E402
from memory_core import RecallConfig  # noqa: E402

HELD = ("30", "35", "37", "38", "39", "40", "41", "42")
LEAD = {**recall50_pool.LEAD, "c23": HERE / "bench" / "data" / "lead_probes23" / "chat23"}
recall50_pool.LEAD.update(LEAD)


def grids() -> dict[str, dict[str, RecallConfig]]:
    """This round's switches, each against the default (its label marked ``*``)."""
    d = RecallConfig()
    closing = {"off*": d}
    # first run (no "?" rule yet): 3:6 / 5:6 / 1:6 and "all:above" lost on ten sets (LoCoMo -0.007, held-out 38
    # -0.027); "agree" moved c23 +0.036 and real-chat dev -0.005 (a question "ok let's proceed to X now. where ?")
    for spec in ("3:6", "3:6:agree", "3:6:end", "3:6:endagree", "3:6:num", "3:6:agreenum", "3:6:endnum",
                 "5:6:agreenum", "3:6:agreenum:above", "1:6:agreenum", "3:10:agreenum"):
        closing[spec] = replace(d, closing=spec)
    # first run (a head 2 letters shorter at least): prefix LOSO r@5 +0.0040 but r@10 -0.0001 (held-out 40
    # -0.017: Dutch "kostten" / "kost", Swedish "dagiset" / "dagis" -- other endings, not short forms)
    # second run (a head 4 letters shorter at least): prefix +0.0035 / r@10 -0.0010, model (the model's words only)
    # gains c23 alone and loses held-out 42's "newspaper" to "news": a compound's head is no short form now
    short = {"off*": d, **{m: replace(d, short_words=m) for m in ("prefix", "both", "model", "modelboth")}}
    return {"the turn that closes a top hit's exchange (closing seeds:span:gate:place)": closing,
            "question words no memory holds, by the words that shorten them (short_words)": short}


def census(items: list[loo.Item], scorer: loo.Scorer) -> None:
    """Per set: questions whose evidence holds a closing turn of an earlier turn's exchange (any gate), and of
    those, how many miss that turn in the default top 5 (the ceiling a closing step can reach)."""
    from bench.common import md_table
    from memengine.recall.closing import closing_of
    from memengine.records import Candidate

    base = scorer.scores(RecallConfig())
    rows = []
    for s in sorted({it.set for it in items}):
        sub = [it for it in items if it.set == s]
        n_all = n_agree = miss = 0
        for it in sub:
            conn = it.store.conn
            hit_all = hit_agree = False
            for ref in it.evidence:
                row = conn.execute(f"SELECT {Candidate.COLUMNS} FROM memories m WHERE m.ref = ?", (ref,)).fetchone()
                if row is None:
                    continue
                ev = Candidate(row)
                if ev.thread is None or ev.position is None:
                    continue
                before = [Candidate(r) for r in conn.execute(
                    f"SELECT {Candidate.COLUMNS} FROM memories m WHERE m.thread = ? AND m.position >= ? "
                    "AND m.position <= ? ORDER BY m.position", (ev.thread, ev.position - 6, ev.position))]
                for i, seed in enumerate(before[:-1]):
                    turns = before[i + 1:] + [Candidate(r) for r in conn.execute(
                        f"SELECT {Candidate.COLUMNS} FROM memories m WHERE m.thread = ? AND m.position > ? "
                        "AND m.position <= ? ORDER BY m.position", (ev.thread, ev.position, seed.position + 6))]
                    if (c := closing_of(seed, turns)) is not None and c.id == ev.id:
                        hit_all = True
                    if (c := closing_of(seed, turns, agree=True, num=True)) is not None and c.id == ev.id:
                        hit_agree = True
            n_all += hit_all
            n_agree += hit_agree
            miss += hit_all and base[it.key]["recall@5"] < 1.0
        rows.append([s, len(sub), n_all, n_agree, miss])
    print("\n## questions whose evidence is a closing turn\n")
    print(md_table(["set", "questions", "evidence closes an exchange", "… opening on an agreement or saying a number again",
                    "of the first, not all evidence in the top 5"], rows))


def main(argv: list[str] | None = None) -> int:
    """The census (``--census``), per-set figures of every variant, the pooled leave-one-set-out report."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", required=True, metavar="DIR")
    ap.add_argument("--held", default=",".join(HELD), help="held-out sets pooled (default: %(default)s)")
    ap.add_argument("--lead", default=",".join(LEAD), help="the lead's chats pooled (default: %(default)s)")
    ap.add_argument("--only", default="", help="comma list of switch names (substrings; default: all)")
    ap.add_argument("--census", action="store_true", help="count the questions whose evidence closes an exchange")
    args = ap.parse_args(argv)
    reuse = Path(args.reuse)
    items = recall50_pool.pooled_items(reuse, [s for s in args.held.split(",") if s],
                                       [c for c in args.lead.split(",") if c])
    scorer = loo.Scorer(items, reuse / "pool51-cache.json")
    if args.census:
        census(items, scorer)
        scorer.save()

    def more(items: list[loo.Item], variants: dict[str, Any]) -> None:
        for metric in ("recall@10", "all@10"):
            gain, per = by_metric(items, variants, metric)
            print(f"\nleave-one-set-out on {metric}{' (multi-hop)' if metric == 'all@10' else ''}: mean gain "
                  f"{gain:+.4f}; " + ", ".join(f"{s} {d:+.3f}" for s, d in per.items()))

    return print_grids(items, scorer, grids(), args.only, more, later=("h", "c"))


if __name__ == "__main__":
    raise SystemExit(main())
