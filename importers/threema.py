"""Threema chats as the app's "Export chat" writes them: a zip (threema-export-<chat>.zip; Android encrypts it with
a password the user chose) holding messages.txt and the chat's media. Each message is "[14/03/2024, 10:02] Name:
text" (the date in the phone's numeric form: "14.03.2024", "3/14/2024", "2024-03-14"; a 12-hour clock with AM/PM),
its next lines continuing it; the owner's name is the UI's ("Me", "Ich"), kept as written. A message that is the name
of a file of the export is that file (media).

Times are the phone's wall time (naive); day-first or month-first is told by the file (a number over 12, dots are
day first, a 12-hour clock month first, else day first). The chat is named by the zip ("threema-export-Ana Sousa.zip")
or the folder holding messages.txt. A password-protected zip is refused in one line: unzip it first."""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from importers import ImportFormatError, ImportReport, Record
from importers._textlines import iter_lines
from importers._zips import DEFAULT_MAX_MEMBER_BYTES, ZIP_OPEN_ERRORS, _Limited, is_junk_member
from importers.chatturns import MEDIA, Turn, Turns

NAME = "threema"
MESSAGES = "messages.txt"
LINE_RE = re.compile(r"^\[(\d{1,4})([./-])(\d{1,2})\2(\d{2,4}),? (\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s?([AaPp])\.?[Mm]\.?)?\] "
                     r"(?P<name>[^:\n]{1,100}?): ?(?P<text>.*)$")
_PREFIX_RE = re.compile(r"^threema[ _-](?:export|chat|backup)?[ _-]*", re.IGNORECASE)


def is_messages(head: str) -> bool:
    """Whether a text starts as Threema's messages.txt does ("[14/03/2024, 10:02] Name: …")."""
    first = head.lstrip("\ufeff").split("\n", 1)[0].rstrip("\r")
    return bool(LINE_RE.match(first))


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of a Threema chat export (its zip, its folder or its messages.txt); bad input: a one-line
    ImportFormatError."""
    turns = Turns(NAME, report)
    if path.is_dir():
        found = sorted(p for p in path.rglob(MESSAGES) if p.is_file())
        zips = sorted(p for p in path.glob("*.zip") if p.is_file())
        if not found and not zips:
            raise ImportFormatError("folder holds no Threema export (messages.txt)", str(path))
        for p in found:
            yield from _text(_opener(p), str(p), p.parent.name, {q.name for q in p.parent.iterdir()}, turns)
        for p in zips:
            yield from _zip(p, turns)
    elif path.suffix.lower() == ".zip":
        yield from _zip(path, turns)
    else:
        yield from _text(lambda: path.open("rb"), str(path), path.parent.name if path.name == MESSAGES else path.stem,
                         {q.name for q in path.parent.iterdir()}, turns)
    if not report.messages_seen:
        raise ImportFormatError("no Threema message in this export", str(path), 1)


def _opener(path: Path) -> Callable[[], IO[bytes]]:
    return lambda: path.open("rb")


def _zip(path: Path, turns: Turns) -> Iterator[Record]:
    where = str(path)
    thread = _PREFIX_RE.sub("", path.stem).strip() or path.stem
    try:
        with zipfile.ZipFile(path) as zf:
            infos = [i for i in zf.infolist() if not i.is_dir() and not is_junk_member(i.filename)]
            texts = [i for i in infos if i.filename.rsplit("/", 1)[-1].lower() == MESSAGES]
            if not texts:
                raise ImportFormatError("zip holds no messages.txt of Threema", where)
            if any(i.flag_bits & 0x1 for i in texts):
                raise ImportFormatError("password-protected zip (Threema encrypts its chat export with the password "
                                        "you chose): unzip it with that password, then import the folder", where)
            names = {i.filename.rsplit("/", 1)[-1] for i in infos}
            for info in texts:
                def opener(info: zipfile.ZipInfo = info) -> IO[bytes]:
                    return io.BufferedReader(_Limited(zf.open(info), DEFAULT_MAX_MEMBER_BYTES,  # type: ignore[arg-type]
                                                      f"{where}:{info.filename}"))
                yield from _text(opener, f"{where}:{info.filename}", thread, names, turns)
    except ImportFormatError:
        raise
    except ZIP_OPEN_ERRORS as exc:
        raise ImportFormatError(f"malformed zip archive ({exc})", where) from None


def _order(opener: Callable[[], IO[bytes]], where: str) -> str:
    twelve = False
    with opener() as raw:
        for ln in iter_lines(raw, where):
            m = LINE_RE.match(ln.text.lstrip("\ufeff"))
            if m is None:
                continue
            if len(m.group(1)) == 4:
                return "ymd"
            if m.group(2) == "." or int(m.group(1)) > 12:
                return "dmy"
            if int(m.group(3)) > 12:
                return "mdy"
            twelve = twelve or bool(m.group(8))
            if ln.no > 20000:
                break
    return "mdy" if twelve else "dmy"


def _text(opener: Callable[[], IO[bytes]], where: str, thread: str, files: set[str], turns: Turns) -> Iterator[Record]:
    order = _order(opener, where)
    turns.report.date_orders[thread] = order
    cur: tuple[str, datetime, int] | None = None
    body: list[str] = []
    with opener() as raw:
        for ln in iter_lines(raw, where):
            m = LINE_RE.match(ln.text.lstrip("\ufeff") if ln.no == 1 else ln.text)
            if m:
                if cur is not None:
                    yield from _message(cur, body, thread, files, turns)
                cur, body = (m.group("name").strip(), _when(m, order, where, ln.no), ln.no), [m.group("text")]
            elif cur is not None:
                body.append(ln.text)
            elif ln.text.strip():
                raise ImportFormatError("no \"[14/03/2024, 10:02] Name: text\" line of Threema before the first words",
                                        where, ln.no)
    if cur is not None:
        yield from _message(cur, body, thread, files, turns)


def _when(m: re.Match[str], order: str, where: str, line: int) -> datetime:
    a, b, c = int(m.group(1)), int(m.group(3)), int(m.group(4))
    if order == "ymd":
        y, mo, d = a, b, c
    else:
        d, mo = (a, b) if order == "dmy" else (b, a)
        y = c + 2000 if c < 100 else c
    hour = int(m.group(5))
    if m.group(8):
        if not 1 <= hour <= 12:
            raise ImportFormatError(f"{m.group(0)[:24]!r}: no such time", where, line)
        hour = hour % 12 + (12 if m.group(8).lower() == "p" else 0)
    try:
        return datetime(y, mo, d, hour, int(m.group(6)), int(m.group(7) or 0))
    except ValueError:
        raise ImportFormatError(f"{m.group(0).split(']', 1)[0][:24]}]: no such date", where, line) from None


def _message(cur: tuple[str, datetime, int], body: list[str], thread: str, files: set[str], turns: Turns
             ) -> Iterator[Record]:
    author, when, line = cur
    text = "\n".join(body).rstrip()
    if text.strip() in files and text.strip() != MESSAGES:
        turns.skip(MEDIA)  # the message is a file of the export
        return
    rec = turns.record(Turn(thread=thread, author=author, when=when, text=text, line=line))
    if rec is not None:
        yield rec
