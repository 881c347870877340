"""users34 finding 6: the nightly ``consolidate --memory-md`` when MEMORY.md's disk is full or its folder read-only.

Found on a full 3 MB tmpfs holding MEMORY.md: exit 1 ``invalid_input`` "…/MEMORY.md: No space left on device" — the
code of a user's typo, not SKILL's 10 (disk full), so a cron wrapper that retries on 10 gave up, and nothing said
the file was intact or how to write the block later. The full disk is faked here by the write of the block's temporary
file failing with ENOSPC (a tmpfs needs mount rights a test does not have); the read-only folder by its creation
failing with EROFS.
"""

from __future__ import annotations

import errno
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli

HASH = {"MEM_EMBEDDER": "hash"}
MINE = "# my notes\n\nkeep this line\n"


def _run(*args: str) -> tuple[int, dict[str, Any]]:
    proc = run_cli(*args, env=HASH)
    return proc.returncode, json.loads(proc.stdout.strip().splitlines()[-1])


def _store(tmp_path: Path) -> tuple[Path, Path]:
    db, md = tmp_path / "m.db", tmp_path / "MEMORY.md"
    assert _run("--db", str(db), "store", "Oscar prefers morning meetings", "--importance", "0.9")[0] == 0
    md.write_text(MINE)
    return db, md


def test_a_full_disk_under_memory_md_is_exit_10_and_the_file_intact(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    db, md = _store(tmp_path)
    real = os.fsync

    def full(fd: int) -> None:
        if os.readlink(f"/proc/self/fd/{fd}").endswith(".mem-tmp"):
            raise OSError(errno.ENOSPC, "No space left on device")
        real(fd)

    monkeypatch.setattr(os, "fsync", full)
    code, out = _run("--db", str(db), "consolidate", "--memory-md", str(md))
    assert code == 10 and out["error"]["code"] == "disk_full", out
    assert out["error"]["message"] == (
        f"{md}: the disk holding it is full: the file is as it was; free some space, then "
        f"`mem.py consolidate --phases write --memory-md {md}` writes the block")
    assert md.read_text() == MINE
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".mem-tmp")] == []
    monkeypatch.setattr(os, "fsync", real)
    code, out = _run("--db", str(db), "consolidate", "--phases", "write", "--memory-md", str(md))
    assert code == 0 and out["data"]["phases"]["write"]["changed"] is True
    assert md.read_text().startswith(MINE) and "Oscar prefers morning meetings" in md.read_text()


def test_a_read_only_folder_under_memory_md_is_exit_9(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db, md = _store(tmp_path)

    def read_only(*_a: Any, **_k: Any) -> tuple[int, str]:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    code, out = _run("--db", str(db), "consolidate", "--phases", "write", "--memory-md", str(md))
    assert code == 9 and out["error"]["code"] == "read_only", out
    assert out["error"]["message"].startswith(f"{md}: its folder cannot be written")
    assert md.read_text() == MINE


def test_a_missing_folder_is_still_the_users_input(tmp_path: Path) -> None:
    db, _ = _store(tmp_path)
    md = tmp_path / "nowhere" / "MEMORY.md"
    code, out = _run("--db", str(db), "consolidate", "--phases", "write", "--memory-md", str(md))
    assert code == 1 and out["error"]["code"] == "invalid_input", out
    assert f"its folder {tmp_path / 'nowhere'} does not exist" in out["error"]["message"]
