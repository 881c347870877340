"""A folder of exports of several kinds: `mem.py import FOLDER` without a FORMAT.

A download folder often holds a WhatsApp chat, a contacts file and a notes folder side by side.
Read as one kind (markdown, because there are notes) the others were left out without a word.
Here each top-level export file is imported as what it is (WhatsApp .txt/.zip, vCard .vcf, a
ChatGPT/Claude export zip), the notes below the folder as one markdown import, the folder's own
conversations*.json as its chat export. Every part is parsed before anything is written: one
that cannot be read fails the whole import, naming it. A top-level .txt/.zip/.vcf that is no
export of any kind is skipped with a warning naming it (a readme.txt next to the chats).

A WhatsApp "with media" zip is such a mix too: a contact shared in the chat travels as a .vcf
beside the chat text. Its cards are imported as contacts (:func:`zip_plan`), not only counted
as media of the chat. Contacts go first, in a folder as in a zip: their names then put names
on the chat's senders known only by a number.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from importers import ImportFormatError, delivered, takeout
from importers.registry import PARSERS
from memengine.errors import UserError
from memengine.ingest import ImportSummary, _parse_all, import_path
from memengine.store import MemoryStore

_FILE_SUFFIXES = {".txt", ".zip", ".vcf"}


def mixed_plan(folder: Path) -> tuple[list[tuple[Path, str]], list[str]] | None:
    """((path, format) parts, warnings) when ``folder`` holds exports of more than one kind;
    None when it holds one kind (the single-format folder imports handle it)."""
    from importers import notion
    from importers.detect import detect, other_notes

    takeout_plan = takeout.folder_plan(folder)  # a Google Takeout: each product as what it is
    if takeout_plan is not None:
        return _contacts_first(takeout_plan[0]), takeout_plan[1]
    parts: list[tuple[Path, str]] = []
    warnings: list[str] = []
    entries = sorted(p for p in folder.iterdir() if not p.name.startswith("."))
    for p in entries:
        if p.is_file() and p.suffix.lower() in _FILE_SUFFIXES:
            try:
                kind = detect(p)
            except ImportFormatError as exc:
                warnings.append(f"{p}: skipped: {exc.reason.split('; expected ')[0]}")
                continue
            inner = zip_plan(p) if p.suffix.lower() == ".zip" else None
            parts += inner[0] if inner else [(p, kind)]  # a chat zip's contact cards too
            warnings += inner[1] if inner else []
        elif p.is_dir() and (p / "_chat.txt").is_file():  # an unzipped iOS chat
            parts.append((p / "_chat.txt", "whatsapp"))
    if any(re.fullmatch(r"conversations(?:[-_]\d+)?" + delivered.BROWSER_COPY + r"\.json", p.name.lower()) for p in entries):
        try:
            parts.append((folder, detect(folder)))
        except ImportFormatError as exc:
            warnings.append(f"{folder}: skipped: {exc.reason}")
    chat_dirs = {p.parent for p, fmt in parts if p.name == "_chat.txt"}
    has_notes = any(not any(d in q.parents for d in chat_dirs)
                    for suffix in ("*.md", "*.markdown", "*.org", "*.enex", "Keep/*.json") for q in folder.rglob(suffix))
    # notes that are no Markdown: web pages (Apple Notes, Evernote, Joplin), Notion tables
    has_notes = has_notes or other_notes(folder) or any(notion.is_database(q) for q in folder.rglob("*.csv"))
    if has_notes and not any(p == folder for p, _ in parts):
        # the folder's notes part reads a backup file beside them (Standard Notes) itself
        parts = [(p, fmt) for p, fmt in parts if not (fmt == "markdown" and p.suffix.lower() in (".txt", ".json"))]
        parts.append((folder, "markdown"))
    if len({fmt for _, fmt in parts}) < 2:
        return None
    return _contacts_first(parts), warnings


def _contacts_first(parts: list[tuple[Path, str]]) -> list[tuple[Path, str]]:
    return sorted(parts, key=lambda part: part[1] != "vcf")  # stable: the rest keep their order


def zip_plan(path: Path) -> tuple[list[tuple[Path, str]], list[str]] | None:
    """((path, format) parts, warnings) for a WhatsApp zip holding contact cards (.vcf members):
    the cards as a vCard import, then the chat; a Google Takeout's zip of several products
    (:func:`importers.takeout.zip_plan`); None for any other file. Cards that cannot be
    read leave the chat alone, with a warning naming them."""
    from importers._common import ZIP_OPEN_ERRORS, has_member, is_zip
    from importers.detect import detect

    takeout_plan = takeout.zip_plan(path)  # a Google Takeout's zip: each product as what it is
    if takeout_plan is not None:
        return takeout_plan
    try:
        if not (path.is_file() and is_zip(path) and detect(path) == "whatsapp"):
            return None
    except ZIP_OPEN_ERRORS:  # ImportFormatError is a ValueError
        return None  # the chat import names what is wrong with the file
    if not has_member(path, ".vcf"):  # in the zip, or in the chat zips zipped inside it
        return None
    try:
        _parse_all(path, "vcf", {})
    except UserError as exc:
        return [(path, "whatsapp")], [f"{path}: contact cards skipped: {exc.message}"]
    return [(path, "vcf"), (path, "whatsapp")], []


def import_mixed(store: MemoryStore, parts: list[tuple[Path, str]], warnings: list[str], *, dry_run: bool = False,
                 episodes: bool = True, progress: Callable[[int], None] | None = None,
                 set_total: Callable[[int, int], None] | None = None, add_total: Callable[[int], None] | None = None,
                 phase: Callable[[str], None] | None = None, **options: Any) -> list[ImportSummary]:
    """Import every part of a mixed folder (:func:`mixed_plan`), each as its own kind; all are
    parsed first, so a broken one fails the import before anything is written. Progress as
    ingest.import_path's, over every part (their first pass's counts give the total)."""
    if options.get("thread") and sum(fmt == "whatsapp" for _, fmt in parts) != 1:
        raise UserError("--thread names one chat: import the files of a folder one by one to name them")
    chat_options = {k: v for k, v in options.items() if v is not None}
    counts = [_parse_all(path, fmt, _for(fmt, chat_options), store)[1] for path, fmt in parts]
    if set_total and not dry_run:
        grouped = sum(n for n, (_, fmt) in zip(counts, parts) if episodes and fmt in PARSERS and PARSERS[fmt].conversational)
        set_total(sum(counts), grouped)
    summaries = [import_path(store, path, fmt, dry_run=dry_run, episodes=episodes, progress=progress,
                             add_total=add_total, phase=phase, **_for(fmt, chat_options)) for path, fmt in parts]
    if summaries and warnings:
        summaries[0].warnings.extend(warnings)
    return summaries


def _for(fmt: str, options: dict[str, Any]) -> dict[str, Any]:
    """The options that concern ``fmt`` (--date-order is WhatsApp's, --all-branches ChatGPT's ...)."""
    wanted = {"whatsapp": {"date_order", "thread"}, "chatgpt": {"all_branches", "include_tools"},
              "claude": {"all_branches", "include_tools"}}.get(fmt, set())
    return {k: v for k, v in options.items() if k in wanted and fmt in PARSERS}
