"""What callers hand to the engine and get back: memories, write and recall results.

Plain data: no SQL, no numpy. ``Memory.to_dict`` is the JSON every command prints.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any

MEMORY_TYPES = ("episodic", "semantic", "procedural")
EDGE_TYPES = ("temporal", "semantic", "causal", "explicit", "part_of", "derived_from", "contradicts",
              "supersedes", "reinforces")  # the associations CHECK in schema.sql
SHARED_SOURCE_PREFIX = "shared:"  # memories received from a partner's bundle; excluded unless asked for


@dataclass
class Memory:
    """A stored memory as returned to callers (JSON keys equal column names)."""

    id: int
    content: str
    memory_type: str
    source: str
    ref: str | None
    content_hash: str
    importance: float
    strength: float
    access_count: int
    pinned: int
    created_at: str
    event_at: str | None
    last_accessed_at: str | None
    updated_at: str
    valid_from: str | None
    valid_to: str | None
    status: str
    level: int
    author: str | None
    thread: str | None
    position: int | None
    metadata: dict[str, Any]
    tags: list[str]
    score: float | None = None
    explain: dict[str, Any] | None = None
    weak: bool | None = None  # recall: matches the query poorly (recall.confidence); None elsewhere
    # what replaced this fact / what it replaced (``supersedes`` edges), when asked for
    superseded_by: list[int] | None = None
    supersedes: list[int] | None = None
    # probably (not surely) updated by these newer facts (the middle band: memengine/supersession.py),
    # and, on the newer one, the facts it probably updates; set by recall when there are any
    possibly_outdated: bool | None = None
    possibly_outdated_by: list[int] | None = None
    may_update: list[int] | None = None
    # current memories an open contradiction pairs it with (two sources disagreeing: ask); set by recall
    contradicts: list[int] | None = None

    @classmethod
    def from_row(cls, row: Any) -> Memory:
        """Build from a row selected as ``MEMORY_COLUMNS`` (fields in that order)."""
        meta = row[21]
        head: tuple[Any, ...] = tuple(row[:21])  # id … position, in field order
        return cls(*head, metadata=json.loads(meta) if meta and meta != "{}" else {},  # type: ignore[misc]
                   tags=row[22].split() if row[22] else [])

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (its lists and dicts are copies); ``explain`` only when present.

        (``dataclasses.asdict`` gives the same dict but deep-copies every value through
        ``copy.deepcopy``: ~45 µs a memory, half of what a warm MCP recall spends outside the engine.)
        """
        d = {}
        for key in _FIELD_NAMES:
            value = getattr(self, key)
            if value is None and key in _DERIVED:
                continue
            d[key] = _json_copy(value) if isinstance(value, (dict, list, tuple)) else value
        d["pinned"] = bool(self.pinned)  # true / false as in store, pin and brief (users31: get, recall said 1)
        return d


_DERIVED = ("score", "explain", "weak", "superseded_by", "supersedes", "possibly_outdated", "possibly_outdated_by",
            "may_update", "contradicts")  # Memory fields that are not columns
_FIELD_NAMES = tuple(f.name for f in fields(Memory))


def _json_copy(value: Any) -> Any:
    """A copy of JSON-like data (dicts, lists, tuples; other values are shared, as asdict's deepcopy of
    str, int, float, bool and None gives the same object)."""
    if isinstance(value, dict):
        return type(value)((k, _json_copy(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return type(value)(_json_copy(v) for v in value)
    return value
# Exactly the fields of `Memory`, in their order (`Memory.from_row` reads rows by position).
MEMORY_COLUMNS = ", ".join(f.name for f in fields(Memory) if f.name not in _DERIVED)


class Candidate:
    """The few columns recall's fusion reads, for every candidate of a recall.

    Building a whole ``Memory`` costs more (23 columns become Python objects: ~2 vs
    ~1.5 ms for 200 candidates at 100k), and only the top k are returned: those are
    read whole afterwards. ``metadata`` is parsed on first use (time priors only).
    """

    __slots__ = ("id", "content", "author", "thread", "position", "event_at", "_meta", "_meta_raw",
                 "strength", "importance", "source", "time_kind", "score", "explain")
    # (``source``: what import a turn came from, for the updates said across one person's
    # conversations, memengine/recall/updates.py; a row without it reads as no source. ``time_kind`` last
    # (users35): what event_at holds, so the date prior reads the user's day of a UTC moment; none: as stored)
    COLUMNS = "id, content, author, thread, position, event_at, metadata, strength, importance, source, time_kind"

    def __init__(self, row: Any) -> None:
        row = tuple(row)
        (self.id, self.content, self.author, self.thread, self.position, self.event_at, self._meta_raw,
         self.strength, self.importance) = row[:9]
        self.source: str | None = row[9] if len(row) > 9 else None
        self.time_kind: str | None = row[10] if len(row) > 10 else None
        self._meta: dict[str, Any] | None = None
        self.score: float | None = None
        self.explain: dict[str, Any] | None = None

    @property
    def metadata(self) -> dict[str, Any]:
        if self._meta is None:
            raw = self._meta_raw
            self._meta = json.loads(raw) if raw and raw != "{}" else {}
        return self._meta


@dataclass
class NewMemory:
    """A memory to be written (what ``store`` and importers hand to the engine)."""

    content: str
    memory_type: str = "semantic"
    source: str = "user"
    ref: str | None = None
    importance: float = 0.5
    tags: list[str] | str | None = None
    metadata: dict[str, Any] | None = None
    event_at: datetime | None = None
    author: str | None = None
    thread: str | None = None
    position: int | None = None
    pinned: bool = False
    level: int = 0
    created_at: datetime | None = None  # kept from an export; default: now
    status: str = "active"
    time_kind: str | None = None  # what a naive event_at is (memengine/timekind.py): default utc, as before m016


@dataclass
class StoreResult:
    """Outcome of ``store``: the id, and whether an existing memory was reinforced instead."""

    id: int
    deduplicated: bool = False
    dedup_reason: str | None = None
    degraded: str | None = None
    links: list[tuple[int, str, float]] = field(default_factory=list)  # edges written from ``id``
    merged: dict[str, Any] = field(default_factory=dict)  # what a duplicate added to the kept memory
    supersedes: list[int] = field(default_factory=list)  # facts this one retired (valid_to set)
    superseded_by: int | None = None  # stored as history: a later active fact already replaced it
    contradicts: list[int] = field(default_factory=list)  # facts from another source it disagrees with (open)
    may_update: list[int] = field(default_factory=list)  # facts it probably (not surely) updates: both current
    possibly_outdated_by: list[int] = field(default_factory=list)  # later facts that probably update it
    raised: dict[str, Any] = field(default_factory=dict)  # on a re-store: importance / pinned raised to


@dataclass
class BatchStats:
    """Outcome of a bulk write (imports)."""

    seen: int = 0
    added: int = 0
    duplicates: int = 0
    ids: list[int] = field(default_factory=list)
    degraded: str | None = None


@dataclass
class RecallResult:
    """Ranked memories plus how they were found."""

    query: str
    strategy: str
    results: list[Memory]
    degraded: str | None = None
    took_ms: float = 0.0
    pruned_terms: list[str] = field(default_factory=list)  # frequent words left out of the keyword query
    warnings: list[str] = field(default_factory=list)  # e.g. reinforcement skipped on a read-only file

