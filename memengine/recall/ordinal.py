"""A question's ordinal says which end of the chat's time to favour (issue 19, round 48).

"What was the first book we read?", "whose house was the first meeting at?", "¿cuál fue el primer salón?": fusion ranks
the turns that share the question's words, and in a chat of months those are mostly the later ones (a book club says
"book" and "meeting" every month). The ordinal names the end: "first", "earliest", "originally", "primero", "erste",
"eerste", "premier", "første" the earliest; "latest", "most recent", "last" (not "last week": a date), "último",
"letzte", "laatste", "dernier", "sidste" the latest. ``ordinal_nudge`` adds to each of the top ``depth`` candidates
``w`` × (their score range) × its place in time among them (1 for the end asked, 0 for the other), then re-sorts.

Off by default (``RecallConfig.ordinal`` ""): over eight sets pooled, leaving a set out, it lost as often as it found
the first (bench/README.md, "Round 48"); two-part questions need both ends.
"""

from __future__ import annotations

import re

from memengine.records import Candidate

_EARLY = re.compile(
    r"\b(?:first|earliest|at first|originally|initially|"  # en
    r"primer[oa]?|primeir[oa]s?|erste[nrsm]?|zuerst|eerste|eerst|premier|première|premiers|premières|d'abord|"
    r"første|først|första|först|pierwsz\w*|ilk)\b", re.I)
# "last" as the latest, not a date ("last week", "last year", "last friday")
_LATE = re.compile(
    r"\b(?:latest|most recent(?:ly)?|last(?!\s+(?:week|weekend|month|year|night|summer|winter|spring|autumn|fall|"
    r"season|monday|tuesday|wednesday|thursday|friday|saturday|sunday|christmas|easter)\b)|"
    r"últim[oa]s?|letzte[nrsm]?|zuletzt|laatste|dernier|dernière|sidste|seneste|senaste|sista)\b", re.I)


def asks_end(question: str) -> str:
    """"early" or "late" when the question's ordinal names an end of the chat's time, else ""."""
    early, late = _EARLY.search(question), _LATE.search(question)
    if early and not late:
        return "early"
    if late and not early:
        return "late"
    return ""


def parse(spec: str) -> tuple[float, int, str]:
    """``"w:depth[:ends]"`` (e.g. "0.3:20", "0.3:20:early") -> (w, depth, ends: "early", "late" or "both")."""
    parts = spec.split(":")
    return float(parts[0]), int(parts[1]), parts[2] if len(parts) > 2 else "both"


def ordinal_nudge(ranked: list[Candidate], query: str, spec: str) -> list[Candidate]:
    """``ranked`` (best first) with its top ``depth`` nudged toward the end of time the question's ordinal asks
    for; unchanged when it names none (or an end ``spec`` leaves out) or fewer than two of them are dated."""
    w, depth, ends = parse(spec)
    end = asks_end(query)
    if not end or (ends != "both" and end != ends):
        return ranked
    top = [c for c in ranked[:depth] if c.event_at]
    if len(top) < 2:
        return ranked
    scores = [c.score or 0.0 for c in ranked[:depth]]
    span = max(scores) - min(scores)
    if span <= 0:
        return ranked
    by_time = sorted(top, key=lambda c: (c.event_at or "", c.id), reverse=end == "late")
    last = len(by_time) - 1
    for i, c in enumerate(by_time):
        c.score = round((c.score or 0.0) + w * span * (1 - i / last), 6)
    head = sorted(ranked[:depth], key=lambda c: (-(c.score or 0.0), c.id))
    return [*head, *ranked[depth:]]
