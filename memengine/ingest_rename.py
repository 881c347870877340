"""A chat export saved under another name, imported again: which chat already in the store it is.

A WhatsApp export names its chat only in the file name (``WhatsApp Chat with Ana.txt``), and every message's
ref carries that name. Next month's export of the same chat, saved as ``ana-2025-01.txt`` after
``ana-2024-12.txt``, would be a chat of its own: every old message a second time (users27 finding 6). Before a
row is written, the first messages of a chat the store does not hold are looked up by what they are (time of
the message and text, both indexed) in the chats it does hold; when they all stand in one chat, that is the
chat this file continues.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from importers import Record
from memengine.store import MemoryStore
from memengine.text import content_hash
from memengine.timeparse import to_iso

SAMPLE = 40  # first messages of a chat compared; all of them found in one chat (at least MIN_FOUND) names it
MIN_FOUND = 5


def known_chat(store: MemoryStore, sample: Iterable[Record], contents: Iterable[str]) -> tuple[str, int] | None:
    """(the chat already in ``store`` that every message of ``sample`` is in, how many), or None.

    ``contents`` are the sample's texts as they would be stored (aliases applied). None when the sample's own
    chat is in the store already (its refs dedupe as they are), when a message is in no other chat, or in two."""
    records = list(sample)
    if not records or records[0].thread is None:
        return None
    own = records[0].thread
    if store.conn.execute("SELECT 1 FROM memories WHERE thread = ? LIMIT 1", (own,)).fetchone():
        return None
    found: Counter[str] = Counter()
    for rec, text in zip(records, contents):
        when = to_iso(rec.event_at)
        if when is None:
            return None
        rows = {r[0] for r in store.conn.execute(
            "SELECT thread FROM memories WHERE event_at = ? AND substr(content_hash, 1, 16) = ? AND source = ? "
            "AND thread IS NOT NULL AND thread != ?", (when, content_hash(text)[:16], rec.source, own))}
        if len(rows) != 1:
            return None  # a message new to the store (or in two chats): not a plain re-export
        found.update(rows)
    if len(found) != 1 or len(records) < MIN_FOUND:
        return None
    (chat, n), = found.items()
    return chat, n
