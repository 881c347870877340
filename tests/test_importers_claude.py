"""Claude.ai parser: out-of-order messages, empty conversations, attachments, content[]."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pytest

from importers import ImportFormatError, ImportReport, claude

FIX = Path(__file__).parent / "fixtures" / "claude" / "conversations.json"


def test_sorted_messages_attachments_and_empty() -> None:
    rep = ImportReport(str(FIX), "claude")
    recs = list(claude.parse(FIX, rep))
    assert [r.content for r in recs] == [
        "User: Here is my plan\n\n[attachment: plan.txt]\nrows of kale",  # its text searchable
        "User: How often should I water tomatoes?",
        "Assistant: Water them weekly.",
    ]
    assert [r.ref for r in recs] == ["claude:c-1:m1", "claude:c-1:m2", "claude:c-1:m3"]
    assert recs[0].event_at == datetime(2024, 5, 1, 9, 59, 0, 500000, tzinfo=timezone.utc)
    assert recs[0].metadata["attachments"][0]["excerpt"] == "rows of kale"
    assert recs[0].metadata["title"] == "Garden"
    assert [r.position for r in recs] == [0, 1, 2]
    assert rep.variant["empty_conversations"] == 1
    assert rep.variant["conversations"] == 2
    assert (rep.messages_seen, rep.skipped_media, rep.skipped_empty) == (4, 1, 1)


def _write(tmp_path: Path, data: object) -> Path:
    p = tmp_path / "conversations.json"
    p.write_text(json.dumps(data), encoding="utf-8")
    return p


TOOL_CONV = {"uuid": "c-t", "name": "Search", "created_at": "2024-05-03T10:00:00Z", "chat_messages": [
    {"uuid": "t1", "sender": "human", "text": "Find the ferry times", "created_at": "2024-05-03T10:00:00Z"},
    {"uuid": "t2", "sender": "assistant", "created_at": "2024-05-03T10:00:05Z", "content": [
        {"type": "text", "text": "Searching."},
        {"type": "tool_use", "name": "web_search", "input": {"query": "ferry"}},
        {"type": "tool_result", "name": "web_search", "content": [{"type": "text", "text": "Ferry at 9:00 and 17:00"}]},
        {"type": "text", "text": "Ferries leave at 9:00 and 17:00."}]},
]}


def test_tool_blocks_left_out_by_default_and_kept_on_request(tmp_path: Path) -> None:
    p = _write(tmp_path, [TOOL_CONV])
    rep = ImportReport(str(p), "claude")
    assert [r.content for r in claude.parse(p, rep)] == [
        "User: Find the ferry times", "Assistant: Searching.\n\nFerries leave at 9:00 and 17:00."]
    assert rep.skipped_tool == 2
    rep = ImportReport(str(p), "claude")
    assert [r.content for r in claude.parse(p, rep, include_tools=True)][1] == (
        "Assistant: Searching.\n\nFerry at 9:00 and 17:00\n\nFerries leave at 9:00 and 17:00.")
    assert rep.skipped_tool == 0


def test_malformed_conversation_skipped_and_named(tmp_path: Path) -> None:
    p = _write(tmp_path, [{"name": "No id", "chat_messages": []}, {"uuid": "c-x", "name": "No messages"},
                          {"uuid": "c-y", "name": "Odd", "chat_messages": [{"sender": "human", "text": "x", "files": 5,
                                                                            "created_at": 5}]}, TOOL_CONV])
    rep = ImportReport(str(p), "claude")
    assert [r.ref for r in claude.parse(p, rep)] == ["claude:c-t:t1", "claude:c-t:t2"]
    assert rep.skipped_malformed == 3
    assert rep.warnings[:2] == [f"{p}: conversation 'No id' (no id) skipped: no 'uuid'",
                                f"{p}: conversation 'No messages' (id c-x) skipped: no 'chat_messages' list"]
    assert rep.warnings[2].startswith(f"{p}: conversation 'Odd' (id c-y) skipped: unexpected shape (")


@pytest.mark.parametrize("data", [[], {}, {"conversations": []}, [{"title": "a ChatGPT one", "mapping": {}}]])
def test_wrong_shape_is_an_error(data: object, tmp_path: Path) -> None:
    p = _write(tmp_path, data)
    with pytest.raises(ImportFormatError, match="no Claude conversation found"):
        list(claude.parse(p, ImportReport(str(p), "claude")))
