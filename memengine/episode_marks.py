"""Which live threads consolidate's episodes phase can skip: those whose open messages are, one for
one, a set it already found to make no episode (memengine/chat_episodes.close_all).

A thread's open messages (active, not yet in an episode) are segmented on every run. Once that
segmentation yields only single-message stretches, it yields nothing, at any later time (time only
decides whether a last stretch of two or more is closed), until the set of open messages changes:
a new message, a status change, an episode deleted (its members reopen), or another model's
vectors (segmentation reads them). So the phase records, per such thread, the exact ids of its
open messages and the model; a later run whose open ids and model are the same skips the thread.
The marks live in ``_mem_meta`` (``consolidate.episode_marks``): losing them only costs a re-segmentation.
"""

from __future__ import annotations

import json
from typing import Any

from memengine.db import write_tx

MARKS_KEY = "consolidate.episode_marks"


def _key(source: str, thread: str) -> str:
    return json.dumps([source, thread], ensure_ascii=False)


def load(conn: Any) -> dict[str, dict[str, Any]]:
    """The stored marks (empty when there are none or they cannot be read)."""
    row = conn.execute("SELECT value FROM _mem_meta WHERE key = ?", (MARKS_KEY,)).fetchone()
    try:
        marks = json.loads(row[0]) if row is not None and row[0] else {}
    except ValueError:
        return {}
    return marks if isinstance(marks, dict) else {}


def settled(marks: dict[str, dict[str, Any]], source: str, thread: str, open_ids: list[int], model: str) -> bool:
    """Whether this thread's open messages are exactly a set already found to make no episode."""
    mark = marks.get(_key(source, thread))
    return isinstance(mark, dict) and mark.get("model") == model and mark.get("ids") == open_ids


def save(conn: Any, before: dict[str, dict[str, Any]], marks: dict[tuple[str, str], tuple[str, list[int]]]) -> None:
    """Store ``marks`` ((source, thread) -> (model, sorted open ids)) in place of ``before``, if they differ."""
    value = {_key(s, t): {"model": m, "ids": ids} for (s, t), (m, ids) in sorted(marks.items())}
    if value == before:
        return
    with write_tx(conn):
        conn.execute("INSERT OR REPLACE INTO _mem_meta(key, value) VALUES (?, ?)",
                     (MARKS_KEY, json.dumps(value, ensure_ascii=False, separators=(",", ":"))))
