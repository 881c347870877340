"""A forget or a restore travelling from one store to another by ``export`` / ``import jsonl`` (users36).

A store moved twice (laptop → desktop, then the laptop's newer export) brought a memory forgotten on the laptop in
between back to the desktop active: every line already there was passed over (users35 #13). Carrying the status
alone is not enough: importing the same export again after the user restored the memory on the desktop would undo
the restore. So each of the two actions carries its time, in the memory's metadata (``forgotten_at`` written by
``forget``, ``restored_at`` by ``restore``; the metadata travels with the line), and of the two stores' actions on a
memory the later one wins:

* a line forgotten at F forgets this store's copy unless this store restored it at F or later;
* a line restored at R brings this store's forgotten copy back unless this store forgot it at R or later (a copy
  forgotten before these times were written is taken as forgotten when it last changed, ``updated_at``).

A line without a time (an export written before, or a memory forgotten before) changes no copy already here: old
files import as they did. The copy takes the carried time, so importing the same file again changes nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

FORGOTTEN_AT = "forgotten_at"
RESTORED_AT = "restored_at"
_ISO = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")  # the stored form (memengine/timeparse.to_iso)


@dataclass(frozen=True)
class Move:
    """What a line says was last done to its memory: ``forget`` or ``restore``, and when (stored ISO form)."""

    action: str
    at: str


def carried(status: str, metadata: Mapping[str, Any]) -> Move | None:
    """The action a line of an export carries: forgotten with its time, or restored (current) with its time.
    None for a line without one (older exports; a memory never forgotten), or with a time not in the stored form."""
    key, action = (FORGOTTEN_AT, "forget") if status == "deleted" else (RESTORED_AT, "restore")
    if status not in ("deleted", "active"):
        return None
    at = metadata.get(key)
    if not isinstance(at, str) or not _ISO.fullmatch(at):
        return None
    return Move(action, at)


def _metadata(raw: str | None) -> dict[str, Any]:
    try:
        meta = json.loads(raw or "{}")
    except ValueError:
        return {}
    return meta if isinstance(meta, dict) else {}


def _local_time(status: str, meta: Mapping[str, Any], updated_at: str) -> str:
    """When this store last forgot or restored the memory ("" when never)."""
    times = [t for t in (meta.get(FORGOTTEN_AT), meta.get(RESTORED_AT)) if isinstance(t, str)]
    if status == "deleted" and not isinstance(meta.get(FORGOTTEN_AT), str):
        times.append(updated_at)  # forgotten before forgets carried their time: when it last changed
    return max(times, default="")


def settle(conn: Any, moves: Mapping[int, Move], forget: Callable[[int, str], object],
           restore: Callable[[int, str], object]) -> tuple[list[int], list[int]]:
    """Apply each carried ``moves[id]`` that is later than what this store last did to memory ``id``, by
    ``forget(id, at)`` / ``restore(id, at)`` (the store's own, so a forgotten turn takes its episodes with it and a
    fact's older version is current again, as on the store it came from). Returns the ids forgotten and restored."""
    forgotten: list[int] = []
    restored: list[int] = []
    for mid, move in moves.items():
        row = conn.execute("SELECT status, metadata, updated_at FROM memories WHERE id = ?", (mid,)).fetchone()
        if row is None:
            continue
        status = str(row[0])
        if (move.action == "forget") == (status == "deleted"):
            continue  # already so here (an archived copy is not a forget to undo)
        if move.at <= _local_time(status, _metadata(row[1]), str(row[2])):
            continue  # this store's own action is as late or later: it wins
        if move.action == "forget":
            forget(mid, move.at)
            forgotten.append(mid)
        else:
            restore(mid, move.at)
            restored.append(mid)
    return forgotten, restored
