"""Issue 19, round 12: recall on the held-out chats nobody tuned on (bench/data/realchat_heldout12).

Scores the engine of a tree (this one, or ``--tree /work/base-start`` for the "before") on the
round-12 held-out set, as ``bench/realchat.py`` does (each chat imported into its own store as
``mem.py import`` does, turn-level scoring), plus what the set adds: for each question about a
value that changed (``kind: "update"``), whether the newest message ranks above every message
holding the value it replaced ("newer above older": the first evidence ref in the top 10 and above
each ``outdated`` ref, or that ref not in the top 10).

    python bench/recall_round12.py --reuse /tmp/r12                         # this tree
    python bench/recall_round12.py --reuse /tmp/r12b --tree /work/base-start  # the session start
    python bench/recall_round12.py --reuse /tmp/r12 --misses                 # every miss, read one by one
    python bench/recall_round12.py --reuse /tmp/r12 --json out.json

``--set`` may name another questions file in the same format (its chats in ``--data``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
DATA = HERE / "bench" / "data" / "realchat_heldout12"
QUESTIONS = HERE / "bench" / "data" / "realchat_heldout12.jsonl"


def _engine(tree: Path) -> tuple[Any, Any, Any]:
    """``bench.realchat``, ``bench.common.score_ranking`` and ``get_embedder`` of ``tree``."""
    sys.path.insert(0, str(tree))
    from bench import realchat
    from bench.common import score_ranking
    from embedder import get_embedder

    return realchat, score_ranking, get_embedder


def _config(pairs: list[str]) -> Any:
    """A RecallConfig of the tree's engine with ``FIELD=VALUE`` pairs set (values read as Python literals,
    else as text); None for none."""
    import ast
    from dataclasses import fields, replace

    from memory_core import RecallConfig

    if not pairs:
        return None
    known = {f.name for f in fields(RecallConfig)}
    out: dict[str, Any] = {}
    for pair in pairs:
        key, _, raw = pair.partition("=")
        if key not in known:
            raise SystemExit(f"--config {pair}: RecallConfig has no field {key!r}")
        try:
            out[key] = ast.literal_eval(raw)
        except (ValueError, SyntaxError):
            out[key] = raw
    return replace(RecallConfig(), **out)


def _rank(refs: list[str], ref: str) -> int | None:
    return refs.index(ref) + 1 if ref in refs else None


def score(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Overall metrics, multi-hop all@10 and the update figures of per-question rows."""
    def mean(key: str, sub: list[dict[str, Any]]) -> float:
        return round(statistics.fmean(r[key] for r in sub), 4) if sub else 0.0

    multi = [r for r in rows if r["category"] == "multi-hop"]
    upd = [r for r in rows if r["outdated"]]
    return {"n": len(rows), "recall@5": mean("recall@5", rows), "recall@10": mean("recall@10", rows),
            "all@10": mean("all@10", rows), "mrr": mean("mrr", rows),
            "multi_n": len(multi), "multi_all@10": mean("all@10", multi),
            "updates_n": len(upd), "updates_recall@5": mean("recall@5", upd),
            "newer_above_older": sum(r["newer_first"] for r in upd)}


def own_chats(directory: Path, embedder: Any) -> int:
    """Rounds 8-11's update chats (bench/data/recall_updates*): recall@5, MRR, the newer value above the
    older / the evidence above its look-alike, with ``follow`` off and as the engine ships it."""
    from dataclasses import replace

    from bench.common import md_table
    from bench.recall_round9 import own_questions, own_table
    from bench.recall_round11 import SETS
    from memory_core import RecallConfig

    base = RecallConfig()
    configs = {"follow off": replace(base, follow=""), f"engine (follow {base.follow or 'off'})": base}
    table = []
    for label, path in SETS.items():
        table += own_table(own_questions(path, directory, embedder), configs, label)
    print(md_table(["chats", "variant", "kind", "n", "recall@5", "MRR", "above"], table))
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tree", default=str(HERE), help="repository whose engine is scored (default: this one)")
    ap.add_argument("--data", default=str(DATA), help="folder of the chats (default: %(default)s)")
    ap.add_argument("--set", default=str(QUESTIONS), help="questions JSONL (default: %(default)s)")
    ap.add_argument("--reuse", metavar="DIR", required=True, help="stores live here (one DIR per tree)")
    ap.add_argument("--depth", type=int, default=30, help="how deep to read each ranking for --misses")
    ap.add_argument("--misses", action="store_true", help="print every miss with its top 10 and evidence ranks")
    ap.add_argument("--config", action="append", default=[], metavar="FIELD=VALUE",
                    help="a RecallConfig field for the recalls (repeatable; e.g. newer_first=restate:pool)")
    ap.add_argument("--own", action="store_true",
                    help="rounds 8-11's update chats instead, with follow off and the engine's default")
    ap.add_argument("--json", metavar="OUT", help="write the figures and per-question rows as JSON")
    args = ap.parse_args(argv)

    realchat, score_ranking, get_embedder = _engine(Path(args.tree).resolve())
    config = _config(args.config)
    if args.own:
        return own_chats(Path(args.reuse), get_embedder())
    questions = realchat.load_questions(Path(args.set))
    extra = {}
    for line in Path(args.set).read_text(encoding="utf-8").splitlines():
        if line.strip():
            obj = json.loads(line)
            extra[obj["id"]] = obj
    stores = realchat.build_chat_stores(questions, Path(args.data), Path(args.reuse), get_embedder(), reuse=True)
    missing = realchat.check_evidence(stores, questions)
    if missing:
        print("evidence refs not in their store:\n  " + "\n  ".join(missing), file=sys.stderr)
        return 2
    rows: list[dict[str, Any]] = []
    for q in questions:
        st = stores[q.file]
        # scored at k = 10 as bench/realchat.py does (k sizes the pool); read deeper for --misses only
        refs = [m.ref or "" for m in st.recall(q.question, k=10, touch=False, config=config).results]
        deep = [m.ref or "" for m in st.recall(q.question, k=args.depth, touch=False, config=config).results] if args.misses else refs
        s = score_ranking(refs[:10], q.evidence)
        old = extra[q.id].get("outdated", [])
        new_rank = _rank(refs[:10], q.evidence[0])
        first = bool(old) and new_rank is not None and all(
            (_rank(refs[:10], o) or 99) > new_rank for o in old)
        rows.append({"id": q.id, "file": q.file, "category": q.category, "lang": q.lang, "question": q.question,
                     "outdated": old, "newer_first": first, "top": refs,
                     "evidence_ranks": [_rank(deep, e) for e in q.evidence],
                     "outdated_ranks": [_rank(deep, o) for o in old], **s})
    figures = score(rows)
    by_file = {f: score([r for r in rows if r["file"] == f]) for f in sorted({r["file"] for r in rows})}
    print(f"engine of {args.tree}; {args.set}; config {' '.join(args.config) or 'default'}")
    print("| set | n | recall@5 | recall@10 | all@10 | MRR | multi-hop all@10 | updates r@5 | newer above older |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, f in [*by_file.items(), ("**all**", figures)]:
        print(f"| {name} | {f['n']} | {f['recall@5']:.3f} | {f['recall@10']:.3f} | {f['all@10']:.3f} | "
              f"{f['mrr']:.3f} | {f['multi_all@10']:.3f} ({f['multi_n']}) | {f['updates_recall@5']:.3f} | "
              f"{f['newer_above_older']}/{f['updates_n']} |")
    if args.misses:
        for r in rows:
            if r["all@10"] == 1.0 and (not r["outdated"] or r["newer_first"]):
                continue
            st = stores[r["file"]]

            def text(ref: str, st: Any = st) -> str:
                got = st.conn.execute("SELECT author, content FROM memories WHERE ref = ?", (ref,)).fetchone()
                return f"{got[0]}: {got[1][:90]}" if got else ref

            print(f"\n{r['id']} [{r['category']}] {r['question']}  ev ranks {r['evidence_ranks']}"
                  f" old ranks {r['outdated_ranks']}")
            for e in extra[r["id"]]["evidence"]:
                print(f"   EV  {text(e)}")
            for o in r["outdated"]:
                print(f"   OLD {text(o)}")
            for i, ref in enumerate(r["top"][:10], 1):
                mark = "*" if ref in extra[r["id"]]["evidence"] else ("o" if ref in r["outdated"] else " ")
                print(f"   {i:2d}{mark} {text(ref)}")
    if args.json:
        Path(args.json).write_text(json.dumps({"figures": figures, "by_file": by_file, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
