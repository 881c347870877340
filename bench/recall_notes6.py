"""notes6 (session 25): the "another note first" misses of the pooled agent-note dev sets, by how the first hit names
the question's subject, and a RecallConfig field left one SET out.

Sets (``DEV6``): notes5's 15 (bench/recall_notes5.DEV) and, dev now, held-out 42 and the lead's agent35. Held-out 43
(notes6's own) is not in it. Stores are built once under ``--reuse DIR`` and reused.

    .venv/bin/python bench/recall_notes6.py --reuse /tmp/n6dev --classes            # the misses of main, by class
    .venv/bin/python bench/recall_notes6.py --reuse /tmp/n6dev --classes --show side  # those of one class, texts
    .venv/bin/python bench/recall_notes6.py --reuse /tmp/n6dev --field notes_about --values False True --changes

A miss whose first hit is neither an outdated / newer version nor (for an English question over notes in another
language) any note is "another note first"; its class is how that first hit names the question's subject
(memengine/recall/notes_about.names_aside): ``side`` (only in a reason / time-reason clause), ``remark`` (in a clause
giving no value: "X unchanged"), ``none`` (it says no subject stem of the question: another subject sharing the
question's frame or words the stems miss), ``answers`` (a clause of it says the subject with a value: another note
about the same thing). ``/top3``: the evidence is among the first three (a reordering of the first three can reach it).
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

from bench.recall_notes import load_questions, run  # noqa: E402
from bench.recall_notes5 import DEV, classify, grid_report, print_miss, texts_of  # noqa: E402
from memengine.recall.config import RecallConfig  # noqa: E402

DEV6 = (*DEV, "recall_heldout42", "lead_probes24/agent35")


def subclass(q: dict[str, Any], first_text: str) -> str:
    """How the first hit names the question's subject (module text)."""
    from memengine.recall.notes_about import _stems, names_aside

    aside = names_aside(q["question"], first_text)
    if aside:
        return aside
    return "answers" if _stems(q["question"]) & _stems(first_text) else "none"


def main(argv: list[str] | None = None) -> int:
    """The classes of main's "another note first" misses (``--classes``) or a field's grid, leave one set out."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", metavar="DIR", required=True, help="keep / reuse the stores here")
    ap.add_argument("--sets", nargs="*", default=list(DEV6), help="the sets (folders under bench/data)")
    ap.add_argument("--classes", action="store_true", help="the misses of the default config, by class")
    ap.add_argument("--show", help="print the misses of this class with their first three hits' texts")
    ap.add_argument("--config", action="append", default=[], metavar="FIELD=VALUE", help="for --classes")
    ap.add_argument("--field", help="a RecallConfig field for the grid")
    ap.add_argument("--values", nargs="*", default=[], help="its values (literals; the first is 'off')")
    ap.add_argument("--changes", action="store_true", help="each question whose rank moved against off")
    args = ap.parse_args(argv)
    if args.classes:
        from dataclasses import replace

        cfg = replace(RecallConfig(), **{k: ast.literal_eval(v) for k, _, v in (c.partition("=") for c in args.config)})
        counts: Counter[str] = Counter()
        per: dict[str, Counter[str]] = {}
        total = 0
        for s in args.sets:
            data = REPO / "bench" / "data" / s
            qs = {q["id"]: q for q in load_questions(data)}
            texts = texts_of(data)
            d = Path(args.reuse) / s.replace("/", "_")
            d.mkdir(parents=True, exist_ok=True)
            rows, stores = run(d, True, cfg, data=data)
            total += len(rows)
            for r in rows:
                if r["top1"]:
                    continue
                q = qs[r["id"]]
                c = classify(q, r, stores[q["user"]])
                if c in ("other", "decoy"):
                    c = f"another/{subclass(q, texts.get((q['user'], r['top'][0]), ''))}"
                    c += "/top3" if r["rank"] and r["rank"] <= 3 else ""
                counts[c] += 1
                per.setdefault(c, Counter())[s] += 1
                if args.show is not None and args.show in c:
                    print_miss(r, q, c, texts)
        print(f"{total} questions, {sum(counts.values())} not top-1")
        for c, n in sorted(counts.items()):
            print(f"  {c}: {n}  {dict(per[c])}")
        return 0
    return grid_report(args.sets, args.field, args.values, Path(args.reuse), args.changes)


if __name__ == "__main__":
    raise SystemExit(main())
