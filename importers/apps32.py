"""Which of round 32's exports a path is, for :mod:`importers.apps` and :mod:`importers.detect`: sigtop's text
export of Signal Desktop (a chat's .txt, or a folder of them), and the folders that hold an export as it was left
— only ChatGPT's chat.html. By names and first bytes; nothing is parsed here. Each answer
is a parser's name or None."""

from __future__ import annotations

from pathlib import Path

from importers import sigtop, sigtop_json
from importers._common import head_matches

_FILES_LOOKED_AT = 40  # .txt files looked into for sigtop's head
_HEAD_BYTES = 2048


def is_sigtop(path: Path) -> bool:
    """Whether ``path`` starts as sigtop's text export of a chat ("Conversation: …", then a "From:" block)."""
    return head_matches(path, lambda head: sigtop.is_head(head.decode("utf-8", "replace")), _HEAD_BYTES)


def is_sigtop_json(path: Path) -> bool:
    """Whether ``path`` starts as sigtop's JSON of a chat (a list of Signal Desktop's message objects)."""
    return head_matches(path, lambda head: sigtop_json.is_head(head.decode("utf-8", "replace")), 4096)


def head_app(path: Path, body: str) -> str | None:
    """The app of a file by its name and first bytes (``body``: as text)."""
    if path.suffix.lower() == ".txt" and sigtop.is_head(body):
        return "signal"
    if path.suffix.lower() == ".json" and sigtop_json.is_head(body):
        return "signal"
    return None


def sigtop_files(folder: Path) -> list[Path]:
    """sigtop's chat files (text or JSON) in ``folder`` or one folder down (``messages/``), sorted."""
    out: list[Path] = []
    looked = 0
    for level in (folder, *sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))):
        try:
            names = sorted(p for p in level.iterdir() if p.suffix.lower() in (".txt", ".json") and p.is_file())
        except OSError:
            continue
        for p in names:
            looked += 1
            if looked > _FILES_LOOKED_AT and not out:
                return []
            if is_sigtop(p) if p.suffix.lower() == ".txt" else is_sigtop_json(p):
                out.append(p)
    return out


def folder_app(folder: Path) -> str | None:
    """A folder of sigtop's chat files (its output folder, or the folder above it)."""
    return "signal" if sigtop_files(folder) else None


def folder_export(folder: Path) -> str | None:
    """A folder holding ChatGPT's viewer page (chat.html) and no conversations*.json. (A folder of vCards, one card
    a file, is the CLI's to import file by file: memengine.ingest.detect_folder.)"""
    page = folder / "chat.html"
    if page.is_file() and head_matches(page, lambda head: b"var jsonData = " in head, 4 * 1024 * 1024):
        return "chatgpt"
    return None
