"""Round 45: a later note naming a top note's subject again with no change word, read by its vector's closeness;
chosen by leave-one-set-out on the agent-note dev sets.

notes.py (round 30) moves a later note above a top note it restates only when the later says a change word or a
value anew (or, one shared stem, their vectors close). A note that restates its subject in words of its own — "Knee
physio discharged Noor: no more appointments" after "Physio moved the knee sessions to once a month", "Paper 1
accepted at Environmental Microbiology!" after "… we are submitting it to Environmental Microbiology" — says
neither, and the older one, worded like the question, stays first. ``RecallConfig.notes_same_cos``: such a pair,
two rare stems shared and a cosine of at least this, is one too. This scores every value on the agent-note sets
written before round 45 (held-outs 29, 29/after, 32, 34, 36, 37, 38 and the lead's agent30: 590 questions), then,
leaving each set out in turn, picks the value best on the others (mean top-1; ties: r@5, then the earlier value,
"off" first) and scores it on the set left out.

``--people``: also the two-people test before and after round 45's reading (a name said as a plural or genitive by
the other, one noun in two forms: notes._other_people), each with the chosen value off.

    .venv/bin/python bench/recall45_same.py --reuse /tmp/same45              # stores kept in DIR
    .venv/bin/python bench/recall45_same.py --reuse /tmp/same45 --changes    # each question whose top-1 moved
    .venv/bin/python bench/recall45_same.py --reuse /tmp/same45 --field notes_recent \
        --values "" now:0.02 now:0.05 now:0.1 all:0.02 all:0.05 all:0.1       # another field's grid, the first "off"
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.recall_notes import run  # noqa: E402
from memengine.recall import notes  # noqa: E402
from memengine.recall.config import RecallConfig  # noqa: E402

SETS = ("recall_heldout29", "recall_heldout29/after", "recall_heldout32", "recall_heldout34", "recall_heldout36",
        "recall_heldout37", "recall_heldout38", "lead_probes19/agent30")
VALUES = (0.0, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8)


def _label(v: Any) -> str:
    if isinstance(v, float):
        return "off" if v == 0 else f"{v:.2f}"
    return str(v) or "off"


def _exact_people(a: str, b: str) -> bool:
    """notes._other_people as it read before round 45 (exact folded words only), for ``--people``."""
    from memengine.fact_lexicon import fold
    from memengine.fact_person import subject_names

    na, nb = subject_names(a) - notes._ROLES, subject_names(b) - notes._ROLES
    if not na or not nb:
        return False
    wa, wb = set(notes._WORD.findall(fold(a))), set(notes._WORD.findall(fold(b)))
    if na & wb or nb & wa:
        return False
    return not (notes._named(a) & notes._named(b))


def choose(scores: dict[str, dict[str, tuple[float, float]]], train: list[str], grid: list[str]) -> str:
    """The grid value with the best mean top-1 over ``train`` (ties: mean r@5, then grid order)."""
    return max(grid, key=lambda v: (round(sum(scores[s][v][0] for s in train) / len(train), 9),
                                    round(sum(scores[s][v][1] for s in train) / len(train), 9), -grid.index(v)))


def print_loo(scores: dict[str, dict[str, tuple[float, float]]], sets: list[str], grid: list[str]) -> None:
    """Leave one set out: each set scored with the value :func:`choose` picks on the others, against ``off``."""
    print("\nleave one set out (top-1 of the set left out):")
    off_sum = loo_sum = 0.0
    for s in sets:
        pick = choose(scores, [t for t in sets if t != s], grid)
        off, got = scores[s]["off"][0], scores[s][pick][0]
        off_sum, loo_sum = off_sum + off, loo_sum + got
        print(f"  {s}: chose {pick}: {off:.3f} -> {got:.3f}")
    print(f"  mean: off {off_sum / len(sets):.4f}, LOO {loo_sum / len(sets):.4f}")


def print_rank_changes(rows_of: dict[tuple[str, str], list[dict[str, Any]]], sets: list[str],
                       labels: list[str]) -> None:
    """Each question whose rank moved under a value of ``labels`` against ``off``."""
    for label in labels:
        for s in sets:
            before = {r["id"]: r for r in rows_of[s, "off"]}
            for r in rows_of[s, label]:
                b = before[r["id"]]
                if b["rank"] != r["rank"]:
                    print(f"  {label}: {r['id']} rank {b['rank']} -> {r['rank']} {b['top'][:3]} -> {r['top'][:3]}")


def main(argv: list[str] | None = None) -> int:
    """Score every value on every set, then the leave-one-set-out choice."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", metavar="DIR", required=True, help="keep / reuse the stores here")
    ap.add_argument("--changes", action="store_true", help="print each question whose top-1 moved against off")
    ap.add_argument("--people", action="store_true", help="also the two-people test before / after round 45")
    ap.add_argument("--sets", nargs="*", default=list(SETS), help="the sets (folders under bench/data)")
    ap.add_argument("--field", default="notes_same_cos", help="the RecallConfig field of the grid")
    ap.add_argument("--values", nargs="*", help="its values (text; the first is the one labelled off)")
    args = ap.parse_args(argv)
    base = RecallConfig()
    values: list[Any] = list(VALUES) if args.values is None else list(args.values)
    grid = [_label(v) for v in values]
    grid[0] = "off"
    variants: dict[str, tuple[RecallConfig, Any]] = {g: (replace(base, **{args.field: v}), None)
                                                     for g, v in zip(grid, values, strict=True)}
    if args.people:
        variants["people exact, off"] = (replace(base, **{args.field: values[0]}), _exact_people)
    scores: dict[str, dict[str, tuple[float, float]]] = {}
    rows_of: dict[tuple[str, str], list[dict[str, Any]]] = {}
    keep = notes._other_people
    for s in args.sets:
        d = Path(args.reuse) / s.replace("/", "_")
        d.mkdir(parents=True, exist_ok=True)
        scores[s] = {}
        for label, (cfg, people) in variants.items():
            notes._other_people = people or keep  # type: ignore[assignment]
            try:
                rows, _ = run(d, True, cfg, data=REPO / "bench" / "data" / s)
            finally:
                notes._other_people = keep  # type: ignore[assignment]
            rows_of[s, label] = rows
            n = len(rows) or 1
            scores[s][label] = (sum(r["top1"] for r in rows) / n, sum(r["r5"] for r in rows) / n)
    print("| set | " + " | ".join(variants) + " |")
    print("|---|" + "---|" * len(variants))
    for s in args.sets:
        print(f"| {s} | " + " | ".join(f"{t:.3f} / {r:.3f}" for t, r in scores[s].values()) + " |")
    print("| mean top-1 | " + " | ".join(f"{sum(scores[s][v][0] for s in args.sets) / len(args.sets):.4f}"
                                        for v in variants) + " |")
    print_loo(scores, args.sets, grid)
    if args.changes:
        for label in variants:
            if label == "off":
                continue
            for s in args.sets:
                before = {r["id"]: r for r in rows_of[s, "off"]}
                for r in rows_of[s, label]:
                    b = before[r["id"]]
                    if b["top1"] != r["top1"]:
                        print(f"  {label}: {r['id']} {'won' if r['top1'] else 'lost'} {b['top'][:3]} -> {r['top'][:3]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
