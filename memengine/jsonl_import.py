"""Importing a store's export (``mem.py import jsonl``): which lines are already here, and whose they are.

An export names each memory by the exporting store's id and its own (``origin: <store id>:<memory id>``,
memengine/storeid.py). That, not the text, is a memory's identity across stores:

* a line whose origin is this store and whose memory here still has that text is this store's own memory
  coming home (a re-import of an old export, or a partner's export holding copies of ours): already here;
* another store's memory without a ref of its own (hand-stored; exported as ``hash:<text's hash>[:id]``) is
  imported under ``hash:<text's hash>@<store id>:<id>``: two people's "standup moved to 10:00" stored at the
  same second are two memories, and a third store importing both exports keeps both;
* another store's consolidation summary (ref ``cluster:N``, its cluster's id there) is imported under
  ``imported:<store id>:cluster:N:<text's hash>``. Summaries are derived: the newest export of a store wins.
  A newer export (its highest memory id at least the highest seen from that store) archives the summaries
  of that store imported earlier that it no longer carries (archived, never deleted) and makes active again
  those it carries active; an older one adds its summaries archived. An export that carries no summary of
  its store says nothing about them: they stay.

Lines without an origin (exports written before serve13, or by hand) keep serve12's rules: a ``hash:`` line
is this store's own memory when one of the same source, text, type and second of storing is here, and a
summary already summarised here with the same text keeps that summary's ref.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from importers import ImportFormatError, ImportReport, Record, jsonl
from memengine import status_travel, storeid
from memengine.db import write_tx
from memengine.errors import UserError
from memengine.records import BatchStats, NewMemory
from memengine.store import MemoryStore
from memengine.text import content_hash
from memengine.timeparse import to_iso, utcnow

SUMMARY_SOURCE = "consolidate"  # (memengine.consolidate's: not imported, consolidate is heavy for the CLI)
_CLUSTER_REF = re.compile(r"cluster:\d+")
_HASH_REF = re.compile(r"hash:([0-9a-f]{24})(?::\d+)?")
_ORIGIN_HASH_REF = re.compile(r"hash:([0-9a-f]{24})@([0-9a-f]{16}):(\d+)")
_IMPORTED_SUMMARY = re.compile(r"imported:([0-9a-f]{16}):cluster:\d+:[0-9a-f]{16}")
_LEGACY_SUMMARY = "imported:{ref}:{digest}"  # serve12's form, before summaries named their store
NEWEST_META = "import.newest."  # + store id: the highest memory id of that store's newest export imported


@dataclass
class Origins:
    """What the first pass over a file learned of the stores its lines come from."""

    mine: str | None
    newest: dict[str, int] = field(default_factory=dict)  # store id -> highest memory id in the file
    summaries: dict[str, dict[str, str]] = field(default_factory=dict)  # store id -> {ref as imported: status}
    older: set[str] = field(default_factory=set)  # stores whose export here is older than one imported before
    relabel: dict[int, str] = field(default_factory=dict)  # serve12-form summary id -> its ref now
    # (second pass) where each line's memory is here: its id (this store's own, home again) or (source, ref)
    placed: dict[str, int | tuple[str, str]] = field(default_factory=dict)
    relations: list[tuple[str, str, str, float]] = field(default_factory=list)  # (from, to origin, edge type, weight)
    valid_to: dict[str, str] = field(default_factory=dict)  # origin -> when it was replaced there
    moves: dict[str, status_travel.Move] = field(default_factory=dict)  # origin -> its last forget / restore there


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())


def _split(origin: str | None) -> tuple[str, int] | None:
    if not origin:
        return None
    sid, _, mid = origin.partition(":")
    return sid, int(mid)


def _is_memory(store: MemoryStore, mid: int, digest: str) -> bool:
    """Memory ``mid`` of this store holds the text of ``digest`` (a copied file that diverged reuses ids)."""
    return store.conn.execute("SELECT 1 FROM memories WHERE id = ? AND content_hash = ?",
                              (mid, digest)).fetchone() is not None


def _place(store: MemoryStore, rec: Record, origins: Origins) -> str | None:
    """The ref ``rec`` is imported under, or None when it is already here (see the module docstring)."""
    mine = origins.mine
    digest = content_hash(rec.content)
    org = _split(rec.origin)
    if org is not None:
        sid, mid = org
        if sid == mine and _is_memory(store, mid, digest):
            return None  # this store's own memory, home again
        if rec.source == SUMMARY_SOURCE and rec.level and _CLUSTER_REF.fullmatch(rec.ref):
            ref = f"imported:{sid}:{rec.ref}:{digest[:16]}"
            legacy = store.conn.execute(
                "SELECT id FROM memories WHERE source = ? AND ref = ?",
                (SUMMARY_SOURCE, _LEGACY_SUMMARY.format(ref=rec.ref, digest=digest[:16]))).fetchone()
            if legacy is not None:  # imported by serve12 without its store's name: named now, not twice
                origins.relabel[int(legacy[0])] = ref
                origins.summaries.setdefault(sid, {})[ref] = rec.status
                return None
            return ref
        m = _HASH_REF.fullmatch(rec.ref)
        if m is not None:
            if _legacy_copy(store, rec, digest):
                return None
            return f"hash:{m.group(1)}@{sid}:{mid}"
    m = _ORIGIN_HASH_REF.fullmatch(rec.ref)
    if m is not None and m.group(2) == mine and _is_memory(store, int(m.group(3)), digest):
        return None  # our memory, in a partner's export of what it imported from us
    m = _IMPORTED_SUMMARY.fullmatch(rec.ref)
    if m is not None and m.group(1) == mine:
        return None  # our own summary come back through another store: ours here is the current one
    if org is None:
        if _already_here(store, rec):
            return None
        return _summary_ref(store, rec)
    return rec.ref


def _legacy_copy(store: MemoryStore, rec: Record, digest: str) -> bool:
    """``rec`` (an exported ref-less memory) was imported here before exports named origins: under its
    ``hash:`` ref, with its text and its time of storing."""
    if rec.created_at is None:
        return False
    return store.conn.execute(
        "SELECT 1 FROM memories WHERE source = ? AND ref = ? AND content_hash = ? AND created_at = ?",
        (rec.source, rec.ref, digest, to_iso(rec.created_at))).fetchone() is not None


def _already_here(store: MemoryStore, rec: Record) -> bool:
    """(A line without an origin.) Whether ``rec`` is one of this store's own ref-less memories, exported
    (``hash:<text's hash>[:id]``) and imported back: the same source, text, type and time of storing.

    Such a memory has no ref to find it by, so importing a store's export back into it added every
    hand-stored memory a second time (bench/agent_week.py --edges, serve12). Exports now name origins;
    for an older one, the text and the second are all there is.
    """
    m = _HASH_REF.fullmatch(rec.ref)
    if m is None or rec.created_at is None:
        return False
    digest = content_hash(rec.content)
    if not digest.startswith(m.group(1)):
        return False  # (the text was edited in the file: not the memory exported)
    return store.conn.execute(
        "SELECT 1 FROM memories WHERE substr(content_hash, 1, 16) = ? AND content_hash = ? AND ref IS NULL "
        "AND source = ? AND memory_type = ? AND created_at = ? LIMIT 1",
        (digest[:16], digest, rec.source, rec.memory_type, to_iso(rec.created_at))).fetchone() is not None


def _summary_ref(store: MemoryStore, rec: Record) -> str:
    """(A line without an origin.) The ref a summary of another store is imported under: ``rec.ref`` for
    anything else. ``imported:cluster:N:<its text's hash>``, so it never takes this store's own cluster N;
    the same text already summarised here (a store importing its own export) takes that summary's ref."""
    if rec.source != SUMMARY_SOURCE or not rec.level:
        return rec.ref
    digest = content_hash(rec.content)
    row = store.conn.execute("SELECT ref FROM memories WHERE substr(content_hash, 1, 16) = ? AND content_hash = ? "
                             "AND source = ? AND level > 0 AND ref IS NOT NULL ORDER BY id LIMIT 1",
                             (digest[:16], digest, SUMMARY_SOURCE)).fetchone()
    if row is not None:
        return str(row[0])
    return _LEGACY_SUMMARY.format(ref=rec.ref, digest=digest[:16]) if _CLUSTER_REF.fullmatch(rec.ref) else rec.ref


def jsonl_items(store: MemoryStore, path: Path, here: list[int] | None = None,
                origins: Origins | None = None) -> Iterator[NewMemory]:
    """The memories of a JSON lines file (``importers.jsonl`` parses), each checked as the store will
    check it; streamed. Bad input: one UserError naming the file and line.

    ``here`` (given): lines already in this store (:func:`_place`) are counted in ``here[0]`` instead of
    yielded. ``origins`` (given): filled with what the file says of its stores (a first pass), and read
    (a second pass: an older export's summaries arrive archived)."""
    report = ImportReport(str(path), "jsonl")
    if origins is None:
        origins = Origins(storeid.get(store.conn))
    try:
        for rec in jsonl.parse(path, report):
            ref = _place(store, rec, origins)
            org = _split(rec.origin)
            if org is not None and org[0] != origins.mine:
                sid, mid = org
                origins.newest[sid] = max(mid, origins.newest.get(sid, 0))
                if ref is not None and ref.startswith(f"imported:{sid}:"):
                    origins.summaries.setdefault(sid, {})[ref] = rec.status
            if here is not None and rec.origin is not None:
                _note_relations(rec, ref, org, origins)
            if ref is None:
                if here is not None:
                    here[0] += 1
                    continue
                ref = rec.ref
            status = rec.status
            if org is not None and org[0] in origins.older and ref.startswith(f"imported:{org[0]}:"):
                status = "archived"  # an older export's summary: the newer one imported before wins
            item = NewMemory(
                content=rec.content, memory_type=rec.memory_type, source=rec.source, ref=ref,
                importance=0.5 if rec.importance is None else rec.importance, tags=rec.tags,
                metadata=rec.metadata, event_at=rec.event_at, author=rec.author, thread=rec.thread,
                position=rec.position, pinned=rec.pinned, level=rec.level, status=status,
                created_at=rec.created_at, time_kind=rec.time_kind,
            )
            try:
                yield store.validate(item)
            except UserError as exc:
                raise UserError(f"{path}:{rec.line}: {exc.message}") from None
    except ImportFormatError as exc:
        raise UserError(_one_line(exc)) from None


def _note_relations(rec: Record, ref: str | None, org: tuple[str, int] | None, origins: Origins) -> None:
    """(Second pass.) Where ``rec``'s memory will be found once the lines are in, and what it says of the others."""
    assert rec.origin is not None
    if ref is not None:
        origins.placed[rec.origin] = (rec.source, ref)
    elif org is not None and org[0] == origins.mine:
        origins.placed[rec.origin] = org[1]  # this store's own memory, home again: its id here
    origins.relations += [(rec.origin, old, "supersedes", 1.0) for old in rec.supersedes]
    origins.relations += [(rec.origin, to, kind, weight) for to, kind, weight in rec.edges]
    if rec.valid_to is not None:
        origins.valid_to[rec.origin] = to_iso(rec.valid_to) or ""
    move = status_travel.carried(rec.status, rec.metadata)
    if move is not None:
        origins.moves[rec.origin] = move


def _restore_relations(store: MemoryStore, origins: Origins) -> int:
    """After the rows are in: the facts the export had replaced are history here too (``valid_to`` and the
    ``supersedes`` edge, as `update` writes them), and its hand-made links are links here. A line's memory is
    found by the ref it was imported under (or is this store's own); a relation to a memory the file does not
    carry, or that could not be placed, is left out. Idempotent (a fact already replaced keeps its date; an
    edge already here stays), so a re-run after a killed import finishes the job. Returns the relations written."""
    from memengine import supersession
    from memengine.edges import add_edges
    from memengine.fact_types import Verdict

    if not origins.relations:
        return 0
    c = store.conn
    local = _locator(store, origins)
    now = to_iso(utcnow()) or ""
    written = 0
    verdict = Verdict("correction", "replaced in the store this was exported from", 1.0)
    with write_tx(c):
        for src, dst, kind, weight in origins.relations:
            a, b = local(src), local(dst)
            if a is None or b is None or a == b:
                continue
            if kind == "may_update" or kind.startswith("contradicts\t"):
                # (users26) a probable update, or an open contradiction, as the exporting store had it
                why = kind.split("\t") + ["", ""]
                said = Verdict(why[1] or "learned", why[2] or "carried over from the store this was exported from",
                                  weight)
                supersession.apply(c, [supersession.Decision(a, b, now, said, open=kind != "may_update",
                                                             maybe=kind == "may_update")], now)
                written += 1
                continue
            if kind != "supersedes":
                written += add_edges(c, [(a, b, kind, weight)], now)
                continue
            if c.execute("SELECT 1 FROM memories WHERE id = ? AND status = 'deleted'", (a,)).fetchone() is not None:
                # (users32) a forgotten version replaces nothing (memengine/forget_versions.py): the link is kept, as
                # forget keeps it (`restore` then replaces again), and what it had replaced stays current, as it was
                written += add_edges(c, [(a, b, kind, weight)], now)
                continue
            if c.execute("SELECT 1 FROM memories WHERE id = ? AND valid_to IS NULL", (b,)).fetchone() is None:
                continue  # already history here (this import's earlier run, or this store's own say)
            at = origins.valid_to.get(dst) or now
            supersession.apply(c, [supersession.Decision(a, b, at, verdict)], now)
            written += 1
    return written


def _locator(store: MemoryStore, origins: Origins) -> Callable[[str], int | None]:
    """Where a line's memory is here, by its origin (None: not placed): the ref it was imported under, or this
    store's own id."""
    ids: dict[str, int] = {}

    def local(origin: str) -> int | None:
        if origin not in ids:
            where = origins.placed.get(origin)
            if isinstance(where, int):
                ids[origin] = where
            elif where is not None:
                row = store.conn.execute("SELECT id FROM memories WHERE source = ? AND ref = ?", where).fetchone()
                ids[origin] = int(row[0]) if row is not None else 0
            else:
                ids[origin] = 0
        return ids[origin] or None

    return local


def _settle_moves(store: MemoryStore, origins: Origins) -> list[str]:
    """After the rows are in: the forgets and restores the lines carry, where later than this store's own
    (memengine/status_travel.py). Returns a warning line per kind of change made (the import's reply says them)."""
    local = _locator(store, origins)
    moves = {mid: move for origin, move in origins.moves.items() if (mid := local(origin)) is not None}
    forgotten, restored = status_travel.settle(
        store.conn, moves, lambda mid, at: store.forget_versions(mid, at), lambda mid, at: store.restore_episodes(mid, at))
    out = []
    if forgotten:
        out.append("forgotten here as the export says (forgotten there later than any restore here): "
                   + " ".join(f"#{i}" for i in forgotten))
    if restored:
        out.append("restored here as the export says (restored there later than the forget here): "
                   + " ".join(f"#{i}" for i in restored))
    return out


def _judge(store: MemoryStore, origins: Origins) -> None:
    """After the first pass: which stores' exports are older than one imported here before."""
    for sid, newest in origins.newest.items():
        seen = store.meta(NEWEST_META + sid)
        if seen is not None and seen.isdigit() and newest < int(seen):
            origins.older.add(sid)


def _settle_summaries(store: MemoryStore, origins: Origins) -> int:
    """After the rows are in: a newer export's summaries win (the module docstring). Returns how many
    summaries imported before were archived. Idempotent: an import killed before it runs it on its re-run."""
    c = store.conn
    archived = 0
    now = to_iso(utcnow())
    with write_tx(c):
        for mid, ref in origins.relabel.items():
            c.execute("UPDATE memories SET ref = ? WHERE id = ? AND source = ? AND NOT EXISTS "
                      "(SELECT 1 FROM memories WHERE source = ? AND ref = ?)",
                      (ref, mid, SUMMARY_SOURCE, SUMMARY_SOURCE, ref))
        for sid, newest in origins.newest.items():
            if sid in origins.older:
                continue
            carried = origins.summaries.get(sid)
            if carried:
                lo = f"imported:{sid}:"
                for mid, ref, status in c.execute(
                        "SELECT id, ref, status FROM memories WHERE source = ? AND ref IS NOT NULL AND ref >= ? "
                        "AND ref < ? AND status != 'deleted'", (SUMMARY_SOURCE, lo, lo[:-1] + ";")).fetchall():
                    want = carried.get(ref, "archived")
                    if want != status and want in ("active", "archived"):
                        c.execute("UPDATE memories SET status = ?, updated_at = ? WHERE id = ?", (want, now, mid))
                        archived += status == "active"
            c.execute("INSERT OR REPLACE INTO _mem_meta(key, value) VALUES (?, ?)", (NEWEST_META + sid, str(newest)))
    return archived


def import_file(store: MemoryStore, path: Path, batch_size: int = 256,
                progress: Callable[[int], None] | None = None,
                set_total: Callable[[int], None] | None = None) -> tuple[BatchStats, int, list[str]]:
    """Import one JSON object per line (the ``export`` format): every line is checked before anything is
    written (the file is read twice, a line at a time, so its size does not matter). Returns the batch
    stats, how many summaries imported before a newer export replaced (archived), and a warning line per kind of
    forget or restore the file carried that changed a memory here (:func:`_settle_moves`).

    Progress: ``set_total(lines)`` once the first pass has counted them; ``progress(n)`` as lines are written,
    and as lines already in the store are passed over, so that the count ends at the total."""
    origins = Origins(storeid.get(store.conn))
    lines = 0
    for _ in jsonl_items(store, path, origins=origins):
        lines += 1
    if set_total is not None:  # users32: the JSON-lines import's progress had no total, no ETA
        set_total(lines)
    _judge(store, origins)
    here = [0, 0]  # lines already in the store, and how many of them progress was told of
    items = jsonl_items(store, path, here, origins)
    stats = store.store_many(items if progress is None else _passed_over(items, here, progress),
                             batch_size=batch_size, progress=progress)
    if progress is not None and here[0] > here[1]:
        progress(here[0] - here[1])
    stats.seen += here[0]
    stats.duplicates += here[0]
    _restore_relations(store, origins)
    return stats, _settle_summaries(store, origins), _settle_moves(store, origins)


def _passed_over(items: Iterator[NewMemory], here: list[int], progress: Callable[[int], None]
                 ) -> Iterator[NewMemory]:
    """``items``, saying as progress the lines ``jsonl_items`` passed over (already here: ``here[0]``) since the
    last item; ``here[1]`` keeps how many were said."""
    for item in items:
        if here[0] > here[1]:
            progress(here[0] - here[1])
            here[1] = here[0]
        yield item


def import_jsonl(store: MemoryStore, path: Path, batch_size: int = 256,
                 progress: Callable[[int], None] | None = None) -> BatchStats:
    """:func:`import_file`, its batch stats only."""
    return import_file(store, path, batch_size, progress)[0]


def count_new(store: MemoryStore, path: Path) -> tuple[int, list[tuple[str, str]]]:
    """(Dry run.) How many lines are already here by origin or text, and the (source, ref) of the others."""
    here = [0]
    origins = Origins(storeid.get(store.conn))
    pairs = [(item.source, item.ref or "") for item in jsonl_items(store, path, here, origins)]
    return here[0], pairs
