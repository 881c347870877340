"""What a Logseq graph writes beyond Markdown, read for :mod:`importers.markdown`.

A graph is a folder holding ``logseq/config.edn`` (the app's settings), its pages in ``pages/`` and
its days in ``journals/``. Besides page properties (``key:: value``, :mod:`importers.markdown_apps`):

* task markers start a block (``- TODO``, ``- DOING``, ``- LATER``, ``- NOW``, ``- DONE``,
  ``- CANCELED`` …): they read as the to-do box every other importer writes (``[ ]`` open,
  ``[x]`` done, ``[-]`` cancelled; the same words as Org's keywords), a priority ``[#A]`` as
  ``(priority A)``;
* a block reference ``((65f0a1b2-…))`` or embed ``{{embed ((…))}}`` is the words of the block that
  declares that ``id::`` (anywhere in the graph), and a link to its page; one whose block is not
  in the import is dropped (a uuid is no words);
* page files name namespaces ``Projects___Boiler.md`` (or ``Projects%2FBoiler.md``, older graphs):
  the page is "Projects/Boiler".
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from urllib.parse import unquote

from importers import ImportFormatError
from importers._common import decode_text, split_lines
from importers.orgmode import CANCELLED_KEYWORDS, DONE_KEYWORDS, OPEN_KEYWORDS

_UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
_MARKER_RE = re.compile(
    rf"^(\s*[-*+]\s+)({'|'.join(OPEN_KEYWORDS + DONE_KEYWORDS + CANCELLED_KEYWORDS)})\s+(?:\[#([A-Z])\]\s*)?")
_PRIORITY_RE = re.compile(r"\s*\[#([A-C])\]")
_REF_RE = re.compile(rf"\{{\{{embed\s+\(\(({_UUID})\)\)\s*\}}\}}|\(\(({_UUID})\)\)", re.IGNORECASE)
_ID_LINE_RE = re.compile(rf"^(\s*)id::\s*({_UUID})\s*$", re.IGNORECASE)
_BLOCK_START_RE = re.compile(r"^(\s*)[-*+]\s+(.*)$")


@functools.lru_cache(maxsize=64)
def is_graph(root: Path) -> bool:
    """True for the folder of a Logseq graph (its ``logseq/config.edn``)."""
    return (root / "logseq" / "config.edn").is_file()


def page_name(stem: str) -> str:
    """A page file's name as the page's: namespaces ``a___b`` / ``a%2Fb`` are ``a/b``."""
    return unquote(stem.replace("___", "/")) if "___" in stem or "%" in stem else stem


def markers(line: str) -> str:
    """A block's task marker as a to-do box, its priority as words (see the module docstring)."""
    m = _MARKER_RE.match(line)
    if not m:
        return line
    keyword = m.group(2)
    box = "[x]" if keyword in DONE_KEYWORDS else "[-]" if keyword in CANCELLED_KEYWORDS else "[ ]"
    rest = line[m.end():]
    priority = m.group(3) or (p.group(1) if (p := _PRIORITY_RE.search(rest)) else None)
    rest = _PRIORITY_RE.sub("", rest).rstrip()
    return f"{m.group(1)}{box} {rest}" + (f" (priority {priority})" if priority else "")


def block_texts(lines: list[str]) -> dict[str, str]:
    """{uuid: the words of the block declaring ``id:: uuid``} of one page's lines."""
    found: dict[str, str] = {}
    for i, line in enumerate(lines):
        m = _ID_LINE_RE.match(line)
        if not m:
            continue
        indent = len(m.group(1).expandtabs(2))
        for j in range(i - 1, -1, -1):
            block = _BLOCK_START_RE.match(lines[j])
            if block and len(block.group(1).expandtabs(2)) < indent:
                found[m.group(2).lower()] = markers(lines[j]).strip().lstrip("-*+").strip()
                break
    return found


def resolve_refs(line: str, blocks: dict[str, tuple[str, str]]) -> tuple[str, list[str]]:
    """``line`` with its block references as the blocks' words, and the pages (paths) they are on."""
    if "((" not in line:
        return line, []
    pages: list[str] = []

    def repl(m: re.Match[str]) -> str:
        hit = blocks.get((m.group(1) or m.group(2)).lower())
        if hit is None:
            return "\x00"  # dropped below with the space before it: "asked about ((…)) too" -> "asked about too"
        pages.append(hit[1])
        return hit[0]

    return re.sub(r"[ \t]+$", "", re.sub(r"[ \t]?\x00", "", _REF_RE.sub(repl, line))), pages


# A property of the block above it, indented under it ("  type:: visit"; a page's own are its first lines): the user's own field, read "type: visit" as Roam's
# attributes and Dataview's fields are (the app's own, id:: and collapsed::, are dropped before: LOGSEQ_NOISE_RE).
_BLOCK_PROP_RE = re.compile(r"^(\s+)([A-Za-z][\w-]*):: (\S.*)$")


def page_lines(lines: list[str], blocks: dict[str, tuple[str, str]],
               noise: re.Pattern[str]) -> tuple[list[str], list[str]]:
    """A Logseq page's lines with task markers as to-do boxes and block references as the blocks'
    words (:mod:`importers.logseq`), a block's own properties as "key: value" (``noise``: the app's own ones,
    left as they are for the caller to drop), and the pages those blocks are on."""
    out: list[str] = []
    pages: list[str] = []
    for line in lines:
        line, on = resolve_refs(markers(line), blocks)
        if "::" in line and not noise.match(line):
            line = _BLOCK_PROP_RE.sub(r"\1\2: \3", line)
        out.append(line)
        pages += on
    return out, list(dict.fromkeys(pages))


def graph_blocks(root: Path, files: list[Path]) -> dict[str, tuple[str, str]]:
    """{block uuid: (its words, its page's path)} of a Logseq graph's pages (empty for other notes)."""
    if not is_graph(root):
        return {}
    found: dict[str, tuple[str, str]] = {}
    for file in files:
        if file.suffix.lower() in (".md", ".markdown"):
            rel = file.relative_to(root).as_posix()
            try:
                lines = split_lines(decode_text(file.read_bytes(), str(file)))
            except ImportFormatError:
                continue  # not UTF-8: the note is read (and warned about) later; its blocks are not referable
            found.update({k: (v, rel) for k, v in block_texts(lines).items()})
    return found
