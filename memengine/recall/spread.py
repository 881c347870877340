"""List questions answered across weeks: the results spread over bursts (issue 19, round 48).

A question asking for several things ("which rounds do we do badly on?", "hvilke uger er booket?") has answers said
in different conversations, weeks apart; fusion ranks the turns of the best one's burst (its replies, the same thing
said twice) next to it. ``spread_bursts`` refills the ranks from ``start`` greedily with each candidate's score
multiplied by ``factor`` per result already shown from its burst — the turns of one thread within ``gap`` minutes of a
shown one (``gap`` 0: the same thread and day, ``priors.cover_sessions``' unit). ``asks_list`` reads the question:
English by ``priors.asks_for_many``, the other languages by a plural question word.

Off by default (``RecallConfig.list_spread`` ""): over eight sets pooled, leaving a set out, it lifts LoCoMo's list
questions and costs the real-chat dev set as much (bench/README.md, "Round 48").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Any

import numpy as np

from memengine.recall.priors import asks_for_many
from memengine.records import Candidate

# question words that are plural by themselves, in the languages recall reads: Danish/Norwegian "hvilke", Swedish
# "vilka", Dutch "welke" + a plural noun, German "welche" + a plural noun, French "quels/quelles", Italian "quali",
# Portuguese "quais", Spanish "cuáles" and "qué" + a plural noun; and "what/which … all" in English
_PLURAL_WH = re.compile(r"\b(?:hvilke|vilka|quels|quelles|quali|quais|cuáles|cuales)\b", re.I)
_WH_NOUN = re.compile(r"\b(?:welke|welche|qué|que)\s+(\w+)", re.I)
_PLURAL_END = ("en", "es", "s", "i", "e", "er")
_NOT_NOUN = frozenset("is was has does this his us as es en le la el il die der das de het een een ein eine un una "
                      "uno des les los las gli time tijd zeit er ist sind".split())


def asks_list(question: str) -> bool:
    """Whether a question asks for several things (a list whose answers may lie in several conversations)."""
    if asks_for_many(question) or _PLURAL_WH.search(question):
        return True
    m = _WH_NOUN.search(question)
    if m is None or m.group(1).lower() in _NOT_NOUN:
        return False
    word = m.group(1).lower()
    # (an English plural noun is asks_for_many's; the other languages' plural endings only after their own word)
    return word.endswith(_PLURAL_END) and len(word) > 3


def _at(c: Candidate) -> datetime | None:
    try:
        return datetime.fromisoformat(c.event_at) if c.event_at else None
    except ValueError:
        return None


def parse(spec: str) -> tuple[float, int, str, int]:
    """``"factor:start:unit[:pool]"`` (e.g. "0.8:3:60:30") -> (factor, start, unit, pool); the unit is a gap in
    minutes ("0": the same day) or "c" + a cosine ("c0.8": a result saying the same thing, by its vector)."""
    parts = spec.split(":")
    factor, start, unit = float(parts[0]), int(parts[1]), parts[2]
    pool = int(parts[3]) if len(parts) > 3 else 30
    return factor, start, unit, pool


def spread_bursts(ranked: list[Candidate], k: int, query: str, spec: str,
                  vectors: Callable[[list[int]], dict[int, Any]] | None = None) -> list[Candidate]:
    """``ranked`` (best first) with ranks ``start``+1..k refilled across bursts when the query asks for a list;
    unchanged otherwise. Scores only fall as bursts fill, so the list stays ordered by score. ``vectors`` (ids ->
    stored vectors) is read only for a cosine unit."""
    factor, start, unit, pool = parse(spec)
    if k <= start or len(ranked) <= start or not asks_list(query):
        return ranked
    head, rest, tail = ranked[:start], ranked[start:max(pool, k)], ranked[max(pool, k):]
    if unit.startswith("c"):
        if vectors is None:
            return ranked
        tau = float(unit[1:])
        got = vectors([c.id for c in ranked[:max(pool, k)]])
        vec = {i: np.asarray(v, dtype=np.float32) for i, v in got.items()}
        vec = {i: v / (float(np.linalg.norm(v)) or 1.0) for i, v in vec.items()}

        def same(a: Candidate, b: Candidate) -> bool:
            va, vb = vec.get(a.id), vec.get(b.id)
            return va is not None and vb is not None and float(va @ vb) >= tau
    else:
        gap = float(unit)
        when = {c.id: _at(c) for c in ranked[:max(pool, k)]}

        def same(a: Candidate, b: Candidate) -> bool:
            return _same_burst(a, b, when, gap)
    return _refill(head, rest, tail, k, factor, same)


def _same_burst(a: Candidate, b: Candidate, when: dict[int, datetime | None], gap: float) -> bool:
    """Two turns of one thread ``gap`` minutes apart at most (0: the same day)."""
    if a.thread is None or a.thread != b.thread:
        return False
    ta, tb = when[a.id], when[b.id]
    if ta is None or tb is None:
        return False
    if gap <= 0:
        return ta.date() == tb.date()
    return abs((ta - tb).total_seconds()) <= gap * 60


def _refill(head: list[Candidate], rest: list[Candidate], tail: list[Candidate], k: int, factor: float,
            same: Callable[[Candidate, Candidate], bool]) -> list[Candidate]:
    """Greedy: each next result the best by score × factor^(results shown that ``same`` pairs it with)."""
    out = list(head)
    while len(out) < k and rest:
        def discounted(c: Candidate) -> float:
            return (c.score or 0.0) * factor ** sum(1 for o in out if same(c, o))
        best = max(rest, key=lambda c: (discounted(c), -c.id))
        rest.remove(best)
        best.score = round(discounted(best), 6)
        out.append(best)
    # (the candidates not shown keep their order under the last one shown: later steps read them as a pool)
    floor = min((c.score or 0.0) for c in out)
    for c in rest:
        c.score = min(c.score or 0.0, floor)
    return [*out, *sorted(rest, key=lambda c: (-(c.score or 0.0), c.id)), *tail]
