"""consolidate's clustering steps, at any level: incremental average-linkage clusters of memories
(level 1) or of the summaries below (levels 2+), written in short transactions.

``ClusterSteps`` is a mixin of ``consolidate.Consolidator`` (it uses its ``conn`` and ``now_iso``);
the thresholds per level stay in consolidate.py, which passes them in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from memengine import cluster_hubs, cluster_names, cluster_split
from memengine.db import write_tx
from memengine.knn import QUERY_BLOCK, VectorIndex
from memengine.knn import normalise as _normalise
from memengine.links import chunks as _chunks

BATCH_MAX = 2000  # agglomerative clustering is O(n²) in memory: never more than this at once
BATCH_TARGET = 500  # whole IVF cells are batched up to this size: cost grows with n × batch size
MIN_CLUSTER_SIZE = 2  # a singleton is not a cluster (it stays unassigned and may join one later)
# A new memory cluster (level 1) of fewer members is no topic either (the brief showed pairs of chat
# reactions as topics, then hid them): its members stay unassigned, and join a cluster later when one
# comes close enough (bench/README.md, "Brief, round 5", measured against joining the nearest cluster)
TOPIC_MIN_SIZE = 3
SMALL_JOIN_SLACK = 0.05  # ...unless it joins its nearest cluster, at this much below the threshold (0: never)
MERGE_K = 5  # nearest clusters checked for merging
MAX_ROUNDS = 6  # join / batch / merge rounds until nothing changes (a fixed point makes reruns no-ops)


class ClusterSteps:
    """Clustering methods of a consolidation run (mixed into ``Consolidator``)."""

    conn: Any
    now_iso: str

    def _withdraw(self, cid: int, status: str) -> None:
        """Inside a transaction: cluster status, its summary archived, its children orphaned."""
        self.conn.execute("UPDATE clusters SET status = ?, updated_at = ? WHERE id = ?", (status, self.now_iso, cid))
        self.conn.execute(
            """UPDATE memories SET status = 'archived', updated_at = ? WHERE status = 'active'
               AND id = (SELECT summary_memory_id FROM clusters WHERE id = ?)""", (self.now_iso, cid))
        self.conn.execute("UPDATE clusters SET parent_id = NULL WHERE parent_id = ?", (cid,))

    def _cluster_level(self, level: int, keys: np.ndarray, vecs: np.ndarray, eligible: np.ndarray,
                       child_cluster: dict[int, int] | None, index: VectorIndex | None,
                       threshold: float, group_vecs: np.ndarray | None = None,
                       names: tuple[list[frozenset[str]], set[str], float] | None = None,
                       split: cluster_split.Words | None = None) -> dict[str, int]:
        """Incremental average-linkage clustering of ``keys`` (memory ids) into level-``level`` clusters.

        Existing active clusters keep their members; unassigned ``eligible`` items first
        join the cluster whose members they are closest to on average (the average-
        linkage criterion, computed from the members' mean vector), the rest are
        clustered in batches of at most ``BATCH_MAX`` (ordered by IVF cell so a batch
        holds similar items), then clusters whose mean similarity passes the threshold
        merge. Rounds repeat until nothing changes, so the next run starts at a fixed
        point and does nothing. ``child_cluster`` maps summary memory id → child
        cluster id for levels ≥ 2. ``group_vecs`` (rows of ``vecs`` with the speaker's
        direction taken out: memengine/cluster_authors.py) decide who groups with whom;
        centroids and member similarities are written from ``vecs``. ``names`` (level 1: each row's
        words, the names among them, the store's background) merges clusters that name the same rare
        things (memengine/cluster_names.py); ``split`` (level 1: the same words, which rows are episodes) splits
        a new cluster of separable subjects (memengine/cluster_split.py).
        """
        gv = vecs if group_vecs is None else group_vecs
        min_sim = 1.0 - threshold
        pos = {int(k): i for i, k in enumerate(keys)}
        assign = np.full(len(keys), -1, dtype=np.int64)
        clusters: dict[int, list[int]] = {}
        for cid, mid in self.conn.execute(
                """SELECT cm.cluster_id, cm.memory_id FROM cluster_members cm JOIN clusters c ON c.id = cm.cluster_id
                   WHERE c.level = ? AND c.status = 'active' ORDER BY cm.cluster_id, cm.memory_id""", (level,)):
            clusters.setdefault(int(cid), [])
            if int(mid) in pos:
                clusters[int(cid)].append(pos[int(mid)])
                assign[pos[int(mid)]] = int(cid)
        for cid in [c for c, m in clusters.items() if not m]:  # members all without vectors: leave as is
            del clusters[cid]
        counts = {"clusters_created": 0, "members_joined": 0, "clusters_merged": 0}
        merged: list[tuple[int, int]] = []

        def means(ids: list[int]) -> np.ndarray:
            return np.stack([gv[clusters[c]].mean(axis=0) for c in ids]) if ids else np.zeros((0, gv.shape[1]))

        next_tmp = -2  # new clusters get ids -2, -3, ...: -1 in ``assign`` means "in no cluster"
        # (level 1) the words of the rows, for the split of clusters holding separable subjects (cluster_split.py)
        split_words = split if names is not None and cluster_split.ENABLED else None
        read_whole: dict[tuple[int, ...], bool] = {}

        def apart(a: int, b: int) -> bool:
            return split_words is not None and cluster_split.apart(clusters[a], clusters[b], split_words)

        def new_id() -> int:
            nonlocal next_tmp
            next_tmp -= 1
            return next_tmp + 1

        for _round in range(MAX_ROUNDS):
            changed = False
            # 1. join the closest existing cluster
            free = np.nonzero((assign == -1) & eligible)[0]
            cids = sorted(clusters)
            if len(free) and cids:
                mvec = means(cids).astype(np.float32)
                joined: dict[int, list[int]] = {}
                for b in range(0, len(free), QUERY_BLOCK * 4):
                    rows = free[b : b + QUERY_BLOCK * 4]
                    sims = gv[rows] @ mvec.T
                    best = np.argmax(sims, axis=1)
                    for i, (r, j) in enumerate(zip(rows, best)):
                        if sims[i, j] >= min_sim:
                            cid = cids[int(j)]
                            assign[r] = cid
                            joined.setdefault(cid, []).append(int(r))
                            changed = True
                for cid, rs in joined.items():
                    clusters[cid] = sorted(set(clusters[cid]) | set(rs))
            # 2. cluster the rest in bounded batches
            free = np.nonzero((assign == -1) & eligible)[0]
            min_size = TOPIC_MIN_SIZE if level == 1 else MIN_CLUSTER_SIZE
            if len(free) >= MIN_CLUSTER_SIZE:
                small: list[list[int]] = []
                for batch in self._batches(free, keys, index):
                    # hubs (short chat turns, generic notes) need more than the threshold at level 1
                    for members in _agglomerate(gv[batch], threshold, hubs=level == 1):
                        member_rows = sorted(int(batch[i]) for i in members)
                        if len(member_rows) < min_size:
                            small.append(member_rows)
                            continue
                        cid = new_id()
                        clusters[cid] = member_rows
                        assign[member_rows] = cid
                        changed = True
                if SMALL_JOIN_SLACK > 0 and small and clusters:
                    changed |= self._join_small(small, clusters, assign, gv, min_sim - SMALL_JOIN_SLACK)
            # 3. merge clusters whose members are, on average, close enough
            if self._merge_step(clusters, assign, means, min_sim, merged, apart):
                changed = True
            # 4. ...and those that name the same rare things (one subject over several days: cluster_names.py)
            if names is not None and cluster_names.merge_step(clusters, assign, gv, names[0], names[1], names[2],
                                                               int(eligible.sum()), self._merge_order, merged,
                                                               apart):
                changed = True
            # 5. ...and a memory in no cluster joins the one that names what it names (round 12)
            if names is not None and cluster_names.JOIN and cluster_names.join_step(
                    clusters, assign, np.nonzero((assign == -1) & eligible)[0], gv, names[0], names[1], names[2],
                    int(eligible.sum())):
                changed = True
            # 6. ...and a new cluster that holds two subjects of separable words is split (round 13)
            if split_words is not None and cluster_split.split_all(clusters, assign, gv, split_words, new_id,
                                                                   read_whole):
                changed = True
            if not changed:
                break
        self._write_clusters(level, keys, vecs, clusters, merged, child_cluster, counts)
        return counts

    @staticmethod
    def _join_small(small: list[list[int]], clusters: dict[int, list[int]], assign: np.ndarray, gv: np.ndarray,
                    min_sim: float) -> bool:
        """Groups too small to be a topic join the cluster nearest their mean, if at least ``min_sim``
        (the mean similarity of their members to its members: the average-linkage criterion)."""
        cids = sorted(clusters)
        mvec = np.stack([gv[clusters[c]].mean(axis=0) for c in cids])
        changed = False
        for rows in small:
            sims = mvec @ gv[rows].mean(axis=0)
            j = int(np.argmax(sims))
            if sims[j] >= min_sim:
                clusters[cids[j]] = sorted(set(clusters[cids[j]]) | set(rows))
                assign[rows] = cids[j]
                changed = True
        return changed

    def _merge_step(self, clusters: dict[int, list[int]], assign: np.ndarray,
                    means: Any, min_sim: float, merged: list[tuple[int, int]], apart: Any = None) -> bool:
        """Merge cluster pairs whose mean vectors are close enough, best first; True if any merged. ``apart(a, b)``:
        a pair left apart (two subjects a split would separate: cluster_split.apart)."""
        changed = False
        cids = sorted(clusters)
        if len(cids) <= 1:
            return False
        mvec = means(cids)
        cidx = VectorIndex(np.asarray(cids, dtype=np.int64), _normalise(mvec.astype(np.float32)))
        nb, _ = cidx.knn(np.arange(len(cids)), min(MERGE_K, len(cids) - 1), min_sim=min_sim)
        cand = sorted({(min(i, int(j)), max(i, int(j))) for i in range(len(cids)) for j in nb[i] if j >= 0})
        size = {c: len(clusters[c]) for c in cids}
        mean_of = {c: mvec[i] for i, c in enumerate(cids)}
        scored = sorted(((float(mean_of[cids[i]] @ mean_of[cids[j]]), cids[i], cids[j]) for i, j in cand),
                        key=lambda t: (-t[0], t[1], t[2]))
        alive = set(cids)
        for _s, a, b in scored:
            if a not in alive or b not in alive:
                continue
            if float(mean_of[a] @ mean_of[b]) < min_sim or (apart is not None and apart(a, b)):
                continue
            keep, drop = self._merge_order(a, b, size)
            mean_of[keep] = (mean_of[keep] * size[keep] + mean_of[drop] * size[drop]) / (size[keep] + size[drop])
            size[keep] += size[drop]
            clusters[keep] = sorted(set(clusters[keep]) | set(clusters[drop]))
            assign[clusters[keep]] = keep
            del clusters[drop]
            alive.discard(drop)
            merged.append((keep, drop))
            changed = True
        return changed

    @staticmethod
    def _merge_order(a: int, b: int, size: dict[int, int]) -> tuple[int, int]:
        """Existing (positive id) clusters survive over new ones; then the larger; then the older."""
        ka = (a < 0, -size[a], abs(a))
        kb = (b < 0, -size[b], abs(b))
        return (a, b) if ka <= kb else (b, a)

    @staticmethod
    def _batches(free: np.ndarray, keys: np.ndarray, index: VectorIndex | None) -> list[np.ndarray]:
        if len(free) <= BATCH_MAX:
            return [free]
        if index is not None:
            cells = index.cells()
            order = np.lexsort((keys[free], cells[[index.pos[int(k)] for k in keys[free]]]))
            free = free[order]
            # whole cells per batch, up to BATCH_TARGET items (never more than BATCH_MAX)
            out: list[np.ndarray] = []
            start = 0
            fc = cells[[index.pos[int(k)] for k in keys[free]]]
            for i in range(1, len(free) + 1):
                if i - start >= BATCH_MAX or (i - start >= BATCH_TARGET and (i == len(free) or fc[i] != fc[i - 1])) \
                        or i == len(free):
                    out.append(free[start:i])
                    start = i
            return out
        return [free[i : i + BATCH_MAX] for i in range(0, len(free), BATCH_MAX)]

    def _write_clusters(self, level: int, keys: np.ndarray, vecs: np.ndarray, clusters: dict[int, list[int]],
                        merged: list[tuple[int, int]], child_cluster: dict[int, int] | None, counts: dict[str, int]) -> None:
        """Apply the plan: merges, new clusters, joins, centroids — each in short transactions."""
        real: dict[int, int] = {c: c for c in clusters if c > 0}
        final_members = {c: set(m) for c, m in clusters.items()}
        now = self.now_iso

        def centroid(c: int) -> np.ndarray:
            return _normalise(vecs[sorted(final_members[c])].mean(axis=0).astype(np.float32))

        def add_members(cid: int, rows: Sequence[int], cent: np.ndarray) -> None:
            sims = vecs[list(rows)] @ cent
            self.conn.executemany(
                "INSERT OR IGNORE INTO cluster_members(cluster_id, memory_id, similarity, added_at) VALUES (?,?,?,?)",
                [(cid, int(keys[r]), round(float(x), 4), now) for r, x in zip(rows, sims)])
            if child_cluster is not None:
                self.conn.executemany("UPDATE clusters SET parent_id = ? WHERE id = ?",
                                      [(cid, child_cluster[int(keys[r])]) for r in rows if int(keys[r]) in child_cluster])

        for _keep, drop in merged:
            if drop > 0:
                with write_tx(self.conn):
                    self._withdraw(drop, "merged")
                counts["clusters_merged"] += 1
        pending = sorted((c for c in clusters if c < 0), key=lambda c: -c)
        for chunk in _chunks(pending, 50):
            with write_tx(self.conn):
                for tmp in chunk:
                    cent = centroid(tmp)
                    cur = self.conn.execute(
                        """INSERT INTO clusters(level, centroid, member_count, status, created_at, updated_at)
                           VALUES (?, ?, ?, 'active', ?, ?)""",
                        (level, cent.tobytes(), len(final_members[tmp]), now, now))
                    real[tmp] = int(cur.lastrowid)
                    add_members(real[tmp], sorted(final_members[tmp]), cent)
                    counts["clusters_created"] += 1
        existing = sorted(c for c in clusters if c > 0)
        for chunk in _chunks(existing, 100):
            with write_tx(self.conn):
                for c in chunk:
                    cent = centroid(c)
                    before = {int(r[0]) for r in self.conn.execute(
                        "SELECT memory_id FROM cluster_members WHERE cluster_id = ?", (c,))}
                    fresh = [r for r in sorted(final_members[c]) if int(keys[r]) not in before]
                    if fresh:
                        add_members(c, fresh, cent)
                        counts["members_joined"] += len(fresh)
                    self.conn.execute(
                        "UPDATE clusters SET centroid = ?, member_count = ?, updated_at = ? WHERE id = ? "
                        "AND (centroid IS NOT ? OR member_count != ?)",
                        (cent.tobytes(), len(before) + len(fresh), now, c, cent.tobytes(), len(before) + len(fresh)))


def _agglomerate(vecs: np.ndarray, threshold: float, hubs: bool = False) -> list[list[int]]:
    """scipy average-linkage clusters (cosine, distance ≤ threshold) of ≥ MIN_CLUSTER_SIZE rows; ``hubs``:
    cosines less each pair's hubness (memengine/cluster_hubs.py)."""
    if len(vecs) < MIN_CLUSTER_SIZE:
        return []
    from scipy.cluster.hierarchy import fcluster, linkage
    from scipy.spatial.distance import squareform

    # cosine distances of unit vectors from one BLAS product (scipy's pdist loops in C without BLAS: 5x slower);
    # squareform takes its upper triangle row by row, as triu_indices would, without 2 index arrays of n²/2
    x = vecs.astype(np.float64)
    sim = x @ x.T
    if hubs:
        sim = cluster_hubs.corrected(sim)
    d = np.clip(1.0 - squareform(sim, force="tovector", checks=False), 0.0, 2.0)
    labels = fcluster(linkage(d, method="average"), t=threshold, criterion="distance")
    groups: dict[int, list[int]] = {}
    for i, lab in enumerate(labels):
        groups.setdefault(int(lab), []).append(i)
    return sorted((g for g in groups.values() if len(g) >= MIN_CLUSTER_SIZE), key=lambda g: g[0])

