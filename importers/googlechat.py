"""Google Chat as Google Takeout writes it: "Google Chat/Groups/<Space …|DM …>/messages.json" ({"messages": [...]},
each with its creator {name, email, user_type}, created_date "Monday, April 8, 2024 at 9:01:15 AM UTC", text,
attached_files, message_id) beside group_info.json (the space's name, its members), and
"Google Chat/Users/User …/user_info.json" naming the account's owner. The older Takeout's Hangouts.json is read by
:mod:`importers.hangouts`; a Takeout folder or zip holding both gives both.

A space is named by its name; a DM (no name) by its members other than the owner (all of them when the owner is
unknown). A message of a file only is media; a deleted one is system; a bot's keeps its words (marked ``bot``). Refs
are the messages' own ids: the same message read from the Takeout, its folder or its file is one memory. Each
messages.json is streamed message by message."""

from __future__ import annotations

import json
import re
import zipfile
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from datetime import datetime, timedelta, timezone
from pathlib import Path, PurePosixPath
from typing import IO, Any

from importers import ImportFormatError, ImportReport, Record
from importers._zips import ZIP_OPEN_ERRORS, check_member_name, is_junk_member, is_zip
from importers.chatturns import SYSTEM, Turn, Turns, json_errors_where, listed, stream_json, text_of

NAME = "googlechat"
Opener = Callable[[], AbstractContextManager[IO[bytes]]]
# "Monday, April 8, 2024 at 9:01:15 AM UTC" (American English), "Monday, 8 April 2024 at 09:01:15 UTC" (British)
_DATE_RE = re.compile(r"^(?:[A-Za-z]+,? )?(?:(?P<mon>[A-Za-z]+)\.? (?P<d>\d{1,2}),|(?P<d2>\d{1,2}) (?P<mon2>[A-Za-z]+)\.?,?) "
                      r"(?P<y>\d{4}),? (?:at )?(?P<h>\d{1,2}):(?P<mi>\d{2})(?::(?P<s>\d{2}))?\s*(?P<ampm>[AaPp]\.?[Mm]\.?)?"
                      r"\s*(?P<zone>[A-Za-z]{1,5})?(?P<off>[+-]\d{1,2}(?::?\d{2})?)?$")
_MONTHS = {m: i for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov",
                                        "dec"), start=1)}
_UTC_NAMES = {"UTC", "GMT", "Z"}
HANGOUTS_RE = re.compile(r"(?:^|/)hangouts\.json$", re.IGNORECASE)
MESSAGES_RE = re.compile(r"(?:^|/)Groups/[^/]+/messages\.json$")


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of a Google Chat or Hangouts Takeout (a folder, a zip, one space's folder, a messages.json or a
    Hangouts.json); bad input: a one-line ImportFormatError."""
    from importers import googlevoice, hangouts

    turns = Turns(NAME, report)
    files = _files(path)
    if not files:
        raise ImportFormatError("no Google Chat messages.json nor Hangouts.json here", str(path))
    owner = _owner(files)
    spaces = sorted(n for n in files if n.endswith("messages.json"))
    for name in spaces:
        info = _info(files, str(PurePosixPath(name).parent / "group_info.json"))
        yield from _space(files[name][0], files[name][1], name, info, owner, turns)
    for name in sorted(n for n in files if HANGOUTS_RE.search(n)):
        report.variant["layout"] = "hangouts" if not spaces else "google chat and hangouts"
        yield from hangouts.records(files[name][0], files[name][1], turns)
    yield from googlevoice.takeout_records(path, report)  # the same Takeout's Google Voice pages, as googlevoice's


def _files(path: Path) -> dict[str, tuple[Opener, str]]:
    """The export's JSON files by their path in it (posix), each with its opener and its name for errors."""
    opener = _file_opener
    if path.is_dir():
        found: dict[str, tuple[Opener, str]] = {}
        for p in sorted(path.rglob("*.json")):
            rel = p.relative_to(path).as_posix()
            if p.name == "messages.json" or p.name in ("group_info.json", "user_info.json") or HANGOUTS_RE.search(rel):
                found[rel] = (opener(p), str(p))
        _users_above(path, found)
        if not any(k.endswith("messages.json") or HANGOUTS_RE.search(k) for k in found):
            return {}
        return found
    if is_zip(path):
        return _zip_files(path)
    files = {path.name: (opener(path), str(path))}
    info = path.parent / "group_info.json"
    if path.name == "messages.json" and info.is_file():
        files["group_info.json"] = (opener(info), str(info))
        _users_above(path.parent, files)
    return files


def _users_above(space: Path, found: dict[str, tuple[Opener, str]]) -> None:
    """The owner's user_info.json of a space's folder read alone (its Takeout's Users/ beside Groups/)."""
    if space.parent.name != "Groups" or any(k.endswith("user_info.json") for k in found):
        return
    for p in sorted((space.parent.parent / "Users").glob("*/user_info.json")):
        found[f"../Users/{p.parent.name}/user_info.json"] = (_file_opener(p), str(p))


def _file_opener(p: Path) -> Opener:
    return lambda: p.open("rb")


def _zip_files(path: Path) -> dict[str, tuple[Opener, str]]:
    from importers.telegram import zip_opener

    try:
        with zipfile.ZipFile(path) as zf:
            names = [n for n in zf.namelist() if not is_junk_member(n)]
    except ZIP_OPEN_ERRORS as exc:
        raise ImportFormatError(f"malformed zip archive ({exc})", str(path)) from None
    found = {}
    for n in names:
        base = n.rsplit("/", 1)[-1]
        if base in ("messages.json", "group_info.json", "user_info.json") or HANGOUTS_RE.search(n):
            check_member_name(n, str(path))
            found[n] = (zip_opener(path, n), f"{path}!{n}")
    return found


def _load(opener: Opener, where: str) -> Any:
    with json_errors_where(where), opener() as raw:  # a damaged zip member: one line naming it (fuzz, layouts33)
        data = raw.read(16 * 1024 * 1024 + 1)
    if len(data) > 16 * 1024 * 1024:
        raise ImportFormatError("file larger than 16 MB (no group_info.json is)", where)
    try:
        return json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise ImportFormatError("not UTF-8 text", where) from None
    except ValueError as exc:
        raise ImportFormatError(f"invalid or truncated JSON ({getattr(exc, 'msg', exc)})", where,
                                getattr(exc, "lineno", None)) from None
    except RecursionError:
        raise ImportFormatError("JSON nested too deep", where) from None


def _owner(files: dict[str, tuple[Opener, str]]) -> str:
    """The owner's address (user_info.json's user.email), or ""."""
    for name in sorted(files):
        if name.endswith("user_info.json"):
            data = _load(*files[name])
            user = data.get("user") if isinstance(data, dict) else None
            if isinstance(user, dict) and isinstance(user.get("email"), str):
                return user["email"].strip().lower()
    return ""


def _info(files: dict[str, tuple[Opener, str]], name: str) -> dict[str, Any]:
    if name not in files and name.startswith("./"):
        name = name[2:]
    if name not in files:
        return {}
    data = _load(*files[name])
    return data if isinstance(data, dict) else {}


def _space_name(info: dict[str, Any], owner: str, folder: str) -> str:
    name = text_of(info.get("name")).strip()
    if name:
        return name
    members = [m for m in listed(info.get("members")) if isinstance(m, dict)]
    others = [text_of(m.get("name") or m.get("email")).strip() for m in members
              if not owner or text_of(m.get("email")).strip().lower() != owner]
    others = [o for o in others if o]
    return ", ".join(others) if others else folder


def _space(opener: Opener, where: str, name: str, info: dict[str, Any], owner: str, turns: Turns) -> Iterator[Record]:
    folder = PurePosixPath(name).parent.name or PurePosixPath(where).parent.name
    thread = _space_name(info, owner, folder)
    n = 0
    with json_errors_where(where), opener() as raw:
        for kind, _prefix, value in stream_json(raw, where, lambda p: p == "messages"):
            if kind == "notlist":
                raise ImportFormatError('"messages" is not a list', where)
            if kind != "item":
                continue
            n += 1
            rec = _message(value, thread, turns, f"message {n}", where)
            if rec is not None:
                yield rec


def created(value: Any, what: str, where: str) -> datetime:
    """Takeout's "Monday, April 8, 2024 at 9:01:15 AM UTC" (a narrow no-break space before the AM in newer ones):
    aware in UTC (or GMT), naive under a zone's name it does not spell out; anything else a one-line error."""
    m = _DATE_RE.match(text_of(value).replace("\u202f", " ").replace("\u00a0", " ").strip())
    month = _MONTHS.get((m.group("mon") or m.group("mon2"))[:3].lower(), 0) if m else 0
    if m is None or not month:
        raise ImportFormatError(f"{what} is no date ({str(value)[:40]!r})", where)
    hour = int(m.group("h"))
    if m.group("ampm"):
        hour = hour % 12 + (12 if m.group("ampm").lower().startswith("p") else 0)
    zone = (m.group("zone") or "").upper()
    try:
        when = datetime(int(m.group("y")), month, int(m.group("d") or m.group("d2")), hour, int(m.group("mi")),
                        int(m.group("s") or 0))
    except ValueError:
        raise ImportFormatError(f"{what} is no date ({str(value)[:40]!r})", where) from None
    if zone in _UTC_NAMES or (not zone and m.group("off")):
        off = m.group("off") or ""
        sign = -1 if off.startswith("-") else 1
        hours, _, minutes = off[1:].partition(":") if ":" in off else (off[1:3] if len(off) > 3 else off[1:], "", off[3:])
        delta = timedelta(hours=int(hours or 0), minutes=int(minutes or 0))
        if delta > timedelta(hours=14):
            raise ImportFormatError(f"{what} is no date ({str(value)[:40]!r})", where)
        return when.replace(tzinfo=timezone(sign * delta))
    return when


def _message(msg: Any, thread: str, turns: Turns, what: str, where: str) -> Record | None:
    if not isinstance(msg, dict):
        turns.report.skipped_malformed += 1
        turns.report.warn(f"{where}: {what}: a {type(msg).__name__}, not a message; skipped")
        return None
    when = created(msg.get("created_date"), f'{what}: "created_date"', where)
    if msg.get("deleted_date") or text_of(msg.get("message_state")).upper() == "DELETED":
        turns.skip(SYSTEM)
        return None
    creator: dict[str, Any] = msg["creator"] if isinstance(msg.get("creator"), dict) else {}
    author = text_of(creator.get("name") or creator.get("email")).strip() or "Unknown"
    meta: dict[str, Any] = {}
    files = [text_of(f.get("original_name") or f.get("export_name") or "file") for f in listed(msg.get("attached_files"))
             if isinstance(f, dict)]
    if files:
        meta["media"] = files
    if text_of(creator.get("user_type")).lower() == "bot":
        meta["bot"] = True
    if msg.get("updated_date"):
        meta["edited"] = True
    quoted = msg.get("quoted_message_metadata")
    if isinstance(quoted, dict) and quoted.get("text"):
        meta["quote"] = text_of(quoted.get("text"))
    if msg.get("topic_id"):
        meta["topic"] = text_of(msg.get("topic_id"))
    ident = text_of(msg.get("message_id")).strip()
    return turns.record(Turn(thread=thread, author=author, when=when, text=text_of(msg.get("text")), metadata=meta,
                             ref=f"{NAME}:{ident}" if ident else None))
