"""Issue 19, round 50: recall on chats nobody tuned it on — held-out 42, and list questions spread over weeks.

Held-out 42 (``bench/data/realchat_heldout42``, committed with the base score before any engine code): a repair café
run by five volunteers over five months (a church hall whose boiler broke, a library room upstairs, a grant spent
item by item, what was fixed and what was not, a donations tin), a Swedish couple's first four months with a rescue
dog (what he chewed, three vet visits, who minded him, a training course, a day-care), a beginner beekeeper and her
mentor over a whole season (April to October: a nuc, an artificial swarm, a caught swarm, an angry queen replaced,
two harvests, varroa, wasps, winter feeding) and two teachers sharing a car over the Forth bridge for three months
(snow, a bridge shut, a puncture, an MOT, podcasts, petrol money). 292 turns; 120 questions, 62 needing two turns or
more, **32 list questions whose answers are spread over weeks** (``"list": true``), 16 "first / last" questions
(``"ordinal": true``), 27 in Swedish. Scored as every held-out chat set is (``bench/recall_round12.py``: each chat
imported into its own store as ``mem.py import`` does, turn-level scoring).

    python bench/recall50.py heldout --reuse /tmp/r50/h42 [--json OUT] [--config FIELD=VALUE]   # held-out 42
    python bench/recall50.py heldout --resolve DRAFT.json --reuse DIR          # authoring: texts -> refs, flags
    python bench/recall50.py lists ROWS.json [ROWS2.json]                      # list / ordinal / rest, apart
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

DATA = HERE / "bench" / "data" / "realchat_heldout42"
QUESTIONS = HERE / "bench" / "data" / "realchat_heldout42.jsonl"
CHATS = {"repair_cafe.txt": "a repair café's volunteers (en, 5)",
         "hunden_sigge.txt": "a couple's rescue dog (sv, 2)",
         "bees_colin.txt": "a beekeeper and her mentor, a season (en, 2)",
         "carpool_forth.txt": "two teachers sharing a car (en, 2)"}


def heldout(argv: list[str]) -> int:
    """Held-out 42 by kind: round 32's scorer (bench/recall32.py) pointed at this set."""
    from bench import recall32

    return recall32.heldout(argv, DATA, QUESTIONS, CHATS, __doc__)


def lists(argv: list[str], questions: Path = QUESTIONS) -> int:
    """The list questions, the "first / last" ones and the rest of one or more saved runs (``heldout --json``):
    n, r@5, r@10, all@10 and MRR of each subset."""
    return subset_table(argv, questions, lambda rows, meta: (
        ("list", [r for r in rows if meta[r["id"]].get("list")]),
        ("first / last", [r for r in rows if meta[r["id"]].get("ordinal")]),
        ("multi-hop", [r for r in rows if meta[r["id"]].get("category") == "multi-hop"]),
        ("not list", [r for r in rows if not meta[r["id"]].get("list")]),
        ("all", rows)))


Rows = list[dict[str, Any]]


def subset_table(paths: list[str], questions: Path,
                 subsets: Callable[[Rows, dict[str, dict[str, Any]]], Sequence[tuple[str, Rows]]]) -> int:
    """Print n, r@5, r@10, all@10 and MRR of each labelled subset of one or more saved runs (``heldout --json``):
    ``subsets(rows, meta)`` picks them, ``meta`` being each question's line of ``questions`` by id."""
    from bench.common import md_table

    meta = {r["id"]: r for r in map(json.loads, questions.read_text(encoding="utf-8").splitlines())}
    out = []
    for path in paths:
        rows = json.loads(Path(path).read_text())["rows"]
        for label, sub in subsets(rows, meta):
            n = max(len(sub), 1)
            out.append([Path(path).name, label, len(sub),
                        *(f"{sum(r[k] for r in sub) / n:.3f}" for k in ("recall@5", "recall@10", "all@10", "mrr"))])
    print(md_table(["run", "questions", "n", "recall@5", "recall@10", "all@10", "MRR"], out))
    return 0


def main(argv: list[str] | None = None) -> int:
    """``heldout ...`` or ``lists ROWS.json ...``."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["heldout"]:
        return heldout(args[1:])
    if args[:1] == ["lists"] and len(args) > 1:
        return lists(args[1:])
    print(__doc__)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
