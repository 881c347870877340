"""What the OS, a cloud drive or a browser adds to an export on its way to the user (round layouts33).

An export rarely arrives as the app wrote it: iCloud Drive leaves a file it has not downloaded as a placeholder
``.name.icloud``; OneDrive's and Dropbox's online-only files copied without being fetched are 0 bytes; a Mac's zip
carries ``__MACOSX/._name`` (AppleDouble: Finder's metadata of ``name``) and ``.DS_Store``; Windows copies the mark
of the web of a download as ``name:Zone.Identifier`` when a file leaves NTFS (WSL, a Samba share); a browser saves a
second download as ``name (1).ext``. None of these is the export: beside it they are skipped (a placeholder or a
0-byte file *said*, since the file it stands for is not read); alone they are refused saying what they are.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

# A browser's copy number before the extension: "conversations (1).json", "WhatsApp Chat - Ana(2).zip"
BROWSER_COPY = r"(?: ?\(\d{1,3}\))?"
_COPY_RE = re.compile(r" ?\(\d{1,3}\)(?=\.[A-Za-z0-9]{1,5}$|$)")

ICLOUD_SUFFIX = ".icloud"
EXPORT_SUFFIXES = (".txt", ".json", ".jsonl", ".zip", ".md", ".html", ".vcf", ".csv", ".mbox")
ZONE_SUFFIX = ":zone.identifier"
APPLEDOUBLE_MAGIC = b"\x00\x05\x16\x07"
DS_STORE_MAGIC = b"\x00\x00\x00\x01Bud1"


def without_copy_number(name: str) -> str:
    """``name`` without a browser's copy number: "conversations (1).json" -> "conversations.json"."""
    return _COPY_RE.sub("", name, count=1)


def icloud_original(name: str) -> str | None:
    """The file an iCloud placeholder stands for (``.Notes.md.icloud`` -> ``Notes.md``), else None."""
    if name.startswith(".") and name.lower().endswith(ICLOUD_SUFFIX) and len(name) > len(ICLOUD_SUFFIX) + 1:
        return name[1:-len(ICLOUD_SUFFIX)]
    return None


def os_file(path: Path) -> str | None:
    """What ``path`` is when it is the OS's or a cloud drive's file rather than an export's (the words of a
    refusal), else None."""
    name = path.name
    original = icloud_original(name)
    if original is not None:
        return (f"an iCloud placeholder of {original!r}, not downloaded: open it in Finder or Files (or "
                "'Download Now') so the file itself is there, and import that")
    if name.lower().endswith(ZONE_SUFFIX):
        return (f"a Windows Zone.Identifier stream (the mark of a download, copied as a file), not the export: "
                f"import {name[:-len(ZONE_SUFFIX)]!r}")
    try:
        with path.open("rb") as fh:
            head = fh.read(16)
    except OSError:
        return None
    if name.startswith("._") and head.startswith(APPLEDOUBLE_MAGIC):
        return (f"a macOS AppleDouble file (Finder's metadata of {name[2:]!r}, from a Mac's zip), not the export: "
                f"import {name[2:]!r}")
    if name == ".DS_Store" or head.startswith(DS_STORE_MAGIC):
        return "a macOS Finder .DS_Store (a folder's view settings), not an export"
    return None


def only_folder(folder: Path) -> Path | None:
    """The one folder ``folder`` holds beside nothing but the OS's files (``.DS_Store``, ``__MACOSX``), else None:
    the folder an export was unzipped or saved into."""
    try:
        entries = [p for p in folder.iterdir() if not (p.name.startswith(".") or p.name == "__MACOSX"
                                                       or p.name.lower().endswith(ZONE_SUFFIX))]
    except OSError:
        return None
    return entries[0] if len(entries) == 1 and entries[0].is_dir() else None


def not_here(folder: Path, suffixes: tuple[str, ...]) -> list[tuple[Path, str]]:
    """Files directly in ``folder`` that stand for an export file ending in one of ``suffixes`` but do not hold it:
    (path, why) for iCloud placeholders and 0-byte files, sorted."""
    found: list[tuple[Path, str]] = []
    try:
        with os.scandir(folder) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError:
        return found
    for e in entries:
        low = e.name.lower()
        original = icloud_original(e.name)
        if original is not None and original.lower().endswith(suffixes):
            found.append((folder / e.name,
                          f"in iCloud, not downloaded (a placeholder of {original!r}): download it and import again"))
        elif low.endswith(suffixes) and not e.name.startswith(".") and _empty(e):
            found.append((folder / e.name,
                          "0 bytes (a cloud drive's online-only file copied before it was downloaded?): skipped"))
    return found


def _empty(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file() and entry.stat().st_size == 0
    except OSError:
        return False
