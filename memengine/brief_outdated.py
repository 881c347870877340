"""Chat turns a later turn of their chat updates: the brief shows the later one only (round 9).

Chat turns never supersede each other at write time (they are events: memengine/supersession.py leaves
them alone), so "he offered 2100 a month, move in from November 15" stayed live after "Kowalczyk agreed:
2050 a month if we sign a 2 year lease", and the brief put the offer under "Coming up". Recall already
links such pairs (memengine/recall/updates.py: ``newer_first``, with the rules of memengine/recall/
replaced.py: a change word, a replaced value named, a settlement, a value restated in the same form), to
mark the earlier turn ``possibly_outdated``; the brief asks the same question of the chat turns it is
about to show, against the later turns of their chats, with recall's own mode (``recall.config
.NEWER_FIRST``): one rule for both, not a copy.

Bounded: LATER_MAX later turns of each thread are read (one indexed read a thread), and only the turns
the brief is about to show are asked about.
"""

from __future__ import annotations

import re
from typing import Any

from memengine.brief_pool import LIVE, Store

LATER_MAX = 300  # later turns of one chat read after the earliest turn asked about
ASK_MAX = 400  # turns asked about at most (the brief shows a few dozen)


def outdated(store: Store, ids: list[int]) -> dict[int, list[int]]:
    """``{id: [later ids]}`` for those of ``ids`` (chat turns; others are left alone) that a later turn of
    their chat updates, by recall's rule (``memengine.recall.updates.newer_first``)."""
    from memengine.recall.config import NEWER_FIRST
    from memengine.records import Candidate

    mode = NEWER_FIRST.partition(":")[0]
    if not mode or not ids:
        return {}
    conn = store.conn
    cols = ", ".join(f"m.{c.strip()}" for c in Candidate.COLUMNS.split(","))
    asked: list[Any] = []
    wanted = sorted(set(ids))[:ASK_MAX]
    for i in range(0, len(wanted), 500):
        chunk = wanted[i:i + 500]
        asked += [Candidate(r) for r in conn.execute(
            f"""SELECT {cols} FROM memories m WHERE m.id IN ({','.join('?' * len(chunk))})
                AND m.thread IS NOT NULL AND m.position IS NOT NULL""", chunk)]
    if not asked:
        return {}
    first: dict[str, int] = {}
    for c in asked:
        first[c.thread] = min(first.get(c.thread, c.position), c.position)
    have = {c.id for c in asked}
    later: list[Any] = []
    for thread, pos in first.items():
        later += [c for c in (Candidate(r) for r in conn.execute(
            f"""SELECT {cols} FROM memories m WHERE m.thread = ? AND m.position > ? AND {LIVE}
                ORDER BY m.position LIMIT ?""", (thread, pos, LATER_MAX))) if c.id not in have]
    if not later and len(asked) < 2:
        return {}
    # (a later turn that is itself asked about may update an earlier one: "$235 a night if we take 6 nights ...
    # we took the 6 nights" is a plan of its own, and updates "$260 a night for 5 nights", round 11)
    pairs = _one_subject(asked, [*asked, *later])
    if not pairs:
        return {}  # (most briefs: recall's rules, and the facts modules they load, are never asked)
    from memengine.recall.updates import newer_first

    olds = sorted({a for a, _ in pairs}, key=lambda c: (c.thread, c.position))
    news = {b.id: b for _, b in pairs}
    _, marks = newer_first(olds, max(2, len(olds)), mode, list(news.values()))  # (a top of one: no pair to read)
    ok = {(a.id, b.id) for a, b in pairs}
    out = {a: [b for b in bs if (a, b) in ok] for a, bs in marks.items()}
    return {a: bs for a, bs in out.items() if bs}


def _one_subject(asked: list[Any], later: list[Any]) -> list[tuple[Any, Any]]:
    """The (earlier, later) pairs of one chat that speak of one subject, the only ones recall's rule is
    asked about. Recall asks its question of its top hits, which answer one slot by construction; the brief
    has no question, and "the board presentation is Thursday November 19" / "ok. move day is Saturday
    November 28 now" hold a value of one kind, a word of change and the stem of "November": no update.
    One subject: a word naming it (brief_upcoming.event_words: no stop word, calendar word or common verb;
    no word of change either: "moved" says that something moved, not what) in the earlier turn and in
    the later one's clauses that say what changed ("change of plan: the Christmas walk moves to Sunday 13
    December, the Rambler Inn can only do the dinner on the 13th" moves the walk, not the AGM at the
    Rambler Inn), held by few turns of their chat (at most EVENT_SHARE of those read, or two: "lease",
    "Bluebird", "Fibrelink"), and part of the same name in both ("Harbour Bar" is not "Harbour Lights")."""
    from memengine.brief_upcoming import EVENT_SHARE, event_words

    cue = _cue_words()
    turns = {c.id: c for c in [*asked, *later]}
    words = {i: event_words(str(c.content)) - cue for i, c in turns.items()}
    df: dict[tuple[str, str], int] = {}
    size: dict[str, int] = {}
    for i, c in turns.items():
        size[c.thread] = size.get(c.thread, 0) + 1
        for w in words[i]:
            df[c.thread, w] = df.get((c.thread, w), 0) + 1
    holders: dict[tuple[str, str], list[Any]] = {}  # each rare word's later turns
    for b in later:
        if not words[b.id]:
            continue
        limit = max(2, int(EVENT_SHARE * size[b.thread]))
        said = event_words(str(b.content), changed_only=True) - cue
        for w in said:
            if df.get((b.thread, w), 0) <= limit:
                holders.setdefault((b.thread, w), []).append(b)
    out: dict[tuple[int, int], tuple[Any, Any]] = {}
    for a in asked:
        for w in words[a.id]:
            for b in holders.get((a.thread, w), ()):
                if b.position > a.position and (a.id, b.id) not in out \
                        and _one_name(str(a.content), str(b.content), w):
                    out[a.id, b.id] = (a, b)
    return list(out.values())


_NAME_RUN = re.compile(r"[A-ZÀ-Þ][^\W\d_]*(?:[ '’&-]+[A-ZÀ-Þ][^\W\d_]*)*")


def _one_name(a: str, b: str, word: str) -> bool:
    """Whether ``word`` is part of the same name in both texts: not "Harbour" of "Harbour Bar" in one and of
    "Harbour Lights" in the other (two places, two subjects). A word in no capitalised run is its own name."""
    from memengine import topic_names

    def runs(text: str) -> set[str]:
        return {" ".join(topic_names.fold(w) for w in m.group().split()) for m in _NAME_RUN.finditer(text)
                if word in (topic_names.fold(w) for w in m.group().split()) and " " in m.group()}

    ra, rb = runs(a), runs(b)
    return not (ra and rb) or bool(ra & rb)


def _cue_words() -> frozenset[str]:
    """The single words of change (memengine/fact_cue_lexicon.py), as event_words folds them."""
    from memengine import topic_names
    from memengine.fact_cue_lexicon import CHANGE_NOUNS, CHANGE_VERBS, MOTION_VERBS, NOW_PHRASES

    return frozenset(topic_names.fold(w) for w in (*CHANGE_VERBS, *MOTION_VERBS, *CHANGE_NOUNS, *NOW_PHRASES)
                     if " " not in w)
