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


def _top(rel: str) -> str:
    """The product a relative name belongs to: its top folder, or for My Activity the product below it
    ("My Activity/Gemini Apps", "My Activity/Search": each a product of its own, read or not)."""
    parts = rel.split("/")
    return "/".join(parts[:2]) if len(parts) > 2 and parts[0].lower() == "my activity" else parts[0]


def _kinds_of(rels: list[str]) -> tuple[dict[str, set[str]], list[str]]:
    """For the relative names below a Takeout root (``Keep/House.json``): {kind: the products holding it} and
    the contact and mailbox files (read one by one)."""
    kinds: dict[str, set[str]] = {}
    files: list[str] = []
    for rel in rels:
        parts = rel.split("/")
        top, low = _top(rel), rel.lower()
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


def _folder_products(folder: Path) -> tuple[Path, dict[str, set[str]], list[str], set[str]] | None:
    """(root, kinds, files, products) of a Takeout folder (``Takeout/`` or the folder holding it), else None."""
    root = folder / "Takeout" if (folder / "Takeout").is_dir() else folder
    if root.name.lower() != "takeout" and not (root / "archive_browser.html").is_file():
        return None
    rels = [p.relative_to(root).as_posix() for p in sorted(root.rglob("*"))
            if p.is_file() and not any(part.startswith(".") or part == "__MACOSX" for part in p.relative_to(root).parts)]
    kinds, files = _kinds_of(rels)
    return root, kinds, files, {_top(r) for r in rels if "/" in r}


def folder_plan(folder: Path) -> tuple[list[Part], list[str]] | None:
    """((path, kind) parts, warnings) for a Takeout folder (``Takeout/`` or the folder holding it) with products of
    two kinds or more; None for any other folder."""
    found = _folder_products(folder)
    if found is None or len(found[1]) < 2:
        return None
    root, kinds, files, tops = found
    parts: list[Part] = [(root / rel, "vcf") for rel in files if rel.lower().endswith(".vcf")]
    parts += [(folder, kind) for kind in ("googlechat", "googlevoice", "markdown", "gemini") if kind in kinds]
    parts += [(root / rel, "mail") for rel in files if rel.lower().endswith(".mbox")]
    return parts, _warning(str(root), _unread(tops, kinds))


def unread_of_one(path: Path) -> list[str]:
    """The warning naming the products nothing reads of a Takeout (folder or zip) with ONE readable kind — read by
    that kind's reader alone, no plan of parts names them (round layouts34: a Takeout of Keep beside Google Photos,
    YouTube and Chrome said nothing of the three). Empty for a Takeout of several kinds (its plan says it), for
    one with nothing left unread, and for anything that is no Takeout."""
    if path.is_dir():
        found = _folder_products(path)
        if found is None:
            return []
        _, kinds, _, tops = found
    else:
        rels = _zip_rels(path)
        if not rels:
            return []
        kinds, _ = _kinds_of(rels)
        tops = {_top(r) for r in rels if "/" in r}
    unread = _unread(tops, kinds) if len(kinds) == 1 else []
    return [f"Google Takeout products not read (no reader for them): {', '.join(unread)}"] if unread else []


def _zip_rels(path: Path) -> list[str]:
    """The names below ``Takeout/`` of a Takeout zip (every member there), else none."""
    if not (path.is_file() and is_zip(path)):
        return []
    try:
        with zipfile.ZipFile(path) as zf:
            names = [n for n in zf.namelist() if not is_junk_member(n) and not n.endswith("/")]
    except ZIP_OPEN_ERRORS:
        return []  # the import names what is wrong with the file
    rels = [n.split("/", 1)[1] for n in names if n.split("/", 1)[0].lower() == "takeout" and "/" in n]
    return rels if rels and len(rels) == len(names) else []


def zip_plan(path: Path) -> tuple[list[Part], list[str]] | None:
    """((path, kind) parts, warnings) for a Takeout zip (``takeout-…-001.zip``: members under ``Takeout/``) with
    products of two kinds or more, each part the zip itself; None for any other file."""
    rels = _zip_rels(path)
    if not rels:
        return None
    kinds, files = _kinds_of(rels)
    if len(kinds) < 2 or "mail" in kinds:  # a mailbox is read from a file, not from the zip
        return None
    order = ("vcf", "googlechat", "googlevoice", "markdown", "gemini")
    tops = {_top(r) for r in rels if "/" in r}
    return [(path, kind) for kind in order if kind in kinds], _warning(str(path), _unread(tops, kinds))


def single_kind(folder: Path) -> str | None:
    """The one kind a Takeout folder's readable products are (Gemini alone beside Google Photos), else None."""
    found = _folder_products(folder)
    return next(iter(found[1])) if found is not None and len(found[1]) == 1 else None


def single_kind_of_names(names: list[str]) -> str | None:
    """The one kind the readable products of a Takeout zip's member names are, else None."""
    names = [n for n in names if not is_junk_member(n) and not n.endswith("/")]
    rels = [n.split("/", 1)[1] for n in names if n.split("/", 1)[0].lower() == "takeout" and "/" in n]
    if not rels or len(rels) != len(names):
        return None
    kinds, _ = _kinds_of(rels)
    return next(iter(kinds)) if len(kinds) == 1 else None
