"""xAI's Grok export (grok.com > Settings > Data > Download): a zip whose ``ttl/30d/export_data/<id>/`` folder holds
prod-grok-backend.json, read alone, in its folder or zipped. It is ``{"conversations": [{"conversation": {"id",
"title", "create_time"}, "responses": [{"response": {"_id", "message", "sender", "create_time", …}}]}], …}``; a
response's ``sender`` is "human" (the account owner: "User", ``from_me``) or "assistant"/"ASSISTANT" ("Grok"); its
``create_time`` is MongoDB's ``{"$date": {"$numberLong": "<ms>"}}`` (or an ISO string): UTC. A conversation's
responses in time order; one with no words (a stopped answer) is empty. Streamed: one conversation at a time."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from importers import ImportFormatError, ImportReport, Record
from importers._aichat import any_time, json_sources
from importers.chatturns import SYSTEM, Turn, Turns, json_errors_where, stream_json, text_of

NAME = "grok"
FILE = "prod-grok-backend.json"
_ASSISTANT = ("assistant", "grok", "model")


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of prod-grok-backend.json, its folder or the export's zip; bad input: a one-line ImportFormatError."""
    turns = Turns(NAME, report)
    for raw, where in json_sources(path, lambda name: name == FILE, f"no {FILE} of a Grok export"):
        yield from _records(raw, where, turns)


def _records(raw: IO[bytes], where: str, turns: Turns) -> Iterator[Record]:
    n = 0
    found = False
    with json_errors_where(where):
        for kind, prefix, value in stream_json(raw, where, lambda p: p == "conversations"):
            if kind == "notlist":
                raise ImportFormatError('"conversations" is not a list', where)
            if kind == "item":
                n += 1
                found = True
                yield from _conversation(value, n, where, turns)
            elif prefix == "conversations":
                found = True
    if not found:
        raise ImportFormatError('no "conversations" of a Grok export', where)


def _conversation(item: Any, n: int, where: str, turns: Turns) -> Iterator[Record]:
    if not isinstance(item, dict):
        raise ImportFormatError(f"conversation {n}: not an object", where)
    found = item.get("conversation")
    conv: dict[str, Any] = found if isinstance(found, dict) else {}
    title = text_of(conv.get("title")).strip()
    cid = text_of(conv.get("id")).strip() or str(n)
    what = f"conversation {n} ({title[:40]!r})"
    responses = item.get("responses")
    if not isinstance(responses, list):
        raise ImportFormatError(f'{what}: "responses" is not a list', where)
    timed = []
    for i, entry in enumerate(responses, start=1):
        resp = entry.get("response") if isinstance(entry, dict) and isinstance(entry.get("response"), dict) else entry
        if not isinstance(resp, dict):
            raise ImportFormatError(f"{what}, response {i}: not an object", where)
        timed.append((any_time(resp.get("create_time"), f'{what}, response {i}: "create_time"', where), i, resp))
    thread = title or f"Grok {cid[:8]}"
    for when, _i, resp in sorted(timed, key=lambda t: (t[0], t[1])):
        sender = text_of(resp.get("sender")).strip().lower()
        if sender != "human" and sender not in _ASSISTANT:
            turns.skip(SYSTEM)  # a system or tool line: no words of the chat
            continue
        metadata: dict[str, Any] = {"conversation_id": cid}
        if sender == "human":
            metadata["from_me"] = True
        elif text_of(resp.get("model")):
            metadata["model"] = text_of(resp.get("model"))
        rid = text_of(resp.get("_id")).strip()
        rec = turns.record(Turn(thread=thread, author="User" if sender == "human" else "Grok", when=when,
                                text=text_of(resp.get("message")), metadata=metadata,
                                ref=f"{NAME}:{cid}:{rid}" if rid else None))
        if rec is not None:
            yield rec
