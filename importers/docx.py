"""Word documents (.docx: Word's, and Google Docs' "Download > Microsoft Word") as notes: the document read as the
Markdown note it would be, then read by :mod:`importers.markdown` as any note is (sections by heading, dates, tags).

``word/document.xml``'s paragraphs in order: a "Title" style is a first-level heading (the "Heading N" styles then one
level down), "Heading N" a heading of level N, a numbered or bulleted paragraph (``w:numPr``, a "List…" style) an
item, a line break (``w:br``) a line break, a tab a tab, a table a line per row with its cells joined by " | ". The
core properties (``docProps/core.xml``: title, creator, created, modified; Google's download has none) become front
matter. Text only: pictures, comments, footnotes, headers and tracked deletions are left out.

The XML is read with expat, refusing a document type declaration (no entity can expand: a hostile file stays small),
the member capped at ``MAX_XML_BYTES``. A damaged file is a one-line error naming the file and the member."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path
from xml.parsers import expat

from importers import ImportFormatError
from importers._zips import ZIP_OPEN_ERRORS, read_member

SUFFIX = ".docx"
DOCUMENT = "word/document.xml"
CORE = "docProps/core.xml"
MAX_XML_BYTES = 64 * 1024 * 1024
_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_HEADING_RE = re.compile(r"^(?:heading|berschrift|titre|título|titolo|kop)\s*(\d)$", re.IGNORECASE)
_CORE_KEYS = {"title": "title", "creator": "author", "created": "created", "modified": "modified"}


def is_docx_names(names: list[str]) -> bool:
    """Whether a zip's members are a Word document's (its word/document.xml)."""
    return DOCUMENT in names


def is_docx(path: Path) -> bool:
    """Whether ``path`` is a .docx file (a zip holding word/document.xml)."""
    if path.suffix.lower() != SUFFIX or not path.is_file():
        return False
    try:
        with zipfile.ZipFile(path) as zf:
            return is_docx_names(zf.namelist())
    except ZIP_OPEN_ERRORS:
        return True  # named .docx: the reader says what is wrong with it


def markdown(path: Path) -> str:
    """The document as Markdown (front matter of its core properties, then its paragraphs)."""
    where = str(path)
    try:
        with zipfile.ZipFile(path) as zf:
            names = zf.namelist()
            if DOCUMENT not in names:
                raise ImportFormatError(f"no {DOCUMENT} (not a Word document)", where)
            body = read_member(zf, zf.getinfo(DOCUMENT), where, MAX_XML_BYTES)
            core = read_member(zf, zf.getinfo(CORE), where, MAX_XML_BYTES) if CORE in names else b""
    except ZIP_OPEN_ERRORS as exc:
        raise ImportFormatError(f"malformed zip archive ({exc})", where) from None
    paragraphs = _Document(where).read(body)
    props = _core(core, where) if core else {}
    front = [f"{key}: {_yaml(value)}" for key, value in props.items() if value]
    lines = ["---", *front, "---"] if front else []
    top = any(style == "title" for style, _ in paragraphs)
    previous = ""
    for style, text in paragraphs:
        if not text.strip():
            continue
        level = 1 if style == "title" else (int(style[1:]) + (1 if top else 0)) if style.startswith("h") else 0
        kind = "item" if style == "item" else "row" if style == "row" else "heading" if level else "text"
        if lines and lines[-1] != "---" and not (kind == previous and kind in ("item", "row")):
            lines.append("")
        if level:
            lines.append("#" * min(level, 6) + " " + " ".join(text.split()))
        elif kind == "item":
            lines.append("- " + text.replace("\n", " "))
        else:
            lines.append(text)
        previous = kind
    return "\n".join(lines) + "\n"


def _yaml(value: str) -> str:
    """A front matter value: as written, or quoted when YAML would read it otherwise."""
    return json.dumps(value, ensure_ascii=False) if _YAML_SPECIAL_RE.search(value) else value


_YAML_SPECIAL_RE = re.compile(r"^[\s\-?!&*|>%@`'\"\[\]{},#]|: | #|\s$")


class _Document:
    """word/document.xml's paragraphs as (style, text): style "title", "h<N>", "item", "row" or ""."""

    def __init__(self, where: str) -> None:
        self.where = f"{where}!{DOCUMENT}"
        self.out: list[tuple[str, str]] = []
        self.text: list[str] = []
        self.style = ""
        self.in_t = 0
        self.deleted = 0
        self.cells: list[str] | None = None  # the open table row's cells
        self.tables = 0
        self.outer: list[tuple[list[str], str]] = []

    def read(self, data: bytes) -> list[tuple[str, str]]:
        parser = expat.ParserCreate(namespace_separator=" ")
        parser.StartDoctypeDeclHandler = self._doctype
        parser.StartElementHandler = self._start
        parser.EndElementHandler = self._end
        parser.CharacterDataHandler = self._chars
        try:
            parser.Parse(data, True)
        except expat.ExpatError as exc:
            raise ImportFormatError(f"not XML ({expat.errors.messages[exc.code]})", self.where, exc.lineno) from None
        return self.out

    def _doctype(self, *_args: object) -> None:
        raise ImportFormatError("a document type declaration (entities are not read)", self.where)

    def _start(self, name: str, attrs: dict[str, str]) -> None:
        ns, _, tag = name.rpartition(" ")
        if ns != _W:
            return
        if tag == "p":  # (a text box's paragraphs stand inside a paragraph: the outer one's words are kept aside)
            self.outer.append((self.text, self.style))
            self.text, self.style = [], ""
        elif tag == "pStyle":
            value = attrs.get(f"{_W} val", "")
            m = _HEADING_RE.match(value)  # Word names a style by its id: "Heading1", German "berschrift1"
            self.style = ("title" if value.lower() in ("title", "titel", "titre", "título", "titolo") else f"h{m.group(1)}" if m else
                          "item" if value.lower().startswith("list") else self.style)
        elif tag == "numPr" and not self.style.startswith(("h", "title")):
            self.style = "item"
        elif tag == "t":
            self.in_t += 1
        elif tag in ("del", "moveFrom"):
            self.deleted += 1
        elif tag in ("br", "cr") and attrs.get(f"{_W} type", "textWrapping") == "textWrapping":
            self.text.append("\n")
        elif tag == "tab":
            self.text.append("\t")
        elif tag == "tbl":
            self.tables += 1
        elif tag == "tr" and self.tables:
            self.cells = []

    def _end(self, name: str) -> None:
        ns, _, tag = name.rpartition(" ")
        if ns != _W:
            return
        if tag == "t":
            self.in_t -= 1
        elif tag in ("del", "moveFrom"):
            self.deleted -= 1
        elif tag == "p":
            text = "".join(self.text).strip("\n").rstrip()
            if self.cells is not None:
                self.cells.append(" ".join(text.split()))
            else:
                self.out.append((self.style, text))
            self.text, self.style = self.outer.pop() if self.outer else ([], "")
        elif tag == "tr" and self.cells is not None:
            self.out.append(("row", " | ".join(self.cells)))
            self.cells = None
        elif tag == "tbl":
            self.tables -= 1

    def _chars(self, data: str) -> None:
        if self.in_t and not self.deleted:
            self.text.append(data)


def _core(data: bytes, where: str) -> dict[str, str]:
    """docProps/core.xml's title, creator, created and modified (the keys front matter names them by)."""
    found: dict[str, str] = {}
    current: list[str] = []
    key: list[str] = []

    def start(name: str, _attrs: dict[str, str]) -> None:
        tag = name.rpartition(" ")[2]
        key[:] = [_CORE_KEYS[tag]] if tag in _CORE_KEYS else []
        current.clear()

    def end(_name: str) -> None:
        if key:
            found[key[0]] = " ".join("".join(current).split())
        key.clear()

    def doctype(*_args: object) -> None:
        raise ImportFormatError("a document type declaration (entities are not read)", f"{where}!{CORE}")

    parser = expat.ParserCreate(namespace_separator=" ")
    parser.StartDoctypeDeclHandler = doctype
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = lambda text: current.append(text) if key else None
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise ImportFormatError(f"not XML ({expat.errors.messages[exc.code]})", f"{where}!{CORE}", exc.lineno) from None
    return {k: found[k] for k in ("title", "author", "created", "modified") if found.get(k)}
