"""Round 47: how sure is a first hit? ``weak`` on an agent's notes (memengine/recall/notes_sure.py) against
whether the first hit is right, on the agent-note sets (held-outs 29, 29/after, 32, 34, 36-39, the lead's agent30
and agent31 — all read, dev data now — or ``--sets``).

Every question is recalled (k=10, no touch, ``explain``) with the engine's config and with ``notes_weak=0``
(confidence.py's rule for notes, as before round 47). Printed:

* AUC (the chance a right first hit scores above a wrong one) of the first hit's fused score, its cosine, its raw
  bm25, notes_sure.sure, the old ``weak`` flag and the new one, per set and pooled;
* each flag: first hits flagged, how many of them wrong, the share of the right first hits flagged;
* nothing relevant: bench/recall_weak.py's off-topic questions asked of every note store, the share of their first
  three results flagged weak, old and new;
* ``--choose``: notes_sure's two constants by leaving each set out — on the other sets, the pair whose flag has
  the largest share of wrong first hits among those it flags while flagging at least ``MIN_RECALL`` of the wrong
  ones and at least the old flag's share of the off-topic results — scored on the set left out.

    .venv/bin/python bench/recall47_sure.py --reuse /tmp/r47dev [--choose]
    .venv/bin/python bench/recall47_sure.py --reuse /tmp/r47h40 --sets recall_heldout40
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.recall47_head import SETS  # noqa: E402
from bench.recall_notes import build, load_questions, users_of  # noqa: E402
from bench.recall_weak import OFF_TOPIC  # noqa: E402
from memengine.recall.config import RecallConfig  # noqa: E402
from memengine.recall.notes_sure import sure  # noqa: E402

WEIGHTS = (0.05, 0.1, 0.2, 0.3, 0.5)
FLOORS = tuple(x / 100 for x in range(30, 90, 2))
MIN_RECALL = 0.30  # the old flag's share of the wrong first hits it flagged (0.31)


def auc(pos: list[float], neg: list[float]) -> float:
    """P(a positive scores above a negative), ties counted half; 0.5 when either side is empty."""
    if not pos or not neg:
        return 0.5
    won = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return won / (len(pos) * len(neg))


def _signals(question: str, m: Any) -> dict[str, float]:
    """A result's cosine, raw bm25 and word share (explain's, confidence.coverage)."""
    from memengine.recall.confidence import coverage
    from memengine.text import query_terms

    ex = m.explain or {}
    return {"cosine": float(ex.get("cosine") or 0.0), "bm25": float(ex.get("keyword_bm25") or 0.0),
            "cover": coverage(query_terms(question), m.content)}


def first_hit(store: Any, question: str, evidence: set[str], ids: dict[int, str]) -> dict[str, Any] | None:
    """The first hit's signals and both flags (None without results)."""
    new = store.recall(question, k=10, touch=False, explain=True).results
    old = store.recall(question, k=10, touch=False, config=replace(RecallConfig(), notes_weak=0.0)).results
    if not new:
        return None
    sig = _signals(question, new[0])
    return {"right": ids.get(new[0].id) in evidence, "score": float(new[0].score), **sig,
            "sure": sure(sig["cosine"], sig["bm25"], sig["cover"]), "old weak": bool(old[0].weak),
            "new weak": bool(new[0].weak)}


def _flagged(rows: list[dict[str, Any]], flag: Any) -> tuple[int, int, int, int]:
    """(flagged, wrong among them, wrong in all, right in all)."""
    got = [r for r in rows if flag(r)]
    return (len(got), sum(not r["right"] for r in got), sum(not r["right"] for r in rows),
            sum(r["right"] for r in rows))


def choose(rows: dict[str, list[dict[str, Any]]], off: dict[str, list[dict[str, Any]]]) -> None:
    """notes_sure's (weight, floor) by leaving each set out."""
    def flag(w: float, t: float) -> Any:
        return lambda r: sure(r["cosine"], r["bm25"], r["cover"], w) < t

    def objective(sub: list[dict[str, Any]], offs: list[dict[str, Any]], w: float, t: float) -> float:
        n, wrong, all_wrong, _ = _flagged(sub, flag(w, t))
        kept = sum(map(flag(w, t), offs)) >= sum(r["old weak"] for r in offs)
        return wrong / n if n and kept and wrong >= MIN_RECALL * all_wrong else -1.0

    print("\nleave one set out (notes_sure's weight / floor):")
    tot = [0, 0, 0, 0, 0, 0]
    for s, test in rows.items():
        train = [r for t, rs in rows.items() if t != s for r in rs]
        offs = [r for t, rs in off.items() if t != s for r in rs]
        w, t = max(((w, t) for w in WEIGHTS for t in FLOORS), key=lambda wt: objective(train, offs, *wt))
        n, wrong, all_wrong, right = _flagged(test, flag(w, t))
        got = sum(map(flag(w, t), off[s]))
        tot = [tot[0] + n, tot[1] + wrong, tot[2] + all_wrong, tot[3] + right, tot[4] + got, tot[5] + len(off[s])]
        print(f"  {s}: chose {w} / {t}: flagged {n}, wrong {wrong} of {all_wrong}; off-topic {got}/{len(off[s])}")
    print(f"  pooled: flagged {tot[0]}, wrong among them {tot[1]} ({tot[1] / max(1, tot[0]):.2f}), "
          f"wrong first hits flagged {tot[1]}/{tot[2]}, right first hits flagged {tot[0] - tot[1]}/{tot[3]}, "
          f"off-topic results flagged {tot[4]}/{tot[5]}")


def main(argv: list[str] | None = None) -> int:
    """Every question's first hit; the AUCs, the flags, off-topic questions."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", metavar="DIR", required=True, help="keep / reuse the stores here")
    ap.add_argument("--sets", nargs="*", default=list(SETS), help="the sets (folders under bench/data)")
    ap.add_argument("--choose", action="store_true", help="notes_sure's constants by leaving each set out")
    args = ap.parse_args(argv)
    rows: dict[str, list[dict[str, Any]]] = {}
    off: dict[str, list[dict[str, Any]]] = {}
    for s in args.sets:
        data = REPO / "bench" / "data" / s
        d = Path(args.reuse) / s.replace("/", "_")
        d.mkdir(parents=True, exist_ok=True)
        questions = load_questions(data)
        rows[s], off[s] = [], []
        for user in users_of(data):
            store, ids, _ = build(user, d, True, data)
            for q in (q for q in questions if q["user"] == user):
                got = first_hit(store, q["question"], set(q["evidence"]), ids)
                if got is not None:
                    rows[s].append(got)
            for question in OFF_TOPIC:
                new = store.recall(question, k=3, touch=False, explain=True).results
                old = store.recall(question, k=3, touch=False, config=replace(RecallConfig(), notes_weak=0.0)).results
                off[s] += [{**_signals(question, a), "new weak": bool(a.weak), "old weak": bool(b.weak)}
                           for a, b in zip(new, old, strict=False)]
            store.close()
    names = ("score", "cosine", "bm25", "sure", "old weak", "new weak")
    print("AUC of each signal for \"the first hit is right\" (a flag: not weak)\n")
    print("| set | n | top-1 | " + " | ".join(names) + " |")
    print("|---|---|---|" + "---|" * len(names))
    pooled = [r for rs in rows.values() for r in rs]
    for s, sub in [*rows.items(), ("pooled", pooled)]:
        if not sub:
            continue
        cells = []
        for name in names:
            value = (lambda r, n=name: -float(r[n])) if "weak" in name else (lambda r, n=name: float(r[n]))
            cells.append(f"{auc([value(r) for r in sub if r['right']], [value(r) for r in sub if not r['right']]):.3f}")
        print(f"| {s} | {len(sub)} | {sum(r['right'] for r in sub) / len(sub):.3f} | " + " | ".join(cells) + " |")
    offs = [r for rs in off.values() for r in rs]
    for name in ("old weak", "new weak"):
        n, wrong, all_wrong, right = _flagged(pooled, lambda r, f=name: r[f])
        print(f"\n{name}: {n} first hits flagged, {wrong} of them wrong ({wrong / max(1, n):.2f}); wrong first hits "
              f"flagged {wrong}/{all_wrong}, right first hits flagged {n - wrong}/{right}; off-topic questions' "
              f"first three results flagged {sum(r[name] for r in offs)}/{len(offs)}")
    if args.choose:
        choose(rows, off)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
