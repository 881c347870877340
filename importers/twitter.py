"""Direct messages of an X (Twitter) account archive: data/direct-messages.js and data/direct-messages-group.js
(large archives add -part1, -part2, …), each a script assigning a JSON array (``window.YTD.direct_messages.part0 =
[...]``) of conversations: ``dmConversation`` with its conversationId ("<id>-<id>" for two people) and its events,
newest first: ``messageCreate`` (senderId, text with t.co links and the ``urls`` that expand them, ``mediaUrls``,
``reactions``, createdAt in UTC), and in groups ``joinConversation``, ``participantsJoin``, ``participantsLeave``,
``conversationNameUpdate`` (service lines; the last name given names the chat).

The archive names nobody but its owner: data/account.js gives the owner's accountId, whose messages are "me"; the
others keep their numeric ids (a two-person chat is named by the other's). Without account.js (a direct-messages.js
copied alone) nobody is "me", said once in a warning. Conversations are streamed one at a time (a conversation's
events are sorted oldest first); t.co links are expanded, a photo's own link dropped (a message of a photo alone is
media), HTML entities read ("&amp;")."""

from __future__ import annotations

import html
import re
import zipfile
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from importers import ImportFormatError, ImportReport, Record
from importers._jsonstream import iter_page_array
from importers._zips import ZIP_OPEN_ERRORS, is_junk_member
from importers.chatturns import SYSTEM, Turn, Turns, iso_date, listed, text_of

NAME = "twitter"
FILE_RE = re.compile(r"direct-messages(?:-group)?(?:-part\d+)?\.js")
HEAD_RE = re.compile(r"^\s*window\.YTD\.direct_messages(?:_group)?\.part\d+\s*=\s*")
_MARKER = b"= "


def is_dm_head(head: str) -> bool:
    """Whether a file's first bytes are an archive's direct messages."""
    return bool(HEAD_RE.match(head.lstrip("\ufeff")))


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of an X archive (folder or zip), its data folder, or one direct-messages*.js; bad input: a one-line
    ImportFormatError."""
    turns = Turns(NAME, report)
    if path.is_dir():
        data = path / "data" if (path / "data").is_dir() else path
        pages = sorted((p for p in data.iterdir() if FILE_RE.fullmatch(p.name) and p.is_file()), key=_order)
        if not pages:
            raise ImportFormatError("folder holds no direct-messages.js of an X (Twitter) archive", str(path))
        owner = _owner((data / "account.js", None), report) if (data / "account.js").is_file() else _no_owner(report)
        for p in pages:
            yield from _file((p, None), owner, turns)
    elif path.suffix.lower() == ".zip":
        try:
            with zipfile.ZipFile(path) as zf:
                names = [n for n in zf.namelist() if not is_junk_member(n)]
        except ZIP_OPEN_ERRORS as exc:
            raise ImportFormatError(f"malformed zip archive ({exc})", str(path)) from None
        files = sorted((n for n in names if FILE_RE.fullmatch(n.rsplit("/", 1)[-1])), key=lambda n: _order(Path(n)))
        if not files:
            raise ImportFormatError("zip holds no data/direct-messages.js of an X (Twitter) archive", str(path))
        member = next((n for n in names if n.rsplit("/", 1)[-1] == "account.js"), None)
        owner = _owner((path, member), report) if member else _no_owner(report)
        for name in files:
            yield from _file((path, name), owner, turns)
    else:
        account = path.parent / "account.js"
        owner = _owner((account, None), report) if account.is_file() else _no_owner(report)
        yield from _file((path, None), owner, turns)
    if not report.messages_seen:
        raise ImportFormatError("no direct message in this archive", str(path))


def _order(p: Path) -> tuple[bool, str]:
    return ("group" in p.name, p.name)  # two-person chats, then groups


def _no_owner(report: ImportReport) -> str:
    report.warn("no account.js beside the direct messages: the owner is not known, their messages keep their id")
    return ""


def _owner(source: tuple[Path, str | None], report: ImportReport) -> str:
    """The accountId account.js gives ("" when it gives none)."""
    for item in iter_page_array(source, _MARKER):
        account = item.get("account") if isinstance(item, dict) else None
        if isinstance(account, dict) and account.get("accountId"):
            return text_of(account["accountId"])
    return _no_owner(report)


def _where(source: tuple[Path, str | None]) -> str:
    return f"{source[0]}:{source[1]}" if source[1] else str(source[0])


def _check_head(source: tuple[Path, str | None]) -> None:
    """A file whose assignment is no array is refused by name (the stream would read nothing from it)."""
    path, member = source
    if member is None:
        with path.open("rb") as fh:
            head = fh.read(65536)
    else:
        with zipfile.ZipFile(path) as zf, zf.open(member) as fh:
            head = fh.read(65536)
    text = head.decode("utf-8", "replace").lstrip("\ufeff")
    m = HEAD_RE.match(text)
    if m is None:
        raise ImportFormatError("no \"window.YTD.direct_messages.part0 = [\" at its start", _where(source), 1)
    if not text[m.end():].lstrip().startswith("["):
        raise ImportFormatError("no list of conversations after \"window.YTD.direct_messages.part0 =\"",
                                _where(source), 1)


def _file(source: tuple[Path, str | None], owner: str, turns: Turns) -> Iterator[Record]:
    _check_head(source)
    where = _where(source)
    for n, item in enumerate(iter_page_array(source, _MARKER), start=1):
        conv = item.get("dmConversation") if isinstance(item, dict) else None
        if not isinstance(conv, dict):
            raise ImportFormatError(f"conversation {n}: no \"dmConversation\" object", where)
        yield from _conversation(conv, n, owner, turns, where)


def _conversation(conv: dict[str, Any], n: int, owner: str, turns: Turns, where: str) -> Iterator[Record]:
    cid = text_of(conv.get("conversationId"))
    events: list[tuple[datetime, int, str, dict[str, Any]]] = []
    name = ""
    for i, ev in enumerate(listed(conv.get("messages")), start=1):
        if not isinstance(ev, dict) or len(ev) != 1:
            raise ImportFormatError(f"conversation {n}, message {i} is no event object", where)
        kind, body = next(iter(ev.items()))
        if not isinstance(body, dict):
            raise ImportFormatError(f"conversation {n}, message {i}: \"{kind}\" is not an object", where)
        when = iso_date(body.get("createdAt"), f"conversation {n}, message {i}: \"createdAt\"", where)
        events.append((when, i, kind, body))
    events.sort(key=lambda e: (e[0], -e[1]))  # oldest first; the archive lists the newest first
    for _when, _i, kind, body in events:
        if kind == "conversationNameUpdate" and text_of(body.get("name")).strip():
            name = text_of(body.get("name")).strip()
    ids = cid.split("-")
    if name:
        thread = name
    elif len(ids) == 2 and owner in ids:
        thread = ids[0] if ids[1] == owner else ids[1]
    else:
        thread = cid
    for when, _i, kind, body in events:
        if kind != "messageCreate":
            turns.skip(SYSTEM)  # joins, adds, leaves, renames (and events this reader does not know)
            continue
        sender = text_of(body.get("senderId"))
        author = "me" if owner and sender == owner else sender
        text = html.unescape(text_of(body.get("text")))
        media = [text_of(u) for u in listed(body.get("mediaUrls")) if text_of(u)]
        for link in listed(body.get("urls")):
            if not isinstance(link, dict):
                continue
            short, full = text_of(link.get("url")), text_of(link.get("expanded"))
            if not short:
                continue
            if media and ("/messages/media/" in full or text_of(link.get("display")).startswith(("pic.twitter.com",
                                                                                                  "pic.x.com"))):
                text = text.replace(short, "")  # the photo's own link: the photo is the media
            elif full:
                text = text.replace(short, full)
        meta: dict[str, Any] = {"media": media} if media else {}
        reactions = [f"{'me' if owner and text_of(r.get('senderId')) == owner else text_of(r.get('senderId'))}: "
                     f"{text_of(r.get('reactionKey'))}" for r in listed(body.get("reactions")) if isinstance(r, dict)]
        if reactions:
            meta["reactions"] = reactions
        mid = text_of(body.get("id"))
        rec = turns.record(Turn(thread=thread, author=author, when=when, text=text.strip(),
                                ref=f"{NAME}:{mid}" if mid else None, metadata=meta))
        if rec is not None:
            yield rec
