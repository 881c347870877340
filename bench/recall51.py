"""Issue 19, round 51: decisions that were revised, and the words people shorten — held-out 43.

Held-out 43 (``bench/data/realchat_heldout43``, committed with the base score before any engine code): a five-a-side
team of five in Leeds over a season (a team name, a kick-off time moved, a kit colour, a training night, a pitch fee
that went up, a Christmas social whose venue and date changed twice), a Turkish couple buying a used car in Ankara
(in Turkish, a language no held-out 30–42 used: a budget, an Egea passed over, a Corolla bargained, an inspection
moved, insurance, a notary cancelled, tyres), a bathroom renovation told to the builder over seven months (a start
date pushed, tiles, a shower, a toilet, grout, an invoice corrected) and a mother and son planning a 60th birthday
(a venue, a date moved, a present, a hospital appointment moved). 232 turns; 126 questions, 51 needing two turns or
more, **35 asking what was finally decided after a plan changed** (``"decided": true``; evidence = the deciding
turn(s)), 29 asking with the full word of something the chat shortens (``"abbrev": "full"``: "reference" of "ref",
"appointment" of "appt") or the reverse (``"abbrev": "short"``), 29 in Turkish.

    python bench/recall51.py heldout --reuse /tmp/r51/h43 [--json OUT] [--config FIELD=VALUE]   # held-out 43
    python bench/recall51.py heldout --resolve DRAFT.json --reuse DIR          # authoring: texts -> refs, flags
    python bench/recall51.py kinds ROWS.json [ROWS2.json]                      # decided / shortened / rest, apart
    python bench/recall51.py cost --store BIG.db [--config FIELD=VALUE] [--rounds 3]  # warm CPU, on / off alternated
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

DATA = HERE / "bench" / "data" / "realchat_heldout43"
QUESTIONS = HERE / "bench" / "data" / "realchat_heldout43.jsonl"
CHATS = {"five_a_side.txt": "a five-a-side team's season (en, 5)",
         "araba_ankara.txt": "a couple buying a used car (tr, 2)",
         "bathroom_mark.txt": "a bathroom and its builder, seven months (en, 2)",
         "dads_sixtieth.txt": "a mother and son plan a 60th (en, 2)"}


def heldout(argv: list[str]) -> int:
    """Held-out 43 by kind: round 32's scorer (bench/recall32.py) pointed at this set."""
    from bench import recall32

    return recall32.heldout(argv, DATA, QUESTIONS, CHATS, __doc__)


def kinds(argv: list[str], questions: Path = QUESTIONS) -> int:
    """The "what was finally decided" questions, the shortened-word ones and the rest of one or more saved runs
    (``heldout --json``): n, r@5, r@10, all@10 and MRR of each subset."""
    from bench.recall50 import subset_table

    return subset_table(argv, questions, lambda rows, meta: (
        ("decided after a change", [r for r in rows if meta[r["id"]].get("decided")]),
        ("full word, chat shortens", [r for r in rows if meta[r["id"]].get("abbrev") == "full"]),
        ("short word, chat has it full", [r for r in rows if meta[r["id"]].get("abbrev") == "short"]),
        ("multi-hop", [r for r in rows if meta[r["id"]].get("category") == "multi-hop"]),
        ("the rest", [r for r in rows if not meta[r["id"]].get("decided") and not meta[r["id"]].get("abbrev")]),
        ("all", rows)))


def cost(argv: list[str]) -> int:
    """Warm CPU per recall with this round's switches (``--config FIELD=VALUE``) on and off, alternating question by
    question, over a big store (``--store``: a copy of the 100k scale store) asked the questions of held-outs 42 and 43
    (words the store mostly does not hold: the shortened-word step's worst case) and LoCoMo-like ones of its own."""
    import argparse
    from dataclasses import replace

    from bench.recall37 import on_off_cpu
    from memory_core import MemoryStore, RecallConfig

    ap = argparse.ArgumentParser(prog="recall51.py cost")
    ap.add_argument("--store", required=True, metavar="DB")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--config", action="append", default=[], metavar="FIELD=VALUE")
    args = ap.parse_args(argv)
    off = RecallConfig()
    on = replace(off, **dict(c.split("=", 1) for c in args.config))
    store = MemoryStore(args.store)
    qs = [json.loads(line)["question"] for path in (QUESTIONS, QUESTIONS.with_name("realchat_heldout42.jsonl"))
          for line in path.read_text(encoding="utf-8").splitlines()]
    on_off_cpu({"100k store, held-out 42 + 43 questions": [(store, q) for q in qs]}, on, off, args.rounds,
               " ".join(args.config) or "default")
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
