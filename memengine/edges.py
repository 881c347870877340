"""The association graph's one writer: every edge row goes in through :func:`add_edges`."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

_INSERT = ("INSERT{verb} INTO associations(source_id, target_id, edge_type, weight, created_at, last_used_at, "
           "metadata) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")
_ON_CONFLICT = {
    # keep the edge there is (INSERT OR IGNORE: a row a CHECK refuses is skipped too)
    "ignore": _INSERT.format(verb=" OR IGNORE"),
    # the new weight replaces the old one
    "weight": _INSERT.format(verb="") + " ON CONFLICT(source_id, target_id, edge_type) DO UPDATE SET weight = "
                                       "excluded.weight",
    # the new weight adds to the old one, up to a cap (Hebbian co-retrieval), and the edge was used now
    "add": _INSERT.format(verb="") + " ON CONFLICT(source_id, target_id, edge_type) DO UPDATE SET weight = "
                                    "min(?8, weight + excluded.weight), last_used_at = excluded.last_used_at",
}


def add_edges(conn: Any, edges: Iterable[tuple[int, int, str, float]], created_at: str, *,
              on_conflict: str = "ignore", used: bool = False, cap: float = 1.0,
              metadata: dict[str, Any] | None = None) -> int:
    """Write edges ``(source id, target id, edge type, weight)`` inside the caller's transaction.

    ``on_conflict``: "ignore", "weight" or "add" (see ``_ON_CONFLICT``); ``used`` sets
    ``last_used_at`` to ``created_at``; ``cap`` bounds "add"; ``metadata`` is every new row's metadata
    (an existing edge keeps its own). Returns the rows written.
    """
    sql = _ON_CONFLICT[on_conflict]
    last = created_at if used else None
    meta = json.dumps(metadata) if metadata else "{}"
    rows = [(a, b, kind, w, created_at, last, meta, *((cap,) if on_conflict == "add" else ()))
            for a, b, kind, w in edges]
    if not rows:
        return 0
    # the statements' own rows: total_changes would also count what triggers write (m008's counters)
    return max(0, int(conn.executemany(sql, rows).rowcount))
