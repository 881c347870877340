"""``mem.py list``: the memories themselves, newest first, filtered as recall filters, a page at a time.

An agent new to mem types ``list`` first (users25 #13, users26 #9): recall needs a query and export writes the whole
store. The filters are recall's own (:meth:`memengine.storebase.StoreBase.filter_sql`: type, source, tag, date), so
a listing and a recall agree on what "current" means; the status is this module's: current memories by default,
superseded ones with ``history``, archived ones with ``archived``, only the forgotten (restorable) with ``forgotten``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from memengine.records import MEMORY_COLUMNS, Memory

# filter_sql's first clause when asked for archived memories too: replaced by this module's status clause
_STATUS_CLAUSE = "m.status IN ('active', 'archived')"


def list_memories(store: Any, *, types: Sequence[str] = (), sources: Sequence[str] = (), tags: Sequence[str] = (),
                  since: datetime | None = None, until: datetime | None = None, history: bool = False,
                  archived: bool = False, forgotten: bool = False, limit: int = 20, offset: int = 0,
                  oldest: bool = False, authors: Sequence[str] = ()) -> dict[str, Any]:
    """One page of memories (``count`` of them, ``total`` matching), most recently stored first (``oldest``: first
    stored first); each as ``get`` shows it, without its version chain."""
    where, args = store.filter_sql(types, sources, tags, since, until, include_archived=True, history=True,
                                   authors=authors)
    if not where.startswith(_STATUS_CLAUSE):  # (filter_sql builds its status clause first)
        raise AssertionError(f"filter_sql's status clause moved: {where[:60]!r}")
    where = where[len(_STATUS_CLAUSE):]
    if forgotten:
        status = "m.status = 'deleted'"
    else:
        status = "m.status IN ('active', 'archived')" if archived else "m.status = 'active'"
        if not history:
            status += " AND m.valid_to IS NULL"
    where = status + where
    total = int(store.conn.execute(f"SELECT count(*) FROM memories m WHERE {where}", args).fetchone()[0])
    cols = ", ".join(f"m.{c.strip()}" for c in MEMORY_COLUMNS.split(","))
    rows = store.conn.execute(f"SELECT {cols} FROM memories m WHERE {where} ORDER BY m.id {'ASC' if oldest else 'DESC'}"
                              " LIMIT ? OFFSET ?", [*args, limit, offset]).fetchall()
    memories = [Memory.from_row(r).to_dict() for r in rows]
    return {"count": len(memories), "total": total, "offset": offset, "limit": limit, "memories": memories}


__all__ = ["list_memories"]
