"""Episodes as retrieval units, messages as results.

An import groups a chat's messages into episodes (memengine/ingest.py): one memory per
stretch of conversation, holding its messages' text, linked to each by a ``part_of`` edge.
An episode matches a question through the burst of short messages around an answer ("at
7?", "ok", "the usual place") that no single message matches; but as a result it is 25
messages of text where the person wanted one. ``resolve_episodes`` keeps the episode as the
unit that found the answer and returns its best-scored member message in the episode's
place (a member already shown is not repeated: the slot goes to the next candidate). An
episode none of whose members is a candidate stays as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memengine.records import Candidate


def is_episode(c: Candidate) -> bool:
    """Whether a candidate is an import's episode memory (read from its metadata)."""
    raw = c._meta_raw
    return bool(raw) and '"episode"' in raw and c.metadata.get("kind") == "episode"


def members_of(conn: Any, episode_ids: Sequence[int]) -> dict[int, list[int]]:
    """episode id -> ids of its member messages (``part_of`` edges)."""
    if not episode_ids:
        return {}
    marks = ",".join("?" * len(episode_ids))
    out: dict[int, list[int]] = {e: [] for e in episode_ids}
    for src, dst in conn.execute(
            f"SELECT source_id, target_id FROM associations WHERE edge_type = 'part_of' AND target_id IN ({marks})",
            list(episode_ids)):
        out[dst].append(src)
    return out


def resolve_episodes(ranked: Sequence[Candidate], k: int, members: dict[int, list[int]]) -> list[Candidate]:
    """The top ``k`` of ``ranked`` (best first; episode members among them scored) with each
    episode (a key of ``members``: episode id -> member ids) replaced by its best-scored
    member not shown yet."""
    by_id = {c.id: c for c in ranked}
    out: list[Candidate] = []
    taken: set[int] = set()
    for c in ranked:
        if len(out) >= k:
            break
        if c.id in taken:
            continue
        if c.id in members:
            best = max((by_id[m] for m in members[c.id] if m in by_id and m not in taken),
                       key=lambda m: (m.score or 0.0, -m.id), default=None)
            if best is None:
                if not any(m in by_id for m in members[c.id]):
                    out.append(c)  # no member is a candidate: the episode is the best we have
                    taken.add(c.id)
                continue
            best.score = c.score  # it holds the episode's rank
            c = best
        out.append(c)
        taken.add(c.id)
    return out
