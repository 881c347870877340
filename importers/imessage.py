"""iMessage chats as imessage-exporter writes them in text (``--format txt``): one file per conversation, named by
the contact, number or group; each message a time line ("Mar 28, 2024  6:01:12 PM", maybe "(Read by you after 1
minute)"), its sender ("Me", a number, an address, a name) and its words, a blank line after. A reply stands
indented under the message it answers, with the exporter's "This message responded to an earlier message." (no
words of its sender: dropped); tapbacks ("Tapbacks:" then "Loved by Me") go to metadata; a line that is an
attachment's path is media. A time line followed by one line and no sender is an announcement (a rename: "Ana
named the conversation Book Club"): a system line. Times are the Mac's wall time (naive); the chat is the file's
name."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from importers import ImportFormatError, ImportReport, Record
from importers._textlines import iter_lines
from importers.chatturns import SYSTEM, Turn, Turns

NAME = "imessage"
_TIME_RE = re.compile(r"^( *)([A-Z][a-z]{2}) (\d{1,2}), (\d{4}) {1,2}(\d{1,2}):(\d{2}):(\d{2}) ([AP])M(?: \([^)]*\))?\s*$")
_MONTHS = {m: i for i, m in enumerate(("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov",
                                        "Dec"), start=1)}
_RESPONDED = "This message responded to an earlier message."
_ATTACHMENT_RE = re.compile(r"^(?:~?/|[A-Za-z]:\\)\S.*\.[A-Za-z0-9]{2,5}$|^Attachment missing!?$")


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of one imessage-exporter text file or page (its HTML), or of each in a folder; bad input: a one-line
    ImportFormatError."""
    if path.is_dir():
        from importers.apps import app_files
        from importers.apps23 import imessage_pages

        for p in sorted(app_files(path, NAME) + imessage_pages(path)):
            yield from parse(p, report)
        return
    if path.suffix.lower() in (".html", ".htm"):
        from importers.imessage_html import parse_page

        yield from parse_page(path, report)
        return
    where = str(path)
    thread = path.stem
    turns = Turns(NAME, report)
    block: list[str] = []
    head: tuple[int, datetime, int] | None = None  # (indent, time, line)
    with path.open("rb") as raw:
        for ln in iter_lines(raw, where):
            m = _TIME_RE.match(ln.text)
            if m:
                if head is not None:
                    yield from _message(head, block, thread, turns)
                head, block = (len(m.group(1)), _when(m, where, ln.no), ln.no), []
            elif head is None:
                if ln.text.strip():
                    raise ImportFormatError("no imessage-exporter time line (\"Mar 28, 2024  6:01:12 PM\") before "
                                            "the first words", where, ln.no)
            else:
                block.append(ln.text)
    if head is not None:
        yield from _message(head, block, thread, turns)
    elif not report.messages_seen:
        raise ImportFormatError("no iMessage message in this file", where, 1)


def _when(m: re.Match[str], where: str, line: int) -> datetime:
    month = _MONTHS.get(m.group(2))
    hour = int(m.group(5)) % 12 + (12 if m.group(8) == "P" else 0)
    try:
        if month is None:
            raise ValueError
        return datetime(int(m.group(4)), month, int(m.group(3)), hour, int(m.group(6)), int(m.group(7)))
    except ValueError:
        raise ImportFormatError(f"{m.group(0).strip()[:40]!r}: no such date", where, line) from None


def _message(head: tuple[int, datetime, int], block: list[str], thread: str, turns: Turns) -> Iterator[Record]:
    indent, when, line = head
    lines = [ln[indent:] if ln[:indent].strip() == "" else ln for ln in block]
    while lines and not lines[-1].strip():
        lines.pop()
    if len(lines) <= 1:  # a time and one line: an announcement (a rename, someone added), no one's words
        turns.skip(SYSTEM)
        return
    sender, words, media, tapbacks = lines[0].strip(), [], [], []
    in_tapbacks = False
    for text in lines[1:]:
        if text.strip() in ("Tapbacks:", "Reactions:"):  # (imessage-exporter 1.x: "Reactions:", then "Loved by Me")
            in_tapbacks = True
        elif in_tapbacks and text.startswith((" ", "\t")) and text.strip():
            tapbacks.append(text.strip())
        elif text.strip() == _RESPONDED:
            continue
        elif _ATTACHMENT_RE.match(text.strip()):
            media.append(text.strip().rsplit("/", 1)[-1])
        else:
            in_tapbacks = False
            words.append(text)
    meta: dict[str, Any] = {}
    if media:
        meta["media"] = media
    if tapbacks:
        meta["tapbacks"] = tapbacks
    if indent:
        meta["reply"] = True
    rec = turns.record(Turn(thread=thread, author=sender, when=when, text="\n".join(words), metadata=meta, line=line))
    if rec is not None:
        yield rec
