"""Does `brief` hold what later questions need? Answer coverage on LoCoMo dev conversations.

One store per conversation (one episodic memory per turn, bench/common.py), consolidated
as the nightly job would (clusters are the brief's topics). For each store, three
selections of the same token budget (counted with the model's tokenizer, each turn shown
as the same `date #id text` line):

* brief        `graph_rank.brief(store, budget)`, the selection MEMORY.md holds too
* recent       the most recent turns, newest first, until the next one does not fit
* random       turns drawn at random until the budget is full (mean of --seeds seeds)

Scored on questions of categories 1-4: a question is covered when at least one of its
evidence turns is in the selection; also the share of evidence turns selected, and the
share of questions whose answer text appears verbatim in the selection (stricter: a turn
cut at a sentence boundary may lose it). Constants of the topic choice are tuned by
leave-one-conversation-out (--loo): the best on four conversations is scored on the fifth.

    python bench/brief_coverage.py                 # defaults, brief vs baselines
    python bench/brief_coverage.py --loo           # + the grid, in-sample and LOO
"""

from __future__ import annotations

import argparse
import itertools
import random
import re
import shutil
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import DEFAULT_LOCOMO, SCORED_CATEGORIES, build_stores, load_locomo, log, md_table  # noqa: E402
from memengine import brief as selection  # noqa: E402
from memengine import consolidate, graph_rank  # noqa: E402
from memory_core import MemoryStore  # noqa: E402

GRID = {"DENSITY_FLOOR": (0.0, 1.0, 3.0), "FIRST_PERSON": (0.0, 2.0, 4.0), "COST_EXP": (0.5, 1.0),
        "PART_SIZE": (8, 12, 20)}


def _norm(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def _turns(store: MemoryStore) -> list[tuple[int, str, str, str]]:
    """(memory id, dia_id, content, event_at) in conversation order."""
    return [(int(r[0]), r[1].split("/", 1)[1], r[2], r[3]) for r in store.conn.execute(
        "SELECT id, ref, content, event_at FROM memories WHERE source = 'locomo' AND level = 0 ORDER BY position")]


def _fill(store: MemoryStore, order: list[tuple[int, str, str, str]], budget: int, stop_at_first: bool) -> set[int]:
    count, _ = graph_rank.token_counter(store)
    used, out, misses = count("# Briefing\n"), set(), 0
    for mid, _dia, content, when in order:
        n = count(f"- {selection.memory_line(mid, content, when)}\n")
        if used + n > budget:
            if stop_at_first:
                break
            misses += 1
            if misses >= 20:
                break
            continue
        used += n
        out.add(mid)
    return out


def _shown(chosen: set[int], turns: list[tuple[int, str, str, str]]) -> str:
    """The baseline's text as shown: the same trimmed lines the brief uses."""
    return "\n".join(selection.memory_line(m, c, w) for m, _d, c, w in turns if m in chosen)


def score(chosen: set[int], text: str, turns: list[tuple[int, str, str, str]], questions: list[Any]) -> dict[str, Any]:
    """Question coverage, evidence-turn coverage and answer-in-text for one selection."""
    dia = {d: m for m, d, _c, _w in turns}
    q_hit = ev_hit = ev_all = ans_hit = ans_n = 0
    low = _norm(text)
    for q in questions:
        ids = [dia[e] for e in q.evidence if e in dia]
        q_hit += any(i in chosen for i in ids)
        ev_hit += sum(i in chosen for i in ids)
        ev_all += len(ids)
        if q.answer and _norm(q.answer):
            ans_n += 1
            ans_hit += f" {_norm(q.answer)} " in f" {low} "
    return {"q": q_hit, "n": len(questions), "ev": ev_hit, "ev_n": ev_all, "ans": ans_hit, "ans_n": ans_n}


def _add(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    return {k: a.get(k, 0) + b[k] for k in b}


def _rate(s: dict[str, Any]) -> tuple[float, float, float]:
    return (s["q"] / max(1, s["n"]), s["ev"] / max(1, s["ev_n"]), s["ans"] / max(1, s["ans_n"]))


def run_brief(store: MemoryStore, now: datetime, budget: int, params: dict[str, float]) -> tuple[set[int], str]:
    out = graph_rank.brief(store, budget, now=now, params=params)
    return {int(i["id"]) for i in out["chosen"] if i["id"] is not None}, out["text"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("path", nargs="?", default=str(DEFAULT_LOCOMO))
    ap.add_argument("--budget", type=int, default=2000)
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--reuse", help="directory of built stores to reuse (bench/common.build_stores)")
    ap.add_argument("--loo", action="store_true", help="tune the topic constants by leave-one-conversation-out")
    args = ap.parse_args(argv)
    if not Path(args.path).exists():
        log(f"no LoCoMo file at {args.path}: nothing to measure")
        return 2
    convs, _stats = load_locomo(Path(args.path))
    tmp = Path(tempfile.mkdtemp(prefix="brief-cov-"))
    try:
        built = build_stores(convs, Path(args.reuse) if args.reuse else tmp / "built", reuse=bool(args.reuse))
        stores: dict[str, tuple[MemoryStore, datetime]] = {}
        for sid, st in built.items():
            st.close()
            db = tmp / f"{sid}.db"
            shutil.copy(st.path, db)
            s = MemoryStore(db)
            last = s.conn.execute("SELECT max(event_at) FROM memories").fetchone()[0]
            now = datetime.fromisoformat(last) + timedelta(days=1)
            t0 = time.perf_counter()
            consolidate.run(s, now=now, keep_backups=0)
            log(f"  {sid}: consolidated in {time.perf_counter() - t0:.1f} s")
            stores[sid] = (s, now)
        questions = {c.sample_id: [q for q in c.questions if q.category in SCORED_CATEGORIES and q.evidence]
                     for c in convs}
        turns = {sid: _turns(s) for sid, (s, _n) in stores.items()}

        rows, tot = [], {"brief": {}, "recent": {}, "random": {}}
        for sid, (s, now) in stores.items():
            t0 = time.perf_counter()
            chosen, text = run_brief(s, now, args.budget, {})
            took = time.perf_counter() - t0
            b = score(chosen, text, turns[sid], questions[sid])
            rec = _fill(s, list(reversed(turns[sid])), args.budget, stop_at_first=True)
            r = score(rec, _shown(rec, turns[sid]), turns[sid], questions[sid])
            rnd: dict[str, Any] = {}
            for seed in range(args.seeds):
                order = list(turns[sid])
                random.Random(seed).shuffle(order)
                pick = _fill(s, order, args.budget, stop_at_first=False)
                rnd = _add(rnd, score(pick, _shown(pick, turns[sid]), turns[sid], questions[sid]))
            rnd = {k: v / args.seeds for k, v in rnd.items()}
            for name, v in (("brief", b), ("recent", r), ("random", rnd)):
                tot[name] = _add(tot[name], v)
            rows.append([sid, len(turns[sid]), b["n"], len(chosen), len(rec), f"{_rate(b)[0]:.3f}", f"{_rate(r)[0]:.3f}",
                         f"{_rate(rnd)[0]:.3f}", f"{took:.2f}"])
        print(f"## brief --budget {args.budget}: answer coverage on LoCoMo dev (categories 1-4)\n")
        print(md_table(["conversation", "turns", "questions", "brief turns", "recent turns", "brief", "recent",
                        f"random ({args.seeds} seeds)", "brief s"], rows))
        print()
        summary = []
        for name in ("brief", "recent", "random"):
            q, e, a = _rate(tot[name])
            summary.append([name, f"{q:.3f}", f"{e:.3f}", f"{a:.3f}"])
        print(md_table(["selection", "questions covered", "evidence turns", "answer text present"], summary))
        qb, qr, qx = (_rate(tot[n])[0] for n in ("brief", "recent", "random"))
        print(f"\nbrief / recent = {qb / max(qr, 1e-9):.2f}x, brief / random = {qb / max(qx, 1e-9):.2f}x")

        if args.loo:
            keys = list(GRID)
            configs = [dict(zip(keys, vals)) for vals in itertools.product(*(GRID[k] for k in keys))]
            per: dict[int, dict[str, dict[str, Any]]] = {}
            for ci, cfg in enumerate(configs):
                per[ci] = {}
                for sid, (s, now) in stores.items():
                    chosen, text = run_brief(s, now, args.budget, cfg)
                    per[ci][sid] = score(chosen, text, turns[sid], questions[sid])
                log(f"  config {ci + 1}/{len(configs)} {cfg}: {_rate(_sum(per[ci].values()))[0]:.3f}")
            best_in = max(per, key=lambda c: (_rate(_sum(per[c].values()))[0], -c))
            loo: dict[str, Any] = {}
            picks = []
            for sid in stores:
                train = max(per, key=lambda c: (_rate(_sum(v for k, v in per[c].items() if k != sid))[0], -c))
                picks.append(f"{sid}: {configs[train]}")
                loo = _add(loo, per[train][sid])
            default = {k: getattr(selection, k) for k in keys}
            dflt = next(c for c, cfg in enumerate(configs) if cfg == default) if default in configs else None
            print(f"\n## leave-one-conversation-out over {len(configs)} configurations ({', '.join(keys)})\n")
            lines = [["in-sample best " + str(configs[best_in]), f"{_rate(_sum(per[best_in].values()))[0]:.3f}"],
                     ["leave-one-out (best of 4 scored on the 5th)", f"{_rate(loo)[0]:.3f}"]]
            if dflt is not None:
                lines.append(["shipped defaults " + str(default), f"{_rate(_sum(per[dflt].values()))[0]:.3f}"])
            print(md_table(["constants", "questions covered"], lines))
            print("\nLOO picks: " + "; ".join(picks))
        for s, _n in stores.values():
            s.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


def _sum(values: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for v in values:
        out = _add(out, v)
    return out


if __name__ == "__main__":
    raise SystemExit(main())
