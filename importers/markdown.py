"""Markdown notes parser (agent memory files, Obsidian vaults).

Formats handled: a single ``.md`` file or a directory walked for ``*.md``
(hidden directories such as ``.obsidian``/``.git`` skipped). Each file is split
by ATX headings (``#`` lines inside fenced code are not headings) into records
whose content is prefixed by the heading path ("Projects > Gateway: text");
sections longer than ~1500 characters are split into paragraph chunks.

* Front matter only when ``---`` is line 1 and a closing ``---``/``...`` exists;
  parsed by a small YAML subset (``key: value``, lists, inline ``[a, b]``,
  quotes, booleans, numbers) into ``metadata["frontmatter"]``.
* Dates from front matter (``date``/``created``; ISO, written out, or Unix time in s/ms/µs),
  a heading (``2026-02-15 14:00``, or a bare ``(20:28 UTC)`` time on the file's date) or the
  file name (``YYYY-MM-DD``, ``YYYY-MM-DD-HHMM``, ``YYYY-MM-DD-slug``, Roam's ``March 12th,
  2024``; a Zettelkasten id ``202403120915 Title`` dates the note and leaves the title).
* Google Keep notes of a Takeout export (``Keep/*.json``): :mod:`importers.keep`; Evernote
  notebooks (``.enex``): :mod:`importers.enex`.
* Date-named files (daily logs) are episodic, other notes semantic, unless
  front matter says ``type: episodic|semantic|procedural``.
* ``[[wikilinks]]`` (``[[Note|alias]]``, ``[[Note#Heading]]``, ``![[embeds]]``)
  become ``Record.links`` to the target note's first record (edge "explicit").
* ``#tags`` and front matter ``tags`` become ``Record.tags``.
* The managed block between ``<!-- mem:begin -->`` and ``<!-- mem:end -->``
  (written by mem's consolidation) is skipped. Source files are only read.
"""

from __future__ import annotations

import os
import re
import tempfile
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from importers import (
    ImportFormatError,
    ImportReport,
    Record,
    codepages,
    dayone,
    delivered,
    docx,
    enex,
    html_notes,
    jex,
    journey,
    json_canvas,
    keep,
    logseq,
    markdown_apps,
    note_layouts,
    note_marks,
    notion,
    orgmode,
    roam,
    simplenote,
    standardnotes,
    tiddlywiki,
    vault_templates,
)
from importers._common import MAX_LINE_CHARS, decode_text, is_zip, split_lines
from importers.frontmatter import front_matter as _front_matter
from importers.frontmatter import front_tags
from importers.frontmatter import parse_front_matter as parse_front_matter  # re-exported (tests, callers)
from importers.markdown_markup import callout_types
from importers.markdown_markup import strip_markup as _strip_markup
from importers.note_dates import (
    _DATE_RE,
    _FILE_DATE_RE,
    _file_date,
    _front_date,
    _to_datetime,
    _written_date,
    garbled_front_date,
    name_parts,
)
from importers.note_dates import written_date as written_date  # re-exported (tests, callers)

CHUNK_CHARS = 1500
# ".markdown": Bear's TextBundles (text.markdown), iA Writer, Typora; ".org": Org-mode (importers.orgmode)
NOTE_SUFFIXES = (".md", ".markdown", orgmode.ORG_SUFFIX, tiddlywiki.TID_SUFFIX)
MAX_NOTE_BYTES = 32 * 1024 * 1024  # one note file; larger ones are refused (a vault's notes are KBs)
READ_AHEAD_CHARS = 16_000_000  # words of a vault's notes kept from pass 1 for pass 2 (_parse_tree): memory stays bounded
MEMORY_TYPES = {"episodic", "semantic", "procedural"}

_HEADING_RE = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_FENCE_RE = note_marks.FENCE_RE
_WIKILINK_RE = re.compile(r"(!?)\[\[([^\[\]|#^]*)(?:[#^]([^\[\]|]*))?(?:\|([^\[\]]*))?\]\]")
# a tag holds a letter or a pictograph (Bear's "#📚"): "#123" is an issue number, no tag
_TAG_RE = re.compile(r"(?<![\w#/&:;.=\"'`(\[])#([^\s#.,;:!?()\[\]{}<>\"'`]*(?:[^\W\d]|[\u2600-\u27bf\U0001F000-\U0001FAFF])"
                     r"[^\s#.,;:!?()\[\]{}<>\"'`]*)")
_INLINE_CODE_RE = re.compile(r"`[^`\n]*`")
# with the spaces before it ("task <!-- {json} -->" ends at "task"), tried only where a run of spaces starts: linear in
# a note of long indents
_COMMENT_RE = re.compile(r"(?<![ \t])[ \t]*<!--.*?-->", re.DOTALL)
# Notion names every exported page "Title 5f3a2b1c9d8e4f7a8b6c5d4e3f2a1b0c.md": the id is not the title.
_NOTION_ID_RE = re.compile(r"\s+[0-9a-f]{32}$")
_TIME_RE = re.compile(r"(?<![\d:])~?(\d{1,2}):(\d{2})(?::(\d{2}))?(?![\d:])")
_BEGIN = "<!-- mem:begin -->"
_END = "<!-- mem:end -->"



@dataclass
class _Section:
    headings: list[str]
    line: int
    body: list[str] = field(default_factory=list)
    heading_line: str | None = None


_SETEXT_RE = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_NOT_PARAGRAPH_RE = re.compile(r"^(?: {4,}|\t| {0,3}(?:[-+*>|<]|\d{1,9}[.)]\s|#))")


def _setext_title(line: str, body: list[str]) -> tuple[int, str] | None:
    """(level, title) when ``line`` underlines a one-line paragraph ("Title" then "=====" or
    "-----"): a heading, not text. After a blank line, a list item or a table, "---" stays a
    thematic break."""
    m = _SETEXT_RE.match(line)
    if m is None or not body or not body[-1].strip() or _NOT_PARAGRAPH_RE.match(body[-1]):
        return None
    if len(body) > 1 and body[-2].strip():
        return None  # the last line of a longer paragraph: leave the text as written
    return (1 if m.group(1)[0] == "=" else 2), body[-1].strip()


def _split_sections(lines: list[str], first_line: int) -> list[_Section]:
    sections: list[_Section] = [_Section([], first_line)]
    stack: list[tuple[int, str]] = []
    fence: str | None = None
    managed = False
    for offset, line in enumerate(lines):
        no = first_line + offset
        stripped = line.strip()
        if fence is None and stripped == _BEGIN:
            managed = True
            continue
        if managed:
            if stripped == _END:
                managed = False
            continue
        marks, fence = note_marks.fence_step(line, fence)
        if marks:
            sections[-1].body.append(line)
            continue
        hm = _HEADING_RE.match(line) if fence is None else None
        setext = _setext_title(line, sections[-1].body) if fence is None and not hm else None
        if setext is not None:
            sections[-1].body.pop()  # the title line, now a heading
            no -= 1
        if setext is not None or (hm and (hm.group(2) or "").strip()):
            level, title = setext if setext is not None else (len(hm.group(1)), hm.group(2).strip())  # type: ignore[union-attr]
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, title))
            sections.append(_Section([t for _, t in stack], no, heading_line=title))
            continue
        sections[-1].body.append(line)
    return sections


_NONSPACE_RE = re.compile(r"\S")
_BREAK_RE = re.compile(r"-{3,}|\*{3,}|_{3,}")  # a thematic break's line, stripped


def _chunks(text: str) -> list[str]:
    """Split on paragraphs into ~CHUNK_CHARS pieces (code fences kept whole when they fit)."""
    if len(text) <= CHUNK_CHARS:
        return [text]
    paras = re.split(r"\n\s*\n", text)
    out: list[str] = []
    cur = ""
    for para in paras:
        # a long paragraph is cut where it stands (offsets, not copies of what is left: a 9 MB paragraph of no blank
        # line, a list nested 3,000 deep, was copied whole at each cut, n² in its length)
        pos = 0
        while len(para) - pos > CHUNK_CHARS:
            cut = para.rfind("\n", pos, pos + CHUNK_CHARS) - pos
            if cut < CHUNK_CHARS // 3:
                cut = para.rfind(" ", pos, pos + CHUNK_CHARS) - pos
            if cut < CHUNK_CHARS // 3:
                cut = CHUNK_CHARS
            if cur:
                out.append(cur)
                cur = ""
            out.append(para[pos:pos + cut].rstrip())
            nonspace = _NONSPACE_RE.search(para, pos + cut)
            pos = nonspace.start() if nonspace else len(para)
        para = para[pos:] if pos else para
        if cur and len(cur) + 2 + len(para) > CHUNK_CHARS:
            out.append(cur)
            cur = para
        else:
            cur = f"{cur}\n\n{para}" if cur else para
    if cur.strip():
        out.append(cur)
    return [c for c in out if c.strip()]


def _heading_date(title: str, base: datetime | None) -> datetime | None:
    dt = _to_datetime(title) or note_layouts.weekday_date(title)  # "Thursday, 14/03/24": its weekday tells
    if dt is not None and _DATE_RE.search(title):
        if dt.hour == 0 and dt.minute == 0:
            tm = _TIME_RE.search(title[_DATE_RE.search(title).end():])  # type: ignore[union-attr]
            if tm:
                try:
                    return dt.replace(hour=int(tm.group(1)), minute=int(tm.group(2)), second=int(tm.group(3) or 0))
                except ValueError:
                    return dt
    if dt is not None:
        return dt
    tm = _TIME_RE.search(title)
    if tm and base is not None:
        try:
            return base.replace(hour=int(tm.group(1)), minute=int(tm.group(2)), second=int(tm.group(3) or 0))
        except ValueError:
            return None
    return None


_ROAM_TAG_RE = re.compile(r"(?<![\w#])#\[\[([^\[\]\n]{1,80})\]\]")  # Roam's "#[[multi word]]"


def _tags(text: str) -> list[str]:
    plain = _INLINE_CODE_RE.sub("", text)
    roam = [(m.start(), m.group(1).strip()) for m in _ROAM_TAG_RE.finditer(plain)]
    plain = _ROAM_TAG_RE.sub(lambda m: " " * len(m.group(0)), plain)
    multi, plain = markdown_apps.bear_tags(plain)  # "#family trip#"
    found = roam + multi + [(m.start(), m.group(1).rstrip("/")) for m in _TAG_RE.finditer(plain)]
    return [t for _, t in sorted(found)]


def _jsonable(value: Any) -> Any:
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return value


def _display_links(text: str) -> str:
    """[[Note|alias]] -> alias, [[Note#H]] -> Note > H, ![[x]] -> x: readable alone."""

    def repl(m: re.Match[str]) -> str:
        target, anchor, alias = m.group(2).strip(), m.group(3), m.group(4)
        if anchor and (anchor.strip().startswith("^") or re.fullmatch(r"\s*(?:page|height)=\d+\s*", anchor)):
            anchor = None  # a block reference ("#^lunch-2024"): an id; a PDF's "#page=2": where it opens
        if alias and m.group(1) and re.fullmatch(r"\s*\d+(?:x\d+)?\s*", alias):
            alias = None  # "![[photo.jpg|300]]": an embed's display size, not a name
        if alias:
            return alias.strip()
        if anchor and target:
            return f"{target} > {anchor.strip()}"
        return target or (anchor or "").strip()

    return _WIKILINK_RE.sub(repl, text)


def _note_key(name: str) -> str:
    name = unicodedata.normalize("NFC", name.strip().replace("\\", "/"))
    if name.lower().endswith(".md"):
        name = name[:-3]
    return name.lower()


def _files(path: Path, report: ImportReport | None = None) -> tuple[Path, list[Path]]:
    if path.is_dir():
        found: list[Path] = []
        templates = {path.joinpath(*t.split("/")) for t in vault_templates.template_folders(path)}
        template_notes = {path.joinpath(*t.split("/")) for t in vault_templates.template_files(path)}
        for dirpath, dirnames, filenames in os.walk(path):
            # Hidden directories (.obsidian, .git, .trash) hold app state, not notes; a trash folder old ones
            dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d.casefold() not in note_layouts.TRASH_FOLDERS)
            for d in [d for d in dirnames if Path(dirpath, d) in templates]:  # the vault's templates: no notes, said
                dirnames.remove(d)
                if report is not None:
                    report.warn(f"{Path(dirpath, d).relative_to(path).as_posix()}/: the vault's templates folder "
                                "(Obsidian's settings name it); its templates are not notes, left out")
            keep_dir = Path(dirpath).name.lower() == "keep"  # Google Takeout's Keep notes, as JSON
            names = [f for f in sorted(filenames) if not f.startswith(".")]
            for f in [f for f in names if Path(dirpath, f) in template_notes]:  # the daily note's template: no note
                names.remove(f)
                if report is not None:
                    report.warn(f"{Path(dirpath, f).relative_to(path).as_posix()}: the daily note's template "
                                "(Obsidian's settings name it); not a note, left out")
            # a link to a moved file, a cloud placeholder, a pipe: nothing to read, and a pipe would block the
            # import for ever (users25: one broken link failed a whole vault's import); a note's name is said
            odd = [f for f in names if not os.path.isfile(os.path.join(dirpath, f))]
            if report is not None:
                # a note left in iCloud (its placeholder) or copied at 0 bytes: said, not dropped without a word
                for missing, why in delivered.not_here(Path(dirpath), NOTE_SUFFIXES):
                    report.warn(f"{missing.relative_to(path).as_posix()}: {why}")
                for f in odd:
                    if f.lower().endswith(NOTE_SUFFIXES + (".enex", json_canvas.CANVAS_SUFFIX)):
                        report.warn(f"{(Path(dirpath) / f).relative_to(path).as_posix()}: not a readable file "
                                    "(a broken link or a pipe); skipped")
            found += [Path(dirpath) / f for f in names if f not in odd and (
                f.lower().endswith(NOTE_SUFFIXES + (".enex", json_canvas.CANVAS_SUFFIX)) or (keep_dir and f.lower().endswith(".json"))
                or notion.is_database(f) or markdown_apps.other_note(Path(dirpath) / f, keep_dir))]
        return path, found or markdown_apps.plain_notes(path)  # a folder of plain .txt notes and nothing else
    if not path.exists():
        raise ImportFormatError("no such file or directory", str(path))
    return path.parent, [path]


def _parse_file(file: Path, root: Path, report: ImportReport, blocks: dict[str, tuple[str, str]] | None = None,
                joplin_tags: dict[str, list[str]] | None = None,
                hierarchy: dict[str, str] | None = None) -> tuple[list[Record], list[list[str]], str]:
    """Records of one note plus, per record, the raw wikilink targets to resolve later (``blocks``:
    a Logseq graph's blocks by id, for its block references; ``joplin_tags``: a Joplin note's tags
    by its id, :func:`importers.jex.tags`; ``hierarchy``: a Dendron vault's titles by note name). Names and text
    are read composed (NFC): a Mac writes "Café.md" decomposed, the user types [[Café]] and searches "café"."""
    rel = unicodedata.normalize("NFC", file.relative_to(root).as_posix())
    suffix = file.suffix.lower()
    if suffix == ".csv":  # a Notion database: a record a row
        rows, links = notion.records(file, rel, report, lambda t, page: markdown_apps.note_links(_strip_markup(t).strip(), page),
                                     lambda v: _to_datetime(v, True) or _written_date(v))
        return rows, links, rel
    if suffix == docx.SUFFIX:  # a Word document: the Markdown note its paragraphs make
        return _parse_text(unicodedata.normalize("NFC", docx.markdown(file)), file, root, rel, report, blocks, joplin_tags, hierarchy)
    tid = suffix == tiddlywiki.TID_SUFFIX
    if tid or suffix == ".json" and (roam.is_export(file) or tiddlywiki.is_export(file)):
        # Roam's JSON export: a note a page, as its markdown export; TiddlyWiki's tiddlers (a .tid file, a JSON
        # export), as Markdown with their fields as front matter
        records: list[Record] = []
        targets: list[list[str]] = []
        pages = (tiddlywiki.notes(file, _decode_note(file.read_bytes(), file, rel, report) if tid else None, report)
                 if tid or not roam.is_export(file) else roam.pages(file, report))
        for title, outline in pages:
            found, links, _rel = _parse_text(outline, file, root, rel if tid else f"{rel}#{title}", report, blocks,
                                             joplin_tags, hierarchy, name=title)
            for rec in found:
                rec.metadata["page"] = title  # [[title]] links to it (_parse_tree)
            records += found
            targets += links
        return records, targets, rel
    if suffix in (".json", ".enex") or markdown_apps.streamed(file):  # Keep's notes; an Evernote notebook; a Standard Notes backup
        if suffix == ".enex":
            notes = enex.records(file, rel, report)
        else:
            reader = (standardnotes if standardnotes.is_backup(file) else simplenote if simplenote.is_export(file)
                      else dayone if dayone.is_export(file) else journey if journey.is_export(file) else keep)
            notes = reader.records(file, rel, report)
        return notes, [[] for _ in notes], rel
    text = unicodedata.normalize("NFC", _decode_note(file.read_bytes(), file, rel, report))
    if suffix == json_canvas.CANVAS_SUFFIX:  # an Obsidian canvas: its text cards, as one note
        try:
            cards = json_canvas.text(text, str(file))
        except ImportFormatError as exc:
            if Path(report.file) == file:
                raise  # the canvas imported alone: refused; in a vault one broken canvas does not stop the rest
            report.warn(f"{rel}: {exc.reason}; skipped")
            return [], [], rel
        return _parse_text(cards, file, root, rel, report, blocks, joplin_tags, hierarchy, name=file.stem)
    return _parse_text(text, file, root, rel, report, blocks, joplin_tags, hierarchy)


def _parse_text(text: str, file: Path, root: Path, rel: str, report: ImportReport,
                blocks: dict[str, tuple[str, str]] | None, joplin_tags: dict[str, list[str]] | None,
                hierarchy: dict[str, str] | None, name: str | None = None) -> tuple[list[Record], list[list[str]], str]:
    """:func:`_parse_file` of a note's ``text``; ``name``: the note's name when the text is no file of its own
    (a page of a Roam export, read as Markdown; a canvas's cards), else the file's stem."""
    suffix = ".md" if name is not None else file.suffix.lower()
    file_stem = name if name is not None else unicodedata.normalize("NFC", file.stem)
    if suffix == ".txt" and (entries := dayone.text_records(text, file_stem, rel, report, _written_date)) is not None:
        return entries, [[] for _ in entries], rel  # Day One's plain-text export: an entry a memory
    if suffix in html_notes.HTML_SUFFIXES and keep.is_keep_html(text):  # Keep's older Takeout: pages, no JSON
        notes = keep.html_records(file, rel, report, _written_date)
        return notes, [[] for _ in notes], rel
    # a page saved under a .md name (Apple Notes exporters) is read as the page it is
    html = suffix in html_notes.HTML_SUFFIXES or (suffix in (".md", ".markdown") and note_marks.is_html_body(text))
    plain = suffix == ".txt"  # a plain-text note: no markup, no headings, no front matter
    zim = note_layouts.zim_page(text, file_stem) if plain else None  # a Zim wiki page: its header lines its front
    if zim is not None:
        text = zim[1]
    lines = html_notes.to_lines(text, file_stem) if html else _without_title_line(split_lines(text), file_stem)
    joplin = None if html or plain else markdown_apps.joplin_raw(lines)
    org = suffix == orgmode.ORG_SUFFIX or (not html and not plain and note_layouts.is_org_md(lines))
    drawer: dict[str, Any] = {}  # an Org drawer opening a .md note: its properties
    if not (org or html or plain):
        drawer, lines = note_layouts.drawers(lines) if ":END:" in text else ({}, lines)
        lines = note_layouts.blocks_and_markers(lines) if "#+" in text or "{{" in text or "((" in text else lines
    front: dict[str, Any] = {}
    start = 0
    ref_pages: list[str] = []
    section_tags: dict[int, list[str]] = {}  # Org headline tags, by the index of their heading line
    graph = logseq.is_graph(root)
    if org:
        front, lines, section_tags = orgmode.convert(lines)
    elif graph:
        lines, ref_pages = logseq.page_lines(lines, blocks or {}, markdown_apps.LOGSEQ_NOISE_RE)
    if html or plain or org:
        front = zim[0] if zim is not None else front  # a web page or a plain-text note has none; Org's is read already
    elif joplin is not None:
        front, lines = joplin
        start = 0
        if front["type_"] != markdown_apps.JOPLIN_NOTE:  # a notebook, tag or resource: no note
            return [], [], rel
        if joplin_tags and joplin_tags.get(front["id"]):
            front["tags"] = joplin_tags[front["id"]]
    else:
        front, start = _front_matter(lines)
        if not front:
            front, start = markdown_apps.logseq_properties(lines)
        front = front or drawer
    stem = _NOTION_ID_RE.sub("", file_stem) or file_stem
    thread, parents = _notion_thread(rel) if stem != file_stem else (rel, [])
    dendron = bool(hierarchy) and file_stem in (hierarchy or {}) and file.parent == root
    if dendron:  # home.boiler.service.md: under home.boiler and home, their titles first
        parents = note_layouts.dendron_parents(file_stem, hierarchy or {})
    if stem != file_stem and not front:
        front = markdown_apps.notion_properties(lines)
    stem = logseq.page_name(stem) if graph else stem
    if file.parent.suffix.lower() == ".textbundle" and file_stem.lower() == "text":
        if markdown_apps.bundle_trashed(file):  # Bear's backup holds its trash: no note
            report.skipped_system += 1
            return [], [], rel
        stem = file.parent.stem  # Bear's "Trip notes.textbundle/text.markdown" is the note "Trip notes"
    stem, zettel_date, name_tags = name_parts(stem)  # a Zettelkasten id, a Denote name
    file_date = (note_layouts.daily_date(root, rel) or _file_date(stem)) if zettel_date is None else None
    if file_date and (day := _FILE_DATE_RE.fullmatch(stem)) and day.group("sep") != "-":
        stem = file_date.strftime("%Y-%m-%d %H:%M" if day.group("h") else "%Y-%m-%d")  # Logseq's 2024_03_12: the day
    base_date = _front_date(front) or file_date or zettel_date or markdown_apps.bundle_date(file)  # Bear's info.json
    if base_date is None and front and (bad := garbled_front_date(front)) is not None:
        report.warn(f"{rel}: unreadable date {bad[:80]!r}; no date")  # said, never guessed
    fm_type = str(front.get("type") or "").strip().lower()
    memory_type = fm_type if fm_type in MEMORY_TYPES else ("episodic" if file_date else "semantic")
    # Obsidian: "tag:" too; Jekyll's and Hugo's categories (a list, or words apart) are tags as well
    # Zettlr's (and Pandoc's) keywords are tags too
    fm_tags = [t for k in ("tags", "Tags", "tag", "categories", "category", "keywords") if k in front for t in front_tags(front[k])]
    fm_tags = list(dict.fromkeys(fm_tags + name_tags))
    title = front.get("title") if isinstance(front.get("title"), str) and front["title"].strip() else stem
    if zettel_date is not None and stem.isdigit() and title != stem:
        stem = str(title)  # a note named by its id alone ("20240314180112.md", Zettlr's) is named by its title
    if joplin is not None and isinstance(title, str) and title != stem:
        stem = title  # a Joplin RAW item's file is named by its id: the note is its title
    fm_links = [m.group(2) for m in _WIKILINK_RE.finditer(str(front))]
    records: list[Record] = []
    targets: list[list[str]] = []
    occurrences: dict[str, int] = {}
    sections = [_Section([], 1, lines)] if plain else _split_sections(lines[start:], start + 1)
    todo, todo_meta = markdown_apps.todo(front)  # a Joplin to-do's line ends its note; its due time is metadata
    if todo and sections:
        sections[-1].body = [*sections[-1].body, todo]
    if note_layouts.is_excalidraw(front):  # a drawing's words are its Text Elements, nothing else
        sections = [s for s in sections if s.headings[-1:] == [note_layouts.TEXT_ELEMENTS]]
    for section in sections:
        raw_body = "\n".join(section.body)
        body = raw_body.strip("\n") if plain else _strip_markup(_COMMENT_RE.sub("", raw_body) if "<!--" in raw_body else raw_body).strip("\n")
        line_tags: list[str] = []
        fields: dict[str, str] = {}
        if not plain:  # a line of tags only is no text; Dataview fields read "key: value" (not in a Logseq graph)
            body, line_tags = note_marks.tag_lines(body, _tags)
            body, fields = (body, {}) if graph else note_marks.dataview_fields(body)
            line_tags += [t for k, v in fields.items() if k.casefold() in note_layouts.TAG_FIELDS
                          for t in note_layouts.field_tags(v)]  # Roam's "Tags:: [[a]] [[b]]"
        # Thematic breaks alone ("---" separators between sessions) carry nothing.
        if not any(ln.strip() and not _BREAK_RE.fullmatch(ln.strip()) for ln in body.split("\n")):
            if section.heading_line is not None:
                report.messages_seen += 1
                report.skipped_empty += 1
            continue
        when = base_date
        for heading in section.headings:
            when = _heading_date(heading, when or file_date) or when  # "09:15 Plumber" under its day's heading
        path_str = " > ".join(section.headings)
        # a nested Notion page: its parents' titles first; a Dendron note's too, then its own before a heading
        prefix = " > ".join([*parents, *([str(title)] if dendron and path_str else []), str(path_str or title)])
        embeds = [m.group(2) for m in _WIKILINK_RE.finditer(body) if m.group(1)] if "![[" in body else []
        callouts = [] if plain else callout_types(raw_body)  # Obsidian's [!todo], [!warning]: kept (layouts33)
        for piece in _chunks(body.strip()):
            report.messages_seen += 1  # one per chunk: a memory-sized unit seen
            n = occurrences.get(path_str, 0)
            occurrences[path_str] = n + 1
            metadata: dict[str, Any] = {"heading_path": list(section.headings), "path": rel, "title": stem, **todo_meta}
            if front:
                metadata["frontmatter"] = _jsonable(front)
            if embeds:
                metadata["embeds"] = embeds
            if fields:
                metadata["fields"] = fields
            if callouts:
                metadata["callouts"] = callouts
            heading_tags = section_tags.get(section.line - 1, []) if section.heading_line else []
            tags = list(dict.fromkeys(fm_tags + line_tags + heading_tags + _tags(piece)))
            shown, note_targets = markdown_apps.note_links(_display_links(piece), rel)
            records.append(
                Record(
                    content=f"{prefix}: {shown}",
                    ref=f"markdown:{rel}:{path_str}:{n}",
                    source="markdown",
                    memory_type=memory_type,
                    event_at=when,
                    author=None,
                    thread=thread,
                    position=len(records),
                    tags=tags,
                    metadata=metadata,
                    line=section.line,
                )
            )
            targets.append([m.group(2) for m in _WIKILINK_RE.finditer(piece)] + note_targets + ref_pages)
    # a Dendron note of only its ids and times (the vault's root), told by its vault or, a vault imported
    # without the workspace's dendron.yml, by those keys themselves
    bookkeeping = set(front) <= note_layouts.DENDRON_KEYS and not front.get("desc") and (
        dendron or {"id", "created", "updated"} <= set(front)) if front else False
    if not records and front and not bookkeeping \
            and not note_layouts.is_excalidraw(front):
        # A note that is only front matter still says something (dates, places, people); a Dendron note
        # of only its ids and times (the vault's root) and a drawing of no words do not.
        summary = "; ".join(f"{k}: {_display_links(str(_jsonable(v)))}" for k, v in front.items() if v not in (None, [], ""))
        if summary:
            report.messages_seen += 1
            records.append(
                Record(
                    content=f"{stem}: {summary}",
                    ref=f"markdown:{rel}::0",
                    source="markdown",
                    memory_type=memory_type,
                    event_at=base_date,
                    thread=thread,
                    position=0,
                    tags=fm_tags,
                    metadata={"heading_path": [], "path": rel, "title": stem, "frontmatter": _jsonable(front)},
                    line=1,
                )
            )
            targets.append([])
    if not records and not front:
        # A note of headings only is an outline: its headings are what it says.
        paths = [s.headings for s in sections if s.heading_line is not None]
        leaves = [p for i, p in enumerate(paths) if i + 1 == len(paths) or paths[i + 1][:len(p)] != p]
        if leaves:
            report.messages_seen += 1
            records.append(Record(
                content=f"{stem}: " + "; ".join(" > ".join(p) for p in leaves), ref=f"markdown:{rel}::0",
                source="markdown", memory_type=memory_type, event_at=base_date, thread=thread, position=0,
                tags=fm_tags, metadata={"heading_path": [], "path": rel, "title": stem, "outline": True}, line=1))
            targets.append([])
    if records and fm_links:
        targets[0] = targets[0] + fm_links
    return records, targets, rel


_KEY_RE = re.compile(r"\w+")


def _notion_thread(rel: str) -> tuple[str, list[str]]:
    """A Notion page's thread without the 32-hex ids of its path (``Home/Boiler.md``), and the titles of
    the pages it is nested in (its folders named ``Title <id>``, nearest last)."""
    parts = rel.split("/")
    names = [_NOTION_ID_RE.sub("", p) or p for p in parts[:-1]]
    stem, dot, suffix = parts[-1].rpartition(".")
    parents: list[str] = []
    for part, name in zip(reversed(parts[:-1]), reversed(names), strict=True):
        if name == part:
            break  # a plain folder: the pages above it are no parents of this one
        parents.insert(0, name)
    return "/".join([*names, (_NOTION_ID_RE.sub("", stem) or stem) + dot + suffix]), parents


def _without_title_line(lines: list[str], title: str) -> list[str]:
    """``lines`` with a first line that only repeats the note's title blanked (Apple Notes, Simplenote
    and Keep exporters write the title as the note's first plain line and name the file by it): the
    record is "Title: text" already. A heading, a setext title or a note of one line is left alone."""
    first = next((i for i, ln in enumerate(lines) if ln.strip()), None)
    if first is None or lines[first].lstrip().startswith(("#", "---", "+++")):
        return lines
    key = "".join(_KEY_RE.findall(lines[first].casefold()))
    if not key or key != "".join(_KEY_RE.findall(title.casefold())):
        return lines
    rest = lines[first + 1:]
    if not any(ln.strip() for ln in rest) or (rest and _SETEXT_RE.match(rest[0])):
        return lines
    return [*lines[:first], "", *rest]


def _decode_note(data: bytes, file: Path, rel: str, report: ImportReport) -> str:
    """A note's text: UTF-8 or UTF-16 (:func:`decode_text`); a note from before UTF-8
    (Windows-1252, Latin-1: "caf\\xe9"; Windows-1251, Shift_JIS ...: :func:`codepages.guess`) is read as
    such with a warning, not refused, so one old note does not stop a vault of years."""
    try:
        return decode_text(data, str(file))
    except ImportFormatError as exc:
        if not exc.reason.startswith("not UTF-8"):
            raise
        damaged = data.decode("utf-8", "replace")
        bad = damaged.count("\ufffd")
        if sum(1 for ch in damaged if ch > "\x7f") - bad > bad:  # UTF-8 with a few damaged bytes
            text, codec = damaged, "UTF-8, undecodable bytes as U+FFFD"
        else:
            code, codec = codepages.guess(data)  # the code page its letters make words in (Russian: 1251)
            try:
                text = data.decode(code)
            except UnicodeDecodeError:  # a byte the code page leaves undefined
                text, codec = (data.decode("latin-1"), "Latin-1") if code == "cp1252" else (data.decode(code, "replace"), codec)
        report.warn(f"{rel}:{exc.line}: {exc.reason.split(';')[0]}; read as {codec}")
        return text.lstrip("\ufeff")


def _longest_line(file: Path, chunk: int = 1 << 20) -> int:
    """Bytes in the file's longest line, read a chunk at a time (memory stays one chunk).

    The note parser's per-line work is not linear in a line's length: a single line of
    tens of MB (a pasted blob, a minified file) would take minutes, so such notes are refused."""
    longest = run = 0
    with open(file, "rb") as fh:
        while block := fh.read(chunk):
            parts = block.split(b"\n")
            run += len(parts[0])
            if len(parts) > 1:
                longest = max(longest, run, *(len(p) for p in parts[1:-1]))
                run = len(parts[-1])
    return max(longest, run)


def parse(path: Path, report: ImportReport, **options: Any) -> Iterator[Record]:
    """Parse a markdown file, a directory of notes or a zipped export of them (a vault zipped,
    Notion's export and its Part zips: the notes are unpacked to a temporary directory, nothing
    else) into records (see :func:`_parse_tree`)."""
    path = Path(path)
    if path.is_file() and jex.is_tar(path):  # Joplin's JEX: a tar of its RAW items
        with tempfile.TemporaryDirectory(prefix="mem-notes-") as tmp:
            if not jex.unpack(path, Path(tmp), MAX_NOTE_BYTES):
                raise ImportFormatError("tar archive holds no Joplin notes (<32-hex id>.md items)", str(path))
            yield from _parse_tree(Path(tmp), report)
            report.variant["layout"] = "jex"
        return
    if not (path.is_file() and is_zip(path)) or docx.is_docx(path):
        yield from _parse_tree(path, report)
        return
    with tempfile.TemporaryDirectory(prefix="mem-notes-") as tmp:
        if not markdown_apps.unpack_notes(path, str(path), Path(tmp), NOTE_SUFFIXES + (".enex", ".txt", ".json", ".csv", json_canvas.CANVAS_SUFFIX)
                                          + html_notes.HTML_SUFFIXES, MAX_NOTE_BYTES):
            raise ImportFormatError("zip holds no .md notes", str(path))
        yield from _parse_tree(Path(tmp), report)
        report.variant["layout"] = "zip"


def _read_again(kept: tuple[list[Record], list[list[str]], str, ImportReport] | None,
                report: ImportReport) -> tuple[list[Record], list[list[str]], str] | None:
    """A file's records as pass 1 read them, its report's counts and warnings added to ``report`` now (where pass
    2 would have said them); None when pass 1 did not keep them."""
    if kept is None:
        return None
    report.absorb(kept[3])
    return kept[:3]


def _learn_refs(first_ref: dict[str, str], file: Path, rel: str, records: list[Record]) -> None:
    """What a link can name a note of ``file`` by (its path, its name, a Roam page's or Notion row's page, its
    aliases, a Joplin id), to the ref of the record it points at (the first pass of :func:`_parse_tree`)."""
    if records:
        first_ref.setdefault(_note_key(rel), records[0].ref)
        first_ref.setdefault(_note_key(file.stem), records[0].ref)
    for rec in records if file.suffix.lower() in (".csv", ".json") else ():  # a Notion row, a Roam page: its page
        if rec.metadata.get("page"):
            first_ref.setdefault(_note_key(rec.metadata["page"]), rec.ref)
    for alias in markdown_apps.aliases(records[0].metadata.get("frontmatter") if records else None):
        first_ref.setdefault(_note_key(alias), records[0].ref)  # Obsidian: [[Heating]] is the note "Boiler"
    joplin_id = markdown_apps.joplin_key(records[0].metadata.get("frontmatter")) if records else None
    if joplin_id:  # Joplin: [text](:/<id>) is the note of that id
        first_ref.setdefault(joplin_id, records[0].ref)


def _parse_tree(path: Path, report: ImportReport) -> Iterator[Record]:
    """Parse a markdown file or a directory of notes into records (see module docstring).

    Links are resolved across all files of the import: a first pass reads every note for
    the ref its links point at, the second yields the records, a note at a time (what the first read is kept
    for the second up to ``READ_AHEAD_CHARS``: memory stays bounded, whatever the vault's size). A note over ``MAX_NOTE_BYTES``
    or with a line over ``MAX_LINE_CHARS`` bytes is refused: an error for a single file, a warning
    naming it in a directory.
    """
    root, files = _files(path, report)
    if not files:
        raise ImportFormatError("no .md files found", str(path))
    read = notion.tables(files)  # a database's "_all" table, not its view's too; its rows' pages are rows
    taken = notion.pages_of(read)
    files = [f for f in files if f not in taken and (f in read or not notion.is_database(f))]
    kept: list[Path] = []
    for file in files:
        if markdown_apps.streamed(file):  # attachments dropped as they pass, notes read one at a time: no size cap
            kept.append(file)
            continue
        size = file.stat().st_size
        longest = _longest_line(file) if size > MAX_LINE_CHARS else 0
        if size > MAX_NOTE_BYTES or longest > MAX_LINE_CHARS:
            why = (f"note of {size} bytes, over the {MAX_NOTE_BYTES}-byte limit" if size > MAX_NOTE_BYTES
                   else f"a line of {longest} bytes, over the {MAX_LINE_CHARS}-byte line limit")
            if not path.is_dir():
                raise ImportFormatError(why, str(file))
            report.skipped_oversized += 1
            report.warn(f"{file.relative_to(root).as_posix()}: {why}; skipped")
            continue
        kept.append(file)
    first_ref: dict[str, str] = {}
    blocks = logseq.graph_blocks(root, kept)
    tagged = jex.tags(kept)
    hierarchy = note_layouts.dendron_titles(root, kept)
    # (a single file is read once, not twice: what its notes are named by is learnt from its records before its
    # links are resolved, as the first pass would have; a vault's files link to files read later). What pass 1
    # read is kept, up to READ_AHEAD_CHARS of words, with what its report saw: pass 2 reads only the rest again.
    alone = len(kept) == 1
    ahead: dict[Path, tuple[list[Record], list[list[str]], str, ImportReport]] = {}
    budget = READ_AHEAD_CHARS
    for file in [] if alone else kept:
        part = ImportReport(report.file, report.format)
        records, targets, rel = _parse_file(file, root, part, blocks, tagged, hierarchy)
        _learn_refs(first_ref, file, rel, records)
        size = sum(len(r.content) for r in records)
        if size <= budget:
            ahead[file], budget = (records, targets, rel, part), budget - size
    report.variant.update({"files": len(files), "layout": "directory" if path.is_dir() else "file"})
    parsed = (_read_again(ahead.pop(file, None), report) or _parse_file(file, root, report, blocks, tagged, hierarchy)
              for file in kept)
    for records, targets, rel in parsed:
        if alone:  # what the first pass would have learnt: its sections link to its first
            _learn_refs(first_ref, kept[0], rel, records)
        for record, names in zip(records, targets, strict=True):
            unresolved: list[str] = []
            for name in dict.fromkeys(n.strip() for n in names if n.strip()):
                ref = first_ref.get(_note_key(name)) or first_ref.get(_note_key(name.rsplit("/", 1)[-1]))
                if ref and ref != record.ref and (ref, "explicit") not in record.links:
                    record.links.append((ref, "explicit"))
                elif not ref and not re.search(r"\.(?!md$)[A-Za-z0-9]{2,5}$", name):
                    unresolved.append(name)  # attachments (![[x.png]]) are not notes
            if unresolved:
                record.metadata["unresolved_links"] = unresolved
            yield record
