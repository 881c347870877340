#!/usr/bin/env python3
"""What pruning frequent words from the keyword query costs in recall quality (LoCoMo dev).

With ``memory_core.KEYWORD_BUDGET`` set, stores of ``KEYWORD_PRUNE_MIN_ROWS`` (20k) or
more send FTS5 only the rarest query words whose matches fit that many rows, because
bm25 costs ~1 us per matching row (4000 rows would be 4 % of a 100k store). The LoCoMo
stores are ~600 turns, far below that size, so this script applies the same rule at the
same *share* of each store: budget = fraction x store size, for several fractions, in
one run with the unpruned engine as the baseline. (The result is why it is off.)

    python bench/keyword_pruning.py --reuse /tmp/locomo-stores
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402

import memory_core  # noqa: E402

FRACTIONS = (None, 0.2, 0.1, 0.04, 0.02, 0.01)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("path", nargs="?", default=str(common.DEFAULT_LOCOMO))
    ap.add_argument("--reuse", metavar="DIR", required=True, help="store files (built on first use)")
    args = ap.parse_args(argv)
    convs, _ = common.load_locomo(Path(args.path))
    stores = common.build_stores(convs, Path(args.reuse), reuse=True)
    questions = [q for c in convs for q in c.questions]
    sizes = {sid: s.conn.execute("SELECT count(*) FROM memories").fetchone()[0] for sid, s in stores.items()}
    hybrid = common.engine_recall("hybrid")
    rows = []
    saved = memory_core.KEYWORD_PRUNE_MIN_ROWS, memory_core.KEYWORD_BUDGET
    try:
        for frac in FRACTIONS:
            pruned = [0, 0]

            def fn(store: memory_core.MemoryStore, query: str, k: int, frac: float | None = frac,
                   pruned: list[int] = pruned) -> list[str]:
                if frac is not None:
                    memory_core.KEYWORD_PRUNE_MIN_ROWS = 0
                    memory_core.KEYWORD_BUDGET = max(1, round(frac * sizes[_sid(store, stores)]))
                    store._term_rows_cache = (0, {})
                res = store.recall(query, k=k, touch=False)
                pruned[0] += bool(res.pruned_terms)
                pruned[1] += 1
                return [m.ref or "" for m in res.results]

            o = common.evaluate(stores, questions, fn if frac is not None else hybrid)["overall"]
            label = "no pruning (engine below 20k)" if frac is None else f"budget {100 * frac:g} % of the store"
            rows.append([label, o["recall@5"], o["recall@10"], o["mrr"], o["all@10"],
                         f"{100 * pruned[0] / max(1, pruned[1]):.0f} %" if frac is not None else "0 %"])
            common.log(f"{label}: r@5 {o['recall@5']:.3f}")
    finally:
        memory_core.KEYWORD_PRUNE_MIN_ROWS, memory_core.KEYWORD_BUDGET = saved
    print(f"# keyword pruning vs quality — LoCoMo dev, {len(questions)} questions, stores of "
          f"{min(sizes.values())}-{max(sizes.values())} turns\n")
    print(common.md_table(["keyword query", "recall@5", "recall@10", "MRR", "all-evidence@10",
                           "queries with words pruned"], rows))
    for s in stores.values():
        s.close()
    return 0


def _sid(store: memory_core.MemoryStore, stores: dict[str, memory_core.MemoryStore]) -> str:
    return next(sid for sid, s in stores.items() if s is store)


if __name__ == "__main__":
    raise SystemExit(main())
