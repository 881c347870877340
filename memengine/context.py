"""A conversation turn's neighbours, indexed with it: keyword context columns and a context vector.

A turn alone is often meaningless ("Yes, last week!"): each memory of a thread is also
indexed with its neighbours. Written inside the caller's write transaction whenever turns
are added (store, store_many) or re-embedded (reindex).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memengine import signplane
from memengine.text import bare_text
from memengine.timeparse import from_iso
from memengine.vectors import VEC_PARAM, vec_blob

if TYPE_CHECKING:
    from memengine.storebase import StoreBase

CONTEXT_NEAR = 2  # turns on each side indexed in `context`
CONTEXT_FAR = 4  # turns on each side (beyond NEAR) indexed in `context_far`
CONTEXT_MAX_GAP_HOURS = 6.0  # neighbours further apart in time belong to another session
CONTEXT_CHARS = 1200  # cap per context column
CONTEXT_VEC_DECAY = 0.6  # context vector = own + 0.6·(±1 neighbours) + 0.36·(±2), normalised


def refresh_context(store: StoreBase, touched: dict[str, list[int]]) -> None:
    """Recompute keyword context and context vectors around new turns of conversations.

    A turn alone is often meaningless ("Yes, last week!"): each memory of a thread
    is also indexed with its neighbours (±CONTEXT_NEAR in ``context``, up to
    ±CONTEXT_FAR in ``context_far``), skipping neighbours more than
    CONTEXT_MAX_GAP_HOURS away (another session). A new turn changes the context of
    the turns before it too, so every row within CONTEXT_FAR of a new position is
    refreshed. Runs inside the caller's write transaction.
    """
    import numpy as np

    for thread, positions in touched.items():
        lo, hi = min(positions) - CONTEXT_FAR, max(positions) + CONTEXT_FAR
        rows = store.conn.execute(
            """SELECT id, content, author, position, event_at, context, context_far FROM memories
               WHERE thread = ? AND position BETWEEN ? AND ? AND status != 'deleted' AND level = 0
               ORDER BY position, id""",
            (thread, lo - CONTEXT_FAR, hi + CONTEXT_FAR),
        ).fetchall()
        if not rows:
            continue
        times = [from_iso(r["event_at"]) for r in rows]
        texts = [bare_text(r["content"], r["author"]) for r in rows]
        vecs = store.vectors([r["id"] for r in rows])
        pos_set = set(positions)
        signs: list[tuple[int, bytes]] = []  # context vectors written: their sign plane, in one write
        for i, r in enumerate(rows):
            if r["position"] is None or not (min(positions) - CONTEXT_FAR <= r["position"] <= max(positions) + CONTEXT_FAR):
                continue
            near: list[str] = []
            far: list[str] = []
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
                (near if dist <= CONTEXT_NEAR else far).append(texts[j])
                other = vecs.get(rows[j]["id"])
                if ctx_vec is not None and other is not None and dist <= 2:
                    ctx_vec += (CONTEXT_VEC_DECAY ** dist) * other
            new_near = " ".join(near)[:CONTEXT_CHARS]
            new_far = " ".join(far)[:CONTEXT_CHARS]
            if new_near != r["context"] or new_far != r["context_far"]:
                store.conn.execute("UPDATE memories SET context = ?, context_far = ? WHERE id = ?",
                                   (new_near, new_far, r["id"]))
            if ctx_vec is not None and (near or r["position"] in pos_set):
                norm = float(np.linalg.norm(ctx_vec))
                if norm > 0:
                    blob = vec_blob(ctx_vec / norm)
                    store.conn.execute("DELETE FROM vec_contexts WHERE memory_id = ?", (r["id"],))
                    store.conn.execute(f"INSERT INTO vec_contexts(memory_id, embedding) VALUES (?, {VEC_PARAM})",
                                       (r["id"], blob))
                    signs.append((r["id"], blob))
        signplane.put(store.conn, "vec_contexts", signs)
