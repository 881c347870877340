"""The managed block survives what agents and people do to MEMORY.md between runs."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from memengine.memorymd import BEGIN, END, ManagedBlockError, splice, strip_block, write_managed_block

BLOCK = f"{BEGIN}\n## Memory\n- one fact\n{END}"
NEW = f"{BEGIN}\n## Memory\n- another fact\n{END}"


def test_block_appended_to_a_file_without_final_newline_ends_with_one(tmp_path: Path) -> None:
    md = tmp_path / "MEMORY.md"
    md.write_bytes(b"# My notes")
    assert write_managed_block(md, BLOCK)
    assert md.read_bytes() == f"# My notes\n\n{BLOCK}\n".encode()


def test_echo_after_the_block_starts_a_new_line_and_the_next_run_keeps_it(tmp_path: Path) -> None:
    md = tmp_path / "MEMORY.md"
    md.write_bytes(b"notes")
    write_managed_block(md, BLOCK)
    # what an agent does between runs, through a real shell
    subprocess.run(["sh", "-c", f"echo 'remember: tea' >> '{md}'"], check=True)
    assert md.read_text().endswith(f"{END}\nremember: tea\n")
    assert write_managed_block(md, NEW)
    assert md.read_text() == f"notes\n\n{NEW}\nremember: tea\n"


def test_text_glued_to_the_end_marker_is_the_users_and_moves_to_its_own_line(tmp_path: Path) -> None:
    # a file written by an older version (block without final newline), then `echo x >>`
    md = tmp_path / "MEMORY.md"
    md.write_bytes(f"top\n{BLOCK}x\n".encode())
    assert write_managed_block(md, NEW)
    assert md.read_text() == f"top\n{NEW}\nx\n"
    assert not write_managed_block(md, NEW)  # and now it is stable
    assert strip_block(f"top\n{BLOCK}x\n") == "top\nx\n"
    assert strip_block(f"top\r\n{BLOCK}tail") == "top\r\ntail"


def test_end_marker_ending_the_file_gets_its_line_break() -> None:
    assert splice(f"a\n{BLOCK}", NEW) == f"a\n{NEW}\n"
    crlf = "a\r\n" + BLOCK.replace("\n", "\r\n")
    assert splice(crlf, NEW) == "a\r\n" + NEW.replace("\n", "\r\n") + "\r\n"


def test_second_run_with_the_same_block_does_not_rewrite(tmp_path: Path) -> None:
    md = tmp_path / "MEMORY.md"
    md.write_bytes(b"mine")
    assert write_managed_block(md, BLOCK)
    before = md.read_bytes(), md.stat().st_mtime_ns
    assert not write_managed_block(md, BLOCK)
    assert (md.read_bytes(), md.stat().st_mtime_ns) == before


def test_a_sentence_mentioning_the_end_marker_is_still_not_a_marker() -> None:
    with pytest.raises(ManagedBlockError, match="line 1: <!-- mem:begin --> marker without a matching"):
        splice(f"{BEGIN}\nsee the {END} marker\n", NEW)
