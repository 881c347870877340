"""DiscordChatExporter's exports of a channel or a DM: JSON (streamed message by message), CSV, plain text, and its
web page (:mod:`importers.discord_html`).

JSON: the author is the server's nickname (as Discord shows it), the time keeps the export's offset, ``<@id>``
mentions are named from the message's ``mentions``, a reply links to the message it answers (``reference``), an
edit and a bot are noted, reactions kept in metadata; joins, pins, calls, renames (any type but a message or a
reply) are system lines; attachments or stickers without words are media. CSV and text hold no ids: the author
is the user name, the chat comes from the file's name (CSV: "Guild - Category - channel [id]") or its header
(text: "Guild:", "Channel:"); the text's dates are in the exporting computer's locale (day or month first, told
by the file's own dates) and zone (naive). A DM is named by its channel (the other person); a server's channel
"Guild / #channel". Refs: ``discord:<channel id>:<message id>`` (JSON), else made from time, author and words.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from importers import ImportFormatError, ImportReport, Record
from importers._textlines import iter_lines
from importers.chatturns import SYSTEM, Turn, Turns, iso_date, json_errors_where, listed, stream_json, text_of

NAME = "discord"
_USER_TYPES = frozenset({"Default", "Reply", "ThreadStarterMessage", "ChatInputCommand", "ContextMenuCommand", "0", "19"})
_MENTION_RE = re.compile(r"<@!?(\d+)>")
_NAME_ID_RE = re.compile(r"^(.*?) \[(\d+)\]$")
# The system notifications DiscordChatExporter writes as a message's words in CSV and text
_SYSTEM_TEXT_RE = re.compile(r"^(?:Joined the server\.|Pinned a message\.|Started a call(?: that lasted [^\n]*)?\.?|"
                             r"Added [^\n]+ to the group\.|Removed [^\n]+ from the group\.|Left the group\.|"
                             r"Changed the channel (?:name|icon)[^\n]*|Started a thread[^\n]*|"
                             r"Boosted the server[^\n]*)$")
_TXT_HEADER_RE = re.compile(r"^\[(\d{1,4})([./-])(\d{1,2})\2(\d{1,4}),? (\d{1,2}):(\d{2})(?::(\d{2}))?"
                            r"(?: ?([AaPp])\.? ?[Mm]\.?)?\] (.+)$")
_RULE_RE = re.compile(r"^={20,}$")


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of one DiscordChatExporter file (.json, .csv or .txt), or of each in a folder; bad input raises a
    one-line error."""
    from importers import discord_package

    if discord_package.is_package(path):  # Discord's own data package: the owner's messages of every channel
        report.variant["layout"] = "package"
        yield from discord_package.parse(path, report)
        return
    if path.is_dir():
        from importers.apps import app_files

        for p in app_files(path, NAME):
            yield from parse(p, report)
        return
    turns = Turns(NAME, report)
    with path.open("rb") as fh:
        head = fh.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n")
    if head[:1] == b"<":  # the web page, DiscordChatExporter's default format (round layouts34)
        from importers import discord_html

        report.variant["layout"] = "html"
        yield from discord_html.parse(path, turns)
    elif head[:1] in (b"{", b"["):
        report.variant["layout"] = "json"
        yield from _json(path, turns)
    elif head.startswith(b"=") or path.suffix.lower() == ".txt":
        report.variant["layout"] = "text"
        yield from _text(path, turns)
    else:
        report.variant["layout"] = "csv"
        yield from _csv(path, turns)


def _thread(guild: str, channel: str) -> str:
    if not guild or guild == "Direct Messages":
        return channel or guild or "Discord"
    return f"{guild} / #{channel}" if channel else guild


def _from_file_name(path: Path) -> tuple[str, str]:
    """(thread, channel id) from DiscordChatExporter's file name: "Guild - Category - channel [id]"."""
    m = _NAME_ID_RE.match(path.stem)
    stem, cid = (m.group(1), m.group(2)) if m else (path.stem, path.stem)
    parts = stem.split(" - ")
    return (_thread(parts[0], parts[-1]) if len(parts) > 1 else stem), cid


# --- JSON ---------------------------------------------------------------------------------------------------


def _json(path: Path, turns: Turns) -> Iterator[Record]:
    where = str(path)
    head: dict[str, str] = {}
    with json_errors_where(where), path.open("rb") as raw:
        for kind, prefix, value in stream_json(raw, where, lambda p: p == "messages"):
            if kind == "value" and prefix in ("guild.name", "channel.id", "channel.name", "channel.type"):
                head[prefix] = text_of(value)
            elif kind == "notlist":
                raise ImportFormatError('"messages" is not a list', where)
            elif kind == "item":
                thread = _thread(head.get("guild.name", ""), head.get("channel.name", ""))
                if head.get("channel.type", "").startswith(("Direct", "Group")):
                    thread = head.get("channel.name") or thread
                rec = _json_message(value, thread, head.get("channel.id") or thread, where, turns)
                if rec is not None:
                    yield rec
    if "guild.name" not in head and "channel.name" not in head:
        raise ImportFormatError("no DiscordChatExporter channel in this JSON (no \"guild\" and \"channel\")", where)


def _json_message(msg: Any, thread: str, cid: str, where: str, turns: Turns) -> Record | None:
    if not isinstance(msg, dict):
        turns.report.skipped_malformed += 1
        turns.report.warn(f"a message that is {type(msg).__name__}, not an object; skipped")
        return None
    mid = text_of(msg.get("id"))
    if text_of(msg.get("type") or "Default") not in _USER_TYPES:
        turns.skip(SYSTEM)
        return None
    when = iso_date(msg.get("timestamp"), f'message {mid or "?"}: "timestamp"', where)
    author: dict[str, Any] = msg["author"] if isinstance(msg.get("author"), dict) else {}
    name = text_of(author.get("nickname")) or text_of(author.get("name")) or "Unknown"
    names = {text_of(m.get("id")): text_of(m.get("nickname") or m.get("name"))
             for m in listed(msg.get("mentions")) if isinstance(m, dict)}
    text = _MENTION_RE.sub(lambda m: "@" + (names.get(m.group(1)) or m.group(1)), text_of(msg.get("content")))
    meta: dict[str, Any] = {}
    media = [text_of(a.get("fileName") or a.get("url")) for a in listed(msg.get("attachments")) if isinstance(a, dict)]
    media += [text_of(s.get("name") or "sticker") for s in listed(msg.get("stickers")) if isinstance(s, dict)]
    if media:
        meta["media"] = media
    embeds = [e for e in listed(msg.get("embeds")) if isinstance(e, dict)]
    if embeds:
        meta["embeds"] = [text_of(e.get("url") or e.get("title")) for e in embeds]
        if not text.strip():  # a bot's card: its title and description are its words
            text = "\n".join(x for e in embeds for x in (text_of(e.get("title")), text_of(e.get("description"))) if x)
    if msg.get("timestampEdited"):
        meta["edited"] = True
    if author.get("isBot") is True:
        meta["bot"] = True
    reactions = [{"emoji": text_of((r.get("emoji") or {}).get("name")), "count": r.get("count")}
                 for r in listed(msg.get("reactions")) if isinstance(r, dict) and isinstance(r.get("emoji"), dict)]
    if reactions:
        meta["reactions"] = reactions
    links: list[tuple[str, str]] = []
    ref = msg.get("reference")
    if isinstance(ref, dict) and ref.get("messageId") and text_of(ref.get("channelId") or cid) == cid:
        meta["reply_to"] = text_of(ref["messageId"])
        links.append((f"{NAME}:{cid}:{ref['messageId']}", "explicit"))
    return turns.record(Turn(thread=thread, author=name, when=when, text=text, ref=f"{NAME}:{cid}:{mid}" if mid else None,
                             metadata=meta, links=links))


# --- CSV ----------------------------------------------------------------------------------------------------


def _csv(path: Path, turns: Turns) -> Iterator[Record]:
    where = str(path)
    thread, _ = _from_file_name(path)
    with path.open("rb") as raw:
        text = io.TextIOWrapper(raw, encoding="utf-8-sig", newline="")
        reader = csv.reader(text)
        try:
            header = next(reader, None)
            if not header or [h.strip() for h in header[:4]] != ["AuthorID", "Author", "Date", "Content"]:
                raise ImportFormatError("not a DiscordChatExporter CSV (its header is AuthorID,Author,Date,Content,...)",
                                        where, 1)
            columns = {h.strip(): i for i, h in enumerate(header)}
            for row in reader:
                line = reader.line_num
                if not any(cell.strip() for cell in row):
                    continue
                if len(row) < 4:
                    raise ImportFormatError(f"a row of {len(row)} fields, not {len(header)}", where, line)
                rec = _plain_message(row[1], _date(row[2], where, line), row[3],
                                     _cell(row, columns, "Attachments"), thread, turns, line)
                if rec is not None:
                    yield rec
        except csv.Error as exc:
            raise ImportFormatError(f"malformed CSV ({exc})", where, reader.line_num) from None
        except UnicodeDecodeError:
            raise ImportFormatError("not UTF-8 text; re-export as UTF-8", where) from None


def _cell(row: list[str], columns: dict[str, int], name: str) -> list[str]:
    i = columns.get(name)
    value = row[i] if i is not None and i < len(row) else ""
    return [x.strip() for x in value.split(",") if x.strip()]


def _date(value: str, where: str, line: int) -> datetime:
    try:
        return iso_date(value, '"Date"', where)
    except ImportFormatError:
        pass
    for fmt in ("%d-%b-%y %I:%M %p", "%m/%d/%Y %I:%M %p", "%d/%m/%Y %H:%M", "%Y-%m-%d %H:%M"):
        try:
            return datetime.strptime(value.strip(), fmt)
        except ValueError:
            continue
    raise ImportFormatError(f'"Date" is no date ({value[:40]!r})', where, line)


def _plain_message(author: str, when: datetime, words: str, media: list[str], thread: str, turns: Turns,
                   line: int) -> Record | None:
    if _SYSTEM_TEXT_RE.match(words.strip()):
        turns.skip(SYSTEM)
        return None
    meta: dict[str, Any] = {"media": media} if media else {}
    return turns.record(Turn(thread=thread, author=author, when=when, text=words, metadata=meta, line=line))


# --- plain text ---------------------------------------------------------------------------------------------


def _text(path: Path, turns: Turns) -> Iterator[Record]:
    where = str(path)
    day_first = _day_first(path)
    guild = channel = ""
    cur: tuple[str, datetime, int] | None = None
    body: list[str] = []
    with path.open("rb") as raw:
        for ln in iter_lines(raw, where):
            text = ln.text
            m = _TXT_HEADER_RE.match(text)
            if m:
                if cur is not None:
                    yield from _text_message(cur, body, _thread(guild, channel), turns)
                cur, body = (m.group(9).strip(), _txt_when(m, day_first, where, ln.no), ln.no), []
            elif cur is None:
                if text.startswith("Guild: "):
                    guild = text[7:].strip()
                elif text.startswith("Channel: "):
                    channel = text[9:].strip().rsplit(" / ", 1)[-1]
            elif _RULE_RE.match(text):  # the footer ("Exported N message(s)")
                yield from _text_message(cur, body, _thread(guild, channel), turns)
                cur, body = None, []
            else:
                body.append(text)
    if cur is not None:
        yield from _text_message(cur, body, _thread(guild, channel), turns)
    if not guild and not channel:
        raise ImportFormatError("no DiscordChatExporter header (Guild:, Channel:)", where, 1)


def _text_message(cur: tuple[str, datetime, int], body: list[str], thread: str, turns: Turns) -> Iterator[Record]:
    author, when, line = cur
    words: list[str] = []
    media: list[str] = []
    section = ""
    for text in body:
        if re.fullmatch(r"\{(Attachments|Reactions|Embed|Stickers)\}", text.strip()):
            section = text.strip()[1:-1]
            continue
        if section and not text.strip():
            section = ""
            continue
        if section in ("Attachments", "Stickers"):
            media.append(text.strip().rsplit("/", 1)[-1])
        elif not section:
            words.append(text)
    rec = _plain_message(author, when, "\n".join(words), media, thread, turns, line)
    if rec is not None:
        yield rec


def _day_first(path: Path) -> bool:
    """Whether the text's numeric dates put the day first: a first number over 12 says so, a second over 12 says
    the month comes first; else a 12-hour clock (AM/PM: the United States' way) says month first, else day first."""
    twelve = False
    with path.open("rb") as raw:
        for ln in iter_lines(raw, str(path)):
            m = _TXT_HEADER_RE.match(ln.text)
            if not m or len(m.group(1)) == 4:
                continue
            if int(m.group(1)) > 12:
                return True
            if int(m.group(3)) > 12:
                return False
            twelve = twelve or bool(m.group(8))
    return not twelve


def _txt_when(m: re.Match[str], day_first: bool, where: str, line: int) -> datetime:
    a, b, c = int(m.group(1)), int(m.group(3)), int(m.group(4))
    year, month, day = (a, b, c) if len(m.group(1)) == 4 else (c, b, a) if day_first else (c, a, b)
    year += 2000 if year < 100 else 0
    hour = int(m.group(5))
    if m.group(8):
        hour = hour % 12 + (12 if m.group(8).lower() == "p" else 0)
    try:
        return datetime(year, month, day, hour, int(m.group(6)), int(m.group(7) or 0))
    except ValueError:
        raise ImportFormatError(f"{m.group(0)[:40]!r}: no such date", where, line) from None
