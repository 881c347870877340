"""Viber chats as the app's "Email message history" (Android: Settings > Calls and messages) writes them: a zip of
CSV files, one per chat ("Viber <chat>.csv"), each row date, time, sender, phone number, message, no header row
(one is tolerated). The owner's rows say "Me" (kept as written). A message of several lines is quoted; an unquoted
comma in a message leaves it in more fields (joined back). A row of no words (a photo, a sticker) is empty.

Times are the phone's wall time (naive). Day-first or month-first ("3/5/2024"): the file tells (a number over 12;
dots are day first); else a 12-hour clock says the US wrote it (month first), else the day comes first. The chat is
named by the file ("Viber Ana Sousa.csv": "Ana Sousa")."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from importers import ImportFormatError, ImportReport, Record
from importers._zips import DEFAULT_MAX_MEMBER_BYTES, ZIP_OPEN_ERRORS, _Limited, is_junk_member
from importers.chatturns import Turn, Turns

NAME = "viber"
_DATE_RE = re.compile(r"^(\d{1,2})([./-])(\d{1,2})\2(\d{4})$")
_YMD_RE = re.compile(r"^(\d{4})([./-])(\d{1,2})\2(\d{1,2})$")  # a phone set to a year-first locale
_TIME_RE = re.compile(r"^(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s?([AaPp])\.?[Mm]\.?)?$")
# a row as Viber writes it: date, time, a sender, a phone number (or none), then the message
ROW_RE = re.compile(r"^\ufeff?(?:\d{1,2}[./-]\d{1,2}[./-]\d{4}|\d{4}[./-]\d{1,2}[./-]\d{1,2}),\d{1,2}:\d{2}(?::\d{2})?(?:\s?[AaPp]\.?[Mm]\.?)?,"
                    r"[^,\n]*,\+?[\d ()-]*,")
_HEADER_RE = re.compile(r"^\ufeff?\"?Date\"?,\"?Time\"?,\"?Sender", re.IGNORECASE)
_NAME_RE = re.compile(r"^Viber[ _-]+(.+)$", re.IGNORECASE)


def is_head(head: str) -> bool:
    """Whether a CSV's first bytes are a Viber chat's (its first row; a header row before it)."""
    lines = head.lstrip("\ufeff").splitlines()
    if lines and _HEADER_RE.match(lines[0]):
        lines = lines[1:]
    return bool(lines) and bool(ROW_RE.match(lines[0]))


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of a Viber CSV, a zip of them, or a folder of either; bad input: a one-line ImportFormatError."""
    turns = Turns(NAME, report)
    if path.is_dir():
        files = [p for p in sorted(path.iterdir()) if p.is_file() and p.suffix.lower() in (".csv", ".zip")]
        if not files:
            raise ImportFormatError("folder holds no Viber chat (\"Viber <chat>.csv\")", str(path))
        for p in files:
            yield from _file(p, turns, report)
        return
    yield from _file(path, turns, report)
    if not report.messages_seen:
        raise ImportFormatError("no Viber message in this file", str(path), 1)


def _file(path: Path, turns: Turns, report: ImportReport) -> Iterator[Record]:
    if path.suffix.lower() != ".zip":
        yield from _chat(lambda: path.open("rb"), str(path), _thread(path.name), turns, report)
        return
    try:
        with zipfile.ZipFile(path) as zf:
            members = sorted((i for i in zf.infolist() if not i.is_dir() and not is_junk_member(i.filename)
                              and i.filename.lower().endswith(".csv")), key=lambda i: i.filename)
            if not members:
                raise ImportFormatError("zip holds no Viber chat (\"Viber <chat>.csv\")", str(path))
            for info in members:
                where = f"{path}:{info.filename}"

                def opener(info: zipfile.ZipInfo = info, where: str = where) -> IO[bytes]:
                    return io.BufferedReader(_Limited(zf.open(info), DEFAULT_MAX_MEMBER_BYTES, where))  # type: ignore[arg-type]

                yield from _chat(opener, where, _thread(info.filename.rsplit("/", 1)[-1]), turns, report)
    except ImportFormatError:
        raise
    except ZIP_OPEN_ERRORS as exc:
        raise ImportFormatError(f"malformed zip archive ({exc})", str(path)) from None


def _thread(name: str) -> str:
    stem = name.rsplit(".", 1)[0]
    m = _NAME_RE.match(stem)
    return (m.group(1) if m else stem).strip() or stem


def _order(opener: Callable[[], IO[bytes]], where: str) -> str:
    """"dmy", "mdy" or "ymd" for a file's dates: a number over 12 tells, dots are day first, a 12-hour clock month
    first."""
    twelve = False
    with opener() as raw, io.TextIOWrapper(raw, encoding="utf-8-sig", errors="replace", newline="") as fh:
        for n, row in enumerate(csv.reader(fh)):
            if n > 5000:
                break
            if len(row) < 2:
                continue
            if _YMD_RE.match(row[0].strip()):
                return "ymd"
            m = _DATE_RE.match(row[0].strip())
            if m is None:
                continue
            if m.group(2) == ".":
                return "dmy"
            if int(m.group(1)) > 12:
                return "dmy"
            if int(m.group(3)) > 12:
                return "mdy"
            twelve = twelve or bool(re.search(r"[AaPp]\.?[Mm]\.?$", row[1].strip()))
    return "mdy" if twelve else "dmy"


def _chat(opener: Callable[[], IO[bytes]], where: str, thread: str, turns: Turns, report: ImportReport
          ) -> Iterator[Record]:
    try:
        order = _order(opener, where)
    except csv.Error as exc:
        raise ImportFormatError(f"invalid CSV ({exc})", where) from None
    report.date_orders[thread] = order
    with opener() as raw, io.TextIOWrapper(raw, encoding="utf-8-sig", newline="") as fh:
        reader = csv.reader(fh)
        row_no = 0
        try:
            for row in reader:
                row_no += 1
                if not any(cell.strip() for cell in row) or (row_no == 1 and _HEADER_RE.match(",".join(row))):
                    continue
                if len(row) < 5:
                    raise ImportFormatError(f"row {row_no}: {len(row)} fields, not date,time,sender,phone,message",
                                            where, reader.line_num)
                when = _when(row[0], row[1], order, row_no, where, reader.line_num)
                text = ",".join(row[4:])  # an unquoted comma split the message
                rec = turns.record(Turn(thread=thread, author=row[2], when=when, text=text,
                                        metadata={"phone": row[3].strip()} if row[3].strip() else {},
                                        line=reader.line_num))
                if rec is not None:
                    yield rec
        except UnicodeDecodeError as exc:
            raise ImportFormatError(f"not UTF-8 text ({exc.reason}); re-export it", where, reader.line_num + 1) from None
        except csv.Error as exc:
            raise ImportFormatError(f"invalid CSV ({exc})", where, reader.line_num) from None


def _when(day: str, clock: str, order: str, row: int, where: str, line: int) -> datetime:
    d = _DATE_RE.match(day.strip()) if order != "ymd" else _YMD_RE.match(day.strip())
    if d is None:
        raise ImportFormatError(f"row {row}: \"Date\" is no date ({day[:40]!r})", where, line)
    t = _TIME_RE.match(clock.strip())
    if t is None:
        raise ImportFormatError(f"row {row}: \"Time\" is no time ({clock[:40]!r})", where, line)
    if order == "ymd":
        year, mm, dd = int(d.group(1)), int(d.group(3)), int(d.group(4))
    else:
        a, b, year = int(d.group(1)), int(d.group(3)), int(d.group(4))
        dd, mm = (a, b) if order == "dmy" else (b, a)
    hour = int(t.group(1))
    if t.group(4):
        if not 1 <= hour <= 12:
            raise ImportFormatError(f"row {row}: \"Time\" is no time ({clock[:40]!r})", where, line)
        hour = hour % 12 + (12 if t.group(4).lower() == "p" else 0)
    try:
        return datetime(year, mm, dd, hour, int(t.group(2)), int(t.group(3) or 0))
    except ValueError:
        raise ImportFormatError(f"row {row}: \"Date\" is no date ({day.strip()[:20]!r} {clock.strip()[:12]!r})",
                                where, line) from None
