"""End-to-end imports through the CLI (real subprocesses) and the ``ingest`` API.

Fixtures are the team-written ones in ``tests/fixtures/`` (shared with the parser
tests) plus small chats generated into ``tmp_path``. Counts are exact: each number
below was worked out from the fixture text, not copied from a run.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import zipfile
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, SHARED_DATA, run_cli

from memengine import ingest
from memory_core import MemoryStore, NewMemory, UserError

FIX = ROOT / "tests" / "fixtures"
ANA = FIX / "whatsapp" / "WhatsApp Chat with Ana.txt"
CHATGPT = FIX / "chatgpt" / "conversations.json"
CLAUDE = FIX / "claude" / "conversations.json"
NOTES = FIX / "markdown" / "notes"
VCF = FIX / "vcf" / "contacts.vcf"


def envelope(proc: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    """The JSON envelope of a CLI run (asserting it is the only stdout line)."""
    assert "Traceback" not in proc.stderr, proc.stderr
    out = proc.stdout.strip()
    assert out.count("\n") == 0, out
    return json.loads(out)


def imported(*args: str) -> dict[str, Any]:
    """``mem.py import ARGS`` that must succeed: its summary."""
    proc = run_cli("import", *args)
    env = envelope(proc)
    assert proc.returncode == 0 and env["ok"], proc.stdout + proc.stderr
    return env["data"]


def count(db: Path, where: str = "1") -> int:
    """Rows of ``memories`` matching ``where`` (0 when the file does not exist yet)."""
    if not db.exists():
        return 0
    with sqlite3.connect(db) as conn:
        return int(conn.execute(f"SELECT count(*) FROM memories WHERE {where}").fetchone()[0])


def rows(db: Path, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Run a read query on the memory file."""
    with sqlite3.connect(db) as conn:
        return list(conn.execute(sql, args))


def write_chat(path: Path, messages: list[tuple[datetime, str, str]]) -> Path:
    """Write an Android-layout WhatsApp export (24h clock, dd/mm/yyyy)."""
    lines = [f"{when:%d/%m/%Y, %H:%M} - {who}: {text}" for when, who, text in messages]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def chat_messages(n: int, start: datetime = datetime(2023, 5, 14, 9, 0), step: timedelta = timedelta(minutes=1),
                  first: int = 0) -> list[tuple[datetime, str, str]]:
    """``n`` messages on one topic (the hash embedder sees shared words, so no topic split)."""
    return [(start + step * i, "Ana" if i % 2 else "Bea", f"we keep planning the boat trip to the lake, note {first + i}")
            for i in range(n)]


# --------------------------------------------------------------------------- each format

EXPECTED: dict[str, dict[str, Any]] = {
    # 11 headers: e2e notice, "deleted" and "joined" are system (3); "<Media omitted>" and
    # "IMG...jpg (file attached)" media-only (2); the German placeholder keeps its caption.
    # Episodes: 09:06-09:10 (4 messages) and the two "ok" ten days later.
    "whatsapp": {"path": ANA, "format": "whatsapp", "messages_seen": 11, "memories_added": 6, "skipped_system": 3,
                 "skipped_media": 2, "skipped_empty": 0, "episodes": 2, "links": 0, "aliases": 0,
                 "variant": {"platform": "android", "layout": "dashed", "date_order": "dmy",
                             "date_order_reason": "day > 12 in first field", "calendar": "gregorian",
                             "clock": "24h", "seconds": False, "dot_time": False, "chat": "Ana"}},
    # The code interpreter's output is not a memory (skipped_tool; --include-tools keeps it).
    "chatgpt": {"path": CHATGPT, "format": "chatgpt", "messages_seen": 12, "memories_added": 8, "skipped_system": 3,
                "skipped_tool": 1,
                "skipped_media": 0, "skipped_empty": 0, "episodes": 2, "links": 0, "aliases": 0,
                "variant": {"layout": "file", "conversations": 2, "all_branches": False, "other_branches": 2}},
    "claude": {"path": CLAUDE, "format": "claude", "messages_seen": 4, "memories_added": 3, "skipped_system": 0,
               "skipped_media": 1, "skipped_empty": 1, "episodes": 1, "links": 0, "aliases": 0,
               "variant": {"empty_conversations": 1, "conversations": 2}},
    # MEMORY.md: Projects, Gateway, Later (the managed block and the empty heading are not memories);
    # Deploy Notes; two daily logs. Two resolvable wikilinks.
    "markdown": {"path": NOTES, "format": "markdown", "messages_seen": 7, "memories_added": 6, "skipped_system": 0,
                 "skipped_media": 0, "skipped_empty": 1, "episodes": 0, "links": 2, "aliases": 0,
                 "variant": {"files": 4, "layout": "directory"}},
    # Aliases: names, nickname and each phone number raw and normalised.
    "vcf": {"path": VCF, "format": "vcf", "messages_seen": 3, "memories_added": 3, "skipped_system": 0,
            "skipped_media": 0, "skipped_empty": 0, "episodes": 0, "links": 0, "aliases": 14,
            "variant": {"versions": ["2.1", "3.0", "4.0"], "cards": 3}},
}


@pytest.mark.parametrize("fmt", sorted(EXPECTED))
def test_each_format_imports_with_exact_summary(fmt: str, db_path: Path) -> None:
    exp = dict(EXPECTED[fmt])
    path = exp.pop("path")
    data = imported(fmt, str(path))
    assert data["file"] == str(path)
    assert data["warnings"] == []
    assert data["skipped_duplicates"] == 0
    assert data["dry_run"] is False and data["degraded"] is None
    for key, value in exp.items():
        assert data[key] == value, key
    # Detection picks the same format without the FORMAT argument; everything is already there.
    again = imported(str(path))
    assert again["format"] == fmt
    assert (again["memories_added"], again["skipped_duplicates"]) == (0, exp["memories_added"])
    assert again["episodes"] == 0
    assert count(db_path) == exp["memories_added"] + exp["episodes"]


def test_a_folder_of_whatsapp_chats_imports_each_file(tmp_path: Path, db_path: Path) -> None:
    folder = tmp_path / "exports"
    folder.mkdir()
    (folder / "WhatsApp Chat with Ana.txt").write_bytes(ANA.read_bytes())
    t0 = datetime(2024, 3, 2, 9, 0)
    write_chat(folder / "WhatsApp Chat with Ben.txt", [(t0, "Ben", "ferry at noon"), (t0 + timedelta(minutes=2), "Me", "ok")])
    (folder / ".DS_Store").write_bytes(b"\x00\x01")  # hidden: skipped
    (folder / "notes.json").write_text("{}")  # not an export suffix: skipped
    unzipped = folder / "WhatsApp Chat - Cleo"  # an unzipped iOS export
    unzipped.mkdir()
    write_chat(unzipped / "_chat.txt", [(t0, "Cleo", "see you at the dock")])
    data = imported("whatsapp", str(folder))
    assert data["format"] == "whatsapp" and [Path(f["file"]).name for f in data["files"]] == [
        "WhatsApp Chat with Ana.txt", "WhatsApp Chat with Ben.txt", "_chat.txt"]
    assert [f["variant"]["chat"] for f in data["files"]] == ["Ana", "Ben", "Cleo"]  # each file its own thread
    assert (data["messages_seen"], data["memories_added"], data["skipped_duplicates"]) == (14, 9, 0)
    assert count(db_path, "memory_type = 'episodic' AND level = 0 AND thread IS NOT NULL "
                          "AND json_extract(metadata, '$.kind') IS NOT 'episode'") == 9
    again = imported(str(folder))  # detected as a folder of WhatsApp chats; nothing new
    assert (again["format"], again["memories_added"], again["skipped_duplicates"]) == ("whatsapp", 0, 9)


def test_a_folder_with_one_bad_file_writes_nothing(tmp_path: Path, db_path: Path) -> None:
    folder = tmp_path / "exports"
    folder.mkdir()
    (folder / "a chat.txt").write_bytes(ANA.read_bytes())
    (folder / "shopping list.txt").write_text("milk\neggs\n")
    proc = run_cli("import", "whatsapp", str(folder))
    env = envelope(proc)
    assert proc.returncode == 1 and env["error"]["code"] == "invalid_input"
    assert "shopping list.txt" in env["error"]["message"] and "\n" not in env["error"]["message"]
    assert count(db_path) == 0
    thread = run_cli("import", "whatsapp", str(folder), "--thread", "Ana")
    assert thread.returncode == 1 and "--thread" in envelope(thread)["error"]["message"]
    empty = tmp_path / "empty"
    empty.mkdir()
    none = run_cli("import", "whatsapp", str(empty))
    assert none.returncode == 1 and "no whatsapp export files" in envelope(none)["error"]["message"]


def test_a_folder_of_vcards_is_detected(tmp_path: Path, db_path: Path) -> None:
    folder = tmp_path / "contacts"
    folder.mkdir()
    (folder / "all.vcf").write_bytes(VCF.read_bytes())
    data = imported(str(folder))
    assert data["format"] == "vcf" and len(data["files"]) == 1 and data["memories_added"] == 3


@pytest.mark.parametrize("fmt", sorted(EXPECTED))
def test_dry_run_writes_nothing_and_predicts_the_real_run(fmt: str, db_path: Path) -> None:
    path = EXPECTED[fmt]["path"]
    dry = imported(fmt, str(path), "--dry-run")
    assert dry["dry_run"] is True
    assert count(db_path) == 0
    if db_path.exists():
        assert rows(db_path, "SELECT count(*) FROM associations") == [(0,)]
        assert rows(db_path, "SELECT count(*) FROM aliases") == [(0,)]
    real = imported(fmt, str(path))
    for key in ("messages_seen", "memories_added", "skipped_duplicates", "skipped_system", "skipped_media",
                "skipped_empty", "episodes", "variant", "warnings"):
        assert dry[key] == real[key], key
    # After the real run a dry run predicts nothing new.
    dry2 = imported(fmt, str(path), "--dry-run")
    assert (dry2["memories_added"], dry2["skipped_duplicates"], dry2["episodes"]) == (0, real["memories_added"], 0)


def test_warnings_carry_line_numbers(tmp_path: Path) -> None:
    chat = tmp_path / "WhatsApp Chat with Eva.txt"
    chat.write_text("Exported by a tool\nsecond preamble line\n14/05/2023, 09:00 - Eva: hi\n"
                    "31/02/2023, 09:01 - Eva: no such day\n", encoding="utf-8")
    data = imported(str(chat))
    assert data["warnings"] == [
        f"{chat}:1: 2 line(s) before the first message header ignored",
        f"{chat}:4: invalid date/time 31/02/2023 09:01 for date order dmy; message skipped",
    ]
    assert (data["messages_seen"], data["memories_added"]) == (2, 1)


def test_cli_options_reach_the_parsers(db_path: Path) -> None:
    amb = FIX / "whatsapp" / "ambiguous.txt"
    data = imported(str(amb), "--date-order", "mdy", "--thread", "Team")
    assert (data["variant"]["date_order"], data["variant"]["date_order_reason"], data["variant"]["chat"]) == (
        "mdy", "option", "Team")
    assert rows(db_path, "SELECT thread, event_at, content FROM memories ORDER BY event_at") == [
        ("Team", "2023-01-02T10:00:00", "A: one"), ("Team", "2023-01-03T10:00:00", "B: two")]
    # --all-branches keeps the edited and regenerated branches: 2 more memories than the active path.
    branches = imported("chatgpt", str(CHATGPT), "--all-branches", "--dry-run")
    assert (branches["messages_seen"], branches["memories_added"], branches["variant"]["all_branches"]) == (14, 10, True)
    # --include-tools keeps the code interpreter's output too.
    tools = imported("chatgpt", str(CHATGPT), "--all-branches", "--include-tools", "--dry-run")
    assert (tools["memories_added"], tools["skipped_tool"], branches["skipped_tool"]) == (11, 0, 1)


# --------------------------------------------------------------------------- idempotence

def test_overlapping_later_export_adds_only_new_messages(tmp_path: Path, db_path: Path) -> None:
    first = write_chat(tmp_path / "WhatsApp Chat with Ana.txt", chat_messages(40))
    assert imported(str(first))["memories_added"] == 40
    # The later export of the same chat, zipped as WhatsApp does: 40 old + 15 new messages.
    later_txt = write_chat(tmp_path / "later.txt", chat_messages(55))
    later = tmp_path / "WhatsApp Chat - Ana.zip"
    with zipfile.ZipFile(later, "w") as zf:
        zf.write(later_txt, "_chat.txt")
    data = imported(str(later))
    assert (data["messages_seen"], data["memories_added"], data["skipped_duplicates"]) == (55, 15, 40)
    assert count(db_path, "source = 'whatsapp' AND json_extract(metadata, '$.kind') IS NOT 'episode'") == 55
    assert rows(db_path, "SELECT count(DISTINCT content) FROM memories WHERE json_extract(metadata, '$.kind') "
                         "IS NOT 'episode'") == [(55,)]
    assert rows(db_path, "SELECT DISTINCT thread FROM memories") == [("Ana",)]


def test_reimport_after_no_episodes_builds_the_missing_episodes(db_path: Path) -> None:
    """A run killed after its messages but before its episodes is completed by a re-run."""
    first = imported("whatsapp", str(ANA), "--no-episodes")
    assert (first["memories_added"], first["episodes"]) == (6, 0)
    again = imported("whatsapp", str(ANA))
    assert (again["memories_added"], again["skipped_duplicates"], again["episodes"]) == (0, 6, 2)
    assert imported("whatsapp", str(ANA))["episodes"] == 0


def test_episode_written_without_edges_gets_them_on_rerun(store: MemoryStore) -> None:
    """An episode row left edgeless (older runs stored it and its edges separately) is completed, not duplicated."""
    ingest.import_path(store, ANA, "whatsapp", episodes=False)
    first_ref = store.conn.execute("SELECT ref FROM memories WHERE thread = 'Ana' ORDER BY event_at LIMIT 1").fetchone()[0]
    store.store_many([NewMemory(content="orphan episode", memory_type="episodic", source="whatsapp",
                                ref=f"episode:{first_ref}", thread="Ana", metadata={"kind": "episode"},
                                event_at=datetime(2023, 4, 3, 9, 6))])
    assert ingest.build_episodes(store, "whatsapp", "Ana") == 1  # the second episode is new
    orphan = store.conn.execute("SELECT id FROM memories WHERE content = 'orphan episode'").fetchone()[0]
    members = store.conn.execute("SELECT count(*) FROM associations WHERE target_id = ? AND edge_type = 'part_of'",
                                 (orphan,)).fetchone()[0]
    assert members == 4
    assert store.conn.execute("SELECT count(*) FROM memories WHERE json_extract(metadata, '$.kind') = 'episode'"
                              ).fetchone()[0] == 2


# --------------------------------------------------------------------------- aliases, links, markdown

def test_vcard_aliases_name_whatsapp_phone_authors(tmp_path: Path, db_path: Path) -> None:
    chat = write_chat(tmp_path / "WhatsApp Chat with Ana.txt", [
        (datetime(2023, 4, 3, 9, 0), "+34 600 123 456", "Llego tarde, lo siento"),
        (datetime(2023, 4, 3, 9, 1), "Bob", "no problem"),
    ])
    assert imported("vcf", str(VCF))["aliases"] == 14
    assert imported(str(chat))["memories_added"] == 2
    got = rows(db_path, "SELECT content, author, json_extract(metadata, '$.author_as_exported') FROM memories "
                        "WHERE source = 'whatsapp' AND json_extract(metadata, '$.kind') IS NOT 'episode' ORDER BY event_at")
    assert got == [("Ana García López: Llego tarde, lo siento", "Ana García López", "+34 600 123 456"),
                   ("Bob: no problem", "Bob", None)]


def test_wikilinks_become_explicit_associations(db_path: Path) -> None:
    imported("markdown", str(NOTES))
    edges = rows(db_path, """SELECT a.ref, b.ref, e.edge_type FROM associations e
                             JOIN memories a ON a.id = e.source_id JOIN memories b ON b.id = e.target_id
                             ORDER BY a.ref""")
    assert edges == [
        ("markdown:MEMORY.md:Projects > Gateway:0", "markdown:Deploy Notes.md::0", "explicit"),
        ("markdown:MEMORY.md:Projects > Later:0", "markdown:memory/2024-03-01.md:Standup (09:30 UTC):0", "explicit"),
    ]
    assert imported("markdown", str(NOTES))["links"] == 0  # INSERT OR IGNORE: no duplicate edges


def test_memory_md_managed_block_is_not_imported(db_path: Path) -> None:
    imported("markdown", str(NOTES))
    assert count(db_path, "content LIKE '%generated text%' OR content LIKE '%Consolidated%'") == 0
    assert count(db_path, "ref LIKE 'markdown:MEMORY.md:%'") == 3


def test_source_files_are_never_modified(tmp_path: Path) -> None:
    def digest() -> dict[str, str]:
        return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(FIX.rglob("*")) if p.is_file()}

    before = digest()
    mtimes = {p: os.stat(p).st_mtime_ns for p in before}
    for path in (VCF, ANA, CHATGPT, CLAUDE, NOTES):
        imported(str(path))
        imported(str(path), "--dry-run")
    assert digest() == before
    assert {p: os.stat(p).st_mtime_ns for p in before} == mtimes
    assert sorted(str(p) for p in FIX.rglob("*") if p.is_file()) == sorted(before)  # nothing extracted or added


# --------------------------------------------------------------------------- episodes

def _episodes(db: Path) -> list[tuple[int, str, int]]:
    return rows(db, "SELECT id, ref, json_extract(metadata, '$.members') FROM memories "
                    "WHERE json_extract(metadata, '$.kind') = 'episode' ORDER BY event_at, id")


def test_episodes_link_members_and_follow_each_other(db_path: Path) -> None:
    imported("whatsapp", str(ANA))
    eps = _episodes(db_path)
    assert [n for _, _, n in eps] == [4, 2]
    for eid, _, n in eps:
        members = rows(db_path, "SELECT m.content FROM associations a JOIN memories m ON m.id = a.source_id "
                                "WHERE a.target_id = ? AND a.edge_type = 'part_of' ORDER BY m.event_at", (eid,))
        assert len(members) == n
    first = [c for (c,) in rows(db_path, "SELECT m.content FROM associations a JOIN memories m ON m.id = a.source_id "
                                         "WHERE a.target_id = ? AND a.edge_type = 'part_of' ORDER BY m.event_at",
                                (eps[0][0],))]
    assert first == ["Ana García: Hola! Lunch at 13:00?", "Bea 🌸: first line\n\nthird line after blank",
                     "Ana García: photo caption", "Ana García: fixed typo"]
    assert rows(db_path, "SELECT source_id, target_id FROM associations WHERE edge_type = 'temporal'") == [
        (eps[0][0], eps[1][0])]
    meta = json.loads(rows(db_path, "SELECT metadata FROM memories WHERE id = ?", (eps[0][0],))[0][0])
    assert meta["participants"] == ["Ana García", "Bea 🌸"]
    assert meta["span"] == ["2023-04-03T09:06:00", "2023-04-03T09:10:00"]


def test_episode_boundaries_on_gap_and_size_cap(tmp_path: Path, db_path: Path) -> None:
    # 30 messages a minute apart, a 2-hour pause, 3 more: cap splits 25 + 5, the gap starts a third.
    msgs = chat_messages(30) + chat_messages(3, start=datetime(2023, 5, 14, 11, 30), first=30)
    data = imported(str(write_chat(tmp_path / "WhatsApp Chat with Ana.txt", msgs)))
    assert (data["memories_added"], data["episodes"]) == (33, 3)
    assert [n for _, _, n in _episodes(db_path)] == [ingest.EPISODE_MAX, 30 - ingest.EPISODE_MAX, 3]
    assert rows(db_path, "SELECT count(*) FROM associations WHERE edge_type = 'temporal'") == [(2,)]
    assert rows(db_path, "SELECT count(*) FROM associations WHERE edge_type = 'part_of'") == [(33,)]


def test_segment_exact_ranges() -> None:
    t0 = datetime(2024, 1, 1, 8, 0)
    times: list[datetime | None] = [t0 + timedelta(minutes=i) for i in range(60)]
    assert ingest.segment(times, None) == [(0, 25), (25, 50), (50, 60)]
    gap = ingest.EPISODE_GAP
    times2: list[datetime | None] = [t0, t0 + timedelta(minutes=1), t0 + timedelta(minutes=1) + gap,
                                     t0 + timedelta(minutes=2) + gap]
    assert ingest.segment(times2, None) == [(0, 2), (2, 4)]
    just_under: list[datetime | None] = [t0, t0 + gap - timedelta(seconds=1)]
    assert ingest.segment(just_under, None) == [(0, 2)]
    assert ingest.segment([None, None, t0], None) == [(0, 3)]  # unknown times never split


def test_relative_dates_resolved_against_message_time(tmp_path: Path, db_path: Path) -> None:
    chat = write_chat(tmp_path / "WhatsApp Chat with Ana.txt", [
        (datetime(2023, 4, 3, 9, 0), "Ana", "see you tomorrow at the dentist"),
        (datetime(2023, 6, 20, 9, 0), "Ana", "I flew back 3 days ago"),
    ])
    imported(str(chat))
    got = rows(db_path, "SELECT json_extract(metadata, '$.resolved_dates') FROM memories WHERE author = 'Ana' "
                        "ORDER BY event_at")
    assert [json.loads(r[0]) for r in got] == [
        [{"phrase": "tomorrow", "date": "2023-04-04", "granularity": "day"}],
        [{"phrase": "3 days ago", "date": "2023-06-17", "granularity": "day"}],
    ]


def test_oversized_text_is_split_not_fatal(tmp_path: Path, store: MemoryStore) -> None:
    big = "log line\n" * 130_000  # 1.17 MB: over the store's 1 MB limit
    conv = [{"id": "c1", "title": "t", "create_time": 1700000000.0, "current_node": "b", "mapping": {
        "a": {"id": "a", "parent": None, "children": ["b"], "message": {
            "id": "ma", "author": {"role": "user"}, "create_time": 1700000000.0,
            "content": {"content_type": "text", "parts": [big]}, "recipient": "all", "metadata": {}}},
        "b": {"id": "b", "parent": "a", "children": [], "message": {
            "id": "mb", "author": {"role": "assistant"}, "create_time": 1700000001.0,
            "content": {"content_type": "text", "parts": ["thanks"]}, "recipient": "all", "metadata": {}}}}}]
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps(conv), encoding="utf-8")
    summary = ingest.import_path(store, path, episodes=False)
    assert summary.memories_added == 3  # the long message in two parts, and the reply
    assert summary.warnings == [f"{path}: chatgpt:c1:ma: {len(big.strip()) + 6} bytes, over the 998976-byte limit "
                                "of a memory; split into 2 parts"]
    parts = [r[0] for r in store.conn.execute("SELECT content FROM memories WHERE ref LIKE 'chatgpt:c1:ma%' ORDER BY id")]
    assert [p.startswith("User: log line") for p in parts] == [True, True]
    assert "\n".join(p.removeprefix("User: ") for p in parts) == big.strip()  # nothing lost


# --------------------------------------------------------------------------- bad input

def _zip(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return path


BAD: dict[str, tuple[tuple[str, ...], bytes | None, str]] = {
    # name: (FORMAT arg or (), file content (None = built in the test), expected message part)
    "empty.txt": ((), b"", "empty.txt: empty file"),
    "empty.json": (("chatgpt",), b"", "empty.json: empty file"),
    "truncated.json": ((), b'[{"id": "c", "mapping": {"a": {"id": "a", "parent": null, ', "truncated.json: invalid or truncated JSON"),
    "binary.dat": ((), bytes(range(256)) * 8, "binary.dat: binary data"),
    "binary.txt": (("whatsapp",), b"\x00\x01\x02garbage\x00" * 100, "binary.txt: binary data"),
    "notes.txt": ((), b"hello world\nthis is not a chat\n", "notes.txt: unrecognised format"),
    "wrongformat.txt": (("chatgpt",), b"hello world\n", "wrongformat.txt:1: not a JSON export"),
    "chat.json": (("whatsapp",), b'[{"id": 1}]', "chat.json:1: no WhatsApp message header found"),
    # (a Latin-1 chat is read as Windows-1252 with a warning: tests/test_importers_faults.py)
    # (an odd byte ending UTF-16 is a copy cut short, read with a warning: tests/test_importers_unseen14.py; a
    # lone surrogate inside the text is damage no copy explains)
    "utf16.txt": (("whatsapp",), b"\xff\xfe" + "03/04/2023, 09:06 - Ana: x\n".encode("utf-16-le") + b"\x00\xd8"
                  + "03/04/2023, 09:07 - Bea: y\n".encode("utf-16-le"), "utf16.txt:2: invalid UTF-16 text"),
    "malformed.zip": ((), b"PK\x03\x04 this is not really a zip", "malformed.zip: malformed zip archive"),
    "slip.zip": ((), None, "slip.zip: unsafe member name '../../evil.txt' in zip (path traversal)"),
    "nochat.zip": ((), None, "nochat.zip: zip holds no chat export"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_input_one_line_error_exit_1_nothing_written(name: str, tmp_path: Path, db_path: Path) -> None:
    fmt, content, message = BAD[name]
    path = tmp_path / name
    if name == "slip.zip":
        _zip(path, {"../../evil.txt": b"03/04/2023, 09:06 - Ana: x\n"})
    elif name == "nochat.zip":
        _zip(path, {"photo.jpg": b"\xff\xd8\xff"})
    else:
        assert content is not None
        path.write_bytes(content)
    # Run from the file's folder so the message names it exactly as the user typed it.
    proc = run_cli("import", *fmt, name, cwd=tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    env = envelope(proc)
    assert env["ok"] is False and env["error"]["code"] == "invalid_input"
    msg = env["error"]["message"]
    assert "\n" not in msg
    assert msg.startswith(message), msg
    assert count(db_path) == 0
    assert not (tmp_path / "evil.txt").exists() and not (tmp_path.parent / "evil.txt").exists()


def test_utf16_whatsapp_export_imports(tmp_path: Path) -> None:
    path = tmp_path / "WhatsApp Chat with Ana.txt"
    path.write_bytes("03/04/2023, 09:06 - Ana: hola desde utf-16\n13/04/2023, 09:07 - Bea: ¡sí!\n".encode("utf-16"))
    data = imported(str(path))
    assert (data["format"], data["messages_seen"], data["memories_added"]) == ("whatsapp", 2, 2)


def test_oversized_zip_member_is_refused(tmp_path: Path, store: MemoryStore) -> None:
    path = _zip(tmp_path / "WhatsApp Chat with Ana.zip", {"_chat.txt": b"03/04/2023, 09:06 - Ana: x\n" * 100})
    with pytest.raises(UserError) as err:
        ingest.import_path(store, path, max_member_bytes=1000)
    assert str(err.value) == f"{path}!_chat.txt: member too large (2700 bytes > limit 1000)"
    assert store.conn.execute("SELECT count(*) FROM memories").fetchone()[0] == 0
    # The default limit lets it through.
    assert ingest.import_path(store, path).memories_added == 100


def test_missing_path_is_a_user_error(tmp_path: Path) -> None:
    proc = run_cli("import", "whatsapp", str(tmp_path / "nope.txt"))
    assert proc.returncode == 1
    assert envelope(proc)["error"]["message"] == f"{tmp_path / 'nope.txt'}: no such file or directory"


# --------------------------------------------------------------------------- kill test

def test_sigkill_mid_import_then_rerun_completes_without_duplicates(tmp_path: Path, db_path: Path) -> None:
    total = 3000
    msgs = [(datetime(2023, 1, 1, 8, 0) + timedelta(minutes=7 * i), "Ana" if i % 3 else "Bea",
             f"message number {i} about the kill test and the garden") for i in range(total)]
    chat = write_chat(tmp_path / "WhatsApp Chat with Ana.txt", msgs)
    proc = subprocess.Popen([sys.executable, str(ROOT / "mem.py"), "import", str(chat)], cwd=str(ROOT),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    at_kill = 0
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                at_kill = count(db_path)
            except sqlite3.OperationalError:  # schema being created
                at_kill = 0
            if at_kill > 0:
                proc.send_signal(signal.SIGKILL)
                break
            time.sleep(0.002)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == -signal.SIGKILL, "the import finished before it could be killed"
    after_kill = count(db_path)
    assert 0 < after_kill < total
    assert after_kill % 256 == 0  # whole batches only
    data = imported(str(chat))
    assert data["skipped_duplicates"] == after_kill
    assert data["memories_added"] == total - after_kill
    assert count(db_path, "json_extract(metadata, '$.kind') IS NOT 'episode'") == total
    assert rows(db_path, "SELECT count(DISTINCT ref) FROM memories WHERE json_extract(metadata, '$.kind') IS NOT "
                         "'episode'") == [(total,)]
    # 7-minute steps never hit the 45-minute gap: episodes follow the 25-message cap.
    assert data["episodes"] == total // ingest.EPISODE_MAX
    assert rows(db_path, "SELECT count(*) FROM associations WHERE edge_type = 'part_of'") == [(total,)]
    doctor = envelope(run_cli("doctor"))
    assert doctor["data"]["ok"] is True and doctor["data"]["problems"] == []
    again = imported(str(chat))
    assert (again["memories_added"], again["skipped_duplicates"], again["episodes"]) == (0, total, 0)


# --------------------------------------------------------------------------- real data

REALWORLD = SHARED_DATA / "realworld"


def _realworld_files() -> list[Path]:
    if not REALWORLD.exists():
        return []
    return sorted(p for p in REALWORLD.rglob("*") if p.is_file() and p.suffix.lower() in (".txt", ".zip", ".json", ".md", ".vcf")
                  and p.name != "chatminer_expected_target.json")


@pytest.mark.skipif(not REALWORLD.exists(), reason="../shared/data/realworld absent (fresh clone): real exports not available")
def test_every_realworld_file_imports_via_cli(tmp_path: Path) -> None:
    files = _realworld_files()
    assert len(files) >= 57  # the folder as of this writing; more files are welcome
    table: list[str] = [f"{'file':58} {'format':9} {'variant':34} {'seen':>5} {'added':>5} {'sys':>4} {'media':>5} "
                        f"{'ep':>3} {'warn':>4}"]
    failures: list[str] = []
    for i, path in enumerate(files):
        proc = run_cli("--db", str(tmp_path / f"{i}.db"), "import", str(path))
        env = envelope(proc)
        if proc.returncode != 0:
            failures.append(f"{path.name}: {env['error']['message']}")
            continue
        d = env["data"]
        v = d["variant"]
        short = ",".join(str(v[k]) for k in ("platform", "date_order", "clock") if k in v) or ",".join(
            f"{k}={v[k]}" for k in list(v)[:2])
        table.append(f"{str(path.relative_to(REALWORLD)):58} {d['format']:9} {short[:34]:34} {d['messages_seen']:>5} "
                     f"{d['memories_added']:>5} {d['skipped_system']:>4} {d['skipped_media']:>5} {d['episodes']:>3} "
                     f"{len(d['warnings']):>4}")
        assert d["memories_added"] > 0, path.name
    print("\n" + "\n".join(table))
    assert failures == []
