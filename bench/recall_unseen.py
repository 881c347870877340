"""Recall on unseen conversations, round 5: new mechanisms judged by issue 19's protocol.

Each family below is applied to the engine from outside (the store's people, retrieval or ranking
wrapped here; the engine itself is unchanged) and scored by bench/loo.py's Scorer on both dev
sets (LoCoMo dev, 5 conversations; the real chats, 23): every variant's first questions are
also asked through ``recall()`` and must give the same top 10 as the fast path. Per family,
leave-one-out picks one of its variants or the baseline on all other folds of both sets
(objective: the mean of the two sets' recall@5) and scores it on the held-out fold; a mechanism
is kept only when that held-out gain, averaged over the two sets, is positive.

* ``possessive`` — a possessive names its person ("Maria's puppy" -> Maria: the person prior and
  the name left out of the keyword query). In the engine since this round: its baseline is the
  rule before (``people_in`` over the raw tokens, where "maria's" never equals "maria").
* ``first-person`` — a question in the first person ("I", "my", "je", "mon", "ich"...) asked of
  a store with an author named ``User`` (the importers' name for the person in an assistant
  chat) gives that author's turns the person prior; ``+you`` also sends "you" / "ChatGPT" /
  "Claude" questions to ``Assistant``.
* ``reply-human`` — the reply prior only for replies not written by an assistant, at 0.05-0.2.
* ``columns`` — bm25 column weights (own text, tags, date terms, near and far context) x0.5 / x2.
* ``phrase`` / ``max-df`` — the phrase bonus and frequent-word pruning the engine already has, off.
* ``vocab`` — query terms expanded with the store's own words nearest in MiniLM word vectors
  (every distinct word of the store embedded once, cosine >= tau, n per term, in <= 2 % of the
  memories, not sharing the term's first four letters): bm25 of the expansion words added to the
  keyword score at weight lambda (bm25 is a sum over terms, so this is one bm25 with the added
  words weighted lambda).
* ``bm25`` — bm25's k1 (1.2 in FTS5) and b (0.75) on the keyword side, through the in-process
  keyword index (its "k1 1.2, b 0.75" row must equal the engine: the index is FTS5's bm25 exactly).
* pool re-rankings of the engine's whole fused pool: ``rrf`` (reciprocal-rank fusion instead of
  min-max, priors kept), ``smooth`` (+ lambda x the best score of the turns at position +-1),
  ``session`` (+ lambda x the mean of the session's three best scores), ``question`` (- lambda for
  a turn that ends with a question mark), ``coverage`` (+ lambda x the idf-weighted share of the
  question's words in the turn's own text).

    .venv/bin/python bench/recall_unseen.py --reuse /tmp/recall5        # ~10 min on 2 loaded cores
    .venv/bin/python bench/recall_unseen.py --reuse /tmp/recall5 --only possessive,vocab
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import math
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import loo  # noqa: E402
from bench.common import DEFAULT_LOCOMO, log, md_table  # noqa: E402
from bench.realchat import DEFAULT_DATA, DEFAULT_QUESTIONS  # noqa: E402
from memengine.recall import fusion as fusion_mod  # noqa: E402
from memengine.recall import people as people_mod  # noqa: E402
from memengine.recall import pipeline  # noqa: E402
from memengine.recall.config import RecallConfig  # noqa: E402
from memengine.text import STOPWORDS, TOKEN_RE, bare_text, query_terms, quote_fts  # noqa: E402

Patch = Callable[[], contextlib.AbstractContextManager[None]] | None
Variant = tuple[Patch, RecallConfig]
D = RecallConfig()


@contextlib.contextmanager
def swapped(owner: Any, name: str, value: Any) -> Iterator[None]:
    """``owner.name`` replaced by ``value`` for the duration."""
    old = getattr(owner, name)
    setattr(owner, name, value)
    try:
        yield
    finally:
        setattr(owner, name, old)


# --------------------------------------------------------------------------- people

PEOPLE_IN = people_mod.People.people_in


def possessive_off() -> contextlib.AbstractContextManager[None]:
    """The rule before this round: names matched against the raw tokens ("maria's" != "maria")."""
    def people_in(self: Any, query: str) -> dict[str, str]:
        people = self.known_people()
        words = {w.lower() for w in TOKEN_RE.findall(query)}
        low = query.lower()
        return {k: n for k, n in people.items() if (" " in k and k in low) or k in words}
    return swapped(people_mod.People, "people_in", people_in)


FIRST = re.compile(r"\b(i|me|my|mine|myself|je|moi|mon|ma|mes|ich|mich|mir|mein|meine|meinen|yo|mis|io|mio|mia|"
                   r"eu|meu|minha|ik|mijn)\b|\b[jm]['’]", re.I)
SECOND = re.compile(r"\b(you|your|chatgpt|claude|gpt|assistant|tu|toi|ton|ta|tes|vous|votre|vos|du|dich|dir|dein)\b|"
                    r"\bt['’]", re.I)


def first_person(second: bool) -> Callable[[], contextlib.AbstractContextManager[None]]:
    def patch() -> contextlib.AbstractContextManager[None]:
        def people_in(self: Any, query: str) -> dict[str, str]:
            found = PEOPLE_IN(self, query)
            authors = {r[0] for r in self.conn.execute("SELECT author FROM memory_authors")}
            fp, sp = bool(FIRST.search(query)), second and bool(SECOND.search(query))
            if fp and not sp and "User" in authors:
                found = {**found, "\x00self": "User"}
            if sp and not fp and "Assistant" in authors:
                found = {**found, "\x00assistant": "Assistant"}
            return found
        return swapped(people_mod.People, "people_in", people_in)
    return patch


REPLIES = fusion_mod.replies
ASSISTANTS = {"assistant", "chatgpt", "claude"}


def reply_human() -> contextlib.AbstractContextManager[None]:
    def replies(rows: dict[int, Any]) -> dict[int, int]:
        return {m: q for m, q in REPLIES(rows).items() if (rows[m].author or "").lower() not in ASSISTANTS}
    return swapped(fusion_mod, "replies", replies)


# --------------------------------------------------------------------------- vocabulary expansion

_WORD = re.compile(r"[^\W\d_][\w'’-]*[^\W\d_]|[^\W\d_]", re.UNICODE)


class Vocab:
    """Every distinct content word of each store, embedded once (cached under DIR/vocab)."""

    def __init__(self, directory: Path) -> None:
        from embedder import get_embedder

        self.dir, self.emb = directory / "vocab", get_embedder()
        self.stores: dict[str, tuple[list[str], Any, Any, int]] = {}
        self.words: dict[str, Any] = {}

    def of(self, store: Any) -> tuple[list[str], Any, Any, int]:
        import numpy as np

        key = str(store.path)
        if key not in self.stores:
            f = self.dir / (hashlib.sha256(key.encode()).hexdigest()[:16] + ".npz")
            total = int(store.conn.execute("SELECT count(*) FROM memories WHERE status = 'active'").fetchone()[0])
            if not f.exists():
                df: Counter[str] = Counter()
                for (c,) in store.conn.execute("SELECT content FROM memories WHERE status = 'active'"):
                    ws = {w.replace("’", "'").removesuffix("'s") for w in _WORD.findall(c.lower())}
                    df.update(w for w in ws if len(w) >= 3 and w not in STOPWORDS)
                vocab = sorted(df)
                vecs = self.emb.embed(vocab, 64) if vocab else np.zeros((0, self.emb.dims), np.float32)
                self.dir.mkdir(parents=True, exist_ok=True)
                np.savez(f, words=np.array(vocab), df=np.array([df[w] for w in vocab]), vecs=vecs)
            z = np.load(f)
            self.stores[key] = (list(z["words"]), z["df"], z["vecs"], total)
        return self.stores[key]

    def vec(self, word: str) -> Any:
        if word not in self.words:
            self.words[word] = self.emb.embed([word])[0]
        return self.words[word]

    def neighbours(self, store: Any, terms: list[str], tau: float, n: int, max_share: float = 0.02) -> list[str]:
        import numpy as np

        words, df, vecs, total = self.of(store)
        out: list[str] = []
        for t in terms if len(words) else []:
            sims = vecs @ self.vec(t)
            got = 0
            for i in np.argsort(-sims)[: n * 8]:
                w = str(words[i])
                if sims[i] < tau or got >= n:
                    break
                if w[:4] == t[:4] or w in terms or w in out or (df[i] > 2 and df[i] > max_share * total):
                    continue
                out.append(w)
                got += 1
        return out


def vocab_expansion(vocab: Vocab, lam: float, tau: float, n: int) -> Callable[[], contextlib.AbstractContextManager[None]]:
    retrieve0 = pipeline.Recall._retrieve

    def patch() -> contextlib.AbstractContextManager[None]:
        def _retrieve(self: Any, run: Any) -> None:
            retrieve0(self, run)
            if run.strategy != "hybrid":
                return
            near = vocab.neighbours(self, self._keyword_terms(run), tau, n)
            if near:
                extra = dict(self._keyword(" OR ".join(quote_fts(w) for w in near), run.where, run.args, run.pool,
                                           run.cfg.fts_weights))
                run.kw = {i: run.kw.get(i, 0.0) + lam * extra.get(i, 0.0) for i in set(run.kw) | set(extra)}
        return swapped(pipeline.Recall, "_retrieve", _retrieve)
    return patch


# --------------------------------------------------------------------------- bm25's k1 and b

def bm25_params(k1: float, b: float) -> Callable[[], contextlib.AbstractContextManager[None]]:
    """Keyword scores from the in-process keyword index (keyword_index.py: FTS5's bm25 exactly, at
    k1 1.2 and b 0.75) built afresh per store with other k1 / b. FTS5's own bm25() fixes both, so
    shipping other values would mean ranking with the in-process index on every path."""
    from memengine import keyword_index as ki

    @contextlib.contextmanager
    def patch() -> Iterator[None]:
        keyword0 = pipeline.Recall._keyword
        built: dict[str, Any] = {}

        def _keyword(self: Any, *args: Any, **kwargs: Any) -> Any:
            key = str(self.path)
            if key not in built:
                built[key] = ki.KeywordIndex(self.path, ki_weights)
                built[key].start()
                built[key].wait()
            self._keyword_index = built[key]
            try:
                return keyword0(self, *args, **kwargs)
            finally:
                self._keyword_index = None

        ki_weights = D.fts_weights
        with swapped(ki, "K1", k1), swapped(ki, "B", b), swapped(pipeline.Recall, "_keyword", _keyword):
            try:
                yield
            finally:
                for index in built.values():
                    index.close()
    return patch


# --------------------------------------------------------------------------- pool re-rankings

RANK0 = pipeline.Recall._rank
Rerank = Callable[[Any, list[Any]], dict[int, float]]  # (run, whole fused pool) -> new score per id


def reranked(fn: Rerank) -> Callable[[], contextlib.AbstractContextManager[None]]:
    """The engine's whole fused pool (its own ``_rank``), re-scored by ``fn``, cut to k."""
    def patch() -> contextlib.AbstractContextManager[None]:
        def _rank(self: Any, run: Any, explain: bool) -> list[Any]:
            if run.strategy != "hybrid":
                return RANK0(self, run, explain)
            pool = RANK0(self, replace(run, k=len(set(run.kw) | set(run.vs)) + 5), explain)
            new = fn(run, pool)
            return sorted(pool, key=lambda m: (-new[m.id], m.id))[: run.k]
        return swapped(pipeline.Recall, "_rank", _rank)
    return patch


def _minmax(d: dict[int, float]) -> dict[int, float]:
    lo, hi = min(d.values(), default=0.0), max(d.values(), default=0.0)
    return {k: (v - lo) / (hi - lo) if hi > lo else 1.0 for k, v in d.items()}


def rrf(k: int) -> Rerank:
    def fn(run: Any, pool: list[Any]) -> dict[int, float]:
        ids = {m.id for m in pool}
        vs = {i: run.combined[i] for i in ids if i in run.combined}
        kn, vn = _minmax(run.kw), _minmax(vs)
        rk = {i: n for n, i in enumerate(sorted(run.kw, key=lambda i: (-run.kw[i], i)))}
        rv = {i: n for n, i in enumerate(sorted(vs, key=lambda i: (-vs[i], i)))}
        out = {}
        for m in pool:
            prior = (m.score or 0.0) - run.cfg.w_keyword * kn.get(m.id, 0.0) - run.cfg.w_vector * vn.get(m.id, 0.0)
            base = sum((k + 1) / (k + r[m.id]) / 2 for r in (rk, rv) if m.id in r)  # the best possible is 1
            out[m.id] = base + prior
        return out
    return fn


def smooth(lam: float) -> Rerank:
    def fn(run: Any, pool: list[Any]) -> dict[int, float]:
        at = {(m.thread, m.position): m.score or 0.0 for m in pool if m.position is not None}
        return {m.id: (m.score or 0.0) + lam * max(
            [at[(m.thread, m.position + o)] for o in (-1, 1) if (m.thread, m.position + o) in at] or [0.0])
            if m.position is not None else (m.score or 0.0) for m in pool}
    return fn


def session(lam: float) -> Rerank:
    def fn(run: Any, pool: list[Any]) -> dict[int, float]:
        def key(m: Any) -> tuple[Any, str]:
            return m.thread, (m.event_at or "")[:10]
        best: dict[Any, list[float]] = defaultdict(list)
        for m in pool:
            best[key(m)].append(m.score or 0.0)
        top = {s: sum(sorted(v, reverse=True)[:3]) / 3 for s, v in best.items()}
        return {m.id: (m.score or 0.0) + lam * top[key(m)] for m in pool}
    return fn


def question(lam: float) -> Rerank:
    def fn(run: Any, pool: list[Any]) -> dict[int, float]:
        return {m.id: (m.score or 0.0) - lam * bare_text(m.content, m.author).split(" [shared image")[0].rstrip()
                .endswith("?") for m in pool}
    return fn


def coverage(lam: float) -> Rerank:
    def fn(run: Any, pool: list[Any]) -> dict[int, float]:
        names = {w for key in run.people for w in key.split()}
        qs = {t[:5] for t in query_terms(run.query) if t not in names}
        stems = {m.id: {w.lower()[:5] for w in TOKEN_RE.findall(bare_text(m.content, m.author))} & qs for m in pool}
        df = Counter(s for v in stems.values() for s in v)
        idf = {s: math.log(1 + len(pool) / (1 + df[s])) for s in qs}
        total = sum(idf.values()) or 1.0
        return {m.id: (m.score or 0.0) + lam * sum(idf[s] for s in stems[m.id]) / total for m in pool}
    return fn


# --------------------------------------------------------------------------- families

def _cols(i: int, f: float) -> RecallConfig:
    w = list(D.fts_weights)
    w[i] = round(w[i] * f, 4)
    return replace(D, fts_weights=tuple(w))


def families(directory: Path) -> dict[str, tuple[Variant, dict[str, Variant]]]:
    """name -> (baseline, {label: variant}); the baseline is the engine unless said otherwise."""
    engine: Variant = (None, D)
    vocab = Vocab(directory)
    cols = ("own text", "tags", "date terms", "near context", "far context")
    return {
        "possessive": ((possessive_off, D), {"possessive names (engine)": engine}),
        "first-person": (engine, {"first person -> User": (first_person(False), D),
                                  "first person -> User, you -> Assistant": (first_person(True), D),
                                  "first person -> User, w_person 0.1": (first_person(False), replace(D, w_person=0.1))}),
        "reply-human": (engine, {f"human replies only, w_reply {w}": (reply_human, replace(D, w_reply=w))
                                 for w in (0.05, 0.1, 0.15, 0.2)}),
        "columns": (engine, {f"{c} x{f}": (None, _cols(i, f)) for i, c in enumerate(cols) for f in (0.5, 2.0)}),
        "phrase": (engine, {f"w_phrase {w}": (None, replace(D, w_phrase=w)) for w in (0.05, 0.1, 0.2)}),
        "max-df": (engine, {f"max_df {w}": (None, replace(D, max_df=w)) for w in (0.1, 0.2, 0.3)}),
        "vocab": (engine, {f"λ {lam}, tau {tau}, n {n}": (vocab_expansion(vocab, lam, tau, n), D)
                           for lam, tau, n in ((0.1, 0.6, 3), (0.2, 0.6, 3), (0.3, 0.6, 3), (0.2, 0.7, 3),
                                               (0.2, 0.5, 5))}),
        "bm25": (engine, {f"k1 {k1}, b {b}": (bm25_params(k1, b), D)
                          for k1, b in ((1.2, 0.75), (0.6, 0.75), (0.9, 0.75), (1.6, 0.75), (2.0, 0.75), (1.2, 0.3),
                                        (1.2, 0.5), (1.2, 0.9))}),
        "rrf": (engine, {f"k {k}": (reranked(rrf(k)), D) for k in (5, 20, 60)}),
        "smooth": (engine, {f"λ {w}": (reranked(smooth(w)), D) for w in (0.05, 0.1, 0.2)}),
        "session": (engine, {f"λ {w}": (reranked(session(w)), D) for w in (0.05, 0.1, 0.2)}),
        "question": (engine, {f"λ {w}": (reranked(question(w)), D) for w in (0.02, 0.05, 0.1)}),
        "coverage": (engine, {f"λ {w}": (reranked(coverage(w)), D) for w in (0.02, 0.05, 0.1, 0.2)}),
    }


def scores(items: list[Any], variant: Variant) -> dict[str, dict[str, float]]:
    """Per-question metrics of one variant (a fresh Scorer: patches change what a config means)."""
    patch, cfg = variant
    with patch() if patch else contextlib.nullcontext():
        return loo.Scorer(items, None, check=3).scores(cfg)


def judge(items: list[Any], name: str, base: dict[str, dict[str, float]],
          variants: dict[str, dict[str, dict[str, float]]]) -> list[Any]:
    """One table row: the best variant in-sample, and leave-one-out over {baseline} ∪ variants."""
    options = {"baseline*": base, **variants}
    chosen = loo.loo_choose(items, options)
    ho = loo.held_out(items, chosen, options)
    best = max(variants, key=lambda lab: loo.objective(items, variants[lab]))
    row: list[Any] = [name, len(variants), best]
    gains = []
    for s in loo.SETS:
        its = loo.by_set(items, s)
        b, v, h = (loo.set_metrics(its, x) for x in (base, variants[best], ho))
        gains.append(h["recall@5"] - b["recall@5"])
        row += [f"{b['recall@5']:.3f} / {v['recall@5']:.3f} / {h['recall@5']:.3f}",
                f"{v['recall@5'] - b['recall@5']:+.3f} ±{2 * loo.paired_se(its, variants[best], base):.3f}",
                f"{h['recall@5'] - b['recall@5']:+.3f}", f"{v['recall@10'] - b['recall@10']:+.3f}",
                f"{b['multi_all@10']:.3f} / {v['multi_all@10']:.3f} / {h['multi_all@10']:.3f}"]
    n_on = sum(1 for lab in chosen.values() if lab != "baseline*")
    g = sum(gains) / 2
    row += [f"{n_on}/{len(chosen)}", f"{g:+.4f}", "keep" if g > 0 else "drop" if g < 0 else "no effect"]
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", metavar="DIR", required=True, help="dev stores (as bench/loo.py) and word vectors")
    ap.add_argument("--only", default="", help="comma list of families (default: all)")
    args = ap.parse_args(argv)
    for p in (Path(DEFAULT_LOCOMO), Path(DEFAULT_DATA)):
        if not p.exists():
            print(f"error: dev data not found: {p}", file=sys.stderr)
            return 2
    directory = Path(args.reuse)
    items = loo.load_items(Path(DEFAULT_LOCOMO), Path(DEFAULT_DATA), Path(DEFAULT_QUESTIONS), directory)
    only = {s.strip() for s in args.only.split(",") if s.strip()}
    rows, detail = [], []
    engine = None
    for name, (baseline, variants) in families(directory).items():
        if only and name not in only:
            continue
        log(f"family {name}: {len(variants)} variants")
        if baseline == (None, D):
            engine = engine or scores(items, baseline)
            base = engine
        else:
            base = scores(items, baseline)
        got = {lab: scores(items, v) for lab, v in variants.items()}
        rows.append(judge(items, name, base, got))
        for lab, sc in {"baseline": base, **got}.items():
            m = [loo.set_metrics(loo.by_set(items, s), sc) for s in loo.SETS]
            detail.append([name, lab, *[f"{x['recall@5']:.4f} / {x['recall@10']:.4f} / {x['multi_all@10']:.3f}"
                                        for x in m]])
    print("# New mechanisms on both dev sets (LoCoMo dev 760 questions, real chats 192); objective: mean recall@5\n")
    print(md_table(["family", "variants", "best in-sample", "LoCoMo r@5 base / best / LOO", "LoCoMo gain in-sample",
                    "LoCoMo gain LOO", "LoCoMo r@10 gain", "LoCoMo multi all@10 base / best / LOO",
                    "real r@5 base / best / LOO", "real gain in-sample", "real gain LOO", "real r@10 gain",
                    "real multi all@10 base / best / LOO", "folds choosing a variant", "mean LOO gain", "verdict"],
                   rows))
    print("\nLOO: each fold (a LoCoMo conversation or a real chat) scored by the option (baseline or a variant) with "
          "the best mean recall@5 of the two sets on all other folds; gains against the baseline; ± two paired "
          "standard errors.\n")
    print("## Every variant, in-sample: recall@5 / recall@10 / multi-hop all@10\n")
    print(md_table(["family", "variant", "LoCoMo", "real chats"], detail))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
