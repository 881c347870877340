"""Which memories an unfiltered recall may return, kept in process memory.

A recall at scale filters a few hundred candidate ids by status (active, raw, not
superseded, not received from a partner): one ``id IN (...)`` query per retriever,
~0.8 ms each at 100k rows. A warm process keeps the answer instead, one byte per
memory id, and catches up from ``_status_changes``: a log fed by triggers on every
change of the columns the default filter reads (and on hard deletes), trimmed to
``STATUS_LOG_KEEP`` rows (migration ``m004_status_log``, built by
``memengine.migrations.change_log``). New memories are found by id (ids only grow). A reader
that fell behind the trimmed log, or finds the log behind its own position (the file
was replaced), reloads.

Never used inside an open transaction: a change that may yet roll back must not
enter the set (and its log position would be reused by the next writer).
"""

from __future__ import annotations

from typing import Any

from memengine.db import select_in
from memengine.migrations import STATUS_LOG_KEEP  # noqa: F401  (its log's length; tests read it here)

MAX_ID = 50_000_000  # one byte per id: above this the SQL filter serves

# The filter this set answers: it must stay the same expression as
# StoreBase.filter_sql's with no options (a test holds them together).
LIVE_SQL = "status = 'active' AND level = 0 AND source NOT LIKE 'shared:%' AND valid_to IS NULL"
# The rows added since ``max_id`` that pass it, read by their id range (NOT INDEXED: left to itself, the planner
# walks the status index over every active memory for the few new ones, ~3-50 ms at 100k, in the first recall
# after each store; the id range reads just them, ~0.01 ms)
NEW_SQL = f"SELECT id FROM memories NOT INDEXED WHERE id > ? AND {LIVE_SQL}"


class LiveSet:
    """A bytemap over memory ids: 1 where the row passes ``LIVE_SQL``."""

    def __init__(self) -> None:
        import numpy as np

        self.live = np.zeros(0, dtype=np.bool_)
        self.max_id = 0  # ids up to here are reflected
        self.seq = 0  # log entries up to here are applied
        self.loads = 0

    def _reload(self, conn: Any, max_id: int) -> None:
        import numpy as np

        # the log position first: a change committed between the two reads is applied twice, never lost
        self.seq = int(conn.execute("SELECT coalesce(max(seq), 0) FROM _status_changes").fetchone()[0])
        ids = np.fromiter((r[0] for r in conn.execute(f"SELECT id FROM memories WHERE {LIVE_SQL}")), dtype=np.int64)
        self.live = np.zeros(max_id + 1, dtype=np.bool_)
        self.live[ids[ids <= max_id]] = True
        self.max_id = max_id
        self.loads += 1

    def _refresh(self, conn: Any, ids: list[int]) -> None:
        ok = {int(r[0]) for r in select_in(conn, f"SELECT id FROM memories WHERE id IN ({{ids}}) AND {LIVE_SQL}", ids)}
        for i in ids:
            if i <= self.max_id:
                self.live[i] = i in ok

    def sync(self, conn: Any, max_id: int) -> bool:
        """Catch up with the file (``max_id``: its highest memory id); False if too large to map."""
        import numpy as np

        if max_id > MAX_ID:
            return False
        if self.loads == 0:
            self._reload(conn, max_id)
            return True
        # two subqueries: SQLite answers a lone min() or max() from the index end, not both at once
        head = conn.execute("SELECT (SELECT coalesce(max(seq), 0) FROM _status_changes), "
                            "(SELECT coalesce(min(seq), 0) FROM _status_changes)").fetchone()
        last, first = int(head[0]), int(head[1])
        if last < self.seq or (last > self.seq and first > self.seq + 1):
            self._reload(conn, max_id)  # the log was trimmed past us (or the file replaced)
            return True
        if max_id > self.max_id:
            new = [int(r[0]) for r in conn.execute(NEW_SQL, (self.max_id,))]
            grown = np.zeros(max_id + 1, dtype=np.bool_)
            grown[: len(self.live)] = self.live
            grown[[i for i in new if i <= max_id]] = True
            self.live, self.max_id = grown, max_id
        if last > self.seq:
            changed = [int(r[0]) for r in conn.execute(
                "SELECT DISTINCT memory_id FROM _status_changes WHERE seq > ? AND seq <= ?", (self.seq, last))]
            self._refresh(conn, changed)
            self.seq = last
        return True

    def filter(self, ids: list[int]) -> set[int]:
        """The ids that pass (ids beyond the map are new since the last sync: not passed)."""
        n = len(self.live)
        live = self.live
        return {i for i in ids if 0 <= i < n and live[i]}
