"""What forgetting (and restoring) a chat turn does to the episodes holding it.

An episode (memengine/chat_episodes.py) is a memory of its own whose text is its turns' text. Forgetting a turn
left that text readable through the episode: a person who forgot someone's turns still got their words back from
a keyword recall, ``recall --context``, ``list`` and ``export`` (users34). An episode holding a turn being forgotten
is now forgotten with it — a soft delete like the turn's, the turn's id kept in the episode's metadata
(``forgotten_with``) — and comes back when a turn is restored and none of its turns is forgotten any more. An
episode forgotten on its own (no ``forgotten_with``) is never brought back by restoring a turn; one holding a turn an
older mem forgot is forgotten by the night's consolidate (:func:`sweep`).

The episode's other turns stay as they are; they are found on their own, no longer through the episode.

Plain SQL on the caller's connection, inside the caller's write transaction.
"""

from __future__ import annotations

import json
import sqlite3

_EPISODES_OF = """SELECT m.id, m.status, m.metadata FROM associations a JOIN memories m ON m.id = a.target_id
                  WHERE a.source_id = ? AND a.edge_type = 'part_of' AND json_extract(m.metadata, '$.kind') = 'episode'
                  ORDER BY m.id"""


def _meta(raw: str | None) -> dict[str, object]:
    try:
        meta = json.loads(raw or "{}")
    except ValueError:
        return {}
    return meta if isinstance(meta, dict) else {}


def hide(conn: sqlite3.Connection, mid: int, now: str) -> list[int]:
    """``mid`` is being forgotten: the episodes holding it that are still readable are forgotten with it.
    Returns their ids (an episode already hidden by another of its turns notes ``mid`` too, and is not counted)."""
    out: list[int] = []
    for eid, status, raw in conn.execute(_EPISODES_OF, (mid,)).fetchall():
        meta = _meta(raw)
        with_ = meta.get("forgotten_with")
        if status == "deleted":
            if isinstance(with_, list) and mid not in with_:  # hidden by a turn: this one keeps it hidden too
                meta["forgotten_with"] = [*with_, mid]
                conn.execute("UPDATE memories SET metadata = ? WHERE id = ?", (json.dumps(meta, ensure_ascii=False), eid))
            continue
        meta["forgotten_with"] = [mid]
        conn.execute("UPDATE memories SET status = 'deleted', metadata = ?, updated_at = ? WHERE id = ?",
                     (json.dumps(meta, ensure_ascii=False), now, eid))
        out.append(int(eid))
    return out


def bring_back(conn: sqlite3.Connection, mid: int, now: str) -> list[int]:
    """``mid`` is restored: each episode its forgotten turns hid is current again once none of them is forgotten.
    Returns their ids."""
    out: list[int] = []
    for eid, status, raw in conn.execute(_EPISODES_OF, (mid,)).fetchall():
        meta = _meta(raw)
        with_ = meta.get("forgotten_with")
        if status != "deleted" or not isinstance(with_, list):
            continue  # readable, or forgotten by the user on its own: theirs to restore
        left = [i for i in with_ if i != mid]
        # a turn of the episode still forgotten keeps its words hidden, whichever turn hid the episode first
        still = conn.execute(
            """SELECT 1 FROM associations a JOIN memories t ON t.id = a.source_id
               WHERE a.target_id = ? AND a.edge_type = 'part_of' AND t.status = 'deleted' LIMIT 1""",
            (eid,)).fetchone()
        if still is not None:
            meta["forgotten_with"] = left or with_
            conn.execute("UPDATE memories SET metadata = ? WHERE id = ?", (json.dumps(meta, ensure_ascii=False), eid))
            continue
        del meta["forgotten_with"]
        conn.execute("UPDATE memories SET status = 'active', metadata = ?, updated_at = ? WHERE id = ?",
                     (json.dumps(meta, ensure_ascii=False), now, eid))
        out.append(int(eid))
    return out


def sweep(conn: sqlite3.Connection, now: str) -> list[int]:
    """Episodes still readable though a turn of theirs is forgotten (forgotten before users34, or a turn an episode
    was linked to again after it was forgotten) are forgotten with those turns, as :func:`hide` does at forget time.
    Returns their ids. Run by consolidate's ``episodes`` phase; reads only the forgotten turns' edges."""
    rows = conn.execute(
        """SELECT t.id FROM memories t
           WHERE t.status = 'deleted' AND EXISTS (
               SELECT 1 FROM associations a JOIN memories e ON e.id = a.target_id
               WHERE a.source_id = t.id AND a.edge_type = 'part_of' AND e.status != 'deleted'
                 AND json_extract(e.metadata, '$.kind') = 'episode')
           ORDER BY t.id""").fetchall()
    out: list[int] = []
    for (mid,) in rows:
        out += hide(conn, int(mid), now)
    return out
