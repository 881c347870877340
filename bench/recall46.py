"""Issue 19, round 46: recall on chats nobody tuned it on — held-out 40, and the second hop of multi-hop questions.

Held-out 40 (``bench/data/realchat_heldout40``, committed with the base score before any engine code): five parents
running a primary school's summer fair (the field reseeded, the date moved a week, a bouncy castle swapped for a
bigger one, a raffle prize that fell through, the takings), two Dutch friends who bought an old sailing boat together
(a berth chosen by price, sails late, a motor cleaned from a video, costs split, a summer route changed), two
sisters over eight months of a rescue greyhound (kennels, a fence, a vet's bills, walkers who change days, a foster)
and a wedding photographer with a bride over a year (a shoot moved for gales, a second shooter replaced, a reception
venue changed, the balance worked out). 283 turns, bursts of short ones, typos, lower case; 120 questions, 59
multi-hop, 26 in Dutch. Scored as every held-out chat set is (``bench/recall_round12.py``: each chat imported into
its own store as ``mem.py import`` does, turn-level scoring).

    python bench/recall46.py heldout --reuse /tmp/recall46/h40                 # held-out 40, this tree
    python bench/recall46.py heldout --reuse /tmp/recall46/h40 --misses
    python bench/recall46.py heldout --resolve DRAFT.json --reuse DIR          # authoring: texts -> refs, flags
    python bench/recall46.py cost --reuse /tmp/r46/pool                        # warm CPU: this round's engine vs 7a7fdae's
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

DATA = HERE / "bench" / "data" / "realchat_heldout40"
QUESTIONS = HERE / "bench" / "data" / "realchat_heldout40.jsonl"
CHATS = {"pta_summer_fair.txt": "a school fair committee (en, 5)",
         "zeilboot_sander_bram.txt": "two friends' sailing boat (nl, 2)",
         "greyhound_sisters.txt": "sisters and a rescue greyhound, eight months (en, 2)",
         "wedding_photographer.txt": "a wedding photographer and a bride, a year (en, 2)"}


def heldout(argv: list[str]) -> int:
    """Held-out 40 by kind: round 32's scorer (bench/recall32.py) pointed at this set."""
    from bench import recall32

    return recall32.heldout(argv, DATA, QUESTIONS, CHATS, __doc__)


def cost(argv: list[str]) -> int:
    """Warm CPU per recall with this round's settings (round 44's restored, a later clause asking when) and 7a7fdae's
    (thin.py at two words, one length prior, "when" read at the head only), alternating question by question over the
    chat stores of held-outs 37, 35, 30, 38 and 39 (``--reuse DIR``: DIR/base-hNN, as bench/recall46_pool.py builds)."""
    import argparse
    from dataclasses import replace

    from bench import realchat
    from bench.recall37 import on_off_cpu
    from embedder import get_embedder
    from memory_core import RecallConfig

    ap = argparse.ArgumentParser(prog="recall46.py cost")
    ap.add_argument("--reuse", required=True, metavar="DIR")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)
    now = RecallConfig()
    before = replace(now, thin_words=2, w_length_thread=None, time_words="en")
    emb = get_embedder()
    label = "chats (held-outs 37, 35, 30, 38, 39)"
    groups: dict[str, list[tuple[object, str]]] = {label: []}
    for n in ("37", "35", "30", "38", "39"):
        name = f"realchat_heldout{n}"
        qs = realchat.load_questions(HERE / "bench" / "data" / f"{name}.jsonl")
        stores = realchat.build_chat_stores(qs, HERE / "bench" / "data" / name, Path(args.reuse) / f"base-h{n}", emb,
                                            reuse=True)
        groups[label] += [(stores[q.file], q.question) for q in qs]
    on_off_cpu(groups, now, before, args.rounds, "round 46 (off = 7a7fdae's settings)")
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
