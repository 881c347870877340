"""Which of round 23's exports a path is, for :mod:`importers.apps` (and so :mod:`importers.detect`): Zoom's saved
meeting chat, Snapchat's chat_history.json, Facebook's and Instagram's chats as web pages, imessage-exporter's pages.
By a file's name and first bytes, a folder's names (one level down at most), a zip's member names; nothing is parsed
here. Each answer is a parser's name (:mod:`importers.registry`) or None."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

_META_PAGE_RE = re.compile(r"(?:^|/)messages/[^/]+/[^/]+/message_\d+\.html$")
_META_NAME_RE = re.compile(r"message_\d+\.html")
_HEAD_BYTES = 16384


def head_app(path: Path, body: str) -> str | None:
    """The app of a file by its name and first bytes as text (``body``)."""
    from importers import imessage_html, matrix_text, messenger_html, snapchat, zoom  # (loaded when first asked for)

    suffix = path.suffix.lower()
    if suffix in (".html", ".htm"):
        if messenger_html.is_page_head(body) and _META_NAME_RE.fullmatch(path.name.lower()):
            return "messenger"  # (by its name too: Meta's other pages — posts, comments — have the same blocks)
        if imessage_html.is_page_head(body):
            return "imessage"
        return None
    if suffix in (".txt", "") and zoom.is_chat_head(body):
        return "zoom"
    if matrix_text.is_export_name(path) and body.strip():
        return "matrix"  # Element's text export: WhatsApp's lines, the room's name in the file's
    if snapchat.is_export_head(body) or (path.name.lower() == snapchat.FILE and body.lstrip().startswith("{")):
        return "snapchat"  # (by its name too: a damaged one is refused saying why)
    return None


def head_text(path: Path) -> str:
    """A file's first bytes as text (undecodable bytes replaced); "" when it cannot be read."""
    try:
        with path.open("rb") as fh:
            return fh.read(_HEAD_BYTES).decode("utf-8", "replace")
    except OSError:
        return ""


def folder_app(folder: Path, names: set[str]) -> str | None:
    """The app of a folder: a Snapchat download (json/chat_history.json), Zoom's folder of meetings or one
    meeting's, a folder of imessage-exporter's pages, a Meta chat's folder of pages."""
    from importers import matrix_text, messenger_html, snapchat, zoom

    for rel in (f"json/{snapchat.FILE}", snapchat.FILE):
        if (folder / rel).is_file() and head_text(folder / rel).lstrip("\ufeff \t\r\n").startswith("{"):
            return "snapchat"
        if (folder / rel).is_file() and (folder / rel).stat().st_size == 0:  # said, not "holds no conversations"
            from importers import ImportFormatError

            raise ImportFormatError("0 bytes: Snapchat's chat history is empty (a download cut short, or a cloud "
                                    "drive's file not fetched): download My Data again", str(folder / rel))
    if zoom.FILE in names and zoom.is_chat_head(head_text(folder / zoom.FILE)):
        return "zoom"
    subs = sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))
    chats = [p / zoom.FILE for p in subs[:500] if (p / zoom.FILE).is_file()]
    if chats and zoom.is_chat_head(head_text(chats[0])):
        return "zoom"
    if "message_1.html" in names and messenger_html.is_page_head(head_text(folder / "message_1.html")):
        return "messenger"
    if imessage_pages(folder, 5):
        return "imessage"
    if any(matrix_text.is_export_name(p) for p in folder.iterdir() if p.is_file()):
        return "matrix"  # a folder of Element's text exports
    return None


def imessage_pages(folder: Path, limit: int | None = None) -> list[Path]:
    """imessage-exporter's pages in ``folder`` (top level, sorted; the first ``limit`` web pages looked at)."""
    from importers import imessage_html

    pages = sorted(p for p in folder.iterdir() if p.suffix.lower() in (".html", ".htm") and p.is_file()
                   and not p.name.startswith("."))
    return [p for p in pages[:limit] if imessage_html.is_page_head(head_text(p))]


def zip_app(zf: zipfile.ZipFile, names: list[str], bases: list[str]) -> str | None:
    """The app of a zip: a Snapchat download (json/chat_history.json), Meta's download in HTML."""
    from importers import snapchat

    for name, base in zip(names, bases, strict=True):
        if base == snapchat.FILE:
            try:
                with zf.open(name) as fh:
                    if snapchat.is_export_head(fh.read(_HEAD_BYTES).decode("utf-8", "replace")):
                        return "snapchat"
            except (OSError, zipfile.BadZipFile, RuntimeError, NotImplementedError, EOFError):
                return None
    if any(_META_PAGE_RE.search(n.lower()) for n in names):
        return "messenger"
    return None


SNAPCHAT_PAGE = ("Snapchat's chat history as a web page (download My Data again with \"Export JSON Files\" on, and "
                 "import its json/chat_history.json)")


def refused(path: Path) -> str | None:
    """What a file that no parser reads is, when its name says so (Snapchat's chat_history.html)."""
    if path.name.lower() == "chat_history.html" or (path.parent.name.lower() == "chat_history"
                                                     and path.suffix.lower() in (".html", ".htm")):
        return SNAPCHAT_PAGE + " (not an export mem reads)"
    return None
