"""Zoom's saved meeting chat (``meeting_saved_chat.txt``, in the folder Zoom names "2024-03-14 18.00.12 Topic
84512345678"). Two layouts: Zoom 5.x and later write a header line ("18:01:12 From Ana Sousa to Everyone:", a
private one "to Me(Direct Message)") and the words under it, each line indented by a tab; older clients wrote one line
("18:01:12\\t From  Ana Sousa : words", "From  Ana  to  Bob(Privately) : words"), a message's further lines
unindented. A reaction given or taken back ("Reacted to "…" with 👍", "Removed a 👍 reaction from "…"") is a system
line; a reply's "Replying to "…":" goes to metadata.

The lines carry a clock time only: the date is the meeting folder's, the day turning when a time goes back past
midnight; times are the computer's wall time (naive). A folder that no longer says the date (renamed, or the file
moved) leaves the chat undated, with one warning; each record keeps its clock time in metadata. The chat is the
meeting's topic (the folder's name without its date and id). Names are as Zoom wrote them ("Me" for the owner in
private messages stays "Me")."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from importers import ImportFormatError, ImportReport, Record
from importers._textlines import MAX_LINE_CHARS, iter_lines
from importers.chatturns import SYSTEM, Turn, Turns

NAME = "zoom"
FILE = "meeting_saved_chat.txt"
_NEW_RE = re.compile(r"^(\d{1,2}):(\d{2}):(\d{2}) +From +(.+) +to +(.+?) *:\s*$")
_OLD_RE = re.compile(r"^(\d{1,2}):(\d{2}):(\d{2})\t ?From  (.+?)(?:  to  (.+?))? : ?(.*)$")
_HEADERISH_RE = re.compile(r"^\d{1,2}:\d{2}:\d{2}[ \t]+ ?From\b")
_PRIVATE_RE = re.compile(r"^(.*?)\s*\((?:Direct Message|Direct message|Privately|privately)\)$")
_FOLDER_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2}) (\d{2})\.(\d{2})\.(\d{2}) (.+?)(?: \d{9,12})?$")
_SYSTEM_RE = re.compile(r'^(?:Reacted to ".*" with \S+|Removed an? .{1,20} reaction from ".*")$')
_REPLY_RE = re.compile(r'^Replying to "(.*)":$')
_SKEW = timedelta(hours=1)  # a time this much before the last one is the next day's (less: clocks disagree)


def is_chat_head(head: str) -> bool:
    """Whether a text starts as a Zoom saved chat: a 5.x header followed by a tab-indented line, or an old one-line
    message (a time, a tab, " From  ")."""
    lines = head.lstrip("\ufeff").splitlines()[:2]
    if not lines:
        return False
    if _NEW_RE.match(lines[0]):
        return len(lines) > 1 and lines[1].startswith("\t")
    return bool(_OLD_RE.match(lines[0])) and "\t From  " in lines[0][:16]


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of one saved chat, or of every meeting's chat in a folder; bad input: a one-line ImportFormatError."""
    turns = Turns(NAME, report)
    if path.is_dir():
        files = chat_files(path)
        if not files:
            raise ImportFormatError(f"folder holds no Zoom meeting chat ({FILE})", str(path))
        for p in files:
            yield from _file(p, turns)
        return
    yield from _file(path, turns)


def chat_files(folder: Path) -> list[Path]:
    """The saved chats in ``folder`` and its meeting folders (two levels: Zoom's folder, a meeting's), sorted."""
    found = [folder / FILE] if (folder / FILE).is_file() else []
    for sub in sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith(".")):
        found += [sub / FILE] if (sub / FILE).is_file() else []
    return found


def _meeting(path: Path) -> tuple[str, datetime | None]:
    """The chat's name and the meeting's start, from the folder Zoom named (else the folder's or file's name)."""
    m = _FOLDER_RE.match(path.parent.name)
    if m:
        y, mo, d, h, mi, s = (int(g) for g in m.groups()[:6])
        try:
            return m.group(7), datetime(y, mo, d, h, mi, s)
        except ValueError:
            pass
    return (path.parent.name if path.name == FILE and path.parent.name else path.stem), None


def _file(path: Path, turns: Turns) -> Iterator[Record]:
    where = str(path)
    thread, start = _meeting(path)
    if start is None:
        turns.report.warn(f"{thread}: no date (the meeting's folder no longer says it): times kept as clock times, "
                          "undated")
    clock = _Clock(start)
    pending: tuple[int, str, str, bool, str, list[str]] | None = None  # line, time, author, private, to, words
    new_layout: bool | None = None
    seen = 0
    with path.open("rb") as raw:
        for ln in iter_lines(raw, where):
            if ln.overlong:
                raise ImportFormatError(f"line longer than {MAX_LINE_CHARS} characters", where, ln.no)
            text = ln.text
            m = (_NEW_RE.match(text) if new_layout is not False else None) or \
                (_OLD_RE.match(text) if new_layout is not True else None)
            if m is None and _HEADERISH_RE.match(text):
                raise ImportFormatError("no Zoom message header (a time and \"From\", then the name, \"to\" whom, "
                                        "\":\"; the file cut short?)", where, ln.no)
            if m is None:
                if pending is None:
                    if not text.strip():
                        continue
                    raise ImportFormatError("no Zoom message header before the first words", where, ln.no)
                pending[5].append(text[1:] if text.startswith("\t") else text)
                continue
            if pending is not None:
                seen += 1
                yield from _emit(_turn(pending, thread), clock, turns)
            new_layout = m.re is _NEW_RE
            h, mi, s = int(m.group(1)), int(m.group(2)), int(m.group(3))
            if h > 23 or mi > 59 or s > 59:
                raise ImportFormatError(f'"{m.group(1)}:{m.group(2)}:{m.group(3)}" is no time', where, ln.no)
            to = (m.group(5) or "").strip()
            private = _PRIVATE_RE.match(to)
            words = [] if new_layout else [m.group(6)]
            pending = (ln.no, f"{h:02d}:{mi:02d}:{s:02d}", m.group(4).strip(), bool(private),
                       private.group(1).strip() if private else to, words)
    if pending is not None:
        seen += 1
        yield from _emit(_turn(pending, thread), clock, turns)
    if not seen:
        raise ImportFormatError("no Zoom message in this file", where, 1)


class _Clock:
    """The dates of a meeting's clock times: the meeting's day, the next once a time goes back past midnight."""

    def __init__(self, start: datetime | None) -> None:
        self.last = start

    def date(self, clock: str) -> datetime | None:
        """The time ``clock`` ("18:01:12") says, after the last one; None for an undated meeting."""
        if self.last is None:
            return None
        h, mi, s = (int(x) for x in clock.split(":"))
        when = self.last.replace(hour=h, minute=mi, second=s)
        if when < self.last - _SKEW:
            when += timedelta(days=1)
        self.last = when
        return when


def _emit(turn: Turn, clock: _Clock, turns: Turns) -> Iterator[Record]:
    """The record of one message (none for a reaction, counted as system)."""
    turn.when = clock.date(turn.metadata["time"])
    reply = _REPLY_RE.match(turn.text.split("\n", 1)[0])
    if reply:
        turn.metadata["reply_to"] = reply.group(1)
        turn.text = turn.text.split("\n", 1)[1] if "\n" in turn.text else ""
    if _SYSTEM_RE.match(turn.text.strip()):
        turns.skip(SYSTEM)
        return
    rec = turns.record(turn)
    if rec is not None:
        yield rec


def _turn(pending: tuple[int, str, str, bool, str, list[str]], thread: str) -> Turn:
    line, clock, author, private, to, words = pending
    meta: dict[str, Any] = {"time": clock}
    if to:
        meta["to"] = to
    if private:
        meta["private"] = True
    return Turn(thread=thread, author=author, when=None, text="\n".join(words), metadata=meta, line=line)
