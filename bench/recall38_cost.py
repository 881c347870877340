"""Round 38 (recall39): warm recall CPU with past.py's step on and off, alternating question by question.

Over the stores ``bench/recall_notes.py --reuse DIR`` built (held-out 36 by default): every question recalled once
to warm, then ``--rounds`` times with ``past`` on and off in turn (process time around each recall), so the load of a
shared machine falls on both alike. Prints the mean and p95 per side, for the past / when / current questions apart.

    .venv/bin/python bench/recall_notes.py --data bench/data/recall_heldout36 --reuse /tmp/notes36   # build first
    .venv/bin/python bench/recall38_cost.py --reuse /tmp/notes36 [--data bench/data/recall_heldout36] [--rounds 3]
    .venv/bin/python bench/recall38_cost.py --reuse /tmp/notes37 --data bench/data/recall_heldout37 \
        --off state_words --off chain                   # round 41: other steps off instead of ``past``
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.recall_notes import build, load_questions, users_of  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    """Time every question with the step on and off, alternating; print the table."""
    from memengine.recall.config import RecallConfig

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", type=Path, required=True, help="the stores bench/recall_notes.py built")
    ap.add_argument("--data", type=Path, default=REPO / "bench" / "data" / "recall_heldout36")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--off", action="append", metavar="FIELD", help="the switches turned off (default: past)")
    args = ap.parse_args(argv)
    switched = args.off or ["past"]
    on, off = RecallConfig(), replace(RecallConfig(), **{f: False for f in switched})
    times: dict[tuple[str, bool], list[float]] = {}
    questions = load_questions(args.data)
    for user in users_of(args.data):
        store, _, _ = build(user, args.reuse, True, args.data)
        mine = [q for q in questions if q["user"] == user]
        for q in mine:
            store.recall(q["question"], k=10, touch=False, config=on)
        for _ in range(args.rounds):
            for q in mine:
                kind = q.get("wants") or "all"
                for flag, cfg in ((True, on), (False, off)):
                    t0 = time.process_time()
                    store.recall(q["question"], k=10, touch=False, config=cfg)
                    times.setdefault((kind, flag), []).append((time.process_time() - t0) * 1000)
        store.close()
    print(f"{args.data.name}: warm recall CPU per question (ms), {args.rounds} rounds, {'+'.join(switched)} on / off "
          "alternating")
    print("| questions | n | on mean | off mean | on p95 | off p95 |")
    print("|---|---|---|---|---|---|")
    for kind in sorted({k for k, _ in times}):
        a, b = sorted(times[kind, True]), sorted(times[kind, False])
        print(f"| {kind} | {len(a)} | {statistics.mean(a):.2f} | {statistics.mean(b):.2f} | "
              f"{a[int(0.95 * (len(a) - 1))]:.2f} | {b[int(0.95 * (len(b) - 1))]:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
