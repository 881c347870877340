"""Issue 19, round 14: recall on the held-out chats written for it (bench/data/realchat_heldout14), by kind.

``bench/recall_round12.py`` on round 14's set (each chat imported into its own store as ``mem.py import``
does, turn-level scoring, "newer above older" for the questions about a value that changed), plus the
figures of the round's subject: the questions asking by a role or category **the chat never says**
(``never: true``; ``role`` lists the word stems checked absent from the whole chat: "what's the dog
sitter's name?" over "Marta next door said she'd pop in and feed Biscuit") apart from the others.

    python bench/recall_round14.py --reuse /tmp/r14                              # this tree
    python bench/recall_round14.py --reuse /tmp/r14b --tree /work/base-start     # the session start
    python bench/recall_round14.py --reuse /tmp/r14 --config w_instances=0.0     # the round's switch off
    python bench/recall_round14.py --reuse /tmp/r14 --misses                     # every miss, one by one
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

DATA = HERE / "bench" / "data" / "realchat_heldout14"
QUESTIONS = HERE / "bench" / "data" / "realchat_heldout14.jsonl"


def by_kind(rows: list[dict[str, Any]], questions: Path) -> list[list[Any]]:
    """Rows of (subset, n, recall@5, recall@10, MRR) for the never-said / other / Polish-chat subsets."""
    meta = {}
    for line in questions.read_text(encoding="utf-8").splitlines():
        if line.strip():
            obj = json.loads(line)
            meta[obj["id"]] = obj
    subsets = {
        "role or category the chat never says": [r for r in rows if meta[r["id"]].get("never")],
        "  of the English chats": [r for r in rows if meta[r["id"]].get("never") and r["file"] != "remont.txt"],
        "other": [r for r in rows if not meta[r["id"]].get("never")],
        "the Polish chat": [r for r in rows if r["file"] == "remont.txt"],
        "all": rows,
    }
    out = []
    for name, sub in subsets.items():
        def mean(key: str, sub: list[dict[str, Any]] = sub) -> float:
            return round(statistics.fmean(r[key] for r in sub), 3) if sub else 0.0
        out.append([name, len(sub), mean("recall@5"), mean("recall@10"), mean("mrr")])
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tree", default=str(HERE), help="repository whose engine is scored (default: this one)")
    ap.add_argument("--reuse", metavar="DIR", required=True, help="stores live here (one DIR per tree)")
    ap.add_argument("--config", action="append", default=[], metavar="FIELD=VALUE",
                    help="a RecallConfig field for the recalls (repeatable)")
    ap.add_argument("--misses", action="store_true", help="print every miss with its top 10 and evidence ranks")
    args = ap.parse_args(argv)
    from bench import recall_round12
    from bench.common import md_table

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "r14.json"
        extra = [f"--config={c}" for c in args.config] + (["--misses"] if args.misses else [])
        code = recall_round12.main(["--tree", args.tree, "--data", str(DATA), "--set", str(QUESTIONS),
                                    "--reuse", args.reuse, "--json", str(out), *extra])
        if code:
            return code
        rows = json.loads(out.read_text())["rows"]
    print()
    print(md_table(["questions", "n", "recall@5", "recall@10", "MRR"], by_kind(rows, QUESTIONS)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
