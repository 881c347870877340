"""users36 #1 (users35 #6): a write naming a forgotten memory refuses, as ``update`` always did.

An agent following SKILL.md forgot #2, then pinned it ("what must never be forgotten"), linked to it or stored a
correction superseding it: each answered exit 0 (``pinned: true`` on a memory still forgotten) and only ``update``
refused. The contract now: ``pin``, ``link`` (either end), ``store --supersede`` and ``store --link`` naming a
forgotten id exit 1 ``invalid_input`` with one line "memory N is forgotten: restore it first (mem.py restore N)",
nothing written; the MCP tools say the same. ``unpin``, ``unlink`` and ``forget`` again give a forgotten memory
nothing and stay allowed. Real subprocesses of ``mem.py`` (hash embedder) and the MCP SDK's stdio client.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli_subprocess

HASH = {"MEM_EMBEDDER": "hash"}
REFUSED = "memory 2 is forgotten: restore it first (mem.py restore 2)"


def _run(db: Path, *args: str) -> tuple[int, dict[str, Any]]:
    proc = run_cli_subprocess("--db", str(db), "--json", *args, env=HASH)
    return proc.returncode, json.loads(proc.stdout.strip().splitlines()[-1])


def _store(tmp_path: Path) -> Path:
    db = tmp_path / "m.db"
    for text in ("The office door code is 4471", "Ana is allergic to shellfish", "The standup is at 10:00"):
        assert _run(db, "store", text)[0] == 0
    assert _run(db, "forget", "2")[0] == 0
    return db


def _state(db: Path) -> tuple[Any, ...]:
    with sqlite3.connect(db) as c:
        return (c.execute("SELECT id, status, pinned, valid_to FROM memories ORDER BY id").fetchall(),
                c.execute("SELECT source_id, target_id, edge_type FROM associations ORDER BY 1, 2").fetchall())


@pytest.mark.parametrize("args", [
    ("pin", "2"),
    ("link", "3", "2"),
    ("link", "2", "3", "--type", "causal"),
    ("store", "Ana is allergic to peanuts", "--supersede", "2"),
    ("store", "Ana booked the cabin", "--link", "2"),
])
def test_a_write_naming_a_forgotten_id_refuses(tmp_path: Path, args: tuple[str, ...]) -> None:
    db = _store(tmp_path)
    before = _state(db)
    code, out = _run(db, *args)
    assert code == 1, out
    assert out["ok"] is False and out["error"]["code"] == "invalid_input"
    assert out["error"]["message"] == REFUSED
    assert _state(db) == before  # nothing written
    # restore first, as the message says: then it goes through
    assert _run(db, "restore", "2")[0] == 0
    code, out = _run(db, *args)
    assert code == 0, out


def test_taking_from_a_forgotten_memory_stays_allowed(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    for text in ("The office door code is 4471", "Ana is allergic to shellfish"):
        assert _run(db, "store", text)[0] == 0
    assert _run(db, "pin", "2")[0] == 0
    assert _run(db, "link", "1", "2")[0] == 0
    assert _run(db, "forget", "2")[0] == 0
    code, out = _run(db, "unpin", "2")
    assert code == 0 and out["data"]["pinned"] is False
    code, out = _run(db, "unlink", "1", "2")
    assert code == 0, out
    code, out = _run(db, "forget", "2")
    assert code == 0 and out["data"]["status"] == "deleted"


def test_the_mcp_tools_agree(tmp_path: Path, runtime_dir: Path) -> None:
    pytest.importorskip("mcp")
    from test_mcp import _error, _session

    db = _store(tmp_path)

    async def steps(c: Any) -> list[dict[str, Any]]:
        return [_error(await c.call_tool("pin", {"id": 2})),
                _error(await c.call_tool("link", {"source_id": 3, "target_id": 2})),
                _error(await c.call_tool("store", {"content": "Ana booked the cabin", "link": [2]}))]

    before = _state(db)
    for err in _session(db, runtime_dir, steps):
        assert err["code"] == "invalid_input" and err["message"] == REFUSED
    assert _state(db) == before
