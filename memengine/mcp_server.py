"""`mem mcp`: the memory as MCP tools (stdio), on the official `mcp` Python SDK.

Each tool is a typed function whose JSON schema (types, ranges, enums, descriptions) is derived
from its signature by pydantic exactly as the SDK's ``MCPServer`` derives it (tested: the same tool
list), and published by the SDK's low-level ``Server``; its arguments become a CLI call that runs
in-process on the store the server opened and warmed once (``call``, given by the CLI), so a tool
returns exactly what ``mem <command> --json`` returns in ``data``, and fails with the CLI's error
``code`` (``not_found``, ``invalid_input``, ``usage``, ``busy`` ...) in an MCP tool error.

A recall costs the engine plus little: the ``recall`` tool calls the engine directly
(``direct``: no CLI parser, no JSON round trip), runs on the event loop's thread when the
store is free (no hop to a worker thread and back), returns lean results by default (the
fields an agent reads; ``full`` gives every column) and serialises them once. The low-level
``Server`` (public API) instead of ``MCPServer``: the tool list is built once, a call's arguments
are validated once (by the tool's argument model), and the result goes out as the wire's dict;
no per-call context object, tool manager, request-state middleware or tracing span
(``bench/agent_latency.py``; bench/README.md "round 4").

Imported only by the ``mcp`` command: no other command pays for the SDK.
"""

# No `from __future__ import annotations`: the argument models read the annotations (with the
# enums built from ``choices``) at definition time.

import asyncio
import inspect
import json
import logging
import os
import stat
import typing
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Annotated, Any, TypeVar

import anyio
import anyio.to_thread
import pydantic
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.types import (
    CallToolRequestParams,
    ListPromptsResult,
    ListResourcesResult,
    ListResourceTemplatesResult,
    ListToolsResult,
    PaginatedRequestParams,
    Tool,
    ToolAnnotations,
)
from pydantic import Field

# call(argv, stdin) -> (exit code, stdout, stderr) of `mem --db FILE <argv>`, in-process, warm
Call = Callable[[list[str], bytes | None], tuple[int, str, str]]
# direct(command, arguments, defer) -> (exit code, the envelope `--json` prints): the same call without
# the CLI's parser (arguments are the command function's keyword arguments); defer: the server runs
# after_reply() once the reply is out (a recall's reinforcement then; see memengine/serving.py)
Direct = Callable[[str, dict[str, Any], bool], tuple[int, dict[str, Any]]]
T = TypeVar("T")
# a tool's result in its wire form (``CallToolResult``'s JSON: content, structuredContent, isError)
Result = dict[str, Any]
ToolFn = Callable[..., Awaitable[Result]]

# A recall result's fields by default (``full`` or ``explain``: every column, as `mem recall --json`).
LEAN_FIELDS = ("id", "content", "memory_type", "score", "weak", "source", "importance", "event_at", "tags")
LEAN_IF_SET = ("author", "thread", "valid_to")  # only when not null
LEAN_IF_PRESENT = ("superseded_by", "supersedes", "possibly_outdated", "possibly_outdated_by", "may_update", "shared",
                   "contradicts", "context", "explain")  # added by an option

INSTRUCTIONS = """Long-term memory that survives sessions (one local SQLite file).
Store a fact, procedure or event right after you learn it (store); recall before you answer
about a person, system, error or past event (recall); start a session with brief. A recall
result with "weak": true matched the query poorly: treat it as "nothing relevant found".
Errors carry a code: not_found, invalid_input, usage, busy (retry), model_mismatch, locked."""

log = logging.getLogger("mem.mcp")


def _enum(values: Sequence[str], description: str) -> Any:
    return Field(description=description, json_schema_extra={"enum": list(values)})


def _result(text: Any, structured: dict[str, Any], is_error: bool = False) -> Result:
    """``CallToolResult(content=[TextContent(text=<text as JSON>)], structured_content=..., is_error=...)`` as
    the SDK dumps it (the same dict, key for key), built as that dict: no model built and dumped per call."""
    return {"content": [{"type": "text", "text": json.dumps(text, ensure_ascii=False)}],
            "structuredContent": structured, "isError": is_error, "resultType": "complete"}


def _error_result(error: dict[str, Any]) -> Result:
    return _result(error, {"error": error}, is_error=True)


def _usage(message: str) -> Result:
    """A mistake in the call itself (unknown tool, arguments that fail the schema): the code the CLI
    gives the same mistake, ``usage`` (exit 2)."""
    return _error_result({"code": "usage", "message": " ".join(message.split()), "exit_code": 2})


class _Tool:
    """One tool: its entry in the tool list and the model its arguments are validated by.

    The model is the one ``MCPServer`` derives from the same signature (``{name}Arguments``, each
    parameter a field with its annotation and default; unknown arguments ignored), so the published
    schema and the validation are the SDK's.
    """

    def __init__(self, fn: ToolFn, annotations: ToolAnnotations) -> None:
        self.fn, self.name = fn, fn.__name__
        hints = typing.get_type_hints(fn, include_extras=True)
        fields: dict[str, Any] = {}
        for p in inspect.signature(fn).parameters.values():
            fields[p.name] = (hints[p.name], ... if p.default is inspect.Parameter.empty else p.default)
        self.model: type[pydantic.BaseModel] = pydantic.create_model(  # type: ignore[call-overload]
            f"{self.name}Arguments", __config__=pydantic.ConfigDict(arbitrary_types_allowed=True), **fields)
        self.entry = Tool(name=self.name, description=fn.__doc__ or "",
                          input_schema=self.model.model_json_schema(by_alias=True), annotations=annotations)
        # arguments some hosts send as JSON text ('["a", "b"]' for a list), parsed first as the SDK does
        self.json_text = {name for name, f in self.model.model_fields.items() if f.annotation is not str}

    def arguments(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """The validated keyword arguments of a call (pydantic.ValidationError if they fail the schema)."""
        given = dict(raw)
        for key, value in raw.items():
            if key in self.json_text and isinstance(value, str):
                try:
                    parsed = json.loads(value)
                except (ValueError, RecursionError):
                    continue
                if not isinstance(parsed, str | int | float):
                    given[key] = parsed
        args = self.model.model_validate(given)
        return {name: getattr(args, name) for name in self.model.model_fields}


def lean_result(r: dict[str, Any]) -> dict[str, Any]:
    """A recall result with the fields an agent reads (LEAN_FIELDS; status when not active,
    pinned when pinned, the LEAN_IF_SET ones when set, and what an option added)."""
    out = {k: r[k] for k in LEAN_FIELDS if k in r}
    for k in LEAN_IF_SET:
        if r.get(k) is not None:
            out[k] = r[k]
    if r.get("status", "active") != "active":
        out["status"] = r["status"]
    if r.get("pinned"):
        out["pinned"] = r["pinned"]
    for k in LEAN_IF_PRESENT:
        if k in r:
            out[k] = r[k]
    return out


def _tool_result(code: int, envelope: dict[str, Any]) -> Result:
    """The tool result of a CLI envelope: ``data`` (and ``warnings``) as structured content and,
    as the spec asks for clients that read only text, the same JSON in one text block."""
    if not envelope.get("ok"):
        error = envelope.get("error") or {"code": "error", "message": f"exit {code}"}
        return _error_result({**error, "exit_code": code})
    data = envelope.get("data")
    structured = data if isinstance(data, dict) else {"result": data}
    if envelope.get("warnings"):
        structured = {**structured, "warnings": envelope["warnings"]}
    return _result(structured, structured)


def tool_functions(call: Call, choices: Mapping[str, Sequence[str]], update_tools: bool = False,
                   direct: Direct | None = None, lock: Any = None,
                   defer: dict[str, bool] | None = None) -> list[tuple[ToolFn, ToolAnnotations]]:
    """The tools (typed functions, in the order listed, with their annotations) that run ``call``
    (and ``direct`` for recall, when given).

    ``defer["after_reply"]`` (set once the transport is chosen): the transport runs the server's
    ``after_reply`` once each reply is out, so ``direct`` may leave a recall's reinforcement for then.

    ``choices`` holds the engine's enums (``memory_types``, ``strategies``, ``edge_types``);
    ``update_tools`` adds update/pin/unpin (when the CLI has them). ``lock`` is the store's
    (re-entrant) lock that ``call`` and ``direct`` take: a tool runs on the event loop's thread
    when it is free, on a worker thread when another call holds it (warm-up, a socket call).
    """
    tools: list[tuple[ToolFn, ToolAnnotations]] = []

    def tool(annotations: ToolAnnotations) -> Callable[[ToolFn], ToolFn]:
        def add(fn: ToolFn) -> ToolFn:
            tools.append((fn, annotations))
            return fn
        return add

    types_, strategies, edges = choices["memory_types"], choices["strategies"], choices["edge_types"]
    read_only = ToolAnnotations(read_only_hint=True, open_world_hint=False)
    writes = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)

    async def off_loop(fn: Callable[[], T], inline: bool = True) -> T:
        # A call on a worker thread costs two thread wake-ups (there and back; ms on a busy
        # host): the store serves one call at a time anyway, so when it is free the call runs
        # here and the loop waits for it, as for a sync server. The lock is held meanwhile so
        # that a socket call cannot start under it.
        if inline and lock is not None and lock.acquire(blocking=False):
            try:
                return fn()
            finally:
                lock.release()
        return await anyio.to_thread.run_sync(fn)

    def via_cli(argv: list[str], stdin: str | None) -> tuple[int, dict[str, Any]]:
        code, out, err = call(["--json", *argv], None if stdin is None else stdin.encode("utf-8", "surrogatepass"))
        try:
            return code, json.loads(out.strip().splitlines()[-1])
        except (IndexError, ValueError):
            return code, {"ok": False, "error": {"code": "error", "message": (err or out).strip() or f"exit {code}"}}

    async def run(argv: list[str], stdin: str | None = None, inline: bool = True) -> Result:
        return _tool_result(*await off_loop(lambda: via_cli(argv, stdin), inline))

    @tool(writes)
    async def store(
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
    ) -> Result:
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
        return await run(argv, content)

    @tool(read_only)
    async def recall(
        query: Annotated[str, Field(description="What you want to remember, in natural language or keywords.", min_length=1)],
        k: Annotated[int, Field(ge=1, le=1000, description="How many results.")] = 10,
        strategy: Annotated[str, _enum(strategies, "hybrid (default); keyword for exact identifiers; graph / activation "
                                       "also follow links between memories.")] = "hybrid",
        types: Annotated[list[str], Field(description=f"Only these types ({', '.join(types_)}).")] = [],  # noqa: B006
        tags: Annotated[list[str], Field(description="Only memories with these tags.")] = [],  # noqa: B006
        sources: Annotated[list[str], Field(description="Only memories from these sources.")] = [],  # noqa: B006
        authors: Annotated[list[str], Field(description="Only memories written by these people (a chat's or mail's "
                                            "author; a first name also finds the full name).")] = [],  # noqa: B006
        since: Annotated[str | None, Field(description="Only memories that happened at or after this date (ISO or phrase).")] = None,
        until: Annotated[str | None, Field(description="Only memories that happened at or before this date.")] = None,
        explain: Annotated[bool, Field(description="Attach each result's signals (keyword rank, cosine, priors).")] = False,
        context: Annotated[bool, Field(description="Attach each result's cluster, episode, siblings and links.")] = False,
        include_archived: Annotated[bool, Field(description="Also search archived and superseded memories.")] = False,
        history: Annotated[bool, Field(description="Also superseded versions of facts, each after what replaced it.")] = False,
        as_of: Annotated[str | None, Field(description="Answer with what was true at this date.")] = None,
        full: Annotated[bool, Field(description="Every field of each result (hash, counters, timestamps, metadata), "
                                    "as the CLI's JSON; implied by explain.")] = False,
    ) -> Result:
        """Recall the memories most relevant to a query, best first. Each result has id, content, memory_type,
        score, weak, source, importance, event_at, tags (author, thread, status, valid_to when set); weak: true
        marks a result that matches the query poorly (nothing relevant)."""
        if direct is not None:
            args = {"query": query, "k": k, "strategy": strategy, "types": types, "tags": tags, "sources": sources,
                    "authors": authors, "since": since, "until": until, "explain": explain, "with_context": context,
                    "include_archived": include_archived, "history": history, "as_of": as_of}
            later = bool(defer and defer.get("after_reply"))
            code, envelope = await off_loop(lambda: direct("recall", args, later))
            if code == 0 and not (full or explain):
                envelope["data"]["results"] = [lean_result(r) for r in envelope["data"]["results"]]
            return _tool_result(code, envelope)
        argv = ["recall", query, "-k", str(k), "--strategy", strategy]
        for flag, values in (("--type", types), ("--tag", tags), ("--source", sources), ("--author", authors)):
            for v in values:
                argv += [flag, v]
        for name, value in (("--since", since), ("--until", until), ("--as-of", as_of)):
            if value is not None:
                argv += [name, value]
        for flag, on in (("--explain", explain), ("--context", context), ("--include-archived", include_archived),
                         ("--history", history)):
            if on:
                argv.append(flag)
        result = await run(argv)
        structured = result.get("structuredContent")
        if not (result.get("isError") or full or explain) and isinstance(structured, dict):
            data = {**structured, "results": [lean_result(r) for r in structured["results"]]}
            result = _tool_result(0, {"ok": True, "data": data})
        return result

    @tool(read_only)
    async def get(id: Annotated[int, Field(ge=1, description="The memory id.")]) -> Result:
        """One memory by id, with all its fields."""
        return await run(["get", str(id)])

    @tool(ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True))
    async def forget(id: Annotated[int, Field(ge=1, description="The memory id.")]) -> Result:
        """Forget a wrong or outdated memory (soft delete: kept in the file, undone by restore)."""
        return await run(["forget", str(id)])

    @tool(ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True))
    async def restore(id: Annotated[int, Field(ge=1, description="The memory id.")]) -> Result:
        """Restore a forgotten or archived memory."""
        return await run(["restore", str(id)])

    @tool(read_only)
    async def brief(budget: Annotated[int, Field(ge=1, le=1_000_000, description="Tokens at most.")] = 2000) -> Result:
        """Session-start briefing within the budget: key facts, procedures, recent changes, open contradictions,
        people, then per topic (T12) its most informative memories (#123); the same as MEMORY.md's block."""
        return await run(["brief", "--budget", str(budget)], inline=False)  # (can take a while: not on the loop)

    @tool(read_only)
    async def surface(
        utterance: Annotated[str, Field(description="What the user just said.", min_length=1)],
        k: Annotated[int, Field(ge=1, le=100, description="How many memories at most.")] = 5,
    ) -> Result:
        """Related memories the utterance does not already state: something useful to bring up unprompted."""
        return await run(["surface", utterance, "-k", str(k)], inline=False)

    @tool(writes)
    async def link(
        source_id: Annotated[int, Field(ge=1, description="The memory the edge starts from (e.g. the cause).")],
        target_id: Annotated[int, Field(ge=1, description="The memory it points to.")],
        type: Annotated[str, _enum(edges, "causal: source caused or explains target; explicit: any other relation.")] = "explicit",
        weight: Annotated[float, Field(ge=0, le=1, description="Strength of the relation.")] = 0.8,
    ) -> Result:
        """Link two memories that belong together; graph and activation recall then follow the link."""
        return await run(["link", str(source_id), str(target_id), "--type", type, "--weight", str(weight)])

    @tool(read_only)
    async def stats() -> Result:
        """Counts by status and type, vectors, links, clusters, file size, embedding model."""
        return await run(["stats"])

    if update_tools:
        @tool(writes)
        async def update(
            id: Annotated[int, Field(ge=1, description="The memory whose fact changed.")],
            content: Annotated[str, Field(description="The new version of the fact.", min_length=1)],
            at: Annotated[str | None, Field(description="When the new version became true (default: now).")] = None,
        ) -> Result:
            """Correct a memory: the new version replaces it in recall; the old one stays as history."""
            return await run(["update", str(id), "-", *(["--at", at] if at is not None else [])], content)

        @tool(writes)
        async def pin(id: Annotated[int, Field(ge=1, description="The memory id.")]) -> Result:
            """Pin a memory: never archived, always in the brief."""
            return await run(["pin", str(id)])

        @tool(writes)
        async def unpin(id: Annotated[int, Field(ge=1, description="The memory id.")]) -> Result:
            """Unpin a memory."""
            return await run(["unpin", str(id)])

    return tools


def build_server(call: Call, choices: Mapping[str, Sequence[str]], update_tools: bool = False,
                 direct: Direct | None = None, lock: Any = None, defer: dict[str, bool] | None = None) -> Server:
    """The MCP server (the SDK's low-level ``Server``) of :func:`tool_functions`' tools (same arguments).

    The tool list is built once; a call looks its tool up, validates its arguments by the tool's model
    and returns the tool's wire-form result. No tracing middleware (mem installs no OpenTelemetry
    exporter: each call would open a no-op span).
    """
    tools = {t.name: t for t in (_Tool(fn, ann) for fn, ann in tool_functions(call, choices, update_tools, direct,
                                                                              lock, defer))}
    listed = ListToolsResult(tools=[t.entry for t in tools.values()])

    async def list_tools(ctx: Any, params: PaginatedRequestParams | None) -> ListToolsResult:
        return listed

    async def call_tool(ctx: Any, params: CallToolRequestParams) -> Result:
        found = tools.get(params.name)
        if found is None:
            return _usage(f"Unknown tool: {params.name}")
        try:
            args = found.arguments(params.arguments or {})
        except pydantic.ValidationError as exc:
            return _usage(f"Error executing tool {found.name}: {exc}")
        try:
            return await found.fn(**args)
        except Exception as exc:  # (the CLI's calls return their errors: this is a bug, said as the SDK says it)
            log.exception("tool %r raised an unexpected exception", found.name)
            return _usage(f"Error executing tool {found.name}: {exc}")

    # no prompts or resources, listed empty as MCPServer did: the same capabilities, and hosts that list
    # them whatever the capabilities say get an empty list, not "method not found"
    async def no_prompts(ctx: Any, params: PaginatedRequestParams | None) -> ListPromptsResult:
        return ListPromptsResult(prompts=[])

    async def no_resources(ctx: Any, params: PaginatedRequestParams | None) -> ListResourcesResult:
        return ListResourcesResult(resources=[])

    async def no_templates(ctx: Any, params: PaginatedRequestParams | None) -> ListResourceTemplatesResult:
        return ListResourceTemplatesResult(resource_templates=[])

    server: Server = Server("mem", version="0.1.0", instructions=INSTRUCTIONS, on_list_tools=list_tools,
                            on_list_prompts=no_prompts, on_list_resources=no_resources,
                            on_list_resource_templates=no_templates)
    server.add_request_handler("tools/call", CallToolRequestParams, call_tool)
    server.middleware.clear()
    return server


class _LinesIn:
    """The client's messages, one per line, read by the event loop itself.

    (The SDK's stdio transport reads each line on a worker thread and writes and flushes each
    reply on another: three thread hand-offs per call, ~1 ms of a round trip on a busy host.)
    """

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._reader: asyncio.StreamReader | None = None

    async def open(self) -> None:
        self._reader = asyncio.StreamReader(limit=MAX_LINE)
        reader = self._reader
        await asyncio.get_running_loop().connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader),
                                                           os.fdopen(self._fd, "rb", buffering=0))

    def __aiter__(self) -> "_LinesIn":
        return self

    async def __anext__(self) -> str:
        assert self._reader is not None
        try:
            line = await self._reader.readline()
        except ValueError:  # a line over MAX_LINE: no message is that large; end the session
            raise StopAsyncIteration from None
        if not line:
            raise StopAsyncIteration
        return line.decode("utf-8", "replace")


class _LinesOut:
    """Replies written by the event loop (an asyncio pipe transport; ``drain`` waits for a slow reader),
    then ``after_reply()``: what the call left for once its reply is out."""

    def __init__(self, fd: int, after_reply: Callable[[], None] | None = None) -> None:
        self._fd = fd
        self._writer: asyncio.StreamWriter | None = None
        self._after_reply = after_reply

    async def open(self) -> None:
        from asyncio.streams import FlowControlMixin

        loop = asyncio.get_running_loop()
        transport, protocol = await loop.connect_write_pipe(FlowControlMixin, os.fdopen(self._fd, "wb", buffering=0))
        self._writer = asyncio.StreamWriter(transport, protocol, None, loop)

    async def write(self, text: str) -> None:
        assert self._writer is not None
        self._writer.write(text.encode("utf-8"))

    async def flush(self) -> None:
        assert self._writer is not None
        await self._writer.drain()
        if self._after_reply is not None:
            self._after_reply()  # (the next message waits for it, as it would wait for the store)


MAX_LINE = 256 << 20  # bytes: the longest message line read (a store's content is capped far below)


def _pipe_like(fd: int) -> bool:
    """Whether the event loop can watch ``fd`` (a pipe, socket or terminal; not a regular file)."""
    if os.name != "posix":
        return False
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISCHR(mode)


def _own_stdio() -> bool:
    """Whether the event loop serves stdio itself (else the SDK's transport does)."""
    # (a file on stdin is not watchable)
    return _pipe_like(0) and _pipe_like(1)


async def _serve_stdio(server: Server, after_reply: Callable[[], None] | None = None) -> None:
    if not _own_stdio():
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())
        return
    lines_in, lines_out = _LinesIn(os.dup(0)), _LinesOut(os.dup(1), after_reply)
    await lines_in.open()
    await lines_out.open()
    # as the SDK does: fd 0 reads nothing and fd 1 goes to stderr, so that a stray print or a
    # child process never writes into the protocol stream
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    # (stdio_server only iterates stdin's lines and calls stdout's write and flush)
    streams = stdio_server(stdin=lines_in, stdout=lines_out)  # type: ignore[arg-type]
    async with streams as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def run_stdio(call: Call, choices: Mapping[str, Sequence[str]], update_tools: bool = False,
              direct: Direct | None = None, lock: Any = None, after_reply: Callable[[], None] | None = None) -> None:
    """Serve MCP on stdin/stdout until the client closes it (``after_reply``: see :class:`_LinesOut`;
    with the SDK's own transport, which says nothing of its replies, nothing is left for later)."""
    defer = {"after_reply": False}
    server = build_server(call, choices, update_tools, direct, lock, defer)
    defer["after_reply"] = own = after_reply is not None and _own_stdio()
    anyio.run(_serve_stdio, server, after_reply if own else None)
