"""Roam Research's JSON export, read by the markdown importer (:mod:`importers.markdown`) as its markdown export
reads: "Export All" as JSON writes one file, a list of pages ``{"title", "children", "uid", "create-time",
"edit-time"}`` whose ``children`` are blocks ``{"string", "uid", "children", "create-time", ...}`` nested to any
depth. Each page becomes the Markdown outline Roam's own markdown export writes ("- block", children four spaces
in), so attributes (``Phone:: x``), ``{{[[TODO]]}}`` boxes, ``[[links]]`` and ``#tags`` read as they do there.

* A block ref ``((uid))`` or embed ``{{embed: ((uid))}}`` is the words of the block it names (one level: a ref
  inside those words is not followed, so refs round a cycle end); a ref to no block of the file is dropped by
  :func:`importers.note_layouts.blocks_and_markers`.
* A daily page ("March 14th, 2024") is dated by its title, as the markdown export's file is; any other page by
  its ``create-time`` (milliseconds), written as the outline's front matter ``created``.
* The file is streamed a page at a time (:func:`_pages`, linear in the file's size whatever its nesting, refused
  past ``MAX_JSON_DEPTH`` levels); blocks are walked without recursion and indented at most ``MAX_DEPTH`` levels.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

import ijson

from importers import ImportFormatError, ImportReport
from importers._common import head_matches
from importers._jsonstream import DEFAULT_MAX_JSON_BYTES, _json_errors, _opened
from importers.note_dates import _file_date

HEAD_BYTES = 64 * 1024
MAX_JSON_DEPTH = 1024  # JSON levels (two a block: the block and its children's list); deeper: refused
MAX_DEPTH = 32  # deeper blocks are written at this indent: an outline nobody reads 32 levels in
MAX_REF_CHARS = 32 * 1024 * 1024  # the words of referenced blocks kept for their refs; past it refs read as unknown
_HEAD_RE = re.compile(rb"^\s*\[\s*\{")
_ROAM_KEY_RE = re.compile(rb'"(?:create|edit)-time"\s*:|":(?:create|edit)/user"\s*:')
_REF_RE = re.compile(r"\{\{\s*(?:\[\[)?embed(?:\]\])?\s*:?\s*\(\(([\w-]{9})\)\)\s*\}\}|\(\(([\w-]{9})\)\)")


def is_export_head(head: bytes) -> bool:
    """True when the first bytes of a file are those of Roam's JSON export: a list of objects with a "title" and
    Roam's own "create-time" / "edit-time" keys."""
    head = head.lstrip(b"\xef\xbb\xbf")
    return bool(_HEAD_RE.match(head)) and b'"title"' in head and _ROAM_KEY_RE.search(head) is not None


def is_export(path: Path) -> bool:
    """True for Roam's JSON export (a ``.json`` file, by its first bytes)."""
    return path.suffix.lower() == ".json" and head_matches(path, is_export_head, HEAD_BYTES)


def _blocks(page: dict[str, Any]) -> Iterator[tuple[int, dict[str, Any]]]:
    """(depth, block) of a page's blocks in reading order, walked with a stack (no recursion)."""
    stack: list[tuple[int, Any]] = [(0, b) for b in reversed(page.get("children") or []) if isinstance(page.get("children"), list)]
    while stack:
        depth, block = stack.pop()
        if not isinstance(block, dict):
            continue
        yield depth, block
        children = block.get("children")
        if isinstance(children, list):
            stack.extend((depth + 1, c) for c in reversed(children))


def _pages(file: Path) -> Iterator[dict[str, Any]]:
    """The pages of the export, built one at a time from the parser's events. Not ``ijson.items``: each of its
    events carries the path from the top ("item.children.item.children…"), so a file nested n deep cost n² (a
    hostile 5,000 levels took half a gigabyte); a file nested over ``MAX_JSON_DEPTH`` is refused."""
    where = str(file)
    with _json_errors(where), _opened((file, None), DEFAULT_MAX_JSON_BYTES) as fh:
        stack: list[Any] = []
        keys: list[str] = []
        for event, value in ijson.basic_parse(fh, use_float=True):
            if event == "map_key":
                keys[-1] = value
                continue
            if event in ("start_map", "start_array"):
                if len(stack) >= MAX_JSON_DEPTH:
                    raise ImportFormatError(f"Roam export nested over {MAX_JSON_DEPTH} levels", where)
                stack.append({} if event == "start_map" else [])
                keys.append("")
                continue
            if event in ("end_map", "end_array"):
                value = stack.pop()
                keys.pop()
            if len(stack) == 1 and isinstance(stack[0], list):
                if isinstance(value, dict):
                    yield value  # a page, done: the list of pages is never held
            elif stack:
                parent = stack[-1]
                if isinstance(parent, list):
                    parent.append(value)
                else:
                    parent[keys[-1]] = value


@lru_cache(maxsize=2)
def _referenced(file: str, _stamp: tuple[int, int]) -> dict[str, str]:
    """{uid: words} of the blocks of ``file`` that some block refers to (two passes over the file: the uids
    referred to, then their words), at most ``MAX_REF_CHARS`` of words. Cached per file and version: the
    importer reads each file twice (links first, then records)."""
    wanted: set[str] = set()
    for page in _pages(Path(file)):
        for _depth, block in _blocks(page):
            text = block.get("string")
            if isinstance(text, str) and "((" in text:
                wanted.update(m.group(1) or m.group(2) for m in _REF_RE.finditer(text))
    found: dict[str, str] = {}
    size = 0
    if not wanted:
        return found
    for page in _pages(Path(file)):
        for _depth, block in _blocks(page):
            uid, text = block.get("uid"), block.get("string")
            if isinstance(uid, str) and uid in wanted and isinstance(text, str) and size + len(text) <= MAX_REF_CHARS:
                found[uid] = text
                size += len(text)
    return found


def _resolved(text: str, refs: dict[str, str]) -> str:
    """``text`` with its block refs and embeds as the words of the blocks they name (unknown ones left for the
    markdown reader to drop)."""
    if "((" not in text:
        return text

    def words(m: re.Match[str]) -> str:
        uid = m.group(1) or m.group(2)
        return refs[uid].replace("\n", " ") if uid in refs else m.group(0)

    return _REF_RE.sub(words, text)


def pages(file: Path, report: ImportReport) -> Iterator[tuple[str, str]]:
    """(title, Markdown outline with its front matter) of each page of a Roam JSON export that has a title."""
    stat = file.stat()
    refs = _referenced(str(file), (stat.st_mtime_ns, stat.st_size))
    for page in _pages(file):
        title = page.get("title")
        if not isinstance(title, str) or not title.strip():
            report.skipped_empty += 1
            continue
        title = " ".join(title.split())
        lines: list[str] = []
        for depth, block in _blocks(page):
            text = block.get("string")
            if not isinstance(text, str) or not text.strip():
                continue
            indent = "    " * min(depth, MAX_DEPTH)
            first, *rest = _resolved(text, refs).split("\n")
            lines.append(f"{indent}- {first}")
            lines += [f"{indent}  {ln}" for ln in rest]
        if not lines:  # a page of no words (a date only linked to, a tag's page): nothing to remember
            report.skipped_empty += 1
            continue
        created = page.get("create-time")
        if isinstance(created, (int, float)) and not isinstance(created, bool) and _file_date(title) is None:
            lines = ["---", f"created: {int(created)}", "---", *lines]
        yield title, "\n".join(lines) + "\n"
