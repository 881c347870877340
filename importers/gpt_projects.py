"""The names of ChatGPT projects and custom GPTs (read by :mod:`importers.chatgpt`).

A conversation held in a project or with a custom GPT carries only its gizmo id (``gizmo_id``: ``g-p-…`` for a
project, ``g-…`` for a GPT); the name the user gave the project lives elsewhere in the export, when at all: a
``projects.json`` list of ``{"id", "name"}``, or the app's sidebar objects (``{"gizmo": {"id", "display":
{"name"}}}``) saved beside the conversations. Any other JSON file of the export is looked through for an object
with a gizmo id and a name (``name``, ``title`` or ``display.name``), whatever the file is called and however
deep the object sits: the name is the user's, the shape the app's, which changes.

Bounded: a file over NAMES_MAX_BYTES (or a zip member inflating past it) is not read, nor a file nested past
what the JSON reader takes; the walk visits at most MAX_NODES values, keeps at most MAX_NAMES names."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from importers import ImportFormatError
from importers._jsonstream import CUT_MARK, _opened, json_sources
from importers._zips import is_zip

NAMES_MAX_BYTES = 16 * 1024 * 1024  # of one file looked through for names: the app's lists are small
MAX_NODES = 2_000_000
MAX_NAMES = 100_000
_GIZMO_RE = re.compile(r"g-(?:p-)?[A-Za-z0-9]{1,64}")


def _name(obj: dict[str, Any]) -> str | None:
    display = obj.get("display")
    for value in (obj.get("name"), obj.get("title"), display.get("name") if isinstance(display, dict) else None):
        if isinstance(value, str) and value.strip() and len(value) <= 200 and CUT_MARK not in value:
            return " ".join(value.split())
    return None


def _walk(data: Any, names: dict[str, str]) -> None:
    """Names by gizmo id found anywhere in ``data`` (iterative: no recursion, at most MAX_NODES values)."""
    stack = [data]
    seen = 0
    while stack and seen < MAX_NODES and len(names) < MAX_NAMES:
        node = stack.pop()
        seen += 1
        if isinstance(node, dict):
            ident = node.get("id") if isinstance(node.get("id"), str) else node.get("gizmo_id")
            if isinstance(ident, str) and _GIZMO_RE.fullmatch(ident):
                name = _name(node)
                if name is not None:
                    names.setdefault(ident, name)
            stack.extend(v for v in node.values() if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            stack.extend(v for v in node if isinstance(v, (dict, list)))


def names(path: Path, skip: set[tuple[Path, str | None]], limit: int) -> tuple[dict[str, str], list[tuple[Path, str | None]]]:
    """(gizmo id -> name, the files that gave names) of an export's other JSON files (not those in ``skip``:
    the conversations and shared links already read). Only a folder or a zip has other files."""
    if not (path.is_dir() or is_zip(path)):
        return {}, []
    try:
        sources = json_sources(path, lambda name: name.lower().endswith(".json"))
    except ImportFormatError:
        return {}, []
    found: dict[str, str] = {}
    used: list[tuple[Path, str | None]] = []
    for source in sources:
        if source in skip or (source[1] is None and source[0].stat().st_size > NAMES_MAX_BYTES):
            continue
        try:
            with _opened(source, min(limit, NAMES_MAX_BYTES + 1)) as fh:
                data = fh.read(NAMES_MAX_BYTES + 1)
            if len(data) > NAMES_MAX_BYTES:
                continue
            before = len(found)
            _walk(json.loads(data), found)
        except (ImportFormatError, ValueError, RecursionError, OSError):
            continue  # not JSON, too deep, cut: it names nothing
        if len(found) > before:
            used.append(source)
    return found, used
