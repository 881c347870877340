"""Issue 19, round 44: recall on chats nobody tuned it on — held-out 39, and the held-outs read by earlier rounds
pooled with the two dev sets as one bigger dev set (``bench/recall44_pool.py``).

Held-out 39 (``bench/data/realchat_heldout39``, committed with the base score before any engine code): five friends
planning a campervan week on the North Coast 500 (a van that failed its MOT and was replaced, one who drops out and
rejoins for the last two nights, a distillery, a puncture, deposits split), a German couple doing up a flat in
Leipzig (mould the landlady pays for, floors sanded themselves, the electrician off sick so the move slips two
weeks, Telekom or Vodafone, a sofa that comes late), a runner and his friend who coaches him over five months (a
calf strain, Manchester deferred for Edinburgh, the goal moved from 3:45 to sub 4, shoes, gels, a charity page)
and two ward nurses (shift swaps, a cannulation course, a car share, a leaving do, a locker code, a falls role).
321 turns, bursts of short ones, typos, lower case. 128 questions asked as a person asks of their own history, 47
multi-hop (two turns: a question and its short reply, a plan and its later change, two amounts said apart), 23 in
German. Scored as every held-out chat set is (``bench/recall_round12.py``: each chat imported into its own store as
``mem.py import`` does, turn-level scoring).

    python bench/recall44.py heldout --reuse /tmp/recall44/h39                 # held-out 39, this tree
    python bench/recall44.py heldout --reuse /tmp/recall44/h39 --misses
    python bench/recall44.py heldout --resolve DRAFT.json --reuse DIR          # authoring: texts -> refs, flags
    python bench/recall44.py cost --reuse /tmp/r44/pool                        # warm CPU, round 44's settings / 43's
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

DATA = HERE / "bench" / "data" / "realchat_heldout39"
QUESTIONS = HERE / "bench" / "data" / "realchat_heldout39.jsonl"
CHATS = {"nc500_van.txt": "the NC500 van group (en, 5)", "wohnung_leipzig.txt": "the Leipzig flat (de, 2)",
         "dev_kate_marathon.txt": "a runner and his coach, five months (en, 2)",
         "ward_shifts.txt": "two ward nurses (en, 2)"}


def heldout(argv: list[str]) -> int:
    """Held-out 39 by kind: round 32's scorer (bench/recall32.py) pointed at this set."""
    from bench import recall32

    return recall32.heldout(argv, DATA, QUESTIONS, CHATS, __doc__)


def cost(argv: list[str]) -> int:
    """Warm CPU per recall with round 44's settings (thin.py at three words, the chat length prior 0.15) and round
    43's (two words, one length prior), alternating question by question over the chat stores of held-outs 37, 35,
    30 and 38 (``--reuse DIR``: DIR/base-hNN, as bench/recall44_pool.py builds them)."""
    import argparse
    from dataclasses import replace

    from bench import realchat
    from bench.recall37 import on_off_cpu
    from embedder import get_embedder
    from memory_core import RecallConfig

    ap = argparse.ArgumentParser(prog="recall44.py cost")
    ap.add_argument("--reuse", required=True, metavar="DIR")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)
    now = RecallConfig()
    before = replace(now, thin_words=2, w_length_thread=None)
    emb = get_embedder()
    label = "chats (held-outs 37, 35, 30, 38)"
    groups: dict[str, list[tuple[object, str]]] = {label: []}
    for n in ("37", "35", "30", "38"):
        name = f"realchat_heldout{n}"
        qs = realchat.load_questions(HERE / "bench" / "data" / f"{name}.jsonl")
        stores = realchat.build_chat_stores(qs, HERE / "bench" / "data" / name, Path(args.reuse) / f"base-h{n}", emb,
                                            reuse=True)
        groups[label] += [(stores[q.file], q.question) for q in qs]
    on_off_cpu(groups, now, before, args.rounds, "round 44 (off = round 43's settings)")
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
