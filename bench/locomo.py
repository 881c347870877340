"""LoCoMo retrieval benchmark: does recall find the dialog turns a question needs?

One store per conversation, one episodic memory per turn
(``[<session date>] <speaker>: <text>``), scored at turn level for keyword, vector
and hybrid recall in the same run. See bench/README.md.

    python bench/locomo.py                                  # all strategies, default data
    python bench/locomo.py --keep /tmp/locomo-stores        # keep the store files
    python bench/locomo.py --reuse /tmp/locomo-stores       # skip re-embedding next time
    python bench/locomo.py --strategies hybrid --json out.json --loo
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import (  # noqa: E402
    CATEGORIES,
    DEFAULT_LOCOMO,
    SCORED_CATEGORIES,
    build_stores,
    engine_recall,
    evaluate,
    leave_one_out,
    load_locomo,
    log,
    md_table,
)

REFERENCE = {"name": "FTS5 keyword-only (data README)", "recall@5": 0.554, "recall@10": 0.639, "mrr": 0.484, "n": 760}


def strategy_table(res: dict) -> str:
    rows = []
    for c in SCORED_CATEGORIES:
        m = res["by_category"].get(c)
        if m and m["n"]:
            rows.append([f"{c} {CATEGORIES[c]}", m["n"], m["recall@5"], m["recall@10"], m["all@10"], m["mrr"]])
    o = res["overall"]
    rows.append(["**overall (1-4)**", o["n"], o["recall@5"], o["recall@10"], o["all@10"], o["mrr"]])
    m5 = res["by_category"].get(5)
    if m5 and m5["n"]:
        rows.append(["5 adversarial (separate)", m5["n"], m5["recall@5"], m5["recall@10"], m5["all@10"], m5["mrr"]])
    return md_table(["category", "n", "recall@5", "recall@10", "all-evidence@10", "MRR"], rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("path", nargs="?", default=str(DEFAULT_LOCOMO), help="LoCoMo JSON (default: %(default)s)")
    ap.add_argument("--strategies", default="keyword,vector,hybrid", help="comma list (default: %(default)s)")
    ap.add_argument("--conversations", default="", help="comma list of sample_ids (default: all)")
    ap.add_argument("--limit-questions", type=int, default=0, help="at most N questions per conversation")
    ap.add_argument("--embedder", choices=("onnx", "hash"), default=None, help="sets MEM_EMBEDDER")
    ap.add_argument("--keep", metavar="DIR", help="build the store files in DIR and keep them")
    ap.add_argument("--reuse", metavar="DIR", help="reuse store files in DIR when still valid (implies --keep DIR)")
    ap.add_argument("--json", metavar="OUT", help="write all results as JSON")
    ap.add_argument("--per-question", action="store_true", help="include per-question rankings in --json")
    ap.add_argument("--loo", action="store_true",
                    help="leave-one-conversation-out selection among the strategies (demo of the tuning hook)")
    args = ap.parse_args(argv)

    path = Path(args.path)
    if not path.exists():
        print(f"error: LoCoMo file not found: {path}\n"
              "  (it lives in ../shared/data/locomo/ next to the repo; pass its path as the first argument)",
              file=sys.stderr)
        return 2
    if args.embedder:
        os.environ["MEM_EMBEDDER"] = args.embedder
    strategies = [s.strip() for s in args.strategies.split(",") if s.strip()]
    for s in strategies:
        if s not in ("keyword", "vector", "hybrid"):
            ap.error(f"unknown strategy {s!r}")

    convs, norm = load_locomo(path)
    if args.conversations:
        wanted = [s.strip() for s in args.conversations.split(",") if s.strip()]
        unknown = set(wanted) - {c.sample_id for c in convs}
        if unknown:
            ap.error(f"unknown conversation(s): {', '.join(sorted(unknown))}")
        convs = [c for c in convs if c.sample_id in wanted]
    log(norm.summary())
    for ex in norm.examples:
        log(f"  {ex}")

    questions = []
    for c in convs:
        qs = c.questions[: args.limit_questions] if args.limit_questions else c.questions
        questions.extend(qs)

    from embedder import get_embedder

    embedder = get_embedder()
    keep_dir = args.reuse or args.keep
    tmp = None
    if keep_dir:
        directory = Path(keep_dir)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="locomo-")
        directory = Path(tmp.name)
    log(f"stores in {directory} ({'reuse' if args.reuse else 'fresh'}), embedder {embedder.model_id}")
    t0 = time.perf_counter()
    stores = build_stores(convs, directory, embedder, reuse=bool(args.reuse))
    build_s = time.perf_counter() - t0
    n_turns = sum(len(c.turns) for c in convs)
    log(f"{len(stores)} stores, {n_turns} turns ready in {build_s:.1f} s")

    # Load the model once before timing, so the first query does not carry it.
    if any(s != "keyword" for s in strategies):
        embedder.embed(["warm up"])

    results: dict[str, dict] = {}
    for s in strategies:
        t0 = time.perf_counter()
        results[s] = evaluate(stores, questions, engine_recall(s), per_question=args.per_question)
        log(f"{s}: {len(questions)} questions in {time.perf_counter() - t0:.1f} s")

    n_scored = results[strategies[0]]["overall"]["n"]
    print(f"# LoCoMo turn retrieval — {len(convs)} conversations, {n_turns} turns, "
          f"{n_scored} scored questions (categories 1-4), embedder `{embedder.model_id}`\n")
    print(f"Evidence: {norm.summary()}\n")
    for s in strategies:
        lat = results[s]["latency_ms"]
        print(f"## {s}  (per-query latency p50 {lat['p50']:.1f} ms, p95 {lat['p95']:.1f} ms)\n")
        print(strategy_table(results[s]))
        print()
    print("## comparison (overall, categories 1-4)\n")
    rows = [[REFERENCE["name"], REFERENCE["n"], REFERENCE["recall@5"], REFERENCE["recall@10"], "—", REFERENCE["mrr"],
             "—", "—"]]
    for s in strategies:
        o, lat = results[s]["overall"], results[s]["latency_ms"]
        rows.append([s, o["n"], o["recall@5"], o["recall@10"], o["all@10"], o["mrr"], lat["p50"], lat["p95"]])
    print(md_table(["strategy", "n", "recall@5", "recall@10", "all-evidence@10", "MRR", "p50 ms", "p95 ms"], rows))
    print()

    loo = None
    if args.loo and len(strategies) > 1 and len(convs) > 1:
        loo = leave_one_out(stores, questions, {s: engine_recall(s) for s in strategies})
        print("## leave-one-conversation-out selection (recall@10)\n")
        print(md_table(["held out", "chosen", "train", "held-out score", "n"],
                       [[f["held_out"], f["chosen"], f["train"], f["test"], f["n"]] for f in loo["folds"]]))
        print(f"\nLOO estimate: {loo['loo_estimate']:.3f}\n")

    if args.json:
        out = {
            "data": str(path), "conversations": [c.sample_id for c in convs], "turns": n_turns,
            "embedder": embedder.model_id, "build_seconds": round(build_s, 1),
            "evidence": {"entries": norm.entries, "kept_as_is": norm.kept_as_is, "normalised": norm.normalised,
                         "dropped": norm.dropped, "questions_without_evidence": norm.questions_without_evidence,
                         "examples": norm.examples},
            "reference": REFERENCE, "strategies": results, "loo": loo,
        }
        Path(args.json).write_text(json.dumps(out, indent=2, default=str), encoding="utf-8")
        log(f"wrote {args.json}")
    for st in stores.values():
        st.close()
    if tmp is not None:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
