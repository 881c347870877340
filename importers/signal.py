"""Signal Desktop chats as the `signal-export` tool writes them in markdown: a folder per chat ("signal-chats/<chat>/
chat.md", its media beside it), each message "[2024-03-13 19:02] Name: text" ("Me" for the owner, as written),
its next lines continuing it. In a message, "> " lines first are the message it quotes, "![name](./media/…)" lines
are attachments (media) and "(- Name: ❤️, Me: 👍 -)" its reactions: all three go to metadata. Times are the
computer's wall time (naive). The chat is the folder's name. A chat written as JSON only (data.json) is read by
:mod:`importers.signal_json`, as a web page only (index.html) by :mod:`importers.signal_html`; where several are,
the markdown, then the JSON. sigtop's text export (a .txt a chat) is read by :mod:`importers.sigtop`, its JSON by :mod:`importers.sigtop_json`.

Signal's own backup (signal-*.backup) is encrypted with the phone's passphrase: refused by detection
(:mod:`importers.kinds`)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from importers import ImportFormatError, ImportReport, Record, apps32, signal_html, signal_json, sigtop, sigtop_json
from importers._common import head_matches
from importers._textlines import iter_lines
from importers.chatturns import Turn, Turns

NAME = "signal"
MESSAGE_RE = re.compile(r"^\[(?P<y>\d{4})-(?P<mo>\d{2})-(?P<d>\d{2})[ T](?P<h>\d{2}):(?P<mi>\d{2})(?::(?P<s>\d{2}))?\] "
                        r"(?P<name>[^:\n]{1,100}?): ?(?P<text>.*)$")
_ATTACHMENT_RE = re.compile(r"^!?\[(?P<name>[^\]\n]*)\]\((?P<target>[^)\n]*)\)$")
_REACTIONS_RE = re.compile(r"^\(- (.+) -\)$")


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of one chat.md of signal-export, or of every chat in its folder; bad input: a one-line
    ImportFormatError."""
    if path.is_dir():
        chats = chat_files(path) or apps32.sigtop_files(path)
        if not chats:
            raise ImportFormatError("folder holds no chat.md (nor data.json, index.html) of signal-export", str(path))
        for p in chats:
            yield from parse(p, report)
        return
    where = str(path)
    thread = path.parent.name if path.name == "chat.md" else path.stem
    turns = Turns(NAME, report)
    if path.suffix.lower() == ".txt" and apps32.is_sigtop(path):  # sigtop's text export (importers.sigtop)
        yield from sigtop.records(path, turns)
        return
    if path.suffix.lower() == ".json" and apps32.is_sigtop_json(path):  # sigtop's JSON (importers.sigtop_json)
        yield from sigtop_json.records(path, turns)
        if not report.messages_seen:
            raise ImportFormatError("no Signal message in this sigtop file", where, 1)
        return
    if path.suffix.lower() == ".json":  # its JSON (signal_json)
        yield from signal_json.records(path, turns)
        if not report.messages_seen:
            raise ImportFormatError("no Signal message in this file", where, 1)
        return
    if path.suffix.lower() in (".html", ".htm"):  # its web page (signal_html)
        yield from signal_html.parse_page(path, turns)
        if not report.messages_seen:
            raise ImportFormatError("no Signal message in this page", where, 1)
        return
    cur: tuple[str, datetime, int] | None = None
    body: list[str] = []
    with path.open("rb") as raw:
        for ln in iter_lines(raw, where):
            m = MESSAGE_RE.match(ln.text.lstrip("\ufeff") if ln.no == 1 else ln.text)
            if m:
                if cur is not None:
                    yield from _message(cur, body, thread, turns)
                cur, body = (m.group("name").strip(), _when(m, where, ln.no), ln.no), [m.group("text")]
            elif cur is not None:
                body.append(ln.text)
            elif ln.text.strip():
                raise ImportFormatError("no \"[2024-03-13 19:02] Name: text\" line of signal-export before the "
                                        "first words", where, ln.no)
    if cur is not None:
        yield from _message(cur, body, thread, turns)
    if not report.messages_seen:
        raise ImportFormatError("no Signal message in this file", where, 1)


def chat_files(folder: Path) -> list[Path]:
    """signal-export's chats below ``folder``: each chat's chat.md, else its JSON (data.json), else its web page
    (index.html)."""
    out = {p.parent: p for p in folder.rglob("chat.md") if is_chat(p)}
    for data in folder.rglob(signal_json.NAME):
        if data.parent not in out and is_json(data):
            out[data.parent] = data
    for page in folder.rglob("*.htm*"):
        if page.parent not in out and is_page(page):
            out[page.parent] = page
    return [out[d] for d in sorted(out, key=lambda d: d.as_posix())]


def is_json(path: Path) -> bool:
    """Whether ``path`` is a chat's data.json of signal-export (:mod:`importers.signal_json`)."""
    return head_matches(path, lambda head: signal_json.is_head(head.decode("utf-8", "replace")), 4096)


def is_page(path: Path) -> bool:
    """Whether ``path`` is a chat page of signal-export (:mod:`importers.signal_html`)."""
    return head_matches(path, lambda head: signal_html.is_page_head(head.decode("utf-8", "replace")), 65536)


def is_chat(path: Path) -> bool:
    """Whether ``path`` starts as signal-export's chat.md does ("[2024-03-13 19:02] Name: …")."""
    try:
        with path.open("rb") as fh:
            first = fh.read(1024).decode("utf-8", "replace").lstrip("\ufeff").split("\n", 1)[0].rstrip("\r")
    except OSError:
        return False
    return bool(MESSAGE_RE.match(first))


def _when(m: re.Match[str], where: str, line: int) -> datetime:
    try:
        return datetime(int(m.group("y")), int(m.group("mo")), int(m.group("d")), int(m.group("h")), int(m.group("mi")),
                        int(m.group("s") or 0))
    except ValueError:
        raise ImportFormatError(f"{m.group(0)[:22]!r}: no such date", where, line) from None


def _message(cur: tuple[str, datetime, int], body: list[str], thread: str, turns: Turns) -> Iterator[Record]:
    author, when, line = cur
    meta: dict[str, Any] = {}
    quote: list[str] = []
    lines = list(body)
    while lines and lines[0].startswith(">"):  # the quoted message comes first
        quote.append(lines.pop(0)[1:].strip())
    if quote:
        meta["quote"] = "\n".join(quote)
        while lines and not lines[0].strip():
            lines.pop(0)
    words: list[str] = []
    for text in lines:
        stripped = text.strip()
        attachment = _ATTACHMENT_RE.match(stripped)
        reactions = _REACTIONS_RE.match(stripped)
        if attachment and stripped.startswith("!["):
            meta.setdefault("media", []).append(attachment.group("name") or attachment.group("target").rsplit("/", 1)[-1])
        elif reactions:
            meta.setdefault("reactions", []).extend(r.strip() for r in reactions.group(1).split(", ") if r.strip())
        else:
            words.append(text)
    rec = turns.record(Turn(thread=thread, author=author, when=when, text="\n".join(words), metadata=meta, line=line))
    if rec is not None:
        yield rec
