"""Recall marks a result that an open contradiction pairs with another current memory: ``contradicts: [ids]``.

Two sources disagreeing stay both current (memengine.supersession: an open ``contradictions`` row) and the store
call says ``contradicts`` — but a later session only reads recall, which said nothing: three sources giving 4pm,
6pm and "now 7pm" came back in that order, unmarked (users29). The mark tells the agent to ask, as SKILL.md says.
A pair one of whose memories is history (replaced, forgotten) marks nothing.
"""

from __future__ import annotations

from typing import Any

from memengine.db import select_in
from memengine.records import Memory


def contradictions_marked(conn: Any, results: list[Memory]) -> list[Memory]:
    """``results`` with ``contradicts`` set on each one an open contradiction pairs with a current memory."""
    ids = [m.id for m in results]
    if not ids:
        return results
    pairs: dict[int, set[int]] = {}
    for col, other in (("memory_a", "memory_b"), ("memory_b", "memory_a")):
        for mine, theirs in select_in(conn, f"SELECT {col}, {other} FROM contradictions WHERE status = 'open' "
                                            f"AND {col} IN ({{ids}})", ids):
            pairs.setdefault(int(mine), set()).add(int(theirs))
    if not pairs:
        return results
    others = sorted({i for group in pairs.values() for i in group})
    current = {int(r[0]) for r in select_in(conn, "SELECT id FROM memories WHERE id IN ({ids}) AND valid_to IS NULL "
                                                  "AND status != 'deleted'", others)}
    for m in results:
        live = sorted(pairs.get(m.id, set()) & current)
        if live and m.valid_to is None and m.status != "deleted":
            m.contradicts = live
    return results
