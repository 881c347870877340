"""Signal Desktop chats as sigtop writes them in JSON (``sigtop export-messages -f json``): one file a chat, named as
its text output is ("Ana Sousa (+351912345678).json"), a JSON array of Signal Desktop's own message objects:
``{"type": "incoming"|"outgoing"|<a notice>, "body", "sent_at" (ms), "received_at", "timestamp", "source" (the
sender's number), "conversationId", "attachments": [{"contentType", "fileName"}], "reactions": [{"emoji"}],
"quote": {"text"}}``.

The layout is this round's recollection of sigtop (no export was at hand: tests/fixtures/unseen31/README.md). Signal's
objects carry no sender's name: an incoming message of a chat with one person (a file named "Name (+number)") is
that person's when it has no other sender's number; in a group the sender is the number (or the id) written — never
the chat's name. "outgoing" is the owner, "You" as sigtop's text writes it. Times are ``sent_at`` (else
``timestamp``, ``received_at``) in UTC. Any other ``type`` (a timer change, a key change, a group update) is a
service line; an attachment without words is media; reactions and a quote go to the metadata. Streamed: a 2 GB
file is read one message at a time."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from importers import ImportFormatError, Record
from importers.chatturns import MEDIA, SYSTEM, Turn, Turns, json_errors_where, stream_json

_TYPE_RE = re.compile(r'"type"\s*:\s*"(?:incoming|outgoing|timer-notification|keychange|group-v2-change|'
                      r'verified-change|profile-change|call-history|change-number-notification)"')
_TIME_KEYS = ("sent_at", "timestamp", "received_at")
_PHONE_RE = re.compile(r"^(?P<name>.*?)\s*\((?P<phone>\+?[\d ()-]{5,20})\)$")


def is_head(head: str) -> bool:
    """Whether a ``.json`` file's first bytes are sigtop's JSON of a chat: a list of Signal Desktop message objects
    (a ``type`` of Signal's and its ``sent_at`` or ``conversationId``)."""
    first = head.lstrip("\ufeff \t\r\n")[:4000]
    return first.startswith("[") and first[1:].lstrip().startswith("{") and bool(_TYPE_RE.search(first)) and (
        '"sent_at"' in first or '"conversationId"' in first)


def records(path: Path, turns: Turns) -> Iterator[Record]:
    """The records of one chat file; a file that is not one: a one-line error naming it (and the message)."""
    where = str(path)
    m = _PHONE_RE.match(path.stem.strip())
    chat, phone = (m.group("name"), m.group("phone").replace(" ", "")) if m and m.group("name") else (path.stem, "")
    with json_errors_where(where), path.open("rb") as raw:
        for n, (kind, _prefix, value) in enumerate(stream_json(raw, where, lambda p: p == "")):
            if kind == "notlist":
                raise ImportFormatError("not a list of Signal messages (sigtop's JSON)", where)
            if kind != "item":
                continue
            if not isinstance(value, dict):
                raise ImportFormatError(f"message {n + 1}: not an object", where)
            rec = _message(value, chat, phone, turns, where, n + 1)
            if rec is not None:
                yield rec


def _message(obj: dict[str, Any], chat: str, phone: str, turns: Turns, where: str, n: int) -> Record | None:
    kind = obj.get("type")
    if kind not in ("incoming", "outgoing"):
        turns.skip(SYSTEM)  # a timer change, a safety-number change, a group update, a call
        return None
    meta: dict[str, Any] = {}
    if kind == "outgoing":
        author = "You"
        meta["from_me"] = True
    else:
        source = str(obj.get("source") or obj.get("sourceServiceId") or obj.get("sourceUuid") or "")
        # one person's chat: theirs; a group's (or another number's) message: the number written, never the chat
        author = chat if phone and source.replace(" ", "") in ("", phone) else (source or "Unknown")
        if source:
            meta["phone"] = source
    attachments = obj.get("attachments") or []
    if not isinstance(attachments, list):
        raise ImportFormatError(f"message {n}: 'attachments' is not a list", where)
    if attachments:
        meta["media"] = [str(a.get("fileName") or a.get("contentType") or "attachment") if isinstance(a, dict)
                         else str(a) for a in attachments]
    reactions = obj.get("reactions")
    if isinstance(reactions, list) and reactions:
        meta["reactions"] = [str(r.get("emoji", "")) for r in reactions if isinstance(r, dict)]
    quote = obj.get("quote")
    if isinstance(quote, dict) and quote.get("text"):
        meta["quote"] = str(quote["text"])
    body = obj.get("body")
    if body is not None and not isinstance(body, str):
        raise ImportFormatError(f"message {n}: 'body' is not text", where)
    if not (body or "").strip() and attachments:
        turns.skip(MEDIA)
        return None
    return turns.record(Turn(thread=chat, author=author, when=_when(obj, where, n), text=body or "", metadata=meta))


def _when(obj: dict[str, Any], where: str, n: int) -> datetime | None:
    for key in _TIME_KEYS:
        value = obj.get(key)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ImportFormatError(f"message {n}: {key!r} {str(value)[:30]!r} is no time in milliseconds", where)
        try:
            return datetime.fromtimestamp(value / 1000, tz=UTC)
        except (OverflowError, OSError, ValueError):
            raise ImportFormatError(f"message {n}: {key!r} {value} is no time", where) from None
    return None
