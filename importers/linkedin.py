"""LinkedIn messages as its data download ("Get a copy of your data") writes them: messages.csv (alone, or in the
download's zip beside Connections.csv and the rest) with the columns CONVERSATION ID, CONVERSATION TITLE, FROM,
SENDER PROFILE URL, TO, RECIPIENT PROFILE URLS, DATE ("2024-03-28 09:12:40 UTC"), SUBJECT, CONTENT, FOLDER and, in
later downloads, ATTACHMENTS and IS MESSAGE DRAFT. Columns are found by their names (their order and the later ones
may change).

A conversation's rows come together, newest first: each is put in time order (one conversation in memory at a time).
Its chat is its title, else its people's names (FROM and TO of its newest row, sorted). An InMail's HTML is made lines;
a row of no words with an attachment is media, a draft never sent is system. The download marks no row as the
owner's: every sender keeps the name LinkedIn writes. Times are UTC."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, Any

from importers import ImportFormatError, ImportReport, Record, html_notes
from importers._zips import DEFAULT_MAX_MEMBER_BYTES, ZIP_OPEN_ERRORS, _Limited, is_junk_member
from importers.chatturns import SYSTEM, Turn, Turns

NAME = "linkedin"
FILE = "messages.csv"
_NEEDED = ("CONVERSATION ID", "FROM", "DATE", "CONTENT")
_LOOSE_HEAD_RE = re.compile(r'^\ufeff?"?CONVERSATION ID"?,[^\n]*"?FROM"?,', re.IGNORECASE)
_DATE_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?\s*(?:UTC|Z|GMT|\+00:?00)?$")
_HTML_RE = re.compile(r"<(?:p|br|div|span|a|ul|li|strong|b|i|em)\b[^>]*>", re.IGNORECASE)


def is_head(head: str) -> bool:
    """Whether a CSV's first line is messages.csv's (a damaged one that keeps its first columns too: it is refused
    by the reader saying what is missing)."""
    return bool(_LOOSE_HEAD_RE.match(head.lstrip("\ufeff")))


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of messages.csv, its folder or the download's zip; bad input: a one-line ImportFormatError."""
    turns = Turns(NAME, report)
    if path.is_dir():
        path = path / FILE
        if not path.is_file():
            raise ImportFormatError(f"folder holds no {FILE} of a LinkedIn download", str(path.parent))
    with path.open("rb") as fh:
        zipped = fh.read(4) == b"PK\x03\x04"
    if not zipped:
        yield from _rows(lambda: path.open("rb"), str(path), turns)
        return
    try:
        with zipfile.ZipFile(path) as zf:
            info = next((i for i in zf.infolist() if not is_junk_member(i.filename)
                         and i.filename.rsplit("/", 1)[-1].lower() == FILE), None)
            if info is None:
                raise ImportFormatError(f"zip holds no {FILE} of a LinkedIn download", str(path))
            where = f"{path}!{info.filename}"

            def opener() -> IO[bytes]:
                return io.BufferedReader(_Limited(zf.open(info), DEFAULT_MAX_MEMBER_BYTES, where))  # type: ignore[arg-type]

            yield from _rows(opener, where, turns)
    except ImportFormatError:
        raise
    except ZIP_OPEN_ERRORS as exc:
        raise ImportFormatError(f"malformed zip archive ({exc})", str(path)) from None


def _rows(opener: Callable[[], IO[bytes]], where: str, turns: Turns) -> Iterator[Record]:
    with opener() as raw:
        text = io.TextIOWrapper(raw, encoding="utf-8-sig", errors="replace", newline="")
        reader = csv.reader(text)
        try:
            header = [h.strip().upper() for h in next(reader, [])]
            missing = [c for c in _NEEDED if c not in header]
            if missing:
                raise ImportFormatError(f'no "{missing[0]}" column (a LinkedIn messages.csv has '
                                        f'{", ".join(_NEEDED)})', where, 1)
            col = {name: i for i, name in enumerate(header)}
            group: list[tuple[datetime, int, list[str]]] = []
            current = None
            for row in reader:
                if not any(cell.strip() for cell in row):
                    continue
                line = reader.line_num
                cid = _cell(row, col, "CONVERSATION ID")
                if cid != current and group:
                    yield from _conversation(group, col, turns)
                    group = []
                current = cid
                group.append((_date(_cell(row, col, "DATE"), where, line), line, row))
            if group:
                yield from _conversation(group, col, turns)
        except csv.Error as exc:
            raise ImportFormatError(f"not a CSV table as LinkedIn writes it ({exc})", where, reader.line_num) from None


def _cell(row: list[str], col: dict[str, int], name: str) -> str:
    i = col.get(name)
    return row[i] if i is not None and i < len(row) else ""


def _date(value: str, where: str, line: int) -> datetime:
    m = _DATE_RE.match(value.strip())
    try:
        if m:
            y, mo, d, h, mi, s = (int(g or 0) for g in m.groups())
            return datetime(y, mo, d, h, mi, s, tzinfo=timezone.utc)
    except ValueError:
        pass
    raise ImportFormatError(f'"DATE" is no date ({value[:40]!r})', where, line)


def _conversation(group: list[tuple[datetime, int, list[str]]], col: dict[str, int], turns: Turns) -> Iterator[Record]:
    """One conversation's rows in time order (its newest row names its people)."""
    newest = max(group, key=lambda g: g[0])[2]
    title = _cell(newest, col, "CONVERSATION TITLE").strip()
    people = {n.strip() for n in [_cell(newest, col, "FROM"), *_cell(newest, col, "TO").split(",")] if n.strip()}
    thread = title or ", ".join(sorted(people)) or _cell(newest, col, "CONVERSATION ID")
    for when, line, row in sorted(group, key=lambda g: (g[0], g[1])):
        if _cell(row, col, "IS MESSAGE DRAFT").strip().lower() == "true":
            turns.skip(SYSTEM)
            continue
        content = _cell(row, col, "CONTENT")
        if _HTML_RE.search(content):  # an InMail, a sponsored message: HTML
            content = "\n".join(html_notes.to_lines(content, ""))
        metadata: dict[str, Any] = {"conversation_id": _cell(row, col, "CONVERSATION ID")}
        subject = _cell(row, col, "SUBJECT").strip()
        if subject:
            metadata["subject"] = subject
        url = _cell(row, col, "SENDER PROFILE URL").strip()
        if url:
            metadata["profile"] = url
        attachments = _cell(row, col, "ATTACHMENTS").strip()
        if attachments:
            metadata["attachments"] = attachments
            metadata["media"] = True
        folder = _cell(row, col, "FOLDER").strip()
        if folder:
            metadata["folder"] = folder
        rec = turns.record(Turn(thread=thread, author=_cell(row, col, "FROM"), when=when, text=content, line=line,
                                metadata=metadata))
        if rec is not None:
            yield rec
