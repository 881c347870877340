"""A conversation turn's neighbours, indexed with it: keyword context columns and a context vector.

A turn alone is often meaningless ("Yes, last week!"): each memory of a thread is also
indexed with its neighbours.

* Keyword side: ``memories_fts`` indexes ``context`` (turns within CONTEXT_NEAR positions)
  and ``context_far`` (up to CONTEXT_FAR), which the view ``memories_text`` derives from the
  neighbouring rows (migration m010_derived_context): the text is not stored twice, and the
  triggers on ``memories`` keep the index exact whatever changes a thread. ``store_many``
  brackets a whole batch at once instead (``bracket_batch``): the triggers would re-index
  each earlier turn once per new neighbour.
* Vector side: ``refresh_context`` writes the context vectors, inside the caller's write
  transaction, whenever turns are added (store, store_many) or re-embedded (reindex).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from memengine import signplane
from memengine.timeparse import from_iso
from memengine.vectors import VEC_PARAM, vec_blob

if TYPE_CHECKING:
    from memengine.storebase import StoreBase

CONTEXT_NEAR = 2  # turns on each side indexed in `context`
CONTEXT_FAR = 4  # turns on each side (beyond NEAR) indexed in `context_far`
CONTEXT_MAX_GAP_HOURS = 6.0  # neighbours further apart in time belong to another session
CONTEXT_CHARS = 1200  # cap per context column (the constants above and this one are in m010's view)
CONTEXT_VEC_DECAY = 0.6  # context vector = own + 0.6·(±1 neighbours) + 0.36·(±2), normalised


def refresh_context(store: StoreBase, touched: dict[str, list[int]]) -> None:
    """Recompute the context vectors around new turns of conversations.

    A turn's context vector is its own plus its neighbours' within 2 positions (decayed
    by CONTEXT_VEC_DECAY), skipping neighbours more than CONTEXT_MAX_GAP_HOURS away
    (another session), as the keyword context of ``memories_text`` does. A new turn
    changes the context of the turns before it too, so every row within CONTEXT_FAR of a
    new position is refreshed. Runs inside the caller's write transaction.
    """
    import numpy as np

    for thread, positions in touched.items():
        lo, hi = min(positions) - CONTEXT_FAR, max(positions) + CONTEXT_FAR
        rows = store.conn.execute(
            """SELECT id, position, event_at FROM memories
               WHERE thread = ? AND position BETWEEN ? AND ? AND status != 'deleted' AND level = 0
               ORDER BY position, id""",
            (thread, lo - CONTEXT_FAR, hi + CONTEXT_FAR),
        ).fetchall()
        if not rows:
            continue
        times = [from_iso(r["event_at"]) for r in rows]
        vecs = store.vectors([r["id"] for r in rows])
        pos_set = set(positions)
        signs: list[tuple[int, bytes]] = []  # context vectors written: their sign plane, in one write
        for i, r in enumerate(rows):
            if r["position"] is None or not (min(positions) - CONTEXT_FAR <= r["position"] <= max(positions) + CONTEXT_FAR):
                continue
            near = False
            ctx_vec = vecs.get(r["id"])
            ctx_vec = None if ctx_vec is None else ctx_vec.astype(np.float32).copy()
            for j in range(max(0, i - CONTEXT_FAR), min(len(rows), i + CONTEXT_FAR + 1)):
                if j == i:
                    continue
                dist = abs(rows[j]["position"] - r["position"])
                if dist == 0 or dist > CONTEXT_FAR:
                    continue
                ti, tj = times[i], times[j]
                if ti and tj and abs((ti - tj).total_seconds()) > CONTEXT_MAX_GAP_HOURS * 3600:
                    continue
                near = near or dist <= CONTEXT_NEAR
                other = vecs.get(rows[j]["id"])
                if ctx_vec is not None and other is not None and dist <= 2:
                    ctx_vec += (CONTEXT_VEC_DECAY ** dist) * other
            if ctx_vec is not None and (near or r["position"] in pos_set):
                norm = float(np.linalg.norm(ctx_vec))
                if norm > 0:
                    blob = vec_blob(ctx_vec / norm)
                    store.conn.execute("DELETE FROM vec_contexts WHERE memory_id = ?", (r["id"],))
                    store.conn.execute(f"INSERT INTO vec_contexts(memory_id, embedding) VALUES (?, {VEC_PARAM})",
                                       (r["id"], blob))
                    signs.append((r["id"], blob))
        signplane.put(store.conn, "vec_contexts", signs)


FTS_COLS = "content, tags, date_terms, context, context_far"


def _fts_rows(conn: Any, ids: list[int], delete: bool) -> None:
    """Insert (or 'delete') ``ids`` in ``memories_fts`` with the values ``memories_text`` gives now."""
    head = (f"INSERT INTO memories_fts(memories_fts, rowid, {FTS_COLS}) SELECT 'delete', " if delete
            else f"INSERT INTO memories_fts(rowid, {FTS_COLS}) SELECT ")
    for i in range(0, len(ids), 500):
        chunk = ids[i : i + 500]
        conn.execute(f"{head}id, {FTS_COLS} FROM memories_text WHERE id IN ({','.join('?' * len(chunk))})", chunk)


@contextmanager
def bracket_batch(conn: Any, touched: dict[str, list[int]]) -> Iterator[list[int]]:
    """Index a batch of inserts in ``memories_fts`` once, not once per new neighbour.

    Yields a list the caller fills with the ids it inserts. Before: the existing level-0
    rows within CONTEXT_FAR positions of ``touched`` (thread -> new positions) are
    deleted from the index with their current (old) derived text, and ``_fts_deferred``
    tells the insert triggers to leave the index alone. After: those rows and every new
    id are indexed with their new text, and the neighbours are logged for in-process
    keyword indexes. Must run inside the caller's write transaction (an error rolls the
    whole batch back, flag included).
    """
    around: list[int] = []
    for thread, positions in touched.items():
        around += [int(r[0]) for r in conn.execute(
            "SELECT id FROM memories WHERE thread = ? AND position BETWEEN ? AND ? AND level = 0",
            (thread, min(positions) - CONTEXT_FAR, max(positions) + CONTEXT_FAR))]
    _fts_rows(conn, around, delete=True)
    conn.execute("INSERT INTO _fts_deferred(flag) VALUES (1)")
    new_ids: list[int] = []
    yield new_ids
    conn.execute("DELETE FROM _fts_deferred")
    _fts_rows(conn, around + new_ids, delete=False)
    conn.executemany("INSERT INTO _keyword_changes(memory_id) VALUES (?)", [(i,) for i in around])
