"""JSON lines parser: the format ``mem.py export`` writes and ``mem.py import jsonl`` reads.

One JSON object per line with the memory's own fields (:data:`EXPORT_KEYS`, plus the
store's bookkeeping fields, accepted and ignored). Every line is checked here, field by
field, with a one-line error naming the line; the store checks the memory itself
(type, status, size) before anything is written. Streamed a line at a time: UTF-8 (BOM
optional) or UTF-16 with a BOM; a line over ``MAX_JSONL_LINE_CHARS``, binary data or a
zip archive is refused.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from importers import ImportFormatError, ImportReport, Record
from importers._common import iter_lines
from memengine import cleantext, timeparse
from memengine.text import content_hash

# The export format's fields (MemoryStore.EXPORT_KEYS writes them; the same list).
EXPORT_KEYS = ("content", "memory_type", "source", "ref", "importance", "event_at", "created_at",
               "tags", "metadata", "author", "thread", "position", "status", "pinned", "level")
# Bookkeeping a store writes about itself: accepted in a line, not imported.
IGNORED_KEYS = ("id", "content_hash", "strength", "access_count", "last_accessed_at", "updated_at", "valid_from")
# Relations to other lines of the export, by origin (MemoryStore._export_edges writes them): read, and restored once
# every line is in (memengine/jsonl_import.py). ``valid_to``: when the memory was replaced (history, not current).
RELATION_KEYS = ("valid_to", "supersedes", "links")
LINK_TYPES = ("explicit", "causal", "may_update", "contradicts", "part_of")  # (may_update, contradicts: users26, what
# two facts say of each other: a probable update, an open contradiction with its "kind" and "reason"; part_of: users35,
# a chat turn's episode, so that recall answers with the turn and forgetting the turn forgets its episode)
MAX_JSONL_LINE_CHARS = 16_000_000  # a 1 MB memory JSON-escaped, with its metadata, fits many times over
_ALLOWED = set(EXPORT_KEYS) | set(IGNORED_KEYS) | set(RELATION_KEYS) | {"origin", "time_kind"}
# ``time_kind``: written only when event_at is not a UTC moment ("floating", "day": memengine/timekind.py)
TIME_KINDS = ("utc", "floating", "day")
# ``origin``: the exporting store's id and the memory's id there (an export names each memory so)
ORIGIN_RE = re.compile(r"[0-9a-f]{16}:[0-9]{1,18}")


def _fields(obj: Any, file: str, no: int) -> Record:
    """The record of one parsed line, or a one-line error naming the line and field."""
    if not isinstance(obj, dict):
        raise ImportFormatError("expected a JSON object", file, no)
    unknown = set(obj) - _ALLOWED
    if unknown:
        raise ImportFormatError(f"unknown field {sorted(unknown)[0]!r}", file, no)
    content = obj.get("content")
    if not isinstance(content, str) or not content.strip():
        raise ImportFormatError("field 'content' is required and must be non-empty text", file, no)
    try:
        content = cleantext.check_text(content, "field 'content'")
        event_at = timeparse.parse_when(obj["event_at"]) if obj.get("event_at") else None
    except timeparse.DateParseError as exc:
        raise ImportFormatError(f"field 'event_at': {exc}", file, no) from None
    except (ValueError, TypeError) as exc:
        raise ImportFormatError(str(exc), file, no) from None
    try:
        created_at = timeparse.from_iso(obj["created_at"]) if obj.get("created_at") else None
    except (ValueError, TypeError):
        raise ImportFormatError("field 'created_at': not an ISO timestamp", file, no) from None
    tags = obj.get("tags")
    if tags is not None and not isinstance(tags, (list, str)):
        raise ImportFormatError("field 'tags' must be a list or a string", file, no)
    meta = obj.get("metadata") or {}
    if not isinstance(meta, dict):
        raise ImportFormatError("field 'metadata' must be an object", file, no)
    for name, kinds in (("importance", (int, float)), ("position", (int,)), ("level", (int,))):
        value = obj.get(name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, kinds)):
            raise ImportFormatError(f"field {name!r} must be a number", file, no)
    for name in ("memory_type", "source", "ref", "author", "thread", "status"):
        value = obj.get(name)
        if value is not None and not isinstance(value, str):
            raise ImportFormatError(f"field {name!r} must be text", file, no)
    origin = obj.get("origin")
    if origin is not None and not (isinstance(origin, str) and ORIGIN_RE.fullmatch(origin)):
        raise ImportFormatError("field 'origin' must be '<16 hex digits>:<memory id>', as mem.py export writes it",
                                file, no)
    time_kind = obj.get("time_kind")
    if time_kind is not None and time_kind not in TIME_KINDS:
        raise ImportFormatError(f"field 'time_kind' must be one of {', '.join(TIME_KINDS)}", file, no)
    supersedes, valid_to, edges = _relations(obj, file, no)
    # A stable ref makes export -> import -> import idempotent even for hand-stored memories.
    ref = obj.get("ref") or f"hash:{content_hash(content)[:24]}"
    return Record(
        content=content, ref=ref, source=obj.get("source") or "import",
        memory_type=obj.get("memory_type") or "semantic", event_at=event_at, author=obj.get("author"),
        thread=obj.get("thread"), position=obj.get("position"),
        tags=tags if isinstance(tags, list) else ([tags] if tags else []), metadata=meta, line=no,
        importance=float(obj["importance"]) if obj.get("importance") is not None else None,
        pinned=bool(obj.get("pinned", False)), level=int(obj.get("level") or 0),
        status=obj.get("status") or "active", created_at=created_at, origin=origin,
        supersedes=supersedes, valid_to=valid_to, edges=edges, time_kind=time_kind or "utc",
    )


def _relations(obj: dict[str, Any], file: str, no: int) -> tuple[list[str], Any, list[tuple[str, str, float]]]:
    """A line's ``supersedes`` (origins), ``valid_to`` (a time) and ``links`` (``{"to": origin, "type", "weight"}``),
    checked field by field (a one-line error naming the line)."""
    supersedes = obj.get("supersedes") or []
    if not isinstance(supersedes, list) or not all(isinstance(o, str) and ORIGIN_RE.fullmatch(o) for o in supersedes):
        raise ImportFormatError("field 'supersedes' must be a list of origins ('<16 hex digits>:<memory id>')",
                                file, no)
    try:
        valid_to = timeparse.from_iso(obj["valid_to"]) if obj.get("valid_to") else None
    except (ValueError, TypeError, AttributeError):
        raise ImportFormatError("field 'valid_to': not an ISO timestamp", file, no) from None
    links = obj.get("links") or []
    edges: list[tuple[str, str, float]] = []
    for link in links if isinstance(links, list) else [None]:
        if not (isinstance(link, dict) and isinstance(link.get("to"), str) and ORIGIN_RE.fullmatch(link["to"])
                and link.get("type", "explicit") in LINK_TYPES
                and isinstance(link.get("weight", 0.8), (int, float)) and not isinstance(link.get("weight"), bool)
                and 0 <= link.get("weight", 0.8) <= 1
                and all(isinstance(link.get(k, ""), str) for k in ("kind", "reason"))):
            raise ImportFormatError("field 'links' must be a list of {\"to\": origin, \"type\": "
                                    f"{' or '.join(LINK_TYPES)}, \"weight\": 0..1}}", file, no)
        kind = link.get("type", "explicit")
        if kind == "contradicts":  # (its kind and reason ride in the type: "contradicts\tKIND\tREASON")
            kind = "\t".join((kind, link.get("kind") or "imported", " ".join(str(link.get("reason") or "").split())))
        edges.append((link["to"], kind, float(link.get("weight", 0.8))))
    return supersedes, valid_to, edges


def parse(path: Path, report: ImportReport, **options: Any) -> Iterator[Record]:
    """Parse a JSON lines file into records, one per non-empty line (see module docstring)."""
    path = Path(path)
    file = str(path)
    try:
        fh = path.open("rb")
    except OSError as exc:
        raise ImportFormatError(f"cannot read file ({exc.strerror})", file) from None
    with fh:
        if fh.read(4) == b"PK\x03\x04":
            raise ImportFormatError("a zip archive, not JSON lines (unzip it, or import the archive itself)", file)
        fh.seek(0)
        damage: list[tuple[int, str]] = []  # a copy damaged on the way: its NULs or cut character dropped, said
        for ln in iter_lines(fh, file, MAX_JSONL_LINE_CHARS, damage):
            if ln.overlong:
                raise ImportFormatError(f"line of {ln.length} characters, over the {MAX_JSONL_LINE_CHARS} limit",
                                        file, ln.no)
            if not ln.text.strip():
                continue
            report.messages_seen += 1
            try:
                obj = cleantext.loads(ln.text, "JSON")
            except ValueError as exc:
                raise ImportFormatError(str(exc).replace("JSON: ", "", 1), file, ln.no) from None
            yield _fields(obj, file, ln.no)
        for line, what in damage:
            report.warn(what, line)
