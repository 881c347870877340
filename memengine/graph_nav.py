"""Navigating the association graph: a memory's structural context, typed links, neighbourhoods,
exports (JSON, GraphML, DOT) and cluster browsing.

Split from :mod:`memengine.graph` (which keeps the recall strategies): these read and
write the same ``associations`` / ``clusters`` tables, for people and agents walking
the graph one step at a time (``mem.py graph``, ``link``, ``browse``, ``export``).
"""

from __future__ import annotations

import json
import re
from typing import Any

from memengine.db import select_in, write_tx
from memengine.errors import NotFound, UserError
from memengine.graph import Adjacency
from memengine.records import EDGE_TYPES
from memengine.store import MemoryStore

# --------------------------------------------------------------------------- structure

def structural_context(store: MemoryStore, ids: list[int], max_siblings: int = 5,
                       max_links: int = 10) -> dict[int, dict[str, Any]]:
    """Per memory: its cluster (with parent and summary), siblings and typed links.

    ``{id: {"cluster": {...} | None, "episode": {...} | None, "siblings": [ids],
    "links": [{"id", "type", "weight", "direction"}]}}`` — enough for an agent to
    navigate one step at a time (``mem.py graph ID``, ``mem.py browse CLUSTER``).
    """
    conn = store.conn
    out: dict[int, dict[str, Any]] = {}
    for mid in ids:
        ctx: dict[str, Any] = {"cluster": None, "episode": None, "siblings": [], "links": []}
        row = conn.execute(
            """SELECT c.id, c.level, c.label, c.parent_id, c.summary_memory_id, c.member_count
               FROM cluster_members cm JOIN clusters c ON c.id = cm.cluster_id
               WHERE cm.memory_id = ? AND c.status = 'active' ORDER BY c.level ASC LIMIT 1""", (mid,)).fetchone()
        if row:
            cl: dict[str, Any] = {"id": row[0], "level": row[1], "label": row[2], "parent_id": row[3],
                                  "member_count": row[5], "summary": _summary(store, row[4])}
            if row[3] is not None:
                p = conn.execute("SELECT id, label, summary_memory_id FROM clusters WHERE id = ?", (row[3],)).fetchone()
                if p:
                    cl["parent"] = {"id": p[0], "label": p[1], "summary": _summary(store, p[2])}
            ctx["cluster"] = cl
            ctx["siblings"] = [int(r[0]) for r in conn.execute(
                """SELECT cm.memory_id FROM cluster_members cm JOIN memories m ON m.id = cm.memory_id
                   WHERE cm.cluster_id = ? AND cm.memory_id <> ? AND m.status = 'active'
                   ORDER BY coalesce(cm.similarity, 0) DESC, cm.memory_id LIMIT ?""", (row[0], mid, max_siblings))]
        # a forgotten episode is not shown: its text holds a forgotten turn's words (memengine/forget_episodes.py)
        ep = conn.execute(
            """SELECT a.target_id FROM associations a JOIN memories e ON e.id = a.target_id
               WHERE a.source_id = ? AND a.edge_type = 'part_of' AND e.status != 'deleted'
               ORDER BY a.weight DESC LIMIT 1""",
            (mid,)).fetchone()
        if ep:
            ctx["episode"] = {"id": ep[0], "summary": _summary(store, ep[0])}
            if not ctx["siblings"]:
                ctx["siblings"] = [int(r[0]) for r in conn.execute(
                    """SELECT a.source_id FROM associations a JOIN memories m ON m.id = a.source_id
                       WHERE a.target_id = ? AND a.edge_type = 'part_of' AND a.source_id <> ? AND m.status = 'active'
                       ORDER BY abs(coalesce(m.position, 0) - coalesce((SELECT position FROM memories WHERE id = ?), 0)),
                                a.source_id LIMIT ?""", (ep[0], mid, mid, max_siblings))]
        links = []
        for a, b, et, w in conn.execute(
            """SELECT source_id, target_id, edge_type, weight FROM associations WHERE source_id = ?
               UNION ALL SELECT source_id, target_id, edge_type, weight FROM associations WHERE target_id = ?""",
                (mid, mid)):
            other, direction = (b, "out") if a == mid else (a, "in")
            links.append({"id": int(other), "type": et, "weight": round(float(w), 3), "direction": direction})
        links.sort(key=lambda x: (-x["weight"], x["id"]))
        ctx["links"] = links[:max_links]
        out[mid] = ctx
    return out


def _summary(store: MemoryStore, mid: int | None, chars: int = 200) -> dict[str, Any] | None:
    if mid is None:
        return None
    r = store.conn.execute("SELECT id, content FROM memories WHERE id = ?", (mid,)).fetchone()
    if not r:
        return None
    text = r[1] if len(r[1]) <= chars else r[1][:chars] + "…"
    return {"id": int(r[0]), "content": text}


def link(store: MemoryStore, a: int, b: int, edge_type: str = "explicit", weight: float = 0.8) -> dict[str, Any]:
    """Create or update an edge ``a → b`` (explicit, causal, ...); returns it."""
    if a == b:
        raise UserError("cannot link a memory to itself")
    links = store.checked_links([(b, edge_type, weight)], options=("--type", "--weight"))
    store.not_forgotten(a)  # NotFound if either is missing, UserError if either is forgotten
    with write_tx(store.conn):
        store.add_links(a, links)
    return {"source_id": a, "target_id": b, "edge_type": edge_type, "weight": weight}


HISTORY_EDGES = ("supersedes", "contradicts")  # a fact's versions, a contradiction's pair: removed only when named


def unlink(store: MemoryStore, a: int, b: int, edge_type: str | None = None) -> dict[str, Any]:
    """Remove the edges between ``a`` and ``b`` (either direction; one type, or all but history).

    Without a type the history edges stay (:data:`HISTORY_EDGES`): removing the user's own link between two
    versions of a fact also cut the ``supersedes`` edge, and the older version lost its successor (``get``: no
    ``superseded_by``, no ``versions``) while staying history (users25). ``--type supersedes`` removes one."""
    sql = "DELETE FROM associations WHERE ((source_id = ? AND target_id = ?) OR (source_id = ? AND target_id = ?))"
    args: list[Any] = [a, b, b, a]
    if edge_type:
        if edge_type not in EDGE_TYPES:
            raise UserError(f"--type must be one of {', '.join(EDGE_TYPES)} (got {edge_type!r})")
        sql += " AND edge_type = ?"
        args.append(edge_type)
    else:
        sql += f" AND edge_type NOT IN ({','.join('?' * len(HISTORY_EDGES))})"
        args += HISTORY_EDGES
    with write_tx(store.conn):
        n = store.conn.execute(sql, args).rowcount
        kept = 0 if edge_type else int(store.conn.execute(
            "SELECT count(*) FROM associations WHERE ((source_id = ? AND target_id = ?) OR (source_id = ? AND "
            "target_id = ?))", (a, b, b, a)).fetchone()[0])
    if n == 0:
        if kept:
            raise NotFound(f"only history edges between #{a} and #{b} ({' or '.join(HISTORY_EDGES)}): they stay; "
                           f"name one with --type to remove it")
        raise NotFound(f"no {edge_type + ' ' if edge_type else ''}edge between #{a} and #{b}")
    out: dict[str, Any] = {"source_id": a, "target_id": b, "removed": n}
    if kept:
        out["kept_history"] = kept
    return out


def neighbourhood(store: MemoryStore, root: int | None, hops: int = 1, limit: int = 200,
                  threshold: float = 0.0) -> dict[str, Any]:
    """Nodes and edges within ``hops`` of ``root`` (all edges if ``root`` is None), BFS order.

    ``{"root", "hops", "nodes": [{id, content, memory_type, depth, ...}], "edges":
    [{source, target, type, weight}], "truncated": bool}``.
    """
    if hops < 0:
        raise UserError("--hops must be ≥ 0")
    conn = store.conn
    depth: dict[int, int] = {}
    parent: dict[int, int | None] = {}
    truncated = False
    if root is not None:
        store.get(root)
        adj = Adjacency(store, threshold=threshold, fanout_cap=limit, include_archived=True)
        depth[root], parent[root] = 0, None
        frontier = [root]
        for d in range(1, hops + 1):
            nbrs = adj.neighbours(frontier)
            nxt = []
            for u in frontier:
                for v, _w, _et in nbrs[u]:
                    if v not in depth:
                        if len(depth) >= limit:
                            truncated = True
                            break
                        depth[v], parent[v] = d, u
                        nxt.append(v)
            frontier = nxt
        ids = list(depth)
    else:
        ids = [int(r[0]) for r in conn.execute(
            "SELECT id FROM memories WHERE status <> 'deleted' AND (id IN (SELECT source_id FROM associations) "
            "OR id IN (SELECT target_id FROM associations)) ORDER BY id LIMIT ?", (limit + 1,))]
        truncated = len(ids) > limit
        ids = ids[:limit]
        depth = {i: 0 for i in ids}
    idset = set(ids)
    rows = store.rows(ids)
    edges = []
    for a, b, et, w in select_in(
            conn, "SELECT source_id, target_id, edge_type, weight FROM associations WHERE source_id IN ({ids})", ids):
        if b in idset:
            edges.append({"source": int(a), "target": int(b), "type": et, "weight": round(float(w), 3)})
    nodes = []
    for i in ids:
        if i not in rows:
            continue
        m = rows[i]
        nodes.append({"id": i, "content": m.content, "memory_type": m.memory_type, "status": m.status,
                      "depth": depth[i], "parent": parent.get(i), "event_at": m.event_at})
    return {"root": root, "hops": hops, "nodes": nodes, "edges": edges, "truncated": truncated}


def export(store: MemoryStore, fmt: str, around: int | None = None, hops: int = 1, limit: int = 100_000) -> str:
    """The graph (or the neighbourhood of ``around``) as ``dot``, ``graphml`` or ``json`` text."""
    fmt = fmt.lower()
    if fmt not in ("dot", "graphml", "json"):
        raise UserError(f"--format must be dot, graphml or json (got {fmt!r})")
    g = neighbourhood(store, around, hops=hops, limit=limit)
    if fmt == "json":
        return json.dumps({"nodes": g["nodes"], "edges": g["edges"], "truncated": g["truncated"]}, ensure_ascii=False)
    if fmt == "dot":
        def q(s: str) -> str:
            return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'

        lines = ["digraph mem {", "  node [shape=box];"]
        for n in g["nodes"]:
            label = n["content"] if len(n["content"]) <= 60 else n["content"][:60] + "…"
            text = f"#{n['id']} {label}"
            lines.append(f"  {n['id']} [label={q(text)}, type={q(n['memory_type'])}];")
        for e in g["edges"]:
            lines.append(f"  {e['source']} -> {e['target']} [label={q(e['type'])}, weight={e['weight']}];")
        lines.append("}")
        return "\n".join(lines) + "\n"
    import xml.etree.ElementTree as ET  # GraphML export only: every recall imports this module

    ns = "http://graphml.graphdrawing.org/xmlns"
    ET.register_namespace("", ns)
    root = ET.Element(f"{{{ns}}}graphml")
    for kid, dom, name, typ in (("d0", "node", "content", "string"), ("d1", "node", "memory_type", "string"),
                                ("d2", "edge", "type", "string"), ("d3", "edge", "weight", "double")):
        ET.SubElement(root, f"{{{ns}}}key", id=kid, attrib={"for": dom, "attr.name": name, "attr.type": typ})
    gr = ET.SubElement(root, f"{{{ns}}}graph", id="mem", edgedefault="directed")
    for n in g["nodes"]:
        el = ET.SubElement(gr, f"{{{ns}}}node", id=f"n{n['id']}")
        ET.SubElement(el, f"{{{ns}}}data", key="d0").text = _xml_safe(n["content"])
        ET.SubElement(el, f"{{{ns}}}data", key="d1").text = n["memory_type"]
    for i, e in enumerate(g["edges"]):
        el = ET.SubElement(gr, f"{{{ns}}}edge", id=f"e{i}", source=f"n{e['source']}", target=f"n{e['target']}")
        ET.SubElement(el, f"{{{ns}}}data", key="d2").text = e["type"]
        ET.SubElement(el, f"{{{ns}}}data", key="d3").text = str(e["weight"])
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


_XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")


def _xml_safe(text: str) -> str:
    """XML 1.0 forbids most control characters; chat exports contain them."""
    return _XML_BAD.sub("\ufffd", text)


def browse(store: MemoryStore, cluster_id: int | None = None, limit: int = 50) -> dict[str, Any]:
    """The cluster hierarchy: roots (no ``cluster_id``) or one cluster's parent, children and members."""
    conn = store.conn

    def card(r: Any) -> dict[str, Any]:
        return {"id": r[0], "level": r[1], "label": r[2], "member_count": r[3], "summary": _summary(store, r[4])}

    cols = "id, level, label, member_count, summary_memory_id"
    if cluster_id is None:
        roots = [card(r) for r in conn.execute(
            f"""SELECT {cols} FROM clusters WHERE status = 'active'
                AND (parent_id IS NULL OR parent_id NOT IN (SELECT id FROM clusters WHERE status = 'active'))
                ORDER BY level DESC, member_count DESC, id LIMIT ?""", (limit,))]
        return {"cluster": None, "roots": roots}
    r = conn.execute(f"SELECT {cols}, parent_id, status FROM clusters WHERE id = ?", (cluster_id,)).fetchone()
    if not r:
        raise NotFound(f"no topic T{cluster_id}")
    out = card(r)
    out["status"] = r[6]
    parent = conn.execute(f"SELECT {cols} FROM clusters WHERE id = ?", (r[5],)).fetchone() if r[5] else None
    out["parent"] = card(parent) if parent else None
    out["children"] = [card(c) for c in conn.execute(
        f"SELECT {cols} FROM clusters WHERE parent_id = ? AND status = 'active' ORDER BY member_count DESC, id",
        (cluster_id,))]
    out["members"] = [{"id": int(m[0]), "content": m[1], "similarity": m[2]} for m in conn.execute(
        """SELECT m.id, m.content, cm.similarity FROM cluster_members cm JOIN memories m ON m.id = cm.memory_id
           WHERE cm.cluster_id = ? AND m.status = 'active' ORDER BY coalesce(cm.similarity, 0) DESC, m.id LIMIT ?""",
        (cluster_id, limit))]
    return {"cluster": out}
