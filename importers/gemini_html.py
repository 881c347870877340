"""Gemini Apps' "My Activity" in HTML, Takeout's default form (round layouts34; the JSON form is :mod:`importers.gemini`).

``Takeout/My Activity/Gemini Apps/MyActivity.html`` is a page of activity entries, newest first, each an
``outer-cell`` block: a ``header-cell`` naming the product ("Gemini Apps"), then a ``content-cell`` holding
"Prompted&nbsp;<the prompt>", ``<br>``, the time as the exporting account's locale writes it, ``<br>``, and the
answer's HTML; a caption cell lists the products. Other lines ("Used Gemini Apps", "Gave feedback") carry no words
of a conversation: system.

The time is written with its zone's abbreviation ("Mar 12, 2024, 9:07:02 PM PDT", "2 Apr 2024, 08:31:09 BST") or
an offset ("GMT+02:00"): kept with that offset. An abbreviation that names two zones (CST, IST, AST) or none known is
no offset to guess: the time is kept as written (naive) and said once. The page is read as UTF-8; a page re-saved in a
code page is read in it, said. A prompt is "User" (``from_me``), its answer "Gemini" at the same time; the turns of a
day (as the page writes it) are one chat, "Gemini Apps 2024-03-12", as the JSON form's are.
"""

from __future__ import annotations

import codecs
import html
import re
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from datetime import datetime, timedelta, timezone
from typing import IO

from importers import ImportFormatError, ImportReport, Record, codepages, html_notes
from importers._htmlchat import CHUNK, split_blocks
from importers.chatturns import SYSTEM, Turn, Turns

NAME = "gemini"
HEAD_RE = re.compile(r"mdl-typography--title\"?>\s*(?:Gemini Apps|Bard)\s*<br", re.IGNORECASE)
_BLOCK_RE = re.compile(r"<div class=[\"']outer-cell\b", re.IGNORECASE)
_TITLE_RE = re.compile(r"mdl-typography--title[\"']?>(.*?)<", re.IGNORECASE | re.DOTALL)
_CELL_RE = re.compile(r"<div class=[\"']content-cell\b([^\"']*)[\"']>", re.IGNORECASE)
_BR_RE = re.compile(r"<br\s*/?>", re.IGNORECASE)
_PROMPTED_RE = re.compile(r"^Prompted\s+", re.IGNORECASE)
_TAGS_RE = re.compile(r"<[^>]*>")

# Zone abbreviations My Activity writes, each naming one offset (hours); CST, IST and AST name two zones each
_ZONES = {"UTC": 0, "GMT": 0, "WET": 0, "WEST": 1, "BST": 1, "CET": 1, "CEST": 2, "MEZ": 1, "MESZ": 2, "EET": 2,
          "EEST": 3, "MSK": 3, "PST": -8, "PDT": -7, "MST": -7, "MDT": -6, "CDT": -5, "EST": -5, "EDT": -4,
          "AKST": -9, "AKDT": -8, "HST": -10, "JST": 9, "KST": 9, "AEST": 10, "AEDT": 11, "ACST": 9.5,
          "ACDT": 10.5, "AWST": 8, "NZST": 12, "NZDT": 13, "SGT": 8, "HKT": 8, "WIB": 7, "SAST": 2, "BRT": -3,
          "ART": -3}
_OFFSET_RE = re.compile(r"^(?:GMT|UTC)([+-])(\d{1,2})(?::?(\d{2}))?$")
_FORMATS = ("%b %d, %Y, %I:%M:%S %p", "%d %b %Y, %H:%M:%S", "%d.%m.%Y, %H:%M:%S", "%Y-%m-%d, %H:%M:%S",
            "%d/%m/%Y, %H:%M:%S", "%m/%d/%Y, %I:%M:%S %p", "%b %d, %Y, %H:%M:%S", "%d %B %Y, %H:%M:%S",
            "%B %d, %Y, %I:%M:%S %p")


Opener = Callable[[], AbstractContextManager[IO[bytes]]]  # opens the page as a binary stream
_MY_ACTIVITY_RE = re.compile(r"<title>\s*My Activity\s*</title>|mdl-typography--title", re.IGNORECASE)


def is_page(name: str, head: str) -> bool:
    """Whether a file is a My Activity page: its name and a Gemini Apps header in its first bytes, or My Activity's
    own title (an empty page, another product's: the reader says it holds no Gemini activity)."""
    return name.lower() == "myactivity.html" and bool(HEAD_RE.search(head) or _MY_ACTIVITY_RE.search(head))


def when_of(text: str) -> tuple[datetime, bool] | None:
    """(the time, whether its zone was known) of a My Activity time line, else None (no time)."""
    words = " ".join(text.replace("\u202f", " ").replace("\xa0", " ").split())
    stamp, _, zone = words.rpartition(" ")
    for fmt in _FORMATS:
        try:
            naive = datetime.strptime(stamp, fmt)
        except ValueError:
            continue
        if zone in _ZONES:
            return naive.replace(tzinfo=timezone(timedelta(hours=_ZONES[zone]))), True
        m = _OFFSET_RE.match(zone)
        if m:
            delta = timedelta(hours=int(m.group(2)), minutes=int(m.group(3) or 0))
            return naive.replace(tzinfo=timezone(delta if m.group(1) == "+" else -delta)), True
        return naive, False
    return None


class _NotUtf8(Exception):
    """A page that is no UTF-8: the undecodable byte and its line (read again in its code page)."""

    def __init__(self, byte: int, line: int) -> None:
        super().__init__(byte, line)
        self.byte, self.line = byte, line


def _chunks(open_it: Opener, codec: str | None) -> Iterator[str]:
    """The page's text a chunk at a time: UTF-8 (its BOM dropped), else (``codec``) the code page it is in."""
    decoder = codecs.getincrementaldecoder(codec or "utf-8-sig")("replace" if codec else "strict")
    lines = 1
    with open_it() as fh:
        while True:
            chunk = fh.read(CHUNK)
            try:
                text = decoder.decode(chunk, final=not chunk)
            except UnicodeDecodeError as exc:
                at = max(0, min(len(chunk) - 1, exc.start - (len(exc.object) - len(chunk))))
                raise _NotUtf8(chunk[at], lines + chunk[:at].count(b"\n")) from None
            if text:
                yield text
            if not chunk:
                return
            lines += chunk.count(b"\n")


def _entry(block: str) -> tuple[str, list[str]]:
    """(header, the segments of the first content cell, split at ``<br>``) of one activity block."""
    title = _TITLE_RE.search(block)
    header = html.unescape(_TAGS_RE.sub("", title.group(1))).strip() if title else ""
    cells = [(m.group(1), m.end()) for m in _CELL_RE.finditer(block)]
    body = next(((k, end) for k, (cls, end) in enumerate(cells)
                 if "body-1" in cls and "text-right" not in cls), None)
    if body is None:
        return header, []
    k, end = body
    stop = cells[k + 1][1] if k + 1 < len(cells) else len(block)  # the next cell's start (its tag's end)
    cell = block[end:block.rfind("<div", end, stop) if k + 1 < len(cells) else stop]
    cell = re.sub(r"(?:\s*</div>)+\s*$", "", cell)
    return header, _BR_RE.split(cell)


def _read(open_it: Opener, where: str, codec: str | None) -> tuple[list[tuple[datetime, int, str, str]], int, int, int]:
    """(the prompts read, activities of Gemini seen, times of no single offset, system lines) of the page, a
    block at a time (:func:`importers._htmlchat.split_blocks`)."""
    read: list[tuple[datetime, int, str, str]] = []
    seen = unzoned = system = n = 0
    for is_block, block in split_blocks(_chunks(open_it, codec), _BLOCK_RE):
        if not is_block:
            continue
        n += 1
        header, segments = _entry(block)
        if header not in ("Gemini Apps", "Bard"):
            continue
        seen += 1
        at = next(((i, w) for i, seg in enumerate(segments[1:], start=1)
                   if (w := when_of(html.unescape(_TAGS_RE.sub("", seg)))) is not None), None)
        words = html.unescape(_TAGS_RE.sub("", "\n".join(segments[:at[0]] if at else segments[:1]))).strip()
        if at is None:
            raise ImportFormatError(f"activity {n}: no time in {words[:60]!r}", where)
        when, zoned = at[1]
        unzoned += not zoned
        if not _PROMPTED_RE.match(words.replace("\xa0", " ")):
            system += 1
            continue
        prompt = _PROMPTED_RE.sub("", words.replace("\xa0", " "), count=1).strip()
        answer = "\n".join(html_notes.to_lines("<br>".join(segments[at[0] + 1:]), ""))
        read.append((when, -n, prompt, answer))
    return read, seen, unzoned, system


def parse_page(open_it: Opener, where: str, report: ImportReport) -> Iterator[Record]:
    """Records of a My Activity page (``open_it`` opens it as bytes), read a block at a time; a page with no Gemini
    activity: a one-line ImportFormatError."""
    try:
        read, seen, unzoned, system = _read(open_it, where, None)
    except _NotUtf8 as bad:  # a page re-saved in a code page: read again in it, said
        with open_it() as fh:
            codec, name = codepages.guess(fh.read(codepages.SAMPLE_BYTES))
        report.warn(f"not UTF-8 text (undecodable byte 0x{bad.byte:02x}); read as {name}", bad.line)
        read, seen, unzoned, system = _read(open_it, where, codec)
    turns = Turns(NAME, report)
    for _ in range(system):
        turns.skip(SYSTEM)
    if not seen:
        raise ImportFormatError("no Gemini Apps activity in this My Activity page (an empty or another product's page)",
                                where)
    if unzoned:
        report.warn(f"{unzoned} times with a zone that names no single offset: kept as written, without one")
    read.sort(key=lambda r: (r[0].replace(tzinfo=None) if r[0].tzinfo is None else
                             r[0].astimezone(timezone.utc).replace(tzinfo=None), r[1]))
    yield from emit(turns, read)


def emit(turns: Turns, read: list[tuple[datetime, int, str, str]]) -> Iterator[Record]:
    """The records of Gemini prompts read in time order (``read``: when, a tie-break, the prompt, the answer): the
    user's prompt and Gemini's answer as two turns of that day's thread. Shared with the JSON reader (gemini.py)."""
    for when, _, prompt, answer in read:
        thread = f"Gemini Apps {when.date().isoformat()}"
        rec = turns.record(Turn(thread=thread, author="User", when=when, text=prompt, metadata={"from_me": True}))
        if rec is not None:
            yield rec
        rec = turns.record(Turn(thread=thread, author="Gemini", when=when, text=answer))
        if rec is not None:
            yield rec
