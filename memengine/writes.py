"""Writes and lifecycle: store one or many memories (dedup, context), links, forget/restore,
and the JSONL export/import of whole stores."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from memengine import storeid, supersession, timekind, timeparse, versions, write_warm
from memengine.cleantext import MAX_TAG_CHARS, check_text
from memengine.context import bracket_batch, refresh_context
from memengine.db import select_in, write_tx
from memengine.edges import add_edges
from memengine.errors import NotFound, UserError
from memengine.records import EDGE_TYPES, MEMORY_COLUMNS, MEMORY_TYPES, BatchStats, Memory, NewMemory, StoreResult
from memengine.storebase import StoreBase
from memengine.text import content_hash, normalise_tags
from memengine.timeparse import to_iso, utcnow

if TYPE_CHECKING:
    import numpy as np

MAX_CONTENT_BYTES = 1_000_000  # larger text needs --truncate: never a silent cut
# Beyond about this many characters the model reads a prefix only (256 word pieces): two long texts that share
# it embed alike whatever follows (users25: a journal stored again with a new paragraph at its end was merged
# into the old one, "near-duplicate (cosine 1.000)", and the paragraph lost). Such a text is a near-duplicate
# only when it says no word the older does not.
LONG_TEXT_CHARS = 500
_WORD = re.compile(r"\w+")


def _says_more(old: str, new: str) -> bool:
    """Whether ``new``, a text longer than the model reads whole, has a word ``old`` has not."""
    if len(new) <= LONG_TEXT_CHARS and len(old) <= LONG_TEXT_CHARS:
        return False
    return not set(_WORD.findall(new.casefold())) <= set(_WORD.findall(old.casefold()))
NEAR_DUP_COSINE = 0.95  # write-time near-duplicate threshold for facts and procedures (+ memengine.facts.same_fact)


class Writes(StoreBase):
    """The write room of :class:`memengine.store.MemoryStore`."""

    def _validate(self, m: NewMemory, truncate: bool = False) -> NewMemory:
        if not isinstance(m.content, str):
            raise UserError("content is empty")
        try:  # invalid Unicode is refused, NULs dropped (memengine/cleantext.py: why)
            m.content = check_text(m.content, "content")
            for name in ("source", "ref", "author", "thread"):
                if isinstance(getattr(m, name), str):
                    setattr(m, name, check_text(getattr(m, name), name))
            tags = re.split(r"[,\s]+", m.tags) if isinstance(m.tags, str) else list(m.tags or [])
            for t in tags:
                check_text(str(t), "tag")
                if len(str(t)) > MAX_TAG_CHARS:
                    raise ValueError(f"tag: {len(str(t)):,} characters, over the {MAX_TAG_CHARS} limit")
        except ValueError as exc:
            raise UserError(str(exc)) from exc
        if not m.content.strip():
            raise UserError("content is empty")
        raw = m.content.encode("utf-8", errors="surrogatepass")
        if len(raw) > MAX_CONTENT_BYTES:
            if not truncate:
                raise UserError(
                    f"content is {len(raw):,} bytes, over the {MAX_CONTENT_BYTES:,} limit (use --truncate to keep the first part)"
                )
            m.content = raw[:MAX_CONTENT_BYTES].decode("utf-8", errors="ignore")
            m.metadata = dict(m.metadata or {}, truncated_from_bytes=len(raw))
        if m.status not in ("active", "archived", "deleted"):
            raise UserError(f"status must be active, archived or deleted (got {m.status!r})")
        if m.memory_type not in MEMORY_TYPES:
            raise UserError(f"memory_type must be one of {', '.join(MEMORY_TYPES)} (got {m.memory_type!r})")
        if m.time_kind is not None and m.time_kind not in timekind.KINDS:
            raise UserError(f"time_kind must be one of {', '.join(timekind.KINDS)} (got {m.time_kind!r})")
        try:
            m.importance = float(m.importance)
        except (TypeError, ValueError) as exc:
            raise UserError(f"importance must be a number between 0 and 1 (got {m.importance!r})") from exc
        if not 0.0 <= m.importance <= 1.0:
            raise UserError(f"importance must be between 0 and 1 (got {m.importance})")
        return m

    def _row_values(self, m: NewMemory, now: str) -> dict[str, Any]:
        kind = timekind.written(m.event_at, m.time_kind)
        anchor = m.event_at  # "tomorrow" and the day's own terms: on the user's clock (a wall clock as written)
        if anchor is not None and kind == timekind.UTC and not timekind.zone_is_utc():
            anchor = timekind.to_user(timeparse.from_iso(to_iso(anchor)) or anchor)
        date_terms, resolved = timeparse.index_dates(m.content, anchor)
        meta = dict(m.metadata or {})
        if resolved:
            meta["resolved_dates"] = resolved
        return {
            "content": m.content, "memory_type": m.memory_type, "source": m.source, "ref": m.ref,
            "content_hash": content_hash(m.content), "importance": m.importance, "pinned": int(m.pinned),
            "created_at": to_iso(m.created_at) or now, "event_at": to_iso(m.event_at), "updated_at": now,
            "decay_ref_at": now, "status": m.status,
            "valid_from": to_iso(m.event_at) or now, "level": m.level, "author": m.author, "thread": m.thread,
            "position": m.position, "metadata": json.dumps(meta, ensure_ascii=False, default=str),
            "tags": normalise_tags(m.tags), "date_terms": date_terms, "time_kind": kind,
        }

    def _insert(self, values: dict[str, Any], vec: np.ndarray | None) -> int:
        cols = ", ".join(values)
        marks = ", ".join("?" for _ in values)
        cur = self.conn.execute(f"INSERT INTO memories ({cols}) VALUES ({marks})", tuple(values.values()))
        mid = int(cur.lastrowid)
        if vec is not None:
            self._write_vector(mid, vec)
        else:
            self._note_bare(1)
        return mid

    def _insert_many(self, rows: list[dict[str, Any]]) -> list[int]:
        """Insert rows with the same keys in one prepared statement; their ids, in order.

        One ``executemany``: the INSERT's program carries every trigger on ``memories``
        (the keyword index's are large), and executing it row by row re-prepared it each
        time (2 ms a row). Ids are assigned here, as SQLite would (max + 1), inside the
        caller's write transaction.
        """
        if not rows:
            return []
        first = int(self.conn.execute("SELECT coalesce(max(id), 0) + 1 FROM memories").fetchone()[0])
        cols = ", ".join(rows[0])
        marks = ", ".join("?" for _ in rows[0])
        self.conn.executemany(f"INSERT INTO memories (id, {cols}) VALUES (?, {marks})",
                              [(first + i, *r.values()) for i, r in enumerate(rows)])
        return list(range(first, first + len(rows)))

    def store(
        self,
        content: str,
        memory_type: str = "semantic",
        *,
        source: str = "user",
        importance: float = 0.5,
        tags: list[str] | str | None = None,
        metadata: dict[str, Any] | None = None,
        event_at: datetime | None = None,
        ref: str | None = None,
        author: str | None = None,
        thread: str | None = None,
        position: int | None = None,
        pinned: bool = False,
        truncate: bool = False,
        dedup: bool = True,
        links: Sequence[tuple[int, str, float]] = (),
        supersede: Sequence[int] = (),
        time_kind: str | None = None,
    ) -> StoreResult:
        """Store one memory; the same fact reinforces instead, an updated fact supersedes.

        Exact duplicates (same normalised text and type, same event time for
        episodic memories) and, for semantic/procedural memories only, vectors with
        cosine ≥ ``NEAR_DUP_COSINE`` that state the same fact (memengine.facts.same_fact:
        same content words, numbers, names, codes, dates and polarity) return the existing
        id with ``deduplicated``; a re-store raises its importance (max) and pins it if asked.
        A fact giving a new value for the slot of an active fact, or negating it, supersedes
        it (memengine.supersession: ``valid_to``, a ``supersedes`` edge; nothing deleted);
        ``supersede`` names facts this one corrects explicitly. ``dedup=False`` stores as
        given: no merge, no automatic supersession.
        Conversation turns and episodes are never merged nor superseded: "ok" said twice is two events.
        ``links``: ``(memory id, edge type, weight)`` edges from the stored (or existing)
        memory, written in the same transaction; a missing id fails before anything is written.
        ``time_kind``: what a naive ``event_at`` is (memengine/timekind.py: ``day`` for a bare day; default a UTC moment).
        """
        links = self.checked_links(links)
        for old in supersede:
            self.not_forgotten(int(old))  # NotFound, or forgotten: refused before anything is written
        m = self._validate(
            NewMemory(content=content, memory_type=memory_type, source=source, ref=ref, importance=importance,
                      tags=tags, metadata=metadata, event_at=event_at, author=author, thread=thread,
                      position=position, pinned=pinned, time_kind=time_kind),
            truncate=truncate,
        )
        now = to_iso(utcnow())
        assert now is not None
        values = self._row_values(m, now)
        if ref is not None:
            row = self.conn.execute("SELECT id FROM memories WHERE source = ? AND ref = ?", (source, ref)).fetchone()
            if row:
                res = StoreResult(int(row[0]), True, "ref")
                with write_tx(self.conn):
                    res.raised = self._raise(res.id, m)
                    if links:
                        res.links = self.add_links(res.id, links)
                return res
        vecs = self.embed_or_none([m.content])
        vec = vecs[0] if vecs is not None else None
        if supersede or (dedup and ref is None and supersession.is_fact(m.memory_type, m.thread)):
            write_warm.warm()  # the fact decisions' imports, not under the write lock (memengine/write_warm.py)
        with write_tx(self.conn):
            res = self._store_locked(m, values, vec, dedup and ref is None, now)
            res.links = self.add_links(res.id, links)
            explicit = self._with_current_versions([int(o) for o in supersede if int(o) != res.id], res.id)
            for old in explicit:
                supersession.explicit(self.conn, res.id, old, values["valid_from"], now)
            res.supersedes = sorted(set(res.supersedes) | set(explicit))
            if explicit:  # what it now supersedes it no longer contradicts nor may update
                res.contradicts = [i for i in res.contradicts if i not in explicit]
                res.may_update = [i for i in res.may_update if i not in explicit]
        return res

    def _with_current_versions(self, ids: list[int], new_id: int) -> list[int]:
        """``ids`` and, for each one already superseded, the current versions of its fact (followed along
        ``superseded_by``): correcting #4 after #8 replaced it corrects #8 too (users29: an agent keeps the id it
        saw days ago; ``--supersede 4`` alone left #8 and the correction both current, a fork)."""
        out = list(dict.fromkeys(ids))
        todo, seen = list(out), set(out) | {new_id}
        while todo and len(seen) < 200:
            cur = todo.pop()
            for later in versions.links(self.conn, cur)["superseded_by"]:
                if later in seen:
                    continue
                seen.add(later)
                todo.append(later)
                row = self.conn.execute("SELECT valid_to IS NULL AND status != 'deleted' FROM memories WHERE id = ?",
                                        (later,)).fetchone()
                if row and row[0]:
                    out.append(later)
        return out

    def _raise(self, mid: int, m: NewMemory) -> dict[str, Any]:
        """A re-stored memory keeps the higher importance and a pin it is given; returns what changed."""
        row = self.conn.execute("SELECT importance, pinned FROM memories WHERE id = ?", (mid,)).fetchone()
        raised: dict[str, Any] = {}
        if m.importance > float(row[0]):
            raised["importance"] = m.importance
        if m.pinned and not row[1]:
            raised["pinned"] = True
        if raised:
            self.conn.execute("UPDATE memories SET importance = max(importance, ?), pinned = max(pinned, ?), "
                              "updated_at = ? WHERE id = ?", (m.importance, int(m.pinned), to_iso(utcnow()), mid))
        return raised

    def checked_links(self, links: Sequence[tuple[int, str, float]],
                      options: tuple[str, str] = ("--link-type", "--link-weight")) -> list[tuple[int, str, float]]:
        """``(target id, edge type, weight)`` links validated: known types, weights in [0, 1],
        existing targets (NotFound) not forgotten (:meth:`not_forgotten`); ``options`` name the type and weight in error messages."""
        out = []
        for target, edge_type, weight in links:
            if edge_type not in EDGE_TYPES:
                raise UserError(f"{options[0]} must be one of {', '.join(EDGE_TYPES)} (got {edge_type!r})")
            if not 0.0 <= weight <= 1.0:
                raise UserError(f"{options[1]} must be between 0 and 1 (got {weight})")
            self.not_forgotten(int(target))  # NotFound, or forgotten: refused before anything is written
            out.append((int(target), edge_type, float(weight)))
        return out

    def add_links(self, mid: int, links: Sequence[tuple[int, str, float]]) -> list[tuple[int, str, float]]:
        """Edges ``mid → target`` inside the caller's write transaction (re-linking updates the
        weight); a link to itself is skipped (a store that deduplicated onto its own target).
        Returns the links written."""
        now = to_iso(utcnow())
        written = [link for link in links if link[0] != mid]
        add_edges(self.conn, [(mid, target, edge_type, weight) for target, edge_type, weight in written], now or "",
                  on_conflict="weight")
        return written

    def _merge_duplicate(self, mid: int, values: dict[str, Any]) -> dict[str, Any]:
        """Keep what a duplicate brought: its tags join the kept memory's, its source is listed in
        ``metadata.also_from``. Returns what was added (empty if nothing), so the caller can say so."""
        row = self.conn.execute("SELECT tags, source, metadata FROM memories WHERE id = ?", (mid,)).fetchone()
        if row is None:
            return {}
        merged: dict[str, Any] = {}
        old_tags = row[0].split()
        new_tags = [t for t in str(values.get("tags") or "").split() if t not in old_tags]
        if new_tags:
            self.conn.execute("UPDATE memories SET tags = ? WHERE id = ?", (normalise_tags(old_tags + new_tags), mid))
            merged["tags"] = new_tags
        source = values.get("source")
        meta = json.loads(row[2] or "{}")
        also = list(meta.get("also_from") or [])
        if source and source != row[1] and source not in also:
            self.conn.execute("UPDATE memories SET metadata = json_set(metadata, '$.also_from', json(?)) WHERE id = ?",
                              (json.dumps(also + [source]), mid))
            merged["also_from"] = source
        return merged

    def write_derived(self, item: NewMemory, vec: np.ndarray | None, now: str, replace_id: int | None = None) -> int:
        """A memory derived from others (a consolidation summary), inside the caller's write
        transaction: inserted, or written over ``replace_id`` (text, hash, metadata, dates;
        active again). Returns its id."""
        values = self._row_values(item, now)
        if replace_id is None:
            return self._insert(values, vec)
        self.conn.execute(
            """UPDATE memories SET content = ?, content_hash = ?, metadata = ?, date_terms = ?,
               updated_at = ?, status = 'active' WHERE id = ?""",
            (values["content"], values["content_hash"], values["metadata"], values["date_terms"], now, replace_id))
        if vec is not None:
            self._write_vector(replace_id, vec)
        return replace_id

    def id_by_ref(self, source: str, ref: str) -> int | None:
        """The id of the memory with this (source, ref), any status."""
        row = self.conn.execute("SELECT id FROM memories WHERE source = ? AND ref = ?", (source, ref)).fetchone()
        return int(row[0]) if row else None

    def count_refs(self, refs: Sequence[tuple[str, str]]) -> int:
        """How many of these (source, ref) pairs (at most 400: one query) are stored."""
        if not refs:
            return 0
        q = " OR ".join("(source = ? AND ref = ?)" for _ in refs)
        return int(self.conn.execute(f"SELECT count(*) FROM memories WHERE {q}",
                                     [x for pair in refs for x in pair]).fetchone()[0])

    def link_by_ref(self, links: Sequence[tuple[str, str, str, str]], weight: float) -> int:
        """Edges between stored memories named by ref: ``(source, ref, target ref, edge type)``
        within one source, in one transaction; pairs not both stored (or a memory to itself)
        are skipped, existing edges kept. Returns the edges added."""
        now = to_iso(utcnow()) or ""
        edges = []
        with write_tx(self.conn):
            for source, ref, target, edge_type in links:
                a, b = self.id_by_ref(source, ref), self.id_by_ref(source, target)
                if a is not None and b is not None and a != b:
                    edges.append((a, b, edge_type, weight))
            return add_edges(self.conn, edges, now)

    def aliases(self) -> dict[str, str]:
        """Every alias the store knows (as written) → the name it stands for."""
        return {r[0]: r[1] for r in self.conn.execute("SELECT alias, name FROM aliases")}

    def add_aliases(self, aliases: dict[str, str], source: str) -> None:
        """Aliases (a phone number, a nickname) of people, inside the caller's write transaction;
        an alias already known now names the new person."""
        now = to_iso(utcnow())
        self.conn.executemany(
            "INSERT INTO aliases(alias, name, kind, source, created_at) VALUES (?, ?, 'person', ?, ?) "
            "ON CONFLICT(alias) DO UPDATE SET name = excluded.name",
            [(alias, name, source, now) for alias, name in aliases.items()])

    def _store_locked(self, m: NewMemory, values: dict[str, Any], vec: np.ndarray | None, dedup: bool,
                      now: str) -> StoreResult:
        """The dedup checks and the insert of :meth:`store`, inside its write transaction."""
        conversational = m.memory_type == "episodic" or m.thread is not None
        if dedup:
            row = self.conn.execute(
                # (the index holds the hash's first 16 hex digits: m012_people_threads). An event is the same
                # one only at the same time, in the same chat, said by the same author: "ok" from two people
                # (or in two chats) is two turns, the same turn sent again (a retried call) is one.
                """SELECT id FROM memories WHERE substr(content_hash, 1, 16) = ? AND content_hash = ?
                   AND memory_type = ? AND status = 'active' AND valid_to IS NULL
                   AND (? = 0 OR (event_at IS ? AND thread IS ? AND author IS ?))
                   LIMIT 1""",
                (values["content_hash"][:16], values["content_hash"], m.memory_type, int(conversational),
                 values["event_at"], m.thread, m.author),
            ).fetchone()
            if row:
                self._reinforce(int(row[0]), now)
                res = StoreResult(int(row[0]), True, "identical", self._degraded_tag(),
                                  merged=self._merge_duplicate(int(row[0]), values))
                res.raised = self._raise(res.id, m)
                return res
        fact = dedup and not conversational and supersession.is_fact(m.memory_type, m.thread)
        near: list[tuple[int, float]] = []
        if vec is not None and fact:
            self._scale_op()
            near = self._nearest(vec, supersession.CANDIDATES)
        if near:
            from memengine.facts import same_fact  # (~100 compiled patterns: loaded by the writes that compare facts)
        for mid, sim in near[:5]:
            r = self.conn.execute(
                "SELECT memory_type, status, content, valid_to FROM memories WHERE id = ?", (mid,)
            ).fetchone()
            # near in meaning is not enough: "tiger-42" / "tiger-43", "is" / "is not" are two facts
            if r and r[0] == m.memory_type and r[1] == "active" and r[3] is None and sim >= NEAR_DUP_COSINE \
                    and not _says_more(r[2], m.content) and same_fact(r[2], m.content):
                self._reinforce(mid, now)
                res = StoreResult(mid, True, f"near-duplicate (cosine {sim:.3f})", self._degraded_tag(),
                                  merged=self._merge_duplicate(mid, values))
                res.raised = self._raise(mid, m)
                return res
        if m.thread is not None and values["position"] is None:
            # a turn stored live joins the end of its conversation
            row = self.conn.execute("SELECT max(position) FROM memories WHERE thread = ?", (m.thread,)).fetchone()
            values["position"] = (row[0] + 1) if row and row[0] is not None else 0
        mid = self._insert(values, vec)
        if vec is not None:
            self._note_model()
        if m.thread is not None:
            refresh_context(self, {m.thread: [values["position"]]})
        res = StoreResult(mid, False, None, self._degraded_tag())
        if fact and m.status == "active":
            self._supersede(res, m, values["valid_from"], dict(near), now, vec)
        return res

    def _supersede(self, res: StoreResult, m: NewMemory, valid_from: str, near: dict[int, float], now: str,
                   vec: np.ndarray | None) -> None:
        """Compare the new fact ``res.id`` (embedded as ``vec``, None without vectors) with the facts near
        it in meaning or sharing its words; write what it supersedes (or what supersedes it) into ``res``."""
        sims: dict[int, float | None] = dict(near)
        for other in supersession.lexical_candidates(self.conn, m.content):
            sims[other] = None  # shares words: the frame comparison decides, whatever the cosine
        sims.pop(res.id, None)
        if not sims:
            return
        rows = list(select_in(self.conn, "SELECT m.id, m.content, coalesce(m.valid_from, m.created_at), m.source "
                              f"FROM memories m WHERE m.id IN ({{ids}}) AND {supersession.FACT_SQL}", list(sims)))
        cos = {i: c for i, c in near.items() if i in sims}
        missing = [int(r[0]) for r in rows if int(r[0]) not in cos]
        if vec is not None and missing:  # the cue rule (memengine/fact_cue.py) needs the cosine of word-found candidates too
            cos.update(self.cosines(vec, missing))
        emb = self.embedder if vec is not None else None  # (memengine/fact_slot.py: the learned decision's model)
        decisions = supersession.plan(res.id, m.content, valid_from, [(r, sims[int(r[0])]) for r in rows],
                                      new_source=m.source, cosines=cos, embed=self.embed_or_none,
                                      model_id=emb.model_id if emb is not None else None)
        supersession.apply(self.conn, decisions, now)
        res.contradicts = sorted(d.loser for d in decisions if d.open)
        res.supersedes = sorted(d.loser for d in decisions if d.winner == res.id and not d.open and not d.maybe)
        res.superseded_by = next((d.winner for d in decisions if d.loser == res.id and not d.maybe), None)
        res.may_update = sorted(d.loser for d in decisions if d.maybe and d.winner == res.id)
        res.possibly_outdated_by = sorted(d.winner for d in decisions if d.maybe and d.loser == res.id)

    def store_many(
        self,
        items: Iterable[NewMemory],
        batch_size: int = 256,
        progress: Callable[[int], None] | None = None,
        on_batch: Callable[[list[tuple[NewMemory, int]]], None] | None = None,
        vectors: Sequence[Any] | None = None,
    ) -> BatchStats:
        """Bulk write for imports: dedup by (source, ref), one transaction per batch.

        Each batch is embedded outside the write lock, then written in one
        ``BEGIN IMMEDIATE`` transaction, so a killed import leaves whole batches and a
        re-run skips what is already there by ref. ``on_batch`` runs inside the batch
        transaction with the (item, id) pairs written, for edges that must land with them.
        ``vectors``: one per item, already in this store's vector space (e.g. derived from
        stored vectors): those items are not embedded.
        """
        stats = BatchStats()
        batch: list[NewMemory] = []
        given: list[Any] = []  # parallel to batch when ``vectors`` is given

        def flush() -> None:
            if not batch:
                return
            refs = [(b.source, b.ref) for b in batch if b.ref is not None]
            existing: set[tuple[str, str]] = set()
            for i in range(0, len(refs), 400):
                chunk = refs[i : i + 400]
                q = " OR ".join("(source = ? AND ref = ?)" for _ in chunk)
                args = [x for pair in chunk for x in pair]
                existing |= {(r[0], r[1]) for r in self.conn.execute(f"SELECT source, ref FROM memories WHERE {q}", args)}
            fresh: list[NewMemory] = []
            fresh_vecs: list[Any] = []
            seen_refs: set[tuple[str, str]] = set()
            for i, b in enumerate(batch):
                key = (b.source, b.ref) if b.ref is not None else None
                if key is not None and (key in existing or key in seen_refs):
                    stats.duplicates += 1
                    continue
                if key is not None:
                    seen_refs.add(key)
                fresh.append(b)
                if given:
                    fresh_vecs.append(given[i])
            vecs: Any
            if given and fresh and self.embedder is not None:
                self._check_model(self.embedder)
                vecs = fresh_vecs
            else:
                vecs = self.embed_or_none([b.content for b in fresh]) if fresh else None
            now = to_iso(utcnow())
            assert now is not None
            written: list[tuple[NewMemory, int]] = []
            touched: dict[str, list[int]] = {}
            for b in fresh:
                if b.thread is not None and b.position is not None:
                    touched.setdefault(b.thread, []).append(b.position)
            with write_tx(self.conn):
                with bracket_batch(self.conn, touched) as indexed:  # the keyword index, once per batch
                    for b, mid in zip(fresh, self._insert_many([self._row_values(b, now) for b in fresh])):
                        written.append((b, mid))
                        indexed.append(mid)
                    if vecs is not None:
                        for i, (_b, mid) in enumerate(written):
                            self._write_vector(mid, vecs[i])
                    else:
                        self._note_bare(len(written))
                if vecs is not None and len(fresh):
                    self._note_model()
                if touched:
                    refresh_context(self, touched)
                if on_batch is not None and written:
                    on_batch(written)
            stats.added += len(written)
            stats.ids.extend(mid for _, mid in written)
            if progress:
                progress(len(batch))
            batch.clear()
            given.clear()

        if vectors is not None:
            items = list(items)
            if len(vectors) != len(items):
                raise ValueError(f"store_many: {len(vectors)} vectors for {len(items)} items")
        for i, item in enumerate(items):
            stats.seen += 1
            batch.append(self._validate(item))
            if vectors is not None:
                given.append(vectors[i])
            if len(batch) >= batch_size:
                flush()
        flush()
        stats.degraded = self._degraded_tag()
        return stats

    # ---------------------------------------------------------------- read / lifecycle
    def _set_status(self, mid: int, status: str, allowed_from: tuple[str, ...]) -> Memory:
        with write_tx(self.conn):
            row = self.conn.execute("SELECT status FROM memories WHERE id = ?", (mid,)).fetchone()
            if row is None:
                raise NotFound(f"no memory with id {mid}")
            if row[0] in allowed_from:
                self.conn.execute(
                    "UPDATE memories SET status = ?, updated_at = ? WHERE id = ?", (status, to_iso(utcnow()), mid)
                )
        return self.get(mid)

    def update(self, mid: int, content: str, event_at: datetime | None = None, truncate: bool = False,
               time_kind: str | None = None) -> StoreResult:
        """Correct memory ``mid``: ``content`` is stored (same type, source, tags, importance,
        pin) and supersedes it; the old text stays as history (``recall --history``, ``get``)."""
        old = self.not_forgotten(mid)
        if content_hash(content) == old.content_hash:
            raise UserError(f"memory {mid} already says that")
        return self.store(content, old.memory_type, source=old.source, importance=old.importance, tags=old.tags,
                          metadata={"corrects": mid}, event_at=event_at, pinned=bool(old.pinned),
                          truncate=truncate, supersede=[mid], time_kind=time_kind)

    def not_forgotten(self, mid: int) -> Memory:
        """Memory ``mid``, which a write is about to give something (a pin, a link, a replacement, a correction):
        NotFound when there is none, UserError when it is forgotten.

        One contract for every write naming a forgotten id (users36; `update` alone refused before, and `pin` of a
        forgotten memory answered ``pinned: true`` to an agent believing it kept it): `restore` first. Taking from a
        forgotten memory (`unpin`, `unlink`, `forget` again) stays allowed."""
        m = self.get(mid)
        if m.status == "deleted":
            raise UserError(f"memory {mid} is forgotten: restore it first (mem.py restore {mid})")
        return m

    def set_pinned(self, mid: int, pinned: bool) -> Memory:
        """Pin (never archived by decay) or unpin a memory; a forgotten one is not pinned (:meth:`not_forgotten`)."""
        if pinned:
            self.not_forgotten(mid)
        with write_tx(self.conn):
            cur = self.conn.execute("UPDATE memories SET pinned = ?, updated_at = ? WHERE id = ?",
                                    (int(pinned), to_iso(utcnow()), mid))
            if cur.rowcount == 0:
                raise NotFound(f"no memory with id {mid}")
        return self.get(mid)

    def versions(self, mid: int) -> list[Memory]:
        """Every version of the fact ``mid`` belongs to, newest first, each marked."""
        self.get(mid)
        order = versions.chain(self.conn, mid)
        rows = {int(r[0]): Memory.from_row(r) for r in select_in(
            self.conn, f"SELECT {MEMORY_COLUMNS} FROM memories WHERE id IN ({{ids}})", order)}
        out = [rows[i] for i in order if i in rows]
        gone = {v.id for v in out if v.status == "deleted"}
        for v in out:
            one = versions.links(self.conn, v.id)
            # a forgotten version replaces nothing any more (memengine/forget_versions.py)
            v.supersedes, v.superseded_by = one["supersedes"], [i for i in one["superseded_by"] if i not in gone]
        return out

    def forget(self, mid: int) -> Memory:
        """Soft delete: hidden from recall, kept in the file, restorable."""
        return self.forget_versions(mid)[0]

    def forget_versions(self, mid: int, at: str | None = None) -> tuple[Memory, list[int], list[int]]:
        """``forget``, the ids of the older versions of a fact it had replaced that are current again
        (memengine/forget_versions.py: a wrong new value forgotten leaves the old one as the answer), and the ids
        of the episodes forgotten with a chat turn (memengine/forget_episodes.py: its words are in them).

        The memory's metadata keeps when (``forgotten_at``: now, or ``at``, the time an imported export carried), so
        that the forget travels to another store and a later restore there wins (memengine/status_travel.py)."""
        from memengine import forget_episodes, forget_versions
        from memengine.status_travel import FORGOTTEN_AT

        back: list[int] = []
        episodes: list[int] = []
        with write_tx(self.conn):
            row = self.conn.execute("SELECT status FROM memories WHERE id = ?", (mid,)).fetchone()
            if row is None:
                raise NotFound(f"no memory with id {mid}")
            if row[0] in ("active", "archived"):
                now = to_iso(utcnow()) or ""
                self.conn.execute("UPDATE memories SET status = 'deleted', updated_at = ?, metadata = json_set(metadata, "
                                  f"'$.{FORGOTTEN_AT}', ?) WHERE id = ?", (now, at or now, mid))
                back = forget_versions.reinstate(self.conn, mid, now)
                episodes = forget_episodes.hide(self.conn, mid, now)
        return self.get(mid), back, episodes

    def restore(self, mid: int) -> Memory:
        """Bring back a forgotten or archived memory (:meth:`restore_episodes`)."""
        return self.restore_episodes(mid)[0]

    def restore_episodes(self, mid: int, at: str | None = None) -> tuple[Memory, list[int]]:
        """Bring back a forgotten or archived memory (a fact replaces again what it had replaced; a chat turn's
        episodes forgotten with it come back once none of their turns is forgotten: their ids are returned, as
        ``forget`` names them). A forgotten one keeps when it was restored (``restored_at``: now, or ``at``, carried
        by an imported export), so that the restore travels as a forget does (memengine/status_travel.py)."""
        from memengine import forget_episodes, forget_versions
        from memengine.status_travel import RESTORED_AT

        episodes: list[int] = []
        with write_tx(self.conn):
            row = self.conn.execute("SELECT status FROM memories WHERE id = ?", (mid,)).fetchone()
            if row is None:
                raise NotFound(f"no memory with id {mid}")
            now = to_iso(utcnow())
            # restoring also restarts decay, or an archived memory would be re-archived tonight
            self.conn.execute(
                """UPDATE memories SET status = 'active', updated_at = ?, base_strength = max(base_strength, 0.5),
                   strength = max(strength, 0.5), decay_ref_at = ? WHERE id = ?""",
                (now, now, mid),
            )
            if row[0] == "deleted":
                self.conn.execute(f"UPDATE memories SET metadata = json_set(metadata, '$.{RESTORED_AT}', ?) WHERE id = ?",
                                  (at or now, mid))
                forget_versions.replace_again(self.conn, mid, now or "")
                episodes = forget_episodes.bring_back(self.conn, mid, now or "")
        return self.get(mid), episodes

    EXPORT_KEYS = ("content", "memory_type", "source", "ref", "importance", "event_at", "created_at",
                   "tags", "metadata", "author", "thread", "position", "status", "pinned", "level")

    EXPORT_PAGE = 500  # rows read at once: each page is one short read, none held while the caller writes

    def export(self, include_deleted: bool = False) -> Iterator[dict[str, Any]]:
        """Every memory as a JSON-ready dict (the ``import jsonl`` format), in id order.

        Read a page at a time, each page whole before its rows are yielded: an open statement would hold a
        read snapshot for as long as the caller takes (``mem.py export | slow-reader`` blocked on a full
        pipe), and no writer's log can be emptied past a snapshot (memengine/walbound.py). Each row is read
        whole; a memory written during a long export is in it if its id comes after the page being read.
        """
        where = "" if include_deleted else "AND status != 'deleted'"
        # each line names its memory by this store's id and its own (``origin``): what an import into another
        # store, or back into this one, knows it by (memengine/jsonl_import.py); never by its text
        sid = storeid.ensure(self.conn)
        last = -1
        while True:
            page = self.conn.execute(f"SELECT {MEMORY_COLUMNS}, time_kind FROM memories WHERE id > ? {where} ORDER BY id "
                                     f"LIMIT {self.EXPORT_PAGE}", (last,)).fetchall()
            shared = self._older_same_text([(int(r["id"]), r["content_hash"]) for r in page if r["ref"] is None])
            edges = self._export_edges([int(r["id"]) for r in page], sid) if sid is not None else {}
            for r in page:
                m = Memory.from_row(r).to_dict()
                out = {k: m[k] for k in self.EXPORT_KEYS}
                if out["ref"] is None:
                    # a stable ref makes export → import → import idempotent even for hand-stored memories;
                    # unique too (import skips a second row of one source and ref): a text an older memory
                    # also has (another type, another author's "ok", another day's event) adds its id
                    out["ref"] = f"hash:{r['content_hash'][:24]}" + (f":{r['id']}" if r["id"] in shared else "")
                if r["time_kind"] != timekind.UTC:  # a chat's wall clock or a bare day: read so again on import
                    out["time_kind"] = r["time_kind"]
                if sid is not None:
                    out["origin"] = f"{sid}:{r['id']}"
                if m.get("valid_to"):  # history: what replaced it is named by the newer line's "supersedes"
                    out["valid_to"] = m["valid_to"]
                out.update(edges.get(int(r["id"]), {}))
                yield out
            if len(page) < self.EXPORT_PAGE:
                return
            last = int(page[-1]["id"])

    # edges a person or an agent made (`link`, `store --link`), and a chat turn's episode (users35: without it a store
    # moved by export and import answered with whole episodes, and a turn forgotten there left its episode standing,
    # until the next consolidate relinked them)
    EXPORT_LINK_TYPES = ("explicit", "causal", "part_of")

    def _export_edges(self, ids: list[int], sid: str) -> dict[int, dict[str, Any]]:
        """Per memory of ``ids``: the memories it supersedes (``supersedes``: their origins) and the links it
        was given by hand or the episode it is part of (``links``: ``{"to": origin, "type", "weight"}``), as
        ``import jsonl`` reads them.

        Without them a store moved by export and import came back with every replaced fact current again
        (users25: "the wifi password is lion-12" answered beside "… tiger-43") and its links gone. What
        consolidate derives again (semantic and temporal edges) is left out."""
        from memengine.versions import link_score

        out: dict[int, dict[str, Any]] = {}
        kinds = ("supersedes", "contradicts", *self.EXPORT_LINK_TYPES)
        for src, dst, kind, weight, meta in select_in(
                self.conn, "SELECT source_id, target_id, edge_type, weight, metadata FROM associations WHERE source_id "
                f"IN ({{ids}}) AND edge_type IN ({','.join('?' * len(kinds))}) ORDER BY source_id, target_id",
                ids, kinds):
            one = out.setdefault(int(src), {})
            if kind == "supersedes":
                one.setdefault("supersedes", []).append(f"{sid}:{int(dst)}")
            elif kind == "contradicts":
                # (users26) what the two say of each other travels too: a probable update (may_update: the older
                # marked, hidden from the brief) and an open contradiction (two sources disagreeing, for review)
                score = link_score(meta)
                row = None if score is not None else self.conn.execute(
                    "SELECT kind, reason, confidence FROM contradictions WHERE memory_a = ? AND memory_b = ? AND "
                    "status = 'open'", (min(src, dst), max(src, dst))).fetchone()
                if score is not None:
                    one.setdefault("links", []).append({"to": f"{sid}:{int(dst)}", "type": "may_update",
                                                        "weight": round(score, 4)})
                elif row is not None:
                    one.setdefault("links", []).append({"to": f"{sid}:{int(dst)}", "type": "contradicts",
                                                        "weight": round(float(row[2]), 4), "kind": row[0],
                                                        "reason": row[1]})
                if not one:
                    del out[int(src)]
            else:
                one.setdefault("links", []).append({"to": f"{sid}:{int(dst)}", "type": kind,
                                                    "weight": round(float(weight), 4)})
        return out

    def _older_same_text(self, rows: list[tuple[int, str]]) -> set[int]:
        """The ids of ``rows`` (id, content hash) whose text an older memory (lower id, any status) also has."""
        out = set()
        for mid, h in rows:
            if self.conn.execute("SELECT 1 FROM memories WHERE substr(content_hash, 1, 16) = ? AND content_hash = ? "
                                 "AND id < ? LIMIT 1", (h[:16], h, mid)).fetchone():
                out.add(mid)
        return out

    def validate(self, m: NewMemory) -> NewMemory:
        """``m`` checked (and normalised) as a write would: a UserError says why it cannot be stored.
        Imports call it on every item before writing the first (``ingest.jsonl_items``)."""
        return self._validate(m)
