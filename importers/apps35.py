"""Which of round 35's exports a path is, for :mod:`importers.apps` and :mod:`importers.detect`: a folder of chats
copied out of Telegram Desktop as text, Element's (Matrix) HTML export, Daylio's CSV export, Diaro's backup. By
names and first bytes; nothing is parsed here. Each answer is a parser's name or None."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

from importers import delivered
from importers._common import head_matches

_COPIES_LOOKED_AT = 500  # .txt files of a folder looked into for Telegram's copied-text header
_HEAD_BYTES = 4096
# Daylio's "Export entries" CSV: full_date,date,weekday,time,mood,activities[,note_title],note (no zone anywhere)
DAYLIO_HEAD_RE = re.compile(r"^\ufeff?\"?full_date\"?,\"?date\"?,\"?weekday\"?,\"?time\"?,\"?mood\"?,")
DIARO_BACKUP = "diarobackup.xml"
_DIARO_RE = re.compile(r"<data\b[^>]*>\s*<table name=\"diaro_")
# Element's HTML export: its React tiles rendered to static markup (mx_EventTile, mx_RoomView)
_ELEMENT_RE = re.compile(r"class=\"mx_(?:RoomView|EventTile|Export_EventWrapper)\b")
ELEMENT_PAGE_RE = re.compile(r"messages\d*\.html", re.IGNORECASE)


def telegram_copies(folder: Path) -> list[Path]:
    """The chats copied out of Telegram Desktop as text (``Name, [12.03.2024 21:05]`` first) that make up
    ``folder`` — every visible file a ``.txt`` of that kind and no folder beside them — sorted; else none."""
    try:
        entries = [p for p in folder.iterdir() if not (p.name.startswith(".") or p.name == "__MACOSX"
                                                       or p.name.lower().endswith(delivered.ZONE_SUFFIX))]
    except OSError:
        return []
    if not entries or len(entries) > _COPIES_LOOKED_AT or any(p.suffix.lower() != ".txt" or not p.is_file() for p in entries):
        return []
    from importers.telegram_copy import HEADER_RE  # (only for a folder of nothing but .txt files)

    def copied(head: bytes) -> bool:
        first = head.decode("utf-8", "replace").lstrip("\ufeff \t\r\n").split("\n", 1)[0].rstrip("\r")
        return bool(HEADER_RE.match(first))
    return sorted(entries) if all(head_matches(p, copied, _HEAD_BYTES) for p in entries) else []


def is_element_page(body: str) -> bool:
    """Whether a web page's first bytes (``body``) are Element's HTML export of a room."""
    return bool(_ELEMENT_RE.search(body[:200_000]))


def element_pages(folder: Path) -> list[Path]:
    """The pages of Element's HTML export in ``folder`` (messages.html, messages2.html …), in order; else none."""
    try:
        pages = [p for p in folder.iterdir() if ELEMENT_PAGE_RE.fullmatch(p.name) and p.is_file()]
    except OSError:
        return []
    pages.sort(key=lambda p: int(re.sub(r"\D", "", p.name) or 1))
    if pages and head_matches(pages[0], lambda h: is_element_page(h.decode("utf-8", "replace")), 1 << 17):
        return pages
    return []


def head_app(path: Path, body: str) -> str | None:
    """The app of a file by its name and first bytes (``body``: as text)."""
    suffix = path.suffix.lower()
    if suffix == ".csv" and DAYLIO_HEAD_RE.match(body):
        return "daylio"
    if suffix == ".xml" and _DIARO_RE.search(body[:20000]):
        return "diaro"
    if suffix in (".html", ".htm") and is_element_page(body):
        return "matrix"
    return None


def folder_app(folder: Path) -> str | None:
    """A folder of Telegram's copied chats, of Element's HTML export, or holding Diaro's backup."""
    if telegram_copies(folder):
        return "telegram"
    if element_pages(folder):
        return "matrix"
    if (folder / "DiaroBackup.xml").is_file():
        return "diaro"
    return None


def zip_app(zf: zipfile.ZipFile, names: list[str], bases: list[str]) -> str | None:
    """Element's HTML export zipped (its room folder: messages.html, css/, js/), Diaro's backup zip."""
    if DIARO_BACKUP in bases:
        return "diaro"
    for name, base in zip(names, bases, strict=True):
        if ELEMENT_PAGE_RE.fullmatch(base) and name.count("/") <= 1:
            try:
                with zf.open(name) as fh:
                    head = fh.read(1 << 17).decode("utf-8", "replace")
            except (OSError, zipfile.BadZipFile, RuntimeError, NotImplementedError, EOFError):
                return None
            return "matrix" if is_element_page(head) else None
    return None
