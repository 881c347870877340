"""Which of round 30's exports a path is, for :mod:`importers.apps` (and so :mod:`importers.detect`): WeChat chats as
WechatExporter (iOS) writes them as web pages — a page, an account's folder of pages, or the folder above the
accounts —, and iMazing's message CSVs (alone or a folder of them). By names and first bytes; nothing is parsed here. (Character.AI's account export is told by
:func:`importers.characterai.is_head`, which round 29's detection asks.) Each answer is a parser's name or None."""

from __future__ import annotations

from pathlib import Path

from importers import imazing, wechat_exporter
from importers.apps23 import head_text

_LOOKED_AT = 5  # pages of a folder looked at
_DIRS_LOOKED_AT = 20  # folders looked into, two levels down at most (WechatExporter/<account>/<chat>.html)


def head_app(path: Path, body: str) -> str | None:
    """The app of a file by its name and first bytes (``body``: as text)."""
    if path.suffix.lower() in (".html", ".htm") and (wechat_exporter.is_page_head(body) or
                                                    wechat_exporter.is_account_index(path)):
        return "wechat"
    if path.suffix.lower() == ".csv" and imazing.is_head(body):
        return "imazing"
    return None


def folder_app(folder: Path) -> str | None:
    """A folder of iMazing's CSVs (the first few all its); of WechatExporter's chat pages, or one or two levels above
    them (its output folder, an account's)."""
    try:
        csvs = sorted(p for p in folder.iterdir() if p.suffix.lower() == ".csv" and not p.name.startswith("."))
    except OSError:
        return None
    if csvs and all(p.is_file() and imazing.is_head(head_text(p)) for p in csvs[:_LOOKED_AT]):
        return "imazing"
    level = [folder]
    looked = 0
    for _depth in range(3):
        below: list[Path] = []
        for d in level:
            looked += 1
            if looked > _DIRS_LOOKED_AT:
                return None
            try:
                entries = sorted(p for p in d.iterdir() if not p.name.startswith("."))
            except OSError:
                continue
            pages = [p for p in entries if p.suffix.lower() in (".html", ".htm") and p.name.lower() != "index.html"
                     and p.is_file()][:_LOOKED_AT]
            if pages and any(wechat_exporter.is_page(p) for p in pages):
                return "wechat"
            below += [p for p in entries if p.is_dir() and not p.name.endswith("_files")]
        level = below
    return None
