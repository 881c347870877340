"""A version's neighbours along the ``supersedes`` chain as they stand now: forgotten versions looked through.

users32 left a forgotten version out of ``superseded_by`` (a forgotten version replaces nothing); but when the
MIDDLE version of a chain is forgotten (tiger-43 -> lion-77 -> bear-12, the user says lion-77 was never right), the
oldest then named nothing at all, or still the forgotten id where a recall asked about the past, and ``--history``
listed it unmarked above the current value (users33 #1). Here each forgotten version's place goes to the
versions on its own far side, recursively: tiger-43 is ``superseded_by`` bear-12, bear-12 ``supersedes`` tiger-43.
Read only: no link is written or removed (``get``'s versions still show the whole chain, the forgotten one marked).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from memengine.db import select_in

# a side of a version's links -> the SQL of the ids one step away on it (``supersedes`` edges: source = new)
SIDES = {"supersedes": "SELECT target_id FROM associations WHERE source_id = ? AND edge_type = 'supersedes'",
         "superseded_by": "SELECT source_id FROM associations WHERE target_id = ? AND edge_type = 'supersedes'"}


def forgotten_among(conn: Any, ids: Iterable[int]) -> set[int]:
    """The ids of ``ids`` whose memory is forgotten (soft-deleted)."""
    want = sorted(set(ids))
    if not want:
        return set()
    return {int(r[0]) for r in select_in(conn, "SELECT id FROM memories WHERE status = 'deleted' AND id IN ({ids})",
                                         want)}


def living(conn: Any, ids: Iterable[int], side: str, gone: set[int] | None = None) -> list[int]:
    """``ids`` (one side of a version's links: ``side`` "supersedes" or "superseded_by") with every forgotten
    version replaced by its own links on that side, recursively (sorted, once each); a forgotten version with
    none there is left out. ``gone``: the forgotten ids among ``ids`` when the caller read them already."""
    assert side in SIDES
    todo = list(dict.fromkeys(ids))
    out: set[int] = set()
    seen: set[int] = set()
    while todo:
        dead = gone if gone is not None and not seen else forgotten_among(conn, todo)
        beyond: list[int] = []
        for i in todo:
            if i in seen:
                continue
            seen.add(i)
            if i in dead:
                beyond += sorted(int(r[0]) for r in conn.execute(SIDES[side], (i,)))
            else:
                out.add(i)
        todo = [i for i in dict.fromkeys(beyond) if i not in seen]
    return sorted(out)
