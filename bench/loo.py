"""Honest tuning protocol: every recall constant and prior, in-sample next to leave-one-out.

Two dev sets, tuned together and never on one alone: the five LoCoMo dev conversations
(bench/locomo.py) and the real-chat set (bench/realchat.py: 22 chats in 12 export files).
A *fold* is one LoCoMo conversation or one real chat.

For each constant of ``RecallConfig`` a small grid (always holding the engine's default) is
scored once per question. Then, for every held-out fold, the value with the best objective on
all OTHER folds (the other LoCoMo conversations and every real chat, or the other real chats
and every LoCoMo conversation) is scored on the held-out fold. The objective is the mean of
the two sets' recall@5 on the training folds (each set counts the same, however many
questions it has). Reported per set:

* **in-sample**: the engine as shipped (its constants were chosen on LoCoMo dev);
* **LOO**: per held-out fold (each LoCoMo conversation; the real chats dealt into five
  groups), the constants chosen on the other folds by one pass of
  coordinate ascent (each constant in turn set to its best grid value given the ones
  before), then scored on the held-out fold; trained on both sets, and on the fold's own
  set alone for comparison;
* per constant (the others at their defaults): the default, the best value in-sample, the
  LOO score of choosing that one constant per fold, and which value each fold chose;
* every prior switched off and on: the in-sample gain and the LOO gain (per fold, on/off is
  chosen on the other folds; gain = held-out score of the choice - held-out score with it
  off). A mechanism stays only when its LOO gain is positive.

    python bench/loo.py --reuse /tmp/loo          # ~40 variants x 950 questions; results cached
    python bench/loo.py --reuse /tmp/loo --only w_length,w_reply

Per-question results are cached in ``DIR/loo-cache.json`` keyed by the engine's recall code
and the variant, so a second run only scores what changed. Write-time constants
(CONTEXT_NEAR/FAR, CONTEXT_VEC_DECAY, episode segmentation) change the stored rows and are
not covered here.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import memory_core  # noqa: E402
from bench.common import DEFAULT_LOCOMO, SCORED_CATEGORIES, build_stores, load_locomo, log, md_table  # noqa: E402
from bench.common import score_ranking as _score  # noqa: E402
from bench.realchat import DEFAULT_DATA, DEFAULT_QUESTIONS, build_chat_stores, load_questions  # noqa: E402
from memengine.recall.config import POOL, RETRIEVAL_FIELDS  # noqa: E402
from memory_core import RecallConfig  # noqa: E402

SETS = ("locomo", "realchat")
OBJECTIVE = "recall@5"


@dataclass
class Item:
    """One question of either set, ready to ask."""

    set: str
    fold: str
    key: str  # unique id
    store: Any
    question: str
    evidence: list[str]  # refs as the store has them
    multi: bool  # multi-hop category


class QueryCache:
    """Embedder wrapper remembering query vectors across variants (building is cached apart)."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.model_id, self.dims = inner, inner.model_id, inner.dims
        self.cache: dict[Any, Any] = {}  # text, or (NUL + "q", text) for a question

    def __getattr__(self, name: str) -> Any:
        """What the wrapper does not define is the inner embedder's (its tokenizer's vocabulary, recall reads)."""
        if name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)

    def embed(self, texts: list[str], batch_size: int = 32) -> Any:
        import numpy as np

        missing = [t for t in dict.fromkeys(texts) if t not in self.cache]
        if missing:
            for t, v in zip(missing, self.inner.embed(missing)):
                self.cache[t] = v
        return np.stack([self.cache[t] for t in texts])

    def embed_query(self, texts: list[str]) -> Any:
        """Questions as the inner embedder reads them (E5: "query: …"), remembered apart from ``embed``'s."""
        import numpy as np

        if not hasattr(self.inner, "embed_query"):
            return self.embed(texts)
        missing = [t for t in dict.fromkeys(texts) if ("\0q", t) not in self.cache]
        if missing:
            for t, v in zip(missing, self.inner.embed_query(missing)):
                self.cache[("\0q", t)] = v
        return np.stack([self.cache[("\0q", t)] for t in texts])


# --------------------------------------------------------------------------- variants

def _ctx(scale: float) -> tuple[float, ...]:
    w = list(memory_core.FTS_WEIGHTS)
    w[3], w[4] = w[3] * scale, w[4] * scale
    return tuple(w)


D = RecallConfig()
ABSENT_ON = "words:who:named"  # round 14's absent-words variant (memengine/recall/absent.py), off by default
# constant -> {label: config}; each grid holds the default (label marked *)
GRIDS: dict[str, dict[str, RecallConfig]] = {
    "w_keyword": {f"{wk}{'*' if wk == D.w_keyword else ''}": replace(D, w_keyword=wk, w_vector=round(1 - wk, 2))
                  for wk in (0.3, 0.4, 0.5, 0.6, 0.7)},
    "z_scale": {**{f"z {z}{'*' if D.normalise == 'zscore' and z == D.z_scale else ''}":
                   replace(D, normalise="zscore", z_scale=z) for z in (0.1, 0.15, 0.2, 0.25)},
                f"minmax{'*' if D.normalise == 'minmax' else ''}": replace(D, normalise="minmax")},
    "w_person": {f"{w}{'*' if w == D.w_person else ''}": replace(D, w_person=w) for w in (0.0, 0.1, 0.2, 0.3, 0.4)},
    "w_time": {f"{w}{'*' if w == D.w_time else ''}": replace(D, w_time=w) for w in (0.0, 0.05, 0.1, 0.15)},
    "w_length": {f"{w}{'*' if w == D.w_length else ''}": replace(D, w_length=w) for w in (0.0, 0.05, 0.1, 0.2)},
    "w_amount": {f"{w}{'*' if w == D.w_amount else ''}": replace(D, w_amount=w) for w in (0.0, 0.05, 0.1, 0.15)},
    # round 21: the depth the steps after fusion rank before the cut to k (10 = the k asked here: today's ranking)
    "step_depth": {f"{d}{'*' if d == D.step_depth else ''}": replace(D, step_depth=d) for d in (10, 15, 20, 30)},
    "w_reply": {f"{w}{'*' if w == D.w_reply else ''}": replace(D, w_reply=w) for w in (0.0, 0.05, 0.1, 0.15, 0.25)},
    "session_coverage": {f"{w}{'*' if w == D.session_coverage else ''}": replace(D, session_coverage=w)
                         for w in (1.0, 0.9, 0.8)},
    "context_mix": {**{f"{w}{'*' if w == D.context_mix else ''}": replace(D, context_mix=w) for w in (0.5, 1.0)},
                    "max": replace(D, context_mix=None)},
    # (absent off by default since round 14's review: the weights are then tried with it on, beside off)
    "w_absent": ({f"{w}{'*' if w == D.w_absent else ''}": replace(D, w_absent=w) for w in (0.0, 0.15, 0.3, 0.5)}
                 if D.absent else {"off*": D, **{f"{w}": replace(D, absent=ABSENT_ON, w_absent=w)
                                                 for w in (0.15, 0.3, 0.5)}}),
    "context_columns": {f"x{s}{'*' if s == 1.0 else ''}": replace(D, fts_weights=_ctx(s))
                        for s in (0.0, 0.5, 1.0, 1.5)},
}
# mechanism -> (on config, off config); one of the two is the default (D)
ABLATIONS: dict[str, tuple[RecallConfig, RecallConfig]] = {
    "person prior (w_person)": (D, replace(D, w_person=0.0)),
    "drop person terms": (D, replace(D, drop_person_terms=False)),
    "person by author": (D, replace(D, person_by_author=False)),
    "time prior (w_time)": (D, replace(D, w_time=0.0)),
    "length prior (w_length)": (D, replace(D, w_length=0.0)),
    "reply prior (w_reply)": (D, replace(D, w_reply=0.0)),
    "session coverage (0.9)": (replace(D, session_coverage=0.9), replace(D, session_coverage=1.0)),
    "context vectors": (D, replace(D, context_vectors=False)),
    "context columns (bm25)": (D, replace(D, fts_weights=_ctx(0.0))),
    "z-score (vs min-max)": (replace(D, normalise="zscore"), replace(D, normalise="minmax")),
    "episodes resolved to messages": (D, replace(D, resolve_episodes=False)),
    # issue 19 rounds 8-9 (memengine/recall/answerable.py, updates.py, counter.py)
    "priors by content words (answer_words 1)": (replace(D, answer_words=1), replace(D, answer_words=0)),
    "chat updates newest first (forms:pool)": (replace(D, newer_first="forms:pool"), replace(D, newer_first="")),
    # issue 19 round 20 (updates.py unit_forms): a later turn stating another number beside the same word, any language
    "chat updates: a number restated beside its unit (units:pool, vs forms:pool)": (
        replace(D, newer_first="units:pool"), replace(D, newer_first="forms:pool")),
    # issue 19 round 17 (updates.py): the update said in another conversation of one person's export
    "chat updates across one export's conversations (newer_first across)": (replace(D, updates_across=True),
                                                                            replace(D, updates_across=False)),
    # issue 19 round 12 (memengine/recall/follow.py): the value asked, said right after the turn naming its subject
    "value after its subject (follow: after)": (replace(D, follow="after"), replace(D, follow="")),
    "value after its subject, newest first (follow: newer)": (replace(D, follow="newer"), replace(D, follow="")),
    "a place said changed above the older (moved)": (replace(D, moved="on"), replace(D, moved="")),
    # issue 19 round 16 (memengine/recall/mention.py): the next mention of a top hit's rare words in its thread
    **{f"next mention of a top hit's subject (mention: {m})": (replace(D, mention=m), replace(D, mention=""))
       for m in ("next:4", "next:6", "end:4", "end:6", "end:8")},
    # issue 19 round 18 (calendar_words.py, fusion.py): the time prior's "when" and time words in the other languages
    # recall reads; a number in a turn for a question asking how much / how many
    "time prior in every language read (time_words all)": (replace(D, time_words="all"), replace(D, time_words="en")),
    "a number for a how-much question (amount: much, w 0.1)": (replace(D, amount="much", w_amount=0.1),
                                                               replace(D, amount="")),
    "a number for a how-much / how-many question (amount: all, w 0.1)": (replace(D, amount="all", w_amount=0.1),
                                                                         replace(D, amount="")),
    "a number for a how-much question (amount: much, w 0.05)": (replace(D, amount="much", w_amount=0.05),
                                                                replace(D, amount="")),
    # round 18: a scale between min-max's and the z-score's (their mean), for a fusion choice the folds agree on
    "blend of min-max and z-score 0.25 (vs min-max)": (replace(D, normalise="blend", z_scale=0.25),
                                                       replace(D, normalise="minmax")),
    # issue 19 round 13 (memengine/recall/instances.py): the names said around a category word of the question
    "instances: names said near the question's words (w 0.3)": (D, replace(D, w_instances=0.0)),
    "instances: names said near the question's words (w 0.5)": (replace(D, w_instances=0.5),
                                                                replace(D, w_instances=0.0)),
    "word parts: heads and tails of question words no memory holds": (D, replace(D, word_parts=False)),
    # issue 19 round 19 (parts.py word_endings): question words in the other endings the index holds of them
    "word endings: other endings of question words (all)": (replace(D, word_endings="all"),
                                                             replace(D, word_endings="")),
    "word endings: other endings of question words the model does not know": (replace(D, word_endings="model"),
                                                                               replace(D, word_endings="")),
    "word endings: of a question the model does not read": (replace(D, word_endings="question"),
                                                            replace(D, word_endings="")),
    # round 19 (fusion.py peaked_weights): per-query weights towards the list whose best score stands out more
    **{f"per-query weights by how peaked each list is (peaked {p})": (replace(D, peaked=p), replace(D, peaked=0.0))
       for p in (0.1, 0.2, 0.4)},
    # issue 19 round 14 (memengine/recall/absent.py): question words no memory holds, embedded apart
    "absent words: each alone, who-questions, named turns (w 0.3)": (replace(D, absent=D.absent or ABSENT_ON),
                                                                     replace(D, absent="")),
    "absent words: each alone, every question and turn (w 0.3)": (replace(D, absent="words"), replace(D, absent="")),
    "absent words: the rest of the question, every question and turn (w 0.3)": (replace(D, absent="rest"),
                                                                                replace(D, absent="")),
    "absent words: the rest, who-questions (w 0.3)": (replace(D, absent="rest:who"), replace(D, absent="")),
    "absent words: the rest, who-questions, named turns (w 0.3)": (replace(D, absent="rest:who:named"),
                                                                 replace(D, absent="")),
    # multi-hop expansion (memengine/recall/expand.py), the settings leave-one-out chose most in bench/expand_loo.py
    "expansion: coverage (w 0.2, seeds 1)": (replace(D, w_coverage=0.2, expand_seeds=1), D),
    "expansion: second hop (w 0.05, seeds 1, share 0.03)": (replace(D, w_hop=0.05, expand_seeds=1,
                                                                     hop_rare_share=0.03), D),
    # issue 19 round 22 (expand.py expand_keep; bench/recall_tail.py): the expansion on ranks 6+ only, the first
    # five left as they are (recall@5 can only move through the steps after it)
    "expansion on ranks 6+: second hop (w 0.5, seeds 3, share 0.03, keep 5)": (
        replace(D, w_hop=0.5, expand_seeds=3, hop_rare_share=0.03, expand_keep=5), D),
    # issue 19 round 23 (memengine/recall/renamed.py): a later turn naming a top hit's name and a name first said there
    "a name replaced by a name first said later (renamed: cue)": (replace(D, renamed="cue"), replace(D, renamed="")),
    # issue 19 round 25 (renamed.py "switch"): the broader change lexicon, "what" questions, later turns read by name
    "a name replaced, broader (renamed: switch vs cue)": (D, replace(D, renamed="cue")),
    # issue 19 round 27 (memengine/recall/succeeded.py): the successor told after news of the old name, without it
    "a name succeeded after news of the old one (succeeded)": (D, replace(D, succeeded=False)),
    # round 30 (memengine/recall/notes.py): an agent's own note restating a top note's subject as a change
    "an agent's note restated as a change, above the older (notes_newer)": (D, replace(D, notes_newer=False)),
    # round 47 (memengine/recall/notes_head.py): a later note's subject read outside its reason / purpose clauses
    "a later note's subject read outside its reason clauses (notes_head)": (D, replace(D, notes_head=False)),
    # round 38 (memengine/recall/past.py): a question about the past of a fact, the older version above the newer
    "a question about the past: the older version first (past)": (D, replace(D, past=False)),
    # round 41 (memengine/recall/state_words.py, chain.py): a note matching only a question's "now" / "still" gets no
    # keyword score; a past question asking the first version or the one before a value: along the chain of versions
    "a question's time/state words read as intent (state_words)": (D, replace(D, state_words=False)),
    "history along the chain of versions (chain)": (D, replace(D, chain=False)),
    "a note's link to a later one not honoured when asked what only the older says (subject_kept)": (
        D, replace(D, subject_kept=False)),
    # round 34 (memengine/recall/keyword_floor.py): a keyword side that matched only words most rows hold, left out
    "keyword side at FTS5's idf floor left out of fusion (kw_floor)": (D, replace(D, kw_floor=False)),
    # round 33 (memengine/recall/bridge.py): question words bridged to the store's words the model's table holds alike
    "bridge: question words to the store's words (all, floor 0.45, w 0.3)": (
        replace(D, bridge="all", bridge_floor=0.45, w_bridge=0.3), replace(D, bridge="")),
    # round 37 (memengine/recall/thin.py): a chat turn of next to no words of its own, sharing none with the question,
    # lowered by a share of the spread of the first step_depth scores
    **{f"thin turns lowered (w_thin {w})": (replace(D, w_thin=w), replace(D, w_thin=0.0)) for w in (0.1, 0.25, 0.5)},
    # round 43: a turn of fewer than three content words (not two) counted thin, at the shipped weight
    **{f"thin turns: fewer than {n} content words (w_thin 0.25)": (replace(D, thin_words=n), D) for n in (3,)},
    # round 37 (memengine/recall/twoask.py): a question asking two things, its second turn looked for
    **{f"two asks: the second turn ({m})": (replace(D, two_asks=m), replace(D, two_asks="")) for m in ("burst", "next")},
    # round 42 (memengine/recall/few_scores.py): a side with only a few scores keeps their ratio to the best (or a
    # floor above 0 for its lowest) instead of min-max's 0 for the lowest
    **{f"few scores: keyword side (kw_few {m})": (replace(D, kw_few=m), replace(D, kw_few=""))
       for m in ("ratio:3", "ratio:5", "ratio:10", "ratio:20", "ratio:1000", "floor:0.25:10", "floor:0.5:20", "floor:0.25:1000")},
    **{f"few scores: both sides (kw_few/vec_few {m})": (replace(D, kw_few=m, vec_few=m), replace(D, kw_few="", vec_few=""))
       for m in ("ratio:5", "ratio:20")},
    # round 40 (memengine/recall/asked_words.py): the question's frame words ("how much", another language's function
    # and question words) searched by no keyword
    **{f"asked words: the question's frame left out of the keyword side ({m})": (
        replace(D, asked_words=m), replace(D, asked_words="")) for m in ("lang", "all")},
    # round 45 (memengine/recall/notes.py, notes_recent.py): an agent's later note saying a top note's subject again
    # with no change word, vectors close; notes scored alike nudged by date (chats: untouched by construction)
    "a note's subject said again, vectors close (notes_same_cos)": (D, replace(D, notes_same_cos=0.0)),
    **{f"notes nudged by date (notes_recent {m})": (replace(D, notes_recent=m), replace(D, notes_recent=""))
       for m in ("now:0.05", "all:0.05")},
    # notes5 (memengine/recall/notes_now.py): two versions of one slot the store did not link, the earlier first for a
    # past question (on) and the later for the present (off); chats untouched by construction (notes.is_note)
    **{f"two unlinked versions of a note's slot (notes_now {m})": (replace(D, notes_now=m), replace(D, notes_now=""))
       for m in ("past:0.5", "both:0.5")},
    # notes6 (memengine/recall/notes_about.py): a first note naming the asked thing only aside (a reason clause, an
    # "unchanged" remark) below the note about it; chats untouched by construction (a result with a thread is no note)
    "the note about the thing above one naming it aside (notes_about)": (
        replace(D, notes_about=True), replace(D, notes_about=False)),
}


def cfg_key(cfg: RecallConfig) -> str:
    """A stable text for a config (the cache key's variant part)."""
    return json.dumps({f.name: getattr(cfg, f.name) for f in fields(cfg)}, sort_keys=True, default=str)


def engine_fingerprint() -> str:
    """Hash of the engine code (memory_core and memengine/, its CLI and this bench's own
    modules aside): cached results are only valid for the engine that made them."""
    parts = [inspect.getsource(memory_core)]
    pkg = Path(memory_core.__file__).parent / "memengine"
    if pkg.is_dir():
        parts += [p.read_text(encoding="utf-8") for p in sorted(pkg.rglob("*.py"))
                  if "cli" not in p.relative_to(pkg).parts and p.name != "hops.py"]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


# --------------------------------------------------------------------------- scoring

def retrieval_key(cfg: RecallConfig) -> str:
    """The part of a config the retrievers read (RETRIEVAL_FIELDS)."""
    return json.dumps({f: getattr(cfg, f) for f in RETRIEVAL_FIELDS}, sort_keys=True, default=str)


def retrieve(store: Any, query: str, cfg: RecallConfig, k: int = 10) -> Any:
    """One hybrid recall's retrieval state (``pipeline._Run``) as ``store.recall`` builds it with
    no filters (the dev stores are small: no parallel paths)."""
    from memengine.recall.pipeline import _Run

    where, args = store.filter_sql(None, None, None, None, None, False)
    run = _Run(query, k, "hybrid", False, cfg, where, args, max(POOL, k * 3), store.people_in(query), False, False)
    store._retrieve(run)
    # keep only what _rank reads (memory: ~1,000 questions x ~10 retrieval keys): the cosines of
    # the candidates and the kNN horizon's floor (the lowest cosine among the ranked hits)
    if run.ranked:
        last = min(run.ranked, key=lambda m: (run.combined[m], m))
        cand = set(run.kw) | set(run.vs) | set(run.phrase) | {last}
        run.combined = {m: run.combined[m] for m in cand if m in run.combined}
        run.ranked = [last]
    return run


class Scorer:
    """Per-question metrics of each variant, cached on disk.

    Fast path: the retrieval of a question (bm25, cosines, people) depends only on the
    RETRIEVAL_FIELDS of a config, so it is computed once per question and retrieval key and
    kept in memory; each variant then only runs fusion and what follows (``store._rank``),
    ~10x cheaper than a whole recall. ``check`` questions per new variant are also asked through
    ``store.recall`` and must give the same refs (the fast path is the engine's, not a copy)."""

    def __init__(self, items: Sequence[Item], cache_path: Path | None, check: int = 5) -> None:
        self.items = list(items)
        self.path = cache_path
        self.fp = engine_fingerprint()
        self.check = check
        self.runs: dict[tuple[str, str], Any] = {}  # (item key, retrieval key) -> _Run
        self.cache: dict[str, dict[str, dict[str, float]]] = {}
        if cache_path and cache_path.exists():
            try:
                data = json.loads(cache_path.read_text())
                if data.get("engine") == self.fp:
                    self.cache = data["variants"]
            except (json.JSONDecodeError, KeyError):
                self.cache = {}

    def save(self) -> None:
        if self.path:
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(json.dumps({"engine": self.fp, "variants": self.cache}))
            tmp.replace(self.path)

    def scores(self, cfg: RecallConfig, subset: Sequence[Item] | None = None) -> dict[str, dict[str, float]]:
        """``{item key: metrics}`` for ``cfg`` over every item (or at least over ``subset``)."""
        key = cfg_key(cfg)
        have = self.cache.setdefault(key, {})
        todo = [it for it in (self.items if subset is None else subset) if it.key not in have]
        if todo:
            t0 = time.perf_counter()
            for i, it in enumerate(todo):
                refs = self.ranked(it, cfg)
                if i < self.check:
                    full = [m.ref or "" for m in it.store.recall(it.question, k=10, touch=False, config=cfg).results]
                    if full != refs:
                        raise RuntimeError(f"fast path differs from recall() on {it.key}: {refs} vs {full}")
                have[it.key] = _score(refs, it.evidence)
            log(f"    scored {len(todo)} questions in {time.perf_counter() - t0:.0f} s")
            self.save()
        return have

    def ranked(self, it: Item, cfg: RecallConfig) -> list[str]:
        """The refs of the top 10 for one question under ``cfg``, retrieval reused."""
        rk = (it.key, retrieval_key(cfg))
        run = self.runs.get(rk)
        if run is None:
            run = self.runs[rk] = retrieve(it.store, it.question, cfg)
        results = it.store._rank(replace(run, cfg=cfg), False)
        return [m.ref or "" for m in results]


def mean(values: Sequence[float]) -> float:
    return statistics.fmean(values) if values else 0.0


def set_metrics(items: Sequence[Item], sc: dict[str, dict[str, float]]) -> dict[str, float]:
    """recall@5, recall@10, MRR and multi-hop all-evidence@10 over ``items``."""
    multi = [it for it in items if it.multi]
    return {"n": len(items),
            "recall@5": round(mean([sc[it.key]["recall@5"] for it in items]), 4),
            "recall@10": round(mean([sc[it.key]["recall@10"] for it in items]), 4),
            "mrr": round(mean([sc[it.key]["mrr"] for it in items]), 4),
            "multi_all@10": round(mean([sc[it.key]["all@10"] for it in multi]), 4)}


def objective(items: Sequence[Item], sc: dict[str, dict[str, float]]) -> float:
    """Mean over the sets present of each set's mean OBJECTIVE (sets weigh the same)."""
    per = [mean([sc[it.key][OBJECTIVE] for it in items if it.set == s]) for s in SETS
           if any(it.set == s for it in items)]
    return mean(per)


# Round 18: ``--margin M``: a fold leaves the current (shipped) value only for one whose training gain is more than
# M paired standard errors of the objective (the one-standard-error rule); 0 = the best on the training folds.
MARGIN = 0.0


def objective_se(items: Sequence[Item], a: dict[str, dict[str, float]], b: dict[str, dict[str, float]]) -> float:
    """The standard error of ``objective(a) - objective(b)``: the sets' paired errors, each set weighing half."""
    per = [paired_se([it for it in items if it.set == s], a, b) for s in SETS if any(it.set == s for it in items)]
    return (sum(e * e for e in per) ** 0.5) / len(per) if per else 0.0


def better(train: Sequence[Item], cand: dict[str, dict[str, float]], cur: dict[str, dict[str, float]],
           margin: float) -> bool:
    """Whether ``cand`` beats ``cur`` on ``train`` by more than ``margin`` standard errors (by anything at 0)."""
    gain = objective(train, cand) - objective(train, cur)
    return gain > (margin * objective_se(train, cand, cur) if margin > 0 else 0.0)


def loo_choose(items: Sequence[Item], variants: dict[str, dict[str, dict[str, float]]],
               same_set_only: bool = False, margin: float | None = None) -> dict[str, str]:
    """For every fold, the variant label with the best objective on all other folds (of both
    sets, or with ``same_set_only`` of the held-out fold's own set); ties go to the default. With a
    ``margin`` (default MARGIN), the best leaves the default only when it beats it by that many
    standard errors."""
    margin = MARGIN if margin is None else margin
    folds = sorted({(it.set, it.fold) for it in items})
    chosen = {}
    default = next((lab for lab in variants if lab.endswith("*")), None)
    for s, held in folds:
        train = [it for it in items if it.fold != held and (not same_set_only or it.set == s)]
        best = max(variants, key=lambda lab: (objective(train, variants[lab]), lab.endswith("*")))
        if margin > 0 and default is not None and not better(train, variants[best], variants[default], margin):
            best = default
        chosen[held] = best
    return chosen


def paired_se(items: Sequence[Item], a: dict[str, dict[str, float]], b: dict[str, dict[str, float]],
              metric: str = OBJECTIVE) -> float:
    """Standard error of the mean per-question difference a - b (the noise of a gain)."""
    d = [a[it.key][metric] - b[it.key][metric] for it in items]
    return statistics.stdev(d) / len(d) ** 0.5 if len(d) > 1 else 0.0


def held_out(items: Sequence[Item], chosen: dict[str, str],
             variants: dict[str, dict[str, dict[str, float]]]) -> dict[str, dict[str, float]]:
    """Per-question metrics where each question is scored by its fold's chosen variant."""
    return {it.key: variants[chosen[it.fold]][it.key] for it in items}


# --------------------------------------------------------------------------- data

def load_items(locomo_path: Path, data: Path, qpath: Path, directory: Path) -> list[Item]:
    """Both dev sets as Items, their stores built (or reused) under ``directory``."""
    from embedder import get_embedder

    emb = QueryCache(get_embedder())
    convs, _ = load_locomo(locomo_path)
    lstores = build_stores(convs, directory / "locomo", emb, reuse=True)
    items = []
    for c in convs:
        for q in c.questions:
            if q.category in SCORED_CATEGORIES and q.evidence:
                items.append(Item("locomo", c.sample_id, f"L:{c.sample_id}:{q.index}", lstores[c.sample_id],
                                  q.question, [f"{c.sample_id}/{e}" for e in q.evidence], q.category == 1))
    rq = load_questions(qpath)
    rstores = build_chat_stores(rq, data, directory / "realchat", emb, reuse=True)
    for q in rq:
        items.append(Item("realchat", q.fold, f"R:{q.id}", rstores[q.file], q.question, q.evidence,
                          q.category == "multi-hop"))
    return items


def by_set(items: Sequence[Item], s: str) -> list[Item]:
    return [it for it in items if it.set == s]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--locomo", default=str(DEFAULT_LOCOMO), help="LoCoMo dev JSON (default: %(default)s)")
    ap.add_argument("--data", default=str(DEFAULT_DATA), help="realworld data folder (default: %(default)s)")
    ap.add_argument("--questions", default=str(DEFAULT_QUESTIONS), help="real-chat questions (default: %(default)s)")
    ap.add_argument("--reuse", metavar="DIR", required=True, help="stores and the result cache live here")
    ap.add_argument("--only", default="", help="comma list of constants / priors to run (default: all)")
    ap.add_argument("--own-set", action="store_true",
                    help="also the LOO trained on each fold's own set alone (LoCoMo: the old protocol; slow)")
    ap.add_argument("--json", metavar="OUT", help="write the tables as JSON")
    ap.add_argument("--margin", type=float, default=0.0, metavar="M",
                    help="a fold leaves the shipped value only for a training gain over M paired standard errors "
                         "(the one-standard-error rule at 1; default 0: the best on the training folds)")
    args = ap.parse_args(argv)
    global MARGIN
    MARGIN = args.margin
    for p, what in ((Path(args.locomo), "LoCoMo file"), (Path(args.data), "real-chat data folder")):
        if not p.exists():
            print(f"error: {what} not found: {p}", file=sys.stderr)
            return 2
    directory = Path(args.reuse)
    items = load_items(Path(args.locomo), Path(args.data), Path(args.questions), directory)
    scorer = Scorer(items, directory / "loo-cache.json")
    only = {s.strip() for s in args.only.split(",") if s.strip()}
    grids = {k: v for k, v in GRIDS.items() if not only or k in only}
    ablations = {k: v for k, v in ABLATIONS.items() if not only or any(o in k for o in only)}
    out: dict[str, Any] = {"objective": OBJECTIVE, "engine": scorer.fp}

    log("default configuration")
    base = scorer.scores(D)
    print(f"# Tuning protocol — LoCoMo dev ({len(by_set(items, 'locomo'))} questions, 5 conversations) and "
          f"real chats ({len(by_set(items, 'realchat'))} questions, "
          f"{len({it.fold for it in by_set(items, 'realchat')})} chats); objective: mean of the two sets' "
          f"{OBJECTIVE}\n")

    # ---- per constant
    chosen_all: dict[str, dict[str, str]] = {}
    per_const_rows = []
    variants_of: dict[str, dict[str, dict[str, dict[str, float]]]] = {}
    for name, grid in grids.items():
        log(f"constant {name}: {len(grid)} values")
        variants = {lab: scorer.scores(cfg) for lab, cfg in grid.items()}
        variants_of[name] = variants
        chosen = loo_choose(items, variants)
        chosen_all[name] = chosen
        ho = held_out(items, chosen, variants)
        best_in = max(variants, key=lambda lab: objective(items, variants[lab]))
        counts: dict[str, int] = {}
        for lab in chosen.values():
            counts[lab] = counts.get(lab, 0) + 1
        row = [name, best_in]
        for s in SETS:
            its = by_set(items, s)
            row += [set_metrics(its, base)["recall@5"], set_metrics(its, variants[best_in])["recall@5"],
                    set_metrics(its, ho)["recall@5"]]
        row.append(", ".join(f"{lab}×{n}" for lab, n in sorted(counts.items(), key=lambda x: -x[1])))
        per_const_rows.append(row)
    if per_const_rows:
        print("## Constants: default (in-sample), best in-sample, leave-one-out (recall@5)\n")
        print(md_table(["constant", "best in-sample", "LoCoMo default", "LoCoMo best", "LoCoMo LOO",
                        "real default", "real best", "real LOO", "chosen per fold (* = default)"], per_const_rows))
        print()
    out["constants"] = per_const_rows

    # ---- the tuned engine: every constant chosen per fold, combined
    if grids and len(grids) == len(GRIDS):
        rows = []
        for mode, own in (("both sets", False), ("own set only", True))[: 2 if args.own_set else 1]:
            log(f"tuned engine per fold (coordinate ascent), trained on {mode}")
            combined, configs = _sequential(items, scorer, own)
            out.setdefault("fold_configs", {})[mode] = {f: cfg_key(c) for f, c in configs.items()}
            for s in SETS:
                its = by_set(items, s)
                a, b = set_metrics(its, base), set_metrics(its, combined)
                rows.append([s, mode, a["n"], a["recall@5"], b["recall@5"], round(a["recall@5"] - b["recall@5"], 4),
                             a["recall@10"], b["recall@10"], a["multi_all@10"], b["multi_all@10"], a["mrr"],
                             b["mrr"]])
        print("## The engine: in-sample (shipped constants) vs leave-one-out (every constant chosen without the "
              "held-out fold, trained on both sets or on the fold's own set)\n")
        print(md_table(["set", "LOO trained on", "n", "r@5 in-sample", "r@5 LOO", "gap", "r@10 in-sample",
                        "r@10 LOO", "multi all@10 in-sample", "multi all@10 LOO", "MRR in-sample", "MRR LOO"], rows))
        print()
        out["engine_loo"] = rows

    # ---- the re-fit: the same coordinate ascent on every fold of both sets
    if grids and len(grids) == len(GRIDS):
        log("re-fit on all folds of both sets")
        cfg = D
        for name, grid in GRIDS.items():
            options = {lab: _merge(cfg, c, name) for lab, c in grid.items()}
            cfg = max(options.values(), key=lambda c: (objective(items, scorer.scores(c)), c == cfg))
        refit = scorer.scores(cfg)
        changed = {f.name: getattr(cfg, f.name) for f in fields(cfg) if getattr(cfg, f.name) != getattr(D, f.name)}
        print(f"## Re-fit on both sets (coordinate ascent on all folds): {changed or 'the shipped defaults'}\n")
        print(md_table(["set", "r@5 shipped", "r@5 re-fit (in-sample)", "r@10 shipped", "r@10 re-fit",
                        "multi all@10 shipped", "multi all@10 re-fit"],
                       [[s, set_metrics(by_set(items, s), base)["recall@5"], set_metrics(by_set(items, s), refit)["recall@5"],
                         set_metrics(by_set(items, s), base)["recall@10"], set_metrics(by_set(items, s), refit)["recall@10"],
                         set_metrics(by_set(items, s), base)["multi_all@10"],
                         set_metrics(by_set(items, s), refit)["multi_all@10"]] for s in SETS]))
        print()
        out["refit"] = changed

    # ---- priors on/off
    if ablations:
        rows = []
        for name, (on_cfg, off_cfg) in ablations.items():
            log(f"mechanism {name}: on and off")
            on, off = scorer.scores(on_cfg), scorer.scores(off_cfg)
            on_default = on_cfg == D
            variants = {"on*" if on_default else "on": on, "off" if on_default else "off*": off}
            chosen = loo_choose(items, variants)
            ho = held_out(items, chosen, variants)
            row: list[Any] = [name + ("" if on_default else " [off by default]")]
            gains, gains10 = [], []
            for s in SETS:
                its = by_set(items, s)
                on_m, off_m, ho_m = set_metrics(its, on), set_metrics(its, off), set_metrics(its, ho)
                loo_gain = round(ho_m["recall@5"] - off_m["recall@5"], 4)
                gains.append(loo_gain)
                gains10.append(ho_m["recall@10"] - off_m["recall@10"])
                row += [f"{on_m['recall@5']:.3f} / {off_m['recall@5']:.3f} / {ho_m['recall@5']:.3f}",
                        f"{on_m['recall@5'] - off_m['recall@5']:+.3f} ±{2 * paired_se(its, on, off):.3f}",
                        f"{loo_gain:+.3f}", f"{on_m['recall@10'] - off_m['recall@10']:+.3f}",
                        f"{on_m['multi_all@10'] - off_m['multi_all@10']:+.3f}"]
            n_on = sum(1 for lab in chosen.values() if lab.startswith("on"))
            g, g10 = mean(gains), mean(gains10)
            verdict = ("keep" if g > 0 or (g == 0 and g10 > 0) else
                       "drop" if g < 0 or (g == 0 and g10 < 0) else "no effect")
            row += [f"{n_on}/{len(chosen)}", verdict]
            rows.append(row)
        print("## Priors: gain of switching each ON, in-sample (± two paired standard errors) and leave-one-out "
              "(recall@5), in-sample recall@10 and multi-hop all@10\n")
        print(md_table(["mechanism", "LoCoMo r@5 on / off / LOO", "LoCoMo r@5 gain in-sample", "LoCoMo r@5 gain LOO",
                        "LoCoMo r@10 gain", "LoCoMo multi all@10 gain", "real r@5 on / off / LOO",
                        "real r@5 gain in-sample", "real r@5 gain LOO", "real r@10 gain", "real multi all@10 gain",
                        "folds choosing on", "verdict"], rows))
        print("\n\"LOO\": each fold scored by the choice (on or off) made on all other folds of both sets; gain = that "
              "minus off. verdict: keep (on) when the mean of the two sets' LOO recall@5 gains is positive (when it is "
              "exactly 0, the LOO recall@10 gain decides)\n")
        print()
        out["priors"] = rows
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2, default=str))
    return 0


REAL_GROUPS = 5  # the real chats are grouped into this many folds for the coordinate-ascent LOO


def chat_groups(items: Sequence[Item]) -> dict[str, str]:
    """fold -> group for the coordinate-ascent LOO: each LoCoMo conversation is its own group;
    the real chats are dealt into REAL_GROUPS groups of about equal question counts (largest
    chat first, each to the smallest group). One coordinate-ascent pass per held-out group costs
    ~30 configurations; 23 single-chat folds diverge often enough to take hours on two cores."""
    sizes: dict[str, int] = {}
    for it in items:
        if it.set == "realchat":
            sizes[it.fold] = sizes.get(it.fold, 0) + 1
    load = [0] * REAL_GROUPS
    group = {it.fold: it.fold for it in items if it.set != "realchat"}
    for fold in sorted(sizes, key=lambda f: (-sizes[f], f)):
        g = load.index(min(load))
        load[g] += sizes[fold]
        group[fold] = f"real-chats-{g + 1}"
    return group


def _sequential(items: Sequence[Item], scorer: Scorer, same_set_only: bool) -> tuple[dict[str, dict[str, float]],
                                                                                  dict[str, RecallConfig]]:
    """The tuned engine's held-out scores: for every held-out fold, one pass of coordinate
    ascent on the other folds (constants in GRIDS order, each set to its best grid value
    given the values chosen before it), then the result scored on the held-out fold.
    Choosing each constant alone and combining the choices would ignore their interactions
    (on LoCoMo dev, four small single-constant gains combined lost 0.02 recall@5)."""
    combined: dict[str, dict[str, float]] = {}
    configs: dict[str, RecallConfig] = {}
    group = chat_groups(items)
    for s, held in sorted({(it.set, group[it.fold]) for it in items}):
        train = [it for it in items if group[it.fold] != held and (not same_set_only or it.set == s)]
        cfg = D
        for name, grid in GRIDS.items():
            options = {lab: _merge(cfg, c, name) for lab, c in grid.items()}
            best = max(options.values(), key=lambda c: (objective(train, scorer.scores(c, train)), c == cfg))
            if MARGIN > 0 and best != cfg and not better(train, scorer.scores(best, train),
                                                         scorer.scores(cfg, train), MARGIN):
                best = cfg  # (the one-standard-error rule: keep the value already chosen)
            cfg = best
        configs[held] = cfg
        fold_items = [it for it in items if group[it.fold] == held]
        sc = scorer.scores(cfg, fold_items)
        combined.update({it.key: sc[it.key] for it in fold_items})
    scorer.save()
    return combined, configs


def _merge(cfg: RecallConfig, chosen: RecallConfig, name: str) -> RecallConfig:
    """``cfg`` with the fields ``name``'s grid varies taken from ``chosen``."""
    varied: dict[str, Callable[[RecallConfig], dict[str, Any]]] = {
        "w_keyword": lambda c: {"w_keyword": c.w_keyword, "w_vector": c.w_vector},
        "z_scale": lambda c: {"z_scale": c.z_scale, "normalise": c.normalise},
        "context_columns": lambda c: {"fts_weights": c.fts_weights},
    }
    upd = varied[name](chosen) if name in varied else {name: getattr(chosen, name)}
    return replace(cfg, **upd)


if __name__ == "__main__":
    raise SystemExit(main())
