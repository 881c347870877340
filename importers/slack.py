"""Slack's exports: a workspace's (users.json, channels.json, groups.json, dms.json, mpims.json, and one folder of
days, ``YYYY-MM-DD.json``, per conversation), as a folder or its zip; a channel's folder of days alone; one day.

Names: a user is their real name (users.json, else the ``user_profile`` messages carry); a channel is ``#name``;
a DM or group DM is named by its members. In the words, ``<@U..>`` becomes ``@Name``, ``<#C..|name>`` ``#name``,
``<url|label>`` "label (url)", ``<!here>`` "@here", a user group or a date its label; ``&lt;`` ``&gt;`` ``&amp;``
are unescaped. A reply in a thread (``thread_ts``) links to the thread's first message. Joins, leaves, topic and
name changes, pins are system lines; a file shared without words is media; a bot's message is kept, named by the
bot. Times are Slack's ``ts``, UTC instants; refs are ``slack:<conversation id>:<ts>``, stable across exports.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path, PurePosixPath
from typing import Any

from importers import ImportFormatError, ImportReport, Record
from importers._zips import (
    is_zip,
    zip_members,
)
from importers.apps import SLACK_DAY_RE
from importers.chatturns import SYSTEM, Turn, Turns, file_reader, listed, member_reader, text_of

NAME = "slack"
MAX_FILE_BYTES = 256 * 1024 * 1024  # one day of one channel, or users.json; past this: refused
_SYSTEM_SUBTYPES = frozenset({
    "channel_join", "channel_leave", "channel_topic", "channel_purpose", "channel_name", "channel_archive",
    "channel_unarchive", "channel_convert_to_private", "channel_convert_to_public", "group_join", "group_leave",
    "group_topic", "group_purpose", "group_name", "group_archive", "group_unarchive", "pinned_item",
    "unpinned_item", "bot_add", "bot_remove", "bot_enable", "bot_disable", "tombstone", "sh_room_created",
    "huddle_thread", "reminder_add", "channel_posting_permissions", "joiner_notification", "app_conversation_leave"})
_LISTS = ("channels.json", "groups.json", "dms.json", "mpims.json")
_TS_RE = re.compile(r"(\d{1,11})(?:\.(\d{1,9}))?")
_ANGLE_RE = re.compile(r"<([^<>\n]{1,2000})>")

Files = dict[str, Callable[[], bytes]]  # path inside the export (posix) -> its bytes


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of a Slack export (folder, zip, a channel's folder, a day); bad input raises a one-line error."""
    files, base = _files(path)
    where = str(path)
    users: dict[str, str] = {}
    if "users.json" in files:
        for u in _load(files, "users.json", where, list):
            if isinstance(u, dict) and u.get("id"):
                users[text_of(u["id"])] = _user_name(u)
    folders = sorted({PurePosixPath(p).parent.as_posix() for p in files if SLACK_DAY_RE.fullmatch(PurePosixPath(p).name)})
    convs: list[tuple[str, str, str]] = []  # (folder, thread name, conversation id)
    channels: dict[str, str] = {}
    for listing in _LISTS:
        if listing not in files:
            continue
        for c in _load(files, listing, where, list):
            if not isinstance(c, dict):
                continue
            cid = text_of(c.get("id"))
            name = text_of(c.get("name"))
            if listing in ("channels.json", "groups.json") and name:
                channels[cid] = name
                convs.append((name, f"#{name}", cid or name))
            else:
                members = [text_of(m) for m in listed(c.get("members"))]
                convs.append((name or cid, ", ".join(users.get(m, m) for m in members) or name or cid, cid or name))
    named = {folder for folder, _, _ in convs}
    for folder in folders:
        if folder not in named:  # a conversation no list names (a channel's folder exported alone: base)
            name = base if folder == "." else folder.rsplit("/", 1)[-1]
            convs.append((folder, f"#{name}", name))
    if not users:  # no users.json: the names the messages' profiles carry, read first (a mention may come first)
        for folder in folders:
            for day in _days(files, folder):
                for msg in _load(files, day, where, list):
                    if isinstance(msg, dict) and isinstance(msg.get("user_profile"), dict) and msg.get("user"):
                        users.setdefault(text_of(msg["user"]), _user_name(msg["user_profile"]))
    turns = Turns(NAME, report)
    for folder, thread, cid in convs:
        for day in _days(files, folder):
            for i, msg in enumerate(_load(files, day, where, list), start=1):
                rec = _message(msg, thread, cid, users, channels, turns, f"message {i}", _show(where, day))
                if rec is not None:
                    yield rec


def _show(where: str, day: str) -> str:
    return f"{where}/{day}" if not where.endswith(day) else where


def _days(files: Files, folder: str) -> list[str]:
    prefix = "" if folder == "." else folder + "/"
    return sorted(p for p in files if p.startswith(prefix) and "/" not in p[len(prefix):]
                  and SLACK_DAY_RE.fullmatch(p[len(prefix):]))


def _files(path: Path) -> tuple[Files, str]:
    """The export's JSON files by their path inside it, and the name of the folder (a channel's, when alone)."""
    file = str(path)
    if path.is_dir():
        found = {p.relative_to(path).as_posix(): p for p in sorted(path.rglob("*.json"))
                 if p.is_file() and not any(part.startswith(".") for part in p.relative_to(path).parts)}
        return {k: file_reader(p, MAX_FILE_BYTES) for k, p in found.items()}, path.name
    if is_zip(path):
        infos = zip_members(path, file)
        members = [i for i in infos if i.filename.lower().endswith(".json")]
        roots = {i.filename.split("/", 1)[0] for i in members if "/" in i.filename}
        strip = ""
        if not any("/" not in i.filename for i in members) and len(roots) == 1:  # the export in one folder of the zip
            strip = next(iter(roots)) + "/"
        return {i.filename[len(strip):]: member_reader(path, i, MAX_FILE_BYTES) for i in members}, path.stem
    return {path.name: file_reader(path, MAX_FILE_BYTES)}, path.parent.name






def _load(files: Files, name: str, where: str, kind: type) -> Any:
    data = files[name]()
    try:
        value = json.load(io.TextIOWrapper(io.BytesIO(data), encoding="utf-8-sig"))
    except UnicodeDecodeError:
        raise ImportFormatError(f"{name}: not UTF-8 text", where) from None
    except ValueError as exc:
        line = getattr(exc, "lineno", None)
        raise ImportFormatError(f"{name}: invalid or truncated JSON ({getattr(exc, 'msg', exc)})", where, line) from None
    except RecursionError:
        raise ImportFormatError(f"{name}: JSON nested too deep", where) from None
    if not isinstance(value, kind):
        what = "messages" if SLACK_DAY_RE.fullmatch(PurePosixPath(name).name) else "entries"
        raise ImportFormatError(f"{name}: not a list of {what} (a {type(value).__name__})", where)
    return value


def _user_name(u: dict[str, Any]) -> str:
    profile: dict[str, Any] = u["profile"] if isinstance(u.get("profile"), dict) else u
    for value in (profile.get("real_name"), u.get("real_name"), profile.get("display_name"), u.get("name")):
        if isinstance(value, str) and value.strip():
            return value.strip()
    return text_of(u.get("id")) or "Unknown"


def slack_time(ts: Any, what: str, where: str) -> datetime:
    """Slack's ``ts`` ("1710414000.000100": seconds and microseconds since 1970) as an aware UTC time."""
    m = _TS_RE.fullmatch(ts.strip()) if isinstance(ts, str) else None
    if m is None:
        raise ImportFormatError(f'{what}: "ts" is no Slack time ({str(ts)[:40]!r})', where)
    micro = int((m.group(2) or "0")[:6].ljust(6, "0"))
    return datetime.fromtimestamp(int(m.group(1)), timezone.utc) + timedelta(microseconds=micro)


def _message(msg: Any, thread: str, cid: str, users: dict[str, str], channels: dict[str, str], turns: Turns,
             what: str, where: str) -> Record | None:
    if not isinstance(msg, dict):
        turns.report.skipped_malformed += 1
        turns.report.warn(f"{where}: {what}: a {type(msg).__name__}, not a message; skipped")
        return None
    subtype = text_of(msg.get("subtype"))
    if subtype in _SYSTEM_SUBTYPES:
        turns.skip(SYSTEM)
        return None
    ts = msg.get("ts")
    when = slack_time(ts, what, where)
    meta: dict[str, Any] = {}
    user = text_of(msg.get("user"))
    if subtype == "bot_message" or (msg.get("bot_id") and not user):
        profile: dict[str, Any] = msg["bot_profile"] if isinstance(msg.get("bot_profile"), dict) else {}
        author = text_of(msg.get("username")) or text_of(profile.get("name")) or text_of(msg.get("bot_id")) or "bot"
        meta["bot"] = True
    else:
        if user not in users and isinstance(msg.get("user_profile"), dict):
            users[user] = _user_name(msg["user_profile"])
        author = users.get(user, user or "Unknown")
    files = [text_of(f.get("name") or f.get("title") or "file") for f in listed(msg.get("files")) if isinstance(f, dict)]
    if files:
        meta["media"] = files
    if isinstance(msg.get("edited"), dict):
        meta["edited"] = True
    links: list[tuple[str, str]] = []
    parent = msg.get("thread_ts")
    if isinstance(parent, str) and parent != ts:
        meta["thread_ts"] = parent
        links.append((f"{NAME}:{cid}:{parent}", "explicit"))
    return turns.record(Turn(thread=thread, author=author, when=when, text=slack_text(text_of(msg.get("text")), users, channels),
                             ref=f"{NAME}:{cid}:{ts}", metadata=meta, links=links))


def slack_text(text: str, users: dict[str, str], channels: dict[str, str]) -> str:
    """Slack's markup as a reader sees it: mentions by name, links with their labels, entities unescaped."""
    def sub(m: re.Match[str]) -> str:
        body = m.group(1)
        target, _, label = body.partition("|")
        if target.startswith("@"):
            return "@" + (label or users.get(target[1:], target[1:]))
        if target.startswith("#"):
            return "#" + (label or channels.get(target[1:], target[1:]))
        if target.startswith("!"):
            if label:
                return label
            word = target[1:].split("^", 1)[0]
            return f"@{word}" if word in ("here", "channel", "everyone") else word
        if target.startswith("mailto:"):
            return label or target[7:]
        return f"{label} ({target})" if label and label != target else target
    return _ANGLE_RE.sub(sub, text).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
