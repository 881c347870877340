"""The export inside a folder that holds nothing else (round layouts34).

A download is often handed over as the folder it was saved or unzipped into: ``~/Downloads/discord/package/`` (the
package's folder inside the one the user made), a folder holding only ``8_live_…_export.zip`` (Teams) or a Takeout's
``takeout-…-001.zip``, a folder holding only ``MyActivity.html``. Read as a folder, such a one was refused ("holds no
conversations*.json nor notes") or, worse, became notes of the export's README. A folder that holds exactly one
thing (beside the OS's files: ``.DS_Store``, ``__MACOSX``, Zone.Identifier streams) is that thing, when that thing is
an export of a chat app, or anything readable when the folder itself is not — never notes in place of notes: a vault
with one top folder stays the vault it always was (its notes keep their paths, so a second import adds nothing).
"""

from __future__ import annotations

from pathlib import Path

from importers import ImportFormatError, delivered
from importers.detect import detect
from importers.registry import PARSERS

_DEPTH = 4  # folders inside folders a person makes around one export; no more is looked into


def only_entry(folder: Path) -> Path | None:
    """The one file or folder ``folder`` holds beside nothing but the OS's files, else None."""
    try:
        entries = [p for p in folder.iterdir() if not (p.name.startswith(".") or p.name == "__MACOSX"
                                                       or p.name.lower().endswith(delivered.ZONE_SUFFIX))]
    except OSError:
        return None
    return entries[0] if len(entries) == 1 else None


def _kind(path: Path) -> str | None:
    try:
        return detect(path)
    except (ImportFormatError, OSError):
        return None


def unwrap(folder: Path) -> Path:
    """The export ``folder`` wraps (see the module's words), else ``folder`` itself. A folder already read as a
    chat export, and an export that is notes or one file of a one-chat-per-file kind (a folder of chats reads
    those itself), are not unwrapped."""
    path = folder
    for _ in range(_DEPTH):
        inner = only_entry(path) if path.is_dir() else None
        if inner is None:
            break
        outer = _kind(path)
        if outer not in (None, "markdown"):
            break
        kind = _kind(inner)
        if kind is None or (kind == "markdown" and outer == "markdown") or (inner.is_file() and PARSERS[kind].one_per_file):
            break
        path = inner
    return path
