"""Mistral Le Chat's export (Settings > Export your data): a ``chat-<id>.json`` per chat, each a list of messages
``{"id", "chatId", "role": "user"|"assistant", "content", "contentChunks", "createdAt", "files", …}``, read alone, as a
folder or as the zip. A user's message is the account owner's ("User", ``from_me``), an assistant's "Le Chat"; other
roles (system, tool) are service lines. The export keeps no title: a chat is named by its first prompt (cut at a word
before 60 characters). A message that is only a file is media. Times UTC. A chat file is loaded whole (one chat)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from importers import ImportFormatError, ImportReport, Record
from importers._aichat import any_time, title_of
from importers._tree import MAX_JSON_FILE_BYTES, Tree, load_json
from importers.chatturns import SYSTEM, Turn, Turns, file_reader, text_of

NAME = "lechat"
FILE_RE = re.compile(r"chat-[0-9a-f-]{8,}\.json", re.IGNORECASE)
_HEAD_RE = re.compile(r'^\s*\[\s*\{[^\[\]]*?"(?:chatId|createdAt|role|contentChunks)"\s*:')


def is_head(name: str, head: str) -> bool:
    """Whether a JSON file is a Le Chat chat: a list of messages with Le Chat's keys (``chatId``, ``role``,
    ``createdAt``) in its first bytes, or its ``chat-<id>.json`` name over a list."""
    head = head.lstrip("\ufeff")
    if FILE_RE.fullmatch(name) and head.lstrip().startswith("["):
        return True
    return bool(_HEAD_RE.match(head) and all(re.search(rf'"{k}"\s*:', head) for k in ("chatId", "role", "createdAt")))


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of a chat file, a folder or the zip of them; bad input: a one-line ImportFormatError."""
    turns = Turns(NAME, report)
    if path.is_file() and path.suffix.lower() == ".json":
        yield from _chat(load_json(file_reader(path, MAX_JSON_FILE_BYTES)(), str(path)), str(path), turns)
        return
    tree = Tree(path)
    names = [n for n in tree.names if FILE_RE.fullmatch(n.rsplit("/", 1)[-1])]
    if not names:
        raise ImportFormatError("no chat-<id>.json of a Le Chat export", str(path))
    for name in names:
        yield from _chat(tree.json(name), tree.where(name), turns)


def _chat(messages: Any, where: str, turns: Turns) -> Iterator[Record]:
    if not isinstance(messages, list):
        raise ImportFormatError("not a list of messages", where)
    read = []
    for i, msg in enumerate(messages, start=1):
        if not isinstance(msg, dict):
            raise ImportFormatError(f"message {i}: not an object", where)
        read.append((any_time(msg.get("createdAt"), f'message {i}: "createdAt"', where), i, msg))
    read.sort(key=lambda t: (t[0], t[1]))
    first = next((_words(m) for _w, _i, m in read if text_of(m.get("role")).lower() == "user" and _words(m).strip()), "")
    cid = next((text_of(m.get("chatId")) for _w, _i, m in read if m.get("chatId")), "") or Path(where).stem
    thread = title_of(first) or f"Le Chat {cid[:8]}"
    for when, _i, msg in read:
        role = text_of(msg.get("role")).lower()
        if role not in ("user", "assistant"):
            turns.skip(SYSTEM)
            continue
        metadata: dict[str, Any] = {"chat_id": cid}
        if role == "user":
            metadata["from_me"] = True
        files = [text_of(f.get("name") or f.get("fileName")) for f in msg.get("files") or [] if isinstance(f, dict)]
        if files:
            metadata["files"] = [f for f in files if f][:50]
            metadata["media"] = True
        mid = text_of(msg.get("id")).strip()
        rec = turns.record(Turn(thread=thread, author="User" if role == "user" else "Le Chat", when=when,
                                text=_words(msg), metadata=metadata, ref=f"{NAME}:{cid}:{mid}" if mid else None))
        if rec is not None:
            yield rec


def _words(msg: dict[str, Any]) -> str:
    """A message's words: its ``content``, else the text of its ``contentChunks``."""
    content = msg.get("content")
    if isinstance(content, str) and content.strip():
        return content
    chunks = msg.get("contentChunks")
    if isinstance(chunks, list):
        return "".join(text_of(c.get("text")) for c in chunks if isinstance(c, dict) and c.get("type", "text") == "text")
    return text_of(content) if not isinstance(content, (list, dict)) else ""
