"""Round 49: which signals of a first hit tell a right one from a wrong one on an agent's notes, and do they carry
to sets they were not chosen on? (``weak``: memengine/recall/notes_sure.py)

For every question of the agent-note sets (bench/recall49_crosslang.DEV, or ``--sets``) the first hit's signals are
read from one recall (k=10, no touch, ``explain``): its fused score, cosine, raw bm25, the share of the question's
words it says (``cover``), notes_sure.sure, the gap between its fused score and the second's (``gap``), the gap
between its cosine and the best cosine of the other nine (``cos_gap``), whether it is also the first by cosine
(``cos_first``) and by bm25 (``bm25_first``) among the ten. The same for the first three results of
bench/recall_weak.py's off-topic questions. Printed: each signal's AUC for "the first hit is right" per set and
pooled; ``--dump FILE`` writes the rows (for leaving sets out: ``--choose``).

``--choose``: a flag ``sure + W * gap < F`` (W = 0 is today's flag) with W and F chosen leaving each set out, by
recall47's objective (the largest share of wrong first hits among those flagged, flagging at least 30 % of the
wrong ones and at least the old flag's share of the off-topic results); scored on the set left out.

    .venv/bin/python bench/recall49_sure.py --reuse /tmp/r49dev [--choose]
    .venv/bin/python bench/recall49_sure.py --reuse /tmp/r49h --sets recall_heldout40 recall_heldout41
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.recall47_sure import MIN_RECALL, auc  # noqa: E402
from bench.recall49_crosslang import DEV  # noqa: E402
from bench.recall_notes import build, load_questions, users_of  # noqa: E402
from bench.recall_weak import OFF_TOPIC  # noqa: E402
from memengine.recall.notes_sure import sure  # noqa: E402

SIGNALS = ("score", "cosine", "bm25", "cover", "sure", "gap", "cos_gap", "cos_first", "bm25_first", "kw_weight", "weak")
GAP_WEIGHTS = (0.0, 0.25, 0.5, 1.0, 2.0, 4.0)
FLOORS = tuple(x / 100 for x in range(30, 90, 2))


def signals(question: str, results: list[Any], at: int = 0) -> dict[str, float]:
    """The signals of ``results[at]`` among ``results`` (explain's cosine and bm25, confidence.coverage)."""
    from memengine.recall.confidence import coverage
    from memengine.text import query_terms

    def cos(m: Any) -> float:
        return float((m.explain or {}).get("cosine") or 0.0)

    def bm(m: Any) -> float:
        return float((m.explain or {}).get("keyword_bm25") or 0.0)

    m = results[at]
    others = [r for i, r in enumerate(results) if i != at]
    c, b = cos(m), bm(m)
    cover = coverage(query_terms(question), m.content) if b else 0.0
    nxt = float(results[at + 1].score or 0.0) if at + 1 < len(results) else 0.0
    return {"score": float(m.score or 0.0), "cosine": c, "bm25": b, "cover": cover, "sure": sure(c, b, cover),
            "gap": float(m.score or 0.0) - nxt, "cos_gap": c - max((cos(r) for r in others), default=0.0),
            "cos_first": float(all(c >= cos(r) for r in others)),
            "bm25_first": float(b > 0 and all(b >= bm(r) for r in others)), "weak": float(not m.weak),
            "kw_weight": float(((m.explain or {}).get("weights") or {}).get("keyword") or 0.0)}


def collect(sets: list[str], reuse: Path) -> tuple[dict[str, list[dict[str, Any]]], dict[str, list[dict[str, Any]]]]:
    """(first-hit rows per set, off-topic rows per set)."""
    rows: dict[str, list[dict[str, Any]]] = {}
    off: dict[str, list[dict[str, Any]]] = {}
    for s in sets:
        data = REPO / "bench" / "data" / s
        d = reuse / s.replace("/", "_")
        d.mkdir(parents=True, exist_ok=True)
        questions = load_questions(data)
        rows[s], off[s] = [], []
        for user in users_of(data):
            mine = [q for q in questions if q["user"] == user]
            if not mine:
                continue
            store, ids, _ = build(user, d, True, data)
            for q in mine:
                res = store.recall(q["question"], k=10, touch=False, explain=True).results
                if res:
                    rows[s].append({"id": q["id"], "right": ids.get(res[0].id) in set(q["evidence"]),
                                    "crosslang": "crosslang" in q.get("kinds", []), **signals(q["question"], res)})
            for question in OFF_TOPIC:
                res = store.recall(question, k=3, touch=False, explain=True).results
                off[s] += [signals(question, res, i) for i in range(len(res))]
            store.close()
    return rows, off


def flag(w: float, f: float) -> Any:
    """The flag ``sure + w * gap < f``."""
    return lambda r: r["sure"] + w * r["gap"] < f


def objective(sub: list[dict[str, Any]], offs: list[dict[str, Any]], w: float, f: float) -> float:
    """recall47's: the share of wrong first hits among the flagged, or -1 when it flags under MIN_RECALL of the wrong
    ones or fewer off-topic results than today's weak."""
    got = [r for r in sub if flag(w, f)(r)]
    wrong = sum(not r["right"] for r in got)
    all_wrong = sum(not r["right"] for r in sub)
    kept = sum(map(flag(w, f), offs)) >= sum(r["weak"] == 0.0 for r in offs)
    return wrong / len(got) if got and kept and wrong >= MIN_RECALL * all_wrong else -1.0


def choose(rows: dict[str, list[dict[str, Any]]], off: dict[str, list[dict[str, Any]]]) -> None:
    """(W, F) by leaving each set out; the pooled result on the sets left out, against today's flag."""
    grid = [(w, f) for w in GAP_WEIGHTS for f in FLOORS]
    tot = {"new": [0, 0], "old": [0, 0]}
    for s, test in rows.items():
        train = [r for t, rs in rows.items() if t != s for r in rs]
        offs = [r for t, rs in off.items() if t != s for r in rs]
        w, f = max(grid, key=lambda g: (objective(train, offs, *g), -g[0]))
        got = [r for r in test if flag(w, f)(r)]
        old = [r for r in test if r["weak"] == 0.0]
        tot["new"][0] += len(got)
        tot["new"][1] += sum(not r["right"] for r in got)
        tot["old"][0] += len(old)
        tot["old"][1] += sum(not r["right"] for r in old)
        print(f"  {s}: chose W {w} / F {f}: flagged {len(got)}, wrong {sum(not r['right'] for r in got)} "
              f"(today's weak: {len(old)}, wrong {sum(not r['right'] for r in old)})")
    wrong = sum(not r["right"] for rs in rows.values() for r in rs)
    for k, (n, bad) in tot.items():
        print(f"  pooled {k}: flagged {n}, wrong among them {bad} ({bad / max(1, n):.2f}), wrong first hits flagged "
              f"{bad}/{wrong}")


def main(argv: list[str] | None = None) -> int:
    """AUCs per set and pooled; ``--choose``; ``--dump``."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", type=Path, required=True, help="keep / reuse the stores here")
    ap.add_argument("--sets", nargs="*", default=list(DEV), help="the sets (folders under bench/data)")
    ap.add_argument("--choose", action="store_true", help="W and F by leaving each set out")
    ap.add_argument("--dump", type=Path, help="write the rows here (JSON)")
    args = ap.parse_args(argv)
    rows, off = collect(args.sets, args.reuse)
    pooled = [r for rs in rows.values() for r in rs]
    print("AUC of each signal for \"the first hit is right\" (weak: today's flag, as not weak)\n")
    print("| set | n | top-1 | " + " | ".join(SIGNALS) + " |")
    print("|---|---|---|" + "---|" * len(SIGNALS))
    for s, sub in [*rows.items(), ("pooled", pooled), ("pooled crosslang", [r for r in pooled if r["crosslang"]])]:
        if sub:
            cells = [f"{auc([r[n] for r in sub if r['right']], [r[n] for r in sub if not r['right']]):.3f}"
                     for n in SIGNALS]
            print(f"| {s} | {len(sub)} | {sum(r['right'] for r in sub) / len(sub):.3f} | " + " | ".join(cells) + " |")
    if args.choose:
        print("\nleave one set out (flag: sure + W x gap < F):")
        choose(rows, off)
    if args.dump:
        args.dump.write_text(json.dumps({"rows": rows, "off": off}), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
