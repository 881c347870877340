"""Second-hop expansion for multi-hop questions, without an LLM: tried on both dev sets, not adopted.

The engine's hybrid recall gives the first ranking (computed once per question); each
variant of ``second_hop`` re-fuses ranks 6-10 with the hits of a keyword query made of
the rare words of the first hits. Ranks 1-5 never move, so the selection objective is the
mean of the two sets' recall@10; reported next to it: multi-hop all-evidence@10 and the
leave-one-out estimate (each fold's variant chosen on all other folds).

    python bench/multihop.py --reuse /tmp/loo
"""

from __future__ import annotations

import argparse
import itertools
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bench.loo as loo  # noqa: E402
from bench.common import log, md_table, score_ranking  # noqa: E402

_WORD = re.compile(r"\w[\w'’-]*", re.UNICODE)
SEEDS = 3  # first hits the bridge words are taken from
KEEP = 5  # ranks that never move
RARE_SHARE = 0.01  # a bridge word is in at most this share of the store's memories
MAX_TERMS = 8  # bridge words per question, rarest first
HOP_POOL = 20  # keyword hits of the bridge query considered
RRF_K = 10  # reciprocal-rank fusion constant (small: the lists are short)
W_HOP = 1.0  # weight of the hop list against the first ranking in the fusion


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text) if len(w) >= 3]


def bridge_terms(store: Any, query: str, seeds: Sequence[Any], rare_share: float = RARE_SHARE,
                 max_terms: int = MAX_TERMS) -> list[str]:
    """Words of the seed memories that are rare in the store and not in the query, rarest first."""
    asked = set(_words(query))
    cands = list(dict.fromkeys(w for m in seeds for w in _words(m.content) if w not in asked))
    if not cands:
        return []
    shares = store.doc_shares(cands)
    total = max(1, store.conn.execute("SELECT count(*) FROM memories").fetchone()[0])
    # in at least two memories (one of them the seed itself, else nothing to bridge to)
    kept = [w for w in cands if 1.5 / total <= shares.get(w, 1.0) <= rare_share]
    kept.sort(key=lambda w: (shares[w], cands.index(w)))
    return kept[:max_terms]


def second_hop(store: Any, query: str, results: Sequence[Any], k: int, *, seeds: int = SEEDS, keep: int = KEEP,
               rare_share: float = RARE_SHARE, max_terms: int = MAX_TERMS, w_hop: float = W_HOP) -> list[Any]:
    """``results`` (best first) with ranks after ``keep`` re-fused with the bridge query's hits.

    Memories the hop finds that the first ranking did not hold are fetched by the store's
    keyword recall, so they carry its scores; the returned list has at most ``k`` items.
    """
    first = list(results)
    if len(first) <= keep or w_hop <= 0:
        return first[:k]
    turns = [m for m in first[:seeds]]
    terms = bridge_terms(store, query, turns, rare_share, max_terms)
    if not terms:
        return first[:k]
    hop = store.recall(" ".join(terms), k=HOP_POOL, strategy="keyword", touch=False).results
    fixed = first[:keep]
    seen = {m.id for m in fixed}
    score: dict[int, float] = {}
    by_id: dict[int, Any] = {}
    for rank, m in enumerate(first[keep:]):
        if m.id not in seen:
            score[m.id] = score.get(m.id, 0.0) + 1.0 / (RRF_K + rank + 1)
            by_id[m.id] = m
    for rank, m in enumerate(hop):
        if m.id not in seen:
            score[m.id] = score.get(m.id, 0.0) + w_hop / (RRF_K + rank + 1)
            by_id.setdefault(m.id, m)
    rest = sorted(score, key=lambda i: (-score[i], i))
    return fixed + [by_id[i] for i in rest[: max(0, k - keep)]]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", metavar="DIR", required=True, help="stores live here (as for bench/loo.py)")
    args = ap.parse_args(argv)
    items = loo.load_items(Path(loo.DEFAULT_LOCOMO), Path(loo.DEFAULT_DATA), Path(loo.DEFAULT_QUESTIONS),
                           Path(args.reuse))
    first: dict[str, Any] = {}
    t0 = time.perf_counter()
    for it in items:
        first[it.key] = it.store.recall(it.question, k=10, touch=False).results
    log(f"first rankings in {time.perf_counter() - t0:.0f} s")
    grid = {"off*": None}
    for seeds, share, w in itertools.product((2, 3, 5), (0.003, 0.01, 0.03), (0.5, 1.0, 2.0)):
        grid[f"seeds={seeds} share={share} w={w}"] = (seeds, share, w)
    variants: dict[str, dict[str, dict[str, float]]] = {}
    for lab, params in grid.items():
        sc: dict[str, dict[str, float]] = {}
        for it in items:
            res = first[it.key]
            if params is not None:
                res = second_hop(it.store, it.question, res, 10, seeds=params[0], rare_share=params[1], w_hop=params[2])
            sc[it.key] = score_ranking([m.ref or "" for m in res], it.evidence)
        variants[lab] = sc
    loo.OBJECTIVE = "recall@10"
    chosen = loo.loo_choose(items, variants)
    ho = loo.held_out(items, chosen, variants)
    best = max(variants, key=lambda lab: loo.objective(items, variants[lab]))
    rows = []
    for s in loo.SETS:
        its = loo.by_set(items, s)
        for name, sc in (("off (engine)", variants["off*"]), (f"best in-sample: {best}", variants[best]),
                         ("leave-one-out", ho)):
            m = loo.set_metrics(its, sc)
            rows.append([s, name, m["recall@5"], m["recall@10"], m["multi_all@10"], m["mrr"]])
    counts: dict[str, int] = {}
    for lab in chosen.values():
        counts[lab] = counts.get(lab, 0) + 1
    print("## Second hop: ranks 6-10 re-fused with a rare-word keyword hop\n")
    print(md_table(["set", "variant", "recall@5", "recall@10", "multi-hop all@10", "MRR"], rows))
    print("\nchosen per fold: " + ", ".join(f"{lab}×{n}" for lab, n in sorted(counts.items(), key=lambda x: -x[1])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
