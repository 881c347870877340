"""Google Hangouts as the older Google Takeout wrote it (Hangouts/Hangouts.json): {"conversations": [{"conversation":
{... "participant_data": [{"id": {"gaia_id"}, "fallback_name"}], "name", "self_conversation_state"}, "events": [...]}]}
(older still: "conversation_state": [{"conversation_state": {"conversation", "event"}}]). Each event has its
sender_id, a timestamp in microseconds since 1970 (UTC) and, for a message, chat_message.message_content: segments
(TEXT, LINK, LINE_BREAK) and attachments (photos: media). Other events (calls, renames, members added or gone) are
system. A conversation is named by its name, else by its participants other than the owner (self_read_state).

Streamed: one event (and one participant) in memory at a time, whatever the file's size."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from datetime import datetime, timedelta, timezone
from typing import IO, Any

from importers import ImportFormatError, Record
from importers.chatturns import SYSTEM, Turn, Turns, json_errors_where, listed, stream_json, text_of

NAME = "googlechat"
Opener = Callable[[], AbstractContextManager[IO[bytes]]]
_NEW = "conversations.item"
_OLD = "conversation_state.item"
_CONVS = (_NEW, _OLD)
_EVENTS = (f"{_NEW}.events", f"{_OLD}.conversation_state.event")
_PEOPLE = (f"{_NEW}.conversation.conversation.participant_data", f"{_OLD}.conversation_state.conversation.participant_data")
_HEADS = (f"{_NEW}.conversation.conversation", f"{_OLD}.conversation_state.conversation")
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def records(opener: Opener, where: str, turns: Turns) -> Iterator[Record]:
    """The records of one Hangouts.json."""
    wanted = set(_EVENTS) | set(_PEOPLE)
    people: dict[str, str] = {}
    head: dict[str, str] = {}
    n = 0
    with json_errors_where(where), opener() as raw:
        for kind, prefix, value in stream_json(raw, where, lambda p: p in wanted):
            if kind == "open" and prefix in _CONVS:
                people, head = {}, {}
            elif kind == "notlist":
                raise ImportFormatError(f'"{prefix.rsplit(".", 1)[-1]}" is not a list', where)
            elif kind == "value":
                for base in _HEADS:
                    if prefix.startswith(base + "."):
                        key = prefix[len(base) + 1:]
                        if key in ("name", "type", "self_conversation_state.self_read_state.participant_id.gaia_id"):
                            head[key.rsplit(".", 1)[-1]] = text_of(value)
            elif kind == "item" and prefix[:-5] in _PEOPLE and isinstance(value, dict):
                ident: dict[str, Any] = value["id"] if isinstance(value.get("id"), dict) else {}
                gaia = text_of(ident.get("gaia_id") or ident.get("chat_id"))
                people[gaia] = text_of(value.get("fallback_name")).strip() or gaia
            elif kind == "item" and prefix[:-5] in _EVENTS:
                n += 1
                rec = _event(value, _thread(head, people), people, turns, f"event {n}", where)
                if rec is not None:
                    yield rec


def _thread(head: dict[str, str], people: dict[str, str]) -> str:
    if head.get("name", "").strip():
        return head["name"].strip()
    me = head.get("gaia_id", "")
    others = [name for gaia, name in people.items() if gaia != me]
    return ", ".join(others) or "Hangouts"


def _micros(value: Any, what: str, where: str) -> datetime:
    text = text_of(value).strip()
    if not text.isdigit() or len(text) > 17:
        raise ImportFormatError(f"{what} is no time ({text[:40]!r})", where)
    return _EPOCH + timedelta(microseconds=int(text))


def _event(ev: Any, thread: str, people: dict[str, str], turns: Turns, what: str, where: str) -> Record | None:
    if not isinstance(ev, dict):
        turns.report.skipped_malformed += 1
        turns.report.warn(f"{where}: {what}: a {type(ev).__name__}, not an event; skipped")
        return None
    when = _micros(ev.get("timestamp"), f'{what}: "timestamp"', where)
    message: dict[str, Any] | None = ev["chat_message"] if isinstance(ev.get("chat_message"), dict) else None
    if message is None:
        turns.skip(SYSTEM)  # a call, a rename, someone added or gone
        return None
    content: dict[str, Any] = message["message_content"] if isinstance(message.get("message_content"), dict) else {}
    words = []
    for seg in listed(content.get("segment")):
        if isinstance(seg, dict):
            words.append("\n" if seg.get("type") == "LINE_BREAK" else text_of(seg.get("text")))
    meta: dict[str, Any] = {}
    media = []
    for att in listed(content.get("attachment")):
        item: dict[str, Any] = att["embed_item"] if isinstance(att, dict) and isinstance(att.get("embed_item"), dict) else {}
        kinds = [text_of(k) for k in listed(item.get("type"))]
        media.append(kinds[0].lower() if kinds else "attachment")
    if media:
        meta["media"] = media
    sender: dict[str, Any] = ev["sender_id"] if isinstance(ev.get("sender_id"), dict) else {}
    gaia = text_of(sender.get("gaia_id") or sender.get("chat_id"))
    text = "".join(words)
    ident = text_of(ev.get("event_id")).strip()
    return turns.record(Turn(thread=thread, author=people.get(gaia, gaia or "Unknown"), when=when, text=text,
                             metadata=meta, ref=f"{NAME}:hangouts:{ident}" if ident else None))
