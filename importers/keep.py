"""Google Keep notes, as Google Takeout exports them: ``Takeout/Keep/<title>.json`` (one note per
file, beside an ``.html`` rendering of it, its attachments and ``Labels.txt``).

The markdown importer reads them with the notes of other apps (:mod:`importers.markdown`): a
folder or zip holding a ``Keep`` folder of such JSON files. A note is a semantic memory
"Title: text" (a checklist as ``- [ ] item`` / ``- [x] item`` lines), its labels its tags, dated
by its creation (``createdTimestampUsec``; older exports only have ``userEditedTimestampUsec``).
Trashed notes are not memories, nor is a note of only a picture (counted as media); archived and
pinned ones are, marked in the metadata. The
``.html`` files say the same again and are not read.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from importers import ImportReport, Record

MAX_NOTE_BYTES = 4 * 1024 * 1024  # Keep caps a note at 20,000 characters: a bigger file is no note


def is_keep_path(rel: str) -> bool:
    """True for a ``.json`` file directly in a folder named ``Keep`` (Takeout's layout)."""
    parts = rel.replace("\\", "/").split("/")
    return len(parts) >= 2 and parts[-2].lower() == "keep" and parts[-1].lower().endswith(".json")


def is_keep_note(obj: Any) -> bool:
    """A Keep note object: text or a checklist, and Keep's own time stamps."""
    return isinstance(obj, dict) and ("textContent" in obj or "listContent" in obj) and (
        "userEditedTimestampUsec" in obj or "createdTimestampUsec" in obj)


def _when(obj: dict[str, Any]) -> datetime | None:
    for key in ("createdTimestampUsec", "userEditedTimestampUsec"):
        value = obj.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
            try:
                return datetime.fromtimestamp(value / 1_000_000, tz=timezone.utc)
            except (OverflowError, OSError, ValueError):
                continue
    return None


def _body(obj: dict[str, Any]) -> str:
    text = str(obj.get("textContent") or "").strip()
    items = [i for i in obj.get("listContent") or [] if isinstance(i, dict) and str(i.get("text") or "").strip()]
    checklist = "\n".join(f"- [{'x' if i.get('isChecked') else ' '}] {str(i['text']).strip()}" for i in items)
    return "\n".join(p for p in (text, checklist) if p)


def records(file: Path, rel: str, report: ImportReport) -> list[Record]:
    """The memory of one Keep note file (none for a trashed or empty note); a file that is no
    Keep note is skipped with a warning naming it."""
    if file.stat().st_size > MAX_NOTE_BYTES:
        report.skipped_oversized += 1
        report.warn(f"{rel}: over {MAX_NOTE_BYTES} bytes, no Keep note; skipped")
        return []
    try:
        obj = json.loads(file.read_bytes().decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        report.skipped_malformed += 1
        report.warn(f"{rel}: not a Keep note, invalid JSON ({' '.join(str(exc).split())[:200]}); skipped")
        return []
    if not is_keep_note(obj):
        report.warn(f"{rel}: not a Keep note (no textContent/listContent); skipped")
        return []
    report.messages_seen += 1
    if obj.get("isTrashed") is True:
        report.skipped_system += 1
        return []
    body = _body(obj)
    if not body:  # a note of only a picture (a photo of a receipt) is media, as a chat's photo alone is
        if any(isinstance(a, dict) and a.get("filePath") for a in obj.get("attachments") or []):
            report.skipped_media += 1
        else:
            report.skipped_empty += 1
        return []
    title = str(obj.get("title") or "").strip()
    labels = [str(x.get("name")).strip() for x in obj.get("labels") or [] if isinstance(x, dict) and x.get("name")]
    metadata: dict[str, Any] = {"path": rel, "title": title, "app": "keep"}
    for key, flag in (("isPinned", "pinned"), ("isArchived", "archived")):
        if obj.get(key) is True:
            metadata[flag] = True
    files = [str(a.get("filePath")) for a in obj.get("attachments") or [] if isinstance(a, dict) and a.get("filePath")]
    if files:
        metadata["attachments"] = files
    return [Record(content=f"{title}: {body}" if title else body, ref=f"markdown:{rel}::0", source="markdown",
                   memory_type="semantic", event_at=_when(obj), thread=rel, position=0, tags=labels,
                   metadata=metadata, line=1)]
