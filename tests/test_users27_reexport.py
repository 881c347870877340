"""users27 finding 6: next month's export of the same WhatsApp chat, saved under another name, doubled every old
message (the chat is named from the file, and each message's ref carries that name). Now a chat the store does
not hold whose first messages all stand in one chat it does hold is read as that chat, and says so. Real
subprocesses, real files."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli_subprocess

HASH = {"MEM_EMBEDDER": "hash"}


def _lines(start: int, stop: int) -> list[str]:
    return [f"{1 + i // 100 % 28:02d}/{1 + i // 2800:02d}/2024, {8 + i // 60 % 12:02d}:{i % 60:02d} - "
            f"{('Ana', 'Bruno')[i % 2]}: note {i} on the flat in Lisbon" for i in range(start, stop)]


def _import(db: Path, path: Path, *extra: str) -> dict:
    proc = run_cli_subprocess("--db", str(db), "import", str(path), *extra, env=HASH)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout)["data"]


def test_a_renamed_re_export_adds_only_the_new_messages_and_says_which_chat(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    old, new = tmp_path / "ana-2024-11.txt", tmp_path / "ana-2024-12.txt"
    old.write_text("\n".join(_lines(0, 600)) + "\n", encoding="utf-8")
    new.write_text("\n".join(_lines(100, 700)) + "\n", encoding="utf-8")  # the oldest 100 fell off, 100 are new
    first = _import(db, old)
    assert (first["memories_added"], first["warnings"]) == (600, [])
    dry = _import(db, new, "--dry-run")
    assert (dry["memories_added"], dry["skipped_duplicates"], dry["variant"]["chat"]) == (100, 500, "ana-2024-11")
    got = _import(db, new)
    assert (got["memories_added"], got["skipped_duplicates"], got["variant"]["chat"]) == (100, 500, "ana-2024-11")
    assert got["warnings"] == ["read as chat 'ana-2024-11', imported before under that name (this file's first 40 "
                               "messages are in it): only messages new to it are added; --thread 'ana-2024-12' "
                               "imports the file as a chat of its own"]
    again = _import(db, new)
    assert (again["memories_added"], again["skipped_duplicates"]) == (0, 600)


def test_thread_keeps_it_apart_and_a_different_chat_is_its_own(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    old, new, other = tmp_path / "a.txt", tmp_path / "b.txt", tmp_path / "c.txt"
    old.write_text("\n".join(_lines(0, 300)) + "\n", encoding="utf-8")
    new.write_text("\n".join(_lines(0, 300)) + "\n", encoding="utf-8")
    other.write_text("\n".join(x.replace("flat in Lisbon", "garden") for x in _lines(0, 300)) + "\n",
                     encoding="utf-8")
    _import(db, old)
    apart = _import(db, new, "--thread", "b")
    assert (apart["memories_added"], apart["variant"]["chat"], apart["warnings"]) == (300, "b", [])
    own = _import(db, other)  # same times, other words: another chat
    assert (own["memories_added"], own["variant"]["chat"], own["warnings"]) == (300, "c", [])
