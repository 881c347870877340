"""Which of round 28's exports a path is, for :mod:`importers.apps` (and so :mod:`importers.detect`): xAI's Grok
export (prod-grok-backend.json), Mistral Le Chat's (chat-<id>.json), Rocket.Chat's "Export my data" in JSON (a room
per file, a message per line). DeepSeek's conversations.json is told by :func:`importers.detect._json_kind` (it
shares ChatGPT's file name). By names and first bytes; nothing is parsed here. Each answer is a parser's name
(:mod:`importers.registry`) or None."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

from importers import lechat, rocketchat
from importers.apps23 import head_text
from importers.grok import FILE as GROK_FILE

_GROK_HEAD_RE = re.compile(r'^\s*\{\s*"conversations"\s*:\s*\[\s*(?:\]|\{\s*"(?:conversation|responses)"\s*:)')
# (Hangouts.json starts with "conversations": [{"conversation": too: Grok's responses hold a "response" each)
_GROK_RESPONSE_RE = re.compile(r'"responses"\s*:\s*\[\s*\{\s*"response"\s*:\s*\{')
_ZIP_ERRORS = (OSError, zipfile.BadZipFile, RuntimeError, NotImplementedError, EOFError)
_LOOKED_AT = 5  # a folder's or zip's first room files looked at


def head_app(path: Path, body: str) -> str | None:
    """The app of a file by its name and first bytes (``body``: as text)."""
    if path.suffix.lower() != ".json":
        return None
    head = body.lstrip("\ufeff")
    if path.name.lower() == GROK_FILE and head.lstrip().startswith("{"):
        return "grok"  # (by its name: a damaged one is refused by the reader saying why)
    if _GROK_HEAD_RE.match(head) and _GROK_RESPONSE_RE.search(head) and re.search(r'"sender"\s*:', head):
        return "grok"
    if lechat.is_head(path.name, head):
        return "lechat"
    if rocketchat.is_room_head(head):
        return "rocketchat"
    return None


def folder_app(folder: Path) -> str | None:
    """Grok's export folder (its prod-grok-backend.json at the top or in ttl/*/export_data/<id>/), a folder of Le
    Chat's chat files, a folder of Rocket.Chat's room files."""
    if (folder / GROK_FILE).is_file() or next(folder.glob(f"ttl/*/export_data/*/{GROK_FILE}"), None) is not None:
        return "grok"
    try:
        jsons = sorted(p for p in folder.iterdir() if p.suffix.lower() == ".json" and p.is_file()
                       and not p.name.startswith("."))
    except OSError:
        return None
    if jsons and any(lechat.FILE_RE.fullmatch(p.name) and lechat.is_head(p.name, head_text(p)) for p in jsons[:_LOOKED_AT]):
        return "lechat"
    if jsons and all(rocketchat.is_room_head(head_text(p)) for p in jsons[:_LOOKED_AT]):
        return "rocketchat"
    return None


def zip_app(zf: zipfile.ZipFile, names: list[str], bases: list[str]) -> str | None:
    """Grok's export zip, Le Chat's, Rocket.Chat's (its room files: the first few all rooms')."""
    if GROK_FILE in bases:
        return "grok"
    jsons = [(n, b) for n, b in zip(names, bases, strict=True) if b.endswith(".json")]
    if not jsons:
        return None
    heads = []
    for name, _base in jsons[:_LOOKED_AT]:
        try:
            with zf.open(name) as fh:
                heads.append(fh.read(16384).decode("utf-8", "replace"))
        except _ZIP_ERRORS:
            return None
    if any(lechat.FILE_RE.fullmatch(b) and lechat.is_head(b, h) for (_n, b), h in zip(jsons, heads, strict=False)):
        return "lechat"
    if all(rocketchat.is_room_head(h) for h in heads):
        return "rocketchat"
    return None
