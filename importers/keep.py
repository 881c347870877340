"""Google Keep notes, as Google Takeout exports them: ``Takeout/Keep/<title>.json`` (one note per
file, beside an ``.html`` rendering of it, its attachments and ``Labels.txt``).

The markdown importer reads them with the notes of other apps (:mod:`importers.markdown`): a
folder or zip holding a ``Keep`` folder of such JSON files. A note is a semantic memory
"Title: text" (a checklist as ``- [ ] item`` / ``- [x] item`` lines, a web link Keep found in it as a
"Link: <page title> <URL>" line), its labels its tags, dated
by its creation (``createdTimestampUsec``; older exports only have ``userEditedTimestampUsec``).
Trashed notes are not memories, nor is a note of only a picture (counted as media); archived and
pinned ones are, marked in the metadata, as are the addresses a note is shared with (``sharees``: no text). The
``.html`` files say the same again and are not read, unless there is no JSON beside them (older Takeouts):
then the page is read (:func:`html_records`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import datetime, timezone
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from importers import ImportReport, Record

MAX_NOTE_BYTES = 4 * 1024 * 1024  # Keep caps a note at 20,000 characters: a bigger file is no note


def is_keep_path(rel: str) -> bool:
    """True for a ``.json`` file directly in a folder named ``Keep`` (Takeout's layout)."""
    parts = rel.replace("\\", "/").split("/")
    return len(parts) >= 2 and parts[-2].lower() == "keep" and parts[-1].lower().endswith(".json")


def is_keep_note(obj: Any) -> bool:
    """A Keep note object: text or a checklist, and Keep's own time stamps."""
    return isinstance(obj, dict) and ("textContent" in obj or "listContent" in obj) and (
        "userEditedTimestampUsec" in obj or "createdTimestampUsec" in obj)


def _when(obj: dict[str, Any]) -> datetime | None:
    for key in ("createdTimestampUsec", "userEditedTimestampUsec"):
        value = obj.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
            try:
                return datetime.fromtimestamp(value / 1_000_000, tz=timezone.utc)
            except (OverflowError, OSError, ValueError):
                continue
    return None


def _links(obj: dict[str, Any]) -> list[tuple[str, str]]:
    """(title, URL) of the web links Keep found in a note (``annotations`` of source ``WEBLINK``)."""
    out: list[tuple[str, str]] = []
    for a in obj.get("annotations") or []:
        if isinstance(a, dict) and isinstance(a.get("url"), str) and a["url"].strip() and \
                str(a.get("source") or "WEBLINK").upper() == "WEBLINK":
            out.append((" ".join(str(a.get("title") or "").split()), a["url"].strip()))
    return out


def _body(obj: dict[str, Any]) -> str:
    text = str(obj.get("textContent") or "").strip()
    items = [i for i in obj.get("listContent") or [] if isinstance(i, dict) and str(i.get("text") or "").strip()]
    checklist = "\n".join(f"- [{'x' if i.get('isChecked') else ' '}] {str(i['text']).strip()}" for i in items)
    # a web link Keep shows under the note (its page's title and address) is part of what the note says
    links = "\n".join(f"Link: {title} {url}" if title else f"Link: {url}" for title, url in _links(obj))
    return "\n".join(p for p in (text, checklist, links) if p)


def records(file: Path, rel: str, report: ImportReport) -> list[Record]:
    """The memory of one Keep note file (none for a trashed or empty note); a file that is no
    Keep note is skipped with a warning naming it."""
    if file.stat().st_size > MAX_NOTE_BYTES:
        report.skipped_oversized += 1
        report.warn(f"{rel}: over {MAX_NOTE_BYTES} bytes, no Keep note; skipped")
        return []
    try:
        obj = json.loads(file.read_bytes().decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        report.skipped_malformed += 1
        report.warn(f"{rel}: not a Keep note, invalid JSON ({' '.join(str(exc).split())[:200]}); skipped")
        return []
    if not is_keep_note(obj):
        report.warn(f"{rel}: not a Keep note (no textContent/listContent); skipped")
        return []
    report.messages_seen += 1
    if obj.get("isTrashed") is True:
        report.skipped_system += 1
        return []
    body = _body(obj)
    if not body:  # a note of only a picture (a photo of a receipt) is media, as a chat's photo alone is
        if any(isinstance(a, dict) and a.get("filePath") for a in obj.get("attachments") or []):
            report.skipped_media += 1
        else:
            report.skipped_empty += 1
        return []
    title = str(obj.get("title") or "").strip()
    labels = [str(x.get("name")).strip() for x in obj.get("labels") or [] if isinstance(x, dict) and x.get("name")]
    metadata: dict[str, Any] = {"path": rel, "title": title, "app": "keep"}
    for key, flag in (("isPinned", "pinned"), ("isArchived", "archived")):
        if obj.get(key) is True:
            metadata[flag] = True
    files = [str(a.get("filePath")) for a in obj.get("attachments") or [] if isinstance(a, dict) and a.get("filePath")]
    if files:
        metadata["attachments"] = files
    urls = [url for _, url in _links(obj)]
    if urls:
        metadata["urls"] = urls
    # who else the note is shared with (Takeout lists the owner too): people of the note, not its words
    shared = [str(x["email"]).strip() for x in obj.get("sharees") or []
              if isinstance(x, dict) and x.get("isOwner") is not True and isinstance(x.get("email"), str) and x["email"].strip()]
    if shared:
        metadata["shared_with"] = shared
    return [Record(content=f"{title}: {body}" if title else body, ref=f"markdown:{rel}::0", source="markdown",
                   memory_type="semantic", event_at=_when(obj), thread=rel, position=0, tags=labels,
                   metadata=metadata, line=1)]


# --- Keep's older Takeout: an .html page per note and no JSON ------------------------------------------------
# <div class="note DEFAULT"><div class="heading"><div class="meta-icons"><span class="pinned" title="Note pinned">
# </span></div>Mar 14, 2018, 10:00:00 AM</div><div class="title">Gate code</div>
# <div class="content">Garage gate: 4821<br>Front door: 1357</div> ... <span class="label-name">Home</span>;
# a checklist is <li class="listitem checked"><span class="bullet">☑</span><span class="text">rice</span></li>;
# web links are <a class="annotation-link" href="...">title</a>; attachments <div class="attachments"> of
# <img src>, <audio src>, <a href>; the people it is shared with <div class="sharees"> of <li class="sharee">
# holding an address (as the text, a title attribute or a mailto: link), the owner's marked "owner".
_KEEP_HTML_RE = re.compile(r'<div class="note\b[^"]*">.*?<div class="(?:title|content|attachments)">', re.DOTALL)
# the heading's time as the Takeout account's language writes it: English (US, UK), numeric day-first with dots
# (German, Russian, Polish ...); other languages' month names are read by the caller's ``written`` reader
_HEADING_FORMATS = ("%b %d, %Y, %I:%M:%S %p", "%b %d, %Y, %H:%M:%S", "%d %b %Y, %H:%M:%S", "%d.%m.%Y, %H:%M:%S",
                    "%d.%m.%Y %H:%M:%S")
_EMAIL_RE = re.compile(r"[^\s<>\"'@:;,()]{1,64}@[^\s<>\"'@:;,()]{1,255}\.[^\s<>\"'@:;,()]{2,63}")
_VOID = frozenset({"br", "img", "meta", "link", "input", "hr", "source", "wbr", "area", "col", "embed", "param", "track"})
MAX_PAGE_PEOPLE = 1000  # Keep shares a note with at most 50 people: more is no real page
MAX_PAGE_FILES = 1000


def is_keep_html(text: str) -> bool:
    """True for a page Keep's Takeout wrote for a note (its ``note``/``title``/``content`` divs)."""
    return _KEEP_HTML_RE.search(text[:65536]) is not None


class _KeepPage(HTMLParser):
    """The parts of one Keep note page, told by the classes of its elements. How many open elements carry
    each class is counted (not searched in a stack), so a page of deeply nested elements costs linear time."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, ...]] = []  # the classes of each open element
        self.open: dict[str, int] = {}  # class -> open elements carrying it
        self.parts: dict[str, list[str]] = {"heading": [], "title": [], "content": [], "label-name": []}
        self.links: list[tuple[str, str]] = []
        self.files: list[str] = []
        self.people: list[str] = []
        self.flags: set[str] = set()
        self.href = ""

    def _inside(self, cls: str) -> bool:
        return self.open.get(cls, 0) > 0

    def _person(self, text: str) -> None:
        for email in _EMAIL_RE.findall(text):
            if email not in self.people and len(self.people) < MAX_PAGE_PEOPLE:
                self.people.append(email)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        classes = tuple(str(a.get("class") or "").split())
        if self._inside("meta-icons") and ({"pinned", "archived", "trashed"} & set(classes)):
            self.flags.update({"pinned", "archived", "trashed"} & set(classes))
        if self._inside("attachments") and len(self.files) < MAX_PAGE_FILES:
            src = str(a.get("src") or a.get("href") or "").strip()
            if src and src not in self.files and tag in ("img", "audio", "video", "source", "a", "embed", "object"):
                self.files.append(src)
        if (self._inside("sharees") or "sharee" in classes) and "owner" not in classes and not self._inside("owner"):
            for key in ("title", "href", "data-email"):
                self._person(str(a.get(key) or "").removeprefix("mailto:"))
        if tag == "br" and self._inside("content"):
            self.parts["content"].append("\n")
            return
        if tag in _VOID:
            return
        if tag == "li" and "listitem" in classes:
            self.parts["content"].append(f"\n- [{'x' if 'checked' in classes else ' '}] ")
        if tag == "a" and "annotation-link" in classes:
            self.href = str(a.get("href") or "")
        if tag in ("head", "style", "script"):
            classes = ("skip",)
        self.stack.append(classes)
        for c in classes:
            self.open[c] = self.open.get(c, 0) + 1

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID:
            return
        if self.stack:
            for c in self.stack.pop():
                self.open[c] -= 1
        if tag == "a" and self.href:
            self.links.append(("", self.href))
            self.href = ""

    def handle_data(self, data: str) -> None:
        if self._inside("skip") or self._inside("bullet") or self._inside("meta-icons") or self._inside("attachments"):
            return
        if self._inside("sharees"):  # who it is shared with is no text of the note
            if not self._inside("owner"):
                self._person(data)
            return
        if self.href:
            self.links.append((" ".join(data.split()), self.href))
            self.href = ""
            return
        for part in ("label-name", "title", "content", "heading"):  # innermost first: a label sits in no title
            if self._inside(part):
                self.parts[part].append(data)
                return


def _heading_time(text: str, written: Callable[[str], datetime | None] | None) -> datetime | None:
    """The time in a page's heading, as the exporter's clock wrote it (naive): "Mar 14, 2018, 10:00:00 AM",
    "14.03.2018, 10:00:00", else what ``written`` reads ("15 mars 2018 à 18:30:00")."""
    value = " ".join(text.replace("\u202f", " ").split())
    for fmt in _HEADING_FORMATS:
        try:
            return datetime.strptime(value, fmt)
        except ValueError:
            continue
    return written(value) if written is not None and value else None


def html_records(file: Path, rel: str, report: ImportReport,
                 written: Callable[[str], datetime | None] | None = None) -> list[Record]:
    """The memory of one Keep note page (older Takeouts wrote no JSON): as :func:`records` makes of a JSON
    note, its heading's time its date (``written`` reads one with a month name of any language), its
    attachments, pinned/archived icons and sharees in the metadata; a trashed page is none, a page of
    attachments only is media, an empty page is none."""
    if file.stat().st_size > MAX_NOTE_BYTES:
        report.skipped_oversized += 1
        report.warn(f"{rel}: over {MAX_NOTE_BYTES} bytes, no Keep note; skipped")
        return []
    page = _KeepPage()
    page.feed(file.read_bytes().decode("utf-8", errors="replace"))
    page.close()
    report.messages_seen += 1
    if "trashed" in page.flags:
        report.skipped_system += 1
        return []
    content = "".join(page.parts["content"])
    lines = [" ".join(ln.split()) for ln in content.split("\n")]
    body = "\n".join(ln for ln in lines if ln)
    links = [(t, u) for t, u in page.links if u.strip()]
    body = "\n".join(p for p in (body, "\n".join(f"Link: {t} {u}" if t else f"Link: {u}" for t, u in links)) if p)
    if not body:
        if page.files:
            report.skipped_media += 1
        else:
            report.skipped_empty += 1
        return []
    title = " ".join("".join(page.parts["title"]).split())
    labels = [" ".join(x.split()) for x in page.parts["label-name"] if x.strip()]
    metadata: dict[str, Any] = {"path": rel, "title": title, "app": "keep"}
    for flag in ("pinned", "archived"):
        if flag in page.flags:
            metadata[flag] = True
    if page.files:
        metadata["attachments"] = page.files
    if links:
        metadata["urls"] = [u for _, u in links]
    if page.people:
        metadata["shared_with"] = page.people
    heading = " ".join("".join(page.parts["heading"]).split())
    when = _heading_time(heading, written)
    if when is None and heading:  # a date the page shows but no reader can read: said, never guessed
        report.warn(f"{rel}: unreadable date {heading[:80]!r}; no date")
    return [Record(content=f"{title}: {body}" if title else body, ref=f"markdown:{rel}::0", source="markdown",
                   memory_type="semantic", event_at=when, thread=rel,
                   position=0, tags=labels, metadata=metadata, line=1)]
