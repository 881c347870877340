"""Recall on unseen conversations, round 11: multi-hop candidates, and updates on new chats (issue 19).

Item 1 of the round (``--ceiling``): re-ranking the engine's top 30 cannot reach multi-hop all@10 0.40
(round 10: only 0.458 of LoCoMo's multi-hop questions have all their evidence there). So first a ceiling
metric: *all the evidence of a question within the first N candidates* (N = 30, 50, 100) of a candidate
list, per set, for the engine's own ranking and for lists that mix the engine's best turns with the
candidates of one generator:

* ``facets``: one recall per facet of the question (each content word but the names, and each pair of
  adjacent content words), interleaved so each facet gets slots;
* ``speaker``: the question restricted to turns said BY the person it names (every session);
* ``sessions``: sessions scored by their best three turns in the engine's wide pool, each top session's
  best turns in turn;
* ``hop``: the first three hits' rare words (share of turns < 2 %) as a query, restricted to sessions
  none of the top 5 is in.

A mixed list keeps the engine's first ``keep`` turns and deals the rest out in turn between the engine
and the generator. ``--slots`` then judges, by leave-one-out on both dev sets, how many of a generator's
candidates reach the top 10 (ranks 10, 9-10, 8-10 replaced by the generator's best candidates not in
the engine's top 10).

    .venv/bin/python bench/recall_round11.py --reuse /tmp/recall11/stores --ceiling
    .venv/bin/python bench/recall_round11.py --reuse /tmp/recall11/stores --slots
    .venv/bin/python bench/recall_round11.py --reuse /tmp/recall11/stores --own   # the update chats
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import loo  # noqa: E402
from bench.common import DEFAULT_LOCOMO, log, md_table  # noqa: E402
from bench.realchat import DEFAULT_DATA, DEFAULT_QUESTIONS  # noqa: E402
from memengine.recall.config import POOL, RecallConfig  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"
SETS = {"round 8": DATA / "recall_updates.jsonl", "round 9": DATA / "recall_updates9.jsonl",
        "round 10": DATA / "recall_updates10.jsonl", "round 11": DATA / "recall_updates11.jsonl"}
NS = (10, 30, 50, 100)
WIDE = 100  # the engine's ranking read this deep (its pool: 300 per retriever)


def _session(m: Any) -> tuple[Any, str]:
    return m.thread, (m.event_at or "")[:10]


def ranking(store: Any, query: str, k: int, extra: str = "", extra_args: tuple[Any, ...] = ()) -> list[Any]:
    """The engine's first ``k`` results for ``query`` (hybrid, the shipped config), optionally
    restricted by one more SQL condition over alias ``m``."""
    from memengine.recall.pipeline import _Run

    cfg = RecallConfig()
    where, args = store.filter_sql(None, None, None, None, None, False)
    if extra:
        where, args = f"({where}) AND {extra}" if where else extra, [*args, *extra_args]
    run = _Run(query, k, "hybrid", False, cfg, where, list(args), max(POOL, k * 3), store.people_in(query),
               False, False)
    store._retrieve(run)
    return list(store._rank(run, False))


# --------------------------------------------------------------------------- candidate generators

def gen_facets(store: Any, q: str, top: list[Any]) -> list[Any]:
    """Each facet of the question recalled alone, interleaved (facet 1's best, facet 2's best, ...)."""
    from memengine.text import query_terms

    names = {w for key in store.people_in(q) for w in key.split()}
    terms = [t for t in query_terms(q) if t not in names and len(t) > 2]
    facets = terms + [f"{a} {b}" for a, b in zip(terms, terms[1:])]
    if len(facets) < 2:
        return []
    lists = [ranking(store, f, 20) for f in facets]
    out: list[Any] = []
    for i in range(20):
        out += [lst[i] for lst in lists if i < len(lst)]
    return out


def gen_speaker(store: Any, q: str, top: list[Any]) -> list[Any]:
    """The question over the turns said by the person it names."""
    names = sorted(set(store.people_in(q).values()))
    if not names:
        return []
    marks = ",".join("?" * len(names))
    return ranking(store, q, 50, f"m.author IN ({marks})", tuple(names))


def gen_sessions(store: Any, q: str, top: list[Any]) -> list[Any]:
    """Sessions ranked by the sum of their three best turns in the wide list; their turns dealt out."""
    by: dict[tuple[Any, str], list[Any]] = defaultdict(list)
    for m in top:
        by[_session(m)].append(m)
    order = sorted(by, key=lambda s: -sum(x.score or 0.0 for x in by[s][:3]))
    out: list[Any] = []
    for i in range(10):
        out += [by[s][i] for s in order if i < len(by[s])]
    return out


def gen_hop(store: Any, q: str, top: list[Any]) -> list[Any]:
    """The first hits' rare words as a second query, outside the top 5's sessions."""
    from memengine.text import bare_text, query_terms

    qt = set(query_terms(q))
    words: list[str] = []
    for m in top[:3]:
        words += [w for w in query_terms(bare_text(m.content, m.author)) if w not in qt and len(w) > 3]
    words = list(dict.fromkeys(words))
    if not words:
        return []
    shares, _ = store._content_shares(words)
    rare = [w for w in words if 0 < shares.get(w, 1.0) < 0.02][:8]
    if not rare:
        return []
    seen = {_session(m) for m in top[:5]}
    return [m for m in ranking(store, " ".join(rare), 50) if _session(m) not in seen]


GENERATORS: dict[str, Callable[[Any, str, list[Any]], list[Any]]] = {
    "facets": gen_facets, "speaker": gen_speaker, "sessions": gen_sessions, "hop": gen_hop}


def mixed(engine: list[Any], gen: list[Any], keep: int, n: int) -> list[str]:
    """The engine's first ``keep``, then the engine and the generator in turn, no repeats, ``n`` long."""
    out: list[str] = []
    seen: set[str] = set()

    def add(m: Any) -> None:
        if m.ref and m.ref not in seen and len(out) < n:
            seen.add(m.ref)
            out.append(m.ref)

    for m in engine[:keep]:
        add(m)
    a, b = iter(engine[keep:]), iter(gen)
    while len(out) < n:
        x, y = next(a, None), next(b, None)
        if x is None and y is None:
            break
        if y is not None:
            add(y)
        if x is not None:
            add(x)
    return out


def ceiling(items: list[Any], keeps: tuple[int, ...] = (5, 10)) -> list[list[Any]]:
    """Per set, list and N: the share of (multi-hop / all) questions with all their evidence in the first N."""
    hits: dict[tuple[str, str, int], list[float]] = defaultdict(list)
    for j, it in enumerate(items):
        eng = ranking(it.store, it.question, WIDE)
        lists = {"engine": [m.ref or "" for m in eng]}
        for name, gen in GENERATORS.items():
            got = gen(it.store, it.question, eng)
            lists[f"{name} alone"] = [m.ref or "" for m in got][:WIDE]
            for keep in keeps:
                lists[f"engine {keep} + {name}"] = mixed(eng, got, keep, WIDE)
        for lab, refs in lists.items():
            for n in NS:
                ok = float(all(e in refs[:n] for e in it.evidence))
                hits[it.set + (" multi-hop" if it.multi else " other"), lab, n].append(ok)
                hits[it.set + " all", lab, n].append(ok)
        if j % 100 == 0:
            log(f"  {j}/{len(items)}")
    rows = []
    labels = list(dict.fromkeys(lab for _, lab, _ in hits))
    for s in ("locomo multi-hop", "locomo all", "realchat multi-hop", "realchat all"):
        for lab in labels:
            rows.append([s, lab, len(hits[s, lab, NS[0]])] + [f"{loo.mean(hits[s, lab, n]):.3f}" for n in NS])
    return rows


def _lists(store: Any, q: str, eng: list[Any]) -> dict[str, list[list[Any]]]:
    """Each generator's ranked lists for one question (facets: one list per facet)."""
    from memengine.text import query_terms

    names = {w for key in store.people_in(q) for w in key.split()}
    terms = [t for t in query_terms(q) if t not in names and len(t) > 2]
    facets = terms + [f"{a} {b}" for a, b in zip(terms, terms[1:])]
    return {"facets": [ranking(store, f, 20) for f in facets] if len(facets) >= 2 else [],
            "speaker": [gen_speaker(store, q, eng)], "sessions": [gen_sessions(store, q, eng)],
            "hop": [gen_hop(store, q, eng)]}


def fused(eng: list[Any], lists: list[list[Any]], w: float, head: int) -> list[str]:
    """Reciprocal-rank fusion of the engine's list (weight 1) with a generator's lists (weight ``w``
    each, shared out); the engine's first ``head`` kept in place, the rest of the top 10 re-picked."""
    rrf: dict[str, float] = defaultdict(float)
    for i, m in enumerate(eng):
        rrf[m.ref or ""] += 1 / (60 + i)
    share = w / max(1, len(lists)) ** 0.5
    for lst in lists:
        for i, m in enumerate(lst):
            rrf[m.ref or ""] += share / (60 + i)
    out = [m.ref or "" for m in eng[:head]]
    rest = sorted((r for r in rrf if r not in out), key=lambda r: -rrf[r])
    return out + rest[:10 - head]


def fusion_table(items: list[Any]) -> tuple[list[list[Any]], list[list[Any]]]:
    """Per generator, weight and head: both sets judged against the engine by leave-one-out (round 6's
    ``judge``: recall@5; ``judge_tail`` for a head of 5: all@10)."""
    from bench.common import score_ranking
    from bench.recall_round6 import judge, judge_tail

    base: dict[str, dict[str, float]] = {}
    got: dict[tuple[str, float, int], dict[str, dict[str, float]]] = defaultdict(dict)
    for j, it in enumerate(items):
        eng = ranking(it.store, it.question, WIDE)
        base[it.key] = score_ranking([m.ref or "" for m in eng[:10]], it.evidence)
        for name, lists in _lists(it.store, it.question, eng).items():
            for w in (0.2, 0.5, 1.0):
                for head in (0, 5, 8):
                    got[name, w, head][it.key] = score_ranking(fused(eng, lists, w, head), it.evidence)
        if j % 100 == 0:
            log(f"  {j}/{len(items)}")
    rows: tuple[list[list[Any]], list[list[Any]]] = ([], [])
    for name in GENERATORS:
        for head in (0, 5, 8):
            fam = {f"{name} w{w} head{head}": got[name, w, head] for w in (0.2, 0.5, 1.0)}
            row = (judge if head == 0 else judge_tail)(items, f"{name}, head {head}", base, fam)
            rows[head > 0].append(row)
            log(f"  {row}")
    return rows


def own(directory: Path, sets: list[str], dev: bool) -> None:
    """The update chats of rounds 8-11 (recall@5, MRR, newer above older / evidence above its look-alike)
    under the update ranking off, round 10's ``named:pool`` and this round's ``forms:pool``; with ``dev``,
    ``forms:pool`` against the engine default on both dev sets by leave-one-out, and the top 10s it changes."""
    from bench.recall_round9 import own_questions, own_table
    from embedder import get_embedder

    emb = loo.QueryCache(get_embedder())
    base = RecallConfig()
    configs = {"off": replace(base, newer_first=""), "named:pool (round 10)": replace(base, newer_first="named:pool"),
               "forms:pool (round 11)": replace(base, newer_first="forms:pool"),
               "restate:pool (round 11, off)": replace(base, newer_first="restate:pool")}
    table = []
    for label, path in SETS.items():
        if label in sets:
            table += own_table(own_questions(path, directory, emb), configs, label)
    print("# The update chats (recall@5, MRR, the newer value / the evidence above the turn it is confused with)\n")
    print(md_table(["chats", "variant", "kind", "n", "recall@5", "MRR", "above"], table))
    if dev:
        from bench.recall_round6 import judge

        items = loo.load_items(Path(DEFAULT_LOCOMO), Path(DEFAULT_DATA), Path(DEFAULT_QUESTIONS), directory)
        scorer = loo.Scorer(items, None)
        ref = configs["named:pool (round 10)"]
        got = {lab: scorer.scores(cfg) for lab, cfg in configs.items() if cfg != ref}
        print("\n# Both dev sets: against round 10's named:pool\n")
        print(md_table(["family", "best in-sample", "LoCoMo r@5 base / best / LOO", "LoCoMo gain in-sample",
                        "LoCoMo gain LOO", "LoCoMo folds +/−/=", "LoCoMo r@10 gain",
                        "LoCoMo multi all@10 base / best / LOO", "real r@5 base / best / LOO", "real gain in-sample",
                        "real gain LOO", "real folds +/−/=", "real r@10 gain",
                        "real multi all@10 base / best / LOO", "folds choosing a variant", "verdict"],
                       [judge(items, "update ranking", scorer.scores(ref), got)]))
        for lab, cfg in configs.items():
            n = sum(scorer.ranked(it, cfg) != scorer.ranked(it, ref) for it in items)
            print(f"{lab}: top 10 changed on {n} of {len(items)} dev questions")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", metavar="DIR", required=True, help="stores live here (as bench/loo.py)")
    ap.add_argument("--ceiling", action="store_true", help="all evidence within the first N, per candidate list")
    ap.add_argument("--fuse", action="store_true", help="generators fused into the top 10, judged by LOO")
    ap.add_argument("--sets", default="", help="only these sets' items (locomo, realchat)")
    ap.add_argument("--limit", type=int, default=0, help="at most this many items per set (a quick look)")
    ap.add_argument("--own", default="", help="comma list of update sets to score (round 8,round 9,...)")
    ap.add_argument("--dev", action="store_true", help="with --own: forms:pool on both dev sets (LOO)")
    args = ap.parse_args(argv)
    directory = Path(args.reuse)
    if args.own:
        own(directory, [x.strip() for x in args.own.split(",")], args.dev)
        if not (args.ceiling or args.fuse):
            return 0
    items = loo.load_items(Path(DEFAULT_LOCOMO), Path(DEFAULT_DATA), Path(DEFAULT_QUESTIONS), directory)
    if args.sets:
        items = [it for it in items if it.set in args.sets.split(",")]
    if args.limit:
        per: dict[str, int] = defaultdict(int)
        kept = []
        for it in items:
            if it.multi and per[it.set] < args.limit:
                per[it.set] += 1
                kept.append(it)
        items = kept
    if args.fuse:
        print("\n# Generators fused with the engine (reciprocal ranks), judged by leave-one-out\n")
        whole, tail = fusion_table(items)
        print(md_table(["family", "best in-sample", "LoCoMo r@5 base / best / LOO", "LoCoMo gain in-sample",
                        "LoCoMo gain LOO", "LoCoMo folds +/−/=", "LoCoMo r@10 gain",
                        "LoCoMo multi all@10 base / best / LOO", "real r@5 base / best / LOO", "real gain in-sample",
                        "real gain LOO", "real folds +/−/=", "real r@10 gain",
                        "real multi all@10 base / best / LOO", "folds choosing a variant", "verdict"], whole))
        print("\nRanks after the head re-picked (objective all@10):\n")
        print(md_table(["family", "best in-sample", "LoCoMo all@10 base / best / LOO", "LoCoMo folds +/−",
                        "LoCoMo multi all@10 base / LOO", "LoCoMo r@10 gain LOO", "real all@10 base / best / LOO",
                        "real folds +/−", "real multi all@10 base / LOO", "real r@10 gain LOO",
                        "folds choosing a variant", "verdict"], tail))
    if args.ceiling:
        print("# All evidence within the first N candidates\n")
        print(md_table(["questions", "candidate list", "n"] + [f"N={n}" for n in NS], ceiling(items)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
