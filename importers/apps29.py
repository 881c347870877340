"""Which of round 29's exports a path is, for :mod:`importers.apps` (and so :mod:`importers.detect`): MemoTrace's
WeChat web pages, Rocket.Chat's export in HTML, VK's archive, Character.AI chats (JSON), Microsoft Copilot's activity history
(CSV) and Perplexity threads (Markdown). By names and first bytes; nothing is parsed here. Each answer is a parser's
name (:mod:`importers.registry`) or None."""

from __future__ import annotations

import zipfile
from pathlib import Path

from importers import characterai, copilot, perplexity, rocketchat_html, vk, wechat_html
from importers.apps23 import head_text

_ZIP_ERRORS = (OSError, zipfile.BadZipFile, RuntimeError, NotImplementedError, EOFError)
_LOOKED_AT = 5  # a folder's or zip's first files of a kind looked at


def head_app(path: Path, body: str) -> str | None:
    """The app of a file by its name and first bytes (``body``: as text)."""
    suffix = path.suffix.lower()
    if suffix in (".html", ".htm"):
        if rocketchat_html.is_room_head(body):
            return "rocketchat"
        if vk.is_page_head(body):
            return "vk"
        if wechat_html.is_page_head(body) or wechat_html.is_page(path):
            return "wechat"
        return None
    if suffix == ".json" and characterai.is_head(body):
        return "characterai"
    if suffix == ".csv" and copilot.is_head(path.name, body):
        return "copilot"
    if suffix in (".md", ".markdown") and perplexity.is_head(body):
        return "perplexity"
    return None


def folder_app(folder: Path) -> str | None:
    """A folder of Rocket.Chat's HTML rooms, of MemoTrace's pages (``聊天记录/<chat>/<chat>.html`` or
    ``<chat>/<chat>.html``), of Character.AI chats, of Copilot's history, of Perplexity threads: its first few files
    of the kind all that app's."""
    try:
        files = sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))
        subs = sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))
    except OSError:
        return None
    pages = [p for p in files if p.suffix.lower() in (".html", ".htm")][:_LOOKED_AT]
    if pages and all(rocketchat_html.is_room_head(head_text(p)) for p in pages):
        return "rocketchat"
    if _vk_folder(folder, files, subs):
        return "vk"
    chats = [*subs, *(s for d in subs if d.name == "聊天记录" for s in sorted(d.iterdir()) if s.is_dir())]
    memo = [s / f"{s.name}.html" for s in chats[:50]] + pages
    if any(p.is_file() and wechat_html.is_page(p) for p in memo[:60]):
        return "wechat"
    for suffix, app, test in ((".json", "characterai", lambda p: characterai.is_head(head_text(p))),
                              (".csv", "copilot", lambda p: copilot.is_head(p.name, head_text(p))),
                              (".md", "perplexity", lambda p: perplexity.is_head(head_text(p)))):
        some = [p for p in files if p.suffix.lower() == suffix][:_LOOKED_AT]
        if some and all(test(p) for p in some):
            return app
    return None


def _vk_folder(folder: Path, files: list[Path], subs: list[Path]) -> bool:
    """VK's archive (its messages/ folder), that folder, or a peer's folder of messages<N>.html pages."""
    msgs = folder / "messages" if (folder / "messages").is_dir() else folder
    if (msgs / "index-messages.html").is_file():
        return True
    peers = [p for p in (sorted(msgs.iterdir()) if msgs != folder else subs) if p.is_dir() and
             p.name.lstrip("-").isdigit()][:_LOOKED_AT] if msgs.is_dir() else []
    pages = [p / "messages0.html" for p in peers] + [p for p in files if vk.PAGE_RE.fullmatch(p.name)][:_LOOKED_AT]
    return any(p.is_file() and vk.is_page_head(head_text(p)) for p in pages)


def zip_app(zf: zipfile.ZipFile, names: list[str], bases: list[str]) -> str | None:
    """A zip of Rocket.Chat's HTML rooms, of Copilot's history (its CSV in ``Copilot/``), of Character.AI chats."""
    heads: dict[str, str] = {}

    def head(name: str) -> str:
        if name not in heads:
            with zf.open(name) as fh:
                heads[name] = fh.read(16384).decode("utf-8", "replace")
        return heads[name]

    try:
        if any(vk.MEMBER_RE.search(n) for n in names[:5000]) and any(
                vk.is_page_head(head(n)) for n in [n for n in names if vk.MEMBER_RE.search(n)][:_LOOKED_AT]):
            return "vk"
        pages = [n for n, b in zip(names, bases, strict=True) if b.endswith((".html", ".htm"))][:_LOOKED_AT]
        if pages and all(rocketchat_html.is_room_head(head(n)) for n in pages):
            return "rocketchat"
        csvs = [n for n, b in zip(names, bases, strict=True) if b.endswith(".csv")][:_LOOKED_AT]
        if any(copilot.is_head(n.rsplit("/", 1)[-1], head(n)) for n in csvs):
            return "copilot"
        jsons = [n for n, b in zip(names, bases, strict=True) if b.endswith(".json")][:_LOOKED_AT]
        if jsons and all(characterai.is_head(head(n)) for n in jsons):
            return "characterai"
    except _ZIP_ERRORS:
        return None
    return None
