"""Notion's database tables, as its export writes them: ``Reading list 9f8e…e1f0.csv`` (the rows of
the database's default view) and, since 2023, ``Reading list 9f8e…e1f0_all.csv`` (every row), with a
page per row in the same-named folder (``Reading list 9f8e…e1f0/Dune 5e6f…a9b0.md``) that repeats the
row's properties under its title and holds what was written in the row's page.

A row is one record: the database and the row's title, then its properties a line each
(``Reading list > Dune: Author: Frank Herbert\\nStatus: Reading``), dated by a created/date column,
tagged by a ``Tags`` column, and followed by its page's own text (the page is then not imported a
second time). Which lines of a page are its properties is told by the table itself: the lines that
start with one of the CSV's column names, up to the first blank line. The first column is the title
(Notion always puts it first). Parsers here are pure: no SQL."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote

from importers import ImportFormatError, ImportReport, Record
from importers._common import decode_text, split_lines

# "Reading list 9f8e7d6c5b4a49382716a5b4c3d2e1f0.csv", "…_all.csv": a database exported by Notion.
DATABASE_RE = re.compile(r"^(?P<name>.+?)\s+(?P<id>[0-9a-f]{32})(?P<all>_all)?\.csv$", re.IGNORECASE)
_PAGE_ID_RE = re.compile(r"\s+[0-9a-f]{32}$")
# A relation or page link in a cell: "Trip plan (Trip%20plan%201a2b….md)"; several are comma-separated.
_RELATION_RE = re.compile(r"([^,()\n]+?) \(([^()\s]+?\.(?:md|csv))\)")
_DATE_COLUMNS = ("created", "created time", "date created", "created at", "date")
# A workspace in another language names its columns in it: the default tags column is "Etiquetas", "Tags" ...
_TAG_COLUMNS = frozenset({"tags", "tag", "etiquetas", "etiqueta", "étiquettes", "etichette", "schlagwörter",
                          "stichwörter", "labels", "tagi", "etiketler", "štítky", "címkék", "теги", "мітки", "метки",
                          "ετικέτες", "タグ", "标签", "標籤", "태그"})
# A cell that is a date with its time and nothing else ("March 14, 2024 6:01 PM", "14/03/2024 18:01"): what a
# created or edited time column holds, whatever the column is called
_DATE_TIME_RE = re.compile(r"(?:[^\W\d_]+\.? \d{1,2}, \d{4}|\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}) \d{1,2}:\d{2}(?: ?[AaPp][Mm])?")
MAX_TABLE_BYTES = 64 * 1024 * 1024
csv.field_size_limit(MAX_TABLE_BYTES)


def is_database(path: Path | str) -> bool:
    """True for a CSV named as Notion names a database's export."""
    return DATABASE_RE.match(Path(path).name) is not None


def _folder(table: Path) -> Path:
    m = DATABASE_RE.match(table.name)
    assert m is not None
    return table.parent / f"{m.group('name')} {m.group('id')}"


def tables(files: list[Path]) -> set[Path]:
    """The database CSVs among ``files`` that are read: ``X_all.csv`` (every row) where it is
    there, ``X.csv`` (the default view's rows, a subset) only where it is not."""
    alls = {f.with_name(f.name[: -len("_all.csv")] + ".csv") for f in files if f.name.lower().endswith("_all.csv")}
    return {f for f in files if is_database(f) and f not in alls}


def _rows(table: Path) -> tuple[list[str], list[list[str]]]:
    """(header, rows) of a table; a file that is no CSV is a one-line error naming it."""
    if table.stat().st_size > MAX_TABLE_BYTES:
        raise ImportFormatError(f"table of {table.stat().st_size} bytes, over the {MAX_TABLE_BYTES}-byte limit",
                                str(table))
    text = decode_text(table.read_bytes(), str(table)).lstrip("\ufeff")
    try:
        rows = [r for r in csv.reader(io.StringIO(text, newline="")) if any(c.strip() for c in r)]
    except csv.Error as exc:
        raise ImportFormatError(f"not a CSV table ({exc})", str(table)) from None
    if not rows:
        return [], []
    return [h.strip() for h in rows[0]], rows[1:]


def row_pages(table: Path) -> dict[str, Path]:
    """The pages of a table's rows: title (the page's file name without Notion's id) -> page."""
    folder = _folder(table)
    if not folder.is_dir():
        return {}
    return {_PAGE_ID_RE.sub("", p.stem): p for p in sorted(folder.iterdir()) if p.is_file()
            and p.suffix.lower() == ".md"}


def pages_of(found: set[Path]) -> set[Path]:
    """The row pages that the tables in ``found`` import as part of their rows (not as notes)."""
    taken: set[Path] = set()
    for table in found:
        header, rows = _rows(table)
        titles = {r[0].strip() for r in rows if r and r[0].strip()}
        taken |= {p for title, p in row_pages(table).items() if title in titles and header}
    return taken


def page_text(page: Path, header: list[str]) -> str:
    """A row page's own text: without its ``# Title`` line and the block of property lines (lines
    that start with a column name and ``: ``, and what continues them up to a blank line)."""
    lines = split_lines(decode_text(page.read_bytes(), str(page)).lstrip("\ufeff"))
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i < len(lines) and lines[i].startswith("# "):
        i += 1
    while i < len(lines) and not lines[i].strip():
        i += 1
    starts = tuple(f"{h}: " for h in header if h)
    if i < len(lines) and lines[i].startswith(starts):
        while i < len(lines) and lines[i].strip():
            i += 1
    return "\n".join(lines[i:]).strip()


def _relations(value: str, rel: str) -> tuple[str, list[str]]:
    """A cell with its links to other pages shown as their titles, and the pages (paths from the
    export's root: the cell's paths are relative to the table's folder, URL-escaped)."""
    targets: list[str] = []

    def repl(m: re.Match[str]) -> str:
        targets.append((PurePosixPath(rel).parent / unquote(m.group(2))).as_posix().removeprefix("./"))
        return m.group(1)  # its title (and the space after the comma before it)

    return (_RELATION_RE.sub(repl, value) if " (" in value else value), targets


def _date(row: dict[str, str], written: Callable[[Any], datetime | None], timed: list[str]) -> datetime | None:
    """A row's date: its created (or date) column by the English name; else the earliest of its ``timed``
    columns' times (a created time is never after an edited one; a date without a time is a due date or a
    day, not when the row was written)."""
    lowered = {k.strip().lower(): v for k, v in row.items()}
    for key in _DATE_COLUMNS:
        value = lowered.get(key)
        if value:
            when = written(value)
            if when is not None:
                return when
    times = [w for w in (written(row[h]) for h in timed if row.get(h)) if w is not None]
    return min(times, key=lambda w: w.replace(tzinfo=None)) if times else None


def timed_columns(header: list[str], rows: list[list[str]]) -> list[str]:
    """The columns (not the title) whose every filled cell is a date with its time."""
    out = []
    for k, h in enumerate(header[1:], start=1):
        values = [r[k].strip() for r in rows if k < len(r) and r[k].strip()]
        if h and values and all(_DATE_TIME_RE.fullmatch(v) for v in values):
            out.append(h)
    return out


def parents(rel: str) -> list[str]:
    """The titles of the pages a table at ``rel`` sits in (its folders named "Title <id>", outermost first; a
    plain folder above them ends the chain): a database inside a page, or inside a row's page of another."""
    names: list[str] = []
    for part in reversed(rel.split("/")[:-1]):
        name = _PAGE_ID_RE.sub("", part)
        if name == part or not name:
            break
        names.insert(0, name)
    return names


def records(table: Path, rel: str, report: ImportReport, clean: Callable[[str, str], tuple[str, list[str]]],
            written: Callable[[Any], datetime | None]) -> tuple[list[Record], list[list[str]]]:
    """The records of one database table (a row each; see the module docstring) and, per record,
    the pages its relation cells and its page's links point at. ``clean`` turns a page's Markdown (and its
    path) into text and the pages it links to, ``written`` reads a date as the note importer does."""
    header, rows = _rows(table)
    m = DATABASE_RE.match(table.name)
    name = m.group("name") if m else table.stem
    base = f"{m.group('name')} {m.group('id')}.csv" if m else table.name
    ref_rel = rel.rsplit("/", 1)[0] + "/" + base if "/" in rel else base
    pages = row_pages(table)
    heading = " > ".join([*parents(rel), name])  # "Home > Projects": a database in a page reads under it
    out: list[Record] = []
    links: list[list[str]] = []
    seen: dict[str, int] = {}
    timed = timed_columns(header, rows)
    for n, row in enumerate(rows, start=2):
        report.messages_seen += 1
        title = (row[0] if row else "").strip()
        if not title or not header:
            report.skipped_empty += 1
            continue
        cells = {h: (row[k].strip() if k < len(row) else "") for k, h in enumerate(header)}
        shown = {h: _relations(v, rel) for h, v in list(cells.items())[1:] if h and v}
        props = [f"{h}: {v}" for h, (v, _) in shown.items()]
        page_rel = (PurePosixPath(rel).parent / _folder(table).name / pages[title].name).as_posix() \
            if title in pages else ""
        body, page_links = clean(page_text(pages[title], header), page_rel) if title in pages else ("", [])
        links.append([t for _, targets in shown.values() for t in targets] + page_links)
        text = "\n".join(props) + (f"\n\n{body}" if body and props else body)
        k = seen.get(title, 0)
        seen[title] = k + 1
        tags = next(([t.strip().lstrip("#") for t in v.split(",") if t.strip()] for h, v in cells.items()
                     if h.lower() in _TAG_COLUMNS), [])
        metadata: dict[str, Any] = {"database": name, "title": title, "path": rel,
                                    "properties": {h: v for h, v in cells.items() if v}}
        if title in pages:  # links to the row's page lead to the row
            metadata["page"] = page_rel
        out.append(Record(
            content=f"{heading} > {title}: {text}" if text else f"{heading}: {title}", ref=f"markdown:{ref_rel}:{title}:{k}",
            source="markdown", memory_type="semantic", event_at=_date(cells, written, timed), author=None, thread=ref_rel,
            position=len(out), tags=tags, metadata=metadata, line=n))
    return out, links
