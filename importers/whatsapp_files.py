"""The files of a WhatsApp export (read by :mod:`importers.whatsapp`): a ``.txt`` chat, an unzipped iOS
folder (``WhatsApp Chat - Ana/_chat.txt``), a zip of one chat with its media, a zip of several exports (each chat
its own thread, named by its file, folder or nested zip); the chat's name as the file names it in the phone's
language ("WhatsApp Chat with Ana.txt", "Ayşe ile WhatsApp Sohbeti.txt"); its lines, streamed."""

from __future__ import annotations

import re
import zipfile
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import IO

from importers import ImportFormatError
from importers._common import Line, is_zip, iter_lines, open_members

SPACE_CHARS = "\u00a0\u202f\u2007\u2009"  # spaces a phone writes in names and times

_THREAD_RE = re.compile(
    r"^.*?whats\s?app[\s_-]*(?:chat|-chat|conversa|discussion|sohbeti)?\s*"
    r"(?:-|–|with|mit|con|avec|met|com|di|med|z|ile|s uživatelem|с контактом|с|do|dengan|với|bersama|na|"
    r"kanssa|ve|cu|με|עם|مع|با)?\s+(?P<name>.+)$",
    re.IGNORECASE,
)
_THREAD_PREFIX_RE = re.compile(
    r"^(?:chat|discussion|conversa|conversación|чат)\s+(?:de\s+|do\s+)?whats\s?app\s+"
    r"(?:with|mit|con|avec|met|com|di|med|s uživatelem|с контактом|с)\s+(?P<name>.+)$",
    re.IGNORECASE,
)


# "WhatsApp-chatt med Erik" (Swedish), "Czat WhatsApp z Kasią", "Đoạn chat WhatsApp với Minh": the app's name, at
# most two words for "chat" around it, a word for "with", the name. The "with" word is required here: without it the
# first word of a name ("WhatsApp Ana Silva") would be taken for "chat".
_WITH_WORDS = (r"with|mit|con|avec|met|com|di|med|z|ze|ile|s|sa|с|со|do|dengan|với|bersama|na|ve|cu|με|עם|مع|با|"
               r"s uživatelem|с контактом|so|ar|su|kun|me|až|kwa|za")
_CHAT_WORDS = (r"chat\w*|czat\w*|чат\w*|keskustelu\w*|beszélgetés\w*|sohbet\w*|gesprek\w*|συνομιλία|konverzac\w*|"
               r"razgovor\w*|разговор\w*|переписка|conversa\w*|conversation|discussion|samtal\w*|samtale\w*")
_ANY_CHAT_WORD_RE = re.compile(
    rf"^(?:[^\W\d_][\w'’]*\s+){{0,2}}whats\s?app(?:[\s_-]+(?:{_CHAT_WORDS}))?\s+(?:{_WITH_WORDS})\s+(?P<name>.+)$",
    re.IGNORECASE,
)
# "Ayşe ile WhatsApp Sohbeti" (Turkish: "chat with Ayşe on WhatsApp"): the person comes first.
_NAME_FIRST_RE = re.compile(r"^(?P<name>.+?)\s+(?:ile)\s+whats\s?app(?:[\s_-]+\S+)?$", re.IGNORECASE)


def thread_name(name: str) -> str:
    """Chat name from an export file name ("WhatsApp Chat with Ana.txt" -> "Ana")."""
    stem = re.sub(r"\.(txt|zip)$", "", name, flags=re.IGNORECASE)
    stem = re.sub(f"[{SPACE_CHARS}]", " ", stem).strip()
    # "WhatsApp Chat with Ana (1).txt": a browser's second download of the same chat. The
    # chat name is part of every message's ref, so the copy must name the same chat.
    stem = re.sub(r"\s?\(\d{1,3}\)$", "", stem).strip() or stem
    for rx in (_NAME_FIRST_RE, _THREAD_PREFIX_RE, _ANY_CHAT_WORD_RE, _THREAD_RE):
        m = rx.match(stem)
        if m and m.group("name").strip():
            return m.group("name").strip()
    return stem


def _base(info: zipfile.ZipInfo) -> str:
    return info.filename.rsplit("/", 1)[-1]


def _choose(file: str) -> Callable[[list[zipfile.ZipInfo]], list[zipfile.ZipInfo]]:
    """The chats of a zip's members: every ``_chat.txt`` (iOS) and every ``.txt`` named for
    WhatsApp (Android), or its only ``.txt``; none (look in nested zips) when it has no ``.txt``."""

    def choose(members: list[zipfile.ZipInfo]) -> list[zipfile.ZipInfo]:
        txt = [m for m in members if m.filename.lower().endswith(".txt")]
        chats = [m for m in txt if _base(m) == "_chat.txt" or "whatsapp" in _base(m).lower()]
        if chats:
            return chats
        if len(txt) == 1:
            return txt
        if len(txt) > 1:
            names = ", ".join(m.filename for m in txt[:5])
            raise ImportFormatError(f"zip holds several .txt files and no _chat.txt ({names})", file)
        return []

    return choose


def _thread_of(where: str, path: Path, several: bool) -> str:
    """The chat a zip member holds. One chat: named by its file when that names WhatsApp, else by
    the zip (as ever: the name is part of every message's ref). Several (a zip of exports): each
    by its own file, folder ("WhatsApp Chat - Ana/_chat.txt") or nested zip."""
    segments = where.split("!")
    member = segments[-1]
    base = member.rsplit("/", 1)[-1]
    if base != "_chat.txt" and "whatsapp" in base.lower():
        return thread_name(base)
    if not several:
        return thread_name(path.name)
    if "/" in member:
        return thread_name(member.rsplit("/", 1)[0].rsplit("/", 1)[-1])
    return thread_name(segments[-2].rsplit("/", 1)[-1] if len(segments) > 2 else base)


def sources(path: Path, max_bytes: int, stack: ExitStack) -> list[tuple[str, Callable[[], IO[bytes]], str]]:
    """(display file, a function opening the chat text as bytes, thread) of each chat of a .txt
    or .zip export (a zip of several exports holds several)."""
    file = str(path)
    if is_zip(path):
        members = open_members(path, file, _choose(file), stack, max_bytes)
        return [(where, opener, _thread_of(where, path, len(members) > 1)) for where, opener in members]
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise ImportFormatError(f"cannot read file ({exc.strerror})", file) from None
    if size > max_bytes:
        raise ImportFormatError(f"file too large ({size} bytes > limit {max_bytes})", file)

    def opener() -> IO[bytes]:
        try:
            return path.open("rb")
        except OSError as exc:
            raise ImportFormatError(f"cannot read file ({exc.strerror})", file) from None

    # an unzipped iOS export is "WhatsApp Chat - Ana/_chat.txt": the chat is named by its folder
    named = path.parent.name if path.name.lower() == "_chat.txt" and path.parent.name else path.name
    return [(file, opener, thread_name(named))]


def lines(opener: Callable[[], IO[bytes]], where: str, damage: list[tuple[int, str]] | None = None) -> Iterator[Line]:
    """The chat's lines (:func:`importers._textlines.iter_lines`; what a damaged copy lost noted in ``damage``)."""
    with opener() as raw:
        yield from iter_lines(raw, where, damage=damage)


def first_lines(opener: Callable[[], IO[bytes]], where: str, most: int, most_chars: int) -> list[str]:
    out: list[str] = []
    chars = 0
    for ln in lines(opener, where):
        if ln.text.strip():
            out.append(ln.text[:4096])
        chars += len(ln.text)
        if len(out) >= most or chars >= most_chars:
            break
    return out
