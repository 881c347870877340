"""Reddit private messages as its data download ("Request your data") writes them: messages.csv and
messages_archive.csv (id, permalink, thread_id, date "2024-03-02 10:15:00 UTC", ip, from, to, subject, body), alone or
in the download's folder or zip, beside comments.csv, posts.csv and the rest (no conversations: not read).

Each message is a chat turn of its sender (the username Reddit writes; the download marks none as the owner's); its
conversation is its subject without Reddit's "re: ". The files' rows are put in time order together (a download's
messages are a few thousand at most; each file is capped). Times are UTC."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from importers import ImportFormatError, ImportReport, Record
from importers._tree import Tree
from importers.chatturns import Turn, Turns

NAME = "reddit"
FILES = ("messages.csv", "messages_archive.csv")
_HEAD_RE = re.compile(r'^\ufeff?"?id"?,"?permalink"?,(?:"?thread_id"?,)?"?date"?,(?:"?ip"?,)?"?from"?,"?to"?,', re.IGNORECASE)
_DATE_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?\s*(?:UTC|Z|\+00:?00)?$")
_RE_RE = re.compile(r"^\s*(?:re\s*:\s*)+", re.IGNORECASE)
_NEEDED = ("date", "from", "body")


def is_head(head: str) -> bool:
    """Whether a CSV's first line is Reddit's messages.csv's."""
    return bool(_HEAD_RE.match(head.lstrip("\ufeff")))


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of messages.csv (and messages_archive.csv), their folder or the download's zip."""
    rows: list[tuple[datetime, int, int, dict[str, str], str]] = []
    if path.is_file() and path.suffix.lower() == ".csv":
        rows += _rows(path.read_bytes(), str(path), 0)
    else:
        tree = Tree(path)
        names = [n for n in tree.names if n.rsplit("/", 1)[-1].lower() in FILES]
        if not names:
            raise ImportFormatError("no messages.csv of a Reddit download", str(path))
        for i, name in enumerate(names):
            rows += _rows(tree.read(name), tree.where(name), i)
    turns = Turns(NAME, report)
    for when, _f, line, row, _where in sorted(rows, key=lambda r: r[:3]):
        subject = row.get("subject") or ""
        metadata: dict[str, Any] = {k: row[k] for k in ("to", "permalink", "thread_id") if row.get(k)}
        if subject:
            metadata["subject"] = subject
        mid = (row.get("id") or "").strip()
        rec = turns.record(Turn(thread=_RE_RE.sub("", subject).strip() or "(no subject)", author=row.get("from") or "",
                                when=when, text=row.get("body") or "", line=line, metadata=metadata,
                                ref=f"{NAME}:{mid}" if mid else None))
        if rec is not None:
            yield rec


def _rows(data: bytes, where: str, order: int) -> list[tuple[datetime, int, int, dict[str, str], str]]:
    reader = csv.DictReader(io.StringIO(data.decode("utf-8-sig", "replace"), newline=""))
    out = []
    try:
        fields = [f.strip().lower() for f in reader.fieldnames or []]
        missing = [c for c in _NEEDED if c not in fields]
        if missing:
            raise ImportFormatError(f'no "{missing[0]}" column (a Reddit messages.csv has {", ".join(_NEEDED)})', where, 1)
        reader.fieldnames = fields
        for row in reader:
            clean = {k: v for k, v in row.items() if isinstance(k, str) and isinstance(v, str)}
            if not any(v.strip() for v in clean.values()):
                continue
            out.append((_date(clean.get("date", ""), where, reader.line_num), order, reader.line_num, clean, where))
    except csv.Error as exc:
        raise ImportFormatError(f"not a CSV table as Reddit writes it ({exc})", where, reader.line_num) from None
    return out


def _date(value: str, where: str, line: int) -> datetime:
    m = _DATE_RE.match(value.strip())
    try:
        if m:
            y, mo, d, h, mi, sec = (int(g) for g in m.groups())
            return datetime(y, mo, d, h, mi, sec, tzinfo=timezone.utc)
    except ValueError:
        pass
    raise ImportFormatError(f'"date" is no date ({value[:40]!r})', where, line)
