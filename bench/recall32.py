"""Issue 19, round 32: the gap between the real-chat dev set and the chats nobody tuned on.

Held-out 30 (``bench/data/realchat_heldout30``, committed with the base score before any engine code): a Polish-English
couple in Kraków (a move, a cat, a car, a May trip that changed), two Brazilian flatmates in Dublin (Portuguese with
English: visas, rent, a stolen bike, a trip one of them missed) and a Texan family planning a quinceañera (Spanish and
English: a venue lost to a storm, godparents, a DJ, a cake). 77 questions asked as a person asks of their own history,
18 multi-hop, most in English of turns written in Polish, Portuguese or Spanish. Scored as every held-out chat set is
(``bench/recall_round12.py``: each chat imported into its own store as ``mem.py import`` does, turn-level scoring),
then by kind.

    python bench/recall32.py heldout --reuse /tmp/recall32/h30                 # held-out 30, this tree
    python bench/recall32.py heldout --reuse /tmp/recall32/h30 --misses
    python bench/recall32.py heldout --resolve DRAFT.json --reuse DIR          # authoring: texts -> refs, flags
    python bench/recall32.py cost --reuse /tmp/recall32                        # CPU per recall, newname on / off
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

DATA = HERE / "bench" / "data" / "realchat_heldout30"
QUESTIONS = HERE / "bench" / "data" / "realchat_heldout30.jsonl"
CHATS = {"kawa_krakow.txt": "the Kraków couple (pl/en)", "casa_dublin.txt": "the Dublin flatmates (pt/en)",
         "quince_sa.txt": "the quinceañera family (es/en)"}


def kinds(rows: list[dict[str, Any]], meta: dict[str, dict[str, Any]],
          chats: dict[str, str] | None = None) -> list[list[Any]]:
    """Rows of (subset, n, recall@5, recall@10, MRR, newer above older, decoys above) by kind and by chat (``chats``:
    file -> name, this set's by default)."""
    from bench.recall_round27 import kinds as by_kind

    subsets = {
        "other words (none in the evidence)": [r for r in rows if meta[r["id"]].get("other_words")],
        "multi-hop": [r for r in rows if meta[r["id"]].get("category") == "multi-hop"],
        "temporal": [r for r in rows if meta[r["id"]].get("category") == "temporal"],
        "a value that changed": [r for r in rows if meta[r["id"]].get("kind") == "update"],
        **{name: [r for r in rows if r["file"] == f] for f, name in (chats or CHATS).items()},
        "all": rows,
    }
    # round 27's table for one subset: its last row ("all") is that subset's figures
    return [[name, *by_kind(sub, meta)[-1][1:]] for name, sub in subsets.items()]


def resolve(draft: Path, reuse: Path, data: Path = DATA, questions: Path = QUESTIONS) -> int:
    """Authoring: round 27's resolver pointed at a set (texts -> refs, the measured ``other_words`` flags)."""
    from bench import recall_round27

    recall_round27.DATA, recall_round27.QUESTIONS = data, questions
    return recall_round27.resolve(draft, reuse)


def heldout(argv: list[str], data: Path = DATA, questions: Path = QUESTIONS, chats: dict[str, str] | None = None,
            doc: str | None = __doc__) -> int:
    """A held-out chat set by kind, held-out 30 by default (round 25's command line: ``--reuse``, ``--config``,
    ``--misses``, ``--json``); later rounds pass their own set (bench/recall33.py)."""
    from bench import recall_updates25

    return recall_updates25.run(argv, doc, data, questions, lambda rows, meta: kinds(rows, meta, chats or CHATS),
                                lambda draft, reuse: resolve(draft, reuse, data, questions))


def cost(argv: list[str]) -> int:
    """CPU per recall with newname.py's step on and off, alternating question by question over chat stores (turns
    with threads, where the step reads the keyword index): ``cost --reuse DIR [--rounds N]``; the stores of the
    real-chat dev set's and held-outs' folders under DIR (bench/recall32_loso.py's layout)."""
    import argparse
    import statistics
    import time
    from dataclasses import replace

    from bench import loo
    from bench.realchat import DEFAULT_DATA, DEFAULT_QUESTIONS, build_chat_stores, load_questions
    from embedder import get_embedder
    from memory_core import RecallConfig

    ap = argparse.ArgumentParser(prog="recall32.py cost")
    ap.add_argument("--reuse", required=True, metavar="DIR")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)
    emb = loo.QueryCache(get_embedder())
    reuse = Path(args.reuse)
    asks: list[tuple[Any, str]] = []
    rq = load_questions(DEFAULT_QUESTIONS) if DEFAULT_DATA.exists() else []
    stores = build_chat_stores(rq, DEFAULT_DATA, reuse / "loo" / "realchat", emb, reuse=True) if rq else {}
    asks += [(stores[q.file], q.question) for q in rq]
    for n in ("19", "21", "23"):  # the long held-out chats (300-390 turns each)
        hq = load_questions(HERE / "bench" / "data" / f"realchat_heldout{n}.jsonl")
        hs = build_chat_stores(hq, HERE / "bench" / "data" / f"realchat_heldout{n}", reuse / f"base-h{n}", emb,
                               reuse=True)
        asks += [(hs[q.file], q.question) for q in hq]
    on, off = RecallConfig(), replace(RecallConfig(), newname="")
    for st, q in asks:  # warm: every query vector cached, every store's pages read once
        st.recall(q, k=10, touch=False, config=on)
    cpu: dict[str, list[float]] = {"on": [], "off": []}
    for _ in range(args.rounds):
        for st, q in asks:
            for label, cfg in (("on", on), ("off", off)):
                t0 = time.process_time()
                st.recall(q, k=10, touch=False, config=cfg)
                cpu[label].append((time.process_time() - t0) * 1000)
    for label, xs in cpu.items():
        xs.sort()
        print(f"newname {label}: {len(xs)} recalls, CPU ms median {statistics.median(xs):.2f}, "
              f"mean {statistics.fmean(xs):.2f}, p95 {xs[int(0.95 * (len(xs) - 1))]:.2f}")
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
