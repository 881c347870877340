"""The nightly sleep cycle: links, clusters and hierarchy, summaries, contradictions, decay, MEMORY.md.

``run(store, ...)`` executes the selected phases in order::

    cascade     summaries whose sources were forgotten are recomputed or withdrawn
    links       temporal + semantic edges for new memories, orphan repair, edge weight decay
    cluster     incremental agglomerative clustering of raw memories (level 1)
    summarize   extractive summaries (level-1 memories) and the hierarchy above them (levels 2+)
    contradict  disagreeing facts: newer supersedes older of the same owner, else open for review
    decay       strength from base and clock (never compounded); weak memories archived, never deleted
    rank        personalised PageRank over the whole graph, stored for `brief` (graph_rank.precompute_ranks)
    write       the managed block of MEMORY.md

Every phase writes in short ``BEGIN IMMEDIATE`` transactions (``memengine.db.write_tx``),
so agents keep storing while it runs; anything stored after the run started is left
for the next run. Each transaction leaves a consistent state and every step is
re-derivable from the database, so a run killed at any point is completed by the next.
The module never imports click: ``memengine.cli.consolidate`` renders what it returns.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from memengine import (
    cluster_background,
    cluster_context,
    cluster_names,
    cluster_split,
    decay,
    forget_episodes,
    graph_rank,
    memorymd,
    summarize,
    write_turns,
)
from memengine.chat_episodes import PRELOAD_MIN
from memengine.clustering import BATCH_MAX, MIN_CLUSTER_SIZE, ClusterSteps
from memengine.consolidate_backup import backup, lock_path, prune_backups
from memengine.consolidate_jobs import _doc_freq, _subject, _summary_job, _summary_members, _verdict
from memengine.consolidate_review import cluster_tree, list_contradictions, resolve_contradiction
from memengine.db import write_tx
from memengine.edges import add_edges
from memengine.errors import KIND_ERRORS, LockedError, MemError, UserError
from memengine.knn import VectorIndex
from memengine.knn import normalise as _normalise
from memengine.links import (
    EDGE_DECAY_PER_DAY,
    EDGE_MIN_WEIGHT,
    WEIGHT_EPS,
    LinksPhase,
    get_meta,
    set_meta,
    stable_index,
)
from memengine.links import chunks as _chunks
from memengine.pool import ordered_map
from memengine.records import NewMemory
from memengine.store import MemoryStore
from memengine.text import content_hash
from memengine.timeparse import from_iso, to_iso, utcnow
from memengine.vectors import scan_vectors, vectors_from_blobs

# --------------------------------------------------------------------------- phases

ALL_PHASES = ("episodes", "cascade", "links", "cluster", "summarize", "contradict", "decay", "rank", "write")
DESTRUCTIVE_PHASES = frozenset({"cascade", "contradict", "decay"})  # a backup is taken before these
INDEX_PHASES = frozenset({"links", "cluster", "summarize", "contradict"})  # phases that read the raw vector index

# --------------------------------------------------------------------------- tuning

# Links and vector search: memengine/links.py and memengine/knn.py (re-exported here for callers and tests)

# Clusters
CLUSTER_DISTANCE = 0.5  # average-linkage cosine distance threshold (scipy 'average', 'cosine')
LEVEL_DISTANCE_STEP = 0.15  # upper levels group broader themes: level L uses 0.5 + 0.15·(L-1), capped
MAX_LEVEL_DISTANCE = 0.8
MAX_LEVEL = 4  # raw memories are level 0; summaries levels 1..MAX_LEVEL
ROOT_TARGET = 5  # stop building levels once this few top clusters remain

# Summaries
SUMMARY_SOURCE = "consolidate"
SUMMARY_IMPORTANCE = 0.5
DF_SAMPLE = 20_000  # documents sampled for background term frequencies (key terms)
LANGUAGE_SAMPLE = 300  # (brief26) of which the newest this many tell the store's language
EXTERNAL_TIMEOUT_S = 60.0
EXTERNAL_MAX_CHARS = 2000

# Contradictions
CONTRA_K = 4  # nearest facts compared per new fact (detect() costs ~0.2 ms a pair)
CONTRA_POOL = 16  # neighbours in which a same-subject pair is still looked for
CONTRA_MIN_SIM = 0.55
SUBJECT_MIN_SIM = 0.3

# MEMORY.md
MEMORY_MD_TOKENS = 2000  # the block holds what `mem.py brief` shows at its default budget
MEMORY_MD_BUDGET = 20_000  # chars: a safety net only, the token budget above binds first

DEFAULT_KEEP_BACKUPS = 3


# --------------------------------------------------------------------------- report

@dataclass
class PhaseReport:
    """Counts and timing of one phase (``counts`` keys are stable for agents)."""

    name: str
    counts: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {"phase": self.name, **self.counts, "seconds": round(self.seconds, 3)}


@dataclass
class Report:
    """What a run did (or, with ``dry_run``, what the real run will do)."""

    dry_run: bool
    now: str
    phases: list[PhaseReport] = field(default_factory=list)
    backup: str | None = None
    backup_note: str | None = None  # why there is no backup this time
    warnings: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {"dry_run": self.dry_run, "now": self.now, "backup": self.backup, "backup_note": self.backup_note,
                "seconds": round(self.seconds, 3),
                "phases": {p.name: p.to_dict() for p in self.phases}, "warnings": self.warnings}

    def counts(self) -> dict[str, dict[str, Any]]:
        """Phase counts without timings (what dry-run and real run must agree on)."""
        return {p.name: dict(p.counts) for p in self.phases}


# --------------------------------------------------------------------------- helpers

def _iso(dt: datetime) -> str:
    out = to_iso(dt)
    assert out is not None
    return out


def _load_vectors(store: MemoryStore, wanted: set[int]) -> tuple[np.ndarray, np.ndarray]:
    """(ids sorted, L2-normalised float32 matrix) of the wanted memories that have a vector."""
    ids, mat = scan_vectors(store.conn, wanted)
    if not ids:
        return np.zeros(0, dtype=np.int64), np.zeros((0, 0), dtype=np.float32)
    order = np.argsort(np.asarray(ids))
    return np.asarray(ids, dtype=np.int64)[order], mat[order]


class _RowsById(Mapping[int, np.ndarray]):
    """Rows of a matrix by id (ids sorted), without a dict of 100k entries."""

    def __init__(self, ids: np.ndarray, mat: np.ndarray) -> None:
        self.ids, self.mat = ids, mat

    def _pos(self, key: object) -> int:
        if not isinstance(key, int) or not len(self.ids):
            return -1
        p = int(np.searchsorted(self.ids, key))
        return p if p < len(self.ids) and int(self.ids[p]) == key else -1

    def __getitem__(self, key: int) -> np.ndarray:
        p = self._pos(key)
        if p < 0:
            raise KeyError(key)
        return self.mat[p]

    def __contains__(self, key: object) -> bool:
        return self._pos(key) >= 0

    def __iter__(self) -> Iterator[int]:
        return iter(self.ids.tolist())

    def __len__(self) -> int:
        return len(self.ids)


# --------------------------------------------------------------------------- the run

class Consolidator(ClusterSteps):
    """One consolidation run over one store, at a fixed ``now``."""

    def __init__(self, store: MemoryStore, now: datetime, *, memory_md: Path | None = None,
                 summarizer: list[str] | None = None, write_files: bool = True,
                 progress: Callable[[str], None] | None = None,
                 before_destroy: Callable[[], None] | None = None,
                 phases: Sequence[str] = ALL_PHASES) -> None:
        self.store = store
        self.conn = store.conn
        self.now = now
        self.now_iso = _iso(now)
        self.memory_md = memory_md
        self.summarizer = summarizer
        self.write_files = write_files
        self.progress = progress or (lambda msg: None)
        # called right before a destructive phase's first write: the run takes its backup there, and
        # only there, so a run whose destructive phases have nothing to do writes no copy at all
        self.before_destroy = before_destroy or (lambda: None)
        self.warnings: list[str] = []
        self.failed: MemError | None = None  # (phase_write) MEMORY.md not written: said after the report
        self._index: VectorIndex | None = None
        self._index_stale = False  # statuses or memberships may have changed: check the raw set again
        # every raw vector read in this run (ids sorted, unit rows): the store's vector table is scanned
        # once per run, not once per phase that needs the index (~1.5 CPU-s a scan at 100k)
        self._vec_ids = np.zeros(0, dtype=np.int64)
        self._vec_mat: np.ndarray | None = None
        self._no_vec: set[int] = set()  # raw memories found to have no stored vector
        self._uses_index = bool(INDEX_PHASES & set(phases))
        self._people: dict[str, str] | None = None
        self._df: tuple[dict[str, int], int] | None = None  # read when a cluster needs a summary (not on a quiet rerun)
        self._language: str | None = None  # (brief26) the language of those texts (read with them)
        self._max_id = int(self.conn.execute("SELECT coalesce(max(id), 0) FROM memories").fetchone()[0])

    # ------------------------------------------------------------ snapshot

    def raw_index(self) -> VectorIndex:
        """Vectors of raw (level 0) active and archived memories that existed when the run started."""
        if self._index is None or self._index_stale:
            ids, vecs = self._raw_vectors()
            if self._index is None or not np.array_equal(ids, self._index.ids):
                self._index = stable_index(self.conn, ids, vecs)
            self._index_stale = False  # the same memories (and so the same vectors): the index holds
        return self._index

    def _invalidate(self) -> None:
        self._index_stale = True

    def _raw_vectors(self) -> tuple[np.ndarray, np.ndarray]:
        """(ids sorted, unit rows) of the raw memories the index holds, from the vectors read in this
        run; only those not read yet are read (all of them in one scan when they are many)."""
        wanted = np.fromiter((int(r[0]) for r in self.conn.execute(
            "SELECT id FROM memories WHERE level = 0 AND status IN ('active', 'archived') AND id <= ? ORDER BY id",
            (self._max_id,))), dtype=np.int64)
        have = self._vec_ids
        pos = np.clip(np.searchsorted(have, wanted), 0, max(0, len(have) - 1))
        hit = (have[pos] == wanted) if len(have) else np.zeros(len(wanted), dtype=bool)
        missing = [m for m in wanted[~hit].tolist() if m not in self._no_vec]
        if self._vec_mat is None or len(missing) >= PRELOAD_MIN:
            self._vec_ids, self._vec_mat = _load_vectors(self.store, set(wanted.tolist()))
        elif missing:
            self._add_vectors(self.store.vectors(missing))
        if missing:
            self._no_vec.update(set(missing) - set(self._vec_ids.tolist()))
        assert self._vec_mat is not None
        have = self._vec_ids
        pos = np.clip(np.searchsorted(have, wanted), 0, max(0, len(have) - 1))
        sel = pos[have[pos] == wanted] if len(have) else pos[:0]
        return have[sel], self._vec_mat[sel]

    def _add_vectors(self, got: dict[int, np.ndarray]) -> None:
        """Vectors read (or stored) in this run, added to those kept."""
        if not got or self._vec_mat is None:
            return
        new_ids = np.fromiter(got, dtype=np.int64, count=len(got))
        keep = ~np.isin(new_ids, self._vec_ids)
        if not keep.any():
            return
        ids = np.concatenate([self._vec_ids, new_ids[keep]])
        added = np.stack([got[int(m)] for m in new_ids[keep]])
        mat = np.concatenate([self._vec_mat, added]) if len(self._vec_mat) else added  # (none read: shape (0, 0))
        order = np.argsort(ids, kind="stable")
        self._vec_ids, self._vec_mat = ids[order], mat[order]

    # ------------------------------------------------------------ cascade

    def phase_cascade(self) -> dict[str, Any]:
        """Drop forgotten memories from clusters; withdraw clusters left too small, archive their summaries."""
        removed = withdrawn = 0
        for level in range(1, MAX_LEVEL + 1):
            # level 1 keeps archived (faded) members: the summary is what remains of them
            gone = "('deleted')" if level == 1 else "('deleted', 'archived')"
            rows = self.conn.execute(
                f"""SELECT cm.cluster_id, cm.memory_id FROM cluster_members cm
                    JOIN clusters c ON c.id = cm.cluster_id JOIN memories m ON m.id = cm.memory_id
                    WHERE c.level = ? AND c.status = 'active' AND m.status IN {gone}""", (level,)).fetchall()
            if not rows:
                continue
            touched = sorted({int(r[0]) for r in rows})
            self.before_destroy()
            for chunk in _chunks(rows):
                with write_tx(self.conn):
                    for cid, mid in chunk:
                        self.conn.execute("DELETE FROM cluster_members WHERE cluster_id = ? AND memory_id = ?",
                                          (cid, mid))
                        self.conn.execute(
                            """DELETE FROM associations WHERE edge_type = 'derived_from' AND target_id = ?
                               AND source_id = (SELECT summary_memory_id FROM clusters WHERE id = ?)""", (mid, cid))
            removed += len(rows)
            for cid in touched:
                n = int(self.conn.execute("SELECT count(*) FROM cluster_members WHERE cluster_id = ?",
                                          (cid,)).fetchone()[0])
                with write_tx(self.conn):
                    if n < MIN_CLUSTER_SIZE:
                        self._withdraw(cid, "withdrawn")
                        withdrawn += 1
                    else:
                        self.conn.execute("UPDATE clusters SET member_count = ?, updated_at = ? WHERE id = ?",
                                          (n, self.now_iso, cid))
        return {"members_removed": removed, "clusters_withdrawn": withdrawn}

    # ------------------------------------------------------------ episodes

    def phase_episodes(self) -> dict[str, Any]:
        """Threads stored live: their closed stretches become episodes, as an import makes them
        (chat_episodes.close_all: a stretch quiet for EPISODE_GAP is closed)."""
        from memengine.chat_episodes import close_all

        preloaded: _RowsById | None = None
        if self._uses_index:  # the later phases read every raw vector anyway: read them here, once
            ids, mat = self._raw_vectors()
            preloaded = _RowsById(ids, mat)
        sink: dict[int, bytes] = {}
        made = close_all(self.store, self.now, preloaded=preloaded, sink=sink)
        with write_tx(self.conn):  # an episode holding a forgotten turn's words is forgotten with it (users34)
            hidden = forget_episodes.sweep(self.conn, to_iso(self.now) or "")
        if made or hidden:  # the run's snapshot takes them in: the later phases link and cluster them now, not next run
            self._max_id = int(self.conn.execute("SELECT coalesce(max(id), 0) FROM memories").fetchone()[0])
            self._invalidate()
            if sink:  # the vectors just stored, as a read would return them (vectors_from_blobs)
                self._add_vectors(dict(zip(sink, vectors_from_blobs(list(sink.values())))))
        return {"episodes": made, **({"episodes_forgotten": len(hidden)} if hidden else {})}

    # ------------------------------------------------------------ links

    def phase_links(self) -> dict[str, Any]:
        """Temporal and semantic edges where they can have changed since the last run, orphan repair,
        edge decay (memengine/links.py)."""
        return LinksPhase(self.conn, self.now, self.now_iso, self._max_id, self.raw_index()).run()

    @staticmethod
    def _threshold(level: int) -> float:
        """Average-linkage distance threshold of a level: upper levels group broader themes."""
        return min(MAX_LEVEL_DISTANCE, CLUSTER_DISTANCE + LEVEL_DISTANCE_STEP * (level - 1))

    def phase_cluster(self) -> dict[str, Any]:
        """Level-1 clusters of raw memories (incremental)."""
        idx = self.raw_index()
        if len(idx) == 0:
            return {"clusters_created": 0, "members_joined": 0, "clusters_merged": 0, "clustered": 0, "clusters": 0}
        # a partner's shared copies are theirs: never summarised together with our own memories
        status = dict(self.conn.execute(
            "SELECT id, CASE WHEN source LIKE 'shared:%' THEN 'shared' ELSE status END FROM memories "
            "WHERE level = 0 AND id <= ?", (self._max_id,)).fetchall())
        eligible = np.array([status.get(int(m)) == "active" for m in idx.ids], dtype=bool)
        # chat turns grouped by subject, not by who spoke, and in their exchange (cluster_context.py)
        group_vecs = cluster_context.grouping_vectors(self.conn, idx.ids, idx.vecs)
        # the threshold read above the store's background (an embedder's compressed languages: cluster_background.py)
        gv = idx.vecs if group_vecs is None else group_vecs
        threshold = cluster_background.distance(self._threshold(1), gv[eligible])
        names = None
        if cluster_names.ENABLED:  # one subject over several days in one topic: clusters that name the same things
            words, name_words = cluster_names.words_of(self.conn, [int(k) for k in idx.ids])
            names = (words, name_words, cluster_background.background(gv[eligible]))
        split = None
        if names is not None and cluster_split.ENABLED:  # one topic, one subject: separable subjects split
            split = cluster_split.Words(names[0], names[1])
        counts: dict[str, Any] = self._cluster_level(1, idx.ids, idx.vecs, eligible, None, idx, threshold, group_vecs,
                                                     names, split)
        counts["clustered"] = int(self.conn.execute(
            """SELECT count(DISTINCT cm.memory_id) FROM cluster_members cm JOIN clusters c ON c.id = cm.cluster_id
               WHERE c.level = 1 AND c.status = 'active'""").fetchone()[0])
        counts["clusters"] = int(self.conn.execute(
            "SELECT count(*) FROM clusters WHERE level = 1 AND status = 'active'").fetchone()[0])
        return counts

    # ------------------------------------------------------------ summaries and hierarchy

    def phase_summarize(self) -> dict[str, Any]:
        """Summaries of level-1 clusters, then upper levels until a few roots remain."""
        totals: dict[str, Any] = {"summaries_created": 0, "summaries_updated": 0, "upper_clusters_created": 0,
                                  "upper_members_joined": 0, "upper_clusters_merged": 0}
        made = self._summarize_level(1)
        totals["summaries_created"] += made[0]
        totals["summaries_updated"] += made[1]
        levels = 1
        for level in range(2, MAX_LEVEL + 1):
            rows = self.conn.execute(
                """SELECT c.id, c.summary_memory_id, c.centroid FROM clusters c JOIN memories m
                   ON m.id = c.summary_memory_id WHERE c.level = ? AND c.status = 'active' AND m.status = 'active'
                   AND c.centroid IS NOT NULL ORDER BY c.summary_memory_id""", (level - 1,)).fetchall()
            has_level = self.conn.execute("SELECT 1 FROM clusters WHERE level = ? AND status = 'active' LIMIT 1",
                                          (level,)).fetchone()
            if len(rows) <= ROOT_TARGET and not has_level:
                break
            keys = np.array([int(r[1]) for r in rows], dtype=np.int64)
            vecs = _normalise(np.stack([np.frombuffer(r[2], dtype=np.float32) for r in rows]).astype(np.float32))
            child = {int(r[1]): int(r[0]) for r in rows}
            c = self._cluster_level(level, keys, vecs, np.ones(len(keys), dtype=bool), child,
                                    VectorIndex(keys, vecs) if len(keys) > BATCH_MAX else None, self._threshold(level))
            totals["upper_clusters_created"] += c["clusters_created"]
            totals["upper_members_joined"] += c["members_joined"]
            totals["upper_clusters_merged"] += c["clusters_merged"]
            made = self._summarize_level(level)
            totals["summaries_created"] += made[0]
            totals["summaries_updated"] += made[1]
            levels = level
            if not self.conn.execute("SELECT 1 FROM clusters WHERE level = ? AND status = 'active' LIMIT 1",
                                     (level,)).fetchone():
                break
        totals["levels"] = levels
        totals["roots"] = int(self.conn.execute(
            "SELECT count(*) FROM clusters WHERE status = 'active' AND parent_id IS NULL").fetchone()[0])
        return totals

    def _background_df(self) -> tuple[dict[str, int], int]:
        """Document frequencies of the newest DF_SAMPLE raw memories, counted in the worker processes (and, brief26,
        ``_language``: summarize.detect_language of the newest LANGUAGE_SAMPLE)."""
        if self._df is None:
            texts = [r[0] for r in self.conn.execute(
                "SELECT content FROM memories WHERE level = 0 AND status = 'active' ORDER BY id DESC LIMIT ?",
                (DF_SAMPLE,))]
            df: dict[str, int] = {}
            for part in ordered_map(_doc_freq, list(_chunks(texts, 1000)), min_items=4):
                for t, n in part.items():
                    df[t] = df.get(t, 0) + n
            self._df = (df, len(texts))
            # (brief26) a small cluster's label reads the stop words of its store's language too
            self._language = summarize.detect_language(texts[:LANGUAGE_SAMPLE])
        return self._df

    def _summarize_level(self, level: int) -> tuple[int, int]:
        """Create or refresh the summary memory of every active cluster at ``level``; (created, updated)."""
        clusters = self.conn.execute(
            """SELECT c.id, c.summary_memory_id, c.centroid, m.status AS sstatus, m.metadata AS smeta
               FROM clusters c LEFT JOIN memories m ON m.id = c.summary_memory_id
               WHERE c.level = ? AND c.status = 'active' ORDER BY c.id""", (level,)).fetchall()
        todo: list[tuple[int, int | None, str, list[Any], np.ndarray | None]] = []
        for c in clusters:
            if c["sstatus"] == "deleted":
                continue  # the user forgot this summary: do not bring it back
            members = self.conn.execute(
                """SELECT m.id, m.content, m.content_hash, m.event_at, m.author FROM cluster_members cm
                   JOIN memories m ON m.id = cm.memory_id WHERE cm.cluster_id = ? AND m.status != 'deleted'
                   AND m.valid_to IS NULL ORDER BY m.id""", (c["id"],)).fetchall()  # never quote a superseded fact
            if len(members) < MIN_CLUSTER_SIZE:
                continue
            sig = hashlib.sha1("\n".join(f"{r['id']}:{r['content_hash']}" for r in members).encode()).hexdigest()
            meta = json.loads(c["smeta"] or "{}") if c["smeta"] else {}
            if c["summary_memory_id"] is not None and meta.get("members_sig") == sig and c["sstatus"] == "active":
                continue
            cent = np.frombuffer(c["centroid"], dtype=np.float32) if c["centroid"] is not None else None
            todo.append((int(c["id"]), c["summary_memory_id"], sig, members, cent))
        created = updated = 0
        for window in _chunks(todo, 512):  # bounded: the jobs carry member texts
            jobs = [(level, [(int(r["id"]), r["content"], r["event_at"], r["author"]) for r in members],
                     None if level == 1 else self.store.vectors([int(r["id"]) for r in members]), cent)
                    for _cid, _sid, _sig, members, cent in window]
            shared = ((*self._background_df(), self._language), self._known_people(), self.raw_index())
            made = ordered_map(_summary_job, jobs, shared, min_items=16)
            if self.summarizer:
                made = [self._external_summary(job, text) for job, text in zip(jobs, made)]
            c, u = self._write_summaries(level, window, made)
            created, updated = created + c, updated + u
        return created, updated

    def _write_summaries(self, level: int, todo: Sequence[tuple[int, int | None, str, list[Any], np.ndarray | None]],
                         made: list[tuple[str, list[str]]]) -> tuple[int, int]:
        created = updated = 0
        for start in range(0, len(todo), 64):
            chunk = todo[start : start + 64]
            texts = made[start : start + 64]
            # A summary's vector is its cluster's centroid (the normalised mean of its members' vectors),
            # as an episode's is: embedding the text was ~half of this phase, and the model reads only
            # the header and three sentences. Only a cluster without a centroid has its text embedded.
            bare = [i for i, todo_i in enumerate(chunk) if todo_i[4] is None]
            embedded = self.store.embed_or_none([texts[i][0] for i in bare]) if bare else None
            vec_of = {i: embedded[k] for k, i in enumerate(bare)} if embedded is not None else {}
            with write_tx(self.conn):
                for i, (cid, sid, sig, members, cent) in enumerate(chunk):
                    text, terms = texts[i]
                    vec = cent if cent is not None else vec_of.get(i)
                    meta = {"cluster_id": cid, "members_sig": sig, "member_count": len(members)}
                    item = NewMemory(content=text, memory_type="semantic", source=SUMMARY_SOURCE,
                                     ref=f"cluster:{cid}", importance=SUMMARY_IMPORTANCE, metadata=meta,
                                     level=level, created_at=self.now)
                    if sid is None:
                        old = self.conn.execute("SELECT id FROM memories WHERE source = ? AND ref = ?",
                                                (SUMMARY_SOURCE, f"cluster:{cid}")).fetchone()
                        sid = int(old[0]) if old else None
                    created, updated = (created + 1, updated) if sid is None else (created, updated + 1)
                    sid = self.store.write_derived(item, vec, self.now_iso, replace_id=sid)
                    self.conn.execute("UPDATE clusters SET summary_memory_id = ?, label = ?, updated_at = ? WHERE id = ?",
                                      (sid, terms[0] if terms else None, self.now_iso, cid))
                    member_ids = {int(r["id"]) for r in members}
                    for (old_t,) in self.conn.execute(
                            "SELECT target_id FROM associations WHERE source_id = ? AND edge_type = 'derived_from'",
                            (sid,)).fetchall():
                        if int(old_t) not in member_ids:
                            self.conn.execute("DELETE FROM associations WHERE source_id = ? AND target_id = ? "
                                              "AND edge_type = 'derived_from'", (sid, old_t))
                    add_edges(self.conn, [(sid, m, "derived_from", 1.0) for m in sorted(member_ids)], self.now_iso)
        return created, updated

    def _external_summary(self, job: tuple[Any, ...], made: tuple[str, list[str]]) -> tuple[str, list[str]]:
        """The user's summarizer command instead of the extractive text (kept if the command fails)."""
        mem, _total = _summary_members(job, self.raw_index())
        try:
            out = summarize.run_external_summarizer(self.summarizer or [], summarize.cluster_payload(mem),
                                                    EXTERNAL_TIMEOUT_S)
            return out[:EXTERNAL_MAX_CHARS], made[1]
        except summarize.SummarizerError as exc:
            if str(exc) not in self.warnings:
                self.warnings.append(f"{exc}; used the extractive summary")
            return made

    def _known_people(self) -> dict[str, str]:
        """The store's people (authors, contacts, aliases), read once per run."""
        if self._people is None:
            self._people = self.store.known_people()
        return self._people

    # ------------------------------------------------------------ contradictions

    def phase_contradict(self) -> dict[str, Any]:
        """Compare each new fact with its nearest facts; record disagreements; same owner → newer supersedes."""
        hwm = get_meta(self.conn, "contradict_hwm")
        facts = {int(r[0]): r for r in self.conn.execute(
            """SELECT id, content, memory_type, source, created_at, coalesce(valid_from, created_at) AS valid_from
               FROM memories WHERE status = 'active'
               AND level = 0 AND valid_to IS NULL AND memory_type IN ('semantic', 'procedural') AND id <= ?""",
            (self._max_id,))}
        idx = self.raw_index()
        allowed = np.array([int(m) in facts for m in idx.ids], dtype=bool) if len(idx) else np.zeros(0, dtype=bool)
        new_pos = np.nonzero(allowed & (idx.ids > hwm))[0] if len(idx) else np.zeros(0, dtype=np.int64)
        known = {(int(a), int(b)) for a, b in self.conn.execute("SELECT memory_a, memory_b FROM contradictions")}
        pairs = self._contradiction_pairs(idx, new_pos, allowed, facts) if len(new_pos) else {}
        todo = [(a, b, sim) for (a, b), sim in sorted(pairs.items()) if (a, b) not in known]
        jobs = []
        for a, b, sim in todo:
            older, newer = sorted((facts[a], facts[b]), key=lambda r: (r["created_at"], r["id"]))
            jobs.append((older["content"], newer["content"], facts[a]["content"], facts[b]["content"], sim))
        found = [(a, b, v) for (a, b, _s), v in zip(todo, ordered_map(_verdict, jobs)) if v is not None]
        superseded = opened = 0
        if found:
            self.before_destroy()
        for chunk in _chunks(found, 100):
            with write_tx(self.conn):
                for a, b, v in chunk:
                    ra, rb = facts[a], facts[b]
                    same_owner = ra["memory_type"] == rb["memory_type"] == "semantic" and ra["source"] == rb["source"]
                    if same_owner:
                        older, newer = sorted((ra, rb), key=lambda r: (r["created_at"], r["id"]))
                        self.conn.execute("UPDATE memories SET valid_to = ?, updated_at = ? WHERE id = ? "
                                          "AND valid_to IS NULL",  # bi-temporal: from when the newer one holds
                                          (max(older["valid_from"], newer["valid_from"]), self.now_iso, older["id"]))
                        self._edge(int(newer["id"]), int(older["id"]), "supersedes")
                        status, kept = "superseded", int(newer["id"])
                        superseded += 1
                    else:
                        self._edge(a, b, "contradicts")
                        status, kept = "open", None
                        opened += 1
                    self.conn.execute(
                        """INSERT OR IGNORE INTO contradictions(memory_a, memory_b, kind, reason, confidence, status,
                           kept_id, detected_at, resolved_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                        (a, b, v.kind, v.reason, v.confidence, status, kept, self.now_iso,
                         self.now_iso if kept else None))
        if len(idx) and int(idx.ids.max()) > hwm:
            set_meta(self.conn, {"contradict_hwm": int(idx.ids.max())})
        return {"new_facts": int(len(new_pos)), "pairs_checked": len([p for p in pairs if p not in known]),
                "superseded": superseded, "open": opened}

    def _contradiction_pairs(self, idx: VectorIndex, new_pos: np.ndarray, allowed: np.ndarray,
                             facts: dict[int, Any]) -> dict[tuple[int, int], float]:
        """(smaller id, larger id) → cosine: each new fact's CONTRA_K closest facts, and those further
        (down to SUBJECT_MIN_SIM) about the same subject."""
        nb, sims = idx.knn(new_pos, CONTRA_POOL, allowed=allowed, min_sim=SUBJECT_MIN_SIM)
        involved = sorted({int(idx.ids[p]) for p in new_pos} | {int(idx.ids[j]) for j in nb[nb >= 0].tolist()})
        subject = dict(zip(involved, ordered_map(_subject, [facts[m]["content"] for m in involved])))
        pairs: dict[tuple[int, int], float] = {}
        for row, p in enumerate(new_pos):
            a = int(idx.ids[p])
            for rank, (j, s) in enumerate(zip(nb[row], sims[row])):
                if j < 0:
                    continue
                b = int(idx.ids[j])
                close = rank < CONTRA_K and s >= CONTRA_MIN_SIM
                if close or (s >= SUBJECT_MIN_SIM and subject[a] and subject[a] == subject[b]):
                    pairs.setdefault((min(a, b), max(a, b)), float(s))
        return pairs

    def _edge(self, a: int, b: int, kind: str) -> None:
        add_edges(self.conn, [(a, b, kind, 1.0)], self.now_iso)

    # ------------------------------------------------------------ rank

    def phase_rank(self) -> dict[str, Any]:
        """PageRank for ``brief``, computed here so that ``brief`` reads it cold (graph.py)."""
        return graph_rank.precompute_ranks(self.store, self.now)

    # ------------------------------------------------------------ decay

    def phase_decay(self) -> dict[str, Any]:
        """Strength from base and clock; archive below the threshold (never importance ≥ 0.9 or pinned)."""
        updates: list[tuple[float, int]] = []
        archive: list[int] = []
        # a pure function of these four: memories stored in one batch share them (one computation each)
        memo: dict[tuple[Any, str, Any, str], float] = {}
        # archived memories keep an up-to-date strength too: daily runs and one late run then agree exactly
        for r in self.conn.execute(
                """SELECT id, status, memory_type, importance, base_strength, strength, pinned,
                          coalesce(decay_ref_at, created_at) AS ref FROM memories
                   WHERE status IN ('active', 'archived') AND level = 0 AND id <= ?""", (self._max_id,)):
            key = (r["base_strength"], r["memory_type"], r["importance"], r["ref"])
            s = memo.get(key)
            if s is None:
                ref = from_iso(r["ref"]) or self.now
                s = memo[key] = round(decay.strength_at(float(r["base_strength"]), r["memory_type"],
                                                        float(r["importance"]), ref, self.now), 6)
            if abs(s - float(r["strength"])) > WEIGHT_EPS:
                updates.append((s, int(r["id"])))
            if r["status"] == "active" and decay.should_archive(s, float(r["importance"]), bool(r["pinned"])):
                archive.append(int(r["id"]))
        if updates or archive:
            self.before_destroy()
        for chunk in _chunks(updates):
            with write_tx(self.conn):
                self.conn.executemany("UPDATE memories SET strength = ? WHERE id = ?", chunk)
        for chunk in _chunks(archive):
            with write_tx(self.conn):
                self.conn.executemany(
                    "UPDATE memories SET status = 'archived', updated_at = ? WHERE id = ? AND status = 'active'",
                    [(self.now_iso, m) for m in chunk])
        return {"strength_updated": len(updates), "archived": len(archive)}

    # ------------------------------------------------------------ MEMORY.md

    def memory_block(self) -> str:
        """The managed block: the very selection `mem.py brief` shows (memengine.brief), deterministic."""
        from memengine import brief as selection

        count, how = graph_rank.token_counter(self.store)
        ranks, _why = graph_rank.load_ranks(self.store, self.now)
        sel = selection.select(self.store, MEMORY_MD_TOKENS, self.now, count, how,
                               ranked_ids=ranks["ids"] if ranks else None)
        return memorymd.render_block(sel.blocks(), MEMORY_MD_BUDGET, sel.standalone())

    def phase_write(self) -> dict[str, Any]:
        """Write (or, in a dry run, compare) the managed block of MEMORY.md."""
        if self.memory_md is None:
            return {"memory_md": None, "changed": False}
        block = self.memory_block()
        path = self.memory_md.expanduser()
        # the digest of the block written last time into this file: a block that no longer has it
        # was edited by someone, and the file is copied aside before the block is replaced
        key = "memory_md.digest:" + os.path.realpath(path)
        previous = self.store.meta(key)
        saved: list[Path] = []
        edited = False
        try:
            if self.write_files:
                changed = memorymd.write_managed_block(path, block, previous=previous, saved=saved)
                if previous != memorymd.digest(block):
                    with write_tx(self.conn):
                        self.conn.execute("INSERT OR REPLACE INTO _mem_meta(key, value) VALUES (?, ?)",
                                          (key, memorymd.digest(block)))
            else:
                changed, edited = memorymd.preview(path, block, previous)
                if edited:  # (users26) what a careful user runs the dry run for: their edit would be replaced
                    self.warnings.append(f"{path}: the managed block has been edited; a real run saves the file as "
                                         f"{path.name}.edited-<time> and replaces the block (keep notes outside it)")
        except memorymd.ManagedBlockError as exc:
            return self._write_failed(path, UserError(f"{path}: {exc}"))
        except OSError as exc:
            kind, message = memorymd.write_failed(path, exc)
            return self._write_failed(path, KIND_ERRORS.get(kind, UserError)(message))
        out = {"memory_md": str(path), "changed": bool(changed), "block_chars": len(block)}
        if not self.write_files and edited:
            out["edited_block_would_be_saved"] = True
        if saved:
            out["edited_block_saved_to"] = str(saved[0])
            self.warnings.append(f"{path}: the managed block had been edited; the file as it was is saved in "
                                 f"{saved[0]} (edits inside the block are replaced: keep notes outside it)")
        return out

    def _write_failed(self, path: Path, exc: MemError) -> dict[str, Any]:
        """MEMORY.md could not be written: the error is kept and raised once the run's report is made (users36: raised
        here, the error was all a cron's log showed, though every other phase had run and committed)."""
        self.failed = exc
        return {"memory_md": str(path), "changed": False, "failed": exc.message}


# --------------------------------------------------------------------------- entry points

def parse_phases(text: str | None) -> list[str]:
    """``"links,cluster"`` → ordered phase names (all by default); unknown names are a UserError."""
    if not text:
        return list(ALL_PHASES)
    asked = [p.strip() for p in text.split(",") if p.strip()]
    unknown = [p for p in asked if p not in ALL_PHASES]
    if unknown:
        raise UserError(f"--phases: unknown phase {unknown[0]!r} (choose from {', '.join(ALL_PHASES)})")
    return [p for p in ALL_PHASES if p in asked]


def run(store: MemoryStore, *, phases: Sequence[str] = ALL_PHASES, now: datetime | None = None,
        dry_run: bool = False, memory_md: Path | str | None = None, summarizer: list[str] | None = None,
        keep_backups: int = DEFAULT_KEEP_BACKUPS, progress: Callable[[str], None] | None = None) -> Report:
    """Run a consolidation; one at a time per database (a second one raises ``LockedError``).

    ``dry_run`` runs the very same phases on a ``VACUUM INTO`` copy that is then
    deleted, so its report is exactly what the real run will do (given the same
    ``now`` and no writes in between); MEMORY.md is compared, not written.
    """
    from filelock import FileLock, Timeout

    now = now or utcnow()
    md = Path(memory_md).expanduser() if memory_md else None
    phases = [p for p in ALL_PHASES if p in phases]
    lock = FileLock(str(lock_path(store.path)), timeout=0)
    try:
        lock.acquire()
    except Timeout:
        raise LockedError(f"another consolidate is running on {store.path} (lock {lock_path(store.path)}); "
                          "try again when it has finished") from None
    try:
        if dry_run:
            return _dry_run(store, phases, now, md, summarizer, progress)
        with write_turns.yielding(store.conn):  # an agent's store waiting for the lock goes first (users30 #2)
            return _run(store, phases, now, md, summarizer, keep_backups, progress, write_files=True)
    finally:
        lock.release()


def _run(store: MemoryStore, phases: Sequence[str], now: datetime, md: Path | None, summarizer: list[str] | None,
         keep_backups: int, progress: Callable[[str], None] | None, write_files: bool,
         dry_run: bool = False) -> Report:
    t0 = time.perf_counter()
    report = Report(dry_run=dry_run, now=_iso(now))
    def take_backup() -> None:
        if write_files and keep_backups > 0 and report.backup is None:
            report.backup = str(backup(store, keep_backups, now))

    job = Consolidator(store, now, memory_md=md, summarizer=summarizer, write_files=write_files, progress=progress,
                       before_destroy=take_backup, phases=phases)
    destructive_rows = 0  # rows the destructive phases changed (triggers included)
    for name in phases:
        if progress:
            progress(name)
        t = time.perf_counter()
        before = store.conn.total_changes
        counts = getattr(job, f"phase_{name}")()
        if name in DESTRUCTIVE_PHASES:
            destructive_rows += store.conn.total_changes - before
        if name in ("cascade", "cluster"):
            job._invalidate()  # memberships/statuses changed
        report.phases.append(PhaseReport(name, counts, time.perf_counter() - t))
    if report.backup is None and write_files and keep_backups > 0 and DESTRUCTIVE_PHASES & set(phases):
        report.backup_note = "none kept: the destructive phases changed nothing"  # so none was written
    elif report.backup is not None:
        if destructive_rows == 0:
            # nothing a backup protects against happened: do not let unchanged copies fill the disk
            Path(report.backup).unlink(missing_ok=True)
            report.backup = None
            report.backup_note = "none kept: the destructive phases changed nothing"
        else:
            prune_backups(store, keep_backups)
    report.warnings = job.warnings
    report.seconds = time.perf_counter() - t0
    if job.failed is not None:
        # (users36) MEMORY.md failed after the other phases ran and committed: raised as before, the report with it
        # (``exc.report``), so the CLI can say what was done as well as what failed
        setattr(job.failed, "report", report)  # noqa: B010 - an attribute of this one error, not of MemError
        raise job.failed
    return report


def _dry_run(store: MemoryStore, phases: Sequence[str], now: datetime, md: Path | None,
             summarizer: list[str] | None, progress: Callable[[str], None] | None) -> Report:
    tmpdir = Path(tempfile.mkdtemp(prefix=".mem-dry-run-", dir=store.path.parent))
    try:
        copy = tmpdir / store.path.name
        from memengine.privfile import vacuum_into

        vacuum_into(store.conn, copy)
        shadow = MemoryStore(copy, embedder=store.embedder)
        try:
            return _run(shadow, phases, now, md, summarizer, 0, progress, write_files=False, dry_run=True)
        finally:
            shadow.close()
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)


def memory_md_default() -> Path | None:
    """``MEM_MEMORY_MD`` if set."""
    env = os.environ.get("MEM_MEMORY_MD")
    return Path(env).expanduser() if env else None


__all__ = ["ALL_PHASES", "EDGE_DECAY_PER_DAY", "EDGE_MIN_WEIGHT", "Consolidator", "Report", "PhaseReport", "VectorIndex", "run", "parse_phases",
           "resolve_contradiction", "list_contradictions", "cluster_tree", "lock_path", "backup",
           "memory_md_default", "content_hash", "prune_backups"]
