"""`mem mcp` driven by the MCP SDK's own stdio client, in a subprocess: tools, store, recall, coded errors.

Also: a one-shot CLI call for the same file is handed to the MCP server's socket.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")
import anyio  # noqa: E402
from mcp import Client, StdioServerParameters  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def runtime_dir() -> Iterator[Path]:
    d = Path(tempfile.mkdtemp(prefix="mem-rt-", dir="/tmp"))  # a Unix socket path must stay short
    yield d
    shutil.rmtree(d, ignore_errors=True)


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
    assert out["not_found"] == {"code": "not_found", "message": "no memory with id 99", "exit_code": 3}
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
