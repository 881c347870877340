"""Key facts: pinned and important semantic facts, with the close older ones they may update.

Split out of memengine/brief.py (round 4).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from memengine.brief_pool import LIVE as _LIVE
from memengine.brief_pool import Store, similarities

KEY_FACT_IMPORTANCE = 0.7  # a semantic memory this important is a key fact even unpinned
UPDATE_COS = 0.65  # two key facts of one source this close: the newer may update the older (fold_updates)
SAME_SITTING_HOURS = 6  # ...if written further apart than this, or the fact rules read a change (may_update)


def key_fact_rows(conn: Any, limit: int = 200) -> list[Any]:
    """Pinned memories, then semantic ones of importance >= KEY_FACT_IMPORTANCE, each by importance then id.

    Two queries, each a range of the m011 rank index (pinned, importance): one query with
    their OR was a scan of every row.
    """
    cols = "m.id, m.content, coalesce(m.event_at, m.created_at), m.pinned, m.importance, m.source"
    rows = conn.execute(f"""SELECT {cols} FROM memories m WHERE {_LIVE} AND m.source != 'vcf' AND m.pinned = 1
                            ORDER BY m.importance DESC, m.id DESC LIMIT ?""", (limit,)).fetchall()
    if len(rows) < limit:
        rows += conn.execute(
            f"""SELECT {cols} FROM memories m WHERE {_LIVE} AND m.source != 'vcf' AND m.pinned = 0
                AND m.importance >= ? AND m.memory_type = 'semantic' ORDER BY m.importance DESC, m.id DESC LIMIT ?""",
            (KEY_FACT_IMPORTANCE, limit - len(rows))).fetchall()
    return rows


def fold_updates(store: Store, rows: list[Any]) -> list[tuple[Any, list[Any]]]:
    """Key-fact rows grouped with the older rows of the same source that say nearly the same thing.

    Two facts of one source at cosine >= UPDATE_COS (stored vectors) are one group; a group is
    shown once, where its first row stands in ``rows``' order, as its newest row (date, then id)
    with the others, newest first. The cosine: on the dev notes (bench/brief_quality.py) four
    updates the store did not mark ("on-call this month is A" -> "on-call in November is B")
    measured 0.69-0.85, and every other pair of key facts at most 0.57.
    """
    if len(rows) < 2:
        return [(r, []) for r in rows]
    sim = similarities(store, [int(r[0]) for r in rows])
    parent = list(range(len(rows)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(len(rows)):
        for j in range(i + 1, len(rows)):
            if sim[i, j] >= UPDATE_COS and rows[i][5] == rows[j][5] and may_update(rows[i], rows[j], sim[i, j]):
                parent[root(j)] = root(i)
    groups: dict[int, list[int]] = {}
    for i in range(len(rows)):
        groups.setdefault(root(i), []).append(i)
    out: list[tuple[Any, list[Any]]] = []
    for i in range(len(rows)):
        members = groups.get(root(i))
        if members is None:
            continue  # its group was shown at its first row
        del groups[root(i)]
        by_age = sorted(members, key=lambda k: (str(rows[k][2] or ""), int(rows[k][0])), reverse=True)
        out.append((rows[by_age[0]], [rows[k] for k in by_age[1:]]))
    return out


def may_update(a: Any, b: Any, cosine: float) -> bool:
    """Whether the later of two close key facts of one source may update the earlier.

    Facts written in one sitting (less than SAME_SITTING_HOURS apart) are most often different
    sides of one subject ("Hannah Weber, a designer in Hamburg" and "Hannah works at Nordlicht as
    a designer", five minutes apart); they are one only when the fact rules read a change of
    value (memengine/facts.py, what write-time supersession asks). Later ones may be updates.
    """
    old, new = sorted((a, b), key=lambda r: (str(r[2] or ""), int(r[0])))
    try:
        gap = (datetime.fromisoformat(str(new[2])[:19]) - datetime.fromisoformat(str(old[2])[:19])).total_seconds()
    except ValueError:
        gap = 0.0  # an unreadable date: judged by the rules alone
    if gap >= SAME_SITTING_HOURS * 3600:
        return True
    from memengine import facts  # ~100 patterns: loaded only when such a pair is there

    return facts.compare(str(old[1]), str(new[1]), float(cosine)) is not None
