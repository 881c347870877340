"""users26 findings 7, 10, 11 and 12 (users25 #10, #15, #16, #21, left then): a classic-Mac MEMORY.md got its block in
LF; ``brief`` on an empty store said "# Briefing" and nothing else; ``doctor --plain`` printed a 307-character
line; ``consolidate --memory-md`` into a missing folder said "No such file or directory" of the link, not the
folder. Real subprocesses on real files."""

from __future__ import annotations

import json
import os
from pathlib import Path

from conftest import run_cli_subprocess


def _ok(*args: str) -> dict:
    proc = run_cli_subprocess(*args)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout)


def test_a_cr_only_memory_md_gets_its_block_in_cr_and_the_next_night_changes_nothing(tmp_path: Path) -> None:
    db, md = str(tmp_path / "m.db"), tmp_path / "MEMORY.md"
    _ok("--db", db, "store", "Priya is allergic to peanuts", "--importance", "0.9")
    mine = b"# my notes\rwritten on a Mac in 1999\r"
    md.write_bytes(mine)
    assert _ok("--db", db, "consolidate", "--memory-md", str(md))["data"]["phases"]["write"]["changed"] is True
    after = md.read_bytes()
    assert after.startswith(mine + b"\r<!-- mem:begin -->\r") and after.endswith(b"<!-- mem:end -->\r")
    assert b"\n" not in after and b"Priya is allergic to peanuts" in after
    assert _ok("--db", db, "consolidate", "--memory-md", str(md))["data"]["phases"]["write"]["changed"] is False
    assert md.read_bytes() == after
    md.write_bytes(after + b"- a line typed below, later\r")  # the user's text after the block stays theirs
    assert _ok("--db", db, "consolidate", "--memory-md", str(md))["data"]["phases"]["write"]["changed"] is False
    assert md.read_bytes().count(b"<!-- mem:begin -->") == 1


def test_brief_on_an_empty_store_says_how_to_fill_it(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    env = _ok("--db", db, "brief")
    hint = 'no memories yet: store what you learn (mem.py store "...") or import history once (mem.py import PATH)'
    assert env["data"]["warnings"] == [hint] and env["warnings"] == [hint] and env["data"]["text"] == "# Briefing"
    plain = run_cli_subprocess("--db", db, "--plain", "brief")
    assert plain.returncode == 0 and plain.stdout == "# Briefing\n" and f"warning: {hint}" in plain.stderr
    _ok("--db", db, "store", "Oscar prefers morning meetings")
    assert not [w for w in _ok("--db", db, "brief")["data"]["warnings"] if w.startswith("no memories yet")]


def test_doctor_plain_fits_eighty_columns_but_for_a_checksum(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    _ok("--db", db, "store", "Oscar prefers morning meetings")
    proc = run_cli_subprocess("--db", db, "--plain", "doctor", env={"COLUMNS": "80"})
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert [line for line in lines if len(line) > 80 and " " in line.strip()] == []  # only one unbreakable word
    migrations = [line for line in lines if line.startswith("migrations ")]
    assert len(migrations) == 1 and " applied, the last m0" in migrations[0]


def test_memory_md_in_a_missing_folder_names_the_folder(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    _ok("--db", db, "store", "Oscar prefers morning meetings")
    proc = run_cli_subprocess("--db", db, "consolidate", "--memory-md", str(tmp_path / "nodir" / "MEMORY.md"))
    assert proc.returncode == 1
    message = json.loads(proc.stdout)["error"]["message"]
    assert message == (f"{tmp_path / 'nodir' / 'MEMORY.md'}: its folder {tmp_path / 'nodir'} does not exist: create "
                       "it, or give --memory-md a file in a folder that is there")
    link = tmp_path / "MEMORY.md"
    os.symlink(tmp_path / "moved" / "MEMORY.md", link)
    proc = run_cli_subprocess("--db", db, "consolidate", "--memory-md", str(link))
    assert proc.returncode == 1
    assert f"its folder {tmp_path / 'moved'} does not exist (the link points to {tmp_path / 'moved' / 'MEMORY.md'})" \
        in json.loads(proc.stdout)["error"]["message"]
