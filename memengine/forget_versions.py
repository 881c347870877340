"""What forgetting (and restoring) a fact's newer version does to the versions it had replaced.

SKILL.md's advice for a wrong memory is ``mem.py forget ID``. When that memory is a new value that replaced
an older one ("The wifi password is lion-77" after "… tiger-43", misheard), the older one stayed history:
replaced by a memory nobody can see any more, so ``recall`` answered nothing at all about the fact
(users31). Forgetting it now makes current again each version it had replaced that nothing else visible
replaces; restoring it replaces them again, as before the forget. The ``supersedes`` edges are kept
either way (``get`` still shows the chain, with the forgotten version in it).

Plain SQL on the caller's connection, inside the caller's write transaction.
"""

from __future__ import annotations

import sqlite3

from memengine import supersession


def reinstate(conn: sqlite3.Connection, mid: int, now: str) -> list[int]:
    """``mid`` is being forgotten: the versions it replaced that no other memory still standing replaces
    become current again (``valid_to`` cleared). Returns their ids. A forgotten version that was itself
    history brings nothing back: what replaced it replaces the older ones too."""
    row = conn.execute("SELECT valid_to FROM memories WHERE id = ?", (mid,)).fetchone()
    if row is None or row[0] is not None:
        return []
    ids = [int(r[0]) for r in conn.execute(
        """SELECT m.id FROM associations a JOIN memories m ON m.id = a.target_id
           WHERE a.source_id = ? AND a.edge_type = 'supersedes' AND m.valid_to IS NOT NULL
             AND m.status != 'deleted'
             AND NOT EXISTS (SELECT 1 FROM associations b JOIN memories w ON w.id = b.source_id
                             WHERE b.target_id = m.id AND b.edge_type = 'supersedes' AND b.source_id != ?
                               AND w.status != 'deleted')
           ORDER BY m.id""", (mid, mid))]
    for i in ids:
        conn.execute("UPDATE memories SET valid_to = NULL, updated_at = ? WHERE id = ?", (now, i))
    return ids


def replace_again(conn: sqlite3.Connection, mid: int, now: str) -> list[int]:
    """``mid`` (a fact that replaced others) is restored: the versions it replaced that are current again
    become history again, from the time it took effect. Returns their ids."""
    row = conn.execute("SELECT coalesce(valid_from, created_at), valid_to FROM memories WHERE id = ?",
                       (mid,)).fetchone()
    if row is None or row[1] is not None:  # itself history: what it replaced stays as it is
        return []
    ids = [int(r[0]) for r in conn.execute(
        """SELECT m.id FROM associations a JOIN memories m ON m.id = a.target_id
           WHERE a.source_id = ? AND a.edge_type = 'supersedes' AND m.valid_to IS NULL AND m.status != 'deleted'
           ORDER BY m.id""", (mid,))]
    for i in ids:
        conn.execute("UPDATE memories SET valid_to = ?, updated_at = ? WHERE id = ?", (row[0], now, i))
        supersession.settle_open(conn, i, now)
    return ids
