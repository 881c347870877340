"""`mem mcp` on the SDK's low-level ``Server``: the tools an agent sees and what a call does are those of
the SDK's ``MCPServer`` given the same typed functions (its schema derivation, argument validation and
JSON-text arguments), driven in-process by the SDK's own client against both."""

from __future__ import annotations

import inspect
import json
import threading
from typing import Any

import pytest

pytest.importorskip("mcp")
import anyio  # noqa: E402
from mcp import Client  # noqa: E402
from mcp.server.mcpserver import MCPServer  # noqa: E402
from mcp.types import CallToolResult, TextContent  # noqa: E402

from memengine import mcp_server  # noqa: E402

CHOICES = {"memory_types": ["episodic", "semantic", "procedural"], "strategies": ["hybrid", "keyword", "vector"],
           "edge_types": ["explicit", "causal"]}
RESULTS = [{"id": 7, "content": "Oscar prefers morning meetings", "memory_type": "semantic", "score": 1.25,
            "weak": False, "source": "agent", "importance": 0.8, "event_at": None, "tags": ["people"],
            "author": None, "thread": None, "status": "active", "pinned": 0, "access_count": 3}]


class Engine:
    """A stand-in for the CLI's in-process call: records what each tool asked for, answers an envelope."""

    def __init__(self) -> None:
        self.calls: list[Any] = []

    def call(self, argv: list[str], stdin: bytes | None) -> tuple[int, str, str]:
        self.calls.append((argv, stdin))
        if argv[1:2] == ["get"] and argv[2] == "99":
            return 3, json.dumps({"ok": False, "error": {"code": "not_found", "message": "no memory with id 99"}}), ""
        return 0, json.dumps({"ok": True, "data": {"id": 1, "argv": argv}, "warnings": ["w"]}), ""

    def direct(self, command: str, args: dict[str, Any], defer: bool) -> tuple[int, dict[str, Any]]:
        self.calls.append((command, args))
        return 0, {"ok": True, "data": {"query": args["query"], "count": 1, "results": [dict(r) for r in RESULTS]}}


def _sdk_server(engine: Engine) -> MCPServer:
    """The same tool functions registered in the SDK's MCPServer (each returning the model of its result)."""
    server = MCPServer("mem", instructions=mcp_server.INSTRUCTIONS, version="0.1.0")
    for fn, ann in mcp_server.tool_functions(engine.call, CHOICES, True, engine.direct, threading.RLock(), {}):
        async def wrapper(_fn: Any = fn, **kw: Any) -> CallToolResult:
            return CallToolResult.model_validate(await _fn(**kw))
        sdk_fn: Any = wrapper
        sdk_fn.__signature__ = inspect.signature(fn).replace(return_annotation=CallToolResult)
        sdk_fn.__name__, sdk_fn.__doc__ = fn.__name__, fn.__doc__
        server.add_tool(sdk_fn, annotations=ann)
    return server


CALLS: list[tuple[str, dict[str, Any]]] = [
    ("store", {"content": "Oscar prefers morning meetings", "importance": 0.8, "tags": ["people"], "link": [1, 2]}),
    ("store", {"content": "x", "tags": '["a", "b"]', "link": "[3]"}),  # lists sent as JSON text (some hosts do)
    ("recall", {"query": "Oscar", "k": 3, "types": ["semantic"], "since": "2024-01-01"}),
    ("recall", {"query": "Oscar", "full": True}),
    ("recall", {"query": "[1]"}),  # JSON text in a text argument stays text
    ("get", {"id": 99}),
    ("stats", {"unknown": 1}),  # arguments the tool does not have are ignored
    ("brief", {}),
    ("link", {"source_id": 1, "target_id": 2, "type": "causal"}),
]
BAD: list[tuple[str, dict[str, Any], str]] = [
    ("recall", {"query": "x", "k": 0}, "k"), ("recall", {"k": 3}, "query"), ("store", {"content": ""}, "content"),
    ("get", {"id": "seven"}, "id"), ("nope", {}, "nope"),
]


def _drive(server: Any) -> tuple[list[Any], list[dict[str, Any]], list[Any]]:
    async def main() -> tuple[list[Any], list[dict[str, Any]], list[Any]]:
        async with Client(server) as client:
            tools = [t.model_dump(by_alias=True, mode="json", exclude_none=True) for t in (await client.list_tools()).tools]
            # the same capabilities; prompts and resources listed, empty
            tools.append(client.server_capabilities.model_dump(exclude_none=True))
            tools.append([(await client.list_prompts()).prompts, (await client.list_resources()).resources,
                          (await client.list_resource_templates()).resource_templates])
            results = [(await client.call_tool(name, args)).model_dump() for name, args in CALLS]
            bad = [await client.call_tool(name, args) for name, args, _ in BAD]
        return tools, results, bad

    return anyio.run(main)


def test_the_low_level_server_lists_and_calls_the_tools_as_mcp_server_does() -> None:
    ours, sdk = Engine(), Engine()
    tools, results, bad = _drive(mcp_server.build_server(ours.call, CHOICES, True, ours.direct, threading.RLock(), {}))
    sdk_tools, sdk_results, _ = _drive(_sdk_server(sdk))
    # prompts and resources listed empty, capabilities as MCPServer gives them over stdio (in-process, the
    # SDK's client connects an MCPServer with list_changed/subscribe on: not compared)
    assert tools.pop() == [[], [], []] and sdk_tools.pop() == [[], [], []]
    assert tools.pop() == {"prompts": {"list_changed": False}, "resources": {"subscribe": False, "list_changed": False},
                           "tools": {"list_changed": False}}
    sdk_tools.pop()
    assert [t["name"] for t in tools] == ["store", "recall", "get", "forget", "restore", "brief", "surface", "link",
                                          "stats", "update", "pin", "unpin"]
    assert tools == sdk_tools  # names, descriptions, input schemas, annotations: the SDK's derivation
    assert results == sdk_results  # the same wire results
    assert ours.calls == sdk.calls  # and the engine asked the same things
    assert ours.calls[1] == (["--json", "store", "-", "--type", "semantic", "--importance", "0.5", "--source", "agent",
                              "--tag", "a", "--tag", "b", "--link", "3", "--link-type", "explicit"], b"x")
    assert ours.calls[4][1]["query"] == "[1]"
    assert results[5]["is_error"] is True and results[5]["structured_content"] == {
        "error": {"code": "not_found", "message": "no memory with id 99", "exit_code": 3}}
    lean = results[2]["structured_content"]["results"][0]
    assert "access_count" not in lean and lean["tags"] == ["people"]
    assert results[3]["structured_content"]["results"] == RESULTS  # full: every field
    for (name, _args, field), res in zip(BAD, bad):
        assert res.is_error is True, name
        error = res.structured_content["error"]
        assert json.loads(res.content[0].text) == error and isinstance(res.content[0], TextContent)
        assert error["code"] == "usage" and error["exit_code"] == 2 and field in error["message"], (name, error)


def test_a_result_is_the_sdk_s_dump_of_its_model() -> None:
    """The wire dict a tool returns is what ``CallToolResult.model_dump`` gives for the same result."""
    for structured, error in (({"a": [1, "é"]}, False), ({"error": {"code": "usage", "message": "m"}}, True)):
        text = structured["error"] if error else structured
        model = CallToolResult(content=[TextContent(type="text", text=json.dumps(text, ensure_ascii=False))],
                               structured_content=structured, is_error=error)
        got = mcp_server._error_result(structured["error"]) if error else mcp_server._tool_result(0, {
            "ok": True, "data": structured})
        assert got == model.model_dump(by_alias=True, mode="json", exclude_none=True)
