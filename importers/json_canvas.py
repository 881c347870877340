"""Obsidian's canvases (``.canvas``, the JSON Canvas format), read by the markdown importer
(:mod:`importers.markdown`): ``{"nodes": [...], "edges": [...]}`` whose nodes are cards on a plane. A canvas is
one note: its text cards (Markdown) in reading order, top to bottom and then left to right, a blank line
apart. A card of a file is that file (read as its own note when the vault holds it), a link card a web page and a
group a frame round other cards: none is words of the canvas; edges are arrows, no words either."""

from __future__ import annotations

import json
from typing import Any

from importers import ImportFormatError

CANVAS_SUFFIX = ".canvas"


def _number(value: Any) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0


def text(raw: str, where: str) -> str:
    """The Markdown text of a canvas whose file holds ``raw`` (see the module docstring); a canvas that is no
    JSON object is refused with a one-line error naming ``where``."""
    try:
        doc = json.loads(raw) if raw.strip() else {}
    except (ValueError, RecursionError) as exc:
        raise ImportFormatError(f"invalid JSON canvas ({type(exc).__name__})", where) from None
    if not isinstance(doc, dict):
        raise ImportFormatError("invalid JSON canvas (not an object)", where)
    nodes = doc.get("nodes")
    cards = [(_number(n.get("y")), _number(n.get("x")), n["text"].strip()) for n in (nodes if isinstance(nodes, list) else [])
             if isinstance(n, dict) and n.get("type") == "text" and isinstance(n.get("text"), str) and n["text"].strip()]
    return "\n\n".join(card for _y, _x, card in sorted(cards, key=lambda c: (c[0], c[1]))) + "\n"
