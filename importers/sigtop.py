"""Signal Desktop chats as sigtop (``sigtop export-messages``, its default text format) writes them: one file a chat,
"Conversation: Ana Sousa (+351912345678)" first, then each message as a block of header lines — "From: Ana Sousa
(+351912345678)" (the owner "You", as written), "Type: incoming|outgoing", "Sent:" and "Received:" in RFC 1123
with the computer's offset, "Attachment: IMG_0042.jpg (image/jpeg, 183204 bytes)", "Reaction: 👍 from You", and
any other "Key: value" line — a blank line, and the message's words up to the next block.

A block starts at a "From:" line after a blank line whose next line is another header (so a message's own "From:
Lisbon" line does not cut it). A phone number after a name is no part of it: kept in the metadata. An attachment
without words is media; reactions, quotes ("Reply to:") and attachments go to the metadata. Times are aware
("Sent:", else "Received:"). The layout is this round's recollection of sigtop's output (no export was at hand).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

from importers import ImportFormatError, Record
from importers._textlines import iter_lines
from importers.chatturns import Turn, Turns

CONVERSATION = "Conversation: "
_HEADER_RE = re.compile(r"^(?P<key>[A-Z][A-Za-z -]{1,30}): (?P<value>.*)$")
_BLOCK_KEYS = frozenset({"Type", "Sent", "Received", "Attachment", "Reaction", "Reply to", "Quote", "Edited"})
_PHONE_RE = re.compile(r"^(?P<name>.*?)\s*\((?P<phone>\+?[\d ()-]{5,20})\)$")
_HEAD_RE = re.compile(r"\A\ufeff?Conversation: [^\n]{1,300}\r?\n\r?\nFrom: [^\n]{1,300}\r?\n(?:Type|Sent): ")


def is_head(text: str) -> bool:
    """Whether ``text`` (a file's first bytes, decoded) starts as sigtop's text export of a chat."""
    return bool(_HEAD_RE.match(text))


def _name(value: str) -> tuple[str, str]:
    """(name, phone) of "Ana Sousa (+351912345678)"; a bare number is its own name."""
    m = _PHONE_RE.match(value.strip())
    if m and m.group("name"):
        return m.group("name"), m.group("phone")
    return value.strip(), ""


def _when(block: dict[str, list[str]], where: str, line: int) -> datetime | None:
    for key in ("Sent", "Received"):
        for value in block.get(key, []):
            try:
                return parsedate_to_datetime(value.strip())
            except (TypeError, ValueError, IndexError):
                raise ImportFormatError(f"{key}: {value.strip()[:40]!r} is no date", where, line) from None
    return None


def records(path: Path, turns: Turns) -> Iterator[Record]:
    """The records of one chat file of sigtop's text export; a file that is not one: a one-line error."""
    where = str(path)
    thread = ""
    head: dict[str, list[str]] | None = None  # the header lines of the block being read (None: in no block)
    start = 0
    body: list[str] = []
    in_body = False
    prev = ""
    lines = _lines(path, where)
    pending = next(lines, None)
    while pending is not None:  # a line at a time, with the next one in view
        no, text = pending
        pending = next(lines, None)
        before, prev = prev, text
        if no == 1 or (not thread and text.startswith(CONVERSATION)):
            if not text.startswith(CONVERSATION):
                raise ImportFormatError('no "Conversation: name" line of sigtop first', where, no)
            thread = _name(text[len(CONVERSATION):])[0] or path.stem
            continue
        nxt = _HEADER_RE.match(pending[1]) if pending is not None else None
        if text.startswith("From: ") and not before.strip() and nxt is not None and nxt.group("key") in _BLOCK_KEYS:
            if head is not None:
                yield from _message(head, body, thread, turns, where, start)
            head, body, in_body, start = {"From": [text[6:]]}, [], False, no
            continue
        if head is None:
            if text.strip():
                raise ImportFormatError('no "From:" block of sigtop before these words', where, no)
            continue
        if not in_body:
            m = _HEADER_RE.match(text)
            if m:
                head.setdefault(m.group("key"), []).append(m.group("value"))
                continue
            in_body = True  # the blank line after the headers (or words at once)
            if not text.strip():
                continue
        body.append(text)
    if head is not None:
        yield from _message(head, body, thread, turns, where, start)
    if not turns.report.messages_seen:
        raise ImportFormatError("no Signal message in this sigtop file", where, 1)


def _lines(path: Path, where: str) -> Iterator[tuple[int, str]]:
    with path.open("rb") as raw:
        for ln in iter_lines(raw, where):
            yield ln.no, ln.text.lstrip("\ufeff") if ln.no == 1 else ln.text


def _message(head: dict[str, list[str]], body: list[str], thread: str, turns: Turns, where: str,
             line: int) -> Iterator[Record]:
    author, phone = _name(head["From"][0])
    meta: dict[str, Any] = {}
    if phone:
        meta["phone"] = phone
    kind = (head.get("Type") or [""])[0].strip().lower()
    if kind == "outgoing" or author == "You":
        meta["from_me"] = True
    if head.get("Attachment"):
        meta["media"] = [a.strip() for a in head["Attachment"]]
    if head.get("Reaction"):
        meta["reactions"] = [r.strip() for r in head["Reaction"]]
    quote = head.get("Reply to") or head.get("Quote")
    if quote:
        meta["quote"] = quote[0].strip()
    while body and not body[-1].strip():
        body.pop()
    rec = turns.record(Turn(thread=thread, author=author or "Unknown", when=_when(head, where, line),
                            text="\n".join(body), metadata=meta, line=line))
    if rec is not None:
        yield rec
