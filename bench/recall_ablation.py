#!/usr/bin/env python3
"""Ablation and leave-one-conversation-out weight selection for hybrid recall (issue 7).

For each mechanism of ``memory_core.RecallConfig`` the LoCoMo dev file is scored with
the mechanism switched off, in the same run as the full configuration and keyword-only.
Then a small grid of weights is evaluated per conversation, and for each held-out
conversation the grid point that is best on the other four is scored on it: the mean
of those held-out scores is the honest estimate of the tuned default.

    python bench/recall_ablation.py --reuse /tmp/locomo-stores
"""

from __future__ import annotations

import argparse
import itertools
import sys
from dataclasses import replace
from pathlib import Path

# the repository first: bench/keyword_index.py must not shadow the engine's keyword_index
# (this script's own directory is already on the path, after it)
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import common  # noqa: E402

from memory_core import FTS_WEIGHTS, RecallConfig  # noqa: E402

SCORED = (1, 2, 3, 4)


class QueryCache:
    """Embedder wrapper that remembers query vectors across variants."""

    def __init__(self, inner) -> None:
        self.inner, self.model_id, self.dims, self.cache = inner, inner.model_id, inner.dims, {}

    def embed(self, texts: list[str], batch_size: int = 32):
        import numpy as np

        missing = [t for t in texts if t not in self.cache]
        if missing:
            for t, v in zip(missing, self.inner.embed(missing)):
                self.cache[t] = v
        return np.stack([self.cache[t] for t in texts])


def fn_for(cfg: RecallConfig, strategy: str = "hybrid") -> common.RecallFn:
    """A recall function over the engine with ``cfg``."""

    def fn(store, query: str, k: int) -> list[str]:
        res = store.recall(query, k=k, strategy=strategy, touch=False, config=cfg)
        return [m.ref or "" for m in res.results]

    return fn


def dev_parser(doc: str | None) -> argparse.ArgumentParser:
    """The arguments every LoCoMo dev script takes: the file, and where its stores live."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("path", nargs="?", default=str(common.DEFAULT_LOCOMO))
    ap.add_argument("--reuse", type=Path, default=Path("/tmp/locomo-stores"), help="store directory (built if stale)")
    return ap


def dev_conversations(args: argparse.Namespace) -> list:
    """The conversations of ``args.path``; exits with one line if the file is missing."""
    path = Path(args.path)
    if not path.exists():
        sys.exit(f"{path}: not found (the LoCoMo dev file lives in ../shared/data/locomo)")
    return common.load_locomo(path)[0]


def dev_stores(args: argparse.Namespace) -> tuple[dict, list]:
    """``({sample_id: store}, every question)``; the stores share one :class:`QueryCache`,
    so every variant embeds each question once (latency columns then measure retrieval
    and fusion only, not the model)."""
    convs = dev_conversations(args)
    stores = common.build_stores(convs, args.reuse, reuse=True)
    shared = QueryCache(next(iter(stores.values())).embedder)
    for s in stores.values():
        s._embedder = shared
    return stores, [q for c in convs for q in c.questions]


def main() -> None:
    ap = dev_parser(__doc__)
    ap.add_argument("--no-loo", action="store_true", help="skip the weight grid")
    args = ap.parse_args()
    stores, questions = dev_stores(args)
    full = RecallConfig()
    no_ctx_kw = tuple(w if i < 3 else 0.0 for i, w in enumerate(FTS_WEIGHTS))
    variants = {
        "keyword only": (full, "keyword"),
        "hybrid, all mechanisms": (full, "hybrid"),
        "- keyword context columns": (replace(full, fts_weights=no_ctx_kw), "hybrid"),
        "- context vectors": (replace(full, context_vectors=False), "hybrid"),
        "context vectors by max-sim with own": (replace(full, context_mix=None), "hybrid"),
        "- all conversation context": (replace(full, fts_weights=no_ctx_kw, context_vectors=False), "hybrid"),
        "- person prior and name dropping": (replace(full, w_person=0.0, drop_person_terms=False), "hybrid"),
        "- time prior": (replace(full, w_time=0.0), "hybrid"),
        "- length prior": (replace(full, w_length=0.0), "hybrid"),
        "- reply prior": (replace(full, w_reply=0.0), "hybrid"),
        "- session coverage": (replace(full, session_coverage=1.0), "hybrid"),
        "min-max instead of z-scores": (replace(full, normalise="minmax"), "hybrid"),
        "none (plain normalised fusion)": (replace(full, fts_weights=no_ctx_kw, context_vectors=False, w_person=0.0,
                                                   drop_person_terms=False, w_time=0.0, w_length=0.0, w_reply=0.0,
                                                   session_coverage=1.0),
                                           "hybrid"),
    }
    rows = []
    for name, (cfg, strategy) in variants.items():
        res = common.evaluate(stores, questions, fn_for(cfg, strategy))
        cats = res["by_category"]
        rows.append([name, res["overall"]["recall@5"], res["overall"]["recall@10"], res["overall"]["all@10"],
                     *[cats[c]["recall@5"] for c in SCORED], cats[1]["all@10"], res["latency_ms"]["p50"]])
        common.log(f"  {name}: r@5 {res['overall']['recall@5']:.3f}")
    print("## ablation (LoCoMo dev, 760 questions, categories 1-4)\n")
    print(common.md_table(["variant", "r@5", "r@10", "all@10", "multi-hop r@5", "temporal r@5", "open-domain r@5",
                           "single-hop r@5", "multi-hop all@10", "p50 ms"], rows))
    if args.no_loo:
        return
    grid = {}
    for wk, wp, ctx in itertools.product((0.4, 0.5, 0.6), (0.1, 0.2), (0.25, 0.4)):
        weights = (FTS_WEIGHTS[0], FTS_WEIGHTS[1], FTS_WEIGHTS[2], ctx, ctx / 2)
        grid[f"wk={wk} wp={wp} ctx={ctx}"] = fn_for(RecallConfig(w_keyword=wk, w_vector=1 - wk, w_person=wp,
                                                                fts_weights=weights))
    loo = common.leave_one_out(stores, questions, grid, metric="recall@5")
    print("\n## leave-one-conversation-out weight selection (metric recall@5, 12 grid points)\n")
    print(common.md_table(["held out", "chosen", "train r@5", "held-out r@5", "n"],
                          [[f["held_out"], f["chosen"], f["train"], f["test"], f["n"]] for f in loo["folds"]]))
    print(f"\nLOO estimate of recall@5: {loo['loo_estimate']:.3f}; defaults in memory_core: "
          f"w_keyword={full.w_keyword} w_person={full.w_person} ctx={FTS_WEIGHTS[3]}")


if __name__ == "__main__":
    main()
