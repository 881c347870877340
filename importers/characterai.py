"""Character.AI chats, as the browser tools that save them write them, and as its own account export holds them:

* a chat of its chat API ("neo"): ``{"chat": {"chat_id", "character_name", …}, "turns": [{"turn_key": {"turn_id"},
  "create_time", "state", "author": {"name", "is_human"}, "candidates": [{"candidate_id", "raw_content"}],
  "primary_candidate_id"}]}`` (turns newest first, as the API pages them: read in time order). Of an answer
  regenerated, the candidate shown (``primary_candidate_id``; else the last) is read; a turn the user deleted
  (``state`` STATE_DELETED) is a service line. Times ISO 8601 (UTC).
* the older history API's, as the CAI Tools extension saves it: ``{"histories": [{"external_id", "msgs": [{"text",
  "src__name", "src__is_human", "image_rel_path"}]}]}``: no time per message, so the records are undated.
* the account's own export (Settings, "Export data"): ``{"user", "characters", "personas", "chats": [{"chat_id",
  "character_name", "messages": [{"id", "author", "is_human", "text", "create_time"}]}]}`` — written from memory
  of what the export holds, not from one at hand (tests/fixtures/unseen28/README.md): a chat's messages may also
  be the chat API's ``turns``, a message's words ``raw_content`` or ``content``, its author an object. An account
  export with no chats (its characters and personas only) is refused saying so.

A file may hold one chat, a list of them, or the histories. The person's turns keep the person's name and are the
owner's (``from_me``); the character's keep its name, which names the chat. A turn with no words but an image is
media. A file that holds no message at all is refused (an empty import would look like a success). Loaded whole: a
chat file is one chat (capped as every JSON file is)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from importers import ImportFormatError, ImportReport, Record
from importers._aichat import any_time
from importers._tree import MAX_JSON_FILE_BYTES, Tree, load_json
from importers.chatturns import MEDIA, SYSTEM, Turn, Turns, file_reader, json_errors_where, stream_json, text_of

NAME = "characterai"
_NEO_RE = re.compile(r'"(?:turn_key|primary_candidate_id)"\s*:')
_OLD_RE = re.compile(r'"src__(?:is_human|name)"\s*:')
_TURNS_RE = re.compile(r'"turns"\s*:')
_HISTORIES_RE = re.compile(r'^\s*\{\s*"histories"\s*:')
_CHATS_RE = re.compile(r'"chats"\s*:')
_ACCOUNT_RES = (re.compile(r'"characters"\s*:'), re.compile(r'"personas"\s*:'))
_CHAT_KEYS_RE = re.compile(r'"(?:character_name|is_human)"\s*:')


def is_head(head: str) -> bool:
    """Whether a JSON file's first bytes are a Character.AI chat: turns with the chat API's keys, a ``chat`` whose
    ``character_id`` goes with ``turns``, the older histories' ``msgs`` with their ``src__`` keys, or the account's
    own export."""
    head = head.lstrip("\ufeff")
    if not head.lstrip().startswith(("{", "[")):
        return False
    if _TURNS_RE.search(head) and (_NEO_RE.search(head) or re.search(r'"character_id"\s*:', head)):
        return True
    if is_account_head(head):
        return True
    return bool(_OLD_RE.search(head) and (_HISTORIES_RE.match(head) or re.search(r'"msgs"\s*:', head)))


def is_account_head(head: str) -> bool:
    """Whether a JSON file's first bytes are the account's own export (its characters and personas, or chats)."""
    head = head.lstrip("\ufeff").lstrip()
    return head.startswith("{") and not _HISTORIES_RE.match(head) and (
        all(r.search(head) for r in _ACCOUNT_RES) or bool(_CHATS_RE.search(head) and _CHAT_KEYS_RE.search(head)))


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of a chat file, or of every chat file in a folder or zip; bad input: a one-line ImportFormatError.
    The account's export is streamed a chat at a time (one file may hold every chat of years); a chat file is
    loaded whole."""
    turns = Turns(NAME, report)
    if path.is_file() and path.suffix.lower() == ".json":
        with path.open("rb") as fh:
            head = fh.read(16384).decode("utf-8", "replace")
        if is_account_head(head):
            with path.open("rb") as raw:
                yield from _account_stream(raw, str(path), turns)
        else:
            yield from _file(load_json(file_reader(path, MAX_JSON_FILE_BYTES)(), str(path)), str(path), turns)
    else:
        tree = Tree(path)
        names: list[tuple[str, bool]] = []
        for name in (n for n in tree.names if n.lower().endswith(".json")):
            with tree.open(name) as fh:
                head = fh.read(16384).decode("utf-8", "replace")
            if is_head(head):
                names.append((name, is_account_head(head)))
        if not names:
            raise ImportFormatError("no chat file (.json) of Character.AI", str(path))
        for name, account in names:
            if account:
                with tree.open(name) as raw:
                    yield from _account_stream(raw, tree.where(name), turns)
            else:
                yield from _file(tree.json(name), tree.where(name), turns)
    if not report.messages_seen:
        raise ImportFormatError("no message of a Character.AI chat (no turns, no msgs)", str(path))


def _file(data: Any, where: str, turns: Turns) -> Iterator[Record]:
    if isinstance(data, dict) and not {"turns", "histories"} & data.keys() and (
            "chats" in data or {"characters", "personas"} <= data.keys()):
        yield from _account(data, where, turns)
        return
    chats = data if isinstance(data, list) else [data]
    for n, chat in enumerate(chats, start=1):
        what = f"chat {n}" if isinstance(data, list) else "the chat"
        if not isinstance(chat, dict):
            raise ImportFormatError(f"{what}: not an object", where)
        if "histories" in chat:
            yield from _histories(chat["histories"], where, turns)
        elif "turns" in chat:
            yield from _neo(chat, what, where, turns)
        else:
            raise ImportFormatError(f'{what}: no "turns" nor "histories" of a Character.AI chat', where)


def _neo(chat: dict[str, Any], what: str, where: str, turns: Turns) -> Iterator[Record]:
    items = chat.get("turns")
    if not isinstance(items, list):
        raise ImportFormatError(f'{what}: "turns" is not a list', where)
    found = chat.get("chat")
    meta: dict[str, Any] = found if isinstance(found, dict) else {}
    timed = []
    for i, turn in enumerate(items, start=1):
        if not isinstance(turn, dict):
            raise ImportFormatError(f"{what}, turn {i}: not an object", where)
        timed.append((any_time(turn.get("create_time"), f'{what}, turn {i}: "create_time"', where), i, turn))
    timed.sort(key=lambda t: (t[0], -t[1]))  # newest first in the file: of equal times the later in it came first
    authors: list[dict[str, Any]] = [t["author"] if isinstance(t.get("author"), dict) else {} for _w, _i, t in timed]
    character = text_of(meta.get("character_name")).strip() or next(
        (text_of(a.get("name")).strip() for a in authors if not a.get("is_human") and text_of(a.get("name")).strip()), "")
    cid = text_of(meta.get("chat_id")).strip()
    thread = character or f"Character.AI {cid[:8]}".strip()
    for (when, _i, turn), author in zip(timed, authors, strict=True):
        if "DELETED" in text_of(turn.get("state")).upper():
            turns.skip(SYSTEM)  # a turn the user deleted: not in the chat as it stands
            continue
        human = bool(author.get("is_human"))
        name = text_of(author.get("name")).strip() or ("User" if human else character or "Character")
        metadata: dict[str, Any] = {"chat_id": cid} if cid else {}
        if human:
            metadata["from_me"] = True
        key = turn.get("turn_key")
        tid = text_of(key.get("turn_id")).strip() if isinstance(key, dict) else ""
        rec = turns.record(Turn(thread=thread, author=name, when=when, text=_shown(turn), metadata=metadata,
                                ref=f"{NAME}:{cid}:{tid}" if cid and tid else None))
        if rec is not None:
            yield rec


def _shown(turn: dict[str, Any]) -> str:
    """The words of the candidate shown: the primary one, else the last."""
    cands = [c for c in turn.get("candidates") or [] if isinstance(c, dict)] if isinstance(
        turn.get("candidates"), list) else []
    primary = text_of(turn.get("primary_candidate_id"))
    chosen = next((c for c in cands if primary and text_of(c.get("candidate_id")) == primary), cands[-1] if cands else {})
    return text_of(chosen.get("raw_content") or chosen.get("text"))


def _histories(histories: Any, where: str, turns: Turns) -> Iterator[Record]:
    if not isinstance(histories, list):
        raise ImportFormatError('"histories" is not a list', where)
    named: dict[str, int] = {}
    for h, history in enumerate(histories, start=1):
        if not isinstance(history, dict) or not isinstance(history.get("msgs"), list):
            raise ImportFormatError(f'history {h}: no "msgs" list', where)
        msgs = history["msgs"]
        character = next((text_of(m.get("src__name")).strip() for m in msgs
                          if isinstance(m, dict) and not m.get("src__is_human") and text_of(m.get("src__name")).strip()),
                         "") or "Character.AI"
        named[character] = named.get(character, 0) + 1
        thread = character if named[character] == 1 else f"{character} ({named[character]})"
        hid = text_of(history.get("external_id")).strip()
        for i, msg in enumerate(msgs, start=1):
            if not isinstance(msg, dict):
                raise ImportFormatError(f"history {h}, message {i}: not an object", where)
            human = bool(msg.get("src__is_human"))
            name = text_of(msg.get("src__name")).strip() or ("User" if human else character)
            text = text_of(msg.get("text"))
            if not text.strip() and text_of(msg.get("image_rel_path")).strip():
                turns.skip(MEDIA)  # an image the character sent, no words
                continue
            metadata: dict[str, Any] = {"history_id": hid} if hid else {}
            if human:
                metadata["from_me"] = True
            uid = text_of(msg.get("uuid") or msg.get("id")).strip()
            rec = turns.record(Turn(thread=thread, author=name, when=None, text=text, metadata=metadata,
                                    ref=f"{NAME}:{hid}:{uid}" if hid and uid else None))
            if rec is not None:
                yield rec


def _account(data: dict[str, Any], where: str, turns: Turns) -> Iterator[Record]:
    """The chats of the account's own export, loaded whole."""
    if "chats" not in data:
        raise _no_chats(data.keys(), where)
    chats = data["chats"]
    if not isinstance(chats, list):
        raise ImportFormatError('"chats" is not a list', where)
    for n, chat in enumerate(chats, start=1):
        yield from _account_item(chat, f"chat {n}", where, turns)


def _account_stream(raw: IO[bytes], where: str, turns: Turns) -> Iterator[Record]:
    """The chats of the account's own export, read a chat at a time."""
    keys: set[str] = set()
    n = 0
    with json_errors_where(where):
        for kind, prefix, value in stream_json(raw, where, lambda p: p == "chats"):
            keys.add(prefix.split(".", 1)[0])
            if kind == "notlist" and prefix == "chats":
                raise ImportFormatError('"chats" is not a list', where)
            if kind == "item":  # (the only list asked for: "chats.item")
                n += 1
                keys.add("chats")
                yield from _account_item(value, f"chat {n}", where, turns)
    if "chats" not in keys:
        raise _no_chats(keys, where)


def _no_chats(keys: Iterable[str], where: str) -> ImportFormatError:
    held = ", ".join(k for k in ("user", "characters", "personas", "voices") if k in set(keys)) or "account"
    return ImportFormatError(f"a Character.AI account export with no chats (only its {held}): nothing to import",
                             where)


def _account_item(chat: Any, what: str, where: str, turns: Turns) -> Iterator[Record]:
    if not isinstance(chat, dict):
        raise ImportFormatError(f"{what}: not an object", where)
    if "turns" in chat and "messages" not in chat:
        yield from _neo(chat, what, where, turns)
        return
    msgs = chat.get("messages")
    if not isinstance(msgs, list):
        raise ImportFormatError(f'{what}: "messages" is not a list', where)
    yield from _account_chat(chat, msgs, what, where, turns)


def _account_chat(chat: dict[str, Any], msgs: list[Any], what: str, where: str, turns: Turns) -> Iterator[Record]:
    read: list[tuple[datetime | None, int, dict[str, Any], str, bool]] = []
    for i, msg in enumerate(msgs, start=1):
        if not isinstance(msg, dict):
            raise ImportFormatError(f"{what}, message {i}: not an object", where)
        author = msg.get("author")
        human = bool(msg.get("is_human") or (isinstance(author, dict) and author.get("is_human")))
        name = text_of(author.get("name") if isinstance(author, dict) else author).strip()
        stamp = next((msg[k] for k in ("create_time", "created_at", "timestamp") if msg.get(k) is not None), None)
        try:
            when = any_time(stamp, f"{what}, message {i}", where) if stamp is not None else None
        except ImportFormatError:
            raise ImportFormatError(f'{what}, message {i}: "{str(stamp)[:40]}" is no date', where) from None
        read.append((when, i, msg, name, human))
    if all(r[0] is not None for r in read):
        read.sort(key=lambda r: (r[0], r[1]))  # (a newest-first list read in time order)
    character = text_of(chat.get("character_name")).strip() or next(
        (name for _w, _i, _m, name, human in read if not human and name), "") or "Character.AI"
    cid = text_of(chat.get("chat_id") or chat.get("external_id")).strip()
    for when, _i, msg, name, human in read:
        metadata: dict[str, Any] = {"chat_id": cid} if cid else {}
        if human:
            metadata["from_me"] = True
        text = _shown(msg) if isinstance(msg.get("candidates"), list) else text_of(
            msg.get("text") or msg.get("raw_content") or msg.get("content"))
        mid = text_of(msg.get("id") or msg.get("turn_id") or msg.get("uuid")).strip()
        rec = turns.record(Turn(thread=character, author=name or ("User" if human else character), when=when,
                                text=text, metadata=metadata, ref=f"{NAME}:{cid}:{mid}" if cid and mid else None))
        if rec is not None:
            yield rec
