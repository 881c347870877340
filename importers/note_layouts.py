"""Note layouts of round 9 of unseen exports (and later rounds'), read for :mod:`importers.markdown`:

* Org-mode in a ``.md``: a note whose first line is an Org file keyword (``#+title:``, ``#+date:``,
  ``#+filetags:``; org-roam and Logseq users write them) is Org (:func:`is_org_md`): read as an ``.org``
  file is, so its keywords are its title, date and tags, not text nor ``#+title`` tags;
* Org drawers in a ``.md`` (Logseq writes ``:LOGBOOK:`` clock lines under a task, pages moved from
  org-roam keep a ``:PROPERTIES:`` drawer): no text; a drawer that opens the note is its properties
  (front matter: its ``:CREATED:`` dates the note) (:func:`drawers`);
* Logseq's ``#+BEGIN_QUOTE`` … ``#+END_QUOTE`` (and NOTE, TIP …) blocks in Markdown: the block's words, the
  bullet that opens it keeping them; Roam's ``{{[[TODO]]}}``/``{{[[DONE]]}}`` the to-do boxes every other
  importer writes (:func:`blocks_and_markers`);
* a ``Tags::`` attribute (Roam, Dataview) tags the note (:func:`field_tags`);
* Dendron vaults (``dendron.yml``): a note named ``home.boiler.service.md`` sits under ``home.boiler`` and
  ``home``: its parents' titles come first (:func:`dendron_titles`, :func:`dendron_parents`);
* Obsidian Excalidraw drawings (front matter ``excalidraw-plugin``): the drawing's words are its
  "Text Elements" section; the plugin's banner and the compressed drawing are not (:func:`is_excalidraw`);
* Obsidian daily notes named by the vault's own format (round 13, :func:`daily_date`); the trash folders of
  note apps (:data:`TRASH_FOLDERS`).
"""

from __future__ import annotations

import json
import os
import re
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from importers import ImportFormatError, codepages, orgmode, written_dates
from importers._common import decode_text, split_lines
from importers.frontmatter import front_matter

_ORG_KEYWORD_RE = re.compile(r"^#\+[A-Za-z_]+:")
_DRAWER_START_RE = re.compile(r"^\s*:([A-Z][A-Z_-]*):\s*$")
_BLOCK_RE = re.compile(r"^(\s*)(?:([-*+]\s+))?#\+(?:BEGIN|END)_\w+.*$", re.IGNORECASE)
_ROAM_MARKER_RE = re.compile(r"\{\{\s*(?:\[\[)?(TODO|DONE)(?:\]\])?\s*\}\}\s*")
# Roam's block ref "((a1B2c3D4e))" (a nine-character uid) and embed "{{embed: ((…))}}" / "{{[[embed]]: ((…))}}" in an
# outline's bullet: a ref its export does not resolve (Roam's markdown export writes the uid, not the words) says
# nothing, dropped with the space before it; a bullet left empty goes too (a Roam JSON export's refs are resolved by
# importers.roam before this)
_ROAM_REF_RE = re.compile(r"[ \t]?(?:\{\{\s*(?:\[\[)?embed(?:\]\])?\s*:?\s*\(\([\w-]{9}\)\)\s*\}\}|\(\([\w-]{9}\)\))")
_BULLET_RE = re.compile(r"^\s*[-*+]\s")
_EMPTY_BULLET_RE = re.compile(r"^\s*[-*+]\s*$")
_WIKI_RE = re.compile(r"\[\[([^\[\]]+)\]\]|#\[\[([^\[\]]+)\]\]|#([^\s#,\[\]]+)")
TAG_FIELDS = frozenset({"tags", "tag"})
DENDRON_CONFIG = "dendron.yml"
DENDRON_KEYS = frozenset({"id", "title", "desc", "updated", "created"})  # its bookkeeping, no words
TEXT_ELEMENTS = "Text Elements"
# Apple Notes' trash, as its iCloud data copy and exporters name the folder (in the languages met): deleted notes
TRASH_FOLDERS = frozenset({"recently deleted", "zuletzt gelöscht", "suppressions récentes", "eliminados recientemente",
                           "eliminati di recente", "apagadas recentemente", "recentemente apagadas", "最近削除した項目"})


def is_org_md(lines: list[str]) -> bool:
    """True for a ``.md`` note whose first line is an Org file keyword (Markdown never starts ``#+``)."""
    first = next((ln for ln in lines if ln.strip()), "")
    return _ORG_KEYWORD_RE.match(first) is not None


def drawers(lines: list[str]) -> tuple[dict[str, Any], list[str]]:
    """(the properties of a drawer opening the note, the lines without any drawer). A drawer is
    ``:NAME:`` … ``:END:``; one never closed is left as written (it may be someone's text)."""
    if not any(orgmode.DRAWER_END_RE.match(ln) for ln in lines):
        return {}, lines
    props: dict[str, Any] = {}
    out: list[str] = []
    i = 0
    while i < len(lines):
        start = _DRAWER_START_RE.match(lines[i])
        end = next((j for j in range(i + 1, min(len(lines), i + 200)) if orgmode.DRAWER_END_RE.match(lines[j])), None) \
            if start and start.group(1) != "END" else None
        if end is None:
            out.append(lines[i])
            i += 1
            continue
        if not any(ln.strip() for ln in out) and start is not None and start.group(1) == "PROPERTIES":
            for ln in lines[i + 1:end]:
                m = orgmode.PROPERTY_RE.match(ln)
                if m:
                    props[m.group(1).lower()] = orgmode.timestamp(m.group(2).strip())
        i = end + 1
    return props, out


def blocks_and_markers(lines: list[str]) -> list[str]:
    """``lines`` without ``#+BEGIN_X``/``#+END_X`` marker lines (a bullet holding the opening marker takes
    the block's first line, "- Gas smell: …"), Roam's task markers as to-do boxes, and Roam's block refs its
    export left unresolved (see _ROAM_REF_RE)."""
    out: list[str] = []
    carry: str | None = None  # the bullet of an opening marker, waiting for the block's first line
    for line in lines:
        if "((" in line and _BULLET_RE.match(line):
            dropped = _ROAM_REF_RE.sub("", line)
            if dropped != line and _EMPTY_BULLET_RE.match(dropped):
                continue
            line = dropped
        if "{{" in line:
            line = _ROAM_MARKER_RE.sub(lambda m: "[x] " if m.group(1) == "DONE" else "[ ] ", line)
        if "#+" in line and (m := _BLOCK_RE.match(line)) is not None:
            carry = f"{m.group(1)}{m.group(2)}" if m.group(2) and carry is None else carry
            continue
        if carry is not None and line.strip():
            line, carry = carry + line.strip(), None
        out.append(line)
    if carry is not None:
        out.append(carry.rstrip())
    return out


def field_tags(value: str) -> list[str]:
    """The tags a ``Tags::`` attribute names: ``[[people]] [[home]]``, ``#a #b``, ``a, b``."""
    found = [next(g for g in m.groups() if g) for m in _WIKI_RE.finditer(value)]
    if not found:
        found = [t.strip() for t in value.split(",")]
    return [t.strip().lstrip("#") for t in found if t.strip().lstrip("#")]


def dendron_titles(root: Path, files: list[Path]) -> dict[str, str]:
    """{note name (``home.boiler``): its title} of a Dendron vault (its ``dendron.yml`` at the root);
    {} for other notes."""
    if not (root / DENDRON_CONFIG).is_file():
        return {}
    titles: dict[str, str] = {}
    for file in files:
        if file.suffix.lower() != ".md" or file.parent != root:
            continue
        data = file.read_bytes()[:65536]
        try:
            text = decode_text(data, str(file))
        except ImportFormatError:  # not UTF-8: read as the note importer reads it (and warns about it then)
            text = data.decode(codepages.guess(data)[0], "replace")
        front, _ = front_matter(split_lines(text))
        title = front.get("title")
        titles[file.stem] = title.strip() if isinstance(title, str) and title.strip() else file.stem.rsplit(".", 1)[-1]
    return titles


def dendron_parents(stem: str, titles: dict[str, str]) -> list[str]:
    """The titles of the notes above ``stem`` in its vault's hierarchy, top first (a missing note by
    its name's part); the root note is nobody's parent."""
    parts = stem.split(".")
    return [titles.get(".".join(parts[:k]), parts[k - 1]) for k in range(1, len(parts))]


def is_excalidraw(front: dict[str, Any]) -> bool:
    """True for an Obsidian Excalidraw drawing saved as Markdown."""
    return "excalidraw-plugin" in front


# A day's heading of a journal (org-journal's "* Thursday, 14/03/24", a diary's "Monday 3/4/2024", "Donnerstag,
# 14.03.24"): a numeric date alone is ambiguous (day or month first), but its weekday tells which reading is meant.
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAY_DATE_RE = re.compile(
    r"^\s*(?P<wd>[^\W\d_]{2,14})\.?,?\s+(?P<a>\d{1,2})[/.-](?P<b>\d{1,2})[/.-](?P<y>\d{2}|\d{4})\b")


def weekday_date(title: str) -> datetime | None:
    """The day a heading "<weekday>, <n>/<n>/<year>" names when its weekday fits one reading of the numbers
    only (English weekday names, whole or cut to three letters; other languages' by their CLDR names,
    :func:`written_dates.weekday`); None otherwise."""
    m = _WEEKDAY_DATE_RE.match(title)
    if m is None:
        return None
    name = m.group("wd").lower()
    weekday = next((i for i, w in enumerate(_WEEKDAYS) if w == name or (len(name) == 3 and w.startswith(name))), None)
    if weekday is None:
        weekday = written_dates.weekday(name)
    if weekday is None:
        return None
    year = int(m.group("y")) + (2000 if len(m.group("y")) == 2 else 0)
    a, b = int(m.group("a")), int(m.group("b"))
    fits: set[datetime] = set()
    for day, month in ((a, b), (b, a)):
        try:
            when = datetime(year, month, day)
        except ValueError:
            continue
        if when.weekday() == weekday:
            fits.add(when)
    return fits.pop() if len(fits) == 1 else None


# --- Obsidian daily notes named by the vault's own format --------------------------------------------------
# The Daily notes core plugin (.obsidian/daily-notes.json: {"folder", "format"}) and the Periodic Notes plugin
# (.obsidian/plugins/periodic-notes/data.json: {"daily": {"folder", "format"}}) name each day's note by a
# Moment.js format the user chose: "DD.MM.YYYY" makes 05.04.2024 the 5th of April, which no guess can tell.
_DAILY_CONFIGS = (".obsidian/daily-notes.json", ".obsidian/plugins/periodic-notes/data.json")
_MOMENT_TOKENS = {  # longest first: the format is read left to right, a token at a time
    "YYYY": r"(?P<y>\d{4})", "YY": r"(?P<yy>\d{2})", "MMMM": r"(?P<mon>[^\W\d_]{3,20})", "MMM": r"(?P<mon>[^\W\d_]{3,20}\.?)",
    "MM": r"(?P<mo>\d{2})", "M": r"(?P<mo>\d{1,2})", "Do": r"(?P<d>\d{1,2})(?:st|nd|rd|th|\.|º)?", "DD": r"(?P<d>\d{2})",
    "D": r"(?P<d>\d{1,2})", "dddd": r"[^\W\d_]{2,20}", "ddd": r"[^\W\d_]{2,10}\.?", "dd": r"[^\W\d_]{1,4}",
}
_MOMENT_RE = re.compile(r"\[[^\]]*\]|" + "|".join(sorted(map(re.escape, _MOMENT_TOKENS), key=len, reverse=True)))
# vault root -> (when its settings were last looked at, their times, [(folder, file-name pattern)]): a vault's
# settings are read once per import (looked at again a second later: a long-lived server sees them change)
_day_formats: dict[str, tuple[float, tuple[float, ...], list[tuple[str, re.Pattern[str]]]]] = {}
RECHECK_SECONDS = 1.0


def _moment_pattern(fmt: str) -> re.Pattern[str] | None:
    """A regular expression of a Moment.js date format; None when it cannot name a day (no D, or no year)."""
    out: list[str] = []
    pos = 0
    for m in _MOMENT_RE.finditer(fmt):
        out.append(re.escape(fmt[pos:m.start()]))
        token = m.group()
        out.append(re.escape(token[1:-1]) if token.startswith("[") else _MOMENT_TOKENS[token])
        pos = m.end()
    out.append(re.escape(fmt[pos:]))
    pattern = "".join(out)
    if "(?P<d>" not in pattern or not ("(?P<y>" in pattern or "(?P<yy>" in pattern) or pattern.count("(?P<d>") > 1:
        return None
    if pattern.count("(?P<mo>") + pattern.count("(?P<mon>") != 1 or pattern.count("(?P<y") > 1:
        return None
    try:
        return re.compile(pattern, re.IGNORECASE)
    except re.error:
        return None


def _mtime(path: str) -> float:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return 0.0


def _read_formats(root: Path) -> list[tuple[str, re.Pattern[str]]]:
    found: list[tuple[str, re.Pattern[str]]] = []
    for name in _DAILY_CONFIGS:
        config = root / name
        try:
            data = json.loads(config.read_bytes()[:65536]) if config.is_file() else None
        except (OSError, ValueError, RecursionError):
            data = None
        daily = data.get("daily", data) if isinstance(data, dict) else None
        fmt = daily.get("format") if isinstance(daily, dict) else None
        if isinstance(fmt, str) and 0 < len(fmt) <= 100 and (pattern := _moment_pattern(fmt)) is not None:
            folder = str(daily.get("folder") or "").strip("/") if isinstance(daily, dict) else ""
            found.append((folder, pattern))
    return found


def _formats(root: Path) -> list[tuple[str, re.Pattern[str]]]:
    """The daily-note formats a vault's settings give (cached: see ``_day_formats``)."""
    key, now = str(root), time.monotonic()
    cached = _day_formats.get(key)
    if cached is not None and now - cached[0] < RECHECK_SECONDS:
        return cached[2]
    times = tuple(_mtime(os.path.join(key, name)) for name in _DAILY_CONFIGS)
    found = cached[2] if cached is not None and cached[1] == times else _read_formats(root)
    if len(_day_formats) > 64:
        _day_formats.clear()
    _day_formats[key] = (now, times, found)
    return found


def daily_date(root: Path, rel: str) -> datetime | None:
    """The day a note of an Obsidian vault is the daily note of, by the vault's own name format (``rel``: its
    path in the vault); None when the vault sets none, or the note is not named by it."""
    formats = _formats(root) if rel.lower().endswith(".md") else []
    for folder, pattern in formats:
        name = rel[:-3]
        if folder and name.startswith(folder + "/"):
            name = name[len(folder) + 1:]
        m = pattern.fullmatch(name) or pattern.fullmatch(name.rsplit("/", 1)[-1])
        if m is None:
            continue
        groups = m.groupdict()
        year = int(groups["y"]) if groups.get("y") else 2000 + int(groups["yy"])
        if groups.get("mon"):
            return written_dates.written_date(f"{int(groups['d'])} {groups['mon']} {year}")
        try:
            return datetime(year, int(groups["mo"]), int(groups["d"]))
        except ValueError:
            continue
    return None


_ZIM_TYPE = "Content-Type: text/x-zim-wiki"


def is_zim_head(head: bytes) -> bool:
    """True when a file's first bytes open a Zim wiki page (its Content-Type header line)."""
    return head.lstrip(b"\xef\xbb\xbf").startswith(_ZIM_TYPE.encode())
_ZIM_TITLE_RE = re.compile(r"^(={2,6})\s*(.+?)\s*\1\s*$")
_YEAR_RE = re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)")


def zim_page(text: str, stem: str) -> tuple[dict[str, str], str] | None:
    """(front matter, text) of a Zim wiki page (a ``.txt`` opening with ``Content-Type: text/x-zim-wiki``);
    None for any other text. The header lines (Content-Type, Wiki-Format, Creation-Date) are the app's: the
    creation date dates the page. The page's title heading ("====== Boiler ======", the page's name) and the
    "Created Thursday 14 March 2024" line Zim writes under it (in the app's language) repeat the name and
    date: no text. The rest is kept as written."""
    if not text.lstrip("\ufeff").startswith(_ZIM_TYPE):
        return None
    head, _, body = text.lstrip("\ufeff").replace("\r\n", "\n").partition("\n\n")
    fields = {k.strip().lower(): v.strip() for k, _, v in (ln.partition(":") for ln in head.split("\n")) if v.strip()}
    lines = body.split("\n")
    i = next((n for n, ln in enumerate(lines) if ln.strip()), len(lines))
    title = _ZIM_TITLE_RE.match(lines[i]) if i < len(lines) else None
    if title and title.group(2).replace("_", " ").casefold() == stem.replace("_", " ").casefold():
        i += 1
        after = next((n for n in range(i, len(lines)) if lines[n].strip()), len(lines))
        if after < len(lines) and len(lines[after]) <= 60 and _YEAR_RE.search(lines[after]):
            i = after + 1
    front = {"created": fields["creation-date"]} if fields.get("creation-date") else {}
    return front, "\n".join(lines[i:]).strip("\n") + "\n"
