"""DiscordChatExporter's web page of a channel or a DM (its default format, HtmlDark/HtmlLight; round layouts34).

The page starts with a preamble (``preamble__entry``: the guild — "Direct Messages" for a DM — then "Category /
channel" or the channel), then ``chatlog__message-group`` blocks of ``chatlog__message-container`` divs, each with its
``data-message-id``. A group's first message carries the author (``chatlog__author``: the name Discord showed, the
server nickname; its ``title`` the user name) and a ``chatlog__timestamp``; the next ones of the group only a
``chatlog__short-timestamp``; both with a ``title`` holding the full date and time in the exporting computer's locale
and zone (naive: "Wednesday, March 13, 2024 9:00 AM"). The words are the ``chatlog__content`` div's HTML (a reply's
quote, reactions and attachments lie outside it); system notifications (``chatlog__system-notification``) are
system lines; a message of attachments, stickers or embeds without words is media.

The page names the channel's id only in its file name ("Guild - Category - channel [id]"): refs are
``discord:<channel id>:<message id>``, the JSON export's own, so reading both exports of one channel adds nothing
twice. A page cut short (no end of its chat log) keeps its whole messages: the last one, cut, is left out and said.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from importers import ImportFormatError, Record, html_notes
from importers._htmlchat import split_blocks, text_chunks
from importers.chatturns import MEDIA, SYSTEM, Turn, Turns

NAME = "discord"
_PAGE_RE = re.compile(r"class=[\"']chatlog__message-(?:container|group)\b|class=[\"']preamble__entry\b")
_CONTAINER_RE = re.compile(r"<div\b[^>]*\bclass=[\"']chatlog__message-container\b[^>]*>", re.IGNORECASE)
_ID_RE = re.compile(r"data-message-id=[\"'](\d+)")
_GROUP_RE = re.compile(r"class=[\"']chatlog__message-group\b")
_ENTRY_RE = re.compile(r"<div class=[\"']preamble__entry[\"']>(.*?)</div>", re.DOTALL)
_AUTHOR_RE = re.compile(r"<span\b[^>]*class=[\"']chatlog__author\b[^>]*>(.*?)</span>", re.DOTALL)
_STAMP_RE = re.compile(r"class=[\"']chatlog__(?:short-)?timestamp[\"'][^>]*\btitle=[\"']([^\"']+)[\"']"
                       r"|class=[\"']chatlog__(?:short-)?timestamp[\"'][^>]*>(?:\s*<a\b[^>]*>)?([^<]+)<")
_CONTENT_RE = re.compile(r"<div class=[\"']chatlog__content\b[^\"']*[\"'][^>]*>")
_DIV_RE = re.compile(r"<div\b|</div\s*>", re.IGNORECASE)
_EDITED_RE = re.compile(r"<span class=[\"']chatlog__edited-timestamp[\"'][^>]*>.*?</span>", re.DOTALL)
_MEDIA_RE = re.compile(r"class=[\"']chatlog__(?:attachment|sticker|embed)\b")
_SYSTEM_RE = re.compile(r"class=[\"']chatlog__system-notification")
_NAME_ID_RE = re.compile(r" \[(\d+)\]$")
_TAGS_RE = re.compile(r"<[^>]*>")
# The exporting computer's long and short forms (DiscordChatExporter formats "f" and "g" in its locale)
_FORMATS = ("%A, %B %d, %Y %I:%M %p", "%A, %d %B %Y %H:%M", "%A, %B %d, %Y %H:%M", "%A, %d %B, %Y %H:%M",
            "%m/%d/%Y %I:%M %p", "%d/%m/%Y %H:%M", "%d.%m.%Y %H:%M", "%Y-%m-%d %H:%M", "%m/%d/%Y %H:%M",
            "%A, %B %d, %Y %I:%M:%S %p", "%d/%m/%Y %H:%M:%S", "%Y-%m-%d %H:%M:%S", "%d.%m.%Y %H:%M:%S")


def is_page(head: str) -> bool:
    """Whether a page's first bytes are DiscordChatExporter's."""
    return bool(_PAGE_RE.search(head)) and "chatlog" in head


def _when(text: str) -> datetime | None:
    words = " ".join(html.unescape(text).replace("\u202f", " ").split())
    for fmt in _FORMATS:
        try:
            return datetime.strptime(words, fmt)
        except ValueError:
            continue
    return None


def _inner_div(page: str, start: int) -> tuple[str, bool]:
    """The HTML inside the div whose open tag ends at ``start``, and whether it closes before the page ends."""
    depth = 1
    for m in _DIV_RE.finditer(page, start):
        depth += -1 if m.group(0).startswith("</") else 1
        if depth == 0:
            return page[start:m.start()], True
    return page[start:], False


def _words(inner: str) -> str:
    return "\n".join(html_notes.to_lines(_EDITED_RE.sub("", inner), "")).strip()


def parse(path: Path, turns: Turns) -> Iterator[Record]:
    """Records of one DiscordChatExporter page, read a message at a time (:func:`importers._htmlchat.split_blocks`:
    the page is never all in memory); a page with no chat log: a one-line ImportFormatError."""
    where = str(path)
    state: dict[str, Any] = {"author": "", "group": False, "thread": "", "cid": "", "i": 0}
    pending: str | None = None
    tail = ""  # the page's last characters: does it end as a page does?
    with path.open("rb") as fh:
        for is_block, text in split_blocks(text_chunks(fh, where), _CONTAINER_RE):
            tail = (tail + text[-4096:])[-4096:]
            if not is_block:  # the preamble: guild, channel; a group may open before the first message
                entries = [html.unescape(_TAGS_RE.sub("", e)).strip() for e in _ENTRY_RE.findall(text)]
                state["entries"] = bool(entries)
                guild = entries[0] if entries else ""
                channel = entries[1].rsplit(" / ", 1)[-1].strip() if len(entries) > 1 else ""
                state["thread"] = channel or guild or "Discord" if guild in ("", "Direct Messages") else \
                    (f"{guild} / #{channel}" if channel else guild)
                m = _NAME_ID_RE.search(path.stem)
                state["cid"] = m.group(1) if m else state["thread"]
                state["group"] = bool(_GROUP_RE.search(text))
                continue
            if pending is not None:
                yield from _message(pending, False, False, state, turns, where)
            pending = text
    if pending is None and not state.get("entries"):
        raise ImportFormatError("no DiscordChatExporter chat log in this page", where)
    if pending is not None:
        yield from _message(pending, True, "</html>" not in tail.lower(), state, turns, where)


def _message(block: str, last: bool, cut: bool, state: dict[str, Any], turns: Turns, where: str) -> Iterator[Record]:
    """The record of one message's block (from its container's opening tag to the next one's), if any."""
    i = state["i"]
    state["i"] = i + 1
    tag_end = _CONTAINER_RE.match(block)
    end = tag_end.end() if tag_end else 0
    if state["group"]:
        state["author"] = ""  # a new group: its first message names its author
    state["group"] = bool(_GROUP_RE.search(block, end))  # a group opening before the next message
    named = _AUTHOR_RE.search(block)
    if named:
        state["author"] = html.unescape(_TAGS_RE.sub("", named.group(1))).strip()
    mid = _ID_RE.search(block, 0, end)
    content = _CONTENT_RE.search(block)
    inner, closed = _inner_div(block, content.end()) if content else ("", True)
    if cut and last:  # (the last message of a page cut short is cut too)
        turns.report.warn(f"{where}: the page is cut short (it ends inside a message): its whole messages read, "
                          "the last one left out")
        return
    if _SYSTEM_RE.search(block):
        turns.skip(SYSTEM)
        return
    stamp = _STAMP_RE.search(block)
    when = _when(stamp.group(1) or stamp.group(2)) if stamp else None
    if when is None:
        raise ImportFormatError(f"message {mid.group(1) if mid else i + 1}: no time of DiscordChatExporter's "
                                f"forms ({(stamp.group(1) or stamp.group(2))[:40] if stamp else 'none'!r})", where)
    words = _words(inner)
    if not words:
        turns.skip(MEDIA if _MEDIA_RE.search(block) else SYSTEM)
        return
    meta = {"edited": True} if _EDITED_RE.search(inner) else {}
    rec = turns.record(Turn(thread=state["thread"], author=state["author"] or "Unknown", when=when, text=words,
                            metadata=meta, ref=f"{NAME}:{state['cid']}:{mid.group(1)}" if mid else None))
    if rec is not None:
        yield rec
