"""An Obsidian vault's templates folder, which is no notes: the Templates core plugin
(``.obsidian/templates.json``: ``{"folder": "Templates"}``) and the Templater plugin
(``.obsidian/plugins/templater-obsidian/data.json``: ``{"templates_folder": "…"}``) keep there the notes
new notes are made from — full of ``{{date}}`` / ``<% tp.date.now() %>`` placeholders, dated nothing. Imported,
a template is a note of blank headings and empty to-dos dated the day of the import; so the folder is left out
of a vault's import, and said (:func:`template_folders`), and so is the daily note's own template where the Daily notes
plugin names one outside it (``.obsidian/daily-notes.json``: ``{"template": "Meta/Daily"}``, :func:`template_files`)."""

from __future__ import annotations

import json
from pathlib import Path

_CONFIGS = ((".obsidian/templates.json", "folder"), (".obsidian/plugins/templater-obsidian/data.json", "templates_folder"))
MAX_CONFIG_BYTES = 1 << 16


def template_folders(root: Path) -> list[str]:
    """The vault-relative folders (POSIX, no slashes at the ends) that ``root``'s Obsidian settings name as its
    templates' folders; none when ``root`` is no vault's top or names none (or names the vault itself)."""
    found: list[str] = []
    for name, key in _CONFIGS:
        config = root / name
        try:
            data = json.loads(config.read_bytes()[:MAX_CONFIG_BYTES]) if config.is_file() else None
        except (OSError, ValueError, RecursionError):
            continue
        folder = data.get(key) if isinstance(data, dict) else None
        if isinstance(folder, str):
            folder = folder.replace("\\", "/").strip().strip("/")
            if folder and folder not in found and ".." not in folder.split("/"):
                found.append(folder)
    return found


def template_files(root: Path) -> list[str]:
    """The vault-relative ``.md`` files (POSIX) that ``root``'s Daily notes settings name as the daily note's
    template; none when it names none."""
    config = root / ".obsidian" / "daily-notes.json"
    try:
        data = json.loads(config.read_bytes()[:MAX_CONFIG_BYTES]) if config.is_file() else None
    except (OSError, ValueError, RecursionError):
        return []
    name = data.get("template") if isinstance(data, dict) else None
    if not isinstance(name, str):
        return []
    name = name.replace("\\", "/").strip().strip("/")
    if not name or ".." in name.split("/"):
        return []
    return [name if name.lower().endswith(".md") else f"{name}.md"]
