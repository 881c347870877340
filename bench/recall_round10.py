"""Recall on unseen conversations, round 10: updates that name the value they replace, short
confirmations, and multi-hop coverage (issue 19).

The update mechanisms are judged on chats no earlier round saw: ``bench/data/recall_updates10.jsonl``
(four chats in three languages and three export layouts, written and committed before any code of
the round: 17 updates, most of them naming the replaced value -- "wednesday not tuesday", "1:15
instead of 12:30", "au lieu de 15h", "Mittwoch statt Dienstag" -- or a short confirmation "ok 13h
alors"; 10 questions whose answer must NOT be displaced, 7 of them with a later look-alike that names
one of their values as replaced for another subject). Rounds 8 and 9's chats are scored too (they
were tuned on). Every variant is a RecallConfig, so ``--dev`` judges the same ones on both dev sets
by leave-one-out (loo.py's Scorer, round 6's ``judge``).

    .venv/bin/python bench/recall_round10.py --reuse /tmp/recall10            # own chats only, ~1 min
    .venv/bin/python bench/recall_round10.py --reuse /tmp/recall10 --dev      # + both dev sets' LOO
    .venv/bin/python bench/recall_round10.py --reuse /tmp/recall10 --sets round10 --show
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import loo  # noqa: E402
from bench.common import DEFAULT_LOCOMO, log, md_table  # noqa: E402
from bench.realchat import DEFAULT_DATA, DEFAULT_QUESTIONS  # noqa: E402
from bench.recall_round9 import own_questions, own_table, score  # noqa: E402
from memengine.recall.config import RecallConfig  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"
SETS = {"round 8": DATA / "recall_updates.jsonl", "round 9": DATA / "recall_updates9.jsonl",
        "round 10": DATA / "recall_updates10.jsonl"}


def variants() -> dict[str, RecallConfig]:
    """The configs compared: the update ranking off, the engine at the session start (round 9's
    ``turns:pool``), and each of this round's switches that the running engine has."""
    have = {f.name for f in fields(RecallConfig)}
    base = RecallConfig()
    out = {"off": replace(base, newer_first=""), "engine default": base}
    if "newer_first" in have:
        out["turns:pool (round 9)"] = replace(base, newer_first="turns:pool")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", metavar="DIR", required=True, help="stores live here (as bench/loo.py)")
    ap.add_argument("--sets", default="round 8,round 9,round 10", help="comma list of the own sets to score")
    ap.add_argument("--dev", action="store_true", help="also both dev sets: every variant judged by leave-one-out")
    ap.add_argument("--show", action="store_true", help="print each update / keep question's top 5 per variant")
    args = ap.parse_args(argv)
    directory = Path(args.reuse)
    from embedder import get_embedder

    emb = loo.QueryCache(get_embedder())
    configs = variants()
    table = []
    wanted = [s.strip().replace("round", "round ").replace("  ", " ") for s in args.sets.split(",")]
    for label, path in SETS.items():
        if label not in wanted:
            continue
        rows = own_questions(path, directory, emb)
        table += own_table(rows, configs, label)
        if args.show:
            for lab, cfg in configs.items():
                sc = score(rows, cfg)
                for r in rows:
                    got = sc[r["id"]]
                    top = [rows_text(r["store"], x) for x in got["top"][:5]]
                    log(f"  {lab:22} {r['id']}: r5 {got['r5']:.0f} above {got.get('above')} top5 {top}")
    print("# Round 10: the own chats (recall@5, MRR, the newer value / the evidence above the turn it is "
          "confused with)\n")
    print(md_table(["chats", "variant", "kind", "n", "recall@5", "MRR", "above"], table))
    if args.dev:
        from bench.recall_round6 import judge

        items = loo.load_items(Path(DEFAULT_LOCOMO), Path(DEFAULT_DATA), Path(DEFAULT_QUESTIONS), directory)
        scorer = loo.Scorer(items, None)
        off = configs["engine default"]
        base = scorer.scores(off)
        got = {lab: scorer.scores(cfg) for lab, cfg in configs.items() if cfg != off}
        row = judge(items, "round 10 variants", base, got)
        print("\n# Both dev sets: the variants against the engine default\n")
        print(md_table(["family", "best in-sample", "LoCoMo r@5 base / best / LOO", "LoCoMo gain in-sample",
                        "LoCoMo gain LOO", "LoCoMo folds +/−/=", "LoCoMo r@10 gain",
                        "LoCoMo multi all@10 base / best / LOO", "real r@5 base / best / LOO", "real gain in-sample",
                        "real gain LOO", "real folds +/−/=", "real r@10 gain",
                        "real multi all@10 base / best / LOO", "folds choosing a variant", "verdict"], [row]))
        for lab in got:
            n = sum(scorer.ranked(it, configs[lab]) != scorer.ranked(it, off) for it in items)
            log(f"{lab}: top 10 changed on {n} dev questions")
    return 0


def rows_text(store: Any, ref: str) -> str:
    """A result's text, short (for ``--show``)."""
    got = store.conn.execute("SELECT content FROM memories WHERE ref = ?", (ref,)).fetchone()
    return (got[0] if got else ref)[-40:]


if __name__ == "__main__":
    raise SystemExit(main())
