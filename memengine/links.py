"""consolidate's links phase: temporal and semantic edges, orphan repair, edge weight decay.

The semantic edges of a store are the union of every active raw memory's ``SEMANTIC_K``
nearest neighbours (cosine ≥ ``SEMANTIC_MIN_SIM``). A run computes them only where they
can have changed since the last run, found from two marks in ``_mem_meta``:

- ``consolidate.links_hwm``: memories above it are new; they get their neighbours;
- ``consolidate.links_seq``: the ``_status_changes`` log position; memories whose status
  changed since are re-queried (a restored one gets neighbours, the neighbours of an
  archived or deleted one refill their lists).

An older memory's list changes only where a new memory enters it: the memories a new one
could enter (those that scan its IVF cell and are at least ``SEMANTIC_MIN_SIM`` close) are
re-queried too. So after any series of runs the edges are exactly those of one run over
the final data plus those earlier runs made (edges are never removed here; unused ones
fade), which tests/test_links.py checks. The marks move only after every edge is written:
a killed run is redone in full by the next one (inserts are idempotent).
"""

from __future__ import annotations

import base64
import json
import math
from collections.abc import Iterable, Sequence
from datetime import datetime
from itertools import repeat
from typing import Any

import numpy as np

from memengine.db import select_in, write_tx
from memengine.edges import add_edges
from memengine.knn import EXACT_MAX, VectorIndex
from memengine.pyround import round_float32, round_float64
from memengine.timeparse import from_iso

WRITE_CHUNK = 500  # rows per transaction: a concurrent `store` waits at most a few ms for us
EDGE_CHUNK = 2000  # edge rows per transaction (cheap rows: a transaction still takes only milliseconds)
META_PREFIX = "consolidate."  # high-water marks live in _mem_meta under this prefix

SEMANTIC_K = 5  # nearest neighbours linked per memory; with temporal edges the degree stays > 3
SEMANTIC_MIN_SIM = 0.5  # cosine below this is not "related" for MiniLM sentences
ORPHAN_K = 3  # a memory with no edge at all gets this many neighbours...
ORPHAN_MIN_SIM = 0.2  # ...if they are at least this similar (below: noise, better no edge)
TEMPORAL_WINDOW_S = 6 * 3600  # consecutive memories of one thread/source this close in time are linked
TEMPORAL_WEIGHT = 0.6
DECAYING_EDGES = ("semantic", "temporal", "reinforces")  # learned edges fade unless used; explicit ones never
EDGE_DECAY_PER_DAY = 0.99  # half-life ~69 days of non-use
EDGE_MIN_WEIGHT = 0.05  # floor: a faded edge is weak, never gone (orphan repair would only re-add it)
WEIGHT_EPS = 1e-4  # smaller changes are not written (a rerun a second later changes nothing)

_GROUP = "coalesce(thread, 'source:' || source)"


def chunks(seq: Sequence[Any], size: int = WRITE_CHUNK) -> Iterable[Sequence[Any]]:
    """Consecutive slices of at most ``size`` items."""
    for i in range(0, len(seq), size):
        yield seq[i : i + size]


def _keys(pairs: np.ndarray) -> np.ndarray:
    """(smaller id, larger id) rows as one int64 each: smaller << 32 | larger (ids < 2**32)."""
    if not len(pairs):
        return np.zeros(0, dtype=np.int64)
    lo, hi = np.minimum(pairs[:, 0], pairs[:, 1]), np.maximum(pairs[:, 0], pairs[:, 1])
    return (lo.astype(np.int64) << 32) | hi.astype(np.int64)


def get_meta(conn: Any, key: str, default: int = 0) -> int:
    """An integer mark of consolidate from ``_mem_meta``."""
    row = conn.execute("SELECT value FROM _mem_meta WHERE key = ?", (META_PREFIX + key,)).fetchone()
    return int(row[0]) if row is not None and row[0] is not None else default


def set_meta(conn: Any, values: dict[str, int]) -> None:
    """Set consolidate marks, all in one transaction."""
    with write_tx(conn):
        conn.executemany("INSERT OR REPLACE INTO _mem_meta(key, value) VALUES (?, ?)",
                         [(META_PREFIX + k, str(v)) for k, v in values.items()])


def reverse_candidates(idx: VectorIndex, fresh_pos: np.ndarray, allowed: np.ndarray, min_sim: float) -> np.ndarray:
    """Positions (``allowed``, not fresh) whose :meth:`VectorIndex.knn` scan sees a fresh vector at
    ≥ ``min_sim``: the only older lists a fresh memory can enter."""
    hit = np.zeros(len(idx), dtype=bool)
    older = allowed.copy()
    older[fresh_pos] = False
    if not len(fresh_pos) or not older.any():  # a first run: every list is computed anyway
        return np.zeros(0, dtype=np.int64)
    if len(idx) <= EXACT_MAX:
        scans = [(fresh_pos, np.arange(len(idx)))]
    else:
        cells, members, probe = idx._ivf()
        seen_by: dict[int, list[int]] = {}  # cell -> cells whose queries scan it
        for c, near in enumerate(probe):
            for x in near:
                seen_by.setdefault(int(x), []).append(c)
        by_cell: dict[int, list[int]] = {}
        for p in fresh_pos:
            by_cell.setdefault(int(cells[p]), []).append(int(p))
        scans = [(np.asarray(ps), np.concatenate([members[c] for c in seen_by.get(x, [])] or [np.zeros(0, np.int64)]))
                 for x, ps in sorted(by_cell.items())]
    for qp, cand in scans:
        cand = cand[older[cand]]
        # a hair below the threshold: the product here and the one in knn() may round the last bit apart
        for b in range(0, len(qp), 256):
            if len(cand):
                close = (idx.vecs[qp[b : b + 256]] @ idx.vecs[cand].T) >= min_sim - 1e-4
                hit[cand[close.any(axis=0)]] = True
    return np.nonzero(hit)[0]


def stable_index(conn: Any, ids: np.ndarray, vecs: np.ndarray) -> VectorIndex:
    """The run's index, with the IVF cells of earlier runs while the store has not doubled since they
    were trained (``consolidate.ivf`` in ``_mem_meta``); trained and stored anew otherwise."""
    if len(ids) <= EXACT_MAX:
        return VectorIndex(ids, vecs)
    row = conn.execute("SELECT value FROM _mem_meta WHERE key = ?", (META_PREFIX + "ivf",)).fetchone()
    if row is not None:
        try:
            saved = json.loads(row[0])
            cent = np.frombuffer(base64.b64decode(saved["centroids"]), dtype=np.float32).reshape(-1, vecs.shape[1])
            if int(saved["n"]) * 2 >= len(ids) and len(cent) > 0:
                return VectorIndex(ids, vecs, centroids=cent.copy())
        except (ValueError, KeyError, TypeError):
            pass  # unreadable or another dimension: train anew
    idx = VectorIndex(ids, vecs)
    cent = idx.train()
    idx = VectorIndex(ids, vecs, centroids=cent)
    value = json.dumps({"n": len(ids), "centroids": base64.b64encode(cent.astype(np.float32).tobytes()).decode()})
    with write_tx(conn):
        conn.execute("INSERT OR REPLACE INTO _mem_meta(key, value) VALUES (?, ?)", (META_PREFIX + "ivf", value))
    return idx


class LinksPhase:
    """One links phase over a snapshot: ``idx`` holds the raw memories with id ≤ ``max_id``."""

    def __init__(self, conn: Any, now: datetime, now_iso: str, max_id: int, idx: VectorIndex) -> None:
        self.conn = conn
        self.now = now
        self.now_iso = now_iso
        self.max_id = max_id
        self.idx = idx

    def _changes(self, seq: int) -> tuple[int, set[int], bool]:
        """(log head, memory ids whose status changed after ``seq``, whether the log was trimmed past it)."""
        head = self.conn.execute("SELECT (SELECT coalesce(max(seq), 0) FROM _status_changes), "
                                 "(SELECT coalesce(min(seq), 0) FROM _status_changes)").fetchone()
        last, first = int(head[0]), int(head[1])
        if last == seq:
            return seq, set(), False
        if last < seq:  # the log restarted (a restored file): its positions say nothing about us
            return last, set(), True
        changed = {int(r[0]) for r in self.conn.execute(
            "SELECT DISTINCT memory_id FROM _status_changes WHERE seq > ? AND seq <= ?", (seq, last))}
        return last, changed, first > seq + 1

    def run(self) -> dict[str, Any]:
        """Plan and write the edges; move the marks last. Returns the phase counts."""
        hwm = get_meta(self.conn, "links_hwm")
        seq, changed, trimmed = self._changes(get_meta(self.conn, "links_seq"))
        idx = self.idx
        status = dict(self.conn.execute("SELECT id, status FROM memories WHERE level = 0 AND id <= ?",
                                        (self.max_id,)).fetchall())
        active = np.array([status.get(int(m)) == "active" for m in idx.ids], dtype=bool)
        if trimmed and hwm > 0:
            changed = {int(m) for m in idx.ids}  # the log no longer says what changed: recompute everything
        is_changed = np.isin(idx.ids, np.fromiter(changed, dtype=np.int64, count=len(changed)))
        fresh = ((idx.ids > hwm) | is_changed) & active
        fresh_pos = np.nonzero(fresh)[0]
        removed = sorted(m for m in changed if status.get(m) != "active")
        queries = np.union1d(fresh_pos, self._refill(removed, active))
        queries = np.union1d(queries, reverse_candidates(idx, fresh_pos, active, SEMANTIC_MIN_SIM))
        semantic = self._pairs(queries, SEMANTIC_K, active, SEMANTIC_MIN_SIM)
        temporal = self._temporal_pairs(hwm, changed, trimmed and hwm > 0)
        planned = np.union1d(semantic[:, :2], np.fromiter((m for pair in temporal for m in pair), dtype=np.int64))
        unconnected = self._unconnected(active)
        orphans = unconnected[~np.isin(idx.ids[unconnected], planned)]
        orphan = self._pairs(orphans, ORPHAN_K, active, ORPHAN_MIN_SIM)
        # pairs as one int64 key each (smaller id << 32 | larger id): sets of 450k pairs without tuples
        existing = self._existing_semantic()
        sem_keys, orphan_keys = _keys(semantic), _keys(orphan)
        new_orphan = len(np.setdiff1d(np.setdiff1d(orphan_keys, sem_keys), existing))
        keys = np.unique(np.concatenate([sem_keys, orphan_keys]))  # in (smaller, larger) order
        keys = keys[~np.isin(keys, existing)]
        lo, hi = keys >> 32, keys & 0xFFFFFFFF
        weights = self._weights(lo, hi)
        added_sem = self._insert(list(zip(lo.tolist(), hi.tolist(), repeat("semantic"), weights)))
        added_tmp = self._insert([(a, b, "temporal", TEMPORAL_WEIGHT) for a, b in sorted(temporal)])
        decayed = self.decay_edges()
        new_hwm = max(hwm, int(idx.ids.max()) if len(idx) else hwm)
        set_meta(self.conn, {"links_hwm": new_hwm, "links_seq": seq})
        return {"new_memories": int(np.count_nonzero((idx.ids > hwm) & active)),
                "requeried": int(len(queries) - np.count_nonzero((idx.ids > hwm) & active)),
                "semantic_edges": added_sem - new_orphan, "temporal_edges": added_tmp,
                "orphan_edges": new_orphan, "edges_decayed": decayed,
                "edges_per_memory": self._degree()}

    def _refill(self, removed: list[int], active: np.ndarray) -> np.ndarray:
        """Positions of active memories linked semantically to a memory that left the active set."""
        if not removed:
            return np.zeros(0, dtype=np.int64)
        near: set[int] = set()
        sql = ("SELECT source_id, target_id FROM associations WHERE edge_type = 'semantic' "
               "AND (source_id IN ({ids}) OR target_id IN ({ids}))")
        for chunk in chunks(removed, 400):
            for a, b in self.conn.execute(sql.format(ids=",".join("?" * len(chunk))), [*chunk, *chunk]):
                near.update((int(a), int(b)))
        pos = [self.idx.pos[m] for m in sorted(near) if m in self.idx.pos]
        return np.asarray([p for p in pos if active[p]], dtype=np.int64)

    def _pairs(self, query_pos: np.ndarray, k: int, active: np.ndarray, min_sim: float) -> np.ndarray:
        """(smaller id, larger id) rows of the neighbours of ``query_pos``, first occurrence only."""
        lo, hi, _s = self.idx.pairs(query_pos, k, active, min_sim)
        out = np.stack([lo, hi], axis=1) if len(lo) else np.zeros((0, 2), dtype=np.int64)
        _keys, first = np.unique(out[:, 0] * (1 << 32) + out[:, 1], return_index=True)
        return out[np.sort(first)]

    def _weights(self, lo: np.ndarray, hi: np.ndarray) -> list[float]:
        """Cosine of each pair (ids), computed one pair at a time: whoever found it, the same bits."""
        if not len(lo):
            return []
        pa, pb = np.searchsorted(self.idx.ids, lo), np.searchsorted(self.idx.ids, hi)  # ids sorted
        sims = np.empty(len(lo), dtype=np.float32)
        for s in range(0, len(lo), 65536):
            sims[s : s + 65536] = np.einsum("ij,ij->i", self.idx.vecs[pa[s : s + 65536]], self.idx.vecs[pb[s : s + 65536]])
        return round_float32(np.clip(sims, 0.0, 1.0), 4)

    def _unconnected(self, active: np.ndarray) -> np.ndarray:
        """Positions of active raw memories without any edge (two index probes per memory)."""
        ids = np.fromiter((int(r[0]) for r in self.conn.execute(
            """SELECT id FROM memories m WHERE status = 'active' AND level = 0 AND id <= ?
               AND NOT EXISTS (SELECT 1 FROM associations a WHERE a.source_id = m.id)
               AND NOT EXISTS (SELECT 1 FROM associations a WHERE a.target_id = m.id)""", (self.max_id,))),
            dtype=np.int64)
        return np.nonzero(np.isin(self.idx.ids, ids) & active)[0]

    def _existing_semantic(self) -> np.ndarray:
        """The semantic edges there are, as sorted unique keys (see _keys)."""
        rows = self.conn.execute("SELECT source_id, target_id FROM associations WHERE edge_type = 'semantic'").fetchall()
        return np.unique(_keys(np.asarray(rows, dtype=np.int64).reshape(-1, 2)))

    def _degree(self) -> float:
        n_active = int(self.conn.execute(
            "SELECT count(*) FROM memories WHERE status = 'active' AND level = 0").fetchone()[0])
        n_edges = int(self.conn.execute(
            """SELECT count(*) FROM associations a JOIN memories s ON s.id = a.source_id
               JOIN memories t ON t.id = a.target_id WHERE s.status = 'active' AND t.status = 'active'
               AND s.level = 0 AND t.level = 0""").fetchone()[0])
        return round(2 * n_edges / n_active, 2) if n_active else 0.0

    def _temporal_pairs(self, hwm: int, changed: set[int], everything: bool) -> set[tuple[int, int]]:
        """(earlier, later) consecutive active memories of one thread (else source) within the window,
        where one of them is new or changed, or a memory between them left the active set."""
        groups: set[str] | None = None
        if not everything:
            groups = {r[0] for r in self.conn.execute(
                f"SELECT DISTINCT {_GROUP} FROM memories WHERE id > ? AND id <= ? AND level = 0", (hwm, self.max_id))}
            groups |= {r[0] for r in select_in(self.conn, f"SELECT DISTINCT {_GROUP} FROM memories WHERE id IN ({{ids}})",
                                               sorted(changed))}
            if not groups:
                return set()
        pairs: set[tuple[int, int]] = set()
        for part in ([None] if groups is None else list(chunks(sorted(groups), 400))):
            where = "" if part is None else f"AND {_GROUP} IN ({','.join('?' * len(part))})"
            rows = self.conn.execute(
                f"""SELECT id, status, {_GROUP} AS grp, coalesce(event_at, created_at) AS t, coalesce(position, 0) AS pos
                    FROM memories WHERE level = 0 AND id <= ? {where} ORDER BY grp, t, pos, id""",
                (self.max_id, *(part or ()))).fetchall()
            pairs |= self._consecutive(rows, hwm, changed)
        existing = {(int(a), int(b)) for a, b in self.conn.execute(
            "SELECT source_id, target_id FROM associations WHERE edge_type = 'temporal'")}
        return {p for p in pairs if p not in existing and (p[1], p[0]) not in existing}

    @staticmethod
    def _consecutive(rows: list[Any], hwm: int, changed: set[int]) -> set[tuple[int, int]]:
        """Rows (id, status, grp, t, ...) in group and time order -> the (earlier, later) pairs to link."""
        pairs: set[tuple[int, int]] = set()
        prev: int | None = None  # the previous active memory of the group
        prev_grp: Any = None
        prev_t: datetime | None = None
        gap = False  # a memory that left the active set since the last run lies between prev and this one
        parse = from_iso
        for r in rows:
            mid, grp = int(r[0]), r[2]
            if prev is not None and prev_grp != grp:
                prev, prev_t, gap = None, None, False
            if r[1] != "active":
                gap = gap or mid in changed
                continue
            t = parse(r[3])
            if prev is not None and t is not None and prev_t is not None \
                    and (mid > hwm or prev > hwm or mid in changed or prev in changed or gap) \
                    and (t - prev_t).total_seconds() <= TEMPORAL_WINDOW_S:
                pairs.add((prev, mid))
            prev, prev_grp, prev_t, gap = mid, grp, t, False
        return pairs

    def _insert(self, edges: list[tuple[int, int, str, float]]) -> int:
        added = 0
        # No decay anchor in metadata yet: a fresh edge's weight at last_used_at *is* its base
        # (decay_edges anchors it on first decay); skipping 350k JSON blobs saves ~25% at 100k.
        for chunk in chunks(edges, EDGE_CHUNK):
            with write_tx(self.conn):
                added += add_edges(self.conn, chunk, self.now_iso, used=True)
        return added

    def decay_edges(self) -> int:
        """Learned edges fade with time since last use: weight = base · rate^days, never compounded.

        ``metadata.base_weight``/``ref_at`` anchor the curve; when the edge was used
        since (``last_used_at`` moved, e.g. a Hebbian co-retrieval), the current
        weight becomes the new base at that time.
        """
        q = ",".join("?" * len(DECAYING_EDGES))
        rows = self.conn.execute(
            f"""SELECT id, weight, coalesce(last_used_at, created_at) AS used,
                      json_extract(metadata, '$.base_weight') AS base, json_extract(metadata, '$.ref_at') AS ref_at,
                      metadata
               FROM associations WHERE edge_type IN ({q}) AND coalesce(last_used_at, created_at) < ?""",
            (*DECAYING_EDGES, self.now_iso)).fetchall()
        if not rows:
            return 0
        # The curve of each edge, vectorised (every night rewrites every learned edge's weight: ~550k
        # rows at 100k memories): per row exactly the floats of
        #   w = round(max(0, min(1, max(min(base, EDGE_MIN_WEIGHT), base * EDGE_DECAY_PER_DAY ** days))), 6)
        # (the rate's power is taken once per distinct anchor time, by Python as before; products, min
        # and max are the same IEEE operations in numpy; pyround.round_float64 is round()).
        moved = [r[3] is None or r[4] != r[2] for r in rows]
        current = np.fromiter((float(r[1]) for r in rows), dtype=np.float64, count=len(rows))
        base = np.fromiter((float(r[1]) if mv else float(r[3]) for r, mv in zip(rows, moved)), dtype=np.float64,
                           count=len(rows))
        factor: dict[str, float] = {}
        for used in {r[2] for r in rows}:
            days = max(0.0, (self.now - (from_iso(used) or self.now)).total_seconds() / 86400.0)
            factor[used] = EDGE_DECAY_PER_DAY ** days
        rate = np.fromiter((factor[r[2]] for r in rows), dtype=np.float64, count=len(rows))
        w = np.maximum(np.minimum(base, EDGE_MIN_WEIGHT), base * rate)
        w = round_float64(np.minimum(np.maximum(w, 0.0), 1.0), 6)
        changed = np.nonzero(np.abs(w - current) > WEIGHT_EPS)[0].tolist()
        wl, bl = w.tolist(), base.tolist()
        weights = [(wl[i], int(rows[i][0])) for i in changed if not moved[i]]  # anchored: only the weight changes
        # first decay, or used since: the anchor moves too
        anchors = [(wl[i], int(rows[i][0]), bl[i], rows[i][2], rows[i][5]) for i in changed if moved[i]]
        for chunk in chunks(weights, EDGE_CHUNK):
            with write_tx(self.conn):
                self.conn.executemany("UPDATE associations SET weight = ? WHERE id = ?", chunk)
        stamp: dict[str, str] = {}  # anchor time -> its JSON string
        for chunk in chunks(anchors):
            with write_tx(self.conn):
                self.conn.executemany("UPDATE associations SET weight = ?, metadata = ? WHERE id = ?",
                                      [(w, _anchored(m, b, used, stamp), i) for w, i, b, used, m in chunk])
        return len(weights) + len(anchors)


def _anchored(metadata: str | None, base: float, used: str, stamp: dict[str, str]) -> str:
    """``json.dumps({**json.loads(metadata or "{}"), "base_weight": base, "ref_at": used})``, the same
    text, built without a JSON round trip for the usual empty metadata (a link's, on its first decay)."""
    if metadata in (None, "", "{}") and type(base) is float and math.isfinite(base):
        if used not in stamp:
            stamp[used] = json.dumps(used)
        return '{"base_weight": ' + repr(base) + ', "ref_at": ' + stamp[used] + "}"
    return json.dumps({**json.loads(metadata or "{}"), "base_weight": base, "ref_at": used})

