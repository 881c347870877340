"""Issue 19, round 37: recall on chats nobody tuned it on — held-out 35.

Held-out 35 (``bench/data/realchat_heldout35``, committed with the base score before any engine code): two sisters in
Derby (a mother's hip operation that moved, a new job, a father's 70th whose restaurant closed), a stag-do group of
four (Edinburgh dropped for Newcastle, karting swapped for axes after a broken ankle, money owed), a Cologne couple in
German (a Kita place, a stolen bike, a holiday that moved from Rømø to the Baltic, a grandmother's 80th) and two
bandmates in Bristol (a drummer who left, a support slot, an EP whose studio dates moved). 135 questions asked as a
person asks of their own history, 48 multi-hop (a plan and its later change, a recommendation and who gave it, an
event and its date said elsewhere, a question and its reply). Scored as every held-out chat set is
(``bench/recall_round12.py``: each chat imported into its own store as ``mem.py import`` does, turn-level scoring).

    python bench/recall37.py heldout --reuse /tmp/recall37/h35                 # held-out 35, this tree
    python bench/recall37.py heldout --reuse /tmp/recall37/h35 --misses
    python bench/recall37.py heldout --resolve DRAFT.json --reuse DIR          # authoring: texts -> refs, flags
    python bench/recall37.py cost --reuse /tmp/recall37 [--db BIG.db]          # warm CPU per recall, thin on / off
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

DATA = HERE / "bench" / "data" / "realchat_heldout35"
QUESTIONS = HERE / "bench" / "data" / "realchat_heldout35.jsonl"
CHATS = {"sisters_derby.txt": "the Derby sisters (en)", "stag_group.txt": "the stag-do group (en, 4 people)",
         "familie_koeln.txt": "the Cologne couple (de)", "band_bristol.txt": "the Bristol bandmates (en)"}


def heldout(argv: list[str]) -> int:
    """Held-out 35 by kind: round 32's scorer (bench/recall32.py) pointed at this set."""
    from bench import recall32

    return recall32.heldout(argv, DATA, QUESTIONS, CHATS, __doc__)


def cost(argv: list[str]) -> int:
    """Warm CPU per recall with thin.py's step on and off, alternating question by question: over the chat stores of
    held-outs 35, 30 and 31 (``--reuse DIR``: DIR/h35, h30, h31, as ``heldout`` builds them), and over a large store
    (``--db``: e.g. LoCoMo turns copied to 100k, bench/scale.py) with the LoCoMo dev questions."""
    import argparse
    from dataclasses import replace

    from bench import realchat
    from bench.common import DEFAULT_LOCOMO, load_locomo
    from embedder import get_embedder
    from memory_core import MemoryStore, RecallConfig

    ap = argparse.ArgumentParser(prog="recall37.py cost")
    ap.add_argument("--reuse", required=True, metavar="DIR")
    ap.add_argument("--db", help="a large store (its LoCoMo dev questions asked of it)")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)
    on = RecallConfig() if RecallConfig().w_thin > 0 else replace(RecallConfig(), w_thin=0.25)
    off = replace(on, w_thin=0.0)
    emb = get_embedder()
    groups: dict[str, list[tuple[object, str]]] = {"chats (held-outs 35, 30, 31)": []}
    for name, sub in (("realchat_heldout35", "h35"), ("realchat_heldout30", "h30"), ("realchat_heldout31", "h31")):
        qs = realchat.load_questions(HERE / "bench" / "data" / f"{name}.jsonl")
        stores = realchat.build_chat_stores(qs, HERE / "bench" / "data" / name, Path(args.reuse) / sub, emb,
                                            reuse=True)
        groups["chats (held-outs 35, 30, 31)"] += [(stores[q.file], q.question) for q in qs]
    big = None
    if args.db:
        big = MemoryStore(Path(args.db), keyword_index=True)
        big.warm_up()
        convs, _ = load_locomo(DEFAULT_LOCOMO)
        label = f"{big.conn.execute('SELECT count(*) FROM memories').fetchone()[0]} memories, LoCoMo questions"
        groups[label] = [(big, q.question) for c in convs for q in c.questions][: args.queries]
    on_off_cpu(groups, on, off, args.rounds, "thin")
    if big is not None:
        big.close()
    return 0


def on_off_cpu(groups: dict[str, list[tuple[object, str]]], on: object, off: object, rounds: int,
               what: str) -> None:
    """Print each group's process CPU per warm recall with a switch on and off, alternating question by question
    (every question recalled once both ways first: its vector and pages warm). Round 40 times its switch with it."""
    import os
    import statistics
    import time

    from bench.common import percentile

    for label, asks in groups.items():
        for st, q in asks:
            for cfg in (on, off):
                st.recall(q, k=10, touch=False, config=cfg)  # type: ignore[attr-defined]
        cpu: dict[str, list[float]] = {"off": [], "on": []}
        for _ in range(rounds):
            for st, q in asks:
                for name, cfg in (("off", off), ("on", on)):
                    t0 = time.process_time()
                    st.recall(q, k=10, touch=False, config=cfg)  # type: ignore[attr-defined]
                    cpu[name].append((time.process_time() - t0) * 1000)
        print(f"{label}: {len(asks)} questions x {rounds}, load {os.getloadavg()[0]:.1f}")
        for name in ("off", "on"):
            print(f"  {what} {name}: CPU ms p50 {statistics.median(cpu[name]):.2f} mean {statistics.fmean(cpu[name]):.2f}"
                  f" p95 {percentile(cpu[name], 95):.2f}")


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
