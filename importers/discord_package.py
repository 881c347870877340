"""Discord's own data package ("Request all of my data": package.zip, or the folder it unpacks to): messages/index.json
names each channel ("Direct Message with kofi_m#0", "general in Board Games Night", null for one Discord no longer
names), messages/c<id>/channel.json says what it is (type, name, guild), and messages/c<id>/messages.json (2023 on: a
list of {"ID", "Timestamp", "Contents", "Attachments"}) or messages.csv (before: ID,Timestamp,Contents,Attachments;
the folder then named <id> alone) holds the owner's own messages, newest first.

The package holds only the owner's messages, marked as theirs without a name: each is "me" (``from_me``). A channel's
turns are put in time order (one channel in memory at a time); its chat is the other person of a direct message (the
"#0" every new username carries dropped), else the index's name, channel.json's, or "channel <id>". Times are UTC
("2024-03-30 20:15:02", "2021-06-12 19:05:44.512000+00:00"). A message of no words with an attachment is media."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from importers import ImportFormatError, ImportReport, Record
from importers._tree import Tree
from importers._zips import ZIP_OPEN_ERRORS
from importers.chatturns import Turn, Turns

NAME = "discord"
_CHANNEL_RE = re.compile(r"^(?:.*/)?c?(\d{5,25})/(?:messages\.json|messages\.csv|channel\.json)$")
_DM_RE = re.compile(r"^Direct Message with (.+?)(?:#0)?$")
_TIME_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6})\d*)?(?:\s*(?:Z|UTC|\+00:?00))?$")


def is_package_names(names: list[str]) -> bool:
    """Whether a folder's or zip's file names are a Discord package's: messages/index.json beside channel folders."""
    if not any(n == "messages/index.json" or n.endswith("/messages/index.json") for n in names):
        return False
    return any(_CHANNEL_RE.match(n) for n in names)


def is_package(path: Path) -> bool:
    """Whether ``path`` is a Discord data package: a folder holding messages/index.json (or that messages folder
    itself), or a zip whose names are a package's."""
    if path.is_dir():
        return (path / "messages" / "index.json").is_file() or (path.name == "messages" and (path / "index.json").is_file())
    try:
        with path.open("rb") as fh:
            if fh.read(4) != b"PK\x03\x04":
                return False
        with zipfile.ZipFile(path) as zf:
            return is_package_names(zf.namelist()[:200_000])
    except ZIP_OPEN_ERRORS:
        return False


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of a Discord data package (its folder, its zip, or its messages folder)."""
    tree = Tree(path)
    turns = Turns(NAME, report)
    index_name = next((n for n in tree.names if n in ("messages/index.json", "index.json")
                       or n.endswith("/messages/index.json")), None)
    if index_name is None:
        raise ImportFormatError("no messages/index.json of a Discord data package", str(path))
    index = tree.json(index_name)
    if not isinstance(index, dict):
        raise ImportFormatError("messages/index.json is not an object of channel names", tree.where(index_name))
    base = index_name[: -len("index.json")]
    channels: dict[str, dict[str, str]] = {}
    for name in tree.names:
        m = _CHANNEL_RE.match(name)
        if m and name.startswith(base):
            channels.setdefault(m.group(1), {})[name.rsplit("/", 1)[-1]] = name
    for cid in sorted(channels, key=lambda c: channels[c].get("channel.json", "") or c):
        files = channels[cid]
        info = tree.json(files["channel.json"]) if "channel.json" in files else {}
        thread = _thread(cid, index.get(cid), info if isinstance(info, dict) else {})
        if "messages.json" in files:
            rows = _json_rows(tree, files["messages.json"])
        elif "messages.csv" in files:
            rows = _csv_rows(tree, files["messages.csv"])
        else:
            continue
        yield from _channel(rows, thread, cid, turns)


def _thread(cid: str, named: Any, info: dict[str, Any]) -> str:
    """The chat of a channel: a direct message's other person, the index's name, channel.json's, or its id."""
    if isinstance(named, str) and named.strip():
        m = _DM_RE.match(named.strip())
        return m.group(1) if m else named.strip()
    name = info.get("name")
    if isinstance(name, str) and name.strip():
        guild = info.get("guild")
        gname = guild.get("name") if isinstance(guild, dict) else None
        return f"{name.strip()} in {gname}" if isinstance(gname, str) and gname.strip() else name.strip()
    return f"channel {cid}"


def _json_rows(tree: Tree, name: str) -> list[tuple[int, dict[str, Any], str]]:
    data = tree.json(name)
    if not isinstance(data, list):
        raise ImportFormatError("messages.json is not a list of messages", tree.where(name))
    return [(i + 1, row, tree.where(name)) for i, row in enumerate(data)]


def _csv_rows(tree: Tree, name: str) -> list[tuple[int, dict[str, Any], str]]:
    where = tree.where(name)
    text = tree.read(name).decode("utf-8-sig", "replace")
    reader = csv.DictReader(io.StringIO(text, newline=""))
    try:
        rows = [(reader.line_num, dict(row), where) for row in reader]
    except csv.Error as exc:
        raise ImportFormatError(f"not a CSV table as Discord writes it ({exc})", where, reader.line_num) from None
    if reader.fieldnames is None or "Timestamp" not in reader.fieldnames or "Contents" not in reader.fieldnames:
        raise ImportFormatError('no "Timestamp" and "Contents" columns of a Discord messages.csv', where, 1)
    return rows


def _time(value: Any, where: str, line: int) -> datetime:
    m = _TIME_RE.match(value.strip()) if isinstance(value, str) else None
    try:
        if m:
            y, mo, d, h, mi, s = (int(g) for g in m.groups()[:6])
            micro = int((m.group(7) or "0").ljust(6, "0"))
            return datetime(y, mo, d, h, mi, s, micro, tzinfo=timezone.utc)
    except ValueError:
        pass
    raise ImportFormatError(f'message {line}: "Timestamp" is no date ({str(value)[:40]!r})', where)


def _channel(rows: list[tuple[int, dict[str, Any], str]], thread: str, cid: str, turns: Turns) -> Iterator[Record]:
    """One channel's messages in time order."""
    timed = []
    for line, row, where in rows:
        if not isinstance(row, dict):
            raise ImportFormatError(f"message {line} is not an object", where)
        timed.append((_time(row.get("Timestamp"), where, line), line, row))
    for when, line, row in sorted(timed, key=lambda t: (t[0], t[1])):
        contents = row.get("Contents")
        attachments = row.get("Attachments")
        metadata: dict[str, Any] = {"from_me": True, "channel_id": cid}
        if isinstance(attachments, str) and attachments.strip():
            metadata["attachments"] = attachments.strip()
            metadata["media"] = True
        mid = row.get("ID")
        ref = f"{NAME}:{cid}:{mid}" if isinstance(mid, (int, str)) and str(mid).strip() else None
        rec = turns.record(Turn(thread=thread, author="me", when=when, text=contents if isinstance(contents, str) else "",
                                ref=ref, metadata=metadata, line=line))
        if rec is not None:
            yield rec
