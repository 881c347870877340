"""Issue 19, round 48: recall on chats nobody tuned it on — held-out 41, and list questions spread over weeks.

Held-out 41 (``bench/data/realchat_heldout41``, committed with the base score before any engine code): a pub-quiz
team of six over three months (a venue shut for a refurb, a night moved, prizes, a jackpot, who missed which week),
two Danish brothers turning their grandfather's summer house into a rental (two roof quotes, a clear-out moved a week,
what they found and threw out, the weeks booked, a key-box code changed), a maths tutor and a father over a year of
GCSE lessons (topics, cancellations, fees, mocks, exams) and two neighbours keeping rescue hens (a fox, a vet, a new
bantam, red mite). 262 turns, bursts of short ones, typos, lower case; 120 questions, 63 multi-hop, 27 list questions
whose answers are spread over weeks (``"list": true``), 24 in Danish and 4 English over the Danish chat. Scored as
every held-out chat set is (``bench/recall_round12.py``: each chat imported into its own store as ``mem.py import``
does, turn-level scoring).

    python bench/recall48.py heldout --reuse /tmp/recall48/h41                 # held-out 41, this tree
    python bench/recall48.py heldout --reuse /tmp/recall48/h41 --misses
    python bench/recall48.py heldout --resolve DRAFT.json --reuse DIR          # authoring: texts -> refs, flags
    python bench/recall48.py lists ROWS.json [ROWS2.json]                      # a saved run's list questions
    python bench/recall48.py cost --reuse /tmp/r48/pool [--config ordinal=0.2:10]  # warm CPU: a switch on vs off
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

DATA = HERE / "bench" / "data" / "realchat_heldout41"
QUESTIONS = HERE / "bench" / "data" / "realchat_heldout41.jsonl"
CHATS = {"quiz_team.txt": "a pub-quiz team (en, 6)",
         "sommerhus_loekken.txt": "two brothers' summer house (da, 2)",
         "maths_tutor.txt": "a maths tutor and a father, a year (en, 2)",
         "hens_neighbours.txt": "neighbours keeping hens (en, 2)"}


def heldout(argv: list[str]) -> int:
    """Held-out 41 by kind: round 32's scorer (bench/recall32.py) pointed at this set."""
    from bench import recall32

    return recall32.heldout(argv, DATA, QUESTIONS, CHATS, __doc__)


def lists(argv: list[str]) -> int:
    """The list questions of one or two saved runs (``heldout --json``): r@5, r@10, all@10 and MRR over the questions
    marked ``"list": true``, and over the rest."""
    import json

    from bench.common import md_table

    marked = {r["id"] for r in map(json.loads, QUESTIONS.read_text(encoding="utf-8").splitlines()) if r.get("list")}
    out = []
    for path in argv:
        rows = json.loads(Path(path).read_text())["rows"]
        for label, sub in (("list", [r for r in rows if r["id"] in marked]),
                           ("not list", [r for r in rows if r["id"] not in marked])):
            n = max(len(sub), 1)
            out.append([Path(path).name, label, len(sub),
                        *(f"{sum(r[k] for r in sub) / n:.3f}" for k in ("recall@5", "recall@10", "all@10", "mrr"))])
    print(md_table(["run", "questions", "n", "recall@5", "recall@10", "all@10", "MRR"], out))
    return 0


def cost(argv: list[str]) -> int:
    """Warm CPU per recall with this round's switches (``--config FIELD=VALUE``, repeatable) on and off, alternating
    question by question over the chat stores of held-outs 30, 35, 37, 38, 39 and 40 (``--reuse DIR``: DIR/base-hNN,
    as bench/recall48_pool.py builds them)."""
    import argparse
    from dataclasses import replace

    from bench import realchat
    from bench.recall37 import on_off_cpu
    from embedder import get_embedder
    from memory_core import RecallConfig

    ap = argparse.ArgumentParser(prog="recall48.py cost")
    ap.add_argument("--reuse", required=True, metavar="DIR")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--config", action="append", default=[], metavar="FIELD=VALUE")
    args = ap.parse_args(argv)
    off = RecallConfig()
    on = replace(off, **dict(c.split("=", 1) for c in args.config))
    emb = get_embedder()
    label = "chats (held-outs 30, 35, 37, 38, 39, 40)"
    groups: dict[str, list[tuple[object, str]]] = {label: []}
    for n in ("30", "35", "37", "38", "39", "40"):
        name = f"realchat_heldout{n}"
        qs = realchat.load_questions(HERE / "bench" / "data" / f"{name}.jsonl")
        stores = realchat.build_chat_stores(qs, HERE / "bench" / "data" / name, Path(args.reuse) / f"base-h{n}", emb,
                                            reuse=True)
        groups[label] += [(stores[q.file], q.question) for q in qs]
    on_off_cpu(groups, on, off, args.rounds, " ".join(args.config) or "default")
    return 0


def main(argv: list[str] | None = None) -> int:
    """``heldout ...``, ``lists ROWS.json ...`` or ``cost ...``."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["heldout"]:
        return heldout(args[1:])
    if args[:1] == ["cost"]:
        return cost(args[1:])
    if args[:1] == ["lists"] and len(args) > 1:
        return lists(args[1:])
    print(__doc__)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
