"""Facebook Messenger's and Instagram's chats from "Download your information" (JSON): a download's folder or zip
(every ``messages/<inbox|archived_threads|...>/<chat>/message_N.json`` below it), one chat's folder, one file;
and Messenger's end-to-end encrypted chats as messenger.com downloads them (``participants``, ``threadName``,
``messages`` with ``senderName``, ``text``, ``timestamp``).

Facebook writes each UTF-8 byte of a text as its own ``\\u00XX`` escape ("Ã©" for "é"): read back as UTF-8. A
chat's files hold its newest messages first (message_1.json the newest): the chat is read oldest first, the
records of a chat in time order. An unsent message, a call, a member added or leaving, a rename, Instagram's
"Reacted ❤️ to your message" (in any language: told by the reaction it repeats, made the same second) are system
lines; photos, videos, stickers, files without words are media;
reactions and a shared link stay in metadata. Times are ``timestamp_ms``, UTC instants.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import Any

from importers import ImportFormatError, ImportReport, Record
from importers._zips import (
    is_zip,
    zip_members,
)
from importers.chatturns import SYSTEM, Turn, Turns, epoch, file_reader, fix_mojibake, listed, member_reader, text_of

NAME = "messenger"
MAX_FILE_BYTES = 256 * 1024 * 1024  # one message_N.json (Facebook writes 10,000 messages a file: a few MB)
_FILE_RE = re.compile(r"message_(\d+)\.(?:json|html)")  # the pages of a download in HTML too
_CHAT_RE = re.compile(r"(?:^|/)messages/[^/]+/[^/]+/message_\d+\.(?:json|html)$")
_MEDIA_KEYS = ("photos", "videos", "audio_files", "gifs", "files", "sticker")
_SYSTEM_TYPES = frozenset({"Call", "Subscribe", "Unsubscribe"})
_SYSTEM_RE = re.compile(
    r"^(?:Reacted .{1,40} to your message|Liked a message|You are now connected on Messenger\.?|"
    r".{1,120} (?:added|removed) .{1,200} (?:to|from) the group\.|.{1,120} left the group\.|"
    r".{1,120} (?:named the group|changed the group photo|set (?:the|your|his|her|their) nickname|"
    r"created the group|unsent a message|changed the theme|set the emoji)[^\n]{0,200}|"
    r".{1,120} (?:called you|missed your call|started a video chat|joined the video chat)\.?|"
    # Instagram's reaction notices in the app's other languages (round 31)
    r"Reagiu .{1,40} (?:à|a) sua mensagem|Reagiu .{1,40} (?:à|a) tua mensagem|Reaccionó .{1,40} a tu mensaje|"
    r"A réagi .{1,40} à votre message|Hat (?:mit )?.{1,40} auf deine Nachricht reagiert|"
    r"Ha reagito (?:con )?.{1,40} al tuo messaggio|Heeft .{1,40} op je bericht gereageerd|"
    r"Mesajına .{1,40} (?:ile )?tepki verdi|Zareagował[ao]? .{1,40} na twoją wiadomość|"
    r"Curtiu uma mensagem|Le gustó un mensaje|A aimé un message|Hat eine Nachricht geliked|Ha messo \"Mi piace\" a un messaggio)$")
# Instagram's and Messenger's words for a share or file sent without words ("ana.silva sent an attachment.", "You
# sent an attachment."), in English and (a guess at their wording) the languages round 31 read reactions in
_ATTACHMENT_RE = re.compile(
    r"^.{1,120} (?:sent an attachment|enviou um anexo|envió un archivo adjunto|a envoyé une pièce jointe|"
    r"hat einen Anhang gesendet|ha inviato un allegato|heeft een bijlage gestuurd|bir ek gönderdi|"
    r"wysłał\w? załącznik)\.?$")
# A reaction told again as a message of its own (Instagram: "Reacted ❤️ to your message", in the app's language): the
# reactor's short message holding the emoji they reacted with, sent the second their reaction was made.
_NOTICE_MAX_CHARS = 80
_VARIATION = str.maketrans("", "", "\ufe0f\ufe0e")

Reader = Callable[[], bytes]


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of a Messenger or Instagram download (folder, zip, chat folder, file); bad input: a one-line error."""
    report.variant["platform"] = "instagram" if "instagram" in str(path).lower() else "facebook"
    turns = Turns(NAME, report)
    for files in _chats(path):
        yield from _chat(files, turns)


def _chats(path: Path) -> list[list[tuple[str, Reader]]]:
    """The export's chats, each its files (display path, reader) in file order (message_1.json first)."""
    file = str(path)
    groups: dict[str, list[tuple[int, str, Reader]]] = {}
    if path.is_dir():
        found = [p for p in path.glob("message_*") if _FILE_RE.fullmatch(p.name)] or \
            [p for p in path.rglob("message_*") if _FILE_RE.fullmatch(p.name) and _CHAT_RE.search(p.as_posix())]
        for p in found:
            groups.setdefault(str(p.parent), []).append((_number(p.name), str(p), file_reader(p, MAX_FILE_BYTES)))
        if not groups:
            raise ImportFormatError("folder holds no messages/inbox/<chat>/message_1.json of a Facebook or "
                                    "Instagram download", file)
    elif is_zip(path):
        infos = zip_members(path, file)
        for info in infos:
            if _CHAT_RE.search(info.filename):
                parent = PurePosixPath(info.filename)
                groups.setdefault(parent.parent.as_posix(), []).append(
                    (_number(parent.name), f"{file}!{info.filename}", member_reader(path, info, MAX_FILE_BYTES)))
        if not groups:
            raise ImportFormatError("zip holds no messages/inbox/<chat>/message_1.json of a Facebook or "
                                    "Instagram download", file)
    else:
        return [[(file, file_reader(path, MAX_FILE_BYTES))]]
    return [[(where, read) for _, where, read in sorted(_one_format(files), key=lambda f: f[0])]
            for _, files in sorted(groups.items())]


def _one_format(files: list[tuple[int, str, Reader]]) -> list[tuple[int, str, Reader]]:
    """A chat's JSON files, or its pages when it has no JSON (a download asked in both formats is read once)."""
    json_files = [f for f in files if f[1].endswith(".json")]
    return json_files or files


def _number(name: str) -> int:
    m = _FILE_RE.fullmatch(name)
    return int(m.group(1)) if m else 0






def _load(where: str, read: Reader) -> dict[str, Any]:
    data = read()
    if not data.strip():
        raise ImportFormatError("empty file", where)
    try:
        value = json.load(io.TextIOWrapper(io.BytesIO(data), encoding="utf-8-sig"))
    except UnicodeDecodeError:
        raise ImportFormatError("JSON is not valid UTF-8", where) from None
    except ValueError as exc:
        raise ImportFormatError(f"invalid or truncated JSON ({getattr(exc, 'msg', exc)})", where,
                                getattr(exc, "lineno", None)) from None
    except RecursionError:
        raise ImportFormatError("JSON nested too deep", where) from None
    if isinstance(value, dict) and "messages" in value and not isinstance(value["messages"], list):
        raise ImportFormatError(f'"messages" is not a list but {type(value["messages"]).__name__}', where)
    if not isinstance(value, dict) or not isinstance(value.get("messages"), list):
        raise ImportFormatError('not a Messenger chat (no "messages" list)', where)
    return value


def _chat(files: list[tuple[str, Reader]], turns: Turns) -> Iterator[Record]:
    """One chat's records, oldest first (its files hold the newest first)."""
    title = ""
    timed: list[tuple[datetime, int, dict[str, Any]]] = []  # (time, order, message)
    order = 0
    for where, read in files:
        if where.lower().endswith(".html"):  # the chat's page: its title and messages in the JSON's words
            from importers.messenger_html import page

            head, rows = page(where, read())
            title = title or head
            timed += [(when, -(order + i), msg) for i, (when, msg) in enumerate(rows)]
            order += len(rows)
            continue
        chat = _load(where, read)
        e2ee = "threadName" in chat or any(isinstance(m, dict) and "senderName" in m for m in chat["messages"][:5])
        title = title or (text_of(chat.get("threadName")) if e2ee else fix_mojibake(text_of(chat.get("title"))))
        if not title:
            people = [p if isinstance(p, str) else text_of(p.get("name")) for p in listed(chat.get("participants"))
                      if isinstance(p, (str, dict))]
            title = ", ".join(fix_mojibake(p) for p in people if p)
        for i, msg in enumerate(chat["messages"], start=1):
            if not isinstance(msg, dict):
                turns.report.skipped_malformed += 1
                turns.report.warn(f"{where}: message {i} is a {type(msg).__name__}, not an object; skipped")
                continue
            key = "timestamp" if e2ee else "timestamp_ms"
            when = epoch(msg.get(key), 1000, f'message {i}: "{key}"', where)
            msg = _normal(msg) if e2ee else msg
            timed.append((when, -order, msg))
            order += 1
    timed.sort(key=lambda t: (t[0], t[1]))  # newest first in the files: the later in file order, the older
    reacted = _reactions_made(msg for _, _, msg in timed)
    for when, _, msg in timed:
        if reacted and _is_reaction_notice(msg, when, reacted):
            turns.skip(SYSTEM)
            continue
        rec = _message(msg, title or "Messenger chat", when, turns)
        if rec is not None:
            yield rec


def _reactions_made(messages: Iterator[dict[str, Any]]) -> dict[tuple[str, int], set[str]]:
    """(actor, second) -> the emoji they reacted with then, of every reaction in a chat that says when it was made."""
    made: dict[tuple[str, int], set[str]] = {}
    for msg in messages:
        fix = (lambda s: s) if msg.get("_utf8") else fix_mojibake
        for r in listed(msg.get("reactions")):
            if isinstance(r, dict) and isinstance(r.get("timestamp"), int) and r.get("reaction"):
                ts = r["timestamp"] // 1000 if r["timestamp"] > 10**11 else r["timestamp"]  # seconds or milliseconds
                made.setdefault((fix(text_of(r.get("actor"))), ts), set()).add(
                    fix(text_of(r["reaction"])).translate(_VARIATION))
    return made


def _is_reaction_notice(msg: dict[str, Any], when: datetime, reacted: dict[tuple[str, int], set[str]]) -> bool:
    """Whether ``msg`` is a reaction told as a message (see _NOTICE_MAX_CHARS), in any language."""
    fix = (lambda s: s) if msg.get("_utf8") else fix_mojibake
    content = fix(text_of(msg.get("content"))).translate(_VARIATION)
    if not content or len(content) > _NOTICE_MAX_CHARS:
        return False
    actor, second = fix(text_of(msg.get("sender_name"))), int(when.timestamp())
    return any(emoji in content for t in (second - 1, second, second + 1) for emoji in reacted.get((actor, t), ()))


def _normal(msg: dict[str, Any]) -> dict[str, Any]:
    """An end-to-end encrypted chat's message (camelCase, plain UTF-8) in the download's words (mojibake-free)."""
    return {"sender_name": msg.get("senderName"), "content": msg.get("text"), "is_unsent": msg.get("isUnsent"),
            "files": listed(msg.get("media")), "reactions": listed(msg.get("reactions")), "_utf8": True}


def _message(msg: dict[str, Any], title: str, when: datetime, turns: Turns) -> Record | None:
    fix = (lambda s: s) if msg.get("_utf8") else fix_mojibake
    content = fix(text_of(msg.get("content")))
    if msg.get("is_unsent") is True or "call_duration" in msg or text_of(msg.get("type")) in _SYSTEM_TYPES \
            or _SYSTEM_RE.match(content.strip()):
        turns.skip(SYSTEM)
        return None
    meta: dict[str, Any] = {}
    share = msg.get("share")
    if _ATTACHMENT_RE.match(content.strip()):
        # the app's words for a share ("ana.silva sent an attachment."), no words of the sender: the shared
        # post's own text when it has one, else the share is media (its link kept all the same)
        words = fix(text_of(share.get("share_text"))).strip() if isinstance(share, dict) else ""
        content = words
        if not words and not any(msg.get(key) for key in _MEDIA_KEYS):
            meta["media"] = ["share"]
    media = [key for key in _MEDIA_KEYS if msg.get(key)]
    if media:
        meta["media"] = media
    if isinstance(share, dict) and share.get("link"):
        meta["link"] = fix(text_of(share["link"]))
    reactions = [{"reaction": fix(text_of(r.get("reaction"))), "actor": fix(text_of(r.get("actor")))}
                 for r in listed(msg.get("reactions")) if isinstance(r, dict)]
    if reactions:
        meta["reactions"] = reactions
    return turns.record(Turn(thread=title, author=fix(text_of(msg.get("sender_name"))) or "Unknown", when=when,
                             text=content, metadata=meta))
