"""consolidate's review commands: list and resolve the contradictions it found, and show its cluster
hierarchy (`mem.py contradictions`, `mem.py clusters` / `browse`). They read and write what a run left;
memengine/consolidate.py re-exports them."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from memengine import supersession
from memengine.db import write_tx
from memengine.edges import add_edges
from memengine.errors import NotFound, UserError
from memengine.store import MemoryStore
from memengine.timeparse import to_iso, utcnow


def _iso(dt: datetime) -> str:
    out = to_iso(dt)
    assert out is not None
    return out


def resolve_contradiction(store: MemoryStore, cid: int, keep: int, now: datetime | None = None) -> dict[str, Any]:
    """Keep memory ``keep`` of contradiction ``cid``: the other one gets ``valid_to`` (restorable)."""
    now_iso = _iso(now or utcnow())
    with write_tx(store.conn):
        row = store.conn.execute("SELECT * FROM contradictions WHERE id = ?", (cid,)).fetchone()
        if row is None:
            raise NotFound(f"no contradiction with id {cid}")
        if keep not in (row["memory_a"], row["memory_b"]):
            raise UserError(f"--keep must be {row['memory_a']} or {row['memory_b']} (the two memories of #{cid})")
        other = row["memory_b"] if keep == row["memory_a"] else row["memory_a"]
        store.conn.execute("UPDATE memories SET valid_to = NULL, updated_at = ? WHERE id = ?", (now_iso, keep))
        store.conn.execute("UPDATE memories SET valid_to = coalesce(valid_to, ?), updated_at = ? WHERE id = ?",
                           (now_iso, now_iso, other))
        store.conn.execute("DELETE FROM associations WHERE edge_type = 'supersedes' AND source_id = ? AND target_id = ?",
                           (other, keep))
        add_edges(store.conn, [(keep, other, "supersedes", 1.0)], now_iso)
        store.conn.execute("UPDATE contradictions SET status = 'resolved', kept_id = ?, resolved_at = ? WHERE id = ?",
                           (keep, now_iso, cid))
        supersession.settle_open(store.conn, other, now_iso)  # (its other open ones: moot once it is history)
    return {"id": cid, "kept": keep, "superseded": other, "status": "resolved"}


def list_contradictions(store: MemoryStore, status: str | None = "open") -> list[dict[str, Any]]:
    """Contradictions (open ones by default) with both texts."""
    where = "WHERE c.status = ?" if status else ""
    args = (status,) if status else ()
    return [dict(r) for r in store.conn.execute(
        f"""SELECT c.id, c.memory_a, c.memory_b, a.content AS content_a, b.content AS content_b, c.kind, c.reason,
                   c.confidence, c.status, c.kept_id, c.detected_at, c.resolved_at
            FROM contradictions c JOIN memories a ON a.id = c.memory_a JOIN memories b ON b.id = c.memory_b
            {where} ORDER BY c.id""", args)]


def cluster_tree(store: MemoryStore, cid: int | None = None, max_leaves: int = 20) -> list[dict[str, Any]]:
    """The hierarchy as nested dicts: roots (or cluster ``cid``) down to member memories."""
    conn = store.conn

    def node(r: Any) -> dict[str, Any]:
        summary = None
        if r["summary_memory_id"] is not None:
            s = conn.execute("SELECT content FROM memories WHERE id = ?", (r["summary_memory_id"],)).fetchone()
            summary = s[0] if s else None
        out: dict[str, Any] = {"id": r["id"], "level": r["level"], "label": r["label"], "status": r["status"],
                               "member_count": r["member_count"], "summary_memory_id": r["summary_memory_id"],
                               "summary": summary}
        kids = conn.execute("SELECT * FROM clusters WHERE parent_id = ? AND status = 'active' ORDER BY id",
                            (r["id"],)).fetchall()
        if kids:
            out["children"] = [node(k) for k in kids]
        else:
            out["members"] = [
                {"id": m[0], "content": m[1] if len(m[1]) <= 200 else m[1][:199] + "…", "status": m[2]}
                for m in conn.execute(
                    """SELECT m.id, m.content, m.status FROM cluster_members cm JOIN memories m ON m.id = cm.memory_id
                       WHERE cm.cluster_id = ? ORDER BY cm.similarity DESC, m.id LIMIT ?""", (r["id"], max_leaves))]
        return out

    if cid is not None:
        r = conn.execute("SELECT * FROM clusters WHERE id = ?", (cid,)).fetchone()
        if r is None:
            raise NotFound(f"no topic T{cid}")
        return [node(r)]
    return [node(r) for r in conn.execute(
        "SELECT * FROM clusters WHERE status = 'active' AND parent_id IS NULL ORDER BY level DESC, member_count DESC, id")]
