"""users35 #2 through MCP: the ``recall`` tool takes ``authors`` as the CLI's ``--author`` (an agent host that runs
``mem mcp`` asks "what did Ana say about the cabin?" the same way). Driven by the MCP SDK's stdio client."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")
from conftest import run_cli_subprocess  # noqa: E402
from test_mcp import _data, _session  # noqa: E402

CHAT = """12/03/2023, 09:14 - Ana Souza: Morning! Did you book the cabin for the lake trip?
12/03/2023, 09:16 - Me: Not yet, the cabin site was down
12/03/2023, 09:20 - Ana Souza: My sister Leila says the Pinewood cabin has a sauna
12/03/2023, 10:02 - Ben Okafor: I can drive to the cabin, my van fits six
"""


def test_recall_tool_filters_by_author(tmp_path: Path, runtime_dir: Path) -> None:
    chat = tmp_path / "WhatsApp Chat with Ana.txt"
    chat.write_text(CHAT, encoding="utf-8")
    db = tmp_path / "m.db"
    proc = run_cli_subprocess("--db", str(db), "--json", "import", str(chat), env={"MEM_EMBEDDER": "hash"})
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["data"]["memories_added"] == 4

    async def steps(c: Any) -> dict[str, Any]:
        tools = {t.name: t for t in (await c.list_tools()).tools}
        return {"schema": tools["recall"].input_schema["properties"]["authors"],
                "ana": _data(await c.call_tool("recall", {"query": "cabin", "authors": ["Ana"]})),
                "ben": _data(await c.call_tool("recall", {"query": "cabin", "authors": ["ben okafor"],
                                                          "strategy": "keyword"})),
                "all": _data(await c.call_tool("recall", {"query": "cabin"}))}

    out = _session(db, runtime_dir, steps)
    assert out["schema"]["type"] == "array"
    assert sorted(r["content"] for r in out["ana"]["results"]) == [
        "Ana Souza: Morning! Did you book the cabin for the lake trip?",
        "Ana Souza: My sister Leila says the Pinewood cabin has a sauna"]
    assert [r["content"] for r in out["ben"]["results"]] == ["Ben Okafor: I can drive to the cabin, my van fits six"]
    assert out["all"]["count"] == 4
