"""Recall on unseen conversations, round 6: reply pairs (short answers) and multi-hop tails.

Judged like round 5 (bench/recall_unseen.py: loo.py's Scorer, whose first questions per variant
also go through ``recall()``; leave-one-conversation-out over the 28 folds of both dev sets, the
objective the mean of the two sets' recall@5; kept only if the held-out gain is positive on both
sets, or positive on one and >= 0 on the other). Each row also counts the folds whose held-out
recall@5 rose / fell / stayed.

A. Short turns whose meaning is the question before them:

* ``short-reply`` — the engine's ``w_short_reply`` (memengine/recall/replypair.py): a reply of at
  most 12 words by another author than the question's inherits more of its question's score;
* ``pair-length`` — the engine's ``pair_length``: a reply's length prior counts its question's words;
* ``pair-vector`` — (applied from here) a reply's vector score is also taken from the unit vector
  of its own vector + beta x its question's (a reply-pair vector; the better of that and its
  context cosine);
* ``pair-vector-short`` — the same for replies of at most 6 / 12 words only;
* ``short-own`` — a turn of at most 4 / 8 / 12 words scored by the better of its own and context cosine;
* ``reply-burst`` — the reply prior pairs a question with the first turn by someone else within 1-3
  positions (the nearest question before it);
* ``reply-own`` — the turn after a question turn gains lambda x the question's own cosine;
* ``bare-vectors`` — own vectors embedded from the bare text (no "Author:" label), context vectors
  rebuilt from them by the engine's rule; judged against the same rebuild from the stored vectors;
* ``term-coverage`` — w_keyword lowered by delta x the share of the question's words no memory holds;
* ``answer-pull`` — (from here) the turn right after a candidate question, by another author,
  joins the candidates even when neither retriever found it (then scored by fusion as usual).

B. Multi-hop, ranks 6-10 (recall@5 cannot move):

* ``entity-tail`` — a pool member shares a rare entity (a capitalised word or a number, not in
  the question, in at most 10 % of the pool) with a top-5 hit: + lambda;
* ``episode-tail`` — a pool member from a session none of the top 5 is in: + lambda (the
  opposite of ``smooth``: other sessions hold the other hop).

    .venv/bin/python bench/recall_round6.py --reuse /tmp/recall6                # every family, ~30 min loaded
    .venv/bin/python bench/recall_round6.py --reuse /tmp/recall6 --only short-reply,pair-length
"""

from __future__ import annotations

import argparse
import contextlib
import re
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import loo  # noqa: E402
from bench.common import DEFAULT_LOCOMO, log, md_table  # noqa: E402
from bench.realchat import DEFAULT_DATA, DEFAULT_QUESTIONS  # noqa: E402
from bench.recall_unseen import RANK0, Rerank, Variant, reranked, scores, swapped  # noqa: E402
from memengine.recall import pipeline  # noqa: E402
from memengine.recall.config import RecallConfig  # noqa: E402
from memengine.text import bare_text, query_terms  # noqa: E402

D = RecallConfig()


# --------------------------------------------------------------------------- A: reply pairs

def _turns(store: Any, ids: list[int]) -> dict[int, tuple[Any, Any, Any, str]]:
    """id -> (thread, position, author, content) of each id."""
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    return {r[0]: tuple(r[1:]) for r in store.conn.execute(
        f"SELECT id, thread, position, author, content FROM memories WHERE id IN ({marks})", ids)}


def _question_before(store: Any, ids: list[int]) -> dict[int, int]:
    """reply id -> id of the turn just before it when that turn asks something and is by someone else."""
    rows = _turns(store, ids)
    out: dict[int, int] = {}
    for mid, (thread, pos, author, _c) in rows.items():
        if thread is None or pos is None:
            continue
        r = store.conn.execute("SELECT id, author, content FROM memories WHERE thread = ? AND position = ? "
                               "AND status = 'active'", (thread, pos - 1)).fetchone()
        if r is not None and r[1] != author and "?" in bare_text(r[2], r[1]):
            out[mid] = r[0]
    return out


def _short(content: str, author: Any, max_words: int) -> bool:
    from memengine.text import count_words

    return count_words(bare_text(content, author), max_words + 1) <= max_words


def pair_vector(beta: float, max_words: int = 0) -> Callable[[], contextlib.AbstractContextManager[None]]:
    """``max_words`` > 0: only replies of at most that many words get a pair vector."""
    import numpy as np

    from memengine.vectors import scan_vectors

    retrieve0 = pipeline.Recall._retrieve

    def patch() -> contextlib.AbstractContextManager[None]:
        def _retrieve(self: Any, run: Any) -> None:
            retrieve0(self, run)
            if run.strategy != "hybrid" or run.qvec is None:
                return
            cand = sorted(set(run.kw) | set(run.vs))
            q_of = _question_before(self, cand)
            if max_words:
                rows = _turns(self, sorted(q_of))
                q_of = {m: q for m, q in q_of.items() if _short(rows[m][3], rows[m][2], max_words)}
            if not q_of:
                return
            ids, mat = scan_vectors(self.conn, set(q_of) | set(q_of.values()))
            vec = {i: mat[n].astype(np.float32) for n, i in enumerate(ids)}
            qv = np.asarray(run.qvec, dtype=np.float32)
            qv = qv / (np.linalg.norm(qv) or 1.0)
            for m, q in q_of.items():
                if m not in vec or q not in vec:
                    continue
                a, b = vec[m] / (np.linalg.norm(vec[m]) or 1.0), vec[q] / (np.linalg.norm(vec[q]) or 1.0)
                p = a + beta * b
                cos = float(qv @ (p / (np.linalg.norm(p) or 1.0)))
                if cos > run.combined.get(m, -1.0):
                    run.combined[m] = cos
                    if m in run.vs:
                        run.vs[m] = cos
        return swapped(pipeline.Recall, "_retrieve", _retrieve)
    return patch


def short_own(max_words: int) -> Callable[[], contextlib.AbstractContextManager[None]]:
    """A short turn's vector score is the better of its own and its context cosine (the context vector
    blends its neighbours into a turn that may match the question on its own: "where's the marathon?")."""
    import numpy as np

    from memengine.vectors import scan_vectors

    retrieve0 = pipeline.Recall._retrieve

    def patch() -> contextlib.AbstractContextManager[None]:
        def _retrieve(self: Any, run: Any) -> None:
            retrieve0(self, run)
            if run.strategy != "hybrid" or run.qvec is None:
                return
            rows = _turns(self, sorted(set(run.kw) | set(run.vs)))
            short = [m for m, r in rows.items() if r[0] is not None and _short(r[3], r[2], max_words)]
            if not short:
                return
            ids, mat = scan_vectors(self.conn, set(short))
            qv = np.asarray(run.qvec, dtype=np.float32)
            qv = qv / (np.linalg.norm(qv) or 1.0)
            for n, m in enumerate(ids):
                v = mat[n].astype(np.float32)
                cos = float(qv @ (v / (np.linalg.norm(v) or 1.0)))
                if cos > run.combined.get(m, -1.0):
                    run.combined[m] = cos
                    if m in run.vs:
                        run.vs[m] = cos
        return swapped(pipeline.Recall, "_retrieve", _retrieve)
    return patch


def reply_burst(span: int, other_only: bool) -> Callable[[], contextlib.AbstractContextManager[None]]:
    """The reply prior's pairs: a question turn and the first turn after it by someone else, up to
    ``span`` positions on (the asker may add a message before the answer comes); ``other_only`` False
    keeps the engine's pair (the very next turn, whoever wrote it) as well."""
    from memengine.context import CONTEXT_MAX_GAP_HOURS
    from memengine.recall import fusion as fusion_mod
    from memengine.timeparse import from_iso

    replies0 = fusion_mod.replies

    def replies(rows: dict[int, Any]) -> dict[int, int]:
        out = {} if other_only else dict(replies0(rows))
        by_pos = {(m.thread, m.position): m for m in rows.values() if m.thread is not None and m.position is not None}
        # the latest question first: a reply pairs with the nearest question before it
        for m in sorted(rows.values(), key=lambda c: -(c.position or 0)):
            if m.thread is None or m.position is None or "?" not in bare_text(m.content, m.author):
                continue
            for o in range(1, span + 1):
                nxt = by_pos.get((m.thread, m.position + o))
                if nxt is None:
                    break
                if nxt.author == m.author:
                    continue
                t0, t1 = from_iso(m.event_at), from_iso(nxt.event_at)
                if t0 is None or t1 is None or abs((t1 - t0).total_seconds()) <= CONTEXT_MAX_GAP_HOURS * 3600:
                    out.setdefault(nxt.id, m.id)
                break
        return out

    def patch() -> contextlib.AbstractContextManager[None]:
        return swapped(fusion_mod, "replies", replies)
    return patch


_OWN: dict[tuple[str, str], dict[int, float]] = {}  # (store, query) -> own cosine of every candidate


def _own_cosines(store: Any, run: Any, ids: list[int]) -> dict[int, float]:
    import numpy as np

    from memengine.vectors import scan_vectors

    key = (str(store.path), run.query)
    if key not in _OWN:
        got, mat = scan_vectors(store.conn, set(ids))
        qv = np.asarray(run.qvec, dtype=np.float32)
        qv = qv / (np.linalg.norm(qv) or 1.0)
        m = mat.astype(np.float32)
        sims = (m / np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-9)) @ qv
        _OWN[key] = dict(zip((int(i) for i in got), sims.tolist()))
    return _OWN[key]


def reply_own(lam: float, span: int = 3) -> Rerank:
    """The answer after a question turn that asks what the query asks: + lam x the question's OWN
    cosine (min-max over the candidates), not its fused score (which its context vector dilutes:
    "where's the marathon?" is the best own cosine of the chat and 8th by context cosine)."""
    def fn(run: Any, pool: list[Any]) -> dict[int, float]:
        out = {m.id: m.score or 0.0 for m in pool}
        if run.qvec is None:
            return out
        own = _own_cosines(run.store, run, [m.id for m in pool])
        lo, hi = min(own.values(), default=0.0), max(own.values(), default=1.0)
        by_pos = {(m.thread, m.position): m for m in pool if m.thread is not None and m.position is not None}
        for m in pool:
            if m.thread is None or m.position is None or m.id not in own:
                continue
            if "?" not in bare_text(m.content, m.author):
                continue
            for o in range(1, span + 1):
                nxt = by_pos.get((m.thread, m.position + o))
                if nxt is None:
                    break
                if nxt.author != m.author:
                    out[nxt.id] += lam * (own[m.id] - lo) / ((hi - lo) or 1.0)
                    break
        return out
    return fn


class BareVectors:
    """Every chat turn's own vector embedded from its bare text (no "Author:" label, no "[date]"), and
    its context vector rebuilt from those by the engine's rule (context.py: own + 0.6 x the turns at
    +-1 + 0.36 x those at +-2, same thread, within CONTEXT_MAX_GAP_HOURS); ``bare`` False rebuilds
    the same matrices from the stored vectors (the control: the engine's cosines in float32)."""

    def __init__(self, directory: Path, bare: bool) -> None:
        self.dir, self.bare = directory / "bare", bare
        self.mats: dict[str, tuple[Any, Any, Any, Any]] = {}

    def of(self, store: Any) -> tuple[Any, Any, Any, Any]:
        import hashlib

        import numpy as np

        from memengine.context import CONTEXT_MAX_GAP_HOURS, CONTEXT_VEC_DECAY
        from memengine.timeparse import from_iso

        key = str(store.path)
        if key in self.mats:
            return self.mats[key]
        rows = store.conn.execute("SELECT id, content, author, thread, position, event_at FROM memories "
                                  "WHERE status = 'active' ORDER BY thread, position, id").fetchall()
        own = store.vectors([r[0] for r in rows])
        has_ctx = set(store.vectors([r[0] for r in rows], "vec_contexts"))
        if self.bare:
            f = self.dir / (hashlib.sha256(key.encode()).hexdigest()[:16] + ".npz")
            todo = [r for r in rows if r[0] in own and r[4] is not None and bare_text(r[1], r[2]) != r[1]]
            if f.exists():
                z = np.load(f)
                got = dict(zip(z["ids"].tolist(), z["vecs"]))
            else:
                from embedder import get_embedder

                vecs = get_embedder().embed([bare_text(r[1], r[2]) or r[1] for r in todo], 64) if todo else []
                from memengine.vectors import as_stored

                got = {r[0]: as_stored(vecs[i]) for i, r in enumerate(todo)}  # at stored precision
                self.dir.mkdir(parents=True, exist_ok=True)
                np.savez(f, ids=np.array(list(got), dtype=np.int64),
                         vecs=np.array(list(got.values()), dtype=np.float32).reshape(len(got), -1))
            own = {**own, **got}
        ctx: dict[int, Any] = {}
        for i, r in enumerate(rows):
            if r[0] not in has_ctx or r[0] not in own:
                continue
            v = own[r[0]].astype(np.float32).copy()
            t = from_iso(r[5])
            for j in range(max(0, i - 2), min(len(rows), i + 3)):
                o = rows[j]
                if j == i or o[3] != r[3] or o[4] is None or r[4] is None or o[0] not in own:
                    continue
                dist = abs(o[4] - r[4])
                tj = from_iso(o[5])
                if dist == 0 or dist > 2 or (t and tj and abs((t - tj).total_seconds()) > CONTEXT_MAX_GAP_HOURS * 3600):
                    continue
                v += (CONTEXT_VEC_DECAY ** dist) * own[o[0]]
            ctx[r[0]] = v / (np.linalg.norm(v) or 1.0)
        oid = np.array(list(own), dtype=np.int64)
        om = np.array([own[i] / (np.linalg.norm(own[i]) or 1.0) for i in oid], dtype=np.float32)
        cid = np.array(list(ctx), dtype=np.int64)
        cm = np.array([ctx[i] for i in cid], dtype=np.float32).reshape(len(cid), -1)
        self.mats[key] = (oid, om, cid, cm)
        return self.mats[key]


def bare_vectors(bv: BareVectors) -> Callable[[], contextlib.AbstractContextManager[None]]:
    import numpy as np

    def patch() -> contextlib.AbstractContextManager[None]:
        def _scan_vectors(self: Any, run: Any, want: int) -> tuple[dict[int, float], dict[int, float]]:
            oid, om, cid, cm = bv.of(self)
            q = np.asarray(run.qvec, dtype=np.float32)
            q = q / (np.linalg.norm(q) or 1.0)

            def top(ids: Any, mat: Any) -> dict[int, float]:
                if not len(ids):
                    return {}
                sims = mat @ q
                order = np.argsort(-sims, kind="stable")[:want]
                return {int(ids[i]): float(sims[i]) for i in order}
            return top(oid, om), (top(cid, cm) if run.cfg.context_vectors else {})
        return swapped(pipeline.Recall, "_scan_vectors", _scan_vectors)
    return patch


def term_coverage(delta: float) -> Callable[[], contextlib.AbstractContextManager[None]]:
    """Less keyword weight when the question's words are not in the store at all (an English question
    over a French chat): w_keyword - delta x the share of its content words no memory holds (w_vector
    the rest). Min-max puts the best keyword candidate at 1 however little of the question it matched."""
    def patch() -> contextlib.AbstractContextManager[None]:
        def _rank(self: Any, run: Any, explain: bool) -> list[Any]:
            if run.strategy != "hybrid":
                return RANK0(self, run, explain)
            terms = self._keyword_terms(run)
            shares = self.doc_shares(terms) if terms else {}
            missing = sum(1 for t in terms if shares.get(t, 0.0) <= 0.0) / len(terms) if terms else 0.0
            if not missing:
                return RANK0(self, run, explain)
            wk = max(0.0, run.cfg.w_keyword - delta * missing)
            return RANK0(self, replace(run, cfg=replace(run.cfg, w_keyword=wk, w_vector=round(1 - wk, 6))), explain)
        return swapped(pipeline.Recall, "_rank", _rank)
    return patch


def answer_pull() -> contextlib.AbstractContextManager[None]:
    """The next turn (by another author) of every candidate question joins the candidates."""
    retrieve0 = pipeline.Recall._retrieve

    def _retrieve(self: Any, run: Any) -> None:
        retrieve0(self, run)
        if run.strategy != "hybrid":
            return
        cand = set(run.kw) | set(run.vs)
        floor = min(run.kw.values(), default=0.0)  # at the keyword side's floor: normalisation unchanged
        rows = _turns(self, sorted(cand))
        for _mid, (thread, pos, author, content) in rows.items():
            if thread is None or pos is None or "?" not in bare_text(content, author):
                continue
            r = self.conn.execute("SELECT id, author FROM memories WHERE thread = ? AND position = ? "
                                  "AND status = 'active'", (thread, pos + 1)).fetchone()
            if r is not None and r[1] != author and r[0] not in cand:
                run.kw[r[0]] = floor  # a candidate found by neither side: scored at the keyword floor
    return swapped(pipeline.Recall, "_retrieve", _retrieve)


# --------------------------------------------------------------------------- B: multi-hop tails

_ENTITY = re.compile(r"\b(?:[A-ZÀ-Ý][\w'’-]{2,}|\d[\d.,:/-]*)\b")


def _entities(text: str) -> set[str]:
    # capitalised words not at the start of a sentence are the names; numbers count as they are
    out = set()
    for m in _ENTITY.finditer(text):
        start = m.start()
        before = text[:start].rstrip()
        if m.group(0)[0].isupper() and (not before or before[-1] in ".!?:"):
            continue
        out.add(m.group(0).lower().rstrip("'’s"))
    return out


def entity_tail(lam: float, max_share: float = 0.1) -> Rerank:
    def fn(run: Any, pool: list[Any]) -> dict[int, float]:
        q = set(query_terms(run.query)) | {w.lower() for w in re.findall(r"\w+", run.query)}
        ents = {m.id: _entities(bare_text(m.content, m.author)) - q for m in pool}
        df = Counter(e for v in ents.values() for e in v)
        limit = max(2, max_share * len(pool))
        top = set().union(*(ents[m.id] for m in pool[:5])) if pool else set()
        rare_top = {e for e in top if df[e] <= limit}
        out = {}
        for n, m in enumerate(pool):
            s = m.score or 0.0
            if n >= 5 and ents[m.id] & rare_top:
                s += lam
            out[m.id] = s if n >= 5 else s + 100.0  # the top 5 never move
        return out
    return fn


def episode_tail(lam: float) -> Rerank:
    def fn(run: Any, pool: list[Any]) -> dict[int, float]:
        def key(m: Any) -> tuple[Any, str]:
            return m.thread, (m.event_at or "")[:10]
        top = {key(m) for m in pool[:5]}
        return {m.id: (m.score or 0.0) + (100.0 if n < 5 else lam * (key(m) not in top))
                for n, m in enumerate(pool)}
    return fn


def reranked_store(fn: Rerank) -> Callable[[], contextlib.AbstractContextManager[None]]:
    """``reranked`` with the store reachable from the run (``run.store``)."""
    def patch() -> contextlib.AbstractContextManager[None]:
        def _rank(self: Any, run: Any, explain: bool) -> list[Any]:
            if run.strategy != "hybrid":
                return RANK0(self, run, explain)
            pool = RANK0(self, replace(run, k=len(set(run.kw) | set(run.vs)) + 5), explain)
            run.store = self
            new = fn(run, pool)
            return sorted(pool, key=lambda m: (-new[m.id], m.id))[: run.k]
        return swapped(pipeline.Recall, "_rank", _rank)
    return patch


# --------------------------------------------------------------------------- families and judging

def families(directory: Path) -> dict[str, tuple[Variant, dict[str, Variant]]]:
    engine: Variant = (None, D)
    return {
        "bare-vectors": ((bare_vectors(BareVectors(directory, False)), D), {
            "own and context vectors from the bare text": (bare_vectors(BareVectors(directory, True)), D)}),
        "short-reply": (engine, {f"w_short_reply {w}": (None, replace(D, w_short_reply=w))
                                 for w in (0.05, 0.1, 0.2, 0.3)}),
        "pair-length": (engine, {"pair_length": (None, replace(D, pair_length=True))}),
        "short-reply+pair-length": (engine, {f"w_short_reply {w}, pair_length": (
            None, replace(D, w_short_reply=w, pair_length=True)) for w in (0.05, 0.1, 0.2)}),
        "pair-vector": (engine, {f"beta {b}": (pair_vector(b), D) for b in (0.5, 1.0, 2.0)}),
        "pair-vector-short": (engine, {f"beta {b}, <= {n} words": (pair_vector(b, n), D)
                                       for b, n in ((0.5, 12), (1.0, 12), (1.0, 6), (2.0, 12))}),
        "short-own": (engine, {f"<= {n} words": (short_own(n), D) for n in (4, 8, 12)}),
        "reply-burst": (engine, {f"first other author within {n}{', also the next turn' if not o else ''}, "
                                 f"w_reply {w}": (reply_burst(n, o), replace(D, w_reply=w))
                                 for n, o, w in ((1, True, 0.05), (3, True, 0.05), (3, False, 0.05), (3, True, 0.1),
                                                 (3, False, 0.1))}),
        "reply-own": (engine, {f"λ {w}": (reranked_store(reply_own(w)), D) for w in (0.05, 0.1, 0.2)}),
        "term-coverage": (engine, {f"δ {d}": (term_coverage(d), D) for d in (0.1, 0.2, 0.3, 0.5)}),
        "answer-pull": (engine, {"next turn of a candidate question": (answer_pull, D),
                                 "+ w_short_reply 0.1": (answer_pull, replace(D, w_short_reply=0.1))}),
        "entity-tail": (engine, {f"λ {w}": (reranked(entity_tail(w)), D) for w in (0.02, 0.05, 0.1)}),
        "episode-tail": (engine, {f"λ {w}": (reranked(episode_tail(w)), D) for w in (0.02, 0.05, 0.1)}),
    }


def fold_signs(items: list[Any], base: dict[str, dict[str, float]], ho: dict[str, dict[str, float]],
               s: str) -> str:
    """Folds of set ``s`` whose held-out recall@5 rose / fell / stayed against the baseline."""
    up = down = same = 0
    for fold in sorted({it.fold for it in items if it.set == s}):
        its = [it for it in items if it.fold == fold]
        d = loo.mean([ho[it.key]["recall@5"] for it in its]) - loo.mean([base[it.key]["recall@5"] for it in its])
        up, down, same = up + (d > 1e-9), down + (d < -1e-9), same + (abs(d) <= 1e-9)
    return f"+{up} / −{down} / ={same}"


def judge(items: list[Any], name: str, base: dict[str, dict[str, float]],
          variants: dict[str, dict[str, dict[str, float]]]) -> list[Any]:
    """One row: the best variant in-sample, the leave-one-out choice per fold, gains and fold signs."""
    options = {"baseline*": base, **variants}
    chosen = loo.loo_choose(items, options)
    ho = loo.held_out(items, chosen, options)
    best = max(variants, key=lambda lab: loo.objective(items, variants[lab]))
    row: list[Any] = [name, best]
    gains = []
    for s in loo.SETS:
        its = loo.by_set(items, s)
        b, v, h = (loo.set_metrics(its, x) for x in (base, variants[best], ho))
        gains.append(h["recall@5"] - b["recall@5"])
        row += [f"{b['recall@5']:.3f} / {v['recall@5']:.3f} / {h['recall@5']:.3f}",
                f"{v['recall@5'] - b['recall@5']:+.3f} ±{2 * loo.paired_se(its, variants[best], base):.3f}",
                f"{h['recall@5'] - b['recall@5']:+.3f}", fold_signs(items, base, ho, s),
                f"{v['recall@10'] - b['recall@10']:+.3f}",
                f"{b['multi_all@10']:.3f} / {v['multi_all@10']:.3f} / {h['multi_all@10']:.3f}"]
    n_on = sum(1 for lab in chosen.values() if lab != "baseline*")
    ok = (min(gains) >= 0 and max(gains) > 0)
    row += [f"{n_on}/{len(chosen)}", "keep" if ok else "drop" if min(gains) < 0 or max(gains) < 0 else "no effect"]
    return row


TAIL = ("entity-tail", "episode-tail")  # ranks 6-10 only: judged on all-evidence@10, recall@5 cannot move


def judge_tail(items: list[Any], name: str, base: dict[str, dict[str, float]],
               variants: dict[str, dict[str, dict[str, float]]]) -> list[Any]:
    """A tail family's row: leave-one-out with all-evidence@10 (every question) as the objective;
    held-out all@10, multi-hop all@10 and recall@10 per set, with the folds' signs on all@10."""
    old = loo.OBJECTIVE
    loo.OBJECTIVE = "all@10"
    try:
        options = {"baseline*": base, **variants}
        chosen = loo.loo_choose(items, options)
        best = max(variants, key=lambda lab: loo.objective(items, variants[lab]))
    finally:
        loo.OBJECTIVE = old
    ho = loo.held_out(items, chosen, options)
    row: list[Any] = [name, best]
    gains = []
    for s in loo.SETS:
        its = loo.by_set(items, s)
        b, h = (loo.set_metrics(its, x) for x in (base, ho))
        all_b = loo.mean([base[it.key]["all@10"] for it in its])
        all_h = loo.mean([ho[it.key]["all@10"] for it in its])
        all_v = loo.mean([variants[best][it.key]["all@10"] for it in its])
        gains.append(all_h - all_b)
        up = down = 0
        for fold in sorted({it.fold for it in its}):
            f = [it for it in its if it.fold == fold]
            d = loo.mean([ho[it.key]["all@10"] for it in f]) - loo.mean([base[it.key]["all@10"] for it in f])
            up, down = up + (d > 1e-9), down + (d < -1e-9)
        row += [f"{all_b:.3f} / {all_v:.3f} / {all_h:.3f}", f"+{up} / −{down}",
                f"{b['multi_all@10']:.3f} / {h['multi_all@10']:.3f}", f"{h['recall@10'] - b['recall@10']:+.3f}"]
    ok = min(gains) >= 0 and max(gains) > 0
    row += [f"{sum(1 for lab in chosen.values() if lab != 'baseline*')}/{len(chosen)}",
            "keep" if ok else "drop" if min(gains) < 0 else "no effect"]
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", metavar="DIR", required=True, help="dev stores (as bench/loo.py)")
    ap.add_argument("--only", default="", help="comma list of families (default: all)")
    args = ap.parse_args(argv)
    for p in (Path(DEFAULT_LOCOMO), Path(DEFAULT_DATA)):
        if not p.exists():
            print(f"error: dev data not found: {p}", file=sys.stderr)
            return 2
    items = loo.load_items(Path(DEFAULT_LOCOMO), Path(DEFAULT_DATA), Path(DEFAULT_QUESTIONS), Path(args.reuse))
    only = {s.strip() for s in args.only.split(",") if s.strip()}
    rows, detail, tails = [], [], []
    engine = None
    for name, (baseline, variants) in families(Path(args.reuse)).items():
        if only and name not in only:
            continue
        log(f"family {name}: {len(variants)} variants")
        if baseline == (None, D):
            engine = engine or scores(items, baseline)
            base = engine
        else:  # a control: the engine's mechanism rebuilt by the script, against which its variants are judged
            base = scores(items, baseline)
            if engine is None:
                engine = scores(items, (None, D))
            got_e = loo.set_metrics(loo.by_set(items, "locomo"), engine)
            got_b = loo.set_metrics(loo.by_set(items, "locomo"), base)
            log(f"  control vs engine, LoCoMo r@5: {got_b['recall@5']} vs {got_e['recall@5']}")
        got = {lab: scores(items, v) for lab, v in variants.items()}
        rows.append(judge(items, name, base, got))
        if name in TAIL:
            tails.append(judge_tail(items, name, base, got))
        for lab, sc in {"baseline": base, **got}.items():
            m = [loo.set_metrics(loo.by_set(items, s), sc) for s in loo.SETS]
            detail.append([name, lab, *[f"{x['recall@5']:.4f} / {x['recall@10']:.4f} / {x['multi_all@10']:.3f}"
                                        for x in m]])
    print("# Round 6 on both dev sets (LoCoMo dev 760 questions, real chats 192); objective: mean recall@5\n")
    print(md_table(["family", "best in-sample", "LoCoMo r@5 base / best / LOO", "LoCoMo gain in-sample",
                    "LoCoMo gain LOO", "LoCoMo folds held-out +/−/=", "LoCoMo r@10 gain",
                    "LoCoMo multi all@10 base / best / LOO", "real r@5 base / best / LOO", "real gain in-sample",
                    "real gain LOO", "real folds held-out +/−/=", "real r@10 gain",
                    "real multi all@10 base / best / LOO", "folds choosing a variant", "verdict"], rows))
    print("\nLOO: each fold scored by the option (baseline or a variant) with the best mean recall@5 of the two "
          "sets on all other folds; gains against the baseline; ± two paired standard errors. Kept only if the "
          "held-out gain is > 0 on one set and >= 0 on the other.\n")
    if tails:
        print("## Tail families judged on all-evidence@10 (every question), leave-one-out\n")
        print(md_table(["family", "best in-sample", "LoCoMo all@10 base / best / LOO", "LoCoMo folds +/−",
                        "LoCoMo multi all@10 base / LOO", "LoCoMo r@10 LOO gain", "real all@10 base / best / LOO",
                        "real folds +/−", "real multi all@10 base / LOO", "real r@10 LOO gain",
                        "folds choosing a variant", "verdict"], tails))
        print()
    print("## Every variant, in-sample: recall@5 / recall@10 / multi-hop all@10\n")
    print(md_table(["family", "variant", "LoCoMo", "real chats"], detail))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
