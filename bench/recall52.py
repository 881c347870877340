"""Issue 19, round 52: multi-hop — all the evidence in the top 10; held-out 44.

Held-out 44 (``bench/data/realchat_heldout44``, committed with the base score before any engine code): five friends
hiring a canal boat for a week on the Llangollen canal with a dog (a hire firm chosen because it takes dogs, a friend
joining mid-week, an aqueduct closed then crossed on another day, a balance corrected, a damage deposit), two friends
in Girona starting a podcast (in Catalan, a language no held-out 30–43 used: a name chosen after three others, mics, a
room whose price went up, guests recorded in a workshop and a park), two sisters over seven months of one moving to
Vancouver (a permit, a car sold to the other, flights, boxes shipped, a leaving do moved to another pub, a flat, a dog)
and a designer and a dog groomer over a logo and a website (a quote cut, a concept changed, a printed proof, a colour
code, a voucher). 308 turns; 126 questions, 70 needing two turns or more (``"hop"``: ``reply`` — the second is the
reply the first invited, often hours later; ``later`` — another day naming the same thing; ``list`` — items spread
over days), 14 list questions (``"list": true``), 28 in Catalan, 3 in English over the Catalan chat. Base on d9713dd
(before any engine code of this round): r@5 0.712, r@10 0.830, MRR 0.615, multi-hop all@10 0.600 (70); the invited
reply (45) r@5 0.693 / all@10 0.689, another day (11) 0.773 / 0.727, lists (14) 0.358 / r@10 0.581 / all@10 0.214.

    python bench/recall52.py heldout --reuse /tmp/r52/h44 [--json OUT] [--config FIELD=VALUE]   # held-out 44
    python bench/recall52.py heldout --resolve DRAFT.json --reuse DIR          # authoring: texts -> refs, flags
    python bench/recall52.py kinds ROWS.json [ROWS2.json]                      # by hop kind, lists, the rest
    python bench/recall52.py cost --store BIG.db [--rounds 3]                  # warm CPU, partner on / off alternated
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

DATA = HERE / "bench" / "data" / "realchat_heldout44"
QUESTIONS = HERE / "bench" / "data" / "realchat_heldout44.jsonl"
CHATS = {"canal_week.txt": "five friends' canal-boat week (en, 5)",
         "podcast_girona.txt": "two friends start a podcast (ca, 2)",
         "vancouver_sisters.txt": "a sister moves to Vancouver, seven months (en, 2)",
         "logo_grooming.txt": "a designer and a dog groomer (en, 2)"}


def heldout(argv: list[str]) -> int:
    """Held-out 44 by kind: round 32's scorer (bench/recall32.py) pointed at this set."""
    from bench import recall32

    return recall32.heldout(argv, DATA, QUESTIONS, CHATS, __doc__)


def kinds(argv: list[str], questions: Path = QUESTIONS) -> int:
    """The questions by where their second turn is (the invited reply, another day, a list), and the rest, of one or
    more saved runs (``heldout --json``): n, r@5, r@10, all@10 and MRR of each subset."""
    from bench.recall50 import subset_table

    return subset_table(argv, questions, lambda rows, meta: (
        ("second turn: the reply invited", [r for r in rows if meta[r["id"]].get("hop") == "reply"]),
        ("second turn: another day", [r for r in rows if meta[r["id"]].get("hop") == "later"]),
        ("list, items over days", [r for r in rows if meta[r["id"]].get("list")]),
        ("multi-hop", [r for r in rows if meta[r["id"]].get("category") == "multi-hop"]),
        ("one turn", [r for r in rows if meta[r["id"]].get("category") != "multi-hop"]),
        ("all", rows)))


def cost(argv: list[str]) -> int:
    """Warm CPU per recall with the partner step on (the default) and off, alternating question by question, over a
    big store (``--store``: a copy of the 100k scale store) asked the questions of held-outs 43 and 44."""
    import argparse
    import json
    from dataclasses import replace

    from bench.recall37 import on_off_cpu
    from memory_core import MemoryStore, RecallConfig

    ap = argparse.ArgumentParser(prog="recall52.py cost")
    ap.add_argument("--store", required=True, metavar="DB")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--chats", metavar="DIR", help="also held-out 44's own chat stores (``heldout --reuse DIR``)")
    args = ap.parse_args(argv)
    on = RecallConfig()
    off = replace(on, partner="")
    store = MemoryStore(args.store)
    qs = [json.loads(line)["question"] for path in (QUESTIONS, QUESTIONS.with_name("realchat_heldout43.jsonl"))
          for line in path.read_text(encoding="utf-8").splitlines()]
    groups = {"100k store, held-out 43 + 44 questions": [(store, q) for q in qs]}
    if args.chats:  # (where the step fires: short chat turns at the top)
        from bench import realchat
        from embedder import get_embedder

        emb = get_embedder()
        rows = [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines()]
        chats = {f: realchat.build_chat_store(DATA, f, Path(args.chats), emb, reuse=True) for f in CHATS}
        groups["held-out 44's chat stores"] = [(chats[r["file"]], r["question"]) for r in rows]
    on_off_cpu(groups, on, off, args.rounds, f"partner {on.partner}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """``heldout ...``, ``kinds ROWS.json ...`` or ``cost ...``."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["cost"]:
        return cost(args[1:])
    if args[:1] == ["heldout"]:
        return heldout(args[1:])
    if args[:1] == ["kinds"] and len(args) > 1:
        return kinds(args[1:])
    print(__doc__)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
