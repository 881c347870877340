"""A list question's second hop reaching past the fused top 30 (issue 19, round 50; off by default).

A question asking for several things ("what martial arts has John done?", "vilka har passat sigge?") has its answers
in other conversations, weeks apart, often below rank 30 of the fusion (LoCoMo dev: 20 % of multi-hop evidence turns
at ranks 31–100). Its first hits name the things the others are said with ("kickboxing" in a gym's list of classes
and again, months earlier, "I'm doing kickboxing"). ``list_hop`` runs ``expand.hop_bonus`` — the seeds' words rare in
the store and absent from the question, searched by bm25, a bonus to candidates in a session no seed is from — on a
list question alone, over the best ``pool`` fused candidates rather than expand's 30, the first COVER_FROM results
fixed. Rounds 4 and 22 measured the same hop on every question within the top 30 (nothing kept); this reads only
list questions and reaches deeper.
"""

from __future__ import annotations

from memengine.recall.config import COVER_FROM
from memengine.recall.expand import Search, Shares, hop_bonus
from memengine.recall.spread import asks_list
from memengine.records import Candidate


def parse(spec: str) -> tuple[float, int, int, int]:
    """``"w:seeds:pool[:count]"`` (e.g. "0.5:3:60:4") -> (weight, seeds, pool, count): a seed word is rare when in
    at most ``hop_rare_share`` of the store's memories or in at most ``count`` of them (0: the share alone)."""
    parts = spec.split(":")
    return (float(parts[0]), int(parts[1]), int(parts[2]) if len(parts) > 2 else 30,
            int(parts[3]) if len(parts) > 3 else 0)


def pool_of(spec: str, query: str) -> int:
    """How many fused candidates the step reads for ``query`` (0 when it does not run)."""
    return parse(spec)[2] if spec and asks_list(query) else 0


def list_hop(ranked: list[Candidate], query: str, spec: str, search: Search, shares_of: Shares,
             rare_share: float) -> list[Candidate]:
    """``ranked`` (best first) with ranks COVER_FROM+1..pool re-sorted by score + the second hop's bonus when the
    query asks for a list; unchanged otherwise."""
    weight, seeds, pool, count = parse(spec)
    if weight <= 0 or not asks_list(query) or len(ranked) <= COVER_FROM:
        return ranked
    head, tail = ranked[:pool], ranked[pool:]
    return hop_bonus(search, shares_of, query, head, seeds, weight, rare_share, keep=COVER_FROM,
                     limit=max(3 * pool, 90), rare_count=count) + tail
