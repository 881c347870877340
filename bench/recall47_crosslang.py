"""Round 47: questions in one language over notes in another — do names and numbers shared with the question tell
the answer from the first hit? (the cheap cross-language reading the round measured, and left).

Over the agent-note dev sets (bench/recall47_head.SETS, or ``--sets``), every ``crosslang`` question is recalled
(k=10) and, for each one whose first hit is not the answer, the question's names and numbers (capitalised words
past its first, digits) are compared with the evidence note's and the first hit's. Printed: each miss, and how many
misses have an evidence note sharing a name or number the first hit does not share (what a shared-name boost could
fix at most).

    .venv/bin/python bench/recall47_crosslang.py --reuse /tmp/r47dev
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.recall47_head import SETS  # noqa: E402
from bench.recall_notes import load_questions, run  # noqa: E402
from memengine.recall.config import RecallConfig  # noqa: E402

_NAME = re.compile(r"\b(?:[A-ZÀ-Ý][\w'’-]+|\d[\d.,:]*)")


def names(text: str) -> set[str]:
    """The capitalised words and numbers of ``text``, lower-cased (its first word left out)."""
    return {w.lower().strip(".,:") for w in _NAME.findall(text.split(" ", 1)[1] if " " in text else "")}


def main(argv: list[str] | None = None) -> int:
    """Every cross-language miss, and the misses a shared name or number could fix."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", metavar="DIR", required=True, help="keep / reuse the stores here")
    ap.add_argument("--sets", nargs="*", default=list(SETS), help="the sets (folders under bench/data)")
    args = ap.parse_args(argv)
    asked = right = fixable = 0
    for s in args.sets:
        data = REPO / "bench" / "data" / s
        questions = {q["id"]: q for q in load_questions(data)}
        notes = {(f.stem, r["n"]): r["text"] for f in data.glob("*.jsonl") if f.stem != "questions"
                 for r in (json.loads(line) for line in f.read_text(encoding="utf-8").splitlines() if line)}
        d = Path(args.reuse) / s.replace("/", "_")
        d.mkdir(parents=True, exist_ok=True)
        rows, _ = run(d, True, RecallConfig(), data=data)
        for row in rows:
            q = questions[row["id"]]
            if "crosslang" not in q.get("kinds", []):
                continue
            asked += 1
            if row["top1"]:
                right += 1
                continue
            said = names(q["question"])
            evidence = any(said & names(notes[q["user"], e]) for e in q["evidence"])
            first = bool(row["top"]) and bool(said & names(notes.get((q["user"], row["top"][0]), "")))
            fixable += evidence and not first
            print(f"{s} {row['id']} rank {row['rank']}: {q['question']} | names {sorted(said)} | evidence shares "
                  f"{evidence}, first hit shares {first}")
    print(f"\ncross-language questions {asked}, first hit right {right}, misses {asked - right}; misses whose "
          f"evidence shares a name or number the first hit does not: {fixable}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
