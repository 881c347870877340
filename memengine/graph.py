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

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from memengine.db import select_in
from memengine.errors import UserError
from memengine.recall import registry
from memengine.recall.confidence import mark_weak_by_query
from memengine.recall.config import ALL_STRATEGIES, COVER_FROM, COVER_POOL, SESSION_COVERAGE, config_for
from memengine.recall.priors import asks_for_many, cover_sessions
from memengine.records import MEMORY_TYPES, Memory, RecallResult
from memengine.store import MemoryStore

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
                       config=replace(config_for(getattr(store.embedder, "model_id", None)),
                                      session_coverage=1.0), **filters)
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
           history: bool = False, as_of: datetime | None = None, authors: Iterable[str] | None = None,
           **unknown: Any) -> RecallResult:
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
                                   history=history, as_of=as_of, **({"authors": authors} if authors else {}))
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
                                     summaries=summaries, history=history, as_of=as_of, authors=authors)
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
    from memengine.versions import outdated_marked, versions_marked

    results = outdated_marked(store.conn, results)  # a probable update (may_update) ranks above what it updates
    if history or as_of is not None:  # superseded versions marked, each after what replaced it
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
    vec = store.embed_or_none([query], query=True)
    if vec is None:
        return {i: walk.score[i] for i in cand}, {}
    cos = store.cosines(vec[0], cand)
    out = {}
    for i in cand:
        c = max(0.0, cos.get(i, 0.0))
        if c < BRIDGE_MAX_COS:
            out[i] = walk.score[i] * (1.0 - c / BRIDGE_MAX_COS)
    return out, cos


for _name in _STRATEGIES:  # store.recall(q, strategy=...) for these comes here
    registry.register(_name, recall)
