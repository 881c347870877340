"""`mem mcp` driven by the MCP SDK's own stdio client, in a subprocess: tools, store, recall, coded errors.

Also: a one-shot CLI call for the same file is handed to the MCP server's socket.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")
import anyio  # noqa: E402
from mcp import Client, StdioServerParameters  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _session(db: Path, runtime: Path, steps: Any) -> Any:
    """Start `mem.py --db DB mcp` through the SDK's stdio client and run ``steps(client)``."""
    env = {"MEM_EMBEDDER": os.environ["MEM_EMBEDDER"], "XDG_RUNTIME_DIR": str(runtime),
           "XDG_CACHE_HOME": os.environ["XDG_CACHE_HOME"], "PYTHONDONTWRITEBYTECODE": "1"}
    params = StdioServerParameters(command=sys.executable, args=[str(ROOT / "mem.py"), "--db", str(db), "mcp"],
                                   env=env, cwd=str(ROOT))

    async def main() -> Any:
        async with Client(params, read_timeout_seconds=120) as client:
            return await steps(client)

    return anyio.run(main)


def _data(result: Any) -> dict:
    assert result.is_error is False, result.content
    assert json.loads(result.content[0].text) == result.structured_content
    return result.structured_content


def _error(result: Any) -> dict:
    assert result.is_error is True
    error = result.structured_content["error"]
    assert json.loads(result.content[0].text) == error
    return error


def test_tools_store_recall_and_coded_errors(tmp_path: Path, runtime_dir: Path) -> None:
    db = tmp_path / "m.db"

    async def steps(c: Any) -> dict[str, Any]:
        out: dict[str, Any] = {"tools": {t.name: t for t in (await c.list_tools()).tools}}
        out["stored"] = _data(await c.call_tool("store", {"content": "Oscar prefers morning meetings",
                                                          "importance": 0.8, "tags": ["people"]}))
        out["stored2"] = _data(await c.call_tool("store", {"content": "Flew to Rome", "type": "episodic",
                                                           "at": "2024-05-02", "link": [1], "link_type": "causal"}))
        out["again"] = _data(await c.call_tool("store", {"content": "Oscar prefers morning meetings"}))
        out["recall"] = _data(await c.call_tool("recall", {"query": "Oscar meetings", "k": 1, "explain": True}))
        out["filtered"] = _data(await c.call_tool("recall", {"query": "Rome", "types": ["episodic"], "tags": ["none"]}))
        out["get"] = _data(await c.call_tool("get", {"id": 2}))
        out["forget"] = _data(await c.call_tool("forget", {"id": 2}))
        out["stats"] = _data(await c.call_tool("stats", {}))
        out["update"] = _data(await c.call_tool("update", {"id": 1, "content": "Oscar now prefers afternoon meetings"}))
        out["current"] = _data(await c.call_tool("recall", {"query": "Oscar meetings", "k": 5}))
        out["history"] = _data(await c.call_tool("recall", {"query": "Oscar meetings", "k": 5, "history": True}))
        out["pin"] = _data(await c.call_tool("pin", {"id": out["update"]["id"]}))
        out["not_found"] = _error(await c.call_tool("get", {"id": 99}))
        out["bad_k"] = _error(await c.call_tool("recall", {"query": "x", "k": 0}))
        out["bad_strategy"] = _error(await c.call_tool("recall", {"query": "x", "strategy": "nope"}))
        out["bad_date"] = _error(await c.call_tool("store", {"content": "x", "at": "the day after never"}))
        out["missing_target"] = _error(await c.call_tool("link", {"source_id": 1, "target_id": 404}))
        return out

    out = _session(db, runtime_dir, steps)
    tools = out["tools"]
    assert {"store", "recall", "get", "forget", "restore", "brief", "surface", "link", "stats"} <= set(tools)
    for tool in tools.values():
        assert tool.description and tool.input_schema["type"] == "object"
    recall_props = tools["recall"].input_schema["properties"]
    assert recall_props["k"]["minimum"] == 1 and recall_props["k"]["maximum"] == 1000
    assert "hybrid" in recall_props["strategy"]["enum"] and recall_props["query"]["description"]
    assert tools["store"].input_schema["properties"]["type"]["enum"] == ["episodic", "semantic", "procedural"]
    assert tools["recall"].input_schema["required"] == ["query"]

    assert out["stored"] == {"id": 1, "deduplicated": False, "supersedes": []}
    assert out["stored2"] == {"id": 2, "deduplicated": False, "supersedes": [],
                              "links": [{"target_id": 1, "edge_type": "causal", "weight": 0.8}]}
    assert out["again"]["id"] == 1 and out["again"]["deduplicated"] is True
    hit = out["recall"]["results"]
    assert [r["id"] for r in hit] == [1] and hit[0]["tags"] == ["people"] and hit[0]["source"] == "agent"
    assert "explain" in hit[0]
    assert out["filtered"]["count"] == 0
    assert out["get"]["content"] == "Flew to Rome" and out["get"]["event_at"].startswith("2024-05-02")
    assert out["forget"] == {"id": 2, "status": "deleted"}
    assert out["stats"]["memories"] == 2 and out["stats"]["path"] == str(db)
    new_id = out["update"]["id"]
    assert [r["id"] for r in out["current"]["results"]][:1] == [new_id]
    assert 1 not in [r["id"] for r in out["current"]["results"]]
    assert {new_id, 1} <= {r["id"] for r in out["history"]["results"]}
    assert out["pin"]["id"] == new_id
    assert {"update", "pin", "unpin"} <= set(tools)
    assert out["not_found"] == {"code": "not_found", "message": f"no memory with id 99 in {db} (another store? --db or MEM_DB names it)", "exit_code": 3}
    assert out["bad_k"]["code"] == "usage" and "k" in out["bad_k"]["message"]  # the SDK's schema check
    assert out["bad_strategy"]["code"] == "usage" and out["bad_strategy"]["exit_code"] == 2  # the CLI's
    assert out["bad_date"]["code"] == "invalid_input" and out["bad_date"]["exit_code"] == 1
    assert out["missing_target"]["code"] == "not_found"


def test_a_one_shot_cli_call_is_handed_to_the_mcp_server(tmp_path: Path, runtime_dir: Path) -> None:
    db = tmp_path / "m.db"
    poison = tmp_path / "poison" / "click"
    poison.mkdir(parents=True)
    (poison / "__init__.py").write_text("raise ImportError('in-process CLI used')\n")

    async def steps(c: Any) -> tuple[dict, subprocess.CompletedProcess[str]]:
        stored = _data(await c.call_tool("store", {"content": "The deploy freeze starts on Friday"}))
        env = {**os.environ, "MEM_DB": str(db), "XDG_RUNTIME_DIR": str(runtime_dir), "PYTHONPATH": str(poison.parent)}
        env.pop("MEM_NO_SERVER", None)
        res = await anyio.to_thread.run_sync(lambda: subprocess.run(
            [sys.executable, str(ROOT / "mem.py"), "recall", "deploy freeze", "--no-touch"], env=env,
            capture_output=True, text=True, timeout=120, cwd=ROOT))
        return stored, res

    stored, res = _session(db, runtime_dir, steps)
    assert res.returncode == 0, res.stderr
    assert [r["id"] for r in json.loads(res.stdout)["data"]["results"]] == [stored["id"]]


def _cli_json(db: Path, runtime: Path, *args: str) -> dict:
    """`mem.py --db DB <args> --json` in its own process, never handed to the running server."""
    env = {**os.environ, "XDG_RUNTIME_DIR": str(runtime), "MEM_NO_SERVER": "1"}
    env.pop("MEM_DB", None)
    res = subprocess.run([sys.executable, str(ROOT / "mem.py"), "--db", str(db), *args, "--json"], env=env,
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    return json.loads(res.stdout)


LEAN = ["id", "content", "memory_type", "score", "weak", "source", "importance", "event_at", "tags"]


def test_recall_results_are_lean_by_default_and_the_cli_s_with_full(tmp_path: Path, runtime_dir: Path) -> None:
    """The recall tool calls the engine directly: with ``full`` its data is exactly the CLI's
    (same ranking, scores, every column); by default each result keeps the fields an agent reads."""
    db = tmp_path / "m.db"
    seen: dict[str, Any] = {}

    async def steps(c: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for args in ({"content": "Oscar prefers morning meetings", "tags": ["people", "oscar"], "importance": 0.8},
                     {"content": "Oscar said the deploy freeze starts Friday", "type": "episodic", "author": "Oscar",
                      "thread": "standup", "at": "2024-05-02", "pin": True},
                     {"content": "Meetings with Oscar run long", "author": "Ana"}):
            _data(await c.call_tool("store", args))
        query = {"query": "Oscar meetings", "k": 3}

        def cli(*extra: str) -> dict:
            return _cli_json(db, runtime_dir, "recall", "Oscar meetings", "-k", "3", "--no-touch", *extra)

        # the CLI never touches; each MCP recall reinforces what it returns, after reading it, so the
        # CLI's answer is taken just before each MCP call (the same state)
        seen["cli"] = await anyio.to_thread.run_sync(cli)
        out["full"] = _data(await c.call_tool("recall", {**query, "full": True}))
        seen["cli_after"] = await anyio.to_thread.run_sync(cli)
        out["lean"] = _data(await c.call_tool("recall", query))
        seen["cli_explain"] = await anyio.to_thread.run_sync(lambda: cli("--explain"))
        out["explain"] = _data(await c.call_tool("recall", {**query, "explain": True}))
        out["dash"] = _data(await c.call_tool("recall", {"query": "--help -k"}))  # not parsed as options
        out["bad_strategy"] = _error(await c.call_tool("recall", {"query": "x", "strategy": "nope"}))
        out["bad_type"] = _error(await c.call_tool("recall", {"query": "x", "types": ["nope"]}))
        out["bad_since"] = _error(await c.call_tool("recall", {"query": "x", "since": "the day after never"}))
        out["blank"] = _error(await c.call_tool("recall", {"query": "   "}))
        return out

    out = _session(db, runtime_dir, steps)
    cli, cli_after = seen["cli"], seen["cli_after"]
    assert cli["ok"] and out["full"] == cli["data"]
    assert sorted(r["id"] for r in cli["data"]["results"]) == [1, 2, 3]
    assert out["explain"] == seen["cli_explain"]["data"] and "explain" in out["explain"]["results"][0]

    # lean: the same results in the same order, the agent's fields only
    full = {r["id"]: r for r in cli_after["data"]["results"]}
    lean = {r["id"]: r for r in out["lean"]["results"]}
    assert [r["id"] for r in out["lean"]["results"]] == [r["id"] for r in cli_after["data"]["results"]]
    assert {k: v for k, v in out["lean"].items() if k != "results"} == \
        {k: v for k, v in cli_after["data"].items() if k != "results"}
    assert list(lean[1]) == LEAN and lean[1]["tags"] == ["people", "oscar"] and lean[1]["importance"] == 0.8
    assert list(lean[2]) == [*LEAN, "author", "thread", "pinned"]
    assert (lean[2]["author"], lean[2]["thread"], lean[2]["pinned"]) == ("Oscar", "standup", 1)
    assert lean[2]["event_at"].startswith("2024-05-02")
    assert list(lean[3]) == [*LEAN, "author"]
    for mid, r in lean.items():
        assert r == {k: full[mid][k] for k in r}

    assert out["dash"]["query"] == "--help -k"
    cli_errors = {name: _cli_json(db, runtime_dir, "recall", *args)["error"] for name, args in (
        ("bad_strategy", ["x", "--strategy", "nope"]), ("bad_type", ["x", "--type", "nope"]),
        ("bad_since", ["x", "--since", "the day after never"]), ("blank", ["   "]))}
    assert out["bad_strategy"] == {**cli_errors["bad_strategy"], "exit_code": 2}
    assert out["bad_type"] == {**cli_errors["bad_type"], "exit_code": 2}
    assert out["bad_since"] == {**cli_errors["bad_since"], "exit_code": 1}
    assert out["blank"] == {**cli_errors["blank"], "exit_code": 1}



def test_the_loop_reads_stdio_itself_only_from_what_it_can_watch(tmp_path: Path) -> None:
    """Pipes, sockets and terminals are read and written by the event loop; a regular file (which
    an event loop cannot watch: stdin redirected from a file) goes through the SDK's own transport."""
    import socket

    from memengine.mcp_server import _pipe_like

    r, w = os.pipe()
    a, b = socket.socketpair()
    with (tmp_path / "requests.jsonl").open("wb") as f:
        try:
            assert _pipe_like(r) and _pipe_like(w) and _pipe_like(a.fileno())
            assert not _pipe_like(f.fileno())
            os.close(r)
            assert not _pipe_like(r)  # closed: not served by the loop either
        finally:
            os.close(w)
            a.close()
            b.close()
