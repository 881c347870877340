"""Episode vectors derived from their messages' stored vectors (no model call).

An episode (memengine/chat_episodes.py) is a stretch of a chat stored as a memory of its own.
Its text is its messages joined, but the model reads only the first 256 tokens of it (the
first few messages), and embedding that window was ~40 % of a WhatsApp import's model time
(bench/README.md, issue 22). Its vector is instead the normalised mean of its messages'
vectors: computed from what is stored, at import and at ``reindex`` alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memengine.db import select_in

if TYPE_CHECKING:
    from memengine.storebase import StoreBase


def mean_vector(member_vecs: Any) -> Any:
    """An episode's vector: the normalised mean of its messages' vectors (rows of ``member_vecs``)."""
    import numpy as np

    v = np.asarray(member_vecs, dtype=np.float32).mean(axis=0)
    return v / max(float(np.linalg.norm(v)), 1e-12)


def episode_vectors(store: StoreBase, episode_ids: list[int]) -> dict[int, Any]:
    """Derived vectors of these episodes from their members' stored vectors (``part_of`` edges);
    an episode some of whose members lack a vector is left out (the caller embeds its text)."""
    members: dict[int, list[int]] = {}
    for src, dst in select_in(store.conn, "SELECT source_id, target_id FROM associations "
                              "WHERE edge_type = 'part_of' AND target_id IN ({ids})", episode_ids):
        members.setdefault(int(dst), []).append(int(src))
    vecs = store.vectors(sorted({m for ms in members.values() for m in ms}))
    return {eid: mean_vector([vecs[m] for m in ms]) for eid, ms in members.items() if all(m in vecs for m in ms)}
