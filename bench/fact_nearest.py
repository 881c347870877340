"""A learned decision over a write's own candidates (facts40, a trial not shipped): collect, fit leave-one-set-out.

Every crowded set (held-outs 1-17, the lead's facts30/31/32, crowded dev; held-out 18 only with ``--sets``) is
stored as ``bench/fact_crowded.py --heldout`` stores it, and every candidate ``supersession.plan`` is handed for
a write is kept as a pair: the older's text, the write, the cosine, the pair's place among the write's candidates,
what plan decided (retired, flagged, nothing), and whether a veto or a guard stops it. A pair is an update when
the candidate is the fact the write updates; a candidate that is an earlier write updating that same fact is left
out (retiring it is right, the labels cannot say so).

    .venv/bin/python bench/fact_nearest.py --collect /tmp/nearest.pkl      # ~2 min (plan on, as shipped)
    .venv/bin/python bench/fact_nearest.py --data /tmp/nearest.pkl          # leave-one-set-out table

Only pairs plan decided nothing about and no veto or guard stops are scored (what the engine asks): each set in
turn is held out, a logistic model fitted on the others, its threshold the least that retires no look-alike pair of
theirs plus a margin chosen by leave-one-set-out inside them; the held-out set's pairs are scored, one per write
(its best-scored). Printed per set: updates gained, look-alike pairs newly retired.
"""

from __future__ import annotations

import argparse
import math
import pickle
import re
import sys
import tempfile
from collections.abc import Sequence
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from fact_stage import DEV, SETS, load, load_dev  # noqa: E402

from bench.fact_slot import newton_logit  # noqa: E402
from memengine import fact_mood, fact_slot, fact_stated, supersession  # noqa: E402

# The trial's features (not shipped: see bench/README.md, facts40): fact_slot's, the pair's place among the
# write's candidates, and where the two differ token by token.
_NEAR = 0.05  # a candidate this close to the pair's cosine is "about as near" (a look-alike's company)
_PLACE = ("top", "gap", "crowd", "rank", "cos_x_top")
_SPANS = ("spans_replaced", "spans_two", "first_enclosed", "span_added", "span_dropped")
FEATURES: tuple[str, ...] = (*fact_slot.FEATURES, *_PLACE, *_SPANS)
_TOKEN = re.compile(r"\w+", re.UNICODE)


def spans(old: str, new: str) -> list[float]:
    """Where the two sentences differ, token by token as written (a code or a number is a token: "w1" / "w2",
    "the 12 bus" / "the 31 bus"): how many runs were replaced, whether two or more (one thing's new value is one
    run; another thing of the kind named by its label and its own value is two), whether the first replaced run
    sits between shared tokens on both sides (a label inside the frame), whether a run was added or dropped."""
    a = [t.lower() for t in _TOKEN.findall(old)]
    b = [t.lower() for t in _TOKEN.findall(new)]
    ops = [op for op in SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes()]
    replaced = [i for i, op in enumerate(ops) if op[0] == "replace"]
    enclosed = bool(replaced) and 0 < replaced[0] < len(ops) - 1 and ops[replaced[0] - 1][0] == "equal" \
        and ops[replaced[0] + 1][0] == "equal"
    return [float(min(len(replaced), 3)), float(len(replaced) >= 2), float(enclosed),
            float(any(op[0] == "insert" for op in ops)), float(any(op[0] == "delete" for op in ops))]


def blocked(old: str, new: str, cos: float) -> str | None:
    """Why the pair is never read so, whatever it scores: the pair-alone decision's vetoes and guards (a question,
    a plan, "also", "still", a one-off, a narrower scope, another thing of the kind, another owner, nothing new)."""
    why = fact_slot.veto(new) or fact_slot._one_off(old, new)
    if why:
        return why
    if fact_mood.unasserted(old) in ("hypothesis", "question"):
        return "older unasserted"
    return fact_slot.guarded(fact_slot.Pair(fact_slot._vector(old, new, cos, 0.0), None))


def place(cos: float, others: Sequence[float | None]) -> list[float]:
    """The pair's place among the write's candidates (``others``: their cosines, the pair's own left out)."""
    rest = [c for c in others if c is not None]
    best = max(rest, default=-1.0)
    rank = 1 + sum(c > cos for c in rest)
    top = float(cos >= best)
    return [top, cos - best if rest else 0.5, float(sum(abs(c - cos) <= _NEAR for c in rest)), float(min(rank, 5)),
            cos * top]


def features(old: str, new: str, cos: float, others: Sequence[float | None], cos_slot: float) -> tuple[float, ...]:
    """The features of the pair (:data:`FEATURES` order): fact_slot's, its place among the candidates, the spans."""
    return (*fact_slot._vector(old, new, cos, cos_slot), *place(cos, others), *spans(old, new))


def score(x: Sequence[float], w: dict[str, Any]) -> float:
    """The model's probability that the pair is the write's update (standardised features, logistic)."""
    z = float(w["bias"])
    for v, mu, sd, coef in zip(x, w["mean"], w["std"], w["coef"]):
        z += coef * (v - mu) / sd
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))




def collect(sets: list[tuple[str, list[tuple[str, str]], list[tuple[str, str | None]]]], emb: Any
            ) -> list[dict[str, Any]]:
    """Every (candidate, write) pair plan is handed, with its features, label and plan's decision."""
    from memory_core import MemoryStore

    rows: list[dict[str, Any]] = []
    seen: list[dict[str, Any]] = []
    real = supersession.plan

    def spy(new_id: int, new_text: str, new_time: str, candidates: list[tuple[Any, float | None]],
            *a: Any, **k: Any) -> list[supersession.Decision]:
        out = real(new_id, new_text, new_time, candidates, *a, **k)
        seen.append({"new_id": new_id, "new": new_text, "cands": [(int(r[0]), str(r[1]), s) for r, s in candidates],
                     "cos": dict(k.get("cosines") or {}), "out": out})
        return out

    supersession.plan = spy  # type: ignore[assignment]
    try:
        for name, olders, writes in sets:
            with tempfile.TemporaryDirectory(prefix="fact-nearest-") as d:
                s = MemoryStore(Path(d) / "one.db", embedder=emb)
                try:
                    ids = {k: s.store(t, "semantic").id for k, t in olders}
                    chain: dict[int, str] = {}  # a write's store id -> the fact id it updates
                    n0 = len(rows)
                    for w, up in writes:
                        seen.clear()
                        res = s.store(w, "semantic")
                        if up:
                            chain[res.id] = up
                        if not seen:
                            continue
                        call = seen[-1]
                        own = ids.get(up) if up else None
                        cands = [(i, t, sim, sim if sim is not None else call["cos"].get(i))
                                 for i, t, sim in call["cands"] if i != res.id]
                        for i, t, sim, cos in cands:
                            if up and chain.get(i) == up:
                                continue  # an earlier version of the same fact: right to retire, unlabelled
                            how = next(("sure" if not dd.maybe else "maybe" for dd in call["out"]
                                        if {dd.winner, dd.loser} == {res.id, i}), None)
                            old = fact_stated.stated(t)
                            rows.append({"set": name, "write": w, "old": old, "label": i == own, "sim": sim,
                                         "cos": cos, "plan": how,
                                         "others": [c for j, _, _, c in cands if j != i],
                                         "wsure": any(not dd.maybe and dd.winner == res.id for dd in call["out"]),
                                         "blocked": (supersession.vetoed(old, w) or blocked(old, w, cos))
                                         if cos is not None else "no cosine"})
                finally:
                    s.close()
            print(f"  {name}: {len(rows) - n0} pairs", flush=True)
    finally:
        supersession.plan = real  # type: ignore[assignment]
    todo = [r for r in rows if r["blocked"] is None]
    texts = sorted({fact_slot.masked(t) for r in todo for t in (r["old"], r["write"])})
    vec = dict(zip(texts, emb.embed(texts)))
    for r in todo:
        cs = float(vec[fact_slot.masked(r["old"])] @ vec[fact_slot.masked(r["write"])])
        r["x"] = features(r["old"], r["write"], r["cos"], r["others"], cs)
    return rows


def fit(rows: list[dict[str, Any]], c: float) -> dict[str, Any]:
    """L2 logistic regression by Newton's method on standardised features; balanced classes."""
    x = np.array([r["x"] for r in rows], dtype=np.float64)
    y = np.array([float(r["label"]) for r in rows])
    w, mean, std = newton_logit(x, y, c)
    model: dict[str, Any] = {"bias": float(w[0]), "coef": [float(v) for v in w[1:]], "mean": [float(v) for v in mean],
                             "std": [float(v) for v in std], "features": list(FEATURES)}
    neg = [score(r["x"], model) for r in rows if not r["label"]]
    model["threshold"] = max(neg, default=0.5)
    return model


def asked(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The pairs the decision is asked about: plan decided nothing, nothing stops them, the write retired nothing."""
    return [r for r in rows if r["plan"] is None and r["blocked"] is None and not r["wsure"]]


def outcome(rows: list[dict[str, Any]], model: dict[str, Any], t: float) -> tuple[int, int]:
    """(updates newly retired, look-alike pairs newly retired) at threshold ``t``, one pair per write."""
    best: dict[tuple[str, str], dict[str, Any]] = {}
    for r in rows:
        p = score(r["x"], model)
        key = (r["set"], r["write"])
        if p >= t and (key not in best or p > best[key]["p"]):
            best[key] = {**r, "p": p}
    return sum(r["label"] for r in best.values()), sum(not r["label"] for r in best.values())


def margin_for(train: dict[str, list[dict[str, Any]]], c: float, margins: list[float]) -> float:
    """The margin over the fitted threshold, chosen leaving each training set out in turn: the least whose
    held-out look-alike retirements are nil, else the one with the most updates less look-alikes x 3."""
    score = {m: [0, 0] for m in margins}
    for name in train:
        fit_rows = [r for k, v in train.items() if k != name for r in v]
        if not fit_rows or not any(r["label"] for r in fit_rows):
            continue
        model = fit(fit_rows, c)
        for m in margins:
            g, f = outcome(train[name], model, model["threshold"] + m)
            score[m][0] += g
            score[m][1] += f
    return max(margins, key=lambda m: (score[m][0] - 3 * score[m][1], -m))


def loso(rows: list[dict[str, Any]], c: float, inner: bool) -> None:
    """Each set held out: fitted on the others (the margin chosen inside them), scored on it; and in-sample."""
    by: dict[str, list[dict[str, Any]]] = {}
    for r in asked(rows):
        by.setdefault(r["set"], []).append(r)
    margins = [0.0, -0.02, -0.05, -0.1, 0.02]
    print("\n| held out | pairs asked (updates) | LOSO gained | LOSO look-alikes retired | margin | in-sample gained "
          "| in-sample look-alikes |\n|---|---|---|---|---|---|---|")
    whole = fit([r for v in by.values() for r in v], c)
    tot = [0, 0, 0, 0]
    for name, held in by.items():
        train = {k: v for k, v in by.items() if k != name}
        model = fit([r for v in train.values() for r in v], c)
        m = margin_for(train, c, margins) if inner else 0.0
        g, f = outcome(held, model, model["threshold"] + m)
        gi, fi = outcome(held, whole, whole["threshold"])
        tot = [tot[0] + g, tot[1] + f, tot[2] + gi, tot[3] + fi]
        print(f"| {name} | {len(held)} ({sum(r['label'] for r in held)}) | {g} | {f} | {m:+.2f} | {gi} | {fi} |",
              flush=True)
    print(f"| all | {sum(len(v) for v in by.values())} | **{tot[0]}** | **{tot[1]}** | | {tot[2]} | {tot[3]} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--collect", help="store the sets, write every pair here (pickle)")
    ap.add_argument("--data", help="the pairs --collect wrote")
    ap.add_argument("--sets", nargs="*", help="held-out files to collect (default: held-outs 1-17, facts30-32, dev)")
    ap.add_argument("--c", type=float, default=0.1)
    ap.add_argument("--no-inner", action="store_true", help="margin 0 (no inner leave-one-set-out)")
    a = ap.parse_args()
    if a.collect:
        from embedder import OnnxEmbedder

        emb = OnnxEmbedder(cache_dir=Path.home() / ".cache" / "mem")
        sets = [(Path(p).stem, *load(Path(p))) for p in a.sets] if a.sets else \
            [(p.stem, *load(p)) for p in SETS] + [(DEV, *load_dev())]
        rows = collect(sets, emb)
        Path(a.collect).write_bytes(pickle.dumps(rows))
        print(f"{len(rows)} pairs, {sum(r['label'] for r in rows)} updates; asked {len(asked(rows))} "
              f"({sum(r['label'] for r in asked(rows))} updates)")
        return
    rows = pickle.loads(Path(a.data).read_bytes())
    loso(rows, a.c, not a.no_inner)


if __name__ == "__main__":
    main()
