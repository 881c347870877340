"""Marks note apps leave in a note's text that say something about the note rather than in it, read
for :mod:`importers.markdown` (round 7 of unseen layouts):

* a line made only of tags (Bear closes a note with ``#travel/2024 #family trip# #todo``; Obsidian
  and iA Writer users write one under the title): the tags tag the note, the line is no text;
* Obsidian Dataview fields: a line ``status:: waiting`` and an inline ``[price:: 2400 EUR]`` read
  ``status: waiting`` and ``price: 2400 EUR`` (the value is the user's; the double colon is the
  plugin's), ``(key:: value)`` reads as its value (Dataview shows only the value); all of them are
  ``metadata["fields"]`` too;
* a note saved as HTML under a ``.md`` name (Apple Notes exporters write ``<div>`` lines): every line
  a tag of a block, so the note is the page it is, read by :mod:`importers.html_notes`.

Code fences are left alone throughout.
"""

from __future__ import annotations

import re
from collections.abc import Callable

FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")  # a code fence's opening or closing line
_FIELD_LINE_RE = re.compile(r"^(\s*(?:[-*+]\s+)?)([^\W\d][\w ./-]{0,40}?)::[ \t]*(.*)$")
_FIELD_INLINE_RE = re.compile(r"([\[(])([^\W\d][\w ./-]{0,40}?)::[ \t]*([^\[\]()\n]*?)\s*[\])]")
_HTML_BLOCK_RE = re.compile(r"^<(?:div|p|h[1-6]|ul|ol|li|br|table|tr|td|th|tbody|thead|blockquote|pre|span|b|i|"
                            r"strong|em|a|img|hr|object|body|html|head|meta|title|style)\b[^<>]*>", re.IGNORECASE)


def fence_step(line: str, fence: str | None) -> tuple[bool, str | None]:
    """(whether ``line`` is a code fence's marker line, the fence open after it) given the fence open
    before it (None: outside code). A marker of the other kind (``~~~`` in a block opened by backticks)
    is code."""
    fm = FENCE_RE.match(line)
    if not fm:
        return False, fence
    marker = fm.group(1)
    if fence is None:
        return True, marker[0] * 3
    return True, (None if marker.startswith(fence) else fence)


def _outside_fences(text: str, line_fn: Callable[[str], str | None]) -> str:
    """``text`` with ``line_fn`` applied to each line outside code fences (None drops the line)."""
    out: list[str] = []
    fence: str | None = None
    for line in text.split("\n"):
        marks, fence = fence_step(line, fence)
        if marks or fence is not None:
            out.append(line)
            continue
        new = line_fn(line)
        if new is not None:
            out.append(new)
    return "\n".join(out)


def dataview_fields(text: str) -> tuple[str, dict[str, str]]:
    """(``text`` with its Dataview fields as ``key: value``, the fields by key, first value kept)."""
    if "::" not in text:
        return text, {}
    fields: dict[str, str] = {}

    def inline(m: re.Match[str]) -> str:
        key, value = m.group(2).strip(), m.group(3).strip()
        fields.setdefault(key, value)
        return value if m.group(1) == "(" else f"{key}: {value}"

    def line_fn(line: str) -> str | None:
        if "::" not in line:
            return line
        line = _FIELD_INLINE_RE.sub(inline, line)
        m = _FIELD_LINE_RE.match(line)
        if m and "://" not in m.group(2):
            key, value = m.group(2).strip(), m.group(3).strip()
            fields.setdefault(key, value)
            # a "Tags::" attribute (Roam, Dataview) tags the note (the caller reads the field): no text
            return None if key.casefold() in ("tags", "tag") else f"{m.group(1)}{key}: {value}"
        return line

    return _outside_fences(text, line_fn), fields


def tag_lines(text: str, read_tags: Callable[[str], list[str]]) -> tuple[str, list[str]]:
    """(``text`` without its lines made only of tags, those lines' tags). ``read_tags`` is the
    note parser's tag reader (one-word, nested ``#a/b``, Bear's ``#two words#``, Roam's)."""
    if "#" not in text:
        return text, []
    found: list[str] = []

    def line_fn(line: str) -> str | None:
        if not line.lstrip().startswith("#"):
            return line
        tags = read_tags(line)
        rest = line
        for tag in sorted(tags, key=len, reverse=True):  # "#travel/2024" before "#travel"
            rest = re.sub(rf"#\[\[{re.escape(tag)}\]\]|#{re.escape(tag)}#?", " ", rest)
        if not tags or rest.replace(",", " ").strip():
            return line
        found.extend(tags)
        return None

    kept = _outside_fences(text, line_fn)
    return (kept.strip("\n") if found else text), found


def is_html_body(text: str) -> bool:
    """True when every non-blank line of a note is HTML (starts with a block tag or a closing tag
    and ends with ``>``) and the first is a block tag: a page saved under a ``.md`` name."""
    lines = [ln.strip() for ln in text.split("\n") if ln.strip()]
    if not lines or not _HTML_BLOCK_RE.match(lines[0]):
        return False
    return all(ln.startswith("<") and ln.endswith(">") for ln in lines)


# Obsidian's and Markdown extensions' inline marks that carry no words: a highlight's "==" (not "a == b",
# whose "==" has spaces on both sides), a footnote's caret ("[^1]" reads "[1]"; its definition "[^1]: …"
# reads "[1] …").
_HIGHLIGHT_RE = re.compile(r"==(?=\S)([^=\n]+?)(?<=\S)==")
# Bear 1's ("Polar Bear" markup) highlight: "::words::", never touching a word (C++'s "std::map::at" is no mark)
# and never a Dataview or Logseq field, whose "key:: value" has a space after the colons
_BEAR_HIGHLIGHT_RE = re.compile(r"(?<![\w:])::(?=[^\s:])([^:\n]+?)(?<=\S)::(?![\w:])")
_FOOTNOTE_DEF_RE = re.compile(r"^\[\^([^\]\s]{1,40})\]:\s*")
_FOOTNOTE_RE = re.compile(r"\[\^([^\]\s]{1,40})\]")


def inline_marks(line: str) -> str:
    """``line`` without highlight marks (``==x==``, Bear 1's ``::x::``) and footnote carets (see above)."""
    line = _HIGHLIGHT_RE.sub(r"\1", line) if "==" in line else line
    line = _BEAR_HIGHLIGHT_RE.sub(r"\1", line) if "::" in line else line
    line = _FOOTNOTE_DEF_RE.sub(r"[\1] ", line)
    return _FOOTNOTE_RE.sub(r"[\1]", line)
