"""What round 28's readers share (DeepSeek, Grok, Le Chat, Rocket.Chat): a time as these exports write it (ISO 8601,
an epoch in seconds or milliseconds, MongoDB's ``{"$date": …}``) with one-line errors naming the field, and a chat's
name made from its first prompt when the export keeps no title."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, Any

from importers import ImportFormatError
from importers._tree import Tree
from importers.chatturns import epoch, iso_date

TITLE_CHARS = 60  # a chat named by its first prompt: cut at a word before this many characters


def any_time(value: Any, what: str, where: str, line: int | None = None) -> datetime:
    """An aware time of ``value``: ISO 8601 (no offset: UTC, as these servers write), an epoch (milliseconds when
    past the year 33658 in seconds), MongoDB's extended JSON (``{"$date": {"$numberLong": "…"}}``, ``{"$date": ISO}``);
    anything else is a one-line error naming ``what`` (and the line, when given)."""
    try:
        if isinstance(value, dict) and "$date" in value:
            value = value["$date"]
            if isinstance(value, dict) and "$numberLong" in value:
                value = value["$numberLong"]
        if isinstance(value, (int, float)) and not isinstance(value, bool) or (
                isinstance(value, str) and value.strip().isdigit()):
            number = float(value)
            return epoch(number, 1000.0 if number > 1e12 else 1.0, what, where)
        when = iso_date(value, what, where)
    except ImportFormatError as exc:
        raise ImportFormatError(exc.reason, where, line) from None
    return when if when.tzinfo is not None else when.replace(tzinfo=timezone.utc)


def title_of(prompt: str) -> str:
    """A chat's name from its first prompt: the first line, cut at a word before ``TITLE_CHARS`` with "…"."""
    first = next((ln.strip() for ln in prompt.splitlines() if ln.strip()), "")
    if len(first) <= TITLE_CHARS:
        return first
    cut = first[:TITLE_CHARS]
    space = cut.rfind(" ")
    return (cut[:space] if space > TITLE_CHARS // 2 else cut).rstrip(" ,;:") + "…"


def json_sources(path: Path, wanted: Callable[[str], bool], missing: str) -> Iterator[tuple[IO[bytes], str]]:
    """(open stream, where) of the export's JSON file: ``path`` itself when it is a .json file, else each member of
    the folder or zip whose file name ``wanted`` accepts (lower-cased); none: ImportFormatError(``missing``). The
    stream is closed when the caller moves on."""
    if path.is_file() and path.suffix.lower() == ".json":
        with path.open("rb") as raw:
            yield raw, str(path)
        return
    tree = Tree(path)
    names = [n for n in tree.names if wanted(n.rsplit("/", 1)[-1].lower())]
    if not names:
        raise ImportFormatError(missing, str(path))
    for name in names:
        with tree.open(name) as raw:
            yield raw, tree.where(name)
