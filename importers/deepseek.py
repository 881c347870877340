"""DeepSeek's data export (Settings > Data > Export data): a zip holding conversations.json (and user.json), read
alone, in its folder or zipped. conversations.json is a list of conversations ``{"id", "title", "inserted_at",
"mapping"}``; ``mapping`` holds nodes ``{"id", "parent", "children", "message"}`` from "root", a message ``{"files",
"model", "inserted_at", "fragments": [{"type": "REQUEST"|"THINK"|"SEARCH"|"RESPONSE", "content"}]}`` (an older form
writes ``"content"`` and ``"role"`` on the message itself).

The chat shown is the path from the root through each node's LAST child (a regenerated answer replaces the one
before). A REQUEST is the account owner's ("User", ``from_me``), a RESPONSE DeepSeek's; the reasoning (THINK) and
search results (SEARCH) are no words of the chat and are left out. Times keep the offset DeepSeek writes (+08:00).
The file is streamed: one conversation in memory at a time."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from importers import ImportFormatError, ImportReport, Record
from importers._aichat import any_time, json_sources
from importers.chatturns import Turn, Turns, json_errors_where, stream_json, text_of
from importers.delivered import BROWSER_COPY

NAME = "deepseek"
FILE_RE = re.compile(r"conversations(?:[-_]\d+)?" + BROWSER_COPY + r"\.json")
_USER_TYPES = {"REQUEST"}
_WORD_TYPES = {"REQUEST", "RESPONSE"}


def is_head(head: str) -> bool:
    """Whether a JSON file's first bytes are DeepSeek's conversations: a ``mapping`` with ``inserted_at`` times and
    none of ChatGPT's keys (``current_node``, ``create_time``), which share the ``mapping``."""
    return bool(re.search(r'(?<!\\)"mapping"\s*:', head) and re.search(r'(?<!\\)"inserted_at"\s*:', head)
                and not re.search(r'(?<!\\)"(?:current_node|create_time)"\s*:', head))


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of conversations.json, its folder or the export's zip; bad input: a one-line ImportFormatError."""
    turns = Turns(NAME, report)
    missing = "no conversations.json of a DeepSeek export"
    for raw, where in json_sources(path, lambda name: bool(FILE_RE.fullmatch(name)), missing):
        yield from _records(raw, where, turns)


def _records(raw: IO[bytes], where: str, turns: Turns) -> Iterator[Record]:
    n = 0
    with json_errors_where(where):
        for kind, _prefix, value in stream_json(raw, where, lambda p: p == ""):
            if kind == "notlist":
                raise ImportFormatError("not a list of conversations", where)
            if kind == "item":
                n += 1
                yield from _conversation(value, n, where, turns)


def _conversation(conv: Any, n: int, where: str, turns: Turns) -> Iterator[Record]:
    if not isinstance(conv, dict):
        raise ImportFormatError(f"conversation {n}: not an object", where)
    title = text_of(conv.get("title")).strip()
    cid = text_of(conv.get("id")).strip() or str(n)
    what = f"conversation {n} ({title[:40]!r})"
    mapping = conv.get("mapping")
    if not isinstance(mapping, dict):
        raise ImportFormatError(f'{what}: "mapping" is not an object', where)
    thread = title or f"DeepSeek {cid[:8]}"
    for node in _shown_path(mapping):
        msg = node.get("message")
        if not isinstance(msg, dict):
            continue  # the root: no message
        nid = text_of(node.get("id"))
        when = any_time(msg.get("inserted_at"), f'{what} node {nid[:40]}: "inserted_at"', where)
        mine, text = _words(msg, f"{what} node {nid[:40]}", where)
        metadata: dict[str, Any] = {"conversation_id": cid}
        if mine:
            metadata["from_me"] = True
        files = [text_of(f.get("file_name") or f.get("name")) for f in msg.get("files") or [] if isinstance(f, dict)]
        if any(files):
            metadata["files"] = [f for f in files if f][:50]
            metadata["media"] = True
        model = text_of(msg.get("model"))
        if model and not mine:
            metadata["model"] = model
        rec = turns.record(Turn(thread=thread, author="User" if mine else "DeepSeek", when=when, text=text,
                                ref=f"{NAME}:{cid}:{nid}", metadata=metadata))
        if rec is not None:
            yield rec


def _shown_path(mapping: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The nodes from the root through each node's last child (as many steps as nodes at most: a cycle ends it)."""
    node = mapping.get("root")
    if not isinstance(node, dict):
        node = next((v for v in mapping.values() if isinstance(v, dict) and v.get("parent") in (None, "")), None)
    seen: set[int] = set()
    while isinstance(node, dict) and id(node) not in seen:
        seen.add(id(node))
        yield node
        children = [c for c in node.get("children") or [] if isinstance(c, str) and isinstance(mapping.get(c), dict)] \
            if isinstance(node.get("children"), list) else []
        node = mapping[children[-1]] if children else None


def _words(msg: dict[str, Any], what: str, where: str) -> tuple[bool, str]:
    """(the owner's?, the words) of a message: its REQUEST or RESPONSE fragments (THINK and SEARCH left out)."""
    fragments = msg.get("fragments")
    if fragments is None:  # the older form: the words and the role on the message
        role = text_of(msg.get("role")).upper()
        return role in ("USER", "REQUEST"), text_of(msg.get("content"))
    if not isinstance(fragments, list):
        raise ImportFormatError(f'{what}: "fragments" is not a list', where)
    kinds = [text_of(f.get("type")).upper() for f in fragments if isinstance(f, dict)]
    mine = any(k in _USER_TYPES for k in kinds)
    text = "\n\n".join(text_of(f.get("content")).strip() for f in fragments
                       if isinstance(f, dict) and text_of(f.get("type")).upper() in _WORD_TYPES
                       and text_of(f.get("content")).strip())
    return mine, text
