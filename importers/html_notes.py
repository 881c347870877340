"""Notes exported as web pages, read by the markdown importer (:mod:`importers.markdown`).

Apple Notes has no export of its own: the exporters people use write one ``.html`` page per
note (the note's HTML as Notes keeps it: a ``<div>`` per line, ``<ul class="Apple-dash-list">``,
``<b>``, pictures inline as ``data:`` URIs); Evernote's "web pages", Joplin's and Notion's HTML
exports look the same. A page becomes Markdown lines (headings ``#``, list items ``- ``, to-dos
``[x]``), its pictures and styles dropped, its first line dropped when it only repeats the
note's title (Apple Notes' first line *is* the title, and the file is named by it).

Not notes: a page with a ``<script>`` (an app's viewer, such as Takeout's
``archive_browser.html``), ChatGPT's ``chat.html`` (its conversations, or a broken copy of it), and
the ``.html`` twin of a ``.json`` note beside it (Google Keep writes both; the JSON is read).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

HTML_SUFFIXES = (".html", ".htm")
SNIFF_BYTES = 1 << 20  # of a page, looked through for a <script>

_BLOCKS = {"address", "article", "aside", "blockquote", "dd", "div", "dl", "dt", "figcaption", "figure", "footer",
           "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre",
           "section", "table", "tbody", "thead", "tfoot", "tr", "ul", "body"}
_SKIP = {"head", "script", "style", "template", "noscript", "svg", "object"}


TAKEOUT_INDEX = "archive_browser.html"  # Google Takeout's page listing what the archive holds: no note


def is_note_page(path: Path) -> bool:
    """True for an ``.html`` file that is a note: no script in its first MB, no ``.json`` twin."""
    if path.suffix.lower() not in HTML_SUFFIXES or path.name.lower() in ("chat.html", TAKEOUT_INDEX) \
            or path.with_suffix(".json").exists():
        return False
    try:
        with path.open("rb") as fh:
            head = fh.read(SNIFF_BYTES)
    except OSError:
        return False
    if _META_CHAT_RE.fullmatch(path.name.lower()) and _META_BLOCK_RE.search(head):
        return False  # a chat of Meta's download in HTML (importers.messenger_html)
    return is_note_head(head)


_TAG_RE = re.compile(rb"<[^<>]*>")
_HEAD_RE = re.compile(rb"<(head|style|title)\b.*?</\1\s*>", re.IGNORECASE | re.DOTALL)


def is_note_head(head: bytes) -> bool:
    """True when the first bytes of a page are a note's: no script, and some words in its body."""
    low = head.lower()
    return b"<script" not in low and b"<" in low and bool(_TAG_RE.sub(b" ", _HEAD_RE.sub(b" ", head)).strip()) \
        and not _CHAT_PAGE_RE.search(head)


# a chat's page is no note: imessage-exporter's (importers.imessage_html); Meta's message_N.html (is_note_page);
# DiscordChatExporter's page (its messages' ``chatlog__message-container``); a Google "My Activity" page of a
# Takeout (``outer-cell`` blocks of ``content-cell``s: Gemini's, YouTube's watch history, Search ...): a list of
# activity, no note (Takeout's reader names the products nothing reads)
_CHAT_PAGE_RE = re.compile(rb'<div class="message">\s*<div class="(?:sent|received)\b[^"]*">\s*<p>\s*<span class="timestamp">'
                           rb"|class=[\"']chatlog__message-container\b"
                           rb"|<div class=[\"']outer-cell\b[^\"']*[\"'][^<>]*>\s*<div class=[\"'](?:mdl-grid|header-cell|content-cell)"
                           rb"|<div class=[\"']outer-cell[\"']>")
_META_CHAT_RE = re.compile(r"message_\d+\.html")
_META_BLOCK_RE = re.compile(rb'<div class="pam [^"]*\buiBoxWhite\b')


class _Lines(HTMLParser):
    """HTML to Markdown lines: a block ends its line, ``<br>`` ends one even if empty."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.current: list[str] = []
        self.prefix = ""
        self.skipping = 0
        self.title: list[str] = []
        self.in_title = False
        self.links: list[str] = []  # hrefs of the open <a> tags that link to pages of the export

    def _soft(self) -> None:
        if "".join(self.current).strip():
            self._hard()
        else:
            self.current = []

    def _hard(self) -> None:
        self.lines.append(" ".join("".join(self.current).split()) if self.current else "")
        self.current = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title":
            self.in_title = True
        if tag in _SKIP:
            self.skipping += 1
        elif self.skipping:
            return
        elif tag == "br":
            self._hard()
        elif tag in _BLOCKS:
            self._soft()
            if tag[0] == "h" and tag[1:].isdigit():
                self.current.append("#" * int(tag[1:]) + " ")
            elif tag == "li":
                self.current.append("- ")
        elif tag == "input" and (dict(attrs).get("type") or "").lower() == "checkbox":
            self.current.append("[x] " if "checked" in dict(attrs) else "[ ] ")
        elif tag in ("td", "th"):
            self.current.append(" ")
        elif tag == "a" and _LOCAL_PAGE_RE.match(dict(attrs).get("href") or ""):
            # a link to another page of the export (Notion's HTML export): kept as a Markdown link,
            # which the note importer turns into an edge and shows as its words
            self.links.append(str(dict(attrs)["href"]))
            self.current.append("[")

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self.in_title = False
        if tag in _SKIP:
            self.skipping = max(0, self.skipping - 1)
        elif not self.skipping and tag in _BLOCKS:
            self._soft()
        elif not self.skipping and tag == "a" and self.links:
            self.current.append(f"]({self.links.pop()})")

    def handle_data(self, data: str) -> None:
        if self.in_title:
            self.title.append(data)
        elif not self.skipping:
            self.current.append(data)


_LOCAL_PAGE_RE = re.compile(r"^(?!\w+:)(?!#)[^?#]+\.html?$", re.IGNORECASE)  # "Trip%20plan%20x/Packing.html"


def _key(text: str) -> str:
    return "".join(re.findall(r"\w+", text.casefold()))


def to_lines(text: str, name: str) -> list[str]:
    """The Markdown lines of a note page named ``name`` (its file stem), without a first line that
    repeats its title (the page's ``<title>`` or ``name``)."""
    parser = _Lines()
    parser.feed(text)
    parser.close()
    parser._soft()
    lines: list[str] = []
    for line in parser.lines:  # no runs of blank lines (empty divs stand between paragraphs)
        if line.strip() or (lines and lines[-1].strip()):
            lines.append(line.rstrip())
    titles = {_key(name), _key("".join(parser.title))} - {""}
    first = next((i for i, ln in enumerate(lines) if ln.strip()), None)
    if first is not None and _key(lines[first].lstrip("#")) in titles and any(ln.strip() for ln in lines[first + 1:]):
        del lines[first]
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return lines
