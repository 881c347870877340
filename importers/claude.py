"""Claude.ai data-export parser.

Formats handled: ``conversations.json`` from a Claude.ai export (a list of
conversations with ``uuid``, ``name``, ``chat_messages``; each message with
``uuid``, ``sender`` human/assistant, ``text`` or ``content[]`` items of type
``text``, ``created_at``, ``attachments`` with ``extracted_content`` and
``files``), also wrapped as ``{"conversations": [...]}``, a single
conversation object, a directory or the export zip. Streamed with ijson.

Messages are sorted by ``created_at`` (exports are not always in order);
conversations without messages are skipped and counted
(``report.variant["empty_conversations"]``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from importers import ImportFormatError, ImportReport, Record
from importers._common import DEFAULT_MAX_JSON_BYTES, iter_objects, json_sources

ATTACHMENT_EXCERPT_CHARS = 300
_SPEAKERS = {"human": "User", "assistant": "Assistant"}


def _accept(name: str) -> bool:
    return re.fullmatch(r"conversations(?:[-_]\d+)?\.json", name, re.IGNORECASE) is not None


def _when(value: Any) -> datetime | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))  # 3.10 rejects "Z"
    except ValueError:
        return None


def _text(msg: dict[str, Any]) -> str:
    content = msg.get("content")
    if isinstance(content, list):
        parts = [str(c.get("text") or "") for c in content if isinstance(c, dict) and c.get("type") == "text"]
        joined = "\n\n".join(p for p in parts if p.strip())
        if joined.strip():
            return joined.strip()
    return str(msg.get("text") or "").strip()


def _attachments(msg: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for att in msg.get("attachments") or []:
        if not isinstance(att, dict):
            continue
        extracted = str(att.get("extracted_content") or "")
        out.append(
            {
                "file_name": att.get("file_name"),
                "file_size": att.get("file_size"),
                "file_type": att.get("file_type"),
                "excerpt": extracted[:ATTACHMENT_EXCERPT_CHARS],
                "chars": len(extracted),
            }
        )
    return out


def _conversation(conv: dict[str, Any], where: str, report: ImportReport) -> Iterator[Record]:
    messages = conv.get("chat_messages")
    if not isinstance(messages, list) or "uuid" not in conv:
        raise ImportFormatError("not a Claude conversation (no 'uuid' / 'chat_messages')", where)
    conv_id = str(conv["uuid"])
    name = str(conv.get("name") or "")
    if not messages:
        report.variant["empty_conversations"] = report.variant.get("empty_conversations", 0) + 1
        report.skipped_empty += 1
        return
    fallback = _when(conv.get("created_at"))
    indexed = [m for m in messages if isinstance(m, dict)]
    # Stable sort: messages without a time keep their place relative to each other.
    def sort_key(m: dict[str, Any]) -> tuple[float, int]:
        when = _when(m.get("created_at")) or fallback
        # A reply is stamped with its question's time: at equal times the human speaks first.
        return (when.timestamp() if when else 0.0, 0 if m.get("sender") == "human" else 1)

    indexed.sort(key=sort_key)
    position = 0
    for msg in indexed:
        report.messages_seen += 1
        text = _text(msg)
        atts = _attachments(msg)
        files = [str(f.get("file_name")) for f in (msg.get("files") or []) if isinstance(f, dict)]
        if atts:
            names = ", ".join(str(a["file_name"]) for a in atts)
            text = f"{text}\n[attachments: {names}]".strip()
        if not text:
            if files:
                report.skipped_media += 1
            else:
                report.skipped_empty += 1
            continue
        sender = str(msg.get("sender") or "unknown")
        speaker = _SPEAKERS.get(sender, sender.capitalize())
        metadata: dict[str, Any] = {"title": name}
        if atts:
            metadata["attachments"] = atts
        if files:
            metadata["files"] = files
        yield Record(
            content=f"{speaker}: {text}",
            ref=f"claude:{conv_id}:{msg.get('uuid') or position}",
            source="claude",
            memory_type="episodic",
            event_at=_when(msg.get("created_at")) or fallback,
            author=speaker,
            thread=conv_id,
            position=position,
            metadata=metadata,
        )
        position += 1


def parse(path: Path, report: ImportReport, **options: Any) -> Iterator[Record]:
    """Parse a Claude.ai export (json file, directory or zip) into episodic records.

    Options: ``max_member_bytes`` (limit on a zip member read by streaming).
    """
    path = Path(path)
    limit = int(options.get("max_member_bytes") or DEFAULT_MAX_JSON_BYTES)
    report.variant.setdefault("empty_conversations", 0)
    count = 0
    for source in json_sources(path, _accept):
        where = f"{source[0]}!{source[1]}" if source[1] else str(source[0])
        for conv in iter_objects(source, "conversations", limit):
            count += 1
            yield from _conversation(conv, where, report)
    report.variant["conversations"] = count
