"""Element's (Matrix) HTML export of a room (round layouts35): a zip "matrix - <room> - Chat Export - <time>.zip"
holding the room's folder — ``messages.html`` (``messages2.html`` … on long rooms), ``css/``, ``js/``, ``media/`` —
the page being Element's own timeline rendered to static markup.

The header names the room (``mx_RoomHeader_name``). Each event is an ``li.mx_EventTile``: a first tile of a sender
names them (``mx_DisambiguatedProfile_displayName``: the display name Element showed), a continuation tile
(``mx_EventTile_continuation``) does not — its sender is the one above; the time is the ``mx_MessageTimestamp``'s
``title``, the full date as the exporting browser's locale writes it ("Tue, Mar 12, 2024, 21:05:41"; "Tue, 12 Mar
2024, 21:05:41"), on its computer's clock (naive); the words are the ``mx_EventTile_body``'s (``<br>`` and
paragraphs line breaks; a reply's quoted event, ``mx_ReplyChain``, and the "(edited)" mark are no words of it).
Info tiles (a member joined, a rename), redactions and date separators are system lines; a tile of an image, file,
video or sticker and no words is media; a tile of words with no timestamp is kept undated, said. Read a chunk at a time (:mod:`importers._htmlchat`): a room of years is never
all in memory. A page with no tile, or a time in no form known, is a one-line error naming the page."""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from importers import ImportFormatError, ImportReport, Record
from importers._htmlchat import BREAK, ClassTree, feed_stream, words
from importers._zips import DEFAULT_MAX_MEMBER_BYTES, ZIP_ERRORS, _Limited, open_zip
from importers.apps35 import ELEMENT_PAGE_RE, element_pages
from importers.chatturns import MEDIA, SYSTEM, Turn, Turns

NAME = "matrix"
_FOLDER_RE = re.compile(r"^matrix - (.+) - Chat Export - [\dT:.-]+Z?$")
_MEDIA = frozenset({"mx_MImageBody", "mx_MFileBody", "mx_MVideoBody", "mx_MAudioBody", "mx_MStickerBody",
                    "mx_MLocationBody", "mx_MVoiceMessageBody"})
_BLOCKS = frozenset({"p", "div", "li", "blockquote", "pre", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "tr"})
_FORMATS = ("%a %b %d %Y %H:%M:%S", "%a %b %d %Y %I:%M:%S %p", "%a %d %b %Y %H:%M:%S", "%a %d %b %Y %I:%M:%S %p",
            "%a %b %d %Y %H:%M", "%a %b %d %Y %I:%M %p", "%a %d %b %Y %H:%M", "%a %d %b %Y %I:%M %p",
            "%a %d/%m/%Y %H:%M:%S", "%a %m/%d/%Y %I:%M:%S %p", "%a %Y-%m-%d %H:%M:%S")


def when_of(title: str) -> datetime | None:
    """The time of a timestamp's title in the forms Element's browsers write (commas and "at" dropped), else None."""
    text = " ".join(title.replace(",", " ").replace("\u202f", " ").replace(" at ", " ").split())
    for fmt in _FORMATS:
        try:
            return datetime.strptime(text, fmt)
        except ValueError:
            continue
    return None


class _Page(ClassTree):
    """Element's page: the room's name, then a dict per event tile in :attr:`out`."""

    def __init__(self) -> None:
        super().__init__()
        self.room: list[str] = []
        self.tile: dict[str, Any] | None = None

    def opened(self, tag: str, attrs: dict[str, str], classes: frozenset[str]) -> None:
        if tag == "li" and "mx_EventTile" in classes and self.tile is None:
            self.tile = {"name": [], "title": "", "words": [], "media": False, "redacted": False, "edited": False,
                         "info": "mx_EventTile_info" in classes or self.inside("mx_GenericEventListSummary"),
                         "continuation": "mx_EventTile_continuation" in classes, "line": self.getpos()[0]}
            return
        tile = self.tile
        if tile is None or self.inside("mx_ReplyChain") or "mx_ReplyChain" in classes:
            return
        if tag == "span" and "mx_MessageTimestamp" in classes and not tile["title"]:
            tile["title"] = attrs.get("title", "")
        tile["media"] |= bool(_MEDIA & classes)
        tile["redacted"] |= "mx_RedactedBody" in classes
        tile["edited"] |= "mx_EventTile_edited" in classes
        if tag == "br" and self.inside("mx_EventTile_body"):
            tile["words"].append(BREAK)

    def closed(self, tag: str, classes: frozenset[str]) -> None:
        if self.tile is not None and tag == "li" and "mx_EventTile" in classes:
            self.out.append(self.tile)
            self.tile = None
        elif self.tile is not None and tag in _BLOCKS and self.inside("mx_EventTile_body"):
            self.tile["words"].append(BREAK)

    def text(self, data: str) -> None:
        if self.inside("mx_RoomHeader_name") and self.tile is None:
            self.room.append(data)
        tile = self.tile
        if tile is None or self.inside("mx_ReplyChain") or self.inside("mx_EventTile_edited"):
            return
        if self.inside("mx_DisambiguatedProfile_displayName"):
            tile["name"].append(data)
        elif self.inside("mx_EventTile_body"):
            tile["words"].append(data)


Opener = tuple[str, Any]  # (where, a callable opening the page as a binary stream)


def _pages(path: Path) -> list[Opener]:
    """The export's pages in order: a page, the room's folder (or the folder above it), or the zip."""
    if path.is_dir():
        pages = element_pages(path) or next((element_pages(p) for p in sorted(path.iterdir()) if p.is_dir()
                                             and element_pages(p)), [])
        if not pages:
            raise ImportFormatError("folder holds no Element HTML export (messages.html)", str(path))
        return [(str(p), (lambda p=p: p.open("rb"))) for p in pages]
    with path.open("rb") as fh:
        zipped = fh.read(4) == b"PK\x03\x04"
    if not zipped:
        return [(str(path), lambda: path.open("rb"))]
    with open_zip(path, str(path)) as zf:
        names = [n for n in zf.namelist() if ELEMENT_PAGE_RE.fullmatch(n.rsplit("/", 1)[-1]) and n.count("/") <= 1]
    names.sort(key=lambda n: int(re.sub(r"\D", "", n.rsplit("/", 1)[-1]) or 1))
    if not names:
        raise ImportFormatError("zip holds no Element HTML export (messages.html)", str(path))

    def opener(name: str) -> Any:
        def open_it() -> IO[bytes]:
            zf = zipfile.ZipFile(path)
            try:
                raw = zf.open(name)
            except ZIP_ERRORS as exc:
                zf.close()
                raise ImportFormatError(f"cannot read zip member ({exc})", f"{path}!{name}") from None
            return io.BufferedReader(_Limited(raw, DEFAULT_MAX_MEMBER_BYTES, f"{path}!{name}"), 1 << 16)
        return open_it
    return [(f"{path}!{n}", opener(n)) for n in names]


def _room_of(path: Path, where: str) -> str:
    """The room as the export's folder or zip names it ("matrix - Flat 3B - Chat Export - …")."""
    for name in (*reversed(where.replace("!", "/").split("/")[:-1]), path.stem, path.name):
        m = _FOLDER_RE.match(name.removesuffix(".zip"))
        if m:
            return m.group(1)
    return path.stem


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """The room's turns (see the module's words); bad input: a one-line ImportFormatError."""
    turns = Turns(NAME, report)
    pages = _pages(path)
    room = ""
    author = ""
    tiles = untimed = 0
    for where, open_it in pages:
        page = _Page()
        with open_it() as fh:
            for tile in feed_stream(fh, where, page):
                room = room or " ".join("".join(page.room).split()) or _room_of(path, where)
                tiles += 1
                name = " ".join("".join(tile["name"]).split())
                author = name or (author if tile["continuation"] else "")
                text = words(tile["words"])
                if tile["info"] or tile["redacted"]:
                    turns.skip(SYSTEM)
                    continue
                when = when_of(tile["title"]) if tile["title"] else None
                if tile["title"] and when is None:
                    raise ImportFormatError(f"a time in no form Element writes ({tile['title'][:40]!r})", where,
                                            tile["line"])
                if not text:
                    turns.skip(MEDIA if tile["media"] else SYSTEM)
                    continue
                untimed += when is None  # a tile with no timestamp: its words kept, undated, said
                rec = turns.record(Turn(thread=room, author=author or "Unknown", when=when, text=text,
                                        metadata={"edited": True} if tile["edited"] else {}, line=tile["line"]))
                if rec is not None:
                    yield rec
    if not tiles:
        raise ImportFormatError("no event of Element's HTML export in this page", pages[0][0])
    if untimed:
        report.warn(f"{untimed} message{'s' if untimed > 1 else ''} with no time on the page "
                    "(no mx_MessageTimestamp); kept undated")
