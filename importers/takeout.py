"""A Google Takeout holding several products, as a folder or a zip (round layouts33).

A Takeout is one archive of many products (``Takeout/Keep``, ``Takeout/Google Chat``, ``Takeout/My Activity/Gemini
Apps``, ``Takeout/Contacts``, ``Takeout/Voice``, ``Takeout/Mail``, and products nothing here reads: Photos, YouTube,
Drive ...). Detected as one kind, the others were left out without a word (a Takeout of Keep, Chat, Gemini and
Contacts imported only its Chat). Here each product with a reader is a part of its own kind — the file itself for
contacts and mailboxes, the Takeout (folder or zip) for the readers that find their product in it — and the products
with no reader are named in one warning. The product folders are told by what they hold, not only by their English
names (Takeout names some folders in the account's language).
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from importers import gemini
from importers._common import ZIP_OPEN_ERRORS, is_junk_member, is_zip
from importers.keep import is_keep_path

Part = tuple[Path, str]


def _kinds_of(rels: list[str]) -> tuple[dict[str, set[str]], list[str]]:
    """For the relative names below a Takeout root (``Keep/House.json``): {kind: the top folders holding it} and
    the contact and mailbox files (read one by one)."""
    kinds: dict[str, set[str]] = {}
    files: list[str] = []
    for rel in rels:
        parts = rel.split("/")
        top, low = parts[0], rel.lower()
        if len(parts) < 2:
            continue
        if low.endswith(".vcf") and "/calls/" not in low and not (len(parts) >= 2 and parts[-2].lower() == "voice"):
            kinds.setdefault("vcf", set()).add(top)  # Contacts/<label>/<label>.vcf (not Voice's own Phones.vcf)
            files.append(rel)
        elif low.endswith(".mbox"):
            kinds.setdefault("mail", set()).add(top)
            files.append(rel)
        elif is_keep_path(rel):
            kinds.setdefault("markdown", set()).add(top)
        elif gemini.is_member(rel):
            kinds.setdefault("gemini", set()).add(top)
        elif (len(parts) >= 4 and parts[-1].lower() == "messages.json" and parts[-3].lower() == "groups") \
                or parts[-1].lower() == "hangouts.json":
            kinds.setdefault("googlechat", set()).add(top)
        elif len(parts) >= 3 and parts[-2].lower() == "calls" and low.endswith(".html"):
            kinds.setdefault("googlevoice", set()).add(top)
    return kinds, files


def _unread(tops: set[str], kinds: dict[str, set[str]]) -> list[str]:
    read = set().union(*kinds.values()) if kinds else set()
    return sorted(t for t in tops if t not in read)


def _warning(where: str, unread: list[str]) -> list[str]:
    if not unread:
        return []
    return [f"{where}: Google Takeout products not read (no reader for them): {', '.join(unread)}"]


def folder_plan(folder: Path) -> tuple[list[Part], list[str]] | None:
    """((path, kind) parts, warnings) for a Takeout folder (``Takeout/`` or the folder holding it) with products of
    two kinds or more; None for any other folder."""
    root = folder / "Takeout" if (folder / "Takeout").is_dir() else folder
    if root.name.lower() != "takeout" and not (root / "archive_browser.html").is_file():
        return None
    rels = [p.relative_to(root).as_posix() for p in sorted(root.rglob("*"))
            if p.is_file() and not any(part.startswith(".") or part == "__MACOSX" for part in p.relative_to(root).parts)]
    kinds, files = _kinds_of(rels)
    if len(kinds) < 2:
        return None
    parts: list[Part] = [(root / rel, "vcf") for rel in files if rel.lower().endswith(".vcf")]
    parts += [(folder, kind) for kind in ("googlechat", "googlevoice", "markdown", "gemini") if kind in kinds]
    parts += [(root / rel, "mail") for rel in files if rel.lower().endswith(".mbox")]
    tops = {p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")}
    return parts, _warning(str(root), _unread(tops, kinds))


def zip_plan(path: Path) -> tuple[list[Part], list[str]] | None:
    """((path, kind) parts, warnings) for a Takeout zip (``takeout-…-001.zip``: members under ``Takeout/``) with
    products of two kinds or more, each part the zip itself; None for any other file."""
    if not (path.is_file() and is_zip(path)):
        return None
    try:
        with zipfile.ZipFile(path) as zf:
            names = [n for n in zf.namelist() if not is_junk_member(n) and not n.endswith("/")]
    except ZIP_OPEN_ERRORS:
        return None  # the import names what is wrong with the file
    rels = [n.split("/", 1)[1] for n in names if n.split("/", 1)[0].lower() == "takeout" and "/" in n]
    if not rels or len(rels) != len(names):
        return None
    kinds, files = _kinds_of(rels)
    if len(kinds) < 2 or "mail" in kinds:  # a mailbox is read from a file, not from the zip
        return None
    order = ("vcf", "googlechat", "googlevoice", "markdown", "gemini")
    tops = {r.split("/", 1)[0] for r in rels if "/" in r}
    return [(path, kind) for kind in order if kind in kinds], _warning(str(path), _unread(tops, kinds))
