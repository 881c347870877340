"""Mattermost's bulk export (``mmctl export create``, the System Console's export: a zip holding import.jsonl and the
files' data/ folder; or the JSON lines alone): one object a line, {"type": "version"} first, then "team", "channel"
(display names), "user" (username, first and last name, nickname), "post" (team, channel, user, message, create_at in
epoch milliseconds, its "replies", reactions, attachments), "direct_channel" and "direct_post" (channel_members).

Each post and reply is a chat turn; a channel is the chat "Display Name (Team)", a direct or group message its
people's names. A reply follows its post (``reply_to`` its ref); a post of files only is media; a system post (a
"type" such as system_join_channel) is system. Names: first and last name, else the nickname, else the username.
The export marks no one as its owner (it is a server's). Read a line at a time; times are UTC."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from importers import ImportFormatError, ImportReport, Record
from importers._tree import Tree
from importers.chatturns import SYSTEM, Turn, Turns, epoch, text_of

NAME = "mattermost"
MAX_LINE_BYTES = 64 * 1024 * 1024  # one post with its replies; longer: refused naming the line


def is_head(head: str) -> bool:
    """Whether a JSON-lines file starts as Mattermost's bulk export: its version line."""
    first = head.lstrip("\ufeff \t\r\n").split("\n", 1)[0]
    if not first.startswith("{") or '"version"' not in first[:200]:
        return False
    try:
        obj = json.loads(first)
    except (ValueError, RecursionError):  # (a line nested past json's depth is no version line)
        return first.startswith('{"type":"version"') or first.startswith('{"type": "version"')
    return isinstance(obj, dict) and obj.get("type") == "version" and "version" in obj


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of the export's JSON lines, its folder or its zip; bad input: a one-line ImportFormatError."""
    turns = Turns(NAME, report)
    if path.is_file() and path.suffix.lower() in (".jsonl", ".json", ".ndjson"):
        with path.open("rb") as fh:
            yield from _lines(fh, str(path), turns)
        return
    tree = Tree(path)
    names = [n for n in tree.names if n.lower().endswith(".jsonl") and "/" not in n.strip("/")] or \
        [n for n in tree.names if n.lower().endswith(".jsonl")]
    if not names:
        raise ImportFormatError("no import.jsonl of a Mattermost export", str(path))
    for name in names:
        with tree.open(name) as fh:
            yield from _lines(fh, tree.where(name), turns)


class _State:
    """What the lines before a post said: teams' and channels' display names, users' names."""

    def __init__(self) -> None:
        self.teams: dict[str, str] = {}
        self.channels: dict[tuple[str, str], str] = {}
        self.users: dict[str, str] = {}

    def user(self, username: Any) -> str:
        name = text_of(username).strip()
        return self.users.get(name, name) or "Unknown"


def _lines(fh: IO[bytes], where: str, turns: Turns) -> Iterator[Record]:
    state = _State()
    started = False
    for lineno, raw in enumerate(fh, start=1):
        if len(raw) > MAX_LINE_BYTES:
            raise ImportFormatError(f"line longer than {MAX_LINE_BYTES} bytes", where, lineno)
        text = raw.decode("utf-8-sig" if lineno == 1 else "utf-8", "replace").strip()
        if not text:
            continue
        try:
            obj = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise ImportFormatError(f"line is no JSON ({getattr(exc, 'msg', type(exc).__name__)})", where, lineno) from None
        if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
            raise ImportFormatError('line is no object with a "type"', where, lineno)
        kind = obj["type"]
        if not started:
            if kind != "version":
                raise ImportFormatError('no "version" line starts it: not a Mattermost bulk export', where, lineno)
            started = True
            continue
        body = obj.get(kind)
        if not isinstance(body, dict):
            raise ImportFormatError(f'"{kind}" is not an object', where, lineno)
        if kind == "team":
            state.teams[text_of(body.get("name"))] = text_of(body.get("display_name")) or text_of(body.get("name"))
        elif kind == "channel":
            key = (text_of(body.get("team")), text_of(body.get("name")))
            state.channels[key] = text_of(body.get("display_name")) or key[1]
        elif kind == "user":
            full = " ".join(p for p in (text_of(body.get("first_name")).strip(), text_of(body.get("last_name")).strip()) if p)
            state.users[text_of(body.get("username"))] = full or text_of(body.get("nickname")).strip() or \
                text_of(body.get("username"))
        elif kind in ("post", "direct_post"):
            yield from _post(body, kind, state, where, lineno, turns)


def _post(post: dict[str, Any], kind: str, state: _State, where: str, lineno: int, turns: Turns) -> Iterator[Record]:
    """A post and its replies."""
    if kind == "post":
        team, channel = text_of(post.get("team")), text_of(post.get("channel"))
        thread = f"{state.channels.get((team, channel), channel)} ({state.teams.get(team, team)})"
    else:
        members = post.get("channel_members")
        names = [state.user(m) for m in members] if isinstance(members, list) else []
        thread = ", ".join(names) or "direct messages"
    root = _turn(post, thread, state, where, lineno, turns, None)
    if root is not None:
        yield root
    replies = post.get("replies") or []
    if not isinstance(replies, list):
        raise ImportFormatError('"replies" is not a list', where, lineno)
    root_ref = root.ref if root is not None else None
    for reply in replies:
        if not isinstance(reply, dict):
            raise ImportFormatError("a reply is not an object", where, lineno)
        rec = _turn(reply, thread, state, where, lineno, turns, root_ref)
        if rec is not None:
            yield rec


def _turn(post: dict[str, Any], thread: str, state: _State, where: str, lineno: int, turns: Turns,
          reply_to: str | None) -> Record | None:
    try:
        when = epoch(post.get("create_at"), 1000, '"create_at"', where)
    except ImportFormatError as exc:
        raise ImportFormatError(exc.reason, where, lineno) from None
    if text_of(post.get("type")).startswith("system_"):
        turns.skip(SYSTEM)
        return None
    metadata: dict[str, Any] = {}
    attachments = post.get("attachments")
    if isinstance(attachments, list) and attachments:
        metadata["attachments"] = [text_of(a.get("path")) for a in attachments if isinstance(a, dict)][:50]
        metadata["media"] = True
    if reply_to:
        metadata["reply_to"] = reply_to
    return turns.record(Turn(thread=thread, author=state.user(post.get("user")), when=when,
                             text=text_of(post.get("message")), metadata=metadata, line=lineno))
