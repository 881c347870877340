"""Which of round 31's exports a path is, for :mod:`importers.apps` (and so :mod:`importers.detect`): signal-export's
JSON (a chat's ``data.json``, or a folder of chats holding them, up to two levels down). By names and first bytes;
nothing is parsed here. (WechatExporter's asynchronous pages are told by :func:`importers.wechat_exporter.is_page_head`,
which round 30's detection asks.) Each answer is a parser's name or None."""

from __future__ import annotations

from pathlib import Path

from importers import signal, signal_json

_DIRS_LOOKED_AT = 40  # chat folders looked into


def head_app(path: Path, body: str) -> str | None:
    """The app of a file by its name and first bytes (``body``: as text)."""
    if path.suffix.lower() == ".json" and signal_json.is_head(body):
        return "signal"
    return None


def folder_app(folder: Path) -> str | None:
    """signal-export's output folder (a folder per chat, each with its data.json), the folder above it, or a chat's."""
    if (folder / signal_json.NAME).is_file() and signal.is_json(folder / signal_json.NAME):
        return "signal"
    looked = 0
    level = [folder]
    for _depth in range(2):
        below: list[Path] = []
        for d in level:
            try:
                subs = sorted(p for p in d.iterdir() if p.is_dir() and not p.name.startswith("."))
            except OSError:
                continue
            for sub in subs:
                looked += 1
                if looked > _DIRS_LOOKED_AT:
                    return None
                data = sub / signal_json.NAME
                if data.is_file() and signal.is_json(data):
                    return "signal"
                below.append(sub)
        level = below
    return None
