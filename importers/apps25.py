"""Which of round 25's exports a path is, for :mod:`importers.apps` and :mod:`importers.detect`: Google Takeout's
Gemini Apps activity (My Activity in JSON; its HTML form refused saying why) and Zulip's organization export (a
folder, a zip, a tar or its .tar.gz). Apple Mail's .emlx is mail (:mod:`importers.apps24`). By names and first bytes;
nothing is parsed here. Each answer is a parser's name (:mod:`importers.registry`) or None."""

from __future__ import annotations

import zipfile
from pathlib import Path

from importers import gemini, gemini_html, takeout, zulip
from importers.apps23 import head_text


def head_app(path: Path, body: str) -> str | None:
    """The app of a file by its name and first bytes (``body``: as text)."""
    if path.suffix.lower() in (".html", ".htm"):
        return "gemini" if gemini_html.is_page(path.name, body) else None  # My Activity in HTML (round layouts34)
    if path.suffix.lower() != ".json":
        return None
    if gemini.is_head(path.name, body) or gemini.is_member(f"{path.parent.name}/{path.name}"):
        return "gemini"  # (by its place in a Takeout alone: a damaged one is refused by the reader saying why)
    if (path.name == zulip.REALM or zulip.MESSAGES_RE.fullmatch(path.name)) and zulip.is_head(body):
        return "zulip"
    return None


def refused(path: Path, body: str) -> str | None:
    """What a file no parser reads is, when it is one of this round's (My Activity's HTML), else None."""
    return gemini.refused(path.name, body)


def folder_app(folder: Path) -> str | None:
    """Zulip's export folder, by its realm.json or a messages-N.json holding Zulip's keys."""
    for p in (folder / zulip.REALM, folder / "messages-000001.json"):
        if p.is_file() and zulip.is_head(head_text(p)):
            return "zulip"
    return None


_TAKEOUT_SIDE = ("my activity", "archive_browser.html")


def late_folder_app(folder: Path) -> str | None:
    """Gemini's activity in a Takeout folder holding My Activity alone (asked after the chat apps): a whole Takeout
    (Keep's notes, Google Chat, contacts, mail beside it) stays what the other readers make of it."""
    if gemini.find(folder) is None:
        return None
    if folder.name.lower() in ("my activity", *gemini.FOLDERS):
        return "gemini"
    if takeout.single_kind(folder) == "gemini" and not any(p.suffix.lower() == ".zip" for p in folder.iterdir()):
        return "gemini"  # Gemini the one product read beside products nothing reads (Google Photos ...); a zip
        # beside the unzipped Takeout (another part of a split one?) would be left out: the folder stays refused
    root = folder / "Takeout" if (folder / "Takeout").is_dir() else folder
    try:
        others = [p for d in {folder, root} for p in d.iterdir() if not p.name.startswith(".")
                  and p != root and p.name.lower() not in _TAKEOUT_SIDE]
    except OSError:
        return None
    return "gemini" if not others else None


def zip_app(zf: zipfile.ZipFile, names: list[str], bases: list[str]) -> str | None:
    """Zulip's export zipped; a Takeout zip of My Activity holding Gemini's activity in JSON."""
    if zulip.is_export_names(bases):
        return "zulip"
    if any(gemini.is_member(n) for n in names) and takeout.single_kind_of_names(names) == "gemini":
        return "gemini"  # Gemini the one product read beside products nothing reads (round layouts34)
    if any(gemini.is_member(n) for n in names) and all(
            "my activity/" in n.lower() or n.lower().endswith("archive_browser.html") for n in names):
        return "gemini"  # a Takeout of My Activity alone; a whole Takeout stays what the other readers make of it
    return None


def tar_app(path: Path) -> str | None:
    """Zulip's export as its web UI gives it (.tar.gz) or unpacked once (.tar), by its members' names."""
    names, damage = zulip.tar_names(path)
    bases = [n.rsplit("/", 1)[-1] for n in names]
    if zulip.is_export_names(bases):
        return "zulip"
    cut = damage is not None and (zulip.REALM in bases or any(zulip.MESSAGES_RE.fullmatch(b) for b in bases))
    return "zulip" if cut else None  # cut after its first members: the reader says where


def gzip_damage(path: Path) -> str | None:
    """What a gzip'd tar is when it cannot be listed to its first members (cut in a download, damaged), else None."""
    names, damage = zulip.tar_names(path, limit=1)
    return None if names or damage is None else f"a damaged or cut .tar.gz archive ({' '.join(damage.split())[:80]})"
