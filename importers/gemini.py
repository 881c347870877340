"""Gemini Apps (formerly Bard) as Google Takeout gives it: "My Activity" in JSON (``Takeout/My Activity/Gemini Apps/
MyActivity.json``, alone, in its folder or in the Takeout's zip): a list, newest first, of activity entries
``{"header": "Gemini Apps", "title": "Prompted …", "time": "2024-04-02T07:31:09.502Z", "safeHtmlItem": [{"html":
"<p>the answer</p>"}]}``. A prompt is the account owner's: "User" (``from_me``), its answer "Gemini" at the same
time. Other lines ("Used Gemini Apps", "Gave feedback: …", a Gem created) carry no words of a conversation: system.

Takeout keeps no conversation, so the turns of one UTC day are one chat ("Gemini Apps 2024-04-02"). Times are UTC.
The HTML form of My Activity (Takeout's default) holds the same entries with times in the exporter's locale and zone
abbreviation, which no parser can place: it is refused saying to export JSON (:func:`refused`)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from importers import ImportFormatError, ImportReport, Record, gemini_html, html_notes
from importers._tree import Tree, load_json
from importers.chatturns import SYSTEM, Turns, iso_date, text_of

NAME = "gemini"
FILE = "myactivity.json"
PAGE = "myactivity.html"  # the HTML form (Takeout's default): importers.gemini_html
HEADERS = ("Gemini Apps", "Bard")
FOLDERS = ("gemini apps", "bard")
_HEAD_RE = re.compile(r'"header"\s*:\s*"(?:Gemini Apps|Bard)"')
_PROMPTED_RE = re.compile(r"^Prompted\s+", re.IGNORECASE)
_HTML_HEAD_RE = re.compile(r"mdl-typography--title\">\s*(?:Gemini Apps|Bard)\s*<br", re.IGNORECASE)


def is_member(name: str) -> bool:
    """Whether a relative name is Gemini's activity file (``…/Gemini Apps/MyActivity.json``, or its HTML form)."""
    parts = name.lower().replace("\\", "/").split("/")
    return parts[-1] in (FILE, PAGE) and len(parts) >= 2 and parts[-2] in FOLDERS


def is_head(name: str, head: str) -> bool:
    """Whether a JSON file is Gemini's activity, by its name and its first entry's header."""
    return name.lower() == FILE and head.lstrip("\ufeff \t\r\n")[:1] == "[" and bool(_HEAD_RE.search(head[:8192]))


def refused(name: str, head: str) -> str | None:
    """What a My Activity page is when no reader takes it: none since round layouts34 reads the HTML form
    (:mod:`importers.gemini_html`); kept for the callers that ask."""
    return None


def find(folder: Path) -> Path | None:
    """Gemini's activity file in a Takeout's folder (its top, "Takeout/", "My Activity/" or "Gemini Apps/"), or None."""
    for base in ("MyActivity.json", "MyActivity.html"):  # the JSON first: the exact form
        for rel in ("Takeout/My Activity", "My Activity", "."):
            for sub in ("Gemini Apps", "Bard"):
                p = folder / rel / sub / base
                if p.is_file():
                    return p
        p = folder / base
        if folder.name.lower() in FOLDERS and p.is_file():
            return p
    return None


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of MyActivity.json, its Takeout folder or zip; bad input: a one-line ImportFormatError."""
    file = path if path.is_file() and path.suffix.lower() in (".json", ".html", ".htm") else \
        find(path) if path.is_dir() else None
    if file is not None:
        where = str(file)
        if where.lower().endswith((".html", ".htm")):  # the page is read a block at a time
            yield from gemini_html.parse_page(lambda: file.open("rb"), where, report)
            return
        data = file.read_bytes()
    else:
        tree = Tree(path)
        members = sorted((n for n in tree.names if is_member(n)), key=lambda n: not n.lower().endswith(".json"))
        if not members:
            raise ImportFormatError("no My Activity/Gemini Apps/MyActivity.json of a Google Takeout", str(path))
        where = tree.where(members[0])
        if where.lower().endswith((".html", ".htm")):
            yield from gemini_html.parse_page(lambda: tree.open(members[0]), where, report)
            return
        data = tree.read(members[0])
    entries = load_json(data, where)
    if not isinstance(entries, list):
        raise ImportFormatError("MyActivity.json is not a list of activity entries", where)
    turns = Turns(NAME, report)
    read: list[tuple[datetime, int, str, str]] = []
    for n, entry in enumerate(entries, start=1):
        what = f"activity {n}"
        if not isinstance(entry, dict):
            raise ImportFormatError(f"{what}: not an object", where)
        if str(entry.get("header") or "") not in HEADERS:
            continue  # another product's line in a merged file: not Gemini's
        when = iso_date(entry.get("time"), f'{what}: "time"', where)
        if when.tzinfo is None:
            when = when.replace(tzinfo=timezone.utc)
        title = text_of(entry.get("title"))
        prompt = _PROMPTED_RE.sub("", title, count=1) if _PROMPTED_RE.match(title) else None
        if prompt is None:
            turns.skip(SYSTEM)
            continue
        read.append((when.astimezone(timezone.utc), -n, prompt, _answer(entry.get("safeHtmlItem"), what, where)))
    read.sort()  # time order; the file is newest first, so one instant's entries keep theirs reversed
    yield from gemini_html.emit(turns, read)


def _answer(items: Any, what: str, where: str) -> str:
    """The answer's words: each ``safeHtmlItem``'s HTML made lines."""
    if items is None:
        return ""
    if not isinstance(items, list):
        raise ImportFormatError(f'{what}: "safeHtmlItem" is not a list', where)
    parts = []
    for item in items:
        html = item.get("html") if isinstance(item, dict) else None
        if isinstance(html, str) and html.strip():
            parts.append("\n".join(html_notes.to_lines(html, "")))
    return "\n\n".join(parts)
