"""Fusion: each retriever's scores on one scale, their weighted sum, and the priors on top.

``fuse`` scores a recall's candidates. It is exact and lazy at once: with ``k``, only the
candidates that can still reach the top k get their costly priors computed (see
``Fusion.top_k``); the top k equals the one of scoring every candidate (tested).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Iterable

from memengine import timeparse
from memengine.recall.answerable import answer_share
from memengine.recall.calendar_words import OTHER_CALENDAR_WORDS, says_calendar
from memengine.recall.config import (
    LENGTH_FULL_WORDS,
    NORMALISE,
    W_IMPORTANCE,
    W_STRENGTH,
    Z_MIN_SCORES,
    Z_SCALE,
    RecallConfig,
)
from memengine.recall.few_scores import all_notes, few_scale
from memengine.recall.keyword_floor import NO_IDF_SCORE
from memengine.recall.priors import TIME_WORD_RE, asks_amount, asks_when, in_spans, replies
from memengine.recall.replypair import pair_words, short_reply_weight
from memengine.records import Candidate
from memengine.text import bare_text, count_words

# Given the top k scored so far, the ids of further candidates to score (episode members).
More = Callable[[list[Candidate]], Iterable[int]]


def normalise_scores(d: dict[int, float], how: str = NORMALISE, z_scale: float = Z_SCALE) -> dict[int, float]:
    """One retriever's scores on the common scale of fusion (see NORMALISE).

    ``minmax`` maps the lowest to 0 and the highest to 1; ``zscore`` maps each score to
    z_scale · (its z-score − the lowest z-score), so the lowest is 0 too and the spread is
    set by the standard deviation, not by the extremes; with fewer than Z_MIN_SCORES
    scores it is min-max. Equal scores all get 1: each was found, which beats not being
    found (0).
    """
    if not d:
        return {}
    import numpy as np

    vals = np.fromiter(d.values(), dtype=np.float64, count=len(d))
    lo, hi = float(vals.min()), float(vals.max())
    if hi - lo <= 1e-12:
        return dict.fromkeys(d, 1.0)
    if how == "minmax" or len(vals) < Z_MIN_SCORES:
        f = 1.0 / (hi - lo)
    elif how == "zscore":
        f = z_scale / float(vals.std())
    elif how == "blend":
        # (round 18, off) the mean of the two: min-max's scale from the extremes, the z-score's from the bulk
        f = (1.0 / (hi - lo) + z_scale / float(vals.std())) / 2
    else:
        raise ValueError(f"unknown normalisation {how!r}")
    return dict(zip(d, ((vals - lo) * f).tolist()))


def combine_sims(own: dict[int, float], ctx: dict[int, float], mix: float | None,
                  own_floor: float) -> dict[int, float]:
    """Vector score per memory from its own and its context vector's cosine.

    ``mix`` None: the larger of the two (max-similarity); else (1 - mix)·own + mix·context,
    and a memory without a context vector (a note, or one past the context kNN horizon)
    is scored by its own vector. A memory missing from ``own`` gets ``own_floor``.
    """
    ids = own.keys() | ctx.keys()
    if mix is None or not ctx:
        return {mid: max(own.get(mid, -1.0), ctx.get(mid, -1.0)) for mid in ids}
    if mix == 1.0:  # the default: the context cosine where there is one (the formula below, exactly)
        return {**own, **ctx}
    return {mid: (1 - mix) * own.get(mid, own_floor) + mix * ctx.get(mid, own.get(mid, own_floor)) for mid in ids}



def peakedness(d: dict[int, float]) -> float:
    """How far one retriever's best score stands out of its list: the best score's z-score over the list
    (0 for fewer than Z_MIN_SCORES scores or all equal)."""
    if len(d) < Z_MIN_SCORES:
        return 0.0
    import numpy as np

    vals = np.fromiter(d.values(), dtype=np.float64, count=len(d))
    sd = float(vals.std())
    return (float(vals.max()) - float(vals.mean())) / sd if sd > 1e-12 else 0.0


def peaked_weights(kw: dict[int, float], vs: dict[int, float], wk: float, wv: float,
                   shift: float) -> tuple[float, float]:
    """The keyword and vector weights for one query (round 19, off by default): ``shift`` of their sum moves
    towards the list whose best score stands out more (``peakedness``), by the share it stands out more. A
    question in a language the model does not read gets a flat cosine list and leans on its words; a question
    whose words are everywhere gets a flat bm25 list and leans on the model."""
    pk, pv = peakedness(kw), peakedness(vs)
    if pk + pv <= 0:
        return wk, wv
    total = wk + wv
    move = shift * total * (pk - pv) / (pk + pv)
    k = min(max(wk + move, 0.1 * total), 0.9 * total)
    return k, total - k


class Fusion:
    """One recall's scoring state: normalised signals, base scores and the bounds on priors."""

    def __init__(self, rows: dict[int, Candidate], kw: dict[int, float], vs: dict[int, float], strategy: str,
                 explain: bool, cfg: RecallConfig, query: str, people: dict[str, str] | None,
                 phrase: dict[int, float] | None) -> None:
        self.rows, self.kw, self.vs, self.explain, self.cfg = rows, kw, vs, explain, cfg
        self.phrase = phrase
        self.phrase_top = max(phrase.values(), default=0.0) if phrase else 0.0
        def scale(d: dict[int, float]) -> dict[int, float]:
            return normalise_scores(d, cfg.normalise, cfg.z_scale)

        # a side with only a few scores may keep their ratio to the best (few_scores.py, round 42)
        # (the notes test last: a long list of hits is min-max's whatever it holds, and is not read twice)
        self.kn = few_scale(kw, cfg.kw_few, scale, NO_IDF_SCORE, lambda: all_notes(kw, rows))
        self.vn = few_scale(vs, cfg.vec_few, scale, only_if=lambda: all_notes(vs, rows))
        self.hybrid = hybrid = strategy == "hybrid"
        self.when_q = asks_when(query, cfg.time_words) if hybrid else False
        self.other_time = cfg.time_words.partition(":")[0] in ("all", "en+")  # (en+: English questions, any turn)
        self.amount_q = hybrid and bool(cfg.w_amount) and asks_amount(query, cfg.amount)
        self.names = {n.lower() for n in (people or {}).values()} | set(people or {})
        self.spans = timeparse.query_dates(query) if hybrid and cfg.w_date else []
        if strategy == "keyword":
            self.bases = {mid: self.kn.get(mid, 0.0) for mid in rows}
        elif strategy == "vector":
            self.bases = {mid: self.vn.get(mid, 0.0) for mid in rows}
        else:
            wk, wv = cfg.w_keyword, cfg.w_vector
            if cfg.peaked:
                wk, wv = peaked_weights(kw, vs, wk, wv, cfg.peaked)
            self.bases = {mid: wk * self.kn.get(mid, 0.0) + wv * self.vn.get(mid, 0.0) for mid in rows}
        self.weights = ((cfg.w_person, cfg.w_time, cfg.w_date, cfg.w_phrase, max(cfg.w_length, cfg.w_length_thread or 0.0),
                         cfg.w_amount, cfg.w_reply) if hybrid else ())
        # the largest sum of priors any candidate can get for this query (a prior whose
        # condition the query does not meet is 0 for all: no names, not a "when" question...)
        self.applies = (bool(self.names), self.when_q, bool(self.spans), bool(phrase), True, self.amount_q)
        self.max_prior = W_STRENGTH + W_IMPORTANCE + sum(w for w, on in zip(self.weights[:6], self.applies) if on)
        self.before: dict[int, float] = {}  # score before the reply bonus, per scored memory
        # Reply prior: a turn right after a question turn (both candidates) gains
        # w_reply · (the question's score − the lowest candidate score); see W_REPLY.
        self.replies = replies(rows) if hybrid and (cfg.w_reply or cfg.w_short_reply or cfg.pair_length) else {}
        self.w_reply_max = cfg.w_reply + cfg.w_short_reply  # the largest share a reply can inherit
        self.lo = 0.0
        # answer-blind priors scaled by how much a turn can answer (answerable.py); per memory, memoised
        self.scaled = frozenset(cfg.answer_priors) if hybrid and cfg.answer_words > 0 else frozenset()
        self.shares: dict[int, float] = {}
        self.amounts: dict[int, float] = {}

    def share(self, m: Candidate, prior: str) -> float:
        """The share of ``prior`` that ``m`` keeps (1 unless answer_words scales that prior)."""
        if prior not in self.scaled:
            return 1.0
        got = self.shares.get(m.id)
        if got is None:
            got = self.shares[m.id] = answer_share(m, self.cfg.answer_words)
        return got

    def person(self, m: Candidate) -> float:
        """The person prior: cheap, so it also tightens the lowest-score search below."""
        cfg, names = self.cfg, self.names
        if not (self.hybrid and names and cfg.w_person):
            return 0.0
        # A turn with an author is "theirs" only if they said it: in chats a name in
        # the text is mostly an address to the listener ("Great news, Ana!"); an
        # authorless note naming them is about them (LoCoMo r@5 0.729 -> 0.742, chosen in 5/5 LOO folds).
        if m.author and cfg.person_by_author:
            return cfg.w_person * self.share(m, "person") if m.author.lower() in names else 0.0
        if (m.author and m.author.lower() in names) or any(n in m.content.lower() for n in names):
            return cfg.w_person * self.share(m, "person")
        return 0.0

    def amount(self, m: Candidate) -> float:
        """The amount prior (round 18): ``w_amount`` for a turn whose own text holds a digit, when the question
        asks how much. Cheap (no regex), so it is exact in the lowest-score bound too: counted among the costly
        priors' upper bound, it let ~1.5 ms more of candidates be scored whole at 100k. (A digit is all the
        content words a turn needs: answerable.answer_share would give it 1.)"""
        if not self.amount_q:
            return 0.0
        got = self.amounts.get(m.id)
        if got is None:
            bare = bare_text(m.content, m.author)
            got = self.amounts[m.id] = self.cfg.w_amount if any(ch.isdigit() for ch in bare) else 0.0
        return got

    def cheap_floor(self, mid: int, m: Candidate) -> float:
        """Base plus the priors that cost no regex: the least score this memory can have."""
        return self.bases[mid] + self.person(m) + self.amount(m) + W_STRENGTH * m.strength + W_IMPORTANCE * m.importance

    def priors(self, mid: int, m: Candidate) -> dict[str, float]:
        """Every prior of one memory, by name."""
        cfg, priors = self.cfg, {}
        if self.hybrid:
            if p := self.person(m):
                priors["person"] = p
            bare = bare_text(m.content, m.author)
            # the text itself must speak of time: a leading "[date]" stamp every turn carries says nothing
            low = bare.lower() if self.when_q else ""
            if self.when_q and cfg.w_time and (TIME_WORD_RE.search(low) or m.metadata.get("resolved_dates")
                                               or (self.other_time and says_calendar(low, OTHER_CALENDAR_WORDS))):
                if t := cfg.w_time * self.share(m, "time"):
                    priors["time"] = t
            if a := self.amount(m):
                priors["amount"] = a
            if self.spans and in_spans(m, self.spans):
                priors["date"] = cfg.w_date
            if self.phrase and self.phrase_top > 0 and mid in self.phrase:
                # scaled by the best phrase match, not min-max: most candidates have none
                priors["phrase"] = cfg.w_phrase * self.phrase[mid] / self.phrase_top
            # a chat turn's own weight (round 44), a note's w_length
            w_len = cfg.w_length if cfg.w_length_thread is None or m.thread is None else cfg.w_length_thread
            if w_len:
                q = self.replies.get(mid) if cfg.pair_length else None
                words = (pair_words(m, self.rows[q], LENGTH_FULL_WORDS) if q is not None
                         else count_words(bare, LENGTH_FULL_WORDS))
                priors["length"] = w_len * min(1.0, math.log1p(words) / math.log1p(LENGTH_FULL_WORDS))
        priors["strength"] = W_STRENGTH * m.strength
        priors["importance"] = W_IMPORTANCE * m.importance
        return priors

    def score(self, mid: int) -> float:
        """Base + priors, rounded as returned; memoised (explain filled here)."""
        got = self.before.get(mid)
        if got is not None:
            return got
        m = self.rows[mid]
        priors = self.priors(mid, m)
        prior = sum(priors.values())
        m.score = self.before[mid] = round(self.bases[mid] + prior, 6)
        if self.explain:
            kw, vs, cfg = self.kw, self.vs, self.cfg
            m.explain = {
                "keyword_bm25": round(kw[mid], 4) if mid in kw else None,
                "keyword_norm": round(self.kn.get(mid, 0.0), 4),
                "cosine": round(vs[mid], 4) if mid in vs else None,
                "vector_norm": round(self.vn.get(mid, 0.0), 4),
                "weights": {"keyword": cfg.w_keyword, "vector": cfg.w_vector},
                "priors": {key: round(v, 4) for key, v in priors.items()},
                "prior": round(prior, 4),
            }
        return m.score

    def find_lowest(self, prune: bool) -> None:
        """The lowest candidate score, which reply bonuses are measured from (``lo``)."""
        if not self.replies:
            return
        lo = math.inf
        # a score is at least its base plus the cheap priors (the others only add), so walking
        # up from the lowest such floor can stop once the next floor is above the lowest score
        # seen (100k chat: ~30 fewer candidates scored per recall)
        floor = {mid: self.cheap_floor(mid, m) for mid, m in self.rows.items()} if prune else {}
        for mid in sorted(self.rows, key=lambda i: (floor[i], i)) if prune else self.rows:
            if prune and floor[mid] - 1e-6 > lo:
                break
            lo = min(lo, self.score(mid))
        self.lo = lo

    def final(self, mid: int) -> float:
        """The score with the reply bonus (explain says so)."""
        s = self.score(mid)
        q = self.replies.get(mid)
        bonus = (short_reply_weight(self.cfg.w_reply, self.cfg.w_short_reply, self.rows[mid], self.rows[q])
                 * (self.score(q) - self.lo) * self.share(self.rows[mid], "reply")) if q is not None else 0.0
        if not bonus:
            return s
        m = self.rows[mid]
        m.score = round(s + bonus, 6)
        if self.explain and m.explain is not None:
            m.explain["priors"]["reply"] = round(bonus, 4)
            m.explain["prior"] = round(m.explain["prior"] + bonus, 4)
        return m.score

    def top_k(self, k: int, more: More | None = None) -> list[Candidate]:
        """Score by base, best first, skipping candidates that cannot reach the top ``k``;
        then every candidate ``more`` names, given that top ``k``, is scored too."""
        bases, before = self.bases, self.before
        top_base = max(bases.values(), default=0.0)
        max_bonus = self.w_reply_max * (top_base + self.max_prior - self.lo) if self.replies else 0.0
        # the priors that cost a regex per memory (time, date, phrase, length), at most
        max_costly = sum(w for w, on in zip(self.weights[1:5], self.applies[1:5]) if on)
        best: list[float] = []  # min-heap of the k best final scores so far
        done: list[int] = []
        for mid in sorted(self.rows, key=lambda i: (-bases[i], i)):
            if len(best) >= k and bases[mid] + self.max_prior + max_bonus + 1e-6 < best[0]:
                break  # sorted by base: no later candidate can reach the top k either
            # this memory's cheap priors exactly, the costly ones at most
            bound = self.cheap_floor(mid, self.rows[mid]) + max_costly
            q = self.replies.get(mid)
            if q is not None:
                q_upper = before[q] if q in before else bases[q] + self.max_prior
                bound += self.w_reply_max * (q_upper - self.lo)
            if len(best) >= k and bound + 1e-6 < best[0]:
                continue  # cannot reach the top k (the k-th best only rises)
            f = self.final(mid)
            (heapq.heappush if len(best) < k else heapq.heappushpop)(best, f)
            done.append(mid)
        if more is not None:
            seen = set(done)
            top = sorted(done, key=lambda i: (-(self.rows[i].score or 0.0), i))[:k]
            for mid in sorted(set(more([self.rows[i] for i in top]))):
                if mid in self.rows and mid not in seen:
                    self.final(mid)
                    done.append(mid)
        return [self.rows[mid] for mid in done]


def fuse(rows: dict[int, Candidate], kw: dict[int, float], vs: dict[int, float], strategy: str, explain: bool,
         cfg: RecallConfig | None = None, query: str = "", people: dict[str, str] | None = None,
         phrase: dict[int, float] | None = None, k: int | None = None,
         more: More | None = None) -> list[Candidate]:
    """Score candidates: weighted normalised signals plus priors, then the reply prior.

    With ``k``, only candidates that can still reach the top ``k`` get their priors
    computed (the per-memory regexes are most of the cost): they are visited by base
    score, best first, each skipped when even the largest possible priors (and reply
    bonus) cannot lift it to the k-th best score so far. The top ``k`` is exactly the
    one of scoring every candidate (tested); the list returned holds the scored ones, and
    every candidate ``more`` names given that top ``k`` (episode members, see episodes.py).
    """
    f = Fusion(rows, kw, vs, strategy, explain, cfg or RecallConfig(), query, people, phrase)
    # the bounds need priors that only add (strength and importance are in 0..1)
    prune = bool(k) and all(w >= 0 for w in f.weights)
    f.find_lowest(prune)
    if not prune or k is None:
        for mid in rows:
            f.final(mid)
        if more is not None:  # every candidate is scored: ``more`` only learns the top
            list(more(sorted(rows.values(), key=lambda c: (-(c.score or 0.0), c.id))[: k or len(rows)]))
        return list(rows.values())
    return f.top_k(k, more)
