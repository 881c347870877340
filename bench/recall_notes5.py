"""notes5 (session 24): the agent-note dev sets pooled — every miss in classes, and a RecallConfig field measured
leaving one SET out.

Sets: the note held-outs 29–41 and the lead's agent30–34 (``DEV``; held-out 42 is notes5's own held-out and is not
in it). Each set's stores are built once under ``--reuse DIR`` (as ``bench/recall_notes.py`` does) and reused.

    .venv/bin/python bench/recall_notes5.py --reuse /tmp/n5dev --classes            # the misses of main, by class
    .venv/bin/python bench/recall_notes5.py --reuse /tmp/n5dev --field notes_now --values False True --changes

A miss's class (its first hit): ``outdated`` (a note the question's answer replaced; ``linked`` when the store
retired or linked it), ``newer`` (a past question; a note that replaced the one asked for), ``decoy``, ``crosslang``
(an English question over notes in another language, any other first hit), ``other`` (another note).
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.recall45_same import print_loo, print_rank_changes  # noqa: E402
from bench.recall49_grid import run_grid  # noqa: E402
from bench.recall_notes import load_notes, load_questions, run, users_of  # noqa: E402
from memengine.recall.config import RecallConfig  # noqa: E402

DEV = ("recall_heldout29", "recall_heldout29/after", "recall_heldout32", "recall_heldout34", "recall_heldout36",
       "recall_heldout37", "recall_heldout38", "recall_heldout39", "recall_heldout40", "recall_heldout41",
       "lead_probes19/agent30", "lead_probes20/agent31", "lead_probes21/agent32", "lead_probes22/agent33",
       "lead_probes23/agent34")


def texts_of(data: Path) -> dict[tuple[str, str], str]:
    """(user, note id) -> the note's text."""
    return {(u, n["n"]): n["text"] for u in users_of(data) for n in load_notes(u, data)}


def classify(q: dict[str, Any], row: dict[str, Any], linked: dict[str, Any]) -> str:
    """The class of a miss by its first hit (module text)."""
    first = row["top"][0] if row["top"] else None
    if first in set(q.get("outdated", [])):
        stored = linked["superseded"] | linked["may_update"]
        return "outdated/linked" if stored.get(first) in set(q["evidence"]) else "outdated/unlinked"
    if first in set(q.get("newer", [])):
        return "newer"
    if first in set(q.get("decoy", [])):
        return "decoy"
    if "crosslang" in q.get("kinds", []):
        return "crosslang"
    return "other" if first else "none"


def print_miss(r: dict[str, Any], q: dict[str, Any], c: str, texts: dict[tuple[str, str], str]) -> None:
    """One miss of class ``c``: the question, its first three hits (E evidence, O outdated) and the evidence they lack."""
    print(f"{r['id']} [{c}] rank {r['rank']} kinds {q.get('kinds')}: {q['question']}")
    for n in r["top"][:3]:
        mark = "E" if n in q["evidence"] else "O" if n in q.get("outdated", []) else " "
        print(f"   {mark} {n} {texts.get((q['user'], n), '?')[:150]}")
    for n in q["evidence"]:
        if n not in r["top"][:3]:
            print(f"   want {n} {texts.get((q['user'], n), '?')[:150]}")


def grid_report(sets: list[str], field: str, value_texts: list[str], reuse: Path, changes: bool) -> int:
    """A RecallConfig field's grid over ``sets`` (values as literals, the first 'off'): top-1 per value, leave one
    set out, and with ``changes`` each question whose rank moved."""
    values: list[Any] = [ast.literal_eval(v) for v in value_texts]
    grid, scores, rows_of = run_grid(sets, field, values, reuse)
    n_all = {lab: sum(sum(r["top1"] for r in rows_of[s, lab]) for s in sets) for lab in grid}
    print("| questions top-1 | " + " | ".join(str(n_all[lab]) for lab in grid) + " |")
    if len(sets) > 1:
        print_loo(scores, sets, grid)
    if changes:
        print_rank_changes(rows_of, sets, grid[1:])
    return 0


def main(argv: list[str] | None = None) -> int:
    """The classes of main's misses (``--classes``) or a field's grid with leave-one-set-out."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", metavar="DIR", required=True, help="keep / reuse the stores here")
    ap.add_argument("--sets", nargs="*", default=list(DEV), help="the sets (folders under bench/data)")
    ap.add_argument("--classes", action="store_true", help="the misses of the default config, by class")
    ap.add_argument("--show", help="print the misses of this class with their first three hits' texts")
    ap.add_argument("--field", help="a RecallConfig field for the grid")
    ap.add_argument("--values", nargs="*", default=[], help="its values (literals; the first is 'off')")
    ap.add_argument("--changes", action="store_true", help="each question whose rank moved against off")
    args = ap.parse_args(argv)
    if args.classes or args.show is not None:
        counts: Counter[str] = Counter()
        per: dict[str, Counter[str]] = {}
        total = 0
        for s in args.sets:
            data = REPO / "bench" / "data" / s
            qs = {q["id"]: q for q in load_questions(data)}
            texts = texts_of(data)
            d = Path(args.reuse) / s.replace("/", "_")
            d.mkdir(parents=True, exist_ok=True)
            rows, stores = run(d, True, RecallConfig(), data=data)
            total += len(rows)
            for r in rows:
                if r["top1"]:
                    continue
                q = qs[r["id"]]
                c = classify(q, r, stores[q["user"]])
                counts[c] += 1
                per.setdefault(c, Counter())[s] += 1
                if args.show is not None and args.show in c:
                    print_miss(r, q, c, texts)
        print(f"{total} questions, {sum(counts.values())} not top-1")
        for c, n in counts.most_common():
            print(f"  {c}: {n}  {dict(per[c])}")
        return 0
    return grid_report(args.sets, args.field, args.values, Path(args.reuse), args.changes)


if __name__ == "__main__":
    raise SystemExit(main())
