"""Calibrate and measure recall's ``weak`` flag (memengine/recall/confidence.py) on LoCoMo dev.

Hits: evidence turns that hybrid recall returns in the top 10 for their own question.
Nothing-relevant results: the top 3 of each question asked of *another* conversation's store
(the next one), and the top 3 of off-topic queries (below) on every store. A result is weak
when ``cosine < T`` and ``coverage < C``; (T, C) is chosen on four conversations (the rule
that flags the most nothing-relevant results while flagging at most MAX_HIT_WEAK of the hits)
and scored on the fifth. Prints the folds, the pooled held-out precision / recall of weak as a
"nothing relevant" signal, and the in-sample figures of the shipped constants.

    .venv/bin/python bench/recall_weak.py [--locomo PATH] [--stores DIR]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import DEFAULT_LOCOMO, SCORED_CATEGORIES, build_stores, load_locomo, log  # noqa: E402
from memengine.recall import confidence  # noqa: E402
from memengine.text import query_terms  # noqa: E402

MAX_HIT_WEAK = 0.05  # at most this share of real hits may be flagged weak (on the training folds)
COSINES = [round(0.05 + 0.025 * i, 3) for i in range(19)]  # 0.05 .. 0.5
COVERAGES = [0.34, 0.5, 0.67, 1.01]  # 1.01: words never vouch (cosine alone)
# Things an agent may ask its memory that no LoCoMo chat talks about.
OFF_TOPIC = [
    "How do I restart the nginx reverse proxy on the staging server?",
    "error 0x8007045D when copying files", "What is the API rate limit of the billing service?",
    "Which Kubernetes namespace runs the payment workers?", "Oscar meetings",
    "What is the VAT number of the company?", "SSH key for the backup host",
    "Who owns the Terraform state bucket?", "What did the quarterly tax filing say about depreciation?",
    "Which port does the Postgres replica listen on?", "database migration rollback procedure",
    "What is the Wi-Fi password at the office?", "When does the TLS certificate of api.example.com expire?",
    "What compiler flags does the firmware build use?", "Who approved the invoice from the cloud vendor?",
    "Where is the on-call rota for the data team?", "What is the recommended dose of ibuprofen for a child?",
    "How many vCPUs does the CI runner have?", "What was decided about the GDPR data retention policy?",
    "Which version of Python does the ETL job need?",
]


def features(store, query: str, k: int) -> list[tuple[str | None, float | None, float]]:
    """(ref, cosine, coverage) of each result, as recall computes them."""
    terms = query_terms(query)
    res = store.recall(query, k=k, touch=False, explain=True)
    return [(m.ref, (m.explain or {}).get("cosine"), confidence.coverage(terms, m.content)) for m in res.results]


def rates(hits: list[tuple[float | None, float]], nothing: list[tuple[float | None, float]], t: float,
          c: float) -> dict[str, float]:
    hw = sum(confidence.is_weak(cos, cov, t, c) for cos, cov in hits)
    nw = sum(confidence.is_weak(cos, cov, t, c) for cos, cov in nothing)
    flagged = hw + nw
    return {"hit_weak": hw / max(1, len(hits)), "recall": nw / max(1, len(nothing)),
            "precision": nw / flagged if flagged else 1.0, "n_hits": len(hits), "n_nothing": len(nothing),
            "tp": nw, "fp": hw}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--locomo", type=Path, default=DEFAULT_LOCOMO)
    ap.add_argument("--stores", type=Path, default=Path("/tmp/mem-bench-locomo"))
    args = ap.parse_args()
    if not args.locomo.exists():
        sys.exit(f"LoCoMo file not found: {args.locomo}")
    convs, _ = load_locomo(args.locomo)
    stores = build_stores(convs, args.stores, reuse=True)
    sids = [c.sample_id for c in convs]
    hits: dict[str, list[tuple[float | None, float]]] = {s: [] for s in sids}
    nothing: dict[str, list[tuple[float | None, float]]] = {s: [] for s in sids}
    for i, conv in enumerate(convs):
        other = stores[sids[(i + 1) % len(sids)]]
        qs = [q for q in conv.questions if q.category in SCORED_CATEGORIES and q.evidence]
        for q in qs:
            ev = {f"{conv.sample_id}/{e}" for e in q.evidence}
            hits[conv.sample_id] += [(cos, cov) for ref, cos, cov in features(stores[conv.sample_id], q.question, 10)
                                     if ref in ev]
            nothing[conv.sample_id] += [(cos, cov) for _, cos, cov in features(other, q.question, 3)]
        for query in OFF_TOPIC:
            nothing[conv.sample_id] += [(cos, cov) for _, cos, cov in features(stores[conv.sample_id], query, 3)]
        log(f"{conv.sample_id}: {len(hits[conv.sample_id])} hits, {len(nothing[conv.sample_id])} nothing-relevant")

    def pooled(keep: list[str]) -> tuple[list, list]:
        return [x for s in keep for x in hits[s]], [x for s in keep for x in nothing[s]]

    def choose(keep: list[str]) -> tuple[float, float]:
        h, n = pooled(keep)
        ok = [(rates(h, n, t, c)["recall"], -rates(h, n, t, c)["hit_weak"], t, c) for t in COSINES for c in COVERAGES
              if rates(h, n, t, c)["hit_weak"] <= MAX_HIT_WEAK]
        best = max(ok)
        return best[2], best[3]

    print("| held out | chosen cosine < | coverage < | hits flagged weak | weak recall | weak precision |")
    print("|---|---|---|---|---|---|")
    tp = fp = n_nothing = n_hits = 0
    for held in sids:
        t, c = choose([s for s in sids if s != held])
        r = rates(hits[held], nothing[held], t, c)
        tp, fp, n_nothing, n_hits = tp + r["tp"], fp + r["fp"], n_nothing + r["n_nothing"], n_hits + r["n_hits"]
        print(f"| {held} | {t} | {c} | {r['hit_weak']:.3f} | {r['recall']:.3f} | {r['precision']:.3f} |")
    print(f"\nheld-out pooled: weak recall {tp / n_nothing:.3f} ({tp}/{n_nothing} nothing-relevant results flagged), "
          f"precision {tp / max(1, tp + fp):.3f}, hits flagged weak {fp / n_hits:.3f} ({fp}/{n_hits})")
    t, c = choose(sids)
    h, n = pooled(sids)
    shipped = rates(h, n, confidence.WEAK_COSINE, confidence.WEAK_COVERAGE)
    print(f"all five conversations choose cosine < {t}, coverage < {c}; "
          f"shipped ({confidence.WEAK_COSINE}, {confidence.WEAK_COVERAGE}): hits weak {shipped['hit_weak']:.3f}, "
          f"weak recall {shipped['recall']:.3f}, precision {shipped['precision']:.3f}")
    off = [x for s in sids for x in nothing[s][-3 * len(OFF_TOPIC):]]
    print(f"off-topic queries alone (shipped): weak recall "
          f"{rates([], off, confidence.WEAK_COSINE, confidence.WEAK_COVERAGE)['recall']:.3f} of {len(off)} results")


if __name__ == "__main__":
    main()
