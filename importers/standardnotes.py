"""Standard Notes backups, read by the markdown importer (:mod:`importers.markdown`).

A decrypted backup ("Standard Notes Backup and Import File.txt", also inside the backup zip) is
one JSON object ``{"version": "004", "items": [...]}``; each item has a ``uuid``, a
``content_type`` (``Note``, ``Tag``, ``SN|UserPreferences``, ``SN|Component`` ...), ``created_at``
and a ``content`` object: a note's ``title`` and ``text``, a tag's ``title`` and the notes it
``references``. A note is one semantic memory "Title: text" dated by its creation, its tags'
titles its tags; trashed notes are not memories; other items are no notes. A "Super" note's
``text`` is its editor's JSON (Lexical): read as the words it holds (:func:`super_text`). An encrypted backup
(``content`` is a ``004:...`` string) cannot be read: it fails in one line saying so.

Streamed with ijson, twice (tags, then notes): memory stays that of one item.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import ijson

from importers import ImportFormatError, ImportReport, Record
from importers._common import DEFAULT_MAX_JSON_BYTES, _json_errors, _opened, head_matches, iso_time, uncut
from importers._jsonstream import _build_items

HEAD_BYTES = 64 * 1024
_NOTE_ITEM_RE = re.compile(rb'"content_type"\s*:\s*"Note"')


def is_backup_head(head: bytes) -> bool:
    """True when the first bytes of a file are those of a Standard Notes backup."""
    return head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{") and b'"items"' in head and bool(
        _NOTE_ITEM_RE.search(head))


def is_backup(path: Path) -> bool:
    """True for a Standard Notes backup file (by its first bytes)."""
    return head_matches(path, is_backup_head, HEAD_BYTES)


def _items(path: Path, where: str) -> Iterator[Any]:
    with _json_errors(where), _opened((path, None), DEFAULT_MAX_JSON_BYTES) as fh:
        # not ijson.items: its prefixed events cost the depth each (a deep item cost n²); built here in O(1)
        yield from _build_items(ijson.basic_parse(fh, use_float=True), ("items", "item"), where, "item")


_SUPER_EDITOR = "com.standardnotes.super-editor"
_LEXICAL_BLOCKS = {"paragraph", "heading", "quote", "listitem", "code", "table", "tablerow", "horizontalrule"}


def super_text(text: str, title: str) -> str:
    """The words of a "Super" note (Standard Notes 2023+): its ``text`` is the Lexical editor's state
    as JSON, a tree of nodes whose ``text`` leaves are the words; a block node (paragraph, heading,
    list item ...) ends a line, a list item starts with ``- `` (a check list's with ``[x]``/``[ ]``).
    A first line that repeats the title is not said twice. Text that is no such JSON is kept as is."""
    try:
        root = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or nested past the parser's depth: kept as written
        return text
    if not isinstance(root, dict) or not isinstance(root.get("root"), dict):
        return text
    lines: list[str] = []
    current: list[str] = []

    def walk(node: Any, depth: int) -> None:
        if depth > 200 or not isinstance(node, dict):  # a tree that deep is no note's
            return
        kind = node.get("type")
        if kind == "listitem":
            checked = node.get("checked")
            current.append("- " + ("" if checked is None else "[x] " if checked else "[ ] "))
        if isinstance(node.get("text"), str):
            current.append(node["text"])
        elif kind == "linebreak":
            lines.append("".join(current))
            current.clear()
        for child in node.get("children") or []:
            walk(child, depth + 1)
        if kind in _LEXICAL_BLOCKS and "".join(current).strip() and not any(
                isinstance(c, dict) and c.get("type") == "list" for c in node.get("children") or []):
            lines.append("".join(current))
            current.clear()

    walk(root["root"], 0)
    if "".join(current).strip():
        lines.append("".join(current))
    lines = [ln.rstrip() for ln in lines if ln.strip()]
    if lines and title and lines[0].strip() == title:
        lines = lines[1:]
    return "\n".join(lines).strip()


def records(file: Path, rel: str, report: ImportReport) -> list[Record]:
    """The notes of one backup file, each a semantic memory (see the module docstring)."""
    where = str(file)
    tags: dict[str, list[str]] = {}
    for item in _items(file, where):
        if isinstance(item, dict) and item.get("content_type") == "Tag" and isinstance(item.get("content"), dict):
            title = str(item["content"].get("title") or "").strip()
            for ref in item["content"].get("references") or []:
                if title and isinstance(ref, dict) and ref.get("uuid"):
                    tags.setdefault(str(ref["uuid"]), []).append(title)
    out: list[Record] = []
    encrypted = 0
    for item in _items(file, where):
        if not isinstance(item, dict) or item.get("content_type") != "Note" or item.get("deleted") is True:
            continue
        content = item.get("content")
        if isinstance(content, str):  # "004:..." : encrypted with the account's key
            encrypted += 1
            continue
        if not isinstance(content, dict) or not item.get("uuid"):
            report.skipped_malformed += 1
            continue
        report.messages_seen += 1
        if content.get("trashed") is True:
            report.skipped_system += 1
            continue
        title = uncut(str(content.get("title") or "")).strip()
        text = uncut(str(content.get("text") or "")).strip()
        if content.get("noteType") == "super" or content.get("editorIdentifier") == _SUPER_EDITOR:
            text = super_text(text, title)
        if not text:
            report.skipped_empty += 1
            continue
        uuid = str(item["uuid"])
        out.append(Record(content=f"{title}: {text}" if title else text, ref=f"markdown:standardnotes:{uuid}",
                          source="markdown", memory_type="semantic", event_at=iso_time(item.get("created_at")),
                          thread=rel, position=len(out), tags=tags.get(uuid, []),
                          metadata={"path": rel, "title": title, "app": "standardnotes"}, line=1))
    if encrypted and not out and not report.messages_seen:
        raise ImportFormatError(f"an encrypted Standard Notes backup ({encrypted} notes); export a decrypted "
                                "backup (Preferences > Backups > Download backup, decrypted)", where)
    if encrypted:
        report.warn(f"{rel}: {encrypted} encrypted notes skipped (export a decrypted backup)")
    return out
