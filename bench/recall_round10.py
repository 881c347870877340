"""Recall on unseen conversations, round 10: updates that name the value they replace, short
confirmations, and multi-hop coverage (issue 19).

The update mechanisms are judged on chats no earlier round saw: ``bench/data/recall_updates10.jsonl``
(four chats in three languages and three export layouts, written and committed before any code of
the round: 17 updates, most of them naming the replaced value -- "wednesday not tuesday", "1:15
instead of 12:30", "au lieu de 15h", "Mittwoch statt Dienstag" -- or a short confirmation "ok 13h
alors"; 10 questions whose answer must NOT be displaced, 7 of them with a later look-alike that names
one of their values as replaced for another subject). Rounds 8 and 9's chats are scored too (they
were tuned on). Every variant is a RecallConfig, so ``--dev`` judges the same ones on both dev sets
by leave-one-out (loo.py's Scorer, round 6's ``judge``).

    .venv/bin/python bench/recall_round10.py --reuse /tmp/recall10            # own chats only, ~1 min
    .venv/bin/python bench/recall_round10.py --reuse /tmp/recall10 --dev      # + both dev sets' LOO
    .venv/bin/python bench/recall_round10.py --reuse /tmp/recall10 --sets round10 --show
    .venv/bin/python bench/recall_round10.py --reuse /tmp/recall10 --tail     # multi-hop misses, tail re-rankings

``--tail`` (item 1 of the round): where the dev sets' multi-hop evidence missing from the top 10 ranks
(the engine's top 100), and ranks 6-10 re-picked from the best 30 by an own-text gate (a turn whose own
text holds none of the question's content stems, names dropped, loses lambda: it reached the tail through
its neighbours' context and adds no facet), alone or with round 5's session coverage, for list questions
(``asks_for_many``) or every question; judged on recall@10 and all-evidence@10 of both sets. Applied by
replacing the pipeline's session-coverage step for the run: nothing of it is in the engine.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import loo  # noqa: E402
from bench.common import DEFAULT_LOCOMO, log, md_table  # noqa: E402
from bench.realchat import DEFAULT_DATA, DEFAULT_QUESTIONS  # noqa: E402
from bench.recall_round9 import own_questions, own_table, score  # noqa: E402
from memengine.recall.config import RecallConfig  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"
SETS = {"round 8": DATA / "recall_updates.jsonl", "round 9": DATA / "recall_updates9.jsonl",
        "round 10": DATA / "recall_updates10.jsonl"}


def variants() -> dict[str, RecallConfig]:
    """The configs compared: the update ranking off, the engine at the session start (round 9's
    ``turns:pool``), and each of this round's switches that the running engine has."""
    have = {f.name for f in fields(RecallConfig)}
    base = RecallConfig()
    out = {"off": replace(base, newer_first=""), "engine default": base}
    if "newer_first" in have:
        out["turns:pool (round 9)"] = replace(base, newer_first="turns:pool")
    try:
        from memengine.recall.updates import MODES
    except ImportError:  # (the session-start tree scores the rows above only)
        MODES = ()
    if "named" in MODES:
        out["named:pool (round 10)"] = replace(base, newer_first="named:pool")
        out["named (top k only)"] = replace(base, newer_first="named")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", metavar="DIR", required=True, help="stores live here (as bench/loo.py)")
    ap.add_argument("--sets", default="round 8,round 9,round 10", help="comma list of the own sets to score")
    ap.add_argument("--dev", action="store_true", help="also both dev sets: every variant judged by leave-one-out")
    ap.add_argument("--show", action="store_true", help="print each update / keep question's top 5 per variant")
    ap.add_argument("--tail", action="store_true", help="multi-hop: the misses, and the tail re-rankings")
    args = ap.parse_args(argv)
    directory = Path(args.reuse)
    from embedder import get_embedder

    emb = loo.QueryCache(get_embedder())
    configs = variants()
    table = []
    wanted = [s.strip().replace("round", "round ").replace("  ", " ") for s in args.sets.split(",")]
    for label, path in SETS.items():
        if label not in wanted:
            continue
        rows = own_questions(path, directory, emb)
        table += own_table(rows, configs, label)
        if args.show:
            for lab, cfg in configs.items():
                sc = score(rows, cfg)
                for r in rows:
                    got = sc[r["id"]]
                    top = [rows_text(r["store"], x) for x in got["top"][:5]]
                    log(f"  {lab:22} {r['id']}: r5 {got['r5']:.0f} above {got.get('above')} top5 {top}")
    print("# Round 10: the own chats (recall@5, MRR, the newer value / the evidence above the turn it is "
          "confused with)\n")
    print(md_table(["chats", "variant", "kind", "n", "recall@5", "MRR", "above"], table))
    if args.dev or args.tail:
        items = loo.load_items(Path(DEFAULT_LOCOMO), Path(DEFAULT_DATA), Path(DEFAULT_QUESTIONS), directory)
    if args.tail:
        print("\n# Multi-hop questions: the evidence missing from the top 10 (the engine's top 100)\n")
        print(md_table(["set", "what", "n"], misses(items)))
        print("\n# Ranks 6-10 re-picked (recall@10 / multi-hop all@10 / all@10)\n")
        print(md_table(["variant", "LoCoMo", "real chats"], tail_variants(items)))
    if args.dev:
        from bench.recall_round6 import judge

        scorer = loo.Scorer(items, None)
        off = configs["engine default"]
        base = scorer.scores(off)
        got = {lab: scorer.scores(cfg) for lab, cfg in configs.items() if cfg != off}
        row = judge(items, "round 10 variants", base, got)
        print("\n# Both dev sets: the variants against the engine default\n")
        print(md_table(["family", "best in-sample", "LoCoMo r@5 base / best / LOO", "LoCoMo gain in-sample",
                        "LoCoMo gain LOO", "LoCoMo folds +/−/=", "LoCoMo r@10 gain",
                        "LoCoMo multi all@10 base / best / LOO", "real r@5 base / best / LOO", "real gain in-sample",
                        "real gain LOO", "real folds +/−/=", "real r@10 gain",
                        "real multi all@10 base / best / LOO", "folds choosing a variant", "verdict"], [row]))
        for lab in got:
            n = sum(scorer.ranked(it, configs[lab]) != scorer.ranked(it, off) for it in items)
            log(f"{lab}: top 10 changed on {n} dev questions")
    return 0


# --------------------------------------------------------------------------- 1: multi-hop tails

def _session(c: Any) -> tuple[Any, str]:
    return c.thread, (c.event_at or "")[:10]


def misses(items: list[Any]) -> list[list[Any]]:
    """Per set: the multi-hop questions missing evidence from the top 10, and where each missing turn
    ranks in the top 100, whether its session holds a top-5 hit."""
    from memengine.recall.config import RecallConfig as C

    rows: Counter[tuple[str, str]] = Counter()
    for it in items:
        if not it.multi:
            continue
        run = loo.retrieve(it.store, it.question, C(), k=100)
        res = it.store._rank(replace(run, cfg=C()), False)
        refs = [m.ref for m in res]
        top5 = {_session(m) for m in res[:5]}
        rank = {e: refs.index(e) + 1 if e in refs else 999 for e in it.evidence}
        gone = [e for e, r in rank.items() if r > 10]
        rows[it.set, "questions"] += 1
        if not gone:
            continue
        rows[it.set, f"missing {min(len(gone), 3)}{'+' if len(gone) >= 3 else ''} turn(s)"] += 1
        for e in gone:
            r = rank[e]
            rows[it.set, "turn ranks " + ("11-20" if r <= 20 else "21-30" if r <= 30 else "31-100" if r <= 100
                                          else "> 100")] += 1
            m = next((x for x in res if x.ref == e), None)
            if m is not None:
                rows[it.set, "turn in a top-5 session" if _session(m) in top5 else "turn in another session"] += 1
    return [[s, what, n] for (s, what), n in sorted(rows.items())]


def tail_variants(items: list[Any]) -> list[list[Any]]:
    """recall@10, multi-hop all@10 and all@10 per set for each tail re-ranking (see the module doc)."""
    from memengine.recall import pipeline
    from memengine.text import bare_text, query_terms

    def stems(words: Any) -> set[str]:
        return {w[:5] for w in words if w.isalnum()}

    current: dict[str, Any] = {}

    def make(kind: str, lam: float) -> Any:
        def cover(ranked: list[Any], k: int, factor: float, explain: bool) -> list[Any]:
            q = stems(t for t in query_terms(current["q"]) if t not in current["people"])
            out, rest = list(ranked[:5]), list(ranked[5:max(30, k)])
            taken = Counter(_session(c) for c in out)
            while len(out) < k and rest:
                def key(c: Any) -> tuple[float, int]:
                    own = bool(q & stems(query_terms(bare_text(c.content, c.author))))
                    sc = c.score or 0.0
                    if kind in ("own", "own+sess") and not own:
                        sc -= lam
                    if kind in ("sess", "own+sess") or (kind == "ownsess" and not own):
                        sc *= 0.9 ** taken[_session(c)]
                    return sc, -c.id
                best = max(rest, key=key)
                rest.remove(best)
                out.append(best)
                taken[_session(best)] += 1
            return out + [c for c in ranked[5:] if c not in out]
        return cover

    variants: dict[str, tuple[str, float, bool] | None] = {"engine": None}
    for lam in (0.02, 0.05, 0.1):
        for every in (False, True):
            variants[f"own-text gate {lam}, {'every question' if every else 'list questions'}"] = ("own", lam, every)
    for every in (False, True):
        which = "every question" if every else "list questions"
        variants[f"session coverage 0.9, {which}"] = ("sess", 0.0, every)
        variants[f"own-text gate where the session repeats, {which}"] = ("ownsess", 0.0, every)
        variants[f"own-text gate 0.05 + session coverage, {which}"] = ("own+sess", 0.05, every)
    cover0, many0 = pipeline.cover_sessions, pipeline.asks_for_many
    out = []
    for name, v in variants.items():
        cfg = RecallConfig() if v is None else replace(RecallConfig(), session_coverage=0.9)
        if v is not None:
            pipeline.cover_sessions = make(v[0], v[1])  # type: ignore[assignment]
            pipeline.asks_for_many = (lambda q: True) if v[2] else many0  # type: ignore[assignment]
        try:
            sc = {}
            for it in items:
                current["q"], current["people"] = it.question, {p.lower() for p in it.store.people_in(it.question)}
                run = loo.retrieve(it.store, it.question, cfg)
                refs = [m.ref or "" for m in it.store._rank(replace(run, cfg=cfg), False)]
                sc[it.key] = loo._score(refs, it.evidence)
        finally:
            pipeline.cover_sessions, pipeline.asks_for_many = cover0, many0  # type: ignore[assignment]
        row: list[Any] = [name]
        for s in loo.SETS:
            its = loo.by_set(items, s)
            m = loo.set_metrics(its, sc)
            row.append(f"{m['recall@10']:.3f} / {m['multi_all@10']:.3f} / "
                       f"{loo.mean([sc[it.key]['all@10'] for it in its]):.3f}")
        out.append(row)
        log(f"  {row}")
    return out


def rows_text(store: Any, ref: str) -> str:
    """A result's text, short (for ``--show``)."""
    got = store.conn.execute("SELECT content FROM memories WHERE ref = ?", (ref,)).fetchone()
    return (got[0] if got else ref)[-40:]


if __name__ == "__main__":
    raise SystemExit(main())
