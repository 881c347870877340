"""MEMORY.md write-back never destroys the user's text: edits inside the block, a missing file or
folder, CRLF, a second block, a read-only file (memengine/memorymd.py, consolidate's write phase)."""

from __future__ import annotations

import os
import stat
from datetime import datetime
from pathlib import Path

import pytest

import memory_core as core
from memengine import consolidate as cons
from memengine import memorymd
from memengine.errors import UserError
from memengine.memorymd import BEGIN, END, HEADING, ManagedBlockError, block_digest, digest, write_managed_block

NOW = datetime(2030, 1, 10, 12, 0)
OLD = memorymd.render_block([("Key facts", ["the gateway runs on port 8080"])], 2000)
NEW = memorymd.render_block([("Key facts", ["the gateway runs on port 9090"])], 2000)


def _copies(folder: Path) -> list[Path]:
    return sorted(folder.glob("MEMORY.md.edited-*"))


def test_an_edit_inside_the_block_is_saved_aside_before_the_block_is_replaced(tmp_path: Path) -> None:
    md = tmp_path / "MEMORY.md"
    write_managed_block(md, OLD)
    edited = md.read_text().replace("- the gateway runs on port 8080", "- the gateway runs on port 8080\n- my own note")
    md.write_text(edited)
    saved: list[Path] = []
    assert write_managed_block(md, NEW, previous=digest(OLD), saved=saved) is True
    assert md.read_text() == NEW + "\n"
    assert saved == _copies(tmp_path) and len(saved) == 1
    assert saved[0].read_text() == edited  # the whole file as the user left it, byte for byte
    assert stat.S_IMODE(saved[0].stat().st_mode) == 0o600
    # the next run finds the block it wrote: no second copy
    assert write_managed_block(md, OLD, previous=digest(NEW), saved=saved) is True
    assert len(_copies(tmp_path)) == 1 and len(saved) == 1


def test_no_copy_without_an_edit_nor_without_a_known_digest(tmp_path: Path) -> None:
    md = tmp_path / "MEMORY.md"
    md.write_text(f"# notes\n\n{OLD}\n")
    saved: list[Path] = []
    write_managed_block(md, NEW, previous=digest(OLD), saved=saved)  # the block is what mem wrote
    md.write_text(md.read_text().replace("9090", "1234"))
    write_managed_block(md, OLD, previous=None, saved=saved)  # no digest known (an older mem wrote it)
    assert saved == [] and _copies(tmp_path) == []
    assert md.read_text() == f"# notes\n\n{OLD}\n"


def test_crlf_and_trailing_spaces_from_an_editor_are_no_edit(tmp_path: Path) -> None:
    md = tmp_path / "MEMORY.md"
    write_managed_block(md, OLD)
    md.write_bytes(md.read_bytes().replace(b"\n", b"  \r\n"))  # an editor's CRLF and trailing spaces
    assert block_digest(md.read_bytes().decode()) == digest(OLD)
    saved: list[Path] = []
    write_managed_block(md, NEW, previous=digest(OLD), saved=saved)
    assert saved == []
    assert md.read_bytes() == NEW.replace("\n", "\r\n").encode() + b"\r\n"


def test_an_edited_crlf_file_is_copied_byte_for_byte(tmp_path: Path) -> None:
    md = tmp_path / "MEMORY.md"
    original = b"# Mine\r\n\r\n" + OLD.replace("\n", "\r\n").encode() + b"\r\nafter\r\n"
    md.write_bytes(original.replace(b"port 8080", b"port 8081 (fixed by hand)"))
    saved: list[Path] = []
    write_managed_block(md, NEW, previous=digest(OLD), saved=saved)
    assert saved[0].read_bytes() == original.replace(b"port 8080", b"port 8081 (fixed by hand)")
    assert md.read_bytes() == b"# Mine\r\n\r\n" + NEW.replace("\n", "\r\n").encode() + b"\r\nafter\r\n"


def test_read_only_file_is_left_alone_with_a_one_line_error(tmp_path: Path) -> None:
    md = tmp_path / "MEMORY.md"
    md.write_text(f"mine\n{OLD}\n")
    os.chmod(md, 0o444)
    with pytest.raises(ManagedBlockError, match=r"^read-only \(mode 0444\): left as it is; chmod u\+w") as err:
        write_managed_block(md, NEW, previous="0" * 16)
    assert "\n" not in str(err.value)
    assert md.read_text() == f"mine\n{OLD}\n" and stat.S_IMODE(md.stat().st_mode) == 0o444
    assert sorted(p.name for p in tmp_path.iterdir()) == ["MEMORY.md"]  # no temp file, no copy


def test_a_second_block_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    md = tmp_path / "MEMORY.md"
    text = f"a\n{OLD}\nb\n{OLD}\n"
    md.write_text(text)
    with pytest.raises(ManagedBlockError, match=r"^line 8: second <!-- mem:begin --> marker \(a managed block "
                                                r"already ends earlier\): delete one of the two blocks"):
        write_managed_block(md, NEW, previous=digest(OLD))
    assert md.read_text() == text and sorted(p.name for p in tmp_path.iterdir()) == ["MEMORY.md"]


# --------------------------------------------------------------------------- through consolidate


@pytest.fixture()
def facts(store: core.MemoryStore) -> core.MemoryStore:
    store.store("The gateway team is led by Ana Lima and deploys on Tuesdays", "semantic", importance=0.9)
    store.store("Oscar prefers morning meetings and short emails", "semantic", importance=0.8)
    return store


def test_consolidate_saves_the_users_edit_and_says_so(facts: core.MemoryStore, tmp_path: Path) -> None:
    md = tmp_path / "MEMORY.md"
    cons.run(facts, now=NOW, keep_backups=0, memory_md=md, phases=["write"])
    first = md.read_text()
    assert first.startswith(BEGIN + "\n" + HEADING + "\n") and first.endswith(END + "\n")
    md.write_text(first.replace(HEADING + "\n", HEADING + "\n- remember: Ana is on leave in March\n"))
    report = cons.run(facts, now=NOW, keep_backups=0, memory_md=md, phases=["write"]).to_dict()
    copies = _copies(tmp_path)
    assert len(copies) == 1 and "- remember: Ana is on leave in March" in copies[0].read_text()
    assert md.read_text() == first
    assert report["phases"]["write"]["edited_block_saved_to"] == str(copies[0])
    assert report["warnings"] == [f"{md}: the managed block had been edited; the file as it was is saved in "
                                  f"{copies[0]} (edits inside the block are replaced: keep notes outside it)"]
    again = cons.run(facts, now=NOW, keep_backups=0, memory_md=md, phases=["write"]).to_dict()
    assert "edited_block_saved_to" not in again["phases"]["write"] and len(_copies(tmp_path)) == 1


def test_consolidate_creates_a_missing_file_and_names_a_missing_folder(facts: core.MemoryStore,
                                                                      tmp_path: Path) -> None:
    md = tmp_path / "MEMORY.md"
    cons.run(facts, now=NOW, keep_backups=0, memory_md=md, phases=["write"])
    assert md.read_text().startswith(BEGIN + "\n")
    gone = tmp_path / "no such folder" / "MEMORY.md"
    with pytest.raises(UserError) as err:
        cons.run(facts, now=NOW, keep_backups=0, memory_md=gone, phases=["write"])
    assert str(err.value) == (f"{gone}: its folder {gone.parent} does not exist: create it, or give --memory-md a "
                              "file in a folder that is there")  # (users26: the folder named)
    assert not gone.parent.exists()


def test_consolidate_refuses_a_read_only_file_in_one_line(facts: core.MemoryStore, tmp_path: Path) -> None:
    md = tmp_path / "MEMORY.md"
    md.write_text("mine\n")
    os.chmod(md, 0o400)
    with pytest.raises(UserError) as err:
        cons.run(facts, now=NOW, keep_backups=0, memory_md=md, phases=["write"])
    assert str(err.value) == (f"{md}: read-only (mode 0400): left as it is; chmod u+w to let consolidate "
                              "update its block")
    os.chmod(md, 0o600)
    assert md.read_text() == "mine\n"


def test_consolidate_refuses_a_second_block_by_its_line(facts: core.MemoryStore, tmp_path: Path) -> None:
    md = tmp_path / "MEMORY.md"
    text = f"{OLD}\n\n{NEW}\n"
    md.write_text(text)
    with pytest.raises(UserError) as err:
        cons.run(facts, now=NOW, keep_backups=0, memory_md=md, phases=["write"])
    assert str(err.value) == (f"{md}: line 7: second {BEGIN} marker (a managed block already ends earlier): delete one "
                              "of the two blocks (mem rewrites the one left)")
    assert md.read_text() == text
