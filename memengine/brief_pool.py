"""The brief's topic candidates (memengine/brief.py): which memories, their vectors and parts.

A store of at most POOL_MAX live memories gives all of them; a larger one the most central
members of its largest clusters, consolidate's precomputed ranks, then the best by importance
and date, each read by index (m011_brief) so that a brief at 1M memories reads a few thousand
rows, not every one.
"""

from __future__ import annotations

import math
import re
from typing import Any, Protocol

import numpy as np

from memengine import timekind
from memengine.cluster_authors import authors_of, without_speaker

POOL_MAX = 1000  # topic candidates (~0.15 ms of CPU each: information, names, some token counts)
POOL_PER_TOPIC = 24  # with a larger store: this many most central members per cluster
# a live memory: what any section may show
LIVE = ("m.status = 'active' AND m.valid_to IS NULL AND m.level = 0 "
        "AND json_extract(m.metadata, '$.kind') IS NOT 'episode'")
# (brief27) LIVE, and the memories the nightly decay archived (never a superseded or deleted one): an agent's episodic
# notes of importance 0.5 fade after five weeks, and with them the people they named and the plans still ahead
# ("Viaje a Japón del 8 al 22 de octubre", noted in June, archived in September); the unary + keeps the planner off the
# status index
FADED = LIVE.replace("m.status = 'active'", "+m.status IN ('active', 'archived')")
# (brief28) the topics read faded members too: consolidate clusters archived notes with the live ones, and a topic whose
# every note faded (a project worked on for five weeks, then a quiet week; an imported chat six weeks on) vanished from
# the brief. A faded line is worth this share of a live one saying as much (the greedy's value), so what is live is
# chosen first and what faded fills what budget is left; a faded memory in no topic is left out.
FADED_TOPICS = True
FADED_VALUE = 0.5
FADED_PER_TOPIC = 2  # ...and a topic part shows at most this many faded lines (its lead and one more)


class Store(Protocol):
    """What the selection needs of a ``MemoryStore`` (memengine never imports the facade)."""

    conn: Any

    def known_people(self) -> dict[str, str]: ...

    def vectors(self, ids: list[int], table: str = ...) -> dict[int, Any]: ...


def topic_pool(store: Store, ranked_ids: list[int] | None = None,
               ) -> list[tuple[int, str, str | None, str, int | None, float]]:
    """Topic candidates: (id, content, date, chat key, cluster id, similarity to its centroid).

    The whole store when it has at most POOL_MAX live (or, FADED_TOPICS, faded) memories; else the
    POOL_PER_TOPIC most central members of the largest clusters, then ``ranked_ids``, then by
    importance and date. A faded memory (:func:`faded_ids`) is a candidate only in a cluster.
    """
    pool = _pool(store, ranked_ids)
    if not FADED_TOPICS:
        return pool
    faded = faded_ids(store, [p[0] for p in pool])
    return [p for p in pool if p[4] is not None or p[0] not in faded]


def faded_ids(store: Store, ids: list[int]) -> set[int]:
    """Those of ``ids`` the nightly decay archived (read by primary key, 500 at a time)."""
    out: set[int] = set()
    for chunk in range(0, len(ids), 500):
        part = ids[chunk: chunk + 500]
        out.update(int(r[0]) for r in store.conn.execute(
            f"SELECT id FROM memories WHERE id IN ({','.join('?' * len(part))}) AND status = 'archived'", part))
    return out


def _pool(store: Store, ranked_ids: list[int] | None) -> list[tuple[int, str, str | None, str, int | None, float]]:
    """:func:`topic_pool` before faded memories in no cluster are left out."""
    conn = store.conn
    live = f"{FADED if FADED_TOPICS else LIVE} AND m.source != 'vcf'"
    n = int(conn.execute(f"SELECT count(*) FROM (SELECT 1 FROM memories m WHERE {live} LIMIT ?)",
                         (POOL_MAX + 1,)).fetchone()[0])  # only whether it is more than POOL_MAX
    # CROSS JOIN: the memory's few memberships first; the planner otherwise walks every cluster per memory
    best_cluster = """(SELECT cm.cluster_id FROM cluster_members cm CROSS JOIN clusters c ON c.id = cm.cluster_id
                       WHERE cm.memory_id = m.id AND c.status = 'active' AND c.level = 1
                       ORDER BY cm.similarity DESC, c.id LIMIT 1)"""
    cols = f"""m.id, m.content, {timekind.when_sql('m')}, m.source || '/' || coalesce(m.thread, ''),
               {best_cluster}"""
    if n <= POOL_MAX:
        rows = conn.execute(f"SELECT {cols} FROM memories m WHERE {live} ORDER BY m.id").fetchall()
    else:
        # the most central members of the largest clusters, then the best by importance and recency
        order = central_members(conn)
        # rows by id: the unary + keeps the planner off the status index (with a long IN list it
        # chose to walk every active row's entry, ~30 ms per 500 ids at 100k)
        by_id = live.replace("m.status", "+m.status")
        rows = []
        for chunk in range(0, len(order), 500):
            if len(rows) >= POOL_MAX:
                break
            part = order[chunk: chunk + 500]
            place = {m: i for i, m in enumerate(part)}
            got = conn.execute(f"SELECT {cols} FROM memories m WHERE {by_id} AND m.id IN "
                               f"({','.join('?' * len(part))})", part).fetchall()
            rows += sorted(got, key=lambda r: place[int(r[0])])[: POOL_MAX - len(rows)]
        have = {int(r[0]) for r in rows}
        for chunk in range(0, len(ranked_ids or []), 500):
            if len(rows) >= POOL_MAX:
                break
            want = [i for i in (ranked_ids or [])[chunk: chunk + 500] if i not in have]
            got = conn.execute(f"SELECT {cols} FROM memories m WHERE {by_id} AND m.id IN "
                               f"({','.join('?' * len(want))}) ORDER BY m.id", want).fetchall() if want else []
            rows += got[: POOL_MAX - len(rows)]
            have.update(int(r[0]) for r in got)
        if len(rows) < POOL_MAX:
            # the ids first (a walk down the m011 rank index), then the columns of those kept: the
            # columns of every row, cluster included, cost seconds at 100k
            # (the unary + keeps the planner off the status index: it would sort every active row)
            best = [int(r[0]) for r in conn.execute(
                f"""SELECT m.id FROM memories m WHERE {live.replace("m.status", "+m.status")} ORDER BY m.pinned DESC, m.importance DESC,
                    coalesce(m.event_at, m.created_at) DESC, m.id DESC LIMIT ?""", (POOL_MAX,))]
            want = [i for i in best if i not in have][: POOL_MAX - len(rows)]
            for chunk in range(0, len(want), 500):
                part = want[chunk: chunk + 500]
                place = {m: i for i, m in enumerate(part)}
                got = conn.execute(f"SELECT {cols} FROM memories m WHERE m.id IN ({','.join('?' * len(part))})",
                                   part).fetchall()
                rows += sorted(got, key=lambda r: place[int(r[0])])
    sims: dict[tuple[int, int], float] = {}
    ids = [int(r[0]) for r in rows]
    for chunk in range(0, len(ids), 500):
        part = ids[chunk: chunk + 500]
        sims.update(((int(r[0]), int(r[1])), float(r[2] or 0.0)) for r in conn.execute(
            f"SELECT memory_id, cluster_id, similarity FROM cluster_members WHERE memory_id IN "
            f"({','.join('?' * len(part))})", part))
    return [(int(r[0]), r[1], r[2], r[3], None if r[4] is None else int(r[4]),
             sims.get((int(r[0]), int(r[4])), 0.0) if r[4] is not None else 0.0) for r in rows]


def central_members(conn: Any) -> list[int]:
    """The POOL_PER_TOPIC most central members of each active level-1 cluster, largest cluster first.

    Clusters by member count (then id), members by similarity to the centroid (then id), each
    memory once, until there are 2 * POOL_MAX (room for the ones no longer live): one short
    query per cluster read, not a ranking of every member of every cluster.
    """
    order: list[int] = []
    seen: set[int] = set()
    for (cid,) in conn.execute("SELECT id FROM clusters WHERE status = 'active' AND level = 1 "
                               "ORDER BY member_count DESC, id").fetchall():
        for (mid,) in conn.execute("SELECT memory_id FROM cluster_members WHERE cluster_id = ? "
                                   "ORDER BY similarity DESC, memory_id LIMIT ?", (cid, POOL_PER_TOPIC)):
            if mid not in seen:
                seen.add(mid)
                order.append(int(mid))
                if len(order) >= 2 * POOL_MAX:
                    return order
    return order


_RUN_WITH_WORD = re.compile(r"\S*?[^\W_]\S*")  # a run of non-space, from its start, if it holds a letter or digit


def min_tokens(line: str) -> int:
    """A lower bound of a tokenizer's count of ``- line\n``: its runs of non-space that hold a letter or digit.

    Tokenizers split at white space first (WordPiece, SentencePiece, byte-level BPE alike), and
    a run holding a letter or digit keeps at least one token (an unknown word is [UNK]).
    """
    return len(_RUN_WITH_WORD.findall(line))


def similarities(store: Store, ids: list[int], by_subject: bool = False) -> Any:
    """Cosine matrix of the stored vectors (clipped at 0); identity for a keyword-only store.

    ``by_subject``: each chat author's own direction taken out first (memengine/cluster_authors.py),
    so that parts group turns by what they say, not by who said them.
    """
    mat = unit_rows(store, ids)
    return cosines(subject_rows(store, ids, mat) if by_subject else mat)


def unit_rows(store: Store, ids: list[int]) -> Any:
    """The stored vectors of ``ids`` as unit rows (float32; a row of zeros for a memory without one)."""
    vecs = store.vectors(ids)  # stored vectors: brief never embeds
    if not vecs:
        return np.zeros((len(ids), 1), dtype=np.float32)
    dims = len(next(iter(vecs.values())))
    mat = np.zeros((len(ids), dims), dtype=np.float32)
    for i, mid in enumerate(ids):
        if mid in vecs:
            mat[i] = vecs[mid]
    norms = np.linalg.norm(mat, axis=1, keepdims=True)
    return np.divide(mat, norms, out=np.zeros_like(mat), where=norms > 0)


def subject_rows(store: Store, ids: list[int], mat: Any) -> Any:
    """``mat`` (from :func:`unit_rows`) with each chat author's whole mean taken out (cluster_authors.py)."""
    authors = authors_of(store.conn, ids)
    has = np.any(mat != 0, axis=1)
    return without_speaker(mat, [a if h else None for a, h in zip(authors, has)], common=0.0)


def cosines(mat: Any) -> Any:
    """Rows' cosines clipped to [0, 1], 1 on the diagonal (clipped in place: no second n² array)."""
    sim = mat @ mat.T
    np.clip(sim, 0.0, 1.0, out=sim)
    np.fill_diagonal(sim, 1.0)
    return sim


def cosine_column(mat: Any, j: int) -> Any:
    """Column ``j`` of ``cosines(mat)`` alone: what the brief's greedy reads of each memory it picks (a few
    dozen columns: the whole 1,000 x 1,000 product cost 15-35 ms a brief)."""
    col = mat @ mat[j]
    np.clip(col, 0.0, 1.0, out=col)
    col[j] = 1.0
    return col


def parts(pool: list[tuple[int, str, str | None, str, int | None, float]], sim: Any, part_size: int,
          rows: Any = None) -> list[tuple[int | None, int]]:
    """(cluster, part) of each candidate: a cluster with more than ``part_size`` is split (:func:`_split`).

    ``sim`` is the candidates' cosine matrix; or None, and ``rows`` their unit rows (:func:`unit_rows`):
    then only the cosines inside each cluster split are computed."""
    groups: dict[int | None, list[int]] = {}
    for i, p in enumerate(pool):
        groups.setdefault(p[4], []).append(i)
    key: list[tuple[int | None, int]] = [(None, 0)] * len(pool)
    for t, idx in groups.items():
        k = math.ceil(len(idx) / part_size)
        if k <= 1:
            for i in idx:
                key[i] = (t, 0)
            continue
        inside = cosines(rows[idx]) if rows is not None else sim[np.ix_(idx, idx)]
        for i, label in zip(idx, _split(np.asarray(inside, dtype=np.float64), k)):
            key[i] = (t, label)
    return key


def _split(sim: Any, k: int, rounds: int = 5) -> list[int]:
    """``k`` groups of similar rows: farthest-first seeds, then a few k-means (medoid) rounds.

    Deterministic (the first seed is the most central row, ties to the lowest index) and
    numpy-only: importing scipy's clustering would cost brief a second on a cold start.
    """
    n = len(sim)
    seeds = [int(np.argmax(sim.sum(axis=1)))]
    best = sim[:, seeds[0]].copy()
    while len(seeds) < k:
        nxt = int(np.argmin(best))
        if nxt in seeds:
            break
        seeds.append(nxt)
        best = np.maximum(best, sim[:, nxt])
    labels = np.argmax(sim[:, seeds], axis=1)
    for _ in range(rounds):
        # each group's new seed: its member most similar to the rest of the group
        new = []
        for g in range(len(seeds)):
            rows = np.nonzero(labels == g)[0]
            new.append(int(rows[np.argmax(sim[np.ix_(rows, rows)].sum(axis=1))]) if len(rows) else seeds[g])
        if new == seeds:
            break
        seeds = new
        labels = np.argmax(sim[:, seeds], axis=1)
    return [int(x) for x in labels] if n else []


