#!/usr/bin/env python3
"""Finer-grained vector signals for multi-hop evidence (issue 5): sentences and words.

Many multi-hop misses on LoCoMo are long turns whose one relevant sentence is diluted in
the turn's vector ("Glad you have support! ... Here's a pic of my family camping at the
beach"), or turns that name an instance of the question's category ("kickboxing" for
"martial arts", "chess" for "board games"). Two candidate signals, scored on the 760 dev
questions in the same run as the engine's defaults:

* ``sentences``: each turn split into sentences ("Speaker: sentence", the shared image's
  caption as one more), each embedded; a turn's "own" cosine becomes the max over its
  sentences (``max``: and its whole text), blended with the context cosine by
  ``RecallConfig.context_mix``.
* ``words``: a word graph. Every distinct word of a conversation is embedded alone; a
  question's content words and adjacent pairs ("martial arts") link to the vocabulary
  words with cosine ≥ tau (20 at most each); hybrid's top 50 are re-ranked by score +
  beta · (the best such link among the turn's words), for every question or only those
  that ask for several things (``memory_core.asks_for_many``).

    python bench/recall_granular.py --reuse /tmp/locomo-stores [--only sentences,words]

Vectors are cached beside the stores (``<sample_id>.granular.npz``).
"""

from __future__ import annotations

import re
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

# the repository first: bench/keyword_index.py must not shadow the engine's keyword_index
# (this script's own directory is already on the path, after it)
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import common  # noqa: E402
import numpy as np  # noqa: E402
import recall_ablation as ra  # noqa: E402

import memory_core as mc  # noqa: E402
from memory_core import STOPWORDS, RecallConfig, asks_for_many  # noqa: E402

_HEAD = re.compile(r"^\[[^\]]*\]\s*([^:]{1,40}):\s*(.*)$", re.S)  # "[date] Speaker: text"
_IMAGE = re.compile(r"\s*\[shared image: ([^\]]*)\]\s*$")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'])")
_WORD = re.compile(r"[a-z][a-z'-]+")
DEPTH = 50  # hybrid results the word bonus re-ranks
LINKS = 20  # vocabulary words linked per query word at most


def sentences(content: str) -> list[str]:
    """A LoCoMo turn as "Speaker: sentence" strings (the image caption as one more)."""
    m = _HEAD.match(content)
    if m is None:
        return [content]
    who, body = m.group(1), m.group(2)
    image = _IMAGE.search(body)
    out = [f"{who}: {s}" for s in _SENTENCE_END.split((body[:image.start()] if image else body).strip())
           if len(s.split()) >= 2]
    if image:
        out.append(f"{who} shared an image: {image.group(1)}")
    return out or [content]


def words_of(content: str) -> set[str]:
    """Lower-case words of a turn's text (not its date or speaker), stopwords and short ones out."""
    m = _HEAD.match(content)
    return {w for w in _WORD.findall((m.group(2) if m else content).lower()) if len(w) >= 3 and w not in STOPWORDS}


class Granular:
    """Per conversation: sentence vectors (with their memory ids), vocabulary and its vectors."""

    def __init__(self, store: mc.MemoryStore, embedder: Any, cache: Path) -> None:
        rows = store.conn.execute("SELECT id, content FROM memories").fetchall()
        self.words = {int(mid): words_of(c) for mid, c in rows}
        if cache.exists():
            z = np.load(cache, allow_pickle=False)
            self.sent_ids, self.sent_vecs = z["sent_ids"], z["sent_vecs"]
            self.vocab, self.vocab_vecs = [str(w) for w in z["vocab"]], z["vocab_vecs"]
            return
        pairs = [(int(mid), s) for mid, c in rows for s in sentences(c)]
        self.sent_ids = np.array([p[0] for p in pairs])
        self.sent_vecs = np.asarray(embedder.embed([p[1] for p in pairs]), dtype=np.float32)
        self.vocab = sorted(set().union(*self.words.values()))
        self.vocab_vecs = np.asarray(embedder.embed(self.vocab), dtype=np.float32)
        np.savez(cache, sent_ids=self.sent_ids, sent_vecs=self.sent_vecs, vocab=np.array(self.vocab),
                 vocab_vecs=self.vocab_vecs)

    def best_sentence(self, qvec: np.ndarray) -> dict[int, float]:
        """Each memory's best sentence cosine to the query."""
        best: dict[int, float] = {}
        for mid, c in zip(self.sent_ids.tolist(), (self.sent_vecs @ qvec).tolist()):
            if c > best.get(mid, -2.0):
                best[mid] = c
        return best

    def links(self, query_words: list[str], embed: Any, tau: float) -> dict[str, float]:
        """Vocabulary words linked to the query's words and adjacent pairs (cosine ≥ tau)."""
        phrases = query_words + [f"{a} {b}" for a, b in zip(query_words, query_words[1:])]
        out: dict[str, float] = {}
        for vec in embed(phrases):
            sims = self.vocab_vecs @ vec
            for i in np.argsort(-sims)[:LINKS]:
                if sims[i] < tau:
                    break
                w = self.vocab[int(i)]
                if w not in query_words:
                    out[w] = max(out.get(w, 0.0), float(sims[i]))
        return out


def sentence_runs(stores: dict, grains: dict[str, Granular]) -> dict[str, common.RecallFn]:
    """Variants where a turn's own cosine comes from its sentences (patches ``_nearest``)."""
    plain_nearest = mc.MemoryStore._nearest
    mode = {"agg": "none"}

    def nearest(self: mc.MemoryStore, vec: np.ndarray, k: int) -> list[tuple[int, float]]:
        own = dict(plain_nearest(self, vec, 10**6))
        if mode["agg"] == "none":
            return sorted(own.items(), key=lambda x: -x[1])[:k]
        best = grains[self._bench_sid].best_sentence(np.asarray(vec, dtype=np.float32))
        if mode["agg"] == "max":  # whole text or best sentence, whichever is nearer
            comb = {m: max(own.get(m, -1.0), best.get(m, -1.0)) for m in own.keys() | best.keys()}
        else:  # best sentence alone
            comb = {m: best.get(m, own.get(m, -1.0)) for m in own.keys() | best.keys()}
        return sorted(comb.items(), key=lambda x: -x[1])[:k]

    mc.MemoryStore._nearest = nearest  # type: ignore[method-assign]
    for sid, st in stores.items():
        st._bench_sid = sid

    def run(agg: str, cfg: RecallConfig) -> common.RecallFn:
        inner = ra.fn_for(cfg)

        def fn(store: mc.MemoryStore, query: str, k: int) -> list[str]:
            mode["agg"] = agg
            return inner(store, query, k)

        return fn

    base = RecallConfig()
    runs = {"defaults": run("none", base)}
    for agg in ("max", "sentence"):
        for mix in (0.5, 0.7, 0.85, None):
            name = f"own = {agg}, context_mix {mix if mix is not None else 'max-sim'}"
            runs[name] = run(agg, replace(base, context_mix=mix))
    return runs


def word_runs(stores: dict, grains: dict[str, Granular], embed: Any) -> dict[str, common.RecallFn]:
    """Variants re-ranking hybrid's top DEPTH by a word-graph bonus."""

    def run(tau: float, beta: float, many_only: bool) -> common.RecallFn:
        def fn(store: mc.MemoryStore, query: str, k: int) -> list[str]:
            res = store.recall(query, k=DEPTH, touch=False).results
            if beta == 0 or (many_only and not asks_for_many(query)):
                return [m.ref or "" for m in res[:k]]
            names = {w for key in store.people_in(query) for w in key.split()}
            qwords = [w for w in _WORD.findall(query.lower()) if len(w) >= 3 and w not in STOPWORDS and w not in names]
            g = grains[store._bench_sid]
            links = g.links(qwords, embed, tau) if qwords else {}
            ranked = sorted(((m.score or 0.0) + beta * max((links[w] for w in g.words.get(m.id, ()) if w in links),
                                                           default=0.0), -i, m.ref or "")
                            for i, m in enumerate(res))
            return [r[2] for r in reversed(ranked)][:k]

        return fn

    runs = {"defaults (top 50 re-sorted)": run(1.0, 0.0, False)}
    for many_only in (True, False):
        for tau in (0.45, 0.55, 0.65):
            for beta in (0.05, 0.1, 0.2):
                runs[f"{'list questions' if many_only else 'every question'}, tau {tau}, beta {beta}"] = \
                    run(tau, beta, many_only)
    return runs


def main() -> None:
    ap = ra.dev_parser(__doc__)
    ap.add_argument("--only", default="sentences,words", help="comma list: sentences, words")
    args = ap.parse_args()
    stores, questions = ra.dev_stores(args)
    embed_q = next(iter(stores.values())).embedder  # the shared query cache
    grains = {sid: Granular(st, embed_q.inner, args.reuse / f"{sid}.granular.npz") for sid, st in stores.items()}
    for sid, st in stores.items():
        st._bench_sid = sid
    parts = set(args.only.split(","))
    header = ["variant", "r@5", "r@10", "MRR", "all@10", "multi-hop r@10", "multi-hop all@10",
              "temporal r@10", "open-domain r@10", "single-hop r@10"]
    plain_nearest = mc.MemoryStore._nearest
    for part, runs in (("sentences", lambda: sentence_runs(stores, grains)),
                       ("words", lambda: word_runs(stores, grains, embed_q.embed))):
        if part not in parts:
            continue
        rows = []
        for name, fn in runs().items():
            res = common.evaluate(stores, questions, fn)
            o, cats = res["overall"], res["by_category"]
            rows.append([name, o["recall@5"], o["recall@10"], o["mrr"], o["all@10"], cats[1]["recall@10"],
                         cats[1]["all@10"], *[cats[c]["recall@10"] for c in (2, 3, 4)]])
            common.log(f"{name}: done")
        mc.MemoryStore._nearest = plain_nearest  # type: ignore[method-assign]
        print(f"\n## {part}\n")
        print(common.md_table(header, rows))


if __name__ == "__main__":
    main()
