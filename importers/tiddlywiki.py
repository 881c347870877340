"""TiddlyWiki's notes, read by the markdown importer (:mod:`importers.markdown`).

A tiddler is saved as a ``.tid`` file (a wiki folder, or "export tiddler" as a file): lines of
``field: value`` (``title``, ``created``, ``modified``, ``tags``, ``type`` ...), a blank line, then the text.
The JSON export ("export all" as JSON, ``tiddlers.json``) is a list of objects of the same fields, the text
under ``text``. Each tiddler is a note: its title the title, its ``created`` time (UTC, written
``YYYYMMDDhhmmssmmm``) the date, its ``tags`` the tags (``Home [[Boiler service]]``: spaces part tags, double
brackets hold one with spaces). System tiddlers (``$:/...``: the wiki's state, plugins, the story list) and
tiddlers of no text are no notes. The wikitext's bold ``''x''`` and italic ``//x//`` read as Markdown's, so the
notes read as any other; the rest of the text is kept as written.

Each note is handed back as Markdown with a JSON front matter (JSON is YAML) for the markdown reader."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from importers import ImportReport
from importers._jsonstream import DEFAULT_MAX_JSON_BYTES, _build_items, _json_errors, _opened

TID_SUFFIX = ".tid"
HEAD_BYTES = 4096
MAX_TID_BYTES = 8 * 1024 * 1024
_FIELD_RE = re.compile(r"^([^\s:]{1,64}):\s?(.*)$")
_TAG_RE = re.compile(r"\[\[([^\]]+)\]\]|(\S+)")
_STAMP_RE = re.compile(r"^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{0,3})$")
# the first object of a JSON export: a title and a TiddlyWiki time stamp (17 digits) or a system tiddler
_HEAD_RE = re.compile(rb'^\s*\[\s*\{[^{}]*"title"\s*:', re.DOTALL)
_TW_MARK_RE = re.compile(rb'"(?:created|modified)"\s*:\s*"\d{14,17}"|"title"\s*:\s*"\$:/')
_BOLD_RE = re.compile(r"''(?=\S)(.+?)(?<=\S)''")
_ITALIC_RE = re.compile(r"(?<![:/])//(?=\S)(.+?)(?<=\S)//")  # not the "//" of a URL


def is_export_head(head: bytes) -> bool:
    """True when a file's first bytes are a TiddlyWiki JSON export (a list of tiddlers)."""
    return bool(_HEAD_RE.match(head.lstrip(b"\xef\xbb\xbf"))) and bool(_TW_MARK_RE.search(head))


def is_export(path: Path) -> bool:
    """True for a TiddlyWiki JSON export file (by its first bytes)."""
    try:
        with path.open("rb") as fh:
            return is_export_head(fh.read(HEAD_BYTES))
    except OSError:
        return False


def stamp(value: Any) -> datetime | None:
    """A TiddlyWiki time ("20240314180112000": UTC, to the millisecond) as an aware datetime; None otherwise."""
    m = _STAMP_RE.match(str(value or "").strip())
    if not m:
        return None
    try:
        y, mo, d, h, mi, sec = (int(g) for g in m.groups()[:6])
        return datetime(y, mo, d, h, mi, sec, tzinfo=timezone.utc)
    except ValueError:
        return None


def tags(value: Any) -> list[str]:
    """The tags of a ``tags`` field: words apart, ``[[two words]]`` one tag."""
    if isinstance(value, list):
        return [str(t) for t in value if str(t).strip()]
    return [m.group(1) or m.group(2) for m in _TAG_RE.finditer(str(value or ""))]


def note(fields: dict[str, Any]) -> tuple[str, str] | None:
    """(title, Markdown with front matter) of one tiddler's fields; None for a system tiddler, one of no title
    or no text."""
    title = str(fields.get("title") or "").strip()
    text = str(fields.get("text") or "")
    if not title or title.startswith("$:/") or not text.strip():
        return None
    kind = str(fields.get("type") or "")
    if kind and not kind.startswith("text/"):
        return None  # a JSON data tiddler, an image: no words
    front: dict[str, Any] = {"title": title}
    when = stamp(fields.get("created")) or stamp(fields.get("modified"))
    if when is not None:
        front["created"] = when.strftime("%Y-%m-%dT%H:%M:%SZ")
    if tag_list := tags(fields.get("tags")):
        front["tags"] = tag_list
    body = _ITALIC_RE.sub(r"*\1*", _BOLD_RE.sub(r"**\1**", text.replace("\r\n", "\n")))
    lines = "\n".join(f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in front.items())
    return title, f"---\n{lines}\n---\n\n{body}\n"


def tid_fields(text: str) -> dict[str, Any]:
    """The fields of a ``.tid`` file's text: its header lines, then ``text`` after the first blank line."""
    head, _, body = text.replace("\r\n", "\n").lstrip("\ufeff").partition("\n\n")
    fields: dict[str, Any] = {}
    for line in head.split("\n"):
        m = _FIELD_RE.match(line)
        if m:
            fields[m.group(1).lower()] = m.group(2).strip()
    fields["text"] = body
    return fields


def notes(file: Path, text: str | None, report: ImportReport) -> Iterator[tuple[str, str]]:
    """(title, Markdown) of each tiddler of a ``.tid`` file (its ``text`` read already) or, when ``text`` is
    None, of a JSON export streamed a tiddler at a time (a tiddler that is no object is skipped, said once)."""
    if text is not None:
        found = note(tid_fields(text))
        if found is not None:
            yield found
        return
    where = str(file)
    odd = 0
    with _json_errors(where), _opened((file, None), DEFAULT_MAX_JSON_BYTES) as fh:
        import ijson

        for item in _build_items(ijson.basic_parse(fh, use_float=True), ("item",), where, "tiddler"):
            if not isinstance(item, dict):
                odd += 1
                continue
            found = note(item)
            if found is not None:
                yield found
    if odd:
        report.warn(f"{file.name}: {odd} entries that are no tiddler; skipped")
