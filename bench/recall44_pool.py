"""Issue 19, round 44: a bigger, honest dev set — the two dev sets and the held-out chat sets earlier rounds read,
pooled, every recall constant and switch chosen by leaving one SET out.

The sets (each weighs the same in the objective, however many questions it has): LoCoMo dev (five conversations),
the real-chat dev set (assistant exports and WhatsApp chats) and the held-outs 30, 35, 37 and 38 (WhatsApp-like
chats of several authors' styles: bursts of short turns, other languages, groups; read by rounds 32-43, so dev data
now). For each constant of ``bench/loo.py``'s GRIDS (the others at their defaults) and each on/off switch of its
ABLATIONS, every variant is scored once per question through loo.py's ``Scorer`` (retrieval reused, the engine's own
``_rank``). Then:

* **leave-one-set-out**: for each set, the variant with the best objective (the mean over the OTHER sets of each
  set's recall@5) is scored on it;
* **leave-one-chat-out**: the same with a fold per LoCoMo conversation, per real chat and per held-out chat file.

A change stays only when its leave-one-set-out gain (mean over the six sets) is positive and no set loses more than
noise (two paired standard errors of that set's recall@5). Printed per constant: the default, every variant's pooled
objective in-sample, the LOSO and LOCO gains over the default, each set's LOSO delta and the choices made.

    python bench/recall44_pool.py --reuse /tmp/r44/pool                         # every grid and switch (~30 min)
    python bench/recall44_pool.py --reuse DIR --only w_keyword,w_length
    python bench/recall44_pool.py --reuse DIR --sets 30,35,37,38 --json out.json

``DIR/loo`` holds the dev stores (as bench/loo.py's ``--reuse``), ``DIR/base-hNN`` each held-out's stores,
``DIR/pool-cache.json`` the per-question scores (keyed by the engine's code).
"""

from __future__ import annotations

import argparse
import json
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

POOLED = ("30", "35", "37", "38")
Scores = dict[str, dict[str, float]]


def heldout_items(sets: list[str], reuse: Path, emb: Any) -> list[loo.Item]:
    """The held-out chat sets' questions as Items: set ``hNN``, one fold per chat file, stores in ``reuse/base-hNN``."""
    items = []
    for n in sets:
        qs = load_questions(HERE / "bench" / "data" / f"realchat_heldout{n}.jsonl")
        stores = build_chat_stores(qs, HERE / "bench" / "data" / f"realchat_heldout{n}", reuse / f"base-h{n}", emb,
                                   reuse=True)
        items += [loo.Item(f"h{n}", f"h{n}:{q.file}", f"H{n}:{q.id}", stores[q.file], q.question, q.evidence,
                           q.category == "multi-hop") for q in qs]
    return items


def set_r5(items: list[loo.Item], sc: Scores, s: str) -> float:
    """One set's mean recall@5."""
    return statistics.fmean(sc[it.key]["recall@5"] for it in items if it.set == s)


def objective(items: list[loo.Item], sc: Scores) -> float:
    """The mean over the sets present of each set's recall@5 (every set weighs the same)."""
    return statistics.fmean(set_r5(items, sc, s) for s in sorted({it.set for it in items}))


def choose(items: list[loo.Item], variants: dict[str, Scores], unit: str) -> dict[str, str]:
    """For every held-out unit (``set`` or ``fold``), the label whose objective on the other units is best; ties go to
    the default (its label ends with ``*``)."""
    out = {}
    for held in sorted({getattr(it, unit) for it in items}):
        train = [it for it in items if getattr(it, unit) != held]
        out[held] = max(variants, key=lambda lab: (round(objective(train, variants[lab]), 9), lab.endswith("*")))
    return out


def held_scores(items: list[loo.Item], variants: dict[str, Scores], chosen: dict[str, str], unit: str) -> Scores:
    """Each item scored by the variant its held-out unit chose."""
    return {it.key: variants[chosen[getattr(it, unit)]][it.key] for it in items}


def paired_se(items: list[loo.Item], a: Scores, b: Scores) -> float:
    """The standard error of a set's mean recall@5 difference a - b."""
    d = [a[it.key]["recall@5"] - b[it.key]["recall@5"] for it in items]
    return statistics.stdev(d) / len(d) ** 0.5 if len(d) > 1 else 0.0


def grids() -> dict[str, dict[str, RecallConfig]]:
    """loo.py's constants (a grid each, the default marked ``*``) and its switches (``on`` / ``off``, the default's
    label marked ``*``; ``off`` when neither is the default)."""
    out = {name: dict(grid) for name, grid in loo.GRIDS.items()}
    d = RecallConfig()
    # round 44: a little of the turn's own cosine back in its vector score, finer than loo.py's 0.5 (a scratch count
    # of the vector side alone ranked evidence higher at 0.75 on four of the six sets)
    out["context_mix (fine)"] = {f"{w}{'*' if w == d.context_mix else ''}": replace(d, context_mix=w)
                                 for w in (0.7, 0.8, 0.9, 1.0)}
    # the length prior past loo.py's 0.2 (the pooled objective still rose at its end)
    out["w_length (fine)"] = {f"{w}{'*' if w == d.w_length else ''}": replace(d, w_length=w)
                              for w in (0.1, 0.15, 0.2, 0.25, 0.3, 0.4)}
    # round 44's choices together: thin.py at three content words, and the length prior of chat turns alone
    thin = f"thin {d.thin_words}"
    out["round 44: thin words x chat length prior"] = {
        **{f"{thin}*": d, f"thin {5 - d.thin_words}": replace(d, thin_words=5 - d.thin_words)},
        **{f"thin {n} len {w}": replace(d, thin_words=n, w_length_thread=w) for n in (2, 3) for w in (0.15, 0.2)}}
    for name, (on, off) in loo.ABLATIONS.items():
        # the baseline is the default; a switch between two non-defaults (units vs forms) is measured against off
        out[name] = {("on*" if on == d else "on"): on, ("off" if on == d else "off*"): off}
    return out


def report(items: list[loo.Item], name: str, variants: dict[str, Scores]) -> dict[str, Any]:
    """One grid's pooled figures: in-sample objective per variant, LOSO and LOCO gains over the default, per set."""
    default = next(lab for lab in variants if lab.endswith("*"))
    sets = sorted({it.set for it in items}, key=lambda s: (s.startswith("h"), s))
    base = variants[default]
    out: dict[str, Any] = {"name": name, "default": default,
                           "in_sample": {lab: round(objective(items, v), 4) for lab, v in variants.items()}}
    for unit in ("set", "fold"):
        chosen = choose(items, variants, unit)
        held = held_scores(items, variants, chosen, unit)
        per = {}
        for s in sets:
            sub = [it for it in items if it.set == s]
            per[s] = {"base": round(set_r5(items, base, s), 4), "held": round(set_r5(items, held, s), 4),
                      "se": round(paired_se(sub, held, base), 4),
                      "chose": sorted({chosen[getattr(it, unit)] for it in sub})}
        out[unit] = {"gain": round(objective(items, held) - objective(items, base), 4), "per_set": per}
    return out


def print_report(r: dict[str, Any]) -> None:
    """A grid's report as two markdown tables."""
    print(f"\n### {r['name']} (default {r['default']})\n")
    print("in-sample pooled objective: " + ", ".join(f"{lab} {v:.4f}" for lab, v in r["in_sample"].items()))
    for unit in ("set", "fold"):
        per = r[unit]["per_set"]
        print(f"\nleave-one-{unit}-out: mean gain {r[unit]['gain']:+.4f}\n")
        rows = [[s, f"{p['base']:.3f}", f"{p['held']:.3f}", f"{p['held'] - p['base']:+.3f}", f"{p['se']:.3f}",
                 ", ".join(p["chose"])] for s, p in per.items()]
        print(md_table(["set", "default r@5", "held-out r@5", "delta", "paired se", "chosen"], rows))


def before_after(items: list[loo.Item], scorer: loo.Scorer) -> int:
    """Each set's figures with round 43's settings (thin.py at two words, one length prior for all) and now."""
    d = RecallConfig()
    runs = {"before (round 43)": replace(d, thin_words=2, w_length_thread=None), "now": d}
    got = {lab: scorer.scores(cfg) for lab, cfg in runs.items()}
    rows = []
    for s in sorted({it.set for it in items}, key=lambda s: (s.startswith("h"), s)):
        sub = [it for it in items if it.set == s]
        a, b = (loo.set_metrics(sub, got[lab]) for lab in runs)
        rows.append([s, len(sub), *(f"{a[m]:.3f} → {b[m]:.3f}" for m in ("recall@5", "recall@10", "mrr",
                                                                         "multi_all@10"))])
    print(md_table(["set", "n", "recall@5", "recall@10", "MRR", "multi-hop all@10"], rows))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Every grid's pooled leave-one-set-out and leave-one-chat-out figures."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", required=True, metavar="DIR")
    ap.add_argument("--sets", default=",".join(POOLED), help="held-out sets pooled (default: %(default)s)")
    ap.add_argument("--only", default="", help="comma list of grid / switch names (default: all)")
    ap.add_argument("--json", metavar="OUT", help="every grid's report as JSON")
    ap.add_argument("--table", action="store_true",
                    help="only each set's r@5 / r@10 / MRR / multi-hop all@10 before round 44 and now")
    args = ap.parse_args(argv)
    from embedder import get_embedder

    reuse = Path(args.reuse)
    items = loo.load_items(DEFAULT_LOCOMO, DEFAULT_DATA, DEFAULT_QUESTIONS, reuse / "loo")
    items += heldout_items([s for s in args.sets.split(",") if s], reuse, loo.QueryCache(get_embedder()))
    scorer = loo.Scorer(items, reuse / "pool-cache.json")
    if args.table:
        return before_after(items, scorer)
    wanted = [w for w in args.only.split(",") if w]
    reports = []
    for name, grid in grids().items():
        if wanted and not any(w in name for w in wanted):
            continue
        log(f"{name}: {len(grid)} variants")
        variants = {lab: scorer.scores(cfg) for lab, cfg in grid.items()}
        reports.append(report(items, name, variants))
        print_report(reports[-1])
        sys.stdout.flush()
    print("\n## Summary: leave-one-set-out gain over the default, pooled (the worst set's delta, its paired se)\n")
    rows = []
    for r in sorted(reports, key=lambda r: -r["set"]["gain"]):
        worst = min(r["set"]["per_set"].items(), key=lambda kv: kv[1]["held"] - kv[1]["base"])
        rows.append([r["name"], r["default"], f"{r['set']['gain']:+.4f}", f"{r['fold']['gain']:+.4f}",
                     f"{worst[0]} {worst[1]['held'] - worst[1]['base']:+.3f} ({worst[1]['se']:.3f})"])
    print(md_table(["grid / switch", "default", "LOSO gain", "LOCO gain", "worst set"], rows))
    if args.json:
        Path(args.json).write_text(json.dumps(reports, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
