"""Names for conversations that have none: ChatGPT exports a conversation it never named with a null
title (or "New chat", the name it shows meanwhile), Claude with an empty or null name. Such a
conversation is named by its user's first words, as the apps themselves do in their lists: short (at
most :data:`TITLE_CHARS` characters, cut at a word, "…" marking the cut), on one line."""

from __future__ import annotations

import re

from importers import Record

TITLE_CHARS = 60
# What the apps show or export for a conversation they did not name: no name.
PLACEHOLDER_TITLES = frozenset({"", "new chat", "untitled", "new conversation", "none", "null"})
_ATTACHMENT_LINE_RE = re.compile(r"\n\[attachments?: [^\n]*\](?:\n.*)?$", re.DOTALL)


def is_placeholder(title: object) -> bool:
    """True when ``title`` names nothing (None, empty, or an app's "New chat")."""
    return title is None or str(title).strip().casefold() in PLACEHOLDER_TITLES


def title_from(text: str, limit: int = TITLE_CHARS) -> str:
    """The first words of ``text`` on one line, at most ``limit`` characters, cut at a space past
    half of it ("…" marking the cut)."""
    words = " ".join(text.split())
    if len(words) <= limit:
        return words
    cut = words.rfind(" ", 0, limit)
    if cut < limit // 2:
        cut = limit - 1
    return words[:cut].rstrip(" ,;:-–—") + "…"


def name_untitled(records: list[Record], user: str = "User") -> None:
    """Give the records of one conversation whose ``metadata["title"]`` is a placeholder the title
    made of its user's first words (their first message with words; attachment lines left out);
    ``metadata["title_from"] = "first message"`` says so. Records are changed in place."""
    if not records or not is_placeholder(records[0].metadata.get("title")):
        return
    for rec in records:
        # the user, or one of the people of a group chat (named, marked by the parser as a user)
        who = rec.author if rec.metadata.get("role") == "user" and rec.author else user
        if rec.author == who and rec.content.startswith(f"{who}: "):
            words = _ATTACHMENT_LINE_RE.sub("", rec.content[len(who) + 2:]).strip()
            if words and not words.startswith("[attachment"):
                title = title_from(words)
                for each in records:
                    each.metadata["title"] = title
                    each.metadata["title_from"] = "first message"
                return
