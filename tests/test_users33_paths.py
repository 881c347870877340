"""users33 findings 3 and 4, through real subprocesses of ``mem.py`` (hash embedder):

* moving a store: ``restore --list --from ../usb`` and ``restore NAME --from ../usb`` answered paths relative to the
  folder the command ran in (``"restored_from": "../usb/mem-laptop.db"``); they are absolute now;
* the nightly consolidate after the user deleted the ``<!-- mem:end -->`` line (or pasted the block twice): the
  error names the file and the line and now says what to do.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import run_cli_subprocess

HASH = {"MEM_EMBEDDER": "hash"}


def _run(*args: str, cwd: Path | None = None) -> tuple[int, dict[str, Any]]:
    proc = run_cli_subprocess(*args, env=HASH, cwd=cwd)
    return proc.returncode, json.loads(proc.stdout.strip().splitlines()[-1])


def test_restore_from_a_relative_folder_answers_absolute_paths(tmp_path: Path) -> None:
    laptop, desk, usb = tmp_path / "laptop.db", tmp_path / "desk", tmp_path / "usb"
    desk.mkdir()
    usb.mkdir()
    assert _run("--db", str(laptop), "store", "Oscar prefers morning meetings")[0] == 0
    assert _run("--db", str(laptop), "backup", str(usb / "mem-laptop.db"))[0] == 0
    target = desk / "memory.db"
    code, listed = _run("--db", str(target), "restore", "--list", "--from", "../usb", cwd=desk)
    assert code == 0, listed
    assert listed["data"]["folder"] == str(usb)  # was "../usb"
    assert [b["path"] for b in listed["data"]["backups"]] == [str(usb / "mem-laptop.db")]  # was "../usb/…"
    code, done = _run("--db", str(target), "restore", "mem-laptop.db", "--from", "../usb", cwd=desk)
    assert code == 0, done
    assert done["data"]["restored_from"] == str(usb / "mem-laptop.db")
    code, again = _run("--db", str(target), "restore", "../usb/mem-laptop.db", "--dry-run", cwd=desk)
    assert code == 0 and again["data"]["restored_from"] == str(usb / "mem-laptop.db")
    code, got = _run("--db", str(target), "recall", "Oscar meetings")
    assert code == 0 and got["data"]["results"][0]["content"] == "Oscar prefers morning meetings"


def test_consolidate_says_what_to_do_with_a_broken_block(tmp_path: Path) -> None:
    db, md = tmp_path / "m.db", tmp_path / "MEMORY.md"
    assert _run("--db", str(db), "store", "Oscar prefers morning meetings", "--importance", "0.9")[0] == 0
    md.write_text("# notes\n\nRun the tests first.\n")
    assert _run("--db", str(db), "consolidate", "--memory-md", str(md))[0] == 0
    text = md.read_text()
    assert "<!-- mem:end -->" in text
    md.write_text(text.replace("<!-- mem:end -->\n", "") + "my line after\n")  # the user deleted the end line
    code, err = _run("--db", str(db), "consolidate", "--memory-md", str(md), "--phases", "write")
    assert code == 1
    assert err["error"]["message"] == (
        f"{md}: line 5: <!-- mem:begin --> marker without a matching <!-- mem:end -->: put <!-- mem:end --> back after "
        "the block's last line, or delete the block (mem writes a new one)")
    block = text[text.index("<!-- mem:begin -->"):]
    md.write_text(text + "\n" + block)  # the block pasted twice
    code, err = _run("--db", str(db), "consolidate", "--memory-md", str(md), "--phases", "write")
    assert code == 1 and err["error"]["message"].endswith(": delete one of the two blocks (mem rewrites the one left)")
    md.write_text(text)  # put back as it was: consolidate writes again
    assert _run("--db", str(db), "consolidate", "--memory-md", str(md), "--phases", "write")[0] == 0
