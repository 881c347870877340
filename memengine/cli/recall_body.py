"""The body of a recall as the CLI prints it (``data``, warnings): shared by ``mem.py recall`` (memcli) and the MCP
server's ``recall`` tool, which calls it without the CLI's parser (memengine/cli/servers.py)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import memory_core as core
from memengine.cli.common import Ctx, author_warnings, degraded_warning, parse_date


def recall_data(s: core.MemoryStore, query: str, k: int = 10, strategy: str = "hybrid", types: Sequence[str] = (),
                sources: Sequence[str] = (), tags: Sequence[str] = (), since: str | None = None,
                until: str | None = None, include_archived: bool = False, raw: bool = False, explain: bool = False,
                touch: bool = True, shared: bool = False, summaries: bool = False, with_context: bool = False,
                history: bool = False, as_of: str | None = None, authors: Sequence[str] = ()
                ) -> tuple[dict[str, Any], list[str], Any]:
    """What `recall --json` prints as ``data``, its warnings, and the RecallResult: the one body of
    the CLI command and of the MCP ``recall`` tool (which calls it without the CLI's parser)."""
    later = Ctx.serving.later() if touch and Ctx.serving is not None else None  # a server: after the reply
    res = s.recall(query, k=k, strategy=strategy, types=types or None, sources=sources or None, tags=tags or None,
                   since=parse_date(since, "--since"), until=parse_date(until, "--until"),
                   include_archived=include_archived, raw=raw, touch=touch and later is None, explain=explain,
                   shared=shared, summaries=summaries, history=history, as_of=parse_date(as_of, "--as-of"),
                   authors=authors or None)
    if later is not None and res.results:
        ids = [m.id for m in res.results]
        later.append(lambda: s.touch_if_writable(ids))
    results = [m.to_dict() for m in res.results]
    for r in results:
        if r["source"].startswith(core.SHARED_SOURCE_PREFIX):
            r["shared"] = True
    if with_context:
        from memengine import graph_nav

        contexts = graph_nav.structural_context(s, [m.id for m in res.results])
        for r in results:
            r["context"] = contexts.get(r["id"])
    data: dict[str, Any] = {"query": query, "strategy": res.strategy, "count": len(results), "results": results}
    if res.degraded:
        data["degraded"] = res.degraded
    warnings = [w for w in (degraded_warning(res.degraded, s.degraded_reason), *res.warnings) if w]
    if authors and not results:
        warnings += author_warnings(s.conn, authors)
    if not results and not s.conn.execute("SELECT EXISTS (SELECT 1 FROM memories)").fetchone()[0]:
        # (users36) a mistyped --db / MEM_DB makes a new empty store: "count 0" alone read as "nothing known"
        warnings.append(f"{os.path.abspath(s.path)}: no memories in this store yet (another store? --db or MEM_DB names the file; "
                        "mem.py store or mem.py import fills it)")
    return data, warnings, res
