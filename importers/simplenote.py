"""Simplenote's export, read by the markdown importer (:mod:`importers.markdown`).

"Export notes" writes ``notes.zip``: ``notes/<first line>.txt`` (each note's text) and
``source/notes.json``, ``{"activeNotes": [...], "trashedNotes": [...]}`` whose notes carry an
``id``, the ``content`` (its first line is the title: Simplenote has no other), ``creationDate``,
``lastModified``, ``tags``, ``pinned``. The JSON is read (it has the dates and tags the ``.txt``
files lack); the ``.txt`` files say the same again and are not. A note is one semantic memory
"Title: rest of the text" dated by its creation; trashed notes are not memories.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from importers import ImportFormatError, ImportReport, Record
from importers._common import head_matches, iso_time

HEAD_BYTES = 64 * 1024
MAX_EXPORT_BYTES = 256 * 1024 * 1024  # Simplenote caps a note at ~400 KB; a bigger file is no export
_ACTIVE_RE = re.compile(rb'^\s*\{\s*"(?:activeNotes|trashedNotes)"\s*:')


def is_export_head(head: bytes) -> bool:
    """True when the first bytes of a file are those of Simplenote's ``notes.json``."""
    return bool(_ACTIVE_RE.match(head.lstrip(b"\xef\xbb\xbf")))


def is_export(path: Path) -> bool:
    """True for Simplenote's ``notes.json`` (by its first bytes)."""
    return head_matches(path, is_export_head, HEAD_BYTES)



def records(file: Path, rel: str, report: ImportReport) -> list[Record]:
    """The notes of one ``notes.json``, each a semantic memory (see the module docstring)."""
    if file.stat().st_size > MAX_EXPORT_BYTES:
        raise ImportFormatError(f"Simplenote export over {MAX_EXPORT_BYTES} bytes", str(file))
    try:
        data = json.loads(file.read_bytes().decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ImportFormatError(f"invalid Simplenote export ({' '.join(str(exc).split())[:200]})", str(file)) from None
    if not isinstance(data, dict):
        raise ImportFormatError("invalid Simplenote export (not an object)", str(file))
    out: list[Record] = []
    for trashed, key in ((False, "activeNotes"), (True, "trashedNotes")):
        for note in data.get(key) or []:
            if not isinstance(note, dict) or not isinstance(note.get("content"), str) or not note.get("id"):
                report.skipped_malformed += 1
                continue
            report.messages_seen += 1
            if trashed:
                report.skipped_system += 1
                continue
            text = note["content"].replace("\r\n", "\n").replace("\r", "\n").strip()
            if not text:
                report.skipped_empty += 1
                continue
            title, _, rest = text.partition("\n")
            content = f"{title.strip()}: {rest.strip()}" if rest.strip() else title.strip()
            meta: dict[str, Any] = {"path": rel, "title": title.strip() if rest.strip() else "", "app": "simplenote"}
            if note.get("pinned") is True:
                meta["pinned"] = True
            tags = [str(t).strip() for t in note.get("tags") or [] if str(t).strip()]
            out.append(Record(content=content, ref=f"markdown:simplenote:{note['id']}", source="markdown",
                              memory_type="semantic", event_at=iso_time(note.get("creationDate")), thread=rel,
                              position=len(out), tags=tags, metadata=meta, line=1))
    return out
