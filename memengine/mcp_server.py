"""`mem mcp`: the memory as MCP tools (stdio), on the official `mcp` Python SDK.

Each tool is a typed function whose JSON schema (types, ranges, enums, descriptions) the SDK
derives and publishes; its arguments become a CLI call that runs in-process on the store the
server opened and warmed once (``call``, given by the CLI), so a tool returns exactly what
``mem <command> --json`` returns in ``data``, and fails with the CLI's error ``code``
(``not_found``, ``invalid_input``, ``usage``, ``busy`` ...) in an MCP tool error.

Imported only by the ``mcp`` command: no other command pays for the SDK.
"""

# No `from __future__ import annotations`: the SDK reads the annotations (with the enums
# built from ``choices``) at definition time.

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

# call(argv, stdin) -> (exit code, stdout, stderr) of `mem --db FILE <argv>`, in-process, warm
Call = Callable[[list[str], bytes | None], tuple[int, str, str]]

INSTRUCTIONS = """Long-term memory that survives sessions (one local SQLite file).
Store a fact, procedure or event right after you learn it (store); recall before you answer
about a person, system, error or past event (recall); start a session with brief. A recall
result with "weak": true matched the query poorly: treat it as "nothing relevant found".
Errors carry a code: not_found, invalid_input, usage, busy (retry), model_mismatch, locked."""


def _enum(values: Sequence[str], description: str) -> Any:
    return Field(description=description, json_schema_extra={"enum": list(values)})


def _error_result(error: dict[str, Any]) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=json.dumps(error, ensure_ascii=False))],
                          structured_content={"error": error}, is_error=True)


async def _coded_errors(ctx: Any, call_next: Any) -> Any:
    """Middleware: a tool error raised by the SDK itself (arguments that fail the schema, an
    unknown tool) gets the code the CLI gives the same mistake, ``usage`` (exit 2)."""
    result = await call_next(ctx)
    if getattr(ctx, "method", None) != "tools/call" or result is None:
        return result
    parsed = CallToolResult.model_validate(result) if isinstance(result, dict) else result
    if isinstance(parsed, CallToolResult) and parsed.is_error and parsed.structured_content is None:
        text = " ".join(c.text for c in parsed.content if isinstance(c, TextContent))
        return _error_result({"code": "usage", "message": " ".join(text.split()), "exit_code": 2})
    return result


def build_server(call: Call, choices: Mapping[str, Sequence[str]], update_tools: bool = False) -> MCPServer:
    """The MCP server whose tools run ``call``.

    ``choices`` holds the engine's enums (``memory_types``, ``strategies``, ``edge_types``);
    ``update_tools`` adds update/pin/unpin (when the CLI has them).
    """
    server = MCPServer("mem", instructions=INSTRUCTIONS, version="0.1.0", middleware=[_coded_errors],
                       log_level="WARNING")
    types_, strategies, edges = choices["memory_types"], choices["strategies"], choices["edge_types"]
    read_only = ToolAnnotations(read_only_hint=True, open_world_hint=False)
    writes = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)

    def run(argv: list[str], stdin: str | None = None) -> CallToolResult:
        code, out, err = call(["--json", *argv], None if stdin is None else stdin.encode("utf-8", "surrogatepass"))
        try:
            envelope = json.loads(out.strip().splitlines()[-1])
        except (IndexError, ValueError):
            envelope = {"ok": False, "error": {"code": "error", "message": (err or out).strip() or f"exit {code}"}}
        if not envelope.get("ok"):
            error = envelope.get("error") or {"code": "error", "message": f"exit {code}"}
            return _error_result({**error, "exit_code": code})
        data = envelope.get("data")
        structured = data if isinstance(data, dict) else {"result": data}
        if envelope.get("warnings"):
            structured = {**structured, "warnings": envelope["warnings"]}
        return CallToolResult(content=[TextContent(type="text", text=json.dumps(structured, ensure_ascii=False))],
                              structured_content=structured)

    @server.tool(annotations=writes)
    def store(
        content: Annotated[str, Field(description="The memory, as a self-contained sentence or text.", min_length=1)],
        type: Annotated[str, _enum(types_, "episodic = an event, semantic = a fact, procedural = how to do something.")] = "semantic",
        importance: Annotated[float, Field(ge=0, le=1, description="0.9+ must never be forgotten; 0.5 default; 0.2 trivia.")] = 0.5,
        tags: Annotated[list[str], Field(description="Tags to filter by later.")] = [],  # noqa: B006 - never mutated
        at: Annotated[str | None, Field(description="When it happened: ISO date or phrase ('yesterday 3pm', 'last Friday').")] = None,
        thread: Annotated[str | None, Field(description="Conversation id this memory belongs to.")] = None,
        author: Annotated[str | None, Field(description="Who said or wrote it.")] = None,
        source: Annotated[str, Field(description="Who or what this came from.")] = "agent",
        link: Annotated[list[int], Field(description="Ids of memories to link the new one to.")] = [],  # noqa: B006
        link_type: Annotated[str, _enum(edges, "Edge type of `link` (causal: the new memory caused or explains the other).")] = "explicit",
        pin: Annotated[bool, Field(description="Never archive this memory.")] = False,
    ) -> CallToolResult:
        """Store a memory. Storing the same fact twice is safe: the existing id comes back with deduplicated: true."""
        argv = ["store", "-", "--type", type, "--importance", str(importance), "--source", source]
        for t in tags:
            argv += ["--tag", t]
        for name, value in (("--at", at), ("--thread", thread), ("--author", author)):
            if value is not None:
                argv += [name, value]
        for target in link:
            argv += ["--link", str(target)]
        if link:
            argv += ["--link-type", link_type]
        if pin:
            argv.append("--pin")
        return run(argv, content)

    @server.tool(annotations=read_only)
    def recall(
        query: Annotated[str, Field(description="What you want to remember, in natural language or keywords.", min_length=1)],
        k: Annotated[int, Field(ge=1, le=1000, description="How many results.")] = 10,
        strategy: Annotated[str, _enum(strategies, "hybrid (default); keyword for exact identifiers; graph / activation "
                                       "also follow links between memories.")] = "hybrid",
        types: Annotated[list[str], Field(description=f"Only these types ({', '.join(types_)}).")] = [],  # noqa: B006
        tags: Annotated[list[str], Field(description="Only memories with these tags.")] = [],  # noqa: B006
        sources: Annotated[list[str], Field(description="Only memories from these sources.")] = [],  # noqa: B006
        since: Annotated[str | None, Field(description="Only memories that happened at or after this date (ISO or phrase).")] = None,
        until: Annotated[str | None, Field(description="Only memories that happened at or before this date.")] = None,
        explain: Annotated[bool, Field(description="Attach each result's signals (keyword rank, cosine, priors).")] = False,
        context: Annotated[bool, Field(description="Attach each result's cluster, episode, siblings and links.")] = False,
        include_archived: Annotated[bool, Field(description="Also search archived and superseded memories.")] = False,
        history: Annotated[bool, Field(description="Also superseded versions of facts, each after what replaced it.")] = False,
        as_of: Annotated[str | None, Field(description="Answer with what was true at this date.")] = None,
    ) -> CallToolResult:
        """Recall the memories most relevant to a query, best first. Each result has id, content, memory_type,
        score, event_at, tags; weak: true marks a result that matches the query poorly (nothing relevant)."""
        argv = ["recall", query, "-k", str(k), "--strategy", strategy]
        for flag, values in (("--type", types), ("--tag", tags), ("--source", sources)):
            for v in values:
                argv += [flag, v]
        for name, value in (("--since", since), ("--until", until), ("--as-of", as_of)):
            if value is not None:
                argv += [name, value]
        for flag, on in (("--explain", explain), ("--context", context), ("--include-archived", include_archived),
                         ("--history", history)):
            if on:
                argv.append(flag)
        return run(argv)

    @server.tool(annotations=read_only)
    def get(id: Annotated[int, Field(description="The memory id.")]) -> CallToolResult:
        """One memory by id, with all its fields."""
        return run(["get", str(id)])

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True))
    def forget(id: Annotated[int, Field(description="The memory id.")]) -> CallToolResult:
        """Forget a wrong or outdated memory (soft delete: kept in the file, undone by restore)."""
        return run(["forget", str(id)])

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True))
    def restore(id: Annotated[int, Field(description="The memory id.")]) -> CallToolResult:
        """Restore a forgotten or archived memory."""
        return run(["restore", str(id)])

    @server.tool(annotations=read_only)
    def brief(budget: Annotated[int, Field(ge=1, le=1_000_000, description="Tokens at most.")] = 2000) -> CallToolResult:
        """Session-start briefing within the budget: key facts, procedures, recent changes, open contradictions,
        people, then per topic (T12) its most informative memories (#123); the same as MEMORY.md's block."""
        return run(["brief", "--budget", str(budget)])

    @server.tool(annotations=read_only)
    def surface(
        utterance: Annotated[str, Field(description="What the user just said.", min_length=1)],
        k: Annotated[int, Field(ge=1, le=100, description="How many memories at most.")] = 5,
    ) -> CallToolResult:
        """Related memories the utterance does not already state: something useful to bring up unprompted."""
        return run(["surface", utterance, "-k", str(k)])

    @server.tool(annotations=writes)
    def link(
        source_id: Annotated[int, Field(description="The memory the edge starts from (e.g. the cause).")],
        target_id: Annotated[int, Field(description="The memory it points to.")],
        type: Annotated[str, _enum(edges, "causal: source caused or explains target; explicit: any other relation.")] = "explicit",
        weight: Annotated[float, Field(ge=0, le=1, description="Strength of the relation.")] = 0.8,
    ) -> CallToolResult:
        """Link two memories that belong together; graph and activation recall then follow the link."""
        return run(["link", str(source_id), str(target_id), "--type", type, "--weight", str(weight)])

    @server.tool(annotations=read_only)
    def stats() -> CallToolResult:
        """Counts by status and type, vectors, links, clusters, file size, embedding model."""
        return run(["stats"])

    if update_tools:
        @server.tool(annotations=writes)
        def update(
            id: Annotated[int, Field(description="The memory whose fact changed.")],
            content: Annotated[str, Field(description="The new version of the fact.", min_length=1)],
            at: Annotated[str | None, Field(description="When the new version became true (default: now).")] = None,
        ) -> CallToolResult:
            """Correct a memory: the new version replaces it in recall; the old one stays as history."""
            return run(["update", str(id), "-", *(["--at", at] if at is not None else [])], content)

        @server.tool(annotations=writes)
        def pin(id: Annotated[int, Field(description="The memory id.")]) -> CallToolResult:
            """Pin a memory: never archived, always in the brief."""
            return run(["pin", str(id)])

        @server.tool(annotations=writes)
        def unpin(id: Annotated[int, Field(description="The memory id.")]) -> CallToolResult:
            """Unpin a memory."""
            return run(["unpin", str(id)])

    return server


def run_stdio(call: Call, choices: Mapping[str, Sequence[str]], update_tools: bool = False) -> None:
    """Serve MCP on stdin/stdout until the client closes it."""
    build_server(call, choices, update_tools).run("stdio")
