"""The brief's "Coming up" section: live memories that plan a day still ahead, soonest first.

A plan is a memory whose text names a day after the day it was written (memengine/brief_dates.py:
"Booked the dentist for 3 December", written 9 November), or a note (not a chat turn) stored ahead
of its own date, a day still to come (``mem.py store ... --at "3 December"``). Candidates are the memories dated in the last
LOOKBACK_DAYS (and any dated ahead), read by the event-date index, plus the newest rows by id
(undated ones carry their storage time): a bounded read at any store size. Of two close plans of
one chat or source (cosine >= MOVED_COS) where the newer says it changed ("moved", "postponed",
"instead", in the fact rules' five languages), only the newer is shown: "dinner on Saturday 19
December" then "dinner moved to Sunday 20 December" is one plan, moved; the same plan said again
(the same day, cosine >= RESTATED_COS) is one too. Other close plans stay ("dentist on 3 December",
"dentist on 10 January").
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any

import numpy as np

from memengine import brief_dates
from memengine.brief_pool import LIVE, Store, similarities
from memengine.timeparse import to_iso

LOOKBACK_DAYS = 180  # plans written this long ago may still be ahead
SCAN_MAX = 3000  # memories read by date (and again by id), at most
MOVED_COS = 0.6  # two plans of one chat this close, the newer saying it changed: it moved the older
RESTATED_COS = 0.85  # ...or naming the same day this close: the same plan said again
FOUND_MAX = 200  # plans looked at, soonest first
_WORD = re.compile(r"[^\W_]+")


def _written(when: str | None) -> date | None:
    try:
        return datetime.fromisoformat(str(when)[:19]).date() if when else None
    except ValueError:
        return None


def plans(store: Store, now: datetime) -> tuple[list[tuple[Any, date, list[date]]], list[int]]:
    """(row, first day from today, planned days) of the live plans ahead of ``now``, soonest first,
    and the ids of those a newer plan moved or restates (left out).

    ``row`` is (id, content, date, source, chat key, dated ahead). Ties by date go to the newer memory.
    """
    today = now.date()
    since = to_iso(now - timedelta(days=LOOKBACK_DAYS))
    cols = ("m.id, m.content, coalesce(m.event_at, m.created_at), m.source, m.source || '/' || coalesce(m.thread, ''), "
            "m.thread IS NULL AND m.event_at > m.created_at")
    live = LIVE.replace("m.status", "+m.status")  # (the unary +: the date / id index, not the status one)
    rows = store.conn.execute(f"""SELECT {cols} FROM memories m WHERE m.event_at >= ? AND {live}
                                  AND m.source != 'vcf' ORDER BY m.event_at DESC LIMIT ?""",
                              (since, SCAN_MAX)).fetchall()
    rows += store.conn.execute(f"""SELECT {cols} FROM memories m WHERE m.event_at IS NULL AND m.created_at >= ?
                                   AND {live} AND m.source != 'vcf' ORDER BY m.id DESC LIMIT ?""",
                               (since, SCAN_MAX)).fetchall()
    found: list[tuple[Any, date, list[date]]] = []
    for r in rows:
        written = _written(r[2])
        if written is None:
            continue
        days = brief_dates.plan_days(str(r[1])[:600], written)
        if r[5] and written > today:  # a note dated ahead (stored --at a day to come), not a chat turn
            days = sorted({written, *days})
        ahead = [d for d in days if d >= today]
        if ahead:
            found.append((r, ahead[0], days))
    return _drop_moved(store, found)


def _drop_moved(store: Store, found: list[tuple[Any, date, list[date]]]
                ) -> tuple[list[tuple[Any, date, list[date]]], list[int]]:
    """The plans less those a newer close plan of the same chat restates or moves, soonest first;
    and the ids of those left out.

    Only the FOUND_MAX soonest are looked at (the section shows a few): a bounded cost at any size.
    """
    found.sort(key=lambda f: (f[1], -int(f[0][0])))
    found = found[:FOUND_MAX]
    if len(found) > 1:
        sim = similarities(store, [int(f[0][0]) for f in found])
        age = np.array(_ranks([(str(f[0][2]), int(f[0][0])) for f in found]))
        chat = np.array([str(f[0][4]) for f in found])
        day = np.array([f[1].toordinal() for f in found])
        cue = np.array([_says_changed(str(f[0][1])) for f in found])
        # i is moved or restated by j: j is newer, of the same chat, close, and says the plan changed
        # ("moved to Sunday 20 December") or names the same day again in nearly the same words
        by_newer = (age[None, :] > age[:, None]) & (chat[None, :] == chat[:, None]) & (sim >= MOVED_COS) \
            & (cue[None, :] | ((day[None, :] == day[:, None]) & (sim >= RESTATED_COS)))
        gone = by_newer.any(axis=1)
        return [f for f, g in zip(found, gone) if not g], [int(f[0][0]) for f, g in zip(found, gone) if g]
    return found, []


def _says_changed(text: str) -> bool:
    """Whether ``text`` holds a word of change (memengine/fact_cue_lexicon.py: "moved", "postponed",
    "instead", "now", "verschoben", "reporté", ...), folded."""
    from memengine.fact_cue_lexicon import CHANGE_NOUNS, CHANGE_VERBS, MOTION_VERBS, NOW_PHRASES
    from memengine.fact_lexicon import fold

    words = {fold(w) for w in _WORD.findall(text[:600])}
    return bool(words & (CHANGE_VERBS | MOTION_VERBS | CHANGE_NOUNS | {p for p in NOW_PHRASES if " " not in p}))


def _ranks(keys: list[tuple[str, int]]) -> list[int]:
    """The rank of each key in sorted order (0 = oldest)."""
    order = sorted(range(len(keys)), key=keys.__getitem__)
    out = [0] * len(keys)
    for rank, i in enumerate(order):
        out[i] = rank
    return out


def note(content: str, when: str | None, today: date) -> str:
    """What a brief line adds about its plan: `` (→ day, in N days)``, `` (day: past)`` or ""."""
    written = _written(when)
    if written is None:
        return ""
    return brief_dates.when_note(brief_dates.plan_days(content[:600], written), today)
