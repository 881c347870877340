"""Issue 19, round 23: a value that changed, a NAME that changed (bench/data/realchat_heldout20), by kind.

``bench/recall_round12.py`` on the set (each chat imported into its own store as ``mem.py import`` does, turn-level
scoring, "newer above older" for the questions about a value that changed), then the figures by kind: a name
replaced by another name (``name_changed``: a buffet, a caterer, a coach, a bank...), another value that changed (a
number, a date), the ordinary questions, the questions with a later turn naming another name of the same kind that
is no update (``later_other_name``: a friend's gym, another team's coach), and each chat (a São Paulo family on an
Android phone in Portuguese, a Lyon street-party committee on an iPhone in French, the parents of a Cologne
under-11 football team in German, a ChatGPT export of a move from London to Melbourne).

    python bench/recall_updates23.py --reuse /tmp/recall23/h20                              # this tree
    python bench/recall_updates23.py --reuse /tmp/recall23/h20b --tree /work/base-start     # the session start
    python bench/recall_updates23.py --reuse /tmp/recall23/h20 --misses                     # every miss
    python bench/recall_updates23.py --reuse /tmp/recall23/h20 --config FIELD=VALUE         # a switch changed
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

DATA = HERE / "bench" / "data" / "realchat_heldout20"
QUESTIONS = HERE / "bench" / "data" / "realchat_heldout20.jsonl"
CHATS = {"familia_sp.txt": "the São Paulo family (pt)", "fete_quartier.txt": "the Lyon street party (fr)",
         "e_jugend.txt": "the Cologne under-11 parents (de)", "relocation_export.json": "the ChatGPT move (en)"}


def kinds(rows: list[dict[str, Any]], meta: dict[str, dict[str, Any]]) -> list[list[Any]]:
    """Rows of (subset, n, recall@5, recall@10, MRR, newer above older) by kind of question and by chat."""
    upd = [r for r in rows if meta[r["id"]].get("kind") == "update"]
    subsets = {
        "a name replaced by another": [r for r in upd if meta[r["id"]].get("name_changed")],
        "another value that changed": [r for r in upd if not meta[r["id"]].get("name_changed")],
        "every value that changed": upd,
        "ordinary": [r for r in rows if meta[r["id"]].get("kind") != "update"],
        "a later turn names another name (no update)": [r for r in rows if meta[r["id"]].get("later_other_name")],
        **{name: [r for r in rows if r["file"] == f] for f, name in CHATS.items()},
        "all": rows,
    }
    out = []
    for name, sub in subsets.items():
        def mean(key: str, sub: list[dict[str, Any]] = sub) -> float:
            return round(statistics.fmean(r[key] for r in sub), 3) if sub else 0.0
        old = [r for r in sub if r["outdated"]]
        above = f"{sum(r['newer_first'] for r in old)}/{len(old)}" if old else "—"
        out.append([name, len(sub), mean("recall@5"), mean("recall@10"), mean("mrr"), above])
    return out


def main(argv: list[str] | None = None) -> int:
    """Round 23's held-out chats, scored by kind (``--rows OUT.json`` tables a saved run)."""
    from bench.common import md_table
    from bench.recall_round13 import question_meta

    meta = question_meta(QUESTIONS)
    head = ["questions", "n", "recall@5", "recall@10", "MRR", "newer above older"]
    args_in = sys.argv[1:] if argv is None else argv
    if args_in[:1] == ["--rows"] and len(args_in) == 2:
        print(md_table(head, kinds(json.loads(Path(args_in[1]).read_text())["rows"], meta)))
        return 0
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tree", default=str(HERE), help="repository whose engine is scored (default: this one)")
    ap.add_argument("--reuse", metavar="DIR", required=True, help="stores live here (one DIR per tree)")
    ap.add_argument("--config", action="append", default=[], metavar="FIELD=VALUE",
                    help="a RecallConfig field for the recalls (repeatable)")
    ap.add_argument("--misses", action="store_true", help="print every miss with its top 10 and evidence ranks")
    ap.add_argument("--json", metavar="OUT", help="keep the per-question rows")
    args = ap.parse_args(args_in)
    from bench import recall_round12

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(args.json) if args.json else Path(tmp) / "rows.json"
        extra = [f"--config={c}" for c in args.config] + (["--misses"] if args.misses else [])
        code = recall_round12.main(["--tree", args.tree, "--data", str(DATA), "--set", str(QUESTIONS),
                                    "--reuse", args.reuse, "--json", str(out), *extra])
        if code:
            return code
        rows = json.loads(out.read_text())["rows"]
    print()
    print(md_table(head, kinds(rows, meta)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
