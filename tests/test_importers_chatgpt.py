"""ChatGPT parser: branches, hidden nodes, tool calls, thoughts, citations, null times, layouts."""

from __future__ import annotations

import json
import shutil
import zipfile
from datetime import datetime, timezone
from pathlib import Path

import pytest

from importers import ImportFormatError, ImportReport, Record, chatgpt
from importers._common import MAX_JSON_STRING_BYTES

FIX = Path(__file__).parent / "fixtures" / "chatgpt" / "conversations.json"
CI = "Custom instructions, about me: likes cats"
ACTIVE = [
    "User: Plan a trip to Porto",
    "Assistant: Porto is lovely in May.",
    "User: Actually, make it Lisbon",
    "Assistant: Lisbon it is.",
    "User: What is this?",
    "User: hello",
    "Assistant: first",
    CI,  # the custom instructions: the user's words about themselves, once, after the conversations
]


def run(path: Path, **options: object) -> tuple[list[Record], ImportReport]:
    report = ImportReport(str(path), "chatgpt")
    return list(chatgpt.parse(path, report, **options)), report


def test_active_branch_and_skips() -> None:
    recs, rep = run(FIX)
    assert [r.content for r in recs] == ACTIVE
    assert (rep.messages_seen, rep.skipped_system, rep.skipped_tool) == (12, 3, 1)  # system, thoughts,
    # tool call; the code interpreter's output ("python: 4") is not a memory by default
    assert recs[0].ref == "chatgpt:conv-1:m-u1"
    assert recs[0].thread == "conv-1"
    assert recs[0].metadata["title"] == "Trip planning"
    assert recs[0].event_at == datetime.fromtimestamp(1700000000.0, tz=timezone.utc)
    # null create_time: the time of the message before it on the path (the tool call at 1700000100),
    # not the conversation's start, so the chat never goes back in time
    assert recs[3].event_at == datetime.fromtimestamp(1700000100.0, tz=timezone.utc)
    assert recs[4].metadata["images"] == ["file-service://file-abc"]
    assert [r.position for r in recs[:5]] == [0, 1, 2, 3, 4]
    # no current_node: the leaf with the latest time would be "z", but it is its own child (cycle)
    assert recs[5].thread == "conv-2"


def test_include_tools_keeps_tool_output() -> None:
    recs, rep = run(FIX, include_tools=True)
    assert [r.content for r in recs][4] == "python: 4"
    assert (len(recs), rep.skipped_tool) == (len(ACTIVE) + 1, 0)
    assert recs[4].metadata["content_type"] == "execution_output"


def test_all_branches_marks_alt() -> None:
    recs, _ = run(FIX, all_branches=True)
    alt = [r.content for r in recs if r.metadata.get("branch") == "alt"]
    assert alt == ["Assistant: Old regenerated answer", "Assistant: latest"]


def test_active_path_cycle_safe() -> None:
    mapping = {"a": {"parent": "b", "children": ["b"]}, "b": {"parent": "a", "children": ["a"]}}
    assert chatgpt.active_path(mapping, "a") == ["b", "a"]


def _conv() -> dict[str, object]:
    return json.loads(FIX.read_text(encoding="utf-8"))[0]


def test_wrapped_single_and_split_layouts(tmp_path: Path) -> None:
    wrapped = tmp_path / "wrapped.json"
    wrapped.write_text(json.dumps({"user": {"id": 1}, "conversations": [_conv()]}), encoding="utf-8")
    single = tmp_path / "single.json"
    single.write_text(json.dumps(_conv()), encoding="utf-8")
    assert [r.content for r in run(wrapped)[0]] == [*ACTIVE[:5], CI]
    assert [r.content for r in run(single)[0]] == [*ACTIVE[:5], CI]
    split = tmp_path / "split"
    split.mkdir()
    data = json.loads(FIX.read_text(encoding="utf-8"))
    (split / "conversations-000.json").write_text(json.dumps([data[0]]), encoding="utf-8")
    (split / "conversations-001.json").write_text(json.dumps([data[1]]), encoding="utf-8")
    recs, rep = run(split)
    assert [r.content for r in recs] == ACTIVE
    assert rep.variant["layout"] == "split"


def test_export_zip(tmp_path: Path) -> None:
    z = tmp_path / "export.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.write(FIX, "conversations.json")
        zf.writestr("chat.html", "<html></html>")
    recs, rep = run(z)
    assert [r.content for r in recs] == ACTIVE
    assert rep.variant["conversations"] == 2


def test_no_conversation_at_all_raises_before_yield(tmp_path: Path) -> None:
    p = tmp_path / "conversations.json"
    p.write_text('[{"title": "x"}]', encoding="utf-8")
    gen = chatgpt.parse(p, ImportReport(str(p), "chatgpt"))
    with pytest.raises(ImportFormatError) as err:
        next(gen)
    assert str(err.value) == (f"{p}: no ChatGPT conversation found (1 malformed entries, expected a list of "
                              "conversations, each with a 'mapping' of messages)")


@pytest.mark.parametrize("text", ["[]", "{}", '{"conversations": []}', '{"data": [1, 2]}', "[1, 2]"])
def test_wrong_shape_is_an_error_not_an_empty_import(text: str, tmp_path: Path) -> None:
    p = tmp_path / "conversations.json"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(ImportFormatError, match="no ChatGPT conversation found"):
        run(p)


def test_malformed_conversation_is_skipped_and_named(tmp_path: Path) -> None:
    good = json.loads(FIX.read_text(encoding="utf-8"))
    bad = [{"id": "c-broken", "title": "Broken one", "create_time": 1700000000},
           {"id": "c-nodes", "title": "Odd nodes", "mapping": {"a": "not a node"}},
           {"id": "c-author", "title": "Odd author", "mapping": {"a": {"message": {"author": "x", "content": {}}}}},
           "a string"]
    p = tmp_path / "conversations.json"
    p.write_text(json.dumps([good[0], *bad, good[1]]), encoding="utf-8")
    recs, rep = run(p)
    assert [r.content for r in recs] == ACTIVE
    assert rep.skipped_malformed == 4
    assert rep.warnings == [
        f"{p}: conversation 'Broken one' (id c-broken) skipped: no 'mapping' object",
        f"{p}: conversation 'Odd nodes' (id c-nodes) skipped: a 'mapping' node that is not an object",
        f"{p}: conversation 'Odd author' (id c-author) skipped: unexpected shape "
        "(AttributeError: 'str' object has no attribute 'get')",
        f"{p}: an entry that is str, not an object skipped: not an object",
    ]
    assert rep.variant["conversations"] == 2


def test_message_over_the_json_string_cap_is_refused(tmp_path: Path) -> None:
    conv = json.loads(FIX.read_text(encoding="utf-8"))[0]
    conv["mapping"]["u1"]["message"]["content"]["parts"] = ["é" * (MAX_JSON_STRING_BYTES // 2 + 1)]
    p = tmp_path / "conversations.json"
    p.write_text(json.dumps([conv], ensure_ascii=False), encoding="utf-8")
    recs, rep = run(p)
    assert [r.content for r in recs] == [*ACTIVE[1:5], CI]
    assert rep.skipped_oversized == 1
    assert rep.warnings == [f"{p}: conversation 'Trip planning' (id conv-1): message m-u1 is over "
                            f"{MAX_JSON_STRING_BYTES} bytes; refused"]


def test_copy_is_read_only_source(tmp_path: Path) -> None:
    p = tmp_path / "conversations.json"
    shutil.copy(FIX, p)
    before = p.read_bytes()
    run(p)
    assert p.read_bytes() == before
