"""The recall pipeline: a query walks keyword side → vector side → candidates → fusion → rows.

``Recall.recall`` runs the built-in strategies (hybrid, keyword, vector) as named steps
over one ``_Run`` (the recall's state); other strategies come from the registry
(``memengine.recall.registry``: graph, activation, bridge).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from memengine.blas import one_thread
from memengine.cleantext import check_text
from memengine.db import IN_CHUNK, write_tx
from memengine.edges import add_edges
from memengine.errors import DiskFull, ReadOnly, UserError
from memengine.recall.config import (
    ALL_STRATEGIES,
    COVER_FROM,
    COVER_POOL,
    HEBB_MAX,
    HEBB_STEP,
    HEBB_TOP,
    POOL,
    STRATEGIES,
    VEC_POOL,
    RecallConfig,
    config_for,
)
from memengine.recall.contradicted import contradictions_marked
from memengine.recall.keyword import KeywordSearch
from memengine.recall.keyword_floor import says_nothing
from memengine.recall.past import asks_past, asks_when, older_first, told
from memengine.recall.people import People
from memengine.recall.priors import asks_for_many, cover_sessions
from memengine.recall.registry import lookup
from memengine.recall.state_words import state_gated, state_terms
from memengine.records import Candidate, Memory, RecallResult
from memengine.storebase import one_size_read
from memengine.text import fts_query, query_terms, quote_fts
from memengine.timeparse import to_iso, utcnow
from memengine.vectors import as_stored
from memengine.versions import outdated_marked, versions_marked

# The steps of a recall, imported by its first call (``_load_steps``), not with the store: `store`, `stats`,
# `get` and every other command that never recalls skip ~17 modules (~7 ms of a cold call's CPU). The names
# stay this module's globals (tests and benches swap them here: ``monkeypatch.setattr(pipeline, ...)``).
if TYPE_CHECKING:
    from memengine.recall.absent import absent_probe, names_someone
    from memengine.recall.adapter import adapted
    from memengine.recall.confidence import mark_weak
    from memengine.recall.episodes import is_episode, members_of, resolve_episodes
    from memengine.recall.expand import EXPAND_POOL, expand
    from memengine.recall.follow import follow
    from memengine.recall.fusion import More, combine_sims, fuse
    from memengine.recall.instances import instance_bonus
    from memengine.recall.mention import next_mention
    from memengine.recall.moved import moved_first
    from memengine.recall.parts import MIN_WORD, model_words, word_endings, word_parts
    from memengine.recall.renamed import renamed_first
    from memengine.recall.updates import FORMS, newer_first
_steps_loaded = False


def _load_steps() -> None:
    """Import the recall's steps into this module's globals, once (a name already set here is kept: a swap
    made before the first recall stands, as it would have over the module-level import)."""
    global _steps_loaded
    if _steps_loaded:
        return
    from memengine.recall.absent import absent_probe, names_someone
    from memengine.recall.adapter import adapted
    from memengine.recall.confidence import mark_weak
    from memengine.recall.episodes import is_episode, members_of, resolve_episodes
    from memengine.recall.expand import EXPAND_POOL, expand
    from memengine.recall.follow import follow
    from memengine.recall.fusion import More, combine_sims, fuse
    from memengine.recall.instances import instance_bonus
    from memengine.recall.mention import next_mention
    from memengine.recall.moved import moved_first
    from memengine.recall.parts import MIN_WORD, model_words, word_endings, word_parts
    from memengine.recall.renamed import renamed_first
    from memengine.recall.updates import FORMS, newer_first

    steps: dict[str, Any] = {
        "absent_probe": absent_probe, "names_someone": names_someone, "adapted": adapted, "mark_weak": mark_weak,
        "is_episode": is_episode, "members_of": members_of, "resolve_episodes": resolve_episodes,
        "EXPAND_POOL": EXPAND_POOL, "expand": expand, "follow": follow, "More": More, "combine_sims": combine_sims,
        "fuse": fuse, "instance_bonus": instance_bonus, "next_mention": next_mention, "moved_first": moved_first,
        "MIN_WORD": MIN_WORD, "model_words": model_words, "word_endings": word_endings, "word_parts": word_parts,
        "FORMS": FORMS, "newer_first": newer_first, "renamed_first": renamed_first,
    }
    here = globals()
    for name, value in steps.items():
        here.setdefault(name, value)
    _steps_loaded = True


def _marked_later(outdated: dict[int, list[int]], later: dict[int, list[int]]) -> None:
    """Fold a step's ``later`` (older id -> the newer ids it marks) into ``outdated``, each list sorted, once."""
    for old_id, new_ids in later.items():
        outdated[old_id] = sorted({*outdated.get(old_id, []), *new_ids})


def __getattr__(name: str) -> Any:
    """A step's name read from outside before the first recall (``pipeline.fuse``): the steps are loaded."""
    if name.startswith("__"):
        raise AttributeError(name)
    _load_steps()
    try:
        return globals()[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


# True: a warm recall at scale runs the keyword index here while two workers scan the two vector
# tables; False: the memories' table is scanned here after the keyword side. Off: at 1M, in one
# process alternating both (bench/warm_steps.py --ab, load ~11), three threads on two cores cost
# more than they overlap: CPU p50/p95 46.6/69.0 vs 43.4/62.0 ms, wall 130/229 vs 120/194 ms.
SPLIT_THREE = False
PREFETCH_KEYWORDS = True
# True: with the keyword side read ahead on the worker, this thread scans the memories' vectors before
# waiting for it, and scans the context vectors itself when the worker has not started them yet (a long
# keyword search: the worker's queue was keyword side + context scan, the calling thread idle meanwhile)
STEAL_CONTEXTS = True
_pool: list[Any] = []


def _vector_pool() -> Any:
    """One worker thread per process for the memories' vector table (the store's own worker scans the
    contexts'); shared by every store of the process, as the matrices' searches share the cores."""
    if not _pool:
        from concurrent.futures import ThreadPoolExecutor

        _pool.append(ThreadPoolExecutor(max_workers=1, thread_name_prefix="mem-vectors"))
    return _pool[0]


@dataclass
class _Run:
    """One recall's state, handed from step to step."""

    query: str
    k: int
    strategy: str
    raw: bool
    cfg: RecallConfig
    where: str  # the recall filter (SQL over alias m) and its arguments
    args: list[Any]
    pool: int  # candidates taken from each retriever
    people: dict[str, str]  # people the query names (hybrid only)
    at_scale: bool  # parallel paths: worker thread, in-process keyword index
    index_ready: bool  # the in-process keyword index is built
    kw: dict[int, float] = field(default_factory=dict)  # bm25 per candidate
    kw_future: Any = None  # the keyword side running on the worker thread
    kw_later: Callable[[], list[tuple[int, float]]] | None = None  # the keyword side, to run inline later
    kw_ahead: bool = False  # kw_later only filters what the worker reads ahead (``_keyword_prefetch``)
    phrase: dict[int, float] = field(default_factory=dict)
    pruned: list[str] = field(default_factory=list)  # frequent words left out of the keyword query
    state: set[str] = field(default_factory=set)  # its words about time / state ("now", "still"): state_words.py
    qvec: Any = None  # the query vector at stored precision
    combined: dict[int, float] = field(default_factory=dict)  # vector score of every kNN hit
    ranked: list[int] = field(default_factory=list)  # kNN hits that pass the filter, best first
    vs: dict[int, float] = field(default_factory=dict)  # vector score per candidate
    degraded: str | None = None
    rows: dict[int, Candidate] = field(default_factory=dict)  # candidates read ahead (by the keyword side)
    absent: dict[int, float] = field(default_factory=dict)  # cosine to the question's words no memory holds


# newname.py: the postings of a name below a turn read to tell whether its thread said it before (an import stores a
# chat's turns in order: the nearest earlier posting is nearly always in the same thread)
SAID_EARLIER_READS = 8


def ran_strategy(asked: str, had_vector: bool) -> str:
    """The strategy a recall reports: the one that ran. A hybrid or vector recall with no query vector (no model,
    a model that failed, MEM_EMBEDDER=none) found by keywords only and says "keyword" (users29: it said "hybrid")."""
    return "keyword" if asked in ("hybrid", "vector") and not had_vector else asked


def step_depth(k: int, cfg: RecallConfig) -> int:
    """How deep the steps after fusion rank for a recall of ``k``: ``cfg.step_depth``, or ``k`` when larger."""
    return max(k, cfg.step_depth)


class Recall(KeywordSearch, People):
    """The recall room of :class:`memengine.store.MemoryStore`."""

    @one_size_read
    def recall(
        self,
        query: str,
        k: int = 10,
        strategy: str = "hybrid",
        *,
        types: Iterable[str] | None = None,
        sources: Iterable[str] | None = None,
        tags: Iterable[str] | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        include_archived: bool = False,
        raw: bool = False,
        touch: bool = True,
        explain: bool = False,
        shared: bool = False,
        summaries: bool = False,
        config: RecallConfig | None = None,
        history: bool = False,
        as_of: datetime | None = None,
        authors: Iterable[str] | None = None,
        **graph_options: Any,
    ) -> RecallResult:
        """Ranked memories for ``query``.

        ``hybrid`` pools the candidates of both retrievers, normalises bm25 and cosine
        over that pool (z-scores, see NORMALISE; raw bm25 and cosine live on unrelated
        scales) before a weighted sum, then adds priors: people the query names, dated
        memories for "when" questions, length, strength and importance. Conversational
        memories are matched through their neighbours too (keyword context columns and a
        context vector).

        Superseded facts (``valid_to`` set) are left out; ``history`` brings them back,
        each right after the version that replaced it and marked (``superseded_by``);
        ``as_of`` answers with what was valid at that time.
        """
        t0 = time.perf_counter()
        _load_steps()
        if not isinstance(query, str):
            raise UserError(f"query must be text (got {type(query).__name__})")
        try:
            query = check_text(query, "query")
        except ValueError as exc:
            raise UserError(str(exc)) from exc
        registered = lookup(strategy) if strategy not in STRATEGIES else None
        if registered is not None:
            return registered(self, query, k=k, strategy=strategy, types=types, sources=sources, tags=tags,
                              since=since, until=until, include_archived=include_archived, raw=raw, touch=touch,
                              explain=explain, shared=shared, summaries=summaries,
                              **({"history": True} if history else {}),
                              **({"as_of": as_of} if as_of is not None else {}),
                              **({"authors": authors} if authors else {}), **graph_options)
        if strategy not in STRATEGIES:
            raise UserError(f"--strategy must be one of {', '.join(ALL_STRATEGIES)} (got {strategy!r})")
        if not query or not query.strip():
            raise UserError("query is empty")
        if k < 1:
            raise UserError("-k must be at least 1")
        if not raw and not self.conn.execute("SELECT EXISTS (SELECT 1 FROM memories)").fetchone()[0]:
            # (users29) nothing stored yet: the answer is empty without loading (or, on a first run, preparing) the
            # model — the first recall after install spent ~3.8 CPU-s to say count 0. The filters are still checked
            # (an unknown type is an error), and --raw queries still reach SQLite's FTS syntax check.
            self.filter_sql(types, sources, tags, since, until, include_archived, shared=shared, summaries=summaries,
                            history=history, as_of=as_of, authors=authors)
            return RecallResult(query=query, strategy=strategy, results=[], took_ms=(time.perf_counter() - t0) * 1000)
        cfg = config or (config_for(getattr(self.embedder, "model_id", None)) if strategy == "hybrid"
                         else RecallConfig())
        # a question about the past of a fact (round 38): the retired versions admitted, the older one first
        past = strategy == "hybrid" and cfg.past and not history and as_of is None \
            and (asks_past(query)[0] or asks_when(query))
        where, args = self.filter_sql(types, sources, tags, since, until, include_archived, shared=shared,
                                        summaries=summaries, history=history or past, as_of=as_of,
                                        authors=authors)
        people = self.people_in(query) if strategy == "hybrid" else {}
        self._scale_op()
        at_scale = self._at_scale()
        if at_scale and strategy in ("hybrid", "keyword"):
            self._maybe_start_keyword_index()
        index_ready = self._keyword_index is not None and self._keyword_index.ready
        if at_scale and self._is_warm:
            one_thread()  # BLAS: small products, two at a time (memengine/blas.py)
        run = _Run(query, k, strategy, raw, cfg, where, args, max(POOL, step_depth(k, cfg) * 3), people,
                   at_scale, index_ready)
        self._retrieve(run)
        results = self._rank(run, explain)
        if history or as_of is not None:
            results = versions_marked(self.conn, results)
        results = contradictions_marked(self.conn, results)  # (users29) two sources disagreeing: the agent asks
        warnings = self.touch_if_writable([m.id for m in results]) if touch and results else []
        if (self._reindex_pending or self._stored_bare) and run.qvec is not None:
            # (a model change half done, or memories stored in degraded mode: say so, every time)
            note = self.reindex_note()
            warnings = [*warnings, note] if note else warnings
        if at_scale and strategy in ("hybrid", "keyword") and self._keyword_index is not None:
            note = self._keyword_index.degraded_note()  # past the memory cap: say which path and its cost
            if note:
                warnings = [*warnings, note]
        took = (time.perf_counter() - t0) * 1000
        degraded = run.degraded or self._degraded_tag()
        return RecallResult(query=query, strategy=ran_strategy(strategy, run.qvec is not None),
                            results=results, degraded=degraded, took_ms=took, pruned_terms=run.pruned,
                            warnings=warnings)

    def _retrieve(self, run: _Run) -> None:
        """Both retrievers' scores into ``run`` (kw, vs, ...). What they compute depends only on
        RETRIEVAL_FIELDS of the config: bench/loo.py reuses one retrieval for every fusion variant."""
        _load_steps()  # (benches call this step alone)
        if run.strategy in ("hybrid", "keyword"):
            self._keyword_side(run)
        if run.strategy in ("hybrid", "vector"):
            self._vector_side(run)
        if run.kw_future is not None:
            run.kw = dict(run.kw_future.result())
        if run.kw_later is not None:  # (no query vector after all)
            run.kw = dict(run.kw_later())
        if run.state and run.kw:  # a note matching only the question's "now" / "still" gets no keyword score
            run.kw = state_gated(self.conn, run.query, run.state, run.kw, self._holding)
        parts_on, instances_on = run.cfg.word_parts and not run.raw, run.cfg.w_instances > 0
        absent_on = bool(run.cfg.absent) and run.qvec is not None and not run.raw
        endings_on = bool(run.cfg.word_endings) and not run.raw
        short_on = bool(run.cfg.short_words) and not run.raw
        bridge_on = bool(run.cfg.bridge) and run.cfg.w_bridge > 0 and not run.raw
        if run.strategy != "hybrid" or not (parts_on or (instances_on and run.kw) or absent_on or endings_on
                                            or bridge_on or short_on):
            return
        terms = self._keyword_terms(run)  # (once for the steps below)
        if parts_on:
            # question words no memory holds (compounds, inflections the English stemmer does not know), by the
            # parts of them the index holds (parts.py): their bm25 adds to the keyword score, as their words would
            # (only whether a long word is held at all: counted up to one memory)
            long = [t for t in terms if len(t) >= MIN_WORD]
            parts = word_parts(self.conn, long, self.doc_shares(long, upto=0)) if long else []
            if parts:
                for mid, score in self._keyword(" OR ".join(parts), run.where, run.args, run.pool, run.cfg.fts_weights):
                    run.kw[mid] = run.kw.get(mid, 0.0) + score
        if short_on and terms:
            # question words no memory holds, by the indexed words that shorten them (parts.py ``short_forms``):
            # "ref" of "reference", "inv" -> "invoice"; their bm25 adds to the keyword score as the words' own would
            from memengine.recall.parts import short_forms

            held = self.doc_shares(terms, upto=0)  # (whether each is held at all: one posting read, cached)
            shorts = short_forms(self.conn, terms, held, run.cfg.short_words, model_words(self.embedder)) \
                if any(held.get(t, 1.0) == 0.0 for t in terms) else []
            if shorts:
                for mid, score in self._keyword(" OR ".join(shorts), run.where, run.args, run.pool,
                                                run.cfg.fts_weights):
                    run.kw[mid] = run.kw.get(mid, 0.0) + score
        if endings_on:
            # question words in the other endings the index holds of them (parts.py ``word_endings``): inflections
            # the English stemmer does not know; their bm25 adds to the keyword score as the words' own would
            gated = run.cfg.word_endings in ("model", "question")
            known = model_words(self.embedder) if gated else None
            endings = word_endings(self.conn, terms, known, run.cfg.word_endings == "question") \
                if not gated or known else []
            if endings:
                for mid, score in self._keyword(" OR ".join(endings), run.where, run.args, run.pool,
                                                run.cfg.fts_weights):
                    run.kw[mid] = run.kw.get(mid, 0.0) + score
        if bridge_on and terms:
            self._bridge(run, terms)
        if instances_on and run.kw:
            # the instance a category word of the question stands for, said near it in the chat (instances.py):
            # a turn naming it scores as if it held the question's words (the larger of the two, not their sum:
            # a turn holding both must not leap over the others; summed, LoCoMo dev lost 0.008 recall@5)
            for mid, extra in instance_bonus(self, run.query, terms, run.kw, run.where, run.args, run.pool,
                                             run.cfg.w_instances).items():
                run.kw[mid] = max(run.kw.get(mid, 0.0), extra)
        if absent_on:
            # words of the question no memory holds, read by the model apart (absent.py): the fusion adds
            # a share of each candidate's cosine to them to its vector score
            run.absent = absent_probe(self, run.query, terms, set(run.kw) | set(run.vs) | set(run.phrase),
                                      run.cfg.absent)

    def _bridge(self, run: _Run, terms: list[str]) -> None:
        """The store's words the question's words are said otherwise with, searched as one more keyword query whose
        bm25 times ``w_bridge`` adds to the keyword score (bridge.py, round 33)."""
        from memengine.recall.bridge import RARE_SHARE, bridge_words

        upto = max(1, int(RARE_SHARE * self._df_state()[0]))  # (a count past the rare share needs no exact figure)
        words = bridge_words(terms, run.cfg.bridge_floor, run.cfg.bridge,
                             lambda ws: self.doc_shares(ws, "content", upto),
                             lambda ws: self.doc_shares(ws, "content", 0))  # (held at all: one posting read)
        if words:
            # (``words``: a warm process's in-process keyword index answers, ~40 ms -> a few at 100k)
            for mid, score in self._keyword(" OR ".join(quote_fts(w) for w in words), run.where, run.args, run.pool,
                                            run.cfg.fts_weights, words=words):
                run.kw[mid] = run.kw.get(mid, 0.0) + run.cfg.w_bridge * score

    def _keyword_terms(self, run: _Run) -> list[str]:
        """The query's content words the keyword side searches for (``run.pruned``: those left out)."""
        terms = query_terms(run.query)
        if run.cfg.asked_words and terms:  # "how much", "quand", "est", "de": the question's frame (round 40)
            from memengine.recall.asked_words import content_terms

            terms = content_terms(run.query, terms, run.cfg.asked_words)
        if run.people and run.cfg.drop_person_terms:
            # a name alone must not swamp the keyword score: it is handled by the person prior
            name_words = {w for key in run.people for w in key.split()}
            terms = [t for t in terms if t not in name_words] or terms
        if run.cfg.max_df and terms:
            # very frequent words discriminate little and are the costliest to score
            shares = self.doc_shares(terms, run.cfg.df_column)
            kept = [t for t in terms if shares[t] <= run.cfg.max_df] or [min(terms, key=lambda t: shares[t])]
            run.pruned = [t for t in terms if t not in kept]
            terms = kept
        if run.cfg.state_words and run.strategy == "hybrid":  # "now", "these days", "still", "jetzt", "ahora": intent, not content (round 41)
            run.state = state_terms(run.query, terms)
        return terms

    def _keyword_side(self, run: _Run) -> None:
        """bm25 of the best candidates: now, on the worker thread (``kw_future``) or later (``kw_later``)."""
        cfg, hybrid = run.cfg, run.strategy == "hybrid"
        terms: list[str] = []
        if run.raw:
            match: str | None = run.query
        else:
            terms = self._keyword_terms(run)
            match = " OR ".join(quote_fts(t) for t in terms) if terms else fts_query(run.query)
        words = terms if terms and not run.raw else None
        # not inside an open transaction: the worker's connection would not see its writes
        # (with the in-process keyword index ready, bm25 costs ~3 ms: inline is faster, p50
        # -0.5 ms over 8 alternating runs at 100k; embedding the query on the worker meanwhile
        # was slower still: +1.6 ms, and +0.6 / +1.3 ms p50 / p95 with a single-threaded
        # onnxruntime session: the two sides slow each other down, two cores or not)
        if match:
            search = (match, run.where, run.args, run.pool, cfg.fts_weights)
            if hybrid and run.at_scale and not self.conn.in_transaction and not run.index_ready:
                run.kw_future = self._keyword_async(*search, words=words)
            elif hybrid and run.at_scale and run.index_ready and self.embedder is not None:
                # the in-process index answers in ~2 ms: run it while the worker scans the context
                # vectors (p95 -0.8 / -0.5 ms, p50 +0.2 / 0.0 in two 8-10-round alternating runs)
                run.kw_ahead = PREFETCH_KEYWORDS
                run.kw_later = (self._keyword_prefetch(*search, words=words, rows=run.rows) if PREFETCH_KEYWORDS
                                else functools.partial(self._keyword, *search, words=words))
            else:
                run.kw = dict(self._keyword(*search, words=words))
        if hybrid and cfg.w_phrase and len(terms) >= 2:
            # proximity: consecutive content words of the question found together as a phrase
            pairs = " OR ".join(quote_fts(f"{a} {b}") for a, b in zip(terms, terms[1:]))
            run.phrase = dict(self._keyword(pairs, run.where, run.args, run.pool, cfg.fts_weights))

    def _vector_side(self, run: _Run) -> None:
        """Vector score of the best candidates (own and context vectors), filtered like the keyword side."""
        vecs = self.embed_or_none([run.query], query=True)
        if vecs is None:
            run.degraded = "no-vectors"
            if run.strategy == "vector":  # degrade loudly to keyword rather than return nothing
                match = fts_query(run.query)
                run.kw = dict(self._keyword(match, run.where, run.args, run.pool)) if match else {}
            return
        qvec = vecs[0]
        if run.cfg.query_adapter and self.embedder is not None:
            # a learned map moves the question toward where its answers embed (adapter.py)
            qvec = adapted(qvec, run.query, run.cfg.query_adapter, self.embedder.model_id)
        run.qvec = as_stored(qvec)  # every scan below, on either path, sees this query
        # One wide kNN per vector table gives the cosine of nearly every candidate the
        # keyword side brings too (a vec0 lookup by id is a scan). The fusion weights were
        # tuned with this horizon and the floor in _rank, so the in-process matrix keeps both
        # (exact cosines for every keyword candidate lowered LoCoMo recall@5 by 0.003).
        own, ctx = self._scan_vectors(run, max(VEC_POOL, run.pool * 2))
        combined = run.combined = combine_sims(own, ctx, run.cfg.context_mix, min(own.values(), default=-1.0))
        # best first, ties by id (two C-level sorts: no per-item Python key)
        by_sim = sorted(sorted(combined), key=combined.__getitem__, reverse=True)
        # filter the best few first (one small IN query); widen only if filters removed too many
        allowed: set[int] = set()
        for lo, hi in ((0, run.pool * 2), (run.pool * 2, len(by_sim))):
            allowed |= self.allowed(by_sim[lo:hi], run.where, run.args)
            if len(allowed) >= run.pool:
                break
        run.ranked = [mid for mid in by_sim if mid in allowed]
        run.vs = {mid: combined[mid] for mid in run.ranked[:run.pool]}

    def _scan_vectors(self, run: _Run, want: int) -> tuple[dict[int, float], dict[int, float]]:
        """(own, context) cosines of the ``want`` nearest rows of each vector table."""
        ctx_future = own_future = ctx_matrix = None
        if run.cfg.context_vectors and run.kw_future is None and run.at_scale and self._use_matrix("vec_contexts"):
            # the worker thread is idle (FTS5 is not running on it): it scans the context
            # vectors (synced here, on this thread's connection) while this thread scans the
            # memories' ones; numpy releases the GIL: p95 -1.1 ms over 8 alternating runs
            own_matrix = self._matrix("vec_memories") if self._use_matrix("vec_memories") else None
            ctx_matrix = self._matrix("vec_contexts")
            ctx_future = self._worker()[0].submit(ctx_matrix.search, run.qvec, want)
            if own_matrix is not None and run.kw_later is not None and SPLIT_THREE:
                # three jobs (keyword index, two tables) on two threads left one core idle while
                # this thread ran the last two: a second worker takes the memories' table
                own_future = _vector_pool().submit(own_matrix.search, as_stored(run.qvec), want)
        if run.kw_later is not None and not (run.kw_ahead and STEAL_CONTEXTS):
            run.kw, run.kw_later = dict(run.kw_later()), None
        own = dict(own_future.result()) if own_future is not None else dict(self._nearest(run.qvec, want))
        if ctx_future is not None and ctx_matrix is not None and STEAL_CONTEXTS and ctx_future.cancel():
            # the worker has not started the context scan: its keyword read-ahead runs long (common
            # words: ~200k postings at 100k rows). This thread, free now, runs the same call.
            ctx_future = None
            ctx = dict(ctx_matrix.search(run.qvec, want))
        elif ctx_future is None:
            ctx = dict(self._nearest_contexts(run.qvec, want)) if run.cfg.context_vectors else {}
        if run.kw_later is not None:  # (read ahead: awaited once this thread has scanned)
            run.kw, run.kw_later = dict(run.kw_later()), None
        if ctx_future is not None:
            ctx = dict(ctx_future.result())
        return own, ctx

    def _rank(self, run: _Run, explain: bool) -> list[Memory]:
        """Candidates of both sides fused, ordered (session coverage if asked), read whole.

        Every step works on the top ``step_depth(run.k, run.cfg)``, and the list is cut to ``run.k`` only at
        the end: the results for k are the head of those for any larger k up to ``cfg.step_depth``."""
        _load_steps()  # (benches call this step alone)
        k, vs = step_depth(run.k, run.cfg), run.vs
        cand = set(run.kw) | set(vs) | set(run.phrase)
        if run.qvec is not None and cand:
            # candidates beyond the kNN horizon are at most as similar as its farthest member
            floor = min((run.combined[m] for m in run.ranked), default=0.0)
            vs = {mid: run.combined.get(mid, floor) for mid in cand}
        cover = (run.strategy == "hybrid" and run.cfg.session_coverage < 1.0 and k > COVER_FROM
                 and asks_for_many(run.query))
        rows = self._read_candidates(cand, run.rows)
        if run.absent and run.cfg.w_absent and vs:
            # what the question says in words no memory holds, read by the model apart (absent.py)
            low = min(run.absent.values())
            named = ":named" in run.cfg.absent
            asked = set(query_terms(run.query)) if named else set()
            vs = {mid: v + run.cfg.w_absent * (run.absent.get(mid, low) if not named or (
                mid in rows and names_someone(rows[mid].content, rows[mid].author, asked)) else low)
                for mid, v in vs.items()}
        members: dict[int, list[int]] = {}

        def episode_members(top: list[Candidate]) -> list[int]:
            # episodes in the top k hand their place to their best member: score the members
            eps = [c.id for c in top if is_episode(c)]
            members.update(members_of(self.conn, eps) if eps else {})
            return [m for ms in members.values() for m in ms]

        # (stores without episodes, e.g. threads stored live, take the plain path: no extra work)
        # (a substring test on the raw metadata: ~0.1 ms for 300 candidates on a loaded host)
        more = (episode_members if run.cfg.resolve_episodes
                and any(c._meta_raw and '"episode"' in c._meta_raw for c in rows.values()) else None)
        want = k + 5 if more else k  # an episode whose best member is shown already leaves a gap
        expanding = run.strategy == "hybrid" and (run.cfg.w_coverage > 0 or run.cfg.w_hop > 0)
        spread, spread_pool = False, 0
        if run.strategy == "hybrid" and run.cfg.list_spread:  # a list question (round 48; off by default)
            from memengine.recall.spread import asks_list, parse

            spread = asks_list(run.query)
            spread_pool = parse(run.cfg.list_spread)[3] if spread else 0  # (round 50: deeper than COVER_POOL)
        if run.strategy == "hybrid" and run.cfg.list_hop:  # (round 50; imported here: off by default)
            from memengine.recall.list_hop import pool_of

            spread_pool = max(spread_pool, pool_of(run.cfg.list_hop, run.query))
        if cover or expanding or spread or spread_pool:
            want = max(want, COVER_POOL if cover or spread else 0, EXPAND_POOL if expanding else 0, spread_pool)
        fuse_cfg = self._vocab_weights(run) if run.strategy == "hybrid" and run.cfg.kw_cover > 0 and run.kw \
            and not run.raw else run.cfg  # (round 26: the keyword weight a question's words can earn; vocab_cover.py)
        if spread and run.cfg.list_person != 1.0:  # (round 48: a list question's person, their own turns)
            fuse_cfg = replace(fuse_cfg, w_person=fuse_cfg.w_person * run.cfg.list_person)
        kw = run.kw
        if run.strategy == "hybrid" and run.cfg.kw_floor and says_nothing(kw, rows):  # (round 34: only words most
            kw = {}  # notes hold, the user's name in a store of notes about them: min-max gave them full weight)
        scored = self._fuse(rows, kw, vs, run.strategy, explain, fuse_cfg, run.query,
                            run.people, run.phrase, k=want, more=more)
        scored.sort(key=lambda m: (-(m.score or 0.0), m.id))
        if expanding:
            scored = expand(run, scored, lambda match, limit: dict(self._keyword(
                match, run.where, run.args, limit, run.cfg.fts_weights)), self._content_shares)
        if members:
            scored = resolve_episodes(scored, len(scored), members)
        if run.strategy == "hybrid" and run.cfg.list_hop:  # a list question's hop into other sessions (round 50)
            from memengine.recall.list_hop import list_hop

            scored = list_hop(scored, run.query, run.cfg.list_hop, lambda match, limit: dict(self._keyword(
                match, run.where, run.args, limit, run.cfg.fts_weights)), self._content_shares, run.cfg.hop_rare_share)
        if run.strategy == "hybrid" and run.cfg.ordinal:  # "the first …": the earliest end of the chat's time
            from memengine.recall.ordinal import ordinal_nudge  # (round 48; imported here: off by default)

            scored = ordinal_nudge(scored, run.query, run.cfg.ordinal)
        if run.strategy == "hybrid" and run.cfg.w_thin > 0:  # a turn saying next to nothing below those saying
            from memengine.recall.thin import thin_below  # something (round 37; imported here: off by default)

            scored = thin_below(scored, k, run.query, run.cfg.w_thin, run.cfg.thin_words)
        if cover:
            scored = cover_sessions(scored, k, run.cfg.session_coverage, explain)
        if spread:
            from memengine.recall.spread import spread_bursts

            scored = spread_bursts(scored, k, run.query, run.cfg.list_spread,
                                   self.vectors if run.qvec is not None else None)
        if run.strategy == "hybrid" and run.cfg.newname and run.cfg.w_newname > 0:  # a turn first saying a name,
            # for a question asking which one (round 32; imported here: off by default)
            from memengine.recall.newname import new_names_first

            scored = new_names_first(scored, k, run.query, run.cfg.newname, run.cfg.w_newname, self._said_earlier,
                                     query_terms(run.query))
        outdated: dict[int, list[int]] = {}
        if run.strategy == "hybrid" and run.cfg.follow:  # the value asked, said right after its subject (before
            # the update links: a value brought in that a later turn changed is theirs to rank below it)
            scored, outdated = follow(scored, k, run.query, lambda seeds, span: self._next_turns(seeds, span, run),
                                      run.cfg.follow)
        if run.strategy == "hybrid" and run.cfg.mention:  # how a top hit's subject turned out, later in its thread
            scored = next_mention(scored, k, run.query, lambda seeds, span: self._next_turns(seeds, span, run),
                                  self._content_counts, run.cfg.mention)
        if run.strategy == "hybrid" and run.cfg.closing:  # the turn that closes a top hit's exchange (round 51;
            from memengine.recall.closing import closing_turns  # imported here: off by default)

            scored = closing_turns(scored, k, run.query, lambda seeds, span: self._turns_after(seeds, span, run),
                                   run.cfg.closing)
        if run.strategy == "hybrid" and run.cfg.answer_seeds:  # the answer to a top hit's question, in the tail
            # (imported here: the step is off by default, and a cold recall should not load it)
            from memengine.recall.answers import answer_tail

            scored = answer_tail(scored, k, run.cfg.answer_seeds, run.cfg.answer_keep,
                                 lambda seeds, span: self._turns_after(seeds, span, run), run.query, run.cfg.answer_gate)
        if run.strategy == "hybrid" and run.cfg.two_asks:  # a question asking two things: the second turn
            from memengine.recall.twoask import two_asks  # (round 37; imported here: off by default)

            scored = two_asks(scored, k, run.query, run.cfg.two_asks, self.conn, run.where, run.args,
                              lambda seeds, span: self._next_turns(seeds, span, run), self._content_counts)
        if run.strategy == "hybrid" and run.cfg.newer_first:  # a later turn that changes an earlier one's value
            # "slot:pool": the update may also be one of the candidates fusion scored below the top k
            mode, _, where = run.cfg.newer_first.partition(":")
            pool = scored[k:] if where == "pool" else []
            unscored: list[Candidate] = []
            if where == "pool" and mode in ("named", *FORMS):  # (and the candidates fusion did not score: an update
                # naming the replaced value is worded away from the question; newer_first gates them cheaply)
                have = {c.id for c in scored}
                unscored = [c for c in rows.values() if c.id not in have]
            scored, later = newer_first(scored, k, mode, pool, run.query, unscored, run.cfg.updates_across)
            _marked_later(outdated, later)
        if run.strategy == "hybrid" and run.cfg.moved:  # a place said changed, above the older place
            scored, later = moved_first(scored, k, run.query)
            _marked_later(outdated, later)
        if run.strategy == "hybrid" and run.cfg.renamed:  # a name replaced by a name first said later (round 23)
            have = {c.id for c in scored}
            scored, later = renamed_first(scored, k, run.cfg.renamed, run.query,
                                          [*scored[k:], *(c for c in rows.values() if c.id not in have)],
                                          self._said_before)
            _marked_later(outdated, later)
        if run.strategy == "hybrid" and run.cfg.succeeded:  # a name succeeded after news of the old one (round 27)
            from memengine.recall.succeeded import mentions_after, said_before_in, successor_first

            scored, later = successor_first(
                scored, k, run.query, lambda seeds, n: mentions_after(self.conn, seeds, n, run.where, run.args),
                lambda turns, span: self._next_turns(turns, span, run), said_before_in(self.conn))
            _marked_later(outdated, later)
        if run.strategy == "hybrid" and run.cfg.notes_recent:  # notes scored alike: the later first (round 45)
            from memengine.recall.notes_recent import later_nudged

            scored = later_nudged(scored, k, run.query, run.cfg.notes_recent)
        if run.strategy == "hybrid" and run.cfg.notes_newer:  # an agent's note restated as a change (round 30)
            from memengine.recall.notes import newer_notes_first

            scored, later = newer_notes_first(scored, k, run.query, self.vectors if run.qvec is not None else None,
                                              same_cos=run.cfg.notes_same_cos, heads=run.cfg.notes_head,
                                              when=run.cfg.notes_when)
            _marked_later(outdated, later)
        if run.strategy == "hybrid" and run.cfg.notes_now:  # the first hit's later version, unlinked (notes5)
            from memengine.recall.notes_now import versions_first

            scored, later = versions_first(scored, run.query, self.vectors if run.qvec is not None else None,
                                      run.cfg.notes_now)
            _marked_later(outdated, later)
        if run.strategy == "hybrid" and run.cfg.partner:  # the reply a short top hit invited, 10th (round 52)
            from memengine.recall.partner import partner_slot

            scored = partner_slot(scored, run.query, lambda seeds, span: self._turns_after(seeds, span, run),
                                  run.cfg.partner)
        whole = self.rows([c.id for c in scored[:k]])
        results = []
        for c in scored[:k]:
            m = whole.get(c.id)
            if m is not None:  # (hard-deleted by another process between the two reads)
                m.score, m.explain = c.score, c.explain
                if c.id in outdated:
                    m.possibly_outdated, m.possibly_outdated_by = True, outdated[c.id]
                results.append(m)
        # (a probable update ranks first; on the whole depth, so that the cut below keeps the prefix property)
        keep = None
        if run.strategy == "hybrid" and run.cfg.notes_links and any(m.thread is None for m in results):
            from memengine.recall.notes_links import link_keeper  # (round 36: two notes' links vetted)

            keep = link_keeper(self.vectors if run.qvec is not None else None,
                               run.query if run.cfg.subject_kept else None, heads=run.cfg.notes_head)
        marked = outdated_marked(self.conn, results, keep)
        if run.strategy == "hybrid" and run.cfg.notes_about:  # the note about the thing, not one naming it aside (notes6)
            from memengine.recall.notes_about import about_first

            marked = about_first(marked, run.query)
        results = marked[:run.k]
        # the older a newer at the cut marks stays right under it (one more than k: outdated_marked never drops
        # it for the newer); the list for k is still the head of the list for any larger k
        # (one, not a chain: three notes each restating the one before would make `-k 1` three results)
        if len(results) < len(marked) and results and marked[len(results)].possibly_outdated \
                and results[-1].id in (marked[len(results)].possibly_outdated_by or []):
            results.append(marked[len(results)])
        if run.strategy == "hybrid" and run.cfg.past:  # a question about the past: the older version above the newer
            past_asked, month = asks_past(run.query)  # (round 38; recall() admitted the retired versions)
            if past_asked:
                results = older_first(self.conn, results, month, run.query if run.cfg.chain else None)[:max(run.k, len(results))]
            elif asks_when(run.query):  # (and "when did X change": a retired version returned says what replaced it)
                results = told(self.conn, results)
        terms = query_terms(run.query)
        mark_weak(results, terms, vs if run.qvec is not None else None)
        if run.strategy == "hybrid" and run.cfg.notes_weak and run.qvec is not None and results:
            from memengine.recall.notes_sure import mark_weak_notes  # (round 47: notes' weak by cosine and bm25)

            mark_weak_notes(results, terms, vs, kw, run.cfg.notes_weak)
        return results

    def _next_turns(self, seeds: list[Candidate], span: int, run: _Run) -> dict[int, list[Candidate]]:
        """The next ``span`` turns of each seed's thread that pass the recall's filter, in order (one
        indexed range read per seed: memories_thread)."""
        out: dict[int, list[Candidate]] = {}
        for seed in seeds:
            rows = self.conn.execute(
                f"SELECT {Candidate.COLUMNS} FROM memories m WHERE m.thread = ? AND m.position > ? "
                f"AND m.position <= ? AND {run.where} ORDER BY m.position",
                [seed.thread, seed.position, (seed.position or 0) + span, *run.args]).fetchall()
            out[seed.id] = [Candidate(r) for r in rows]
        return out

    def _turns_after(self, seeds: list[Candidate], span: int, run: _Run) -> dict[int, list[Candidate]]:
        """:meth:`_next_turns` in one read for every seed (an OR of indexed thread ranges: ~0.1 ms for ten seeds
        where ten reads cost ~1 ms)."""
        out: dict[int, list[Candidate]] = {s.id: [] for s in seeds}
        ranges = [(s.id, s.thread, s.position or 0) for s in seeds if s.thread is not None]
        if not ranges:
            return out
        cond = " OR ".join("(m.thread = ? AND m.position > ? AND m.position <= ?)" for _ in ranges)
        args = [a for _, thread, pos in ranges for a in (thread, pos, pos + span)]
        rows = self.conn.execute(f"SELECT {Candidate.COLUMNS} FROM memories m WHERE ({cond}) AND {run.where} "
                                 f"ORDER BY m.thread, m.position, m.id", [*args, *run.args]).fetchall()
        turns = [Candidate(r) for r in rows]
        for sid, thread, pos in ranges:
            out[sid] = [t for t in turns if t.thread == thread and t.position is not None and pos < t.position <= pos + span]
        return out

    def _said_before(self, turn: Candidate, word: str) -> bool:
        """Whether ``turn``'s thread says ``word`` (as written) in a turn before it (renamed.py: a name first said
        in a turn is a new value; one indexed range read of the thread, rare: only for a pair passing the rest)."""
        return self.conn.execute(
            "SELECT 1 FROM memories WHERE thread = ? AND position < ? AND instr(content, ?) > 0 LIMIT 1",
            (turn.thread, turn.position if turn.position is not None else -1, word)).fetchone() is not None

    def _said_earlier(self, turn: Candidate, word: str) -> bool:
        """Whether a turn of ``turn``'s thread before it says ``word`` in its own text (newname.py): the word's
        postings below the turn's id read from the keyword index, newest first, a few at most (a chat's turns are
        stored in order; a name said thousands of times costs what a rare one does)."""
        rows = self.conn.execute(
            "SELECT m.thread, m.position FROM memories m WHERE m.id IN (SELECT rowid FROM memories_fts "
            "WHERE memories_fts MATCH ? AND rowid < ? ORDER BY rowid DESC LIMIT ?)",
            ("{content} : " + quote_fts(word), turn.id, SAID_EARLIER_READS)).fetchall()
        return any(t == turn.thread and p is not None and p < (turn.position or 0) for t, p in rows)

    def _read_candidates(self, cand: set[int], have: dict[int, Candidate]) -> dict[int, Candidate]:
        """``_candidates(list(cand))``, reading only those not in ``have`` (read ahead on the worker):
        the same rows in the same order (ascending ids, as one ``IN`` query returns them)."""
        if not have or len(cand) > IN_CHUNK:
            return self._candidates(list(cand))
        fetched = self._candidates([i for i in cand if i not in have])
        return {i: have[i] if i in have else fetched[i] for i in sorted(cand) if i in have or i in fetched}

    def _content_counts(self, words: list[str], cap: int) -> dict[str, int]:
        """How many memories' own text holds each word (a count above ``cap`` may read as ``cap + 1``)."""
        n = self._df_state()[0]
        return {w: round(s * n) for w, s in self.doc_shares(words, "content", cap).items()}

    def _content_shares(self, words: list[str]) -> tuple[dict[str, float], int]:
        """Share of memories whose own text holds each word, and the number of memories."""
        shares = self.doc_shares(words, "content")
        return shares, self._df_cache[1] if self._df_cache else 0

    def _vocab_weights(self, run: _Run) -> RecallConfig:
        """``run.cfg`` with the keyword weight the question's words can earn in this store (vocab_cover.py): in
        proportion to the share of them the store holds, up to ``kw_cover``; what the keyword side loses goes to
        the vector side."""
        from dataclasses import replace

        from memengine.recall.absent import absent_words
        from memengine.recall.vocab_cover import CAP, cover_weights, held_share

        terms = self._keyword_terms(run)
        if not terms:
            return run.cfg
        n = self._df_state()[0]
        # a word is absent only if no memory holds it in any form (absent.py: not as another inflection, nor as a
        # compound's part); a word held in another form counts as held by one memory
        absent = set(absent_words(self, terms))
        counts = {t: 0 if t in absent else max(1, round(share * n))
                  for t, share in self.doc_shares(terms, None, CAP).items()}
        share = held_share(counts, n, run.cfg.kw_cover_by)
        wk, wv = cover_weights(run.cfg.w_keyword, run.cfg.w_vector, share, run.cfg.kw_cover)
        return replace(run.cfg, w_keyword=wk, w_vector=wv) if wk != run.cfg.w_keyword else run.cfg

    def _fuse(
        self, rows: dict[int, Candidate], kw: dict[int, float], vs: dict[int, float], strategy: str, explain: bool,
        cfg: RecallConfig | None = None, query: str = "", people: dict[str, str] | None = None,
        phrase: dict[int, float] | None = None, k: int | None = None,
        more: More | None = None,
    ) -> list[Candidate]:
        """``fusion.fuse`` (a method, so benchmarks can wrap it)."""
        _load_steps()
        return fuse(rows, kw, vs, strategy, explain, cfg, query, people, phrase, k, more)

    def touch_if_writable(self, ids: list[int]) -> list[str]:
        """:meth:`touch`, or a warning when the file is read-only (reads never need write access)."""
        try:
            self.touch(ids)
        except ReadOnly:
            return [f"{self.path}: read-only, so the recalled memories were not reinforced"]
        except DiskFull:
            return [f"{self.path}: disk is full, so the recalled memories were not reinforced"]
        return []

    def touch(self, ids: list[int]) -> None:
        """Reinforce memories a recall returned, and the co-retrieval edges among its top results.

        Memories returned together strengthen a ``reinforces`` edge (Hebbian), by
        ``HEBB_STEP`` per recall up to ``HEBB_MAX``; consolidate decays unused edges.
        """
        now = to_iso(utcnow()) or ""
        top = ids[:HEBB_TOP]
        with write_tx(self.conn):
            for mid in ids:
                self._reinforce(mid, now)
            pairs = [(min(a, b), max(a, b), "reinforces", HEBB_STEP) for i, a in enumerate(top) for b in top[i + 1:]]
            add_edges(self.conn, pairs, now, on_conflict="add", used=True, cap=HEBB_MAX)

