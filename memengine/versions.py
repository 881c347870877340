"""The versions of a fact as the store holds them: the ``supersedes`` chain and the middle band's ``may_update``
links, read (never written) for recall, ``get``, ``history`` and the brief.

memengine/supersession.py decides and writes these links when a fact is stored; this room only reads them, so a
recall marks versions without loading the decision code. Conventions are supersession's: a superseded memory has
``valid_to`` set and its successor an ``associations`` edge ``supersedes`` (source = new, target = old); a probable
update is a ``contradicts`` edge new -> old whose metadata holds :data:`MAY_UPDATE_META` (the learned score).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from memengine.db import select_in
from memengine.records import MEMORY_COLUMNS, Memory
from memengine.versions_living import forgotten_among, living

# The middle band (memengine/fact_slot.py): a ``contradicts`` edge from the probable update to the fact it
# probably updates, whose metadata holds this key (the learned score). Both stay current; recall marks the
# older ``possibly_outdated`` and ranks the newer above it; brief shows the newer.
MAY_UPDATE_META = "may_update"
MAY_UPDATE_EDGE = f"edge_type = 'contradicts' AND json_extract(metadata, '$.{MAY_UPDATE_META}') IS NOT NULL"


def links(conn: Any, mid: int) -> dict[str, list[int]]:
    """``supersedes`` / ``superseded_by``: the ids one step away along ``supersedes`` edges."""
    out = {"supersedes": [int(r[0]) for r in conn.execute(
        "SELECT target_id FROM associations WHERE source_id = ? AND edge_type = 'supersedes' ORDER BY target_id",
        (mid,))],
        "superseded_by": [int(r[0]) for r in conn.execute(
            "SELECT source_id FROM associations WHERE target_id = ? AND edge_type = 'supersedes' ORDER BY source_id",
            (mid,))]}
    return out


def chain(conn: Any, mid: int, limit: int = 50) -> list[int]:
    """Every version of the fact ``mid`` belongs to, newest first (by ``valid_from``, then id)."""
    seen = {mid}
    todo = [mid]
    while todo and len(seen) < limit:
        cur = todo.pop()
        for key in ("supersedes", "superseded_by"):
            for other in links(conn, cur)[key]:
                if other not in seen:
                    seen.add(other)
                    todo.append(other)
    rows = conn.execute(
        f"SELECT id, coalesce(valid_from, created_at) FROM memories WHERE id IN ({','.join('?' * len(seen))})",
        tuple(seen)).fetchall()
    return [int(r[0]) for r in sorted(rows, key=lambda r: (str(r[1]), int(r[0])), reverse=True)]


def versions_marked(conn: Any, results: list[Memory]) -> list[Memory]:
    """Mark each result's ``supersedes`` / ``superseded_by`` and put every superseded
    version right after the result that replaced it (chains read newest first).

    A forgotten version replaces nothing any more (memengine/forget_versions.py; ``get``'s versions say the
    same): it is left out of ``superseded_by`` (users32: a current fact said ``superseded_by: [the forgotten]``),
    and a forgotten version in the middle of a chain is looked through: what replaced it replaces the one before
    it (users33, memengine/versions_living.py)."""
    for m in results:
        one = links(conn, m.id)
        m.supersedes, m.superseded_by = one["supersedes"], one["superseded_by"]
    gone = forgotten_among(conn, {i for m in results for i in [*(m.superseded_by or []), *(m.supersedes or [])]})
    if gone:
        for m in results:
            if gone & {*(m.superseded_by or []), *(m.supersedes or [])}:
                m.superseded_by = living(conn, m.superseded_by or [], "superseded_by", gone)
                m.supersedes = living(conn, m.supersedes or [], "supersedes", gone)
    by_id = {m.id: m for m in results}
    placed: set[int] = set()
    out: list[Memory] = []

    def put(m: Memory) -> None:
        if m.id in placed:
            return
        placed.add(m.id)
        out.append(m)
        for older in m.supersedes or []:
            if older in by_id:
                put(by_id[older])

    for m in results:
        if not any(w in by_id and w not in placed for w in m.superseded_by or []):
            put(m)
    for m in results:  # (a cycle: keep rank order)
        put(m)
    return out


def outdated_marked(conn: Any, results: list[Memory],
                    honour: Callable[[Memory, Memory], bool] | None = None) -> list[Memory]:
    """Mark the results a later current fact probably updates (the ``may_update`` links of the middle
    band) and rank that later fact right above each of them.

    A marked result gets ``possibly_outdated`` and ``possibly_outdated_by`` (the later ids); a later
    fact already among the results and ranked under it moves up to just above it, one not among
    them comes in there (with the older one's score). Nothing is left out: the older fact stays
    where it was ranked, and the list grows by at most the facts brought in, less what falls off its
    tail beyond the original length (never a marked fact or the fact that marks it). One indexed
    query when no result is linked. ``honour(older, later)``: a link the caller honours (recall's vet of two
    notes' links, memengine/recall/notes_links.py); every link when None.
    """
    if not results:
        return results
    ids = [m.id for m in results]
    links: dict[int, list[int]] = {}
    for src, dst in select_in(conn, "SELECT source_id, target_id FROM associations WHERE target_id IN ({ids}) "
                              f"AND {MAY_UPDATE_EDGE} ORDER BY source_id", ids):
        links.setdefault(int(dst), []).append(int(src))
    if not links:
        return results
    links = _strongest(conn, links)
    newer = {n for ns in links.values() for n in ns}
    live = {int(r[0]): r for r in select_in(
        conn, f"SELECT {MEMORY_COLUMNS} FROM memories WHERE id IN ({{ids}}) AND status = 'active' "
        "AND valid_to IS NULL", sorted(newer))}
    out = list(results)
    by_id = {m.id: m for m in out}
    keep: set[int] = set()
    for old in results:
        later = [n for n in links.get(old.id, []) if n in live and n != old.id
                 and (honour is None or honour(old, by_id.get(n) or Memory.from_row(live[n])))]
        if not later:
            continue
        old.possibly_outdated, old.possibly_outdated_by = True, later
        keep.add(old.id)
        for n in later:
            m = by_id.get(n)
            if m is None:
                m = Memory.from_row(live[n])
                m.score = old.score
                by_id[n] = m
            elif out.index(m) < out.index(old):
                m.may_update = sorted({*(m.may_update or []), old.id})
                keep.add(n)
                continue
            else:
                out.remove(m)
                if m.score is not None and old.score is not None:
                    m.score = max(m.score, old.score)  # (ranked above it: its score says so)
            m.may_update = sorted({*(m.may_update or []), old.id})
            keep.add(n)
            out.insert(out.index(old), m)
    while len(out) > len(results) and out[-1].id not in keep:
        out.pop()
    return out


def _strongest(conn: Any, links: dict[int, list[int]]) -> dict[int, list[int]]:
    """``links`` (older id -> the later ids that may update it) less the links that are not their later fact's
    strongest: a fact replaces one earlier value, so a later fact linked to several olders marks only the one
    it scored highest with (ties kept), and none when it superseded another outright (the brief's rule,
    memengine/brief_keyfacts.outdated_links, which also weighs the rare words the two name).

    The middle band links a write to every near fact it scored above the band: "Rafa and Inês are moving
    to Lisbon" to the job in Lisbon, the partner and the dog, and the December flight (lead, session 12);
    each link put the move above the fact a question asked for (the dog's name, the flight's day)."""
    best: dict[int, float] = {}
    scored: dict[tuple[int, int], float] = {}
    for src, dst, kind, meta in select_in(
            conn, "SELECT source_id, target_id, edge_type, metadata FROM associations WHERE source_id IN ({ids}) "
            "AND edge_type IN ('supersedes', 'contradicts')", sorted({n for ns in links.values() for n in ns})):
        value = 1.0 if kind == "supersedes" else link_score(meta)
        if value is None:
            continue  # (a contradiction, not an update)
        scored[int(src), int(dst)] = value
        best[int(src)] = max(best.get(int(src), 0.0), value)
    out = {o: kept for o, ns in links.items()
           if (kept := [n for n in ns if scored.get((n, o), 0.0) >= best.get(n, 0.0)])}
    return out


def link_score(meta: Any) -> float | None:
    """The may_update score a link's metadata holds (None: no score, a contradiction)."""
    try:
        value = json.loads(meta or "{}").get(MAY_UPDATE_META)
    except (ValueError, AttributeError):
        return None
    return float(value) if isinstance(value, (int, float)) else None


def probably_outdated(conn: Any) -> dict[int, list[int]]:
    """Every current fact a later current fact probably updates (the middle band's links), with the later
    ids: what brief leaves out, showing the later one instead. Both sides must still be current."""
    out: dict[int, list[int]] = {}
    for src, dst in conn.execute(
            # CROSS JOIN: the few contradiction edges first (their m013 index), not every active memory
            "SELECT a.source_id, a.target_id FROM associations a CROSS JOIN memories n ON n.id = a.source_id "
            "CROSS JOIN memories o ON o.id = a.target_id WHERE a." + MAY_UPDATE_EDGE.replace("metadata", "a.metadata")
            + " AND n.status = 'active' AND n.valid_to IS NULL AND o.status = 'active' AND o.valid_to IS NULL "
            "ORDER BY a.target_id, a.source_id"):
        out.setdefault(int(dst), []).append(int(src))
    return out
