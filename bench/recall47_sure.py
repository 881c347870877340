"""Round 47: how sure is a first hit? Signals of a recall's first result against whether it is right, on the
agent-note sets (AUC: the chance a right first hit scores above a wrong one).

For every question of the sets (held-outs 29, 29/after, 32, 34, 36-39, the lead's agent30 and agent31 — all read,
dev data now — or ``--sets``), the question is recalled (k=10, no touch, ``explain``) and the first hit's signals
are read: its fused score, the gap to the second, its cosine to the question and the best cosine of the rest, the
share of the question's words it says (confidence.coverage), its ``weak`` flag and ``sure`` (if the tree has it).
Printed: each signal's AUC per set and pooled, and the share right among first hits flagged / not flagged.

    .venv/bin/python bench/recall47_sure.py --reuse /tmp/r47dev
    .venv/bin/python bench/recall47_sure.py --reuse /tmp/r47dev --sets recall_heldout40
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.recall47_head import SETS  # noqa: E402
from bench.recall_notes import build, load_questions, users_of  # noqa: E402


def auc(pos: list[float], neg: list[float]) -> float:
    """P(a positive scores above a negative), ties counted half; 0.5 when either side is empty."""
    if not pos or not neg:
        return 0.5
    won = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return won / (len(pos) * len(neg))


def signals(store: Any, question: str) -> dict[str, float] | None:
    """The first hit's signals (None without results)."""
    from memengine.recall.confidence import coverage
    from memengine.text import query_terms

    res = store.recall(question, k=10, touch=False, explain=True)
    hits = res.results
    if not hits:
        return None
    first = hits[0]
    ex = [m.explain or {} for m in hits]
    cos = [float(e.get("cosine", 0.0) or 0.0) for e in ex]
    out = {"score": float(first.score), "gap": float(first.score - (hits[1].score if len(hits) > 1 else 0.0)),
           "cosine": cos[0], "cos_gap": cos[0] - max(cos[1:5], default=0.0),
           "coverage": coverage(query_terms(question), first.content),
           "not weak": float(not first.weak)}
    if hasattr(first, "sure"):
        out["sure"] = float(bool(first.sure))
    return out


def main(argv: list[str] | None = None) -> int:
    """Every question's first-hit signals; the AUCs."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", metavar="DIR", required=True, help="keep / reuse the stores here")
    ap.add_argument("--sets", nargs="*", default=list(SETS), help="the sets (folders under bench/data)")
    args = ap.parse_args(argv)
    rows: list[tuple[str, bool, dict[str, float]]] = []
    for s in args.sets:
        data = REPO / "bench" / "data" / s
        d = Path(args.reuse) / s.replace("/", "_")
        d.mkdir(parents=True, exist_ok=True)
        questions = load_questions(data)
        for user in users_of(data):
            store, ids, _ = build(user, d, True, data)
            for q in (q for q in questions if q["user"] == user):
                sig = signals(store, q["question"])
                if sig is None:
                    continue
                top = store.recall(q["question"], k=1, touch=False).results
                right = bool(top) and ids.get(top[0].id) in set(q["evidence"])
                rows.append((s, right, sig))
            store.close()
    names = list(rows[0][2]) if rows else []
    print("| set | n | top-1 | " + " | ".join(names) + " |")
    print("|---|---|---|" + "---|" * len(names))
    for s in [*args.sets, "pooled"]:
        sub = [r for r in rows if s == "pooled" or r[0] == s]
        if not sub:
            continue
        cells = []
        for name in names:
            pos = [r[2][name] for r in sub if r[1]]
            neg = [r[2][name] for r in sub if not r[1]]
            cells.append(f"{auc(pos, neg):.3f}")
        print(f"| {s} | {len(sub)} | {sum(r[1] for r in sub) / len(sub):.3f} | " + " | ".join(cells) + " |")
    for flag in ("not weak", "sure"):
        if flag not in names:
            continue
        on = [r for r in rows if r[2][flag]]
        off = [r for r in rows if not r[2][flag]]
        print(f"\n{flag}: {len(on)} first hits, right {sum(r[1] for r in on)}; "
              f"not {flag}: {len(off)}, right {sum(r[1] for r in off)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
