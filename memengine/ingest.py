"""Engine side of imports: parser records → memories, aliases, episodes and edges.

The parsers in ``importers/`` are pure and yield :class:`importers.Record`; this module
decides how those become rows. An import runs in two passes over the file: the first
parses everything without writing (so a truncated or malformed file fails before a
single row lands, and ``--dry-run`` is exactly this pass), the second streams records
into the store in batches keyed by ``(source, ref)``, so an import killed at any point
and run again completes with zero duplicates.

After the messages, episodes are formed per conversation (Nemori-style event
segmentation without an LLM): consecutive messages split by a time gap, a drop in
embedding similarity between neighbouring windows, or a size cap. An episode is a
memory of its own, linked to its messages by ``part_of`` edges and to the next episode
by a ``temporal`` edge.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from importers import ImportFormatError, ImportReport, Record, delivered
from importers._common import normalise_phone
from importers.registry import PARSERS
from memengine import ingest_rename, jsonl_import, timekind
from memengine.chat_episodes import (  # noqa: F401  (re-exported: the import's episodes)
    EPISODE_GAP,
    EPISODE_MAX,
    EPISODE_MIN_FOR_SHIFT,
    EPISODE_TEXT_CHARS,
    TOPIC_SHIFT_COSINE,
    TOPIC_WINDOW,
    _open_rows,
    build_episodes,
    open_count,
    segment,
)
from memengine.db import write_tx
from memengine.errors import UserError
from memengine.jsonl_import import import_jsonl, jsonl_items  # noqa: F401  (re-exported: callers name them here)
from memengine.records import MEMORY_TYPES, NewMemory
from memengine.store import MemoryStore
from memengine.text import without_author
from memengine.timeparse import to_iso
from memengine.writes import MAX_CONTENT_BYTES


@dataclass
class ImportSummary:
    """What an import did (the JSON ``data`` of ``mem.py import``)."""

    file: str
    format: str
    variant: dict[str, Any] = field(default_factory=dict)
    messages_seen: int = 0
    memories_added: int = 0
    skipped_duplicates: int = 0
    skipped_system: int = 0
    skipped_media: int = 0
    skipped_empty: int = 0
    skipped_tool: int = 0
    skipped_malformed: int = 0
    skipped_oversized: int = 0
    episodes: int = 0
    links: int = 0
    aliases: int = 0
    warnings: list[str] = field(default_factory=list)
    dry_run: bool = False
    degraded: str | None = None
    summaries_replaced: int = 0  # (jsonl) another store's summaries imported before, archived: its newer export's won

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return asdict(self)


def normalise_alias(alias: str) -> str:
    """Phone numbers compare by digits (with a leading +); names by case-folded text."""
    stripped = alias.strip().lstrip("~").strip()
    if len(re.sub(r"\D", "", stripped)) >= 6 and not re.search(r"[A-Za-z]", stripped):
        return normalise_phone(stripped)  # the rule vCard contacts are stored by: one rule, so they meet
    return stripped.casefold()


def load_aliases(store: MemoryStore) -> dict[str, str]:
    """alias (normalised) → display name, from the store."""
    return {normalise_alias(alias): name for alias, name in store.aliases().items()}


def to_new_memory(rec: Record, aliases: dict[str, str]) -> NewMemory:
    """A parser record as a memory to write; authors known by alias get their name.

    Text over the store's size limit is cut (and says so in metadata): one pasted log
    in a chat must not abort an import halfway through its second pass.
    """
    author = rec.author
    content = rec.content
    meta = dict(rec.metadata)
    raw = content.encode("utf-8", errors="surrogatepass")
    if len(raw) > MAX_CONTENT_BYTES - 1024:  # room for a "Name: " prefix from an alias
        content = raw[: MAX_CONTENT_BYTES - 1024].decode("utf-8", errors="ignore")
        meta["truncated_from_bytes"] = len(raw)
    if rec.links:
        meta["links"] = [list(link) for link in rec.links]
    if author:
        known = aliases.get(normalise_alias(author))
        if known and known != author:
            meta["author_as_exported"] = author
            content = f"{known}: {without_author(content, author)}"
            author = known
    return NewMemory(
        content=content, memory_type=rec.memory_type, source=rec.source, ref=rec.ref, tags=rec.tags,
        metadata=meta, event_at=rec.event_at, author=author, thread=rec.thread, position=rec.position,
        time_kind=_kind_of(rec),
    )


def _kind_of(rec: Record) -> str | None:
    """What a record's time is (memengine/timekind.py): a naive one is the wall clock the export wrote, without
    a zone (importers.Record), a 'floating' time; an aware one is converted to UTC on the way in."""
    if rec.time_kind is not None:  # (a JSON line of an export says it)
        return rec.time_kind
    return timekind.FLOATING if rec.event_at is not None and rec.event_at.tzinfo is None else None


def _parse(path: Path, fmt: str, report: ImportReport, options: dict[str, Any],
           store: MemoryStore | None = None) -> Iterator[Record]:
    records = PARSERS[fmt].parse(path, report, **{k: v for k, v in options.items() if v is not None})
    return records if store is None else _storable(records, store, report)


def _storable(records: Iterable[Record], store: MemoryStore, report: ImportReport) -> Iterator[Record]:
    """The records the store will take, checked as it checks a write (a lone surrogate in a JSON
    export, a text no UTF-8 holds); one it would refuse is left out with a warning naming it, in
    both passes alike, so a write never stops halfway on it."""
    for rec in records:
        try:
            if _plainly_storable(rec):  # the common case: building and checking the memory cost +18 % of a parse
                yield rec
                continue
            store.validate(to_new_memory(rec, {}))
        except UserError as exc:
            report.skipped_malformed += 1
            report.warn(f"{rec.ref}: not stored ({exc.message})", rec.line)
            continue
        yield rec


def one_line(exc: BaseException) -> str:
    """An exception's message on one line (ijson errors span several)."""
    return " ".join(str(exc).split())


def detect_format(path: Path) -> str:
    """The importer for ``path`` (or a one-line error naming what was tried)."""
    from importers.detect import detect

    try:
        return detect(path)
    except ImportFormatError as exc:
        raise UserError(one_line(exc)) from None


_NOTHING = "{path}: nothing to import (0 messages found): is it really a {fmt}?"


def import_path(
    store: MemoryStore,
    path: Path,
    fmt: str | None = None,
    *,
    dry_run: bool = False,
    episodes: bool = True,
    progress: Callable[[int], None] | None = None,
    set_total: Callable[[int, int], None] | None = None,
    add_total: Callable[[int], None] | None = None,
    phase: Callable[[str], None] | None = None,
    **options: Any,
) -> ImportSummary:
    """Import a chat export, notes folder or contacts file into ``store``.

    Progress: ``set_total(messages, later)`` once pass 1 has counted them (``later``: the grouping's steps,
    one per message, as guessed then); ``phase("messages")`` / ``phase("episodes")`` as each starts;
    ``add_total(delta)`` when the grouping turns out longer or shorter; ``progress(n)`` for each step."""
    if not path.exists():
        raise UserError(f"{path}: no such file or directory")
    fmt = fmt or detect_format(path)
    if phase and not dry_run:
        phase("messages")  # (a folder's next file, after the last one's episodes)
    if fmt == "jsonl":
        if dry_run:  # every line checked as the store will check it; nothing written
            here, items = jsonl_import.count_new(store, path)
            added = _count_new_refs(store, items)
            return ImportSummary(file=str(path), format="jsonl", messages_seen=len(items) + here,
                                 memories_added=added, skipped_duplicates=len(items) + here - added, dry_run=True)
        lines = None if set_total is None else (lambda n: set_total(n, 0))  # (no later phase: no episodes)
        stats, replaced, moved = jsonl_import.import_file(store, path, progress=progress, set_total=lines)
        return ImportSummary(file=str(path), format="jsonl", messages_seen=stats.seen, memories_added=stats.added,
                             skipped_duplicates=stats.duplicates, degraded=stats.degraded,
                             summaries_replaced=replaced,
                             warnings=moved if stats.seen else [_NOTHING.format(path=path, fmt="JSON lines")])
    # Pass 1: parse everything, write nothing. Bad input fails here, before any row lands.
    sample: list[Record] = []
    report, count = _parse_all(path, fmt, options, store, sample)
    renamed = _known_chat(store, fmt, options, report, sample)
    if renamed is not None:
        options = {**options, "thread": renamed[0]}
    summary = ImportSummary(file=str(path), format=fmt, variant=report.variant, messages_seen=report.messages_seen,
                            skipped_system=report.skipped_system, skipped_media=report.skipped_media,
                            skipped_empty=report.skipped_empty, skipped_tool=report.skipped_tool,
                            skipped_malformed=report.skipped_malformed, skipped_oversized=report.skipped_oversized,
                            warnings=report.warnings, dry_run=dry_run)
    if renamed is not None:
        summary.variant["chat"] = renamed[0]
        summary.warnings.append(renamed[1])
    if not report.messages_seen and not report.warnings:
        # a file of the wrong shape parses to nothing: exit 0 is right, silence is not
        summary.warnings.append(_NOTHING.format(path=path, fmt=f"{fmt} export"))
    if dry_run:
        summary.memories_added = _count_new(store, path, fmt, options)
        summary.skipped_duplicates = count - summary.memories_added
        if episodes and PARSERS[fmt].conversational:
            summary.episodes = _dry_run_episodes(store, path, fmt, options)
        return summary
    grouping = episodes and PARSERS[fmt].conversational
    if set_total:
        set_total(count, count if grouping else 0)  # each message is written, then grouped into an episode

    # Pass 2: stream into the store.
    report2 = ImportReport(file=str(path), format=fmt)
    aliases = load_aliases(store)
    pending_links: list[tuple[str, str, str, str]] = []  # (source, ref, target_ref, edge_type); markdown only
    new_aliases: dict[str, str] = {}
    # Every thread the file touches (one entry per conversation, not per message), so
    # episodes are (re)built for all of them: after a kill, a re-run adds no message
    # but must still group the ones the killed run wrote.
    threads: set[str] = set()

    def gen() -> Iterator[NewMemory]:
        for rec in _parse(path, fmt, report2, options, store):
            if rec.thread:
                threads.add(rec.thread)
            if rec.aliases:
                for alias, name in rec.aliases.items():
                    new_aliases[alias] = name
                    aliases[normalise_alias(alias)] = name
            for target, edge in rec.links:
                pending_links.append((rec.source, rec.ref, target, edge))
            yield to_new_memory(rec, aliases)

    def on_batch(written: list[tuple[NewMemory, int]]) -> None:
        if new_aliases:
            store.add_aliases(new_aliases, fmt)
            summary.aliases += len(new_aliases)
            new_aliases.clear()

    stats = store.store_many(gen(), progress=progress, on_batch=on_batch)  # the engine indexes neighbours
    if new_aliases:  # aliases from records that were all duplicates
        with write_tx(store.conn):
            on_batch([])
    summary.memories_added = stats.added
    summary.skipped_duplicates = stats.duplicates
    summary.degraded = stats.degraded
    summary.links = _write_links(store, pending_links)
    _keep_date_orders(store, {t: o for t, o in report2.date_orders.items() if t in threads})
    if grouping:
        if phase:
            phase("episodes")
        # (Not `WHERE id IN (<every new id>)`: past 32766 ids SQLite refuses the statement.)
        waiting = {t: open_count(store, fmt, t) for t in sorted(threads)} if progress else {}
        if add_total:
            add_total(sum(waiting.values()) - count)
        for thread in sorted(threads):
            summary.episodes += _grouped(store, fmt, thread, progress, waiting.get(thread, 0))
    return summary


def _grouped(store: MemoryStore, fmt: str, thread: str, progress: Callable[[int], None] | None, waiting: int) -> int:
    """build_episodes for one thread, its progress reaching ``waiting`` (the messages it looked at) at the end,
    whether grouped or left alone."""
    if progress is None:
        return build_episodes(store, fmt, thread)
    said = 0

    def step(n: int) -> None:
        nonlocal said
        said += n
        progress(n)

    made = build_episodes(store, fmt, thread, progress=step)
    if waiting > said:
        progress(waiting - said)
    return made


DATE_ORDER_KEY = "date_order:"  # _mem_meta key prefix: + thread -> the date order its importer decided


def _keep_date_orders(store: MemoryStore, orders: dict[str, str]) -> None:
    """One ``_mem_meta`` row per chat whose importer decided its numeric date order (not in every memory:
    disk per chat turn is budgeted), read once per brief (memengine/brief_upcoming.py, PlanDays._order)."""
    if orders:
        with write_tx(store.conn):
            store.conn.executemany("INSERT OR REPLACE INTO _mem_meta(key, value) VALUES (?, ?)",
                                   [(DATE_ORDER_KEY + t, o) for t, o in sorted(orders.items())])


def _plainly_storable(rec: Record) -> bool:
    """True when every text of ``rec`` is UTF-8-encodable and its content not blank (what a
    parser's record can lack of what the store checks)."""
    if not rec.content.strip() or rec.memory_type not in MEMORY_TYPES:
        return False
    try:
        for text in (rec.content, rec.ref, rec.source, rec.author or "", rec.thread or "", *rec.tags):
            text.encode("utf-8")
    except (UnicodeEncodeError, AttributeError):
        return False
    return True


def _known_chat(store: MemoryStore, fmt: str, options: dict[str, Any], report: ImportReport,
                sample: list[Record]) -> tuple[str, str] | None:
    """A WhatsApp chat (named by its file) whose first messages all stand in a chat the store holds under
    another name: (that name, the warning saying so). ``--thread`` given, or several chats: None."""
    if fmt != "whatsapp" or options.get("thread") or len(report.variant.get("chats") or []) > 1 or not sample:
        return None
    aliases = load_aliases(store)
    hit = ingest_rename.known_chat(store, sample, [to_new_memory(r, aliases).content for r in sample])
    if hit is None:
        return None
    chat, n = hit
    return chat, (f"read as chat {chat!r}, imported before under that name (this file's first {n} messages are "
                  f"in it): only messages new to it are added; --thread {sample[0].thread!r} imports the file as a chat "
                  "of its own")


def _parse_all(path: Path, fmt: str, options: dict[str, Any],
               store: MemoryStore | None = None, sample: list[Record] | None = None) -> tuple[ImportReport, int]:
    """Parse ``path`` to the end, writing nothing: (its report, how many records); bad input
    is a UserError of one line naming the file. ``sample``: filled with the first records (ingest_rename)."""
    report = ImportReport(file=str(path), format=fmt)
    count = 0
    try:
        for rec in _parse(path, fmt, report, options, store):
            if sample is not None and count < ingest_rename.SAMPLE:
                sample.append(rec)
            count += 1
    except ImportFormatError as exc:
        raise UserError(one_line(exc) + _looks_like(path, fmt)) from None
    except (ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError) as exc:
        # A parser bug or an input shape nobody foresaw: still one line naming the file, no traceback.
        raise UserError(f"{path}: cannot parse as {fmt} ({type(exc).__name__}: {one_line(exc)})") from None
    return report, count


def _looks_like(path: Path, fmt: str) -> str:
    """When ``path`` failed as ``fmt`` but is detected as another format (``mem.py import whatsapp
    conversations.json``), the words that say so; else ""."""
    from importers.detect import detect

    try:
        kind = detect(path)
    except (ImportFormatError, OSError):
        return ""
    return f"; this looks like a {kind} export: mem.py import {kind} PATH (or without a format)" if kind != fmt else ""


# Formats whose exports come one file per chat or contact: a folder of them imports each file.
FOLDER_SUFFIXES = {p.name: p.suffixes for p in PARSERS.values() if p.one_per_file}


def _files_with(folder: Path, suffixes: tuple[str, ...]) -> list[Path]:
    return sorted(p for p in folder.iterdir()
                  if p.is_file() and not p.name.startswith(".") and p.suffix.lower() in suffixes)


def folder_files(folder: Path, fmt: str) -> list[Path]:
    """The export files directly in ``folder`` for ``fmt`` (sorted; hidden files skipped)."""
    suffixes = FOLDER_SUFFIXES.get(fmt)
    if suffixes is None:
        raise UserError(f"{folder}: a folder of {fmt} exports cannot be imported file by file "
                        f"(folders: {', '.join(FOLDER_SUFFIXES)}, markdown, chatgpt, claude)")
    missing = {p for p, _ in delivered.not_here(folder, tuple(suffixes))}  # said by import_folder
    files = [p for p in _files_with(folder, suffixes) if p not in missing]
    if fmt == "whatsapp":  # unzipped iOS exports: one folder per chat holding _chat.txt
        files += sorted(p / "_chat.txt" for p in folder.iterdir()
                        if p.is_dir() and not p.name.startswith(".") and (p / "_chat.txt").is_file())
    if not files:
        raise UserError(f"{folder}: no {fmt} export files ({', '.join('*' + x for x in suffixes)}) in this folder")
    return files


def detect_folder(folder: Path) -> str | None:
    """``whatsapp`` or ``vcf`` for a folder of one-chat / one-contact exports, else None."""
    from importers.detect import detect

    for fmt in FOLDER_SUFFIXES:
        try:
            if detect(folder_files(folder, fmt)[0]) == fmt:
                return fmt
        except (UserError, ImportFormatError):
            continue
    return None


def import_folder(store: MemoryStore, folder: Path, fmt: str, *, dry_run: bool = False, episodes: bool = True,
                  progress: Callable[[int], None] | None = None, set_total: Callable[[int, int], None] | None = None,
                  add_total: Callable[[int], None] | None = None, phase: Callable[[str], None] | None = None,
                  **options: Any) -> list[ImportSummary]:
    """Every ``fmt`` export directly in ``folder``, each file its own chat (WhatsApp: thread
    named after the file). Every file is parsed first: one that cannot be read fails the
    whole import, naming it, before anything is written. Progress as :func:`import_path`'s, over every file."""
    if options.get("thread"):
        raise UserError("--thread names one chat: import the files of a folder one by one to name them")
    files = folder_files(folder, fmt)
    count = sum(_parse_all(f, fmt, options, store)[1] for f in files)
    if set_total and not dry_run:  # users31: a folder's progress had no total, no ETA and no last line
        set_total(count, count if episodes and PARSERS[fmt].conversational else 0)
    summaries = [import_path(store, f, fmt, dry_run=dry_run, episodes=episodes, progress=progress,
                             add_total=add_total, phase=phase, **options)
                 for f in files]
    # a chat left in iCloud or copied at 0 bytes is not read: said, never dropped without a word
    summaries[0].warnings.extend(f"{p}: {why}" for p, why in delivered.not_here(folder, tuple(FOLDER_SUFFIXES[fmt])))
    return summaries


def _count_new(store: MemoryStore, path: Path, fmt: str, options: dict[str, Any]) -> int:
    """How many records of ``path`` a real import would add (dry run)."""
    report = ImportReport(file=str(path), format=fmt)
    return _count_new_refs(store, ((rec.source, rec.ref) for rec in _parse(path, fmt, report, options, store)))


def _count_new_refs(store: MemoryStore, pairs: Iterable[tuple[str, str]]) -> int:
    """How many of these (source, ref) pairs are neither stored nor repeated earlier.

    Streams; looks refs up 400 at a time. In-file repeats are found by an 8-byte digest per
    ref (not the ref text), so a 200 MB export costs a few MB here.
    """
    seen: set[int] = set()
    chunk: list[tuple[str, str]] = []

    def lookup() -> int:
        found = store.count_refs(chunk)
        chunk.clear()
        return found

    existing = 0
    total = 0
    for source, ref in pairs:
        digest = int.from_bytes(hashlib.blake2b(f"{source}\x00{ref}".encode(), digest_size=8).digest(), "little")
        if digest in seen:
            continue
        seen.add(digest)
        total += 1
        chunk.append((source, ref))
        if len(chunk) >= 400:
            existing += lookup()
    if chunk:
        existing += lookup()
    return total - existing


def _dry_run_episodes(store: MemoryStore, path: Path, fmt: str, options: dict[str, Any]) -> int:
    """How many episodes a real import of ``path`` would make, writing nothing.

    Per thread, what ``build_episodes`` would see after the messages are written: the
    stored messages not yet in an episode and the new ones, in the same order, with the
    same vectors (new messages are embedded and brought to the stored int8 precision, so
    a topic shift is judged exactly as the real run judges it). Threads come one at a
    time (parsers yield a conversation's messages together).
    """
    from memengine.vectors import as_stored

    aliases = load_aliases(store)
    report = ImportReport(file=str(path), format=fmt)
    made = 0
    seen_refs: set[str] = set()
    current: str | None = None
    fresh: list[NewMemory] = []

    def flush(thread: str, new: list[NewMemory]) -> int:
        import numpy as np

        stored = _open_rows(store, fmt, thread)
        # (event_at, position, id) as SQLite orders them: NULLs first; new rows get the next ids
        keyed: list[tuple[Any, ...]] = [((r[2] is not None, r[2] or "", r[5] is not None, r[5] or 0, r[0]), r[2], r[4], r[0], None)
                 for r in stored]
        for i, m in enumerate(new):
            when = to_iso(m.event_at)
            keyed.append(((when is not None, when or "", m.position is not None, m.position or 0, (1 << 62) + i),
                          when, m.ref, None, m.content))
        keyed.sort(key=lambda k: k[0])
        if len(keyed) < 2:
            return 0
        vec_map = store.vectors([k[3] for k in keyed if k[3] is not None])
        texts: list[str] = [k[4] for k in keyed if k[3] is None]
        new_vecs = store.embed_or_none(texts) if texts else None
        vecs = None
        if len(vec_map) == len(stored) and (not texts or new_vecs is not None):
            it = iter(new_vecs if new_vecs is not None else [])
            vecs = np.stack([vec_map[k[3]] if k[3] is not None else as_stored(next(it)) for k in keyed])
        times = [datetime.fromisoformat(k[1]) if k[1] else None for k in keyed]
        count = 0
        for start, end in segment(times, vecs):
            if end - start < 2:
                continue
            ref = f"episode:{keyed[start][2]}"
            if store.id_by_ref(fmt, ref) is None:
                count += 1
        return count

    for rec in _parse(path, fmt, report, options, store):
        if rec.thread is None:
            continue
        if rec.thread != current:
            if current is not None:
                made += flush(current, fresh)
            current, fresh = rec.thread, []
        if rec.ref in seen_refs or store.id_by_ref(rec.source, rec.ref) is not None:
            continue
        seen_refs.add(rec.ref)
        fresh.append(to_new_memory(rec, aliases))
    if current is not None:
        made += flush(current, fresh)
    return made


def _write_links(store: MemoryStore, links: list[tuple[str, str, str, str]]) -> int:
    return store.link_by_ref(links, weight=0.8) if links else 0


def summary_line(s: ImportSummary) -> str:
    """One human line for the end of an import."""
    v = ", ".join(f"{k} {v}" for k, v in s.variant.items()) if s.variant else ""
    verb = "would add" if s.dry_run else "added"
    return (f"{s.file}: {s.format}{' (' + v + ')' if v else ''} — {s.messages_seen} messages seen, "
            f"{verb} {s.memories_added}, {s.skipped_duplicates} duplicates, {s.skipped_system} system and "
            f"{s.skipped_media} media lines skipped, {_extra_skips(s)}{s.episodes} episodes, {len(s.warnings)} warnings")


def _extra_skips(s: ImportSummary) -> str:
    """The rarer skips, named only when they happened."""
    parts = [f"{n} {what}" for n, what in ((s.skipped_tool, "tool outputs skipped"),
                                           (s.skipped_malformed, "malformed conversations skipped"),
                                           (s.skipped_oversized, "oversized messages refused"),
                                           (s.summaries_replaced, "older summaries of the exporting store archived"))
             if n]
    return "".join(p + ", " for p in parts)


def dumps(summary: ImportSummary) -> str:
    """The summary as JSON text."""
    return json.dumps(summary.to_dict(), ensure_ascii=False, default=str)
