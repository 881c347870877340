"""Hostile input of round 18 (layouts18): JSON nested far past any real export, read in linear time and
bounded memory and refused in one line naming the file (and which conversation); a garbled written date is
no date, said in a warning, never a guess. The files are small (the cost was quadratic in the depth: 80 KB
nested 40,000 deep took 3.9 GB and 5 s at the session start; the garbled date 0.2 s a note and a wrong date)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from importer_cli import assert_broken_import_fails, claude_chats, conversations
from importer_cli import notes as _notes

from importers.note_dates import garbled, written_date

DEEP = 100_000  # levels: 200 KB of brackets


def _gpt(inner: str) -> bytes:
    msg = ('{"id":"m1","author":{"role":"user"},"create_time":1760000001,"content":{"content_type":"text",'
           '"parts":["hi"]},"metadata":' + inner + "}")
    return ('[{"title":"deep","create_time":1760000000,"id":"c1","current_node":"m1","mapping":{"m1":{"id":"m1",'
            '"parent":null,"children":[],"message":' + msg + "}}}]").encode()


def _claude(inner: str) -> bytes:
    return ('[{"uuid":"k1","name":"deep","created_at":"2025-03-14T18:01:12Z","chat_messages":[{"uuid":"u1",'
            '"sender":"human","text":"hi","created_at":"2025-03-14T18:01:12Z","content":[{"type":"text","text":"hi",'
            '"x":' + inner + "}]}]}]").encode()


@pytest.mark.parametrize(("name", "content", "message"), [
    ("conversations.json", _gpt('{"x":' + "[" * DEEP + "]" * DEEP + "}"), "JSON nested over 512 levels in conversation 1"),
    ("claude.json", _claude('{"a":' * DEEP + "1" + "}" * DEEP), "JSON nested over 512 levels in conversation 1"),
    ("chat.html", ("<html><script>var jsonData = [" + '{"a":' * DEEP + "1" + "}" * DEEP + "];</script></html>").encode(),
     "JSON nested over 512 levels in conversation 1"),
    ("Standard Notes Backup and Import File.txt", ('{"version":"004","items":[{"uuid":"a","content_type":"Note",'
     '"created_at":"2024-03-14T18:01:12Z","content":{"title":"t","text":"hi","x":' + "[" * DEEP + "]" * DEEP + "}}]}").encode(),
     "JSON nested over 512 levels in item 1"),
    # the sniffer's look at a first line nested past json's own depth: no JSON line, no traceback
    ("Board.canvas", ('{"nodes":' + "[" * DEEP + "]" * DEEP + "}").encode(), "invalid JSON canvas (RecursionError)"),
])
def test_json_nested_past_the_cap_is_refused_in_one_line(tmp_path: Path, name: str, content: bytes, message: str) -> None:
    assert_broken_import_fails(tmp_path, name, content, message)


def test_a_wrapper_whose_first_value_is_nested_too_deep_is_refused(tmp_path: Path) -> None:
    """Told it is a ChatGPT export (the sniffer finds no conversations in it), the wrapper's deep first value is
    refused while the list is looked for, in one line naming the file."""
    from importers import ImportFormatError, ImportReport, chatgpt

    path = tmp_path / "wrapped.json"
    path.write_bytes(('{"meta":' + "[" * DEEP + "]" * DEEP + ',"conversations":[]}').encode())
    with pytest.raises(ImportFormatError) as err:
        list(chatgpt.parse(path, ImportReport(str(path), "chatgpt")))
    assert str(err.value) == f"{path}: JSON nested over 512 levels"


def test_a_second_conversation_nested_too_deep_is_named(tmp_path: Path) -> None:
    good = json.loads(_gpt("{}"))[0]
    bad = _gpt('{"x":' + "[" * 600 + "]" * 600 + "}").decode()
    path = tmp_path / "conversations.json"
    path.write_text("[" + json.dumps(good) + "," + bad[1:], encoding="utf-8")
    assert_broken_import_fails(tmp_path, "conversations.json", path.read_bytes(), "levels in conversation 2")


def test_values_nested_under_the_cap_read_as_before(tmp_path: Path) -> None:
    """500 levels (under the cap of 512) inside a message's metadata or a Claude block: the words are read."""
    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "conversations.json").write_bytes(_gpt('{"x":' + "[" * 500 + "]" * 500 + "}"))
    recs, rep = conversations(tmp_path / "g")
    assert [r.content for r in recs] == ["User: hi"]
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "conversations.json").write_bytes(_claude('{"a":' * 500 + "1" + "}" * 500))
    recs, rep = claude_chats(tmp_path / "c")
    assert [r.content for r in recs] == ["User: hi"]


@pytest.mark.parametrize(("value", "expected"), [
    ("Mar 1m5, 2018", None), ("Mar 14, 2O18, 10:00:00 AM", None), ("Mar 14, 2018, 1O:00:00 AM", None),
    ("March 14th, 2024", (2024, 3, 14, 0, 0)), ("1er mars 2024", (2024, 3, 1, 0, 0)),
    ("14 mars 2024 18h30", (2024, 3, 14, 18, 30)), ("14. März 2024, 6pm", (2024, 3, 14, 18, 0)),
])
def test_a_garbled_written_date_is_no_date(value: str, expected: tuple[int, ...] | None) -> None:
    """A number run into letters that are no ordinal or clock suffix is damage: dateparser would drop the
    letters and guess ("Mar 1m5, 2018" was 1 May 2018; "1O:00" was 01:00)."""
    when = written_date(value)
    assert (when.timetuple()[:5] if when else None) == expected
    assert garbled(value) == (expected is None)


def test_keep_pages_with_garbled_dates_are_kept_undated_with_a_warning_each(tmp_path: Path) -> None:
    page = ('<html><body><div class="note"><div class="heading">{date}</div><div class="title">Note {i}</div>'
            '<div class="content">Code {i}</div></div></body></html>')
    keep = tmp_path / "Takeout" / "Keep"
    keep.mkdir(parents=True)
    dates = ["Mar 1m5, 2018", "Apr 2x7, 2019, 10:00:00 AM", "Mar 14, 2018, 10:00:00 AM"]
    for i, date in enumerate(dates):
        (keep / f"Note {i}.html").write_text(page.format(date=date, i=i), encoding="utf-8")
    recs, rep = _notes(tmp_path)
    assert [(r.content, r.event_at) for r in recs] == [
        ("Note 0: Code 0", None), ("Note 1: Code 1", None), ("Note 2: Code 2", written_date(dates[2]))]
    assert rep.warnings == [f"{tmp_path}: Takeout/Keep/Note {i}.html: unreadable date {dates[i]!r}; no date" for i in (0, 1)]


def test_a_garbled_front_matter_date_is_no_date_and_said(tmp_path: Path) -> None:
    (tmp_path / "Boiler.md").write_text("---\ndate: Mar 1m5, 2018\n---\n\nServiced.\n", encoding="utf-8")
    (tmp_path / "Tiles.md").write_text("---\ndate: March 15th, 2024\n---\n\nOrdered.\n", encoding="utf-8")
    recs, rep = _notes(tmp_path)
    assert [(r.content, r.event_at) for r in recs] == [("Boiler: Serviced.", None), ("Tiles: Ordered.", written_date("March 15th, 2024"))]
    assert rep.warnings == [f"{tmp_path}: Boiler.md: unreadable date 'Mar 1m5, 2018'; no date"]
