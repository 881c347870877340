"""Pure parsers that turn exported histories into memory records.

Nothing in this package touches SQL: each parser reads a file (or directory) and
yields :class:`Record` objects, filling an :class:`ImportReport` as it goes. The
engine (``memory_core``) decides how records become memories, batches, episodes
and associations.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any


class ImportFormatError(ValueError):
    """A file that cannot be parsed: carries the file and (when known) the line.

    ``str(err)`` is a one-line message fit to show a user, e.g.
    ``chat.txt:12: no WhatsApp message header found``.
    """

    def __init__(self, message: str, file: str | None = None, line: int | None = None) -> None:
        self.file = file
        self.line = line
        self.reason = message
        where = file or ""
        if line is not None:
            where = f"{where}:{line}"
        super().__init__(f"{where}: {message}" if where else message)


@dataclass
class Record:
    """One memory-to-be, as a parser sees it.

    ``ref`` is stable across re-imports of the same (or an overlapping, later)
    export: it is what makes imports idempotent, so it must not depend on line
    numbers or file names that change between exports.
    """

    content: str
    ref: str
    source: str  # the importer's name (importers.registry), or a JSON line's own source
    memory_type: str = "episodic"  # episodic | semantic | procedural
    event_at: datetime | None = None  # timezone-aware when the export says so, else naive local
    author: str | None = None  # speaker / author name as written in the export
    thread: str | None = None  # conversation id: chat name, conversation uuid, note path
    position: int | None = None  # order of the record inside its thread (0-based)
    tags: list[str] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)
    # Explicit links to other records of the same import, by ref: (target_ref, edge_type).
    links: list[tuple[str, str]] = field(default_factory=list)
    # Aliases this record declares (vCard names / phone numbers -> display name).
    aliases: dict[str, str] = field(default_factory=dict)
    line: int | None = None  # first line in the source file, for warnings
    # Fields only a full export carries (JSON lines); None/defaults let the engine decide.
    importance: float | None = None
    pinned: bool = False
    level: int = 0
    status: str = "active"
    created_at: datetime | None = None
    # JSON lines only: ``<store id>:<memory id>``, the exporting store's name for this memory (memengine/storeid.py)
    origin: str | None = None
    # JSON lines only, what an export says of a memory's place among the others, by their origins: the memories
    # it replaced (``supersedes``), when it was itself replaced (``valid_to``), the links it was given (``edges``:
    # (origin, edge type, weight)); memengine/jsonl_import.py restores them once every line is in
    supersedes: list[str] = field(default_factory=list)
    valid_to: datetime | None = None
    edges: list[tuple[str, str, float]] = field(default_factory=list)
    # JSON lines only: what ``event_at`` is when not a UTC moment ("floating": a chat's wall clock, "day"), as
    # mem.py export writes it (memengine/timekind.py); other parsers say it by ``event_at`` being naive
    time_kind: str | None = None


@dataclass
class ImportReport:
    """What a parse saw, filled while the parser's generator is consumed."""

    file: str
    format: str
    variant: dict[str, Any] = field(default_factory=dict)  # platform, date_order, clock, ...
    messages_seen: int = 0
    skipped_system: int = 0
    skipped_media: int = 0
    skipped_empty: int = 0
    skipped_tool: int = 0  # tool/browser/code-interpreter output (ChatGPT, Claude) left out by default
    skipped_malformed: int = 0  # conversations of the wrong shape, skipped with a warning naming them
    skipped_oversized: int = 0  # messages over a size cap, refused with a warning naming their line
    warnings: list[str] = field(default_factory=list)  # "file:line: message"
    # thread -> the numeric date order ("dmy"/"mdy"/"ymd") the parser decided for it (evidence, locale or option;
    # not a default): kept by the import so the brief can read that chat's "03/12" (memengine/ingest.py)
    date_orders: dict[str, str] = field(default_factory=dict)

    def absorb(self, part: ImportReport) -> None:
        """Add what ``part`` (the report of one file of this parse, read ahead) saw: its counts and warnings,
        its variant and date orders."""
        for f in fields(self):
            mine, theirs = getattr(self, f.name), getattr(part, f.name)
            if isinstance(mine, bool) or isinstance(mine, str):
                continue
            if isinstance(mine, int):
                setattr(self, f.name, mine + theirs)
            elif isinstance(mine, list):
                mine.extend(theirs)
            elif isinstance(mine, dict):
                mine.update(theirs)

    def warn(self, message: str, line: int | None = None) -> None:
        """Record a non-fatal problem with its location."""
        where = f"{self.file}:{line}" if line is not None else self.file
        self.warnings.append(f"{where}: {message}")
