"""Org-mode notes (Emacs, org-roam, Orgzly, Logseq's org pages), read as Markdown for :mod:`importers.markdown`.

Org is the other plain-text notes format people keep for years; rather than a second note
pipeline, an ``.org`` file is rewritten line by line into the Markdown the note parser already
reads, and its file keywords into front matter:

* ``#+TITLE:``/``#+DATE:``/``#+FILETAGS:`` (any case) and a file-level ``:PROPERTIES:`` drawer
  (org-roam's ``:ID:``) become front matter: the title names the note and heads its headlines
  ("Trip to Porto > Flights"), the date dates it
  (``<2024-03-12 Tue 09:15>`` is ``2024-03-12 09:15``), the file tags (``:travel:family:``) tag it
  (every section of it);
* headlines (``** TODO [#A] Book hotel :urgent:``) become headings; a TODO keyword reads as the
  to-do box every other importer writes (``[ ]`` open, ``[x]`` done, ``[-]`` cancelled); a headline's
  tags tag its section and the sections under it, as Org's tag inheritance has it (:func:`convert`);
* planning lines (``SCHEDULED: <2024-03-20 Wed>``) read ``scheduled 2024-03-20``; drawers
  (``:PROPERTIES:``, ``:LOGBOOK:``) and ``# comments`` are no text;
* ``#+BEGIN_SRC``/``EXAMPLE`` blocks are code fences (a ``#`` line in them is no heading),
  ``#+BEGIN_QUOTE`` a quote;
* links: ``[[file:porto.org][the trip]]`` a link to that note (an edge), ``[[id:<uuid>][Oscar]]``
  a link to the note whose ``:ID:`` it is (org-roam), ``[[https://…][a guide]]`` its words.
"""

from __future__ import annotations

import re
import textwrap
from typing import Any

ORG_SUFFIX = ".org"
# Org's default keywords, Logseq's, and the common custom ones; "done" states tick the box.
OPEN_KEYWORDS = ("TODO", "NEXT", "DOING", "NOW", "LATER", "WAIT", "WAITING", "IN-PROGRESS", "HOLD", "STARTED")
DONE_KEYWORDS = ("DONE",)
CANCELLED_KEYWORDS = ("CANCELED", "CANCELLED", "KILL")
_KEYWORDS = "|".join(OPEN_KEYWORDS + DONE_KEYWORDS + CANCELLED_KEYWORDS)

_HEADLINE_RE = re.compile(rf"^(\*+)\s+(?:({_KEYWORDS})\s+)?(?:\[#([A-Z0-9])\]\s*)?(.*?)(?:\s+(:[\w@#%:]+:))?\s*$")
_FILE_KEYWORD_RE = re.compile(r"^#\+([A-Za-z_]+):\s*(.*)$")
_DRAWER_START_RE = re.compile(r"^\s*:([A-Za-z_-]+):\s*$")
# (public: the Markdown importer reads the same drawers in a .md, importers/note_layouts.py)
DRAWER_END_RE = re.compile(r"^\s*:END:\s*$", re.IGNORECASE)
PROPERTY_RE = re.compile(r"^\s*:([A-Za-z_-]+):\s*(.*)$")
_PLANNING_RE = re.compile(r"\b(SCHEDULED|DEADLINE|CLOSED):\s*")
_BLOCK_RE = re.compile(r"^\s*#\+(BEGIN|END)_(\w+)(?:\s+(\S+))?.*$", re.IGNORECASE)
_TIMESTAMP_RE = re.compile(r"[<\[](\d{4}-\d{2}-\d{2})(?:\s+[^\s\d>\]]+\.?)?(?:\s+(\d{1,2}:\d{2})(?:-\d{1,2}:\d{2})?)?"
                           r"(?:\s+[.+-]+\d+[hdwmy])*[>\]]")
_LINK_RE = re.compile(r"\[\[([^\[\]]+)\](?:\[([^\[\]]+)\])?\]")


def timestamp(text: str) -> str:
    """Org timestamps (``<2024-03-12 Tue 09:15>``, ``[2024-03-10 Sun]``, repeaters) as ``2024-03-12 09:15``."""
    return _TIMESTAMP_RE.sub(lambda m: m.group(1) + (f" {m.group(2)}" if m.group(2) else ""), text)


def _link(m: re.Match[str]) -> str:
    """An org link as Markdown: notes as ``[words](file.org)`` (edges), org-roam ids as wikilinks
    (resolved by the ``:ID:`` each note declares), anything else as its words."""
    target, words = m.group(1).strip(), (m.group(2) or "").strip()
    if target.lower().startswith("file:") and target.lower().split("::")[0].endswith(ORG_SUFFIX):
        path = target[5:].split("::")[0]
        return f"[{words or path}]({path.replace(' ', '%20')})"
    if target.lower().startswith("id:"):
        return f"[[{target[3:]}|{words or target[3:]}]]"
    return words or target


def _checkbox(keyword: str | None) -> str:
    if not keyword:
        return ""
    return "[x] " if keyword in DONE_KEYWORDS else "[-] " if keyword in CANCELLED_KEYWORDS else "[ ] "


def to_markdown(lines: list[str]) -> tuple[dict[str, Any], list[str]]:
    """(front matter, Markdown lines) of an Org file's lines (see the module docstring)."""
    front, out, _tags = convert(lines)
    return front, out


def convert(lines: list[str]) -> tuple[dict[str, Any], list[str], dict[int, list[str]]]:
    """(front matter, Markdown lines, headline tags) of an Org file's lines: the tags are by the index
    of a heading in the Markdown lines, each the headline's own tags after those of the headlines it
    sits under (Org's inheritance); the file's tags are the front matter's."""
    front: dict[str, Any] = {}
    tags: list[str] = []
    out: list[str] = []
    heading_tags: dict[int, list[str]] = {}
    above: list[tuple[int, list[str]]] = []  # (level, tags) of the headlines over the current one
    body: list[str] = []  # the current section's lines, dedented together (org indents them under headlines)
    drawer: str | None = None
    fence: str | None = None
    at_top = True

    def flush() -> None:
        out.extend(textwrap.dedent("\n".join(body)).split("\n") if body else [])
        body.clear()

    for raw in lines:
        line = raw.rstrip()
        block = _BLOCK_RE.match(line)
        if fence is not None:
            if block and block.group(1).upper() == "END":
                body.append("```" if fence != "QUOTE" else "")
                fence = None
            else:
                body.append(("> " + line.strip()) if fence == "QUOTE" else line)
            continue
        if block and block.group(1).upper() == "BEGIN":
            fence = block.group(2).upper()
            body.append("" if fence == "QUOTE" else "```" + (block.group(3) or "").lower())
            continue
        if drawer is not None:
            if DRAWER_END_RE.match(line):
                drawer = None
            elif drawer == "PROPERTIES" and at_top and (prop := PROPERTY_RE.match(line)):
                front.setdefault(prop.group(1).lower(), prop.group(2).strip())
            continue
        start = _DRAWER_START_RE.match(line)
        if start and start.group(1).upper() != "END":
            drawer = start.group(1).upper()
            continue
        keyword = _FILE_KEYWORD_RE.match(line)
        if keyword:
            key, value = keyword.group(1).lower(), keyword.group(2).strip()
            if key == "filetags":
                tags += [t for t in value.strip(":").split(":") if t]
            elif key in ("title", "date", "author", "created", "category", "roam_aliases", "description"):
                front.setdefault(key, timestamp(value))
            continue  # #+STARTUP, #+OPTIONS ...: settings of the editor, no text
        if re.match(r"^\s*#(?:\s|$)", line):
            continue  # an org comment line
        headline = _HEADLINE_RE.match(line)
        if headline:
            at_top = False
            flush()
            stars, todo, priority, title, head_tags = headline.groups()
            while above and above[-1][0] >= len(stars):
                above.pop()
            above.append((len(stars), [t for t in (head_tags or "").strip(":").split(":") if t]))
            inherited = list(dict.fromkeys(t for _, own in above for t in own))
            if inherited:
                heading_tags[len(out)] = inherited
            words = _LINK_RE.sub(_link, title.strip())
            out.append("#" * min(len(stars), 6) + " " + _checkbox(todo) + words
                       + (f" (priority {priority})" if priority else ""))
            continue
        if line.strip():
            at_top = False
        text = _PLANNING_RE.sub(lambda m: m.group(1).lower() + " ", line) if _PLANNING_RE.search(line) else line
        body.append(_LINK_RE.sub(_link, timestamp(text)) if "[" in text or "<" in text else text)
    flush()
    if tags:
        front["tags"] = list(dict.fromkeys(tags))
    if isinstance(front.get("title"), str) and front["title"]:
        # the title heads the note and its headlines sit under it: "Trip to Porto > Flights: ..."
        out = [f"# {front['title']}", ""] + [("#" + ln) if re.match(r"^#{1,5} ", ln) and not _in_fence(out, i)
                                               else ln for i, ln in enumerate(out)]
        heading_tags = {i + 2: t for i, t in heading_tags.items()}
    return front, out, heading_tags


def _in_fence(lines: list[str], index: int) -> bool:
    """True when ``lines[index]`` lies inside a code fence (a ``#`` line of code is no headline)."""
    return sum(1 for ln in lines[:index] if ln.startswith("```")) % 2 == 1
