"""Issue 19, round 40: recall on chats nobody tuned it on — held-out 37.

Held-out 37 (``bench/data/realchat_heldout37``, committed with the base score before any engine code): two friends in
Glasgow over five months (a half marathon on a sore knee, a car that failed its MOT and was sold, a job in Dundee
whose start moved, a rescue greyhound afraid of stairs, a birthday dinner moved by a burst pipe), a French family
group of five in Lyon (a grandmother's 85th moved for an exam, a leak, a driving test failed then passed, a summer
rental cancelled and replaced), a long-distance couple Toronto–Manchester (a flight moved, a father's operation, a
PhD defence moved, a postdoc won) and four students sharing a house in Selly Oak (bills, a broken washing machine,
an inspection moved, a housemate leaving on Erasmus). 123 questions asked as a person asks of their own history, 44
multi-hop (two turns said days apart). Scored as every held-out chat set is (``bench/recall_round12.py``: each chat
imported into its own store as ``mem.py import`` does, turn-level scoring).

    python bench/recall40.py heldout --reuse /tmp/recall40/h37                 # held-out 37, this tree
    python bench/recall40.py heldout --reuse /tmp/recall40/h37 --misses
    python bench/recall40.py heldout --resolve DRAFT.json --reuse DIR          # authoring: texts -> refs, flags
    python bench/recall40.py cost --reuse /tmp/recall40 [--db BIG.db]          # warm CPU per recall, asked_words on / off
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

DATA = HERE / "bench" / "data" / "realchat_heldout37"
QUESTIONS = HERE / "bench" / "data" / "realchat_heldout37.jsonl"
CHATS = {"jamie_shona.txt": "the Glasgow friends (en, 2)", "famille_moreau.txt": "the Lyon family (fr, 5)",
         "mei_sam.txt": "the Toronto-Manchester couple (en, 2)", "house_selly.txt": "the Selly Oak house (en, 5)"}


def heldout(argv: list[str]) -> int:
    """Held-out 37 by kind: round 32's scorer (bench/recall32.py) pointed at this set."""
    from bench import recall32

    return recall32.heldout(argv, DATA, QUESTIONS, CHATS, __doc__)


def cost(argv: list[str]) -> int:
    """Warm CPU per recall with asked_words.py on and off, alternating question by question: over the chat stores of
    held-outs 37, 35 and 30 (``--reuse DIR``: DIR/h37, h35, h30, as ``heldout`` builds them; their questions in French,
    German, Polish, Portuguese, Spanish and English), and over a large store (``--db``: e.g. LoCoMo turns copied to
    100k, bench/scale.py) with the LoCoMo dev questions."""
    import argparse
    from dataclasses import replace

    from bench import realchat
    from bench.common import DEFAULT_LOCOMO, load_locomo
    from bench.recall37 import on_off_cpu
    from embedder import get_embedder
    from memory_core import MemoryStore, RecallConfig

    ap = argparse.ArgumentParser(prog="recall40.py cost")
    ap.add_argument("--reuse", required=True, metavar="DIR")
    ap.add_argument("--db", help="a large store (its LoCoMo dev questions asked of it)")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)
    on, off = replace(RecallConfig(), asked_words="lang"), replace(RecallConfig(), asked_words="")
    emb = get_embedder()
    label = "chats (held-outs 37, 35, 30)"
    groups: dict[str, list[tuple[object, str]]] = {label: []}
    for name, sub in (("realchat_heldout37", "h37"), ("realchat_heldout35", "h35"), ("realchat_heldout30", "h30")):
        qs = realchat.load_questions(HERE / "bench" / "data" / f"{name}.jsonl")
        stores = realchat.build_chat_stores(qs, HERE / "bench" / "data" / name, Path(args.reuse) / sub, emb,
                                            reuse=True)
        groups[label] += [(stores[q.file], q.question) for q in qs]
    big = None
    if args.db:
        big = MemoryStore(Path(args.db), keyword_index=True)
        big.warm_up()
        convs, _ = load_locomo(DEFAULT_LOCOMO)
        big_label = f"{big.conn.execute('SELECT count(*) FROM memories').fetchone()[0]} memories, LoCoMo questions"
        groups[big_label] = [(big, q.question) for c in convs for q in c.questions][: args.queries]
    on_off_cpu(groups, on, off, args.rounds, "asked_words")
    if big is not None:
        big.close()
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
