"""Issue 19, round 43: recall on chats nobody tuned it on — held-out 38.

Held-out 38 (``bench/data/realchat_heldout38``, committed with the base score before any engine code): five old
friends planning a surprise 30th in a Peak District cottage that was cancelled and replaced (a group of five), two
Italian siblings looking after their father in Bologna (a cardiologist, a boiler, his car sold, a cat, a brother
moving to Turin, their mother's birthday moved), a father and his daughter at college in Ohio (a dead laptop, a bus
cancelled by a storm, a roommate, a grandmother's fall, car insurance) and two friends running a bao stall in Leeds
(a butcher changed, card readers, a van's MOT, an inspection, a festival moved, a new hire). 131 questions asked as
a person asks of their own history, 47 multi-hop (two turns, often a question and its short reply). Scored as every
held-out chat set is (``bench/recall_round12.py``: each chat imported into its own store as ``mem.py import`` does,
turn-level scoring).

    python bench/recall43.py heldout --reuse /tmp/recall43/h38                 # held-out 38, this tree
    python bench/recall43.py heldout --reuse /tmp/recall43/h38 --misses
    python bench/recall43.py heldout --resolve DRAFT.json --reuse DIR          # authoring: texts -> refs, flags
    python bench/recall43.py cost --reuse /tmp/recall43                        # warm CPU, thin_words 3 / 2
    python bench/recall43_bursts.py --reuse DIR --chats DIR                    # the round's five re-rankings
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

DATA = HERE / "bench" / "data" / "realchat_heldout38"
QUESTIONS = HERE / "bench" / "data" / "realchat_heldout38.jsonl"
CHATS = {"cottage_crew.txt": "the cottage group (en, 5)", "fratelli_rossi.txt": "the Rossi siblings (it, 2)",
         "dad_maddie.txt": "a father and daughter (en, 2)", "bao_stall.txt": "the Leeds bao stall (en, 2)"}


def heldout(argv: list[str]) -> int:
    """Held-out 38 by kind: round 32's scorer (bench/recall32.py) pointed at this set."""
    from bench import recall32

    return recall32.heldout(argv, DATA, QUESTIONS, CHATS, __doc__)


def cost(argv: list[str]) -> int:
    """Warm CPU per recall with thin.py's threshold at 3 and at 2 (the default), alternating question by question
    over the chat stores of held-outs 37, 35 and 30 (``--reuse DIR``: DIR/h37, h35, h30 as ``heldout`` builds them)."""
    import argparse
    from dataclasses import replace

    from bench import realchat
    from bench.recall37 import on_off_cpu
    from embedder import get_embedder
    from memory_core import RecallConfig

    ap = argparse.ArgumentParser(prog="recall43.py cost")
    ap.add_argument("--reuse", required=True, metavar="DIR")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)
    on, off = replace(RecallConfig(), thin_words=3), RecallConfig()
    emb = get_embedder()
    label = "chats (held-outs 37, 35, 30)"
    groups: dict[str, list[tuple[object, str]]] = {label: []}
    for name, sub in (("realchat_heldout37", "h37"), ("realchat_heldout35", "h35"), ("realchat_heldout30", "h30")):
        qs = realchat.load_questions(HERE / "bench" / "data" / f"{name}.jsonl")
        stores = realchat.build_chat_stores(qs, HERE / "bench" / "data" / name, Path(args.reuse) / sub, emb,
                                            reuse=True)
        groups[label] += [(stores[q.file], q.question) for q in qs]
    on_off_cpu(groups, on, off, args.rounds, "thin_words 3")
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
