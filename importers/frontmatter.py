"""Front matter of a note: a tiny YAML subset (``---``) and TOML (``+++``), never raising.

Split out of :mod:`importers.markdown` (which re-exports ``parse_front_matter``); every note
parser that reads front matter uses :func:`front_matter`.
"""

from __future__ import annotations

import re
from typing import Any

# --- a tiny YAML subset: enough for front matter, never raises ------------------


def _scalar(raw: str) -> Any:
    value = raw.strip()
    if not value:
        return None
    if (value[0] == value[-1]) and value[0] in "\"'" and len(value) >= 2:
        return value[1:-1]
    if value.startswith("[") and value.endswith("]") and not value.startswith("[["):
        inner = value[1:-1].strip()
        return [_scalar(v) for v in _split_flow(inner)] if inner else []
    low = value.lower()
    if low in ("true", "yes"):
        return True
    if low in ("false", "no"):
        return False
    if low in ("null", "~"):
        return None
    if re.fullmatch(r"-?\d+", value):
        return int(value)
    if re.fullmatch(r"-?\d+\.\d+", value):
        return float(value)
    return value


def _split_flow(inner: str) -> list[str]:
    """Split ``a, "b, c", [[x]]`` on top-level commas."""
    out: list[str] = []
    depth = 0
    quote = ""
    cur = ""
    for ch in inner:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(cur)
            cur = ""
            continue
        cur += ch
    out.append(cur)
    return [s for s in out if s.strip()]


def parse_front_matter(lines: list[str]) -> dict[str, Any]:
    """Parse ``key: value`` lines and ``- item`` lists; unknown shapes are ignored."""
    data: dict[str, Any] = {}
    key: str | None = None
    for line in lines:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        item = re.match(r"^\s*-\s*(.*)$", line)
        if item and key is not None:
            current = data.get(key)
            if not isinstance(current, list):
                current = []
                data[key] = current
            current.append(_scalar(item.group(1)))
            continue
        kv = re.match(r"^([^\s:#][^:]*?)\s*:(?:\s+(.*)|\s*)$", line)
        if kv and not line.startswith((" ", "\t")):
            key = kv.group(1).strip().strip("\"'")
            data[key] = _scalar(kv.group(2) or "")
        else:
            key = key if line.startswith((" ", "\t")) else None
    return data


def parse_toml_front_matter(lines: list[str]) -> dict[str, Any]:
    """Hugo/Zola ``+++`` front matter: top-level ``key = value`` lines (strings, numbers,
    booleans, dates, inline arrays); tables (``[params]``) and what follows them are ignored."""
    data: dict[str, Any] = {}
    for line in lines:
        if line.lstrip().startswith("["):
            break  # a table: its keys are not the note's own
        kv = re.match(r"^\s*([A-Za-z0-9_-]+|\"[^\"]+\")\s*=\s*(.*?)\s*$", line)
        if kv:
            data[kv.group(1).strip('"')] = _scalar(kv.group(2))
    return data


# MultiMarkdown's metadata: "Key: value" lines from line 1 to a blank line (nvALT, iA Writer, Ulysses, Marked).
# Only its known keys make such a block metadata: a note that starts "Note: call Oscar" keeps its words.
_MMD_KEYS = frozenset(("title", "date", "tags", "keywords", "author", "created", "modified", "updated", "category",
                       "categories", "subtitle", "summary", "slug", "aliases", "status", "lang", "language", "css",
                       "base header level", "affiliation", "copyright", "format"))
_MMD_NAMING = frozenset(("title", "date", "tags", "keywords", "created"))  # one of these at least
_MMD_LINE_RE = re.compile(r"^([A-Za-z][A-Za-z0-9 _-]{0,30}):[ \t]+(\S.*?)\s*$")


def _multimarkdown(lines: list[str]) -> tuple[dict[str, Any], int]:
    """MultiMarkdown's metadata block (see :data:`_MMD_KEYS`) and the index of the body's first line, else ({}, 0);
    keys lowercased, tags and keywords split at commas."""
    data: dict[str, Any] = {}
    for i, line in enumerate(lines):
        if not line.strip():
            if data and data.keys() & _MMD_NAMING and i + 1 < len(lines):
                return data, i + 1
            return {}, 0
        m = _MMD_LINE_RE.match(line)
        if not m or m.group(1).lower() not in _MMD_KEYS:
            return {}, 0
        key, value = m.group(1).lower(), m.group(2)
        data[key] = [v.strip() for v in value.split(",") if v.strip()] if key in ("tags", "keywords") else value
    return {}, 0


def front_matter(lines: list[str]) -> tuple[dict[str, Any], int]:
    """(front matter, index of the first body line): YAML between ``---`` lines (closed by
    ``---`` or ``...``) or TOML between ``+++`` lines, only when the fence is line 1; else
    MultiMarkdown's metadata lines (:func:`_multimarkdown`)."""
    if not lines:
        return {}, 0
    fence = lines[0].rstrip()
    if fence not in ("---", "+++"):
        return _multimarkdown(lines[:40])
    ends = ("---", "...") if fence == "---" else ("+++",)
    for i in range(1, len(lines)):
        if lines[i].rstrip() in ends:
            body = lines[1:i]
            return (parse_front_matter(body) if fence == "---" else parse_toml_front_matter(body)), i + 1
    return {}, 0


# --- sections ---------------------------------------------------------------------


# --- tags -----------------------------------------------------------------------

_WIKI_TAG_RE = re.compile(r"\[\[([^\[\]|]+)(?:\|[^\[\]]*)?\]\]")


def _fm_tag(value: Any) -> str:
    """One front matter tag: "#home" is "home"; a tag written as a wiki link ("[[Home Renovation]]", as
    Capacities writes tags; unquoted YAML reads ``[[Kitchen]]`` as a list in a list) is the page's name."""
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    text = str(value).strip()
    link = _WIKI_TAG_RE.fullmatch(text)
    return link.group(1).strip() if link else text.lstrip("#").strip()


def front_tags(value: Any) -> list[str]:
    """The tags of a front matter value: a list, or a string split at commas and spaces."""
    if isinstance(value, str):
        # "[[Home Renovation]] [[Kitchen]]": links hold spaces, so they are read whole before splitting
        links = [m.group(1).strip() for m in _WIKI_TAG_RE.finditer(value)]
        value = links + re.split(r"[,\s]+", _WIKI_TAG_RE.sub(" ", value))
    if not isinstance(value, list):
        return []
    tags = [_fm_tag(v) for v in value if v is not None and str(v).strip()]
    return [t for t in tags if t]
