"""The association graph in use: multi-hop recall, spreading activation, navigation,
session briefing and proactive surfacing.

Everything here reads the ``associations`` / ``clusters`` / ``cluster_members`` tables
that imports and ``consolidate`` build, on top of the engine's hybrid recall. Edges
are treated as undirected for traversal (a ``part_of`` edge leads from a message to its
episode and back to the episode's other messages); the stored direction is kept in
explanations, exports and ``--context`` links.

Strategies (``MemoryStore.recall(..., strategy=...)`` dispatches here):

* ``graph`` — multi-hop: hybrid seeds, expanded through edges of weight
  ≥ ``EDGE_THRESHOLD`` for up to ``HOPS`` hops; a reached memory's relevance is the best
  ``seed score × Π edge weights × HOP_DECAY^hops`` over its paths; at most
  ``FANOUT_CAP`` edges (the strongest) are followed out of any memory.
* ``activation`` — spreading activation with lateral inhibition (see
  :func:`spread_activation`).
* ``bridge`` — distant but connected: memories the activation reaches that are *not*
  similar to the query (creative mode).

Episode memories (``metadata.kind == 'episode'``, made by imports) are hubs: they
are traversed but not returned by graph strategies unless ``hubs=True``, because
an episode's text is the concatenation of the very messages the walk reaches
through it — returning both is redundancy, not recall.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from memengine.db import select_in, write_tx
from memengine.errors import NotFound, UserError
from memengine.recall import registry
from memengine.recall.confidence import mark_weak_by_query
from memengine.recall.config import ALL_STRATEGIES, COVER_FROM, COVER_POOL, SESSION_COVERAGE, RecallConfig
from memengine.recall.priors import asks_for_many, cover_sessions
from memengine.records import EDGE_TYPES, MEMORY_TYPES, Memory, RecallResult
from memengine.store import MemoryStore
from memengine.text import STOPWORDS, query_terms
from memengine.timeparse import to_iso

# --------------------------------------------------------------------------- constants
# Tuned on the LoCoMo dev conversations (bench/locomo_graph.py), where edges come from
# the import path: temporal edges between consecutive turns, part_of to episodes,
# semantic kNN edges. Values that the bench found flat are set to the simpler choice.

SEED_K = 30  # hybrid candidates that seed the graph: wider than k so the walk can re-rank them
EDGE_THRESHOLD = 0.3  # edges weaker than this are noise (weak co-retrieval, distant kNN): never followed
HOPS = 2  # default hops for `graph` and iterations for `activation`; 3 floods, 1 barely moves
HOP_DECAY = 0.5  # relevance kept per hop in multi-hop expansion: a 2-hop memory needs strong edges to rank
FANOUT_CAP = 25  # edges followed out of one memory (the strongest): an episode of 25 turns, not a hub of 10k
ACT_DECAY = 0.6  # spreading activation: fraction passed across an edge of weight 1
FANOUT_POWER = 0.5  # spread is divided by fan_out ** FANOUT_POWER (1 = plain division; 0.5 = √, see bench)
FIRE_MIN = 0.05  # memories below this activation do not fire: keeps the walk local and fast
FIRE_MAX = 150  # at most this many (the most active) fire per round: bounds the walk on dense graphs
INHIBITION = 0.5  # lateral inhibition strength β in [0, 1]: 0 off, 1 silences the weakest group
INHIBITION_TOP = 3  # a group's strength is the sum of its top-N activations (one lucky member is not a topic)
# Support among seeds over links someone drew: with max-merge (the rule) a seed
# never gains from being linked to other good matches, so a hand-made link between two
# memories of one answer does not move the weaker one. Each seed also gets SUPPORT x weight
# x the score of every seed linked to it by an explicit or causal edge. LoCoMo with perfect
# links between multi-hop evidence (bench/locomo_oracle.py): multi-hop all@10 0.303 -> 0.415
# (graph) and 0.296 -> 0.408 (activation), recall@5 0.760 -> 0.784 (summing at 0.3: 0.760);
# over the automatic edges (semantic kNN, temporal, episodes) the same rule loses (0.225):
# they are not used. A seed's score is max(walk, own + support).
SUPPORT = 0.1
SUPPORT_TYPES = ("explicit", "causal")
BRIDGE_MAX_COS = 0.35  # bridge: memories more similar than this to the query are "direct", not bridges
# Edge types scale the weight they carry: a contradiction is a link, but not a reason to
# believe the neighbour is relevant; a supersession points at an older version.
EDGE_TYPE_FACTOR = {"temporal": 1.0, "semantic": 1.0, "causal": 1.0, "explicit": 1.0, "part_of": 1.0,
                    "derived_from": 0.9, "contradicts": 0.3, "supersedes": 0.5, "reinforces": 1.0}

# brief
BRIEF_POOL = 2000  # memories whose PageRank the `rank` phase stores (brief's candidates in a large store)
PAGERANK_DAMPING = 0.85  # standard; the restart mass goes to the personalisation vector
PAGERANK_ITERS = 30  # power iterations (converges to ~1e-4 on the bench graph)
RECENCY_HALF_LIFE_DAYS = 14.0  # a memory touched two weeks ago counts half as "current"
W_PAGERANK, W_RECENCY, W_ACCESS, W_IMPORTANCE = 0.35, 0.3, 0.15, 0.2  # stored ranks' weights (sum 1)
CHARS_PER_TOKEN_SAFE = 3.0  # fallback token estimate when no tokenizer: over-counts, so never over budget
# Precomputed ranks (consolidate's `rank` phase): PPR over the whole graph, read cold by `brief`
RANKS_META_KEY = "graph.ranks"  # _mem_meta key holding them (JSON)
RANKS_VERSION = 1  # bumped when what is stored changes meaning; another version counts as absent
RANKS_MAX_AGE_DAYS = 7.0  # older ranks are stale: brief does without them
RANKS_MAX_GROWTH = 0.25  # ...as when memories or edges grew by more than this fraction since

# surface
SURFACE_STATED_COVERAGE = 0.8  # a memory whose content words are ≥ 80% in the utterance is already said
SURFACE_STATED_COS = 0.92  # ...or whose embedding is this close to the utterance's
MMR_LAMBDA = 0.7  # relevance vs novelty in MMR: mostly relevant, but no two near-copies
MMR_DUP_COS = 0.9  # a candidate this close to one already picked is a restatement: dropped, not just demoted
SURFACE_K = 5

_STRATEGIES = ("graph", "activation", "bridge")


# --------------------------------------------------------------------------- adjacency

@dataclass
class Adjacency:
    """Lazy undirected view of ``associations``: neighbours fetched per frontier."""

    store: MemoryStore
    threshold: float = EDGE_THRESHOLD
    fanout_cap: int = FANOUT_CAP
    include_archived: bool = False
    cache: dict[int, list[tuple[int, float, str]]] = field(default_factory=dict)
    fan: dict[int, int] = field(default_factory=dict)

    def neighbours(self, ids: Iterable[int]) -> dict[int, list[tuple[int, float, str]]]:
        """``{id: [(neighbour, effective weight, edge type), ...]}``, strongest first, capped.

        Effective weight = stored weight × ``EDGE_TYPE_FACTOR``; edges below the
        threshold are dropped; dead (deleted, or archived unless asked) neighbours too.
        The full qualifying fan-out (before the cap) is kept in ``self.fan``.
        """
        todo = [i for i in ids if i not in self.cache]
        if todo:
            found: dict[int, dict[int, tuple[float, str]]] = {i: {} for i in todo}
            conn = self.store.conn
            for col, other in (("source_id", "target_id"), ("target_id", "source_id")):
                sql = (f"SELECT {col}, {other}, edge_type, weight FROM associations "
                       f"WHERE {col} IN ({{ids}}) AND weight >= ?")
                for a, b, et, w in select_in(conn, sql, todo, [self.threshold]):
                    ew = float(w) * EDGE_TYPE_FACTOR.get(et, 1.0)
                    if ew < self.threshold:
                        continue
                    prev = found[a].get(b)
                    if prev is None or ew > prev[0]:
                        found[a][b] = (ew, et)
            live = _live(self.store, {b for d in found.values() for b in d}, self.include_archived)
            for a, d in found.items():
                nb = sorted(((b, w, et) for b, (w, et) in d.items() if b in live), key=lambda x: (-x[1], x[0]))
                self.fan[a] = len(nb)
                self.cache[a] = nb[:self.fanout_cap]
        return {i: self.cache[i] for i in ids}


_TYPES_SQL = ", ".join(f"'{t}'" for t in MEMORY_TYPES)


def _live(store: MemoryStore, ids: Iterable[int], include_archived: bool) -> set[int]:
    """The ids among ``ids`` that are active (or archived, if asked).

    Answered from the covering index ``memories_status_type`` (status, memory_type, rowid):
    one probe per (status, type, id), without reading the memory rows, whose content and
    context make a primary-key lookup ~20× dearer (68 ms vs 3 ms for 1,800 ids at 100k).
    """
    status = "'active', 'archived'" if include_archived else "'active'"
    return {int(r[0]) for r in select_in(
        store.conn, f"SELECT id FROM memories WHERE status IN ({status}) AND memory_type IN ({_TYPES_SQL}) "
                    f"AND id IN ({{ids}})", ids)}


def _hubs(store: MemoryStore, ids: Iterable[int]) -> set[int]:
    """Episode memories among ``ids`` (structural hubs)."""
    return {int(r[0]) for r in select_in(
        store.conn, "SELECT id FROM memories WHERE id IN ({ids}) AND json_extract(metadata, '$.kind') = 'episode'",
        ids)}


# --------------------------------------------------------------------------- strategies

# A path is a cons list, newest step first: ((id, edge type, weight), rest) ending in ((seed, None, None), None).
# Extending a path is O(1) and shares its prefix; lists are built only for what is shown.
Trail = tuple[tuple[int, str | None, float | None], Any]


class Paths(Mapping[int, list[dict[str, Any]]]):
    """``{id: [{"id": seed}, {"id", "edge", "weight"}, ...]}`` materialised from trails on access."""

    def __init__(self, trails: dict[int, Trail]) -> None:
        self._trails = trails

    def __getitem__(self, i: int) -> list[dict[str, Any]]:
        steps = []
        cell: Trail | None = self._trails[i]
        while cell is not None:
            (mid, et, w), cell = cell
            steps.append({"id": mid} if et is None else {"id": mid, "edge": et, "weight": round(w or 0.0, 3)})
        return steps[::-1]

    def __iter__(self) -> Iterator[int]:
        return iter(self._trails)

    def __len__(self) -> int:
        return len(self._trails)


@dataclass
class Activation:
    """Result of a walk: scores, the seeds' own scores, and best paths for ``--explain``."""

    score: dict[int, float]
    seed: dict[int, float]
    trails: dict[int, Trail]
    group: dict[int, str] = field(default_factory=dict)
    inhibited: dict[int, float] = field(default_factory=dict)

    @property
    def path(self) -> Paths:
        """Best path per reached memory, seed first (see :class:`Paths`)."""
        return Paths(self.trails)


def multihop(adj: Adjacency, seeds: dict[int, float], hops: int = HOPS, decay: float = HOP_DECAY) -> Activation:
    """Best-path relevance: ``seed × Π(edge weight) × decay^hops``, max over paths, ≤ ``hops`` hops."""
    score = dict(seeds)
    trail: dict[int, Trail] = {s: ((s, None, None), None) for s in seeds}
    frontier = set(seeds)
    for _ in range(max(0, hops)):
        nbrs = adj.neighbours(sorted(frontier))
        nxt: set[int] = set()
        for u in sorted(frontier):
            for v, w, et in nbrs[u]:
                x = score[u] * w * decay
                if x > score.get(v, 0.0) + 1e-12:
                    score[v] = x
                    trail[v] = ((v, et, w), trail[u])
                    nxt.add(v)
        frontier = {v for v in nxt if score[v] >= FIRE_MIN}
        if len(frontier) > FIRE_MAX:  # as in activation: only the strongest expand (bounds dense graphs)
            frontier = set(sorted(frontier, key=lambda v: (-score[v], v))[:FIRE_MAX])
        if not frontier:
            break
    return Activation(score=score, seed=dict(seeds), trails=trail)


def competing_groups(store: MemoryStore, ids: Iterable[int], adj: Adjacency | None = None) -> dict[int, str]:
    """The group each memory competes in for lateral inhibition.

    1. its finest active cluster (``cluster_members``; lowest level, then highest similarity);
    2. else the episode it is ``part_of`` (what an import builds: a conversation stretch);
    3. else its thread (conversation, note file);
    4. else itself (no competitor: a lone memory is never suppressed by grouping).
    """
    ids = sorted(set(ids))
    out: dict[int, str] = {}
    conn = store.conn
    for start in range(0, len(ids), 500):
        chunk = ids[start:start + 500]
        q = ",".join("?" * len(chunk))
        for mid, cid in conn.execute(
            f"""SELECT cm.memory_id, cm.cluster_id FROM cluster_members cm JOIN clusters c ON c.id = cm.cluster_id
                WHERE cm.memory_id IN ({q}) AND c.status = 'active'
                ORDER BY c.level DESC, coalesce(cm.similarity, 0) ASC""", chunk):
            out[int(mid)] = f"cluster:{cid}"  # last write wins: lowest level, best similarity
        rest = [i for i in chunk if i not in out]
        if rest:
            q2 = ",".join("?" * len(rest))
            for mid, eid in conn.execute(
                f"SELECT source_id, max(target_id) FROM associations WHERE source_id IN ({q2}) AND edge_type = 'part_of' "
                f"GROUP BY source_id", rest):
                out[int(mid)] = f"episode:{eid}"
        rest = [i for i in chunk if i not in out]
        if rest:
            q3 = ",".join("?" * len(rest))
            for mid, thread, kind in conn.execute(
                f"SELECT id, thread, json_extract(metadata, '$.kind') FROM memories WHERE id IN ({q3})", rest):
                if kind == "episode":
                    out[int(mid)] = f"episode:{mid}"  # an episode competes with its own members
                elif thread:
                    out[int(mid)] = f"thread:{thread}"
    for i in ids:
        out.setdefault(i, f"memory:{i}")
    return out


def inhibit(act: dict[int, float], seeds: dict[int, float], groups: dict[int, str],
            beta: float = INHIBITION) -> dict[int, float]:
    """Lateral inhibition: suppress activation of weaker groups relative to the strongest.

    A group's strength S_g is the sum of its ``INHIBITION_TOP`` highest activations;
    each memory's activation is multiplied by ``1 − β·(1 − S_g / S_max)``, so the
    leading group is untouched and a group half as strong loses ``β/2``. Max-merge
    still holds afterwards: a seed never drops below its own recall score. Returns the
    multiplier applied per memory.
    """
    if beta <= 0 or not act:
        return {}
    key = {i: groups.get(i, i) for i in act}  # an ungrouped memory competes alone (its int id never equals a str)
    members: dict[str | int, list[float]] = {}
    for i, a in act.items():
        members.setdefault(key[i], []).append(a)
    strength = {g: (sum(sorted(v, reverse=True)[:INHIBITION_TOP]) if len(v) > 1 else v[0]) for g, v in members.items()}
    top = max(strength.values())
    if top <= 0:
        return {}
    mult = {g: 1.0 - beta * (1.0 - s / top) for g, s in strength.items()}
    factor: dict[int, float] = {}
    for i, a in act.items():
        f = mult[key[i]]
        factor[i] = f
        x = a * f
        act[i] = x if x >= seeds.get(i, 0.0) else seeds[i]
    return factor


def spread_activation(adj: Adjacency, seeds: dict[int, float], iterations: int = HOPS, decay: float = ACT_DECAY,
                      fanout_power: float = FANOUT_POWER, inhibition: float = INHIBITION,
                      groups: dict[int, str] | None = None) -> Activation:
    """Spreading activation with max-merge and lateral inhibition.

    ``a₀`` = seed scores. Each of ``iterations`` rounds, every memory with
    ``a ≥ FIRE_MIN`` sends ``a(u) × w(u,v) × decay / fan_out(u) ** fanout_power`` to
    each of its (≤ ``FANOUT_CAP``) neighbours; the receiver keeps the max of what it
    had and what it receives (max-merge: activation never accumulates over paths, and a
    seed never drops below its own score). After each round the competing groups
    (:func:`competing_groups`) inhibit each other (:func:`inhibit`); at most ``FIRE_MAX``
    memories fire per round, and memories below ``FIRE_MIN`` compete alone. ``groups`` may be
    given (tests); otherwise it is looked up as memories become active.
    """
    act = dict(seeds)
    trail: dict[int, Trail] = {s: ((s, None, None), None) for s in seeds}
    group_of: dict[int, str] = dict(groups or {})
    factors: dict[int, float] = {}
    for _ in range(max(0, iterations)):
        firing = sorted(u for u, a in act.items() if a >= FIRE_MIN)
        if len(firing) > FIRE_MAX:
            firing = sorted(sorted(firing, key=lambda u: (-act[u], u))[:FIRE_MAX])
        nbrs = adj.neighbours(firing)
        new = dict(act)
        get = new.get
        for u in firing:
            fan = max(1, adj.fan.get(u, len(nbrs[u])))
            out = act[u] * decay / (fan ** fanout_power)
            tu = trail[u]
            for v, w, et in nbrs[u]:
                x = out * w
                if x > get(v, 0.0) + 1e-12:
                    new[v] = x
                    trail[v] = ((v, et, w), tu)
        act = new
        if inhibition > 0:
            if groups is None:
                missing = [i for i in act if i not in group_of and act[i] >= FIRE_MIN]
                if missing:
                    group_of.update(competing_groups(adj.store, missing))
            factors = inhibit(act, seeds, group_of, inhibition)
    return Activation(score=act, seed=dict(seeds), trails=trail, group=group_of, inhibited=factors)


def seed_support(store: MemoryStore, seeds: dict[int, float], beta: float = SUPPORT,
                 types: tuple[str, ...] = SUPPORT_TYPES) -> dict[int, float]:
    """``beta × Σ weight × seed score`` over the other seeds linked to each seed by an edge of
    ``types`` (either direction); seeds with no such link are absent."""
    if beta <= 0 or len(seeds) < 2:
        return {}
    ids = sorted(seeds)
    marks = ",".join("?" * len(ids))
    kinds = ",".join("?" * len(types))
    out: dict[int, float] = {}
    for a, b, w in store.conn.execute(
            f"""SELECT min(source_id, target_id), max(source_id, target_id), max(weight) FROM associations
                WHERE source_id IN ({marks}) AND target_id IN ({marks}) AND edge_type IN ({kinds})
                GROUP BY 1, 2""", [*ids, *ids, *types]):  # a pair once, whichever way and type
        out[a] = out.get(a, 0.0) + beta * float(w) * seeds[b]
        out[b] = out.get(b, 0.0) + beta * float(w) * seeds[a]
    return out


def seed_scores(store: MemoryStore, query: str, seed_k: int, **filters: Any) -> tuple[dict[int, float], str | None]:
    """Hybrid recall scores of the top ``seed_k``, scaled so the best seed is 1."""
    seeds, degraded, _ = _seeds(store, query, seed_k, **filters)
    return seeds, degraded


def _seeds(store: MemoryStore, query: str, seed_k: int, **filters: Any) -> tuple[dict[int, float], str | None, set[int]]:
    """``seed_scores`` plus the seeds that are real matches (hybrid did not mark them ``weak``)."""
    # relevance alone: session coverage reorders a result list for reading, not a walk's seeds
    res = store.recall(query, k=seed_k, strategy="hybrid", touch=False,
                       config=RecallConfig(session_coverage=1.0), **filters)
    if not res.results:
        return {}, res.degraded, set()
    top = max((m.score or 0.0) for m in res.results) or 1.0
    strong = {m.id for m in res.results if not m.weak}
    return {m.id: max(0.0, (m.score or 0.0) / top) for m in res.results}, res.degraded, strong


def recall(store: MemoryStore, query: str, k: int = 10, strategy: str = "activation", *,
           types: Iterable[str] | None = None, sources: Iterable[str] | None = None,
           tags: Iterable[str] | None = None, since: datetime | None = None, until: datetime | None = None,
           include_archived: bool = False, raw: bool = False, touch: bool = True, explain: bool = False,
           shared: bool = False, summaries: bool = False, seed_k: int | None = None, hops: int = HOPS,
           threshold: float = EDGE_THRESHOLD, decay: float | None = None, fanout_power: float = FANOUT_POWER,
           fanout_cap: int = FANOUT_CAP, inhibition: float = INHIBITION, hubs: bool = False, support: float = SUPPORT,
           history: bool = False, as_of: datetime | None = None, **unknown: Any) -> RecallResult:
    """Graph-aware recall (``graph`` / ``activation`` / ``bridge``), same contract as ``MemoryStore.recall``.

    Every filter of hybrid recall applies to the seeds and to the results alike (``summaries``
    too: consolidation summaries may seed the walk and be returned). The keyword options after
    ``summaries`` are the graph knobs (defaults: module constants;
    ``seed_k`` defaults to ``max(SEED_K, k)``); results obey the same filters as hybrid recall.
    """
    import time

    t0 = time.perf_counter()
    if unknown:
        raise UserError(f"unknown graph option(s): {', '.join(sorted(unknown))}")
    if strategy not in _STRATEGIES:
        raise UserError(f"--strategy must be one of {', '.join(ALL_STRATEGIES)} (got {strategy!r})")
    if k < 1:
        raise UserError("-k must be at least 1")
    filters: dict[str, Any] = dict(types=types, sources=sources, tags=tags, since=since, until=until,
                                   include_archived=include_archived, raw=raw, shared=shared, summaries=summaries,
                                   history=history, as_of=as_of)
    seeds, degraded, strong = _seeds(store, query, max(SEED_K, k) if seed_k is None else seed_k, **filters)
    adj = Adjacency(store, threshold=threshold, fanout_cap=fanout_cap, include_archived=include_archived)
    if strategy == "graph":
        walk = multihop(adj, seeds, hops=hops, decay=HOP_DECAY if decay is None else decay)
    else:
        walk = spread_activation(adj, seeds, iterations=hops, decay=ACT_DECAY if decay is None else decay,
                                 fanout_power=fanout_power, inhibition=inhibition if strategy == "activation" else 0.0)
    ranked = dict(walk.score)
    cos: dict[int, float] = {}
    backing: dict[int, float] = {}
    if strategy == "bridge":
        ranked, cos = _bridge_scores(store, query, walk)
    else:
        backing = seed_support(store, seeds, support)
        for i, bonus in backing.items():  # max-merge still: support is one more way to be reached
            ranked[i] = max(ranked[i], seeds[i] + bonus)
    where, args = store.filter_sql(types, sources, tags, since, until, include_archived, shared=shared,
                                     summaries=summaries, history=history, as_of=as_of)
    # questions asking for several things get hybrid's session coverage over the walk's ranking
    cover = strategy != "bridge" and SESSION_COVERAGE < 1.0 and k > COVER_FROM and asks_for_many(query)
    order = _top_allowed(store, ranked, max(k, COVER_POOL) if cover else k, where, args, hubs)
    rows = store.rows(order)
    results: list[Memory] = []
    for i in order:
        m = rows[i]
        m.score = round(ranked[i], 6)
        if explain:
            p = walk.path.get(i, [{"id": i}])
            m.explain = {"strategy": strategy, "seed_score": round(walk.seed[i], 4) if i in walk.seed else None,
                         "activation": round(walk.score.get(i, 0.0), 4), "hops": len(p) - 1,
                         "path": " → ".join(f"#{s['id']}" if "edge" not in s else f"({s['edge']} {s['weight']}) #{s['id']}"
                                            for s in p),
                         "path_steps": p}
            if walk.group:
                m.explain["group"] = walk.group.get(i)
                if i in walk.inhibited:
                    m.explain["inhibition"] = round(walk.inhibited[i], 4)
            if i in cos:
                m.explain["cosine"] = round(cos[i], 4)
            if i in backing:
                m.explain["support"] = round(backing[i], 4)
        results.append(m)
    if cover:
        results = cover_sessions(results, k, SESSION_COVERAGE, explain)
    # weak: the result does not speak of the query itself AND was not reached from a seed that does
    # (a cause drawn from a strong match is the walk's point, not noise)
    mark_weak_by_query(store, query, results)
    for m in results:
        if m.weak and walk.path.get(m.id, [{"id": m.id}])[0]["id"] in strong:
            m.weak = False
    if history or as_of is not None:  # superseded versions marked, each after what replaced it
        from memengine.supersession import versions_marked

        results = versions_marked(store.conn, results)
    warnings = store.touch_if_writable([m.id for m in results]) if touch and results else []
    return RecallResult(query=query, strategy=strategy, results=results, degraded=degraded,
                        took_ms=(time.perf_counter() - t0) * 1000, warnings=warnings)


def _top_allowed(store: MemoryStore, ranked: dict[int, float], k: int, where: str, args: list[Any],
                 hubs: bool) -> list[int]:
    """The ``k`` best of ``ranked`` that pass the recall filters (and are not hubs, unless ``hubs``).

    Checked in rank order, a slice at a time: a walk reaches hundreds of memories, and
    reading each one's row to filter it would cost more than the walk.
    """
    cand = sorted(ranked, key=lambda i: (-ranked[i], i))
    order: list[int] = []
    step = max(2 * k, 20)
    for start in range(0, len(cand), step):
        part = cand[start:start + step]
        ok = store.allowed(part, where, args)
        if not hubs:
            ok -= _hubs(store, ok)
        order.extend(i for i in part if i in ok)
        if len(order) >= k:
            break
    return order[:k]


def _bridge_scores(store: MemoryStore, query: str, walk: Activation) -> tuple[dict[int, float], dict[int, float]]:
    """Bridges: reached through the graph (not seeds) and unlike the query.

    score = activation × (1 − cos⁺/BRIDGE_MAX_COS); memories with cosine ≥ BRIDGE_MAX_COS
    are direct matches and excluded. Degraded (no vectors): plain non-seed activation.
    """
    cand = [i for i in walk.score if i not in walk.seed]
    vec = store.embed_or_none([query])
    if vec is None:
        return {i: walk.score[i] for i in cand}, {}
    cos = store.cosines(vec[0], cand)
    out = {}
    for i in cand:
        c = max(0.0, cos.get(i, 0.0))
        if c < BRIDGE_MAX_COS:
            out[i] = walk.score[i] * (1.0 - c / BRIDGE_MAX_COS)
    return out, cos


# --------------------------------------------------------------------------- structure

def structural_context(store: MemoryStore, ids: list[int], max_siblings: int = 5,
                       max_links: int = 10) -> dict[int, dict[str, Any]]:
    """Per memory: its cluster (with parent and summary), siblings and typed links.

    ``{id: {"cluster": {...} | None, "episode": {...} | None, "siblings": [ids],
    "links": [{"id", "type", "weight", "direction"}]}}`` — enough for an agent to
    navigate one step at a time (``mem.py graph ID``, ``mem.py browse CLUSTER``).
    """
    conn = store.conn
    out: dict[int, dict[str, Any]] = {}
    for mid in ids:
        ctx: dict[str, Any] = {"cluster": None, "episode": None, "siblings": [], "links": []}
        row = conn.execute(
            """SELECT c.id, c.level, c.label, c.parent_id, c.summary_memory_id, c.member_count
               FROM cluster_members cm JOIN clusters c ON c.id = cm.cluster_id
               WHERE cm.memory_id = ? AND c.status = 'active' ORDER BY c.level ASC LIMIT 1""", (mid,)).fetchone()
        if row:
            cl: dict[str, Any] = {"id": row[0], "level": row[1], "label": row[2], "parent_id": row[3],
                                  "member_count": row[5], "summary": _summary(store, row[4])}
            if row[3] is not None:
                p = conn.execute("SELECT id, label, summary_memory_id FROM clusters WHERE id = ?", (row[3],)).fetchone()
                if p:
                    cl["parent"] = {"id": p[0], "label": p[1], "summary": _summary(store, p[2])}
            ctx["cluster"] = cl
            ctx["siblings"] = [int(r[0]) for r in conn.execute(
                """SELECT cm.memory_id FROM cluster_members cm JOIN memories m ON m.id = cm.memory_id
                   WHERE cm.cluster_id = ? AND cm.memory_id <> ? AND m.status = 'active'
                   ORDER BY coalesce(cm.similarity, 0) DESC, cm.memory_id LIMIT ?""", (row[0], mid, max_siblings))]
        ep = conn.execute(
            "SELECT target_id FROM associations WHERE source_id = ? AND edge_type = 'part_of' ORDER BY weight DESC LIMIT 1",
            (mid,)).fetchone()
        if ep:
            ctx["episode"] = {"id": ep[0], "summary": _summary(store, ep[0])}
            if not ctx["siblings"]:
                ctx["siblings"] = [int(r[0]) for r in conn.execute(
                    """SELECT a.source_id FROM associations a JOIN memories m ON m.id = a.source_id
                       WHERE a.target_id = ? AND a.edge_type = 'part_of' AND a.source_id <> ? AND m.status = 'active'
                       ORDER BY abs(coalesce(m.position, 0) - coalesce((SELECT position FROM memories WHERE id = ?), 0)),
                                a.source_id LIMIT ?""", (ep[0], mid, mid, max_siblings))]
        links = []
        for a, b, et, w in conn.execute(
            """SELECT source_id, target_id, edge_type, weight FROM associations WHERE source_id = ?
               UNION ALL SELECT source_id, target_id, edge_type, weight FROM associations WHERE target_id = ?""",
                (mid, mid)):
            other, direction = (b, "out") if a == mid else (a, "in")
            links.append({"id": int(other), "type": et, "weight": round(float(w), 3), "direction": direction})
        links.sort(key=lambda x: (-x["weight"], x["id"]))
        ctx["links"] = links[:max_links]
        out[mid] = ctx
    return out


def _summary(store: MemoryStore, mid: int | None, chars: int = 200) -> dict[str, Any] | None:
    if mid is None:
        return None
    r = store.conn.execute("SELECT id, content FROM memories WHERE id = ?", (mid,)).fetchone()
    if not r:
        return None
    text = r[1] if len(r[1]) <= chars else r[1][:chars] + "…"
    return {"id": int(r[0]), "content": text}


def link(store: MemoryStore, a: int, b: int, edge_type: str = "explicit", weight: float = 0.8) -> dict[str, Any]:
    """Create or update an edge ``a → b`` (explicit, causal, ...); returns it."""
    if a == b:
        raise UserError("cannot link a memory to itself")
    links = store.checked_links([(b, edge_type, weight)], options=("--type", "--weight"))
    store.get(a)  # NotFound if either is missing
    with write_tx(store.conn):
        store.add_links(a, links)
    return {"source_id": a, "target_id": b, "edge_type": edge_type, "weight": weight}


def unlink(store: MemoryStore, a: int, b: int, edge_type: str | None = None) -> dict[str, Any]:
    """Remove the edges between ``a`` and ``b`` (either direction; one type or all)."""
    sql = "DELETE FROM associations WHERE ((source_id = ? AND target_id = ?) OR (source_id = ? AND target_id = ?))"
    args: list[Any] = [a, b, b, a]
    if edge_type:
        if edge_type not in EDGE_TYPES:
            raise UserError(f"--type must be one of {', '.join(EDGE_TYPES)} (got {edge_type!r})")
        sql += " AND edge_type = ?"
        args.append(edge_type)
    with write_tx(store.conn):
        n = store.conn.execute(sql, args).rowcount
    if n == 0:
        raise NotFound(f"no {edge_type + ' ' if edge_type else ''}edge between #{a} and #{b}")
    return {"source_id": a, "target_id": b, "removed": n}


def neighbourhood(store: MemoryStore, root: int | None, hops: int = 1, limit: int = 200,
                  threshold: float = 0.0) -> dict[str, Any]:
    """Nodes and edges within ``hops`` of ``root`` (all edges if ``root`` is None), BFS order.

    ``{"root", "hops", "nodes": [{id, content, memory_type, depth, ...}], "edges":
    [{source, target, type, weight}], "truncated": bool}``.
    """
    if hops < 0:
        raise UserError("--hops must be ≥ 0")
    conn = store.conn
    depth: dict[int, int] = {}
    parent: dict[int, int | None] = {}
    truncated = False
    if root is not None:
        store.get(root)
        adj = Adjacency(store, threshold=threshold, fanout_cap=limit, include_archived=True)
        depth[root], parent[root] = 0, None
        frontier = [root]
        for d in range(1, hops + 1):
            nbrs = adj.neighbours(frontier)
            nxt = []
            for u in frontier:
                for v, _w, _et in nbrs[u]:
                    if v not in depth:
                        if len(depth) >= limit:
                            truncated = True
                            break
                        depth[v], parent[v] = d, u
                        nxt.append(v)
            frontier = nxt
        ids = list(depth)
    else:
        ids = [int(r[0]) for r in conn.execute(
            "SELECT id FROM memories WHERE status <> 'deleted' AND (id IN (SELECT source_id FROM associations) "
            "OR id IN (SELECT target_id FROM associations)) ORDER BY id LIMIT ?", (limit + 1,))]
        truncated = len(ids) > limit
        ids = ids[:limit]
        depth = {i: 0 for i in ids}
    idset = set(ids)
    rows = store.rows(ids)
    edges = []
    for a, b, et, w in select_in(
            conn, "SELECT source_id, target_id, edge_type, weight FROM associations WHERE source_id IN ({ids})", ids):
        if b in idset:
            edges.append({"source": int(a), "target": int(b), "type": et, "weight": round(float(w), 3)})
    nodes = []
    for i in ids:
        if i not in rows:
            continue
        m = rows[i]
        nodes.append({"id": i, "content": m.content, "memory_type": m.memory_type, "status": m.status,
                      "depth": depth[i], "parent": parent.get(i), "event_at": m.event_at})
    return {"root": root, "hops": hops, "nodes": nodes, "edges": edges, "truncated": truncated}


def export(store: MemoryStore, fmt: str, around: int | None = None, hops: int = 1, limit: int = 100_000) -> str:
    """The graph (or the neighbourhood of ``around``) as ``dot``, ``graphml`` or ``json`` text."""
    fmt = fmt.lower()
    if fmt not in ("dot", "graphml", "json"):
        raise UserError(f"--format must be dot, graphml or json (got {fmt!r})")
    g = neighbourhood(store, around, hops=hops, limit=limit)
    if fmt == "json":
        return json.dumps({"nodes": g["nodes"], "edges": g["edges"], "truncated": g["truncated"]}, ensure_ascii=False)
    if fmt == "dot":
        def q(s: str) -> str:
            return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'

        lines = ["digraph mem {", "  node [shape=box];"]
        for n in g["nodes"]:
            label = n["content"] if len(n["content"]) <= 60 else n["content"][:60] + "…"
            text = f"#{n['id']} {label}"
            lines.append(f"  {n['id']} [label={q(text)}, type={q(n['memory_type'])}];")
        for e in g["edges"]:
            lines.append(f"  {e['source']} -> {e['target']} [label={q(e['type'])}, weight={e['weight']}];")
        lines.append("}")
        return "\n".join(lines) + "\n"
    import xml.etree.ElementTree as ET  # GraphML export only: every recall imports this module

    ns = "http://graphml.graphdrawing.org/xmlns"
    ET.register_namespace("", ns)
    root = ET.Element(f"{{{ns}}}graphml")
    for kid, dom, name, typ in (("d0", "node", "content", "string"), ("d1", "node", "memory_type", "string"),
                                ("d2", "edge", "type", "string"), ("d3", "edge", "weight", "double")):
        ET.SubElement(root, f"{{{ns}}}key", id=kid, attrib={"for": dom, "attr.name": name, "attr.type": typ})
    gr = ET.SubElement(root, f"{{{ns}}}graph", id="mem", edgedefault="directed")
    for n in g["nodes"]:
        el = ET.SubElement(gr, f"{{{ns}}}node", id=f"n{n['id']}")
        ET.SubElement(el, f"{{{ns}}}data", key="d0").text = _xml_safe(n["content"])
        ET.SubElement(el, f"{{{ns}}}data", key="d1").text = n["memory_type"]
    for i, e in enumerate(g["edges"]):
        el = ET.SubElement(gr, f"{{{ns}}}edge", id=f"e{i}", source=f"n{e['source']}", target=f"n{e['target']}")
        ET.SubElement(el, f"{{{ns}}}data", key="d2").text = e["type"]
        ET.SubElement(el, f"{{{ns}}}data", key="d3").text = str(e["weight"])
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


_XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")


def _xml_safe(text: str) -> str:
    """XML 1.0 forbids most control characters; chat exports contain them."""
    return _XML_BAD.sub("\ufffd", text)


def browse(store: MemoryStore, cluster_id: int | None = None, limit: int = 50) -> dict[str, Any]:
    """The cluster hierarchy: roots (no ``cluster_id``) or one cluster's parent, children and members."""
    conn = store.conn

    def card(r: Any) -> dict[str, Any]:
        return {"id": r[0], "level": r[1], "label": r[2], "member_count": r[3], "summary": _summary(store, r[4])}

    cols = "id, level, label, member_count, summary_memory_id"
    if cluster_id is None:
        roots = [card(r) for r in conn.execute(
            f"""SELECT {cols} FROM clusters WHERE status = 'active'
                AND (parent_id IS NULL OR parent_id NOT IN (SELECT id FROM clusters WHERE status = 'active'))
                ORDER BY level DESC, member_count DESC, id LIMIT ?""", (limit,))]
        return {"cluster": None, "roots": roots}
    r = conn.execute(f"SELECT {cols}, parent_id, status FROM clusters WHERE id = ?", (cluster_id,)).fetchone()
    if not r:
        raise NotFound(f"no topic T{cluster_id}")
    out = card(r)
    out["status"] = r[6]
    parent = conn.execute(f"SELECT {cols} FROM clusters WHERE id = ?", (r[5],)).fetchone() if r[5] else None
    out["parent"] = card(parent) if parent else None
    out["children"] = [card(c) for c in conn.execute(
        f"SELECT {cols} FROM clusters WHERE parent_id = ? AND status = 'active' ORDER BY member_count DESC, id",
        (cluster_id,))]
    out["members"] = [{"id": int(m[0]), "content": m[1], "similarity": m[2]} for m in conn.execute(
        """SELECT m.id, m.content, cm.similarity FROM cluster_members cm JOIN memories m ON m.id = cm.memory_id
           WHERE cm.cluster_id = ? AND m.status = 'active' ORDER BY coalesce(cm.similarity, 0) DESC, m.id LIMIT ?""",
        (cluster_id, limit))]
    return {"cluster": out}


# --------------------------------------------------------------------------- brief

def token_counter(store: MemoryStore) -> tuple[Any, str]:
    """``(count(text) -> int, how)``: the embedder's tokenizer, else a safe over-estimate.

    For the ONNX embedder only the tokenizer is loaded (a few ms), never the model:
    a briefing needs counts, not vectors.
    """
    emb = None
    try:
        emb = store.embedder
    except Exception:  # a broken embedder must not break a briefing
        emb = None
    if emb is not None and hasattr(emb, "count_tokens"):
        try:
            emb.count_tokens("probe")
            return emb.count_tokens, "tokenizer"
        except Exception:
            pass
    return (lambda t: math.ceil(len(t) / CHARS_PER_TOKEN_SAFE) + 1), "approximate"


def personalised_pagerank(nodes: list[int], edges: list[tuple[int, int, float]], personal: dict[int, float],
                          damping: float = PAGERANK_DAMPING, iters: int = PAGERANK_ITERS) -> dict[int, float]:
    """PageRank over an undirected weighted graph, restarting to ``personal`` (normalised).

    Dangling mass returns to the personalisation vector. Pure numpy power iteration.
    """
    import numpy as np

    if not nodes:
        return {}
    idx = {n: i for i, n in enumerate(nodes)}
    p = np.array([max(0.0, personal.get(x, 0.0)) for x in nodes], dtype=np.float64)
    a = np.array([idx[e[0]] for e in edges], dtype=np.int64)
    b = np.array([idx[e[1]] for e in edges], dtype=np.int64)
    w = np.array([e[2] for e in edges], dtype=np.float64)
    r = _pagerank_arrays(len(nodes), a, b, w, p, damping, iters)
    return {x: float(r[i]) for x, i in idx.items()}


def _pagerank_arrays(n: int, a: Any, b: Any, w: Any, p: Any, damping: float = PAGERANK_DAMPING,
                     iters: int = PAGERANK_ITERS) -> Any:
    """:func:`personalised_pagerank` on index arrays: undirected edges ``a[i] — b[i]`` of weight ``w[i]``."""
    import numpy as np

    p = np.clip(np.asarray(p, dtype=np.float64), 0.0, None)
    p = p / p.sum() if p.sum() > 0 else np.full(n, 1.0 / n)
    src = np.concatenate([a, b]).astype(np.int64)
    dst = np.concatenate([b, a]).astype(np.int64)
    w2 = np.concatenate([w, w]).astype(np.float64)
    out_w = np.bincount(src, weights=w2, minlength=n)
    dangling = out_w <= 0
    share = w2 / np.where(dangling, 1.0, out_w)[src]  # fraction of src's rank sent along each edge
    r = p.copy()
    for _ in range(iters):
        flow = np.bincount(dst, weights=r[src] * share, minlength=n) if len(w2) else np.zeros(n)
        r = damping * (flow + r[dangling].sum() * p) + (1 - damping) * p
    return r


_BRIEF_LIVE = "status = 'active' AND valid_to IS NULL AND json_extract(metadata, '$.kind') IS NOT 'episode'"


def precompute_ranks(store: MemoryStore, now: datetime | None = None) -> dict[str, Any]:
    """Personalised PageRank over the whole graph, stored for :func:`brief` (consolidate's ``rank`` phase).

    Restart vector and combined score as in :func:`brief`, but over every live memory
    and every edge (not a candidate pool). The ``BRIEF_POOL`` best by combined score are
    kept in ``_mem_meta[RANKS_META_KEY]`` with their PageRank (scaled so the top is 1);
    ``brief`` then reads them instead of ranking 100k rows cold. Returns counts.
    """
    import numpy as np

    now = now or datetime.now(timezone.utc).replace(tzinfo=None)
    conn = store.conn
    max_mem = int(conn.execute("SELECT coalesce(max(id), 0) FROM memories").fetchone()[0])
    max_edge = int(conn.execute("SELECT coalesce(max(id), 0) FROM associations").fetchone()[0])
    rows = conn.execute(
        f"""SELECT id, importance, access_count,
                   max(0.0, julianday(?) - julianday(coalesce(last_accessed_at, event_at, created_at)))
            FROM memories WHERE {_BRIEF_LIVE} ORDER BY id""", (to_iso(now),)).fetchall()
    ids = np.array([r[0] for r in rows], dtype=np.int64)
    n = len(ids)
    imp = np.array([r[1] for r in rows], dtype=np.float64)
    accn = np.array([r[2] for r in rows], dtype=np.float64)
    age = np.array([365.0 if r[3] is None else r[3] for r in rows], dtype=np.float64)
    rec = 0.5 ** (age / RECENCY_HALF_LIFE_DAYS)
    acc = np.log1p(accn) / math.log1p(max(1.0, float(accn.max()) if n else 1.0))
    personal = imp * (0.2 + rec) * (1.0 + acc)
    edges = conn.execute("SELECT source_id, target_id, edge_type, weight FROM associations").fetchall()
    pr = np.zeros(n)
    kept_edges = 0
    if n:
        ea = np.array([e[0] for e in edges], dtype=np.int64)
        eb = np.array([e[1] for e in edges], dtype=np.int64)
        ew = np.array([e[3] * EDGE_TYPE_FACTOR.get(e[2], 1.0) for e in edges], dtype=np.float64)
        ia = np.clip(np.searchsorted(ids, ea), 0, n - 1)
        ib = np.clip(np.searchsorted(ids, eb), 0, n - 1)
        ok = (ids[ia] == ea) & (ids[ib] == eb) & (ew > 0)  # both ends live
        kept_edges = int(ok.sum())
        pr = _pagerank_arrays(n, ia[ok], ib[ok], ew[ok], personal)
        pr = pr / (pr.max() or 1.0)
    score = W_PAGERANK * pr + W_RECENCY * rec + W_ACCESS * acc + W_IMPORTANCE * imp
    top = np.lexsort((-ids, -score))[:BRIEF_POOL] if n else np.zeros(0, dtype=np.int64)
    value: dict[str, Any] = {"version": RANKS_VERSION, "computed_at": to_iso(now), "max_memory_id": max_mem,
             "max_edge_id": max_edge, "memories": n, "edges": len(edges),
             "ids": [int(ids[i]) for i in top], "pagerank": [round(float(pr[i]), 6) for i in top]}
    with write_tx(conn):
        conn.execute("INSERT OR REPLACE INTO _mem_meta(key, value) VALUES (?, ?)",
                     (RANKS_META_KEY, json.dumps(value, separators=(",", ":"))))
    return {"memories_ranked": n, "edges_used": kept_edges, "stored": len(value["ids"])}


def load_ranks(store: MemoryStore, now: datetime) -> tuple[dict[str, Any] | None, str]:
    """The precomputed ranks if usable, else ``(None, why)`` (absent / other version / stale)."""
    conn = store.conn
    row = conn.execute("SELECT value FROM _mem_meta WHERE key = ?", (RANKS_META_KEY,)).fetchone()
    if row is None:
        return None, "absent"
    try:
        ranks = json.loads(row[0])
        if ranks.get("version") != RANKS_VERSION:
            return None, f"of another version ({ranks.get('version')})"
        at = datetime.fromisoformat(ranks["computed_at"][:19])
    except (ValueError, KeyError, TypeError, AttributeError):
        return None, "unreadable"
    age = (now - at).total_seconds() / 86400.0
    if age > RANKS_MAX_AGE_DAYS:
        return None, f"stale (computed {age:.0f} days ago)"
    max_mem = int(conn.execute("SELECT coalesce(max(id), 0) FROM memories").fetchone()[0])
    max_edge = int(conn.execute("SELECT coalesce(max(id), 0) FROM associations").fetchone()[0])
    new_mem, new_edge = max_mem - ranks["max_memory_id"], max_edge - ranks["max_edge_id"]
    if new_mem > RANKS_MAX_GROWTH * max(ranks["memories"], 100) or new_edge > RANKS_MAX_GROWTH * max(ranks["edges"], 100):
        return None, f"stale ({new_mem} memories and {new_edge} edges added since)"
    return ranks, "precomputed"


def brief(store: MemoryStore, budget: int = 2000, now: datetime | None = None,
          params: Mapping[str, float] | None = None) -> dict[str, Any]:
    """A session-start briefing within ``budget`` tokens: :func:`memengine.brief.select`.

    The same selection fills the managed block of MEMORY.md (consolidate's ``write``
    phase). ``chosen`` lists every line with why it was chosen; ``sections`` and
    ``topics`` group them as shown. Consolidate's precomputed ranks, when fresh, add
    their best memories to the topic candidates of a store too large to consider whole.
    """
    from memengine import brief as selection

    if budget < 1:
        raise UserError("--budget must be at least 1 token")
    now = now or datetime.now(timezone.utc).replace(tzinfo=None)
    count, how = token_counter(store)
    ranks, _why = load_ranks(store, now)
    sel = selection.select(store, budget, now, count, how, params, ranked_ids=ranks["ids"] if ranks else None)
    return {"budget": budget, "tokens": sel.tokens, "token_count": how, "text": sel.text(),
            "sections": {k: [i.to_dict() for i in v] for k, v in sel.sections.items()},
            "topics": [{"id": t.id, "topic": f"T{t.id}" if t.id is not None else None, "name": t.name,
                        "size": t.size, "memories": [i.id for i in t.items]} for t in sel.topics],
            "chosen": [i.to_dict() for i in sel.chosen()], "warnings": sel.warnings}


# --------------------------------------------------------------------------- surface

_CAP_RE = re.compile(r"\b([A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)*)")


def utterance_terms(store: MemoryStore, utterance: str) -> tuple[list[str], list[str]]:
    """(entities, keywords) of an utterance.

    Entities: known aliases (the ``aliases`` table) that occur in it, and capitalised
    spans not at the start of a sentence; keywords: non-stopword terms.
    """
    ents: list[str] = []
    low = utterance.casefold()
    for alias, name in store.aliases().items():
        if len(alias) >= 3 and re.search(r"\b" + re.escape(alias.casefold()) + r"\b", low) and name not in ents:
            ents.append(name)
    for m in _CAP_RE.finditer(utterance):
        start = m.start()
        before = utterance[:start].rstrip()
        if not before or before[-1] in ".!?":
            words = m.group(1).split()
            if len(words) == 1:
                continue
            span = " ".join(words[1:])
        else:
            span = m.group(1)
        if span.casefold() not in STOPWORDS and span not in ents:
            ents.append(span)
    kws = [t for t in query_terms(utterance) if t not in STOPWORDS and len(t) > 2]
    return ents, list(dict.fromkeys(kws))


def _content_words(text: str) -> set[str]:
    return {t for t in query_terms(text) if t not in STOPWORDS and len(t) > 2}


def surface(store: MemoryStore, utterance: str, k: int = SURFACE_K, seed_k: int = SEED_K) -> dict[str, Any]:
    """Memories related to ``utterance`` that it does not already state.

    Seeds: hybrid recall of the whole utterance plus of each entity (entities weigh
    as much as the utterance: they are what it is *about*). Spreading activation
    (with inhibition) grows them; memories already stated in the utterance (≥
    ``SURFACE_STATED_COVERAGE`` of their content words present, or cosine ≥
    ``SURFACE_STATED_COS``) are excluded; MMR (``MMR_LAMBDA``) picks ``k`` non-redundant ones.
    """
    if not utterance.strip():
        raise UserError("utterance is empty")
    ents, kws = utterance_terms(store, utterance)
    seeds, degraded = seed_scores(store, utterance, seed_k)
    for e in ents:
        s, _ = seed_scores(store, e, max(5, seed_k // 3))
        for i, v in s.items():
            seeds[i] = max(seeds.get(i, 0.0), v)
    walk = spread_activation(Adjacency(store), seeds)
    cand = dict(walk.score)
    cand_ids = [i for i in cand if i not in _hubs(store, cand)]
    rows = store.rows(cand_ids)
    said = _content_words(utterance)
    vec = store.embed_or_none([utterance])
    vecs = store.vectors(cand_ids) if vec is not None else {}
    qv = vec[0] if vec is not None else None
    kept: list[int] = []
    stated: list[int] = []
    for i in cand_ids:
        m = rows.get(i)
        if m is None or m.status != "active":
            continue
        words = _content_words(m.content)
        cov = len(words & said) / len(words) if words else 1.0
        cos = float(vecs[i] @ qv) if qv is not None and i in vecs else 0.0
        if cov >= SURFACE_STATED_COVERAGE or cos >= SURFACE_STATED_COS:
            stated.append(i)
        else:
            kept.append(i)
    picked = mmr(kept, cand, vecs, k)
    results = []
    for i in picked:
        d = rows[i].to_dict()
        d["score"] = round(cand[i], 4)
        d["via"] = " → ".join(f"#{s['id']}" for s in walk.path.get(i, [{"id": i}]))
        results.append(d)
    return {"utterance": utterance, "entities": ents, "keywords": kws, "excluded_as_stated": sorted(stated),
            "results": results, "degraded": degraded}


def mmr(ids: list[int], relevance: dict[int, float], vecs: dict[int, Any], k: int,
        lam: float = MMR_LAMBDA) -> list[int]:
    """Maximal marginal relevance: ``λ·rel − (1−λ)·max cos to what is picked``; no vectors → by relevance.

    Candidates with cosine ≥ ``MMR_DUP_COS`` to a picked one are dropped outright.
    """
    pool = sorted(ids, key=lambda i: (-relevance[i], i))[: max(k * 10, 50)]
    top = max((relevance[i] for i in pool), default=1.0) or 1.0
    picked: list[int] = []
    while pool and len(picked) < k:
        def gain(i: int) -> float:
            red = max((float(vecs[i] @ vecs[j]) for j in picked if i in vecs and j in vecs), default=0.0)
            return lam * relevance[i] / top - (1 - lam) * red
        best = max(pool, key=lambda i: (gain(i), -i))
        pool.remove(best)
        if best in vecs and any(j in vecs and float(vecs[best] @ vecs[j]) >= MMR_DUP_COS for j in picked):
            continue
        picked.append(best)
    return picked


for _name in _STRATEGIES:  # store.recall(q, strategy=...) for these comes here
    registry.register(_name, recall)
