"""Issue 19, round 33: chat evidence said in other words than the question.

Held-out 31 (``bench/data/realchat_heldout31``, committed with the base score before any engine code): a Birmingham
narrowboat owner and her friend in Leeds (a boat bought, a dog adopted, an engagement, a hen do that moved), a
Filipino-Canadian mother and son in Toronto (Tagalog and English: a basement flat, a knee operation that cancelled a
Christmas trip, a balikbayan box) and three Nigerian cousins in London, Manchester and Lagos (English and Pidgin: a
grandmother's 80th, a viva that moved, a DJ replaced). 77 questions asked as a person remembers, 18 multi-hop, most in
words the turn does not use. Scored as every held-out chat set is (``bench/recall_round12.py``).

    python bench/recall33.py heldout --reuse /tmp/recall33/h31                 # held-out 31, this tree
    python bench/recall33.py heldout --reuse /tmp/recall33/h31 --misses
    python bench/recall33.py heldout --resolve DRAFT.json --reuse DIR          # authoring: texts -> refs, flags
    python bench/recall33.py cost --db /tmp/recall33/lat/scale-100000.v1.db     # warm CPU per recall, bridge on/off
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

DATA = HERE / "bench" / "data" / "realchat_heldout31"
QUESTIONS = HERE / "bench" / "data" / "realchat_heldout31.jsonl"
CHATS = {"narrowboat.txt": "the narrowboat friends (en)", "mama_pao.txt": "mother and son (tl/en)",
         "cousins_ibadan.txt": "the cousins (en/pidgin)"}


def heldout(argv: list[str]) -> int:
    """Held-out 31 by kind: round 32's scorer (bench/recall32.py) pointed at this set."""
    from bench import recall32

    return recall32.heldout(argv, DATA, QUESTIONS, CHATS, __doc__)


def cost(argv: list[str]) -> int:
    """Warm CPU and wall time per recall with bridge.py's step on and off, alternating question by question, on a
    large store (LoCoMo turns copied to 100k, a warm process: the in-process keyword index built first) and the
    LoCoMo dev questions: ``cost --db PATH [--queries N] [--rounds N] [--config FIELD=VALUE ...]``."""
    import argparse
    import os
    import statistics
    import time
    from dataclasses import replace

    from bench.common import DEFAULT_LOCOMO, load_locomo, percentile
    from memory_core import MemoryStore, RecallConfig

    ap = argparse.ArgumentParser(prog="recall33.py cost")
    ap.add_argument("--db", required=True)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--config", action="append", default=["bridge=all"], metavar="FIELD=VALUE")
    args = ap.parse_args(argv)
    on = RecallConfig()
    for kv in args.config:
        field, value = kv.split("=", 1)
        on = replace(on, **{field: type(getattr(on, field))(value)})
    off = replace(on, bridge="")
    convs, _ = load_locomo(DEFAULT_LOCOMO)
    questions = [q.question for c in convs for q in c.questions][: args.queries]
    st = MemoryStore(Path(args.db), keyword_index=True)
    st.warm_up()
    for q in questions:  # every query vector and page read once
        st.recall(q, k=10, touch=False, config=on)
        st.recall(q, k=10, touch=False, config=off)
    cpu: dict[str, list[float]] = {"off": [], "on": []}
    wall: dict[str, list[float]] = {"off": [], "on": []}
    for _ in range(args.rounds):
        for q in questions:
            for label, cfg in (("off", off), ("on", on)):
                t0, c0 = time.perf_counter(), time.process_time()
                st.recall(q, k=10, touch=False, config=cfg)
                cpu[label].append((time.process_time() - c0) * 1000)
                wall[label].append((time.perf_counter() - t0) * 1000)
    print(f"{st.conn.execute('SELECT count(*) FROM memories').fetchone()[0]} memories, {len(questions)} questions x "
          f"{args.rounds}, load {os.getloadavg()[0]:.1f}; bridge on = {args.config}")
    for label in ("off", "on"):
        print(f"bridge {label}: CPU ms p50 {statistics.median(cpu[label]):.2f} p95 {percentile(cpu[label], 95):.2f}; "
              f"wall ms p50 {statistics.median(wall[label]):.2f} p95 {percentile(wall[label], 95):.2f}")
    st.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    """``heldout ...`` or ``cost ...``."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["heldout"]:
        return heldout(args[1:])
    if args[:1] == ["cost"]:
        return cost(args[1:])
    print(__doc__)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
