"""users25 findings 5 and 6: a notes folder holding a broken link (a moved file, a cloud placeholder) failed the
whole import ("broken.md: No such file or directory", nothing imported), and one holding a named pipe hung the
import for ever. Both are skipped now, each named in a warning; the notes beside them are imported
(importers/markdown.py). A real subprocess on a real folder (its timeout only guards against the old hang)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import run_cli_subprocess


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX thing")
def test_a_broken_link_and_a_pipe_in_a_vault_are_skipped_and_named(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    (vault / "trips").mkdir(parents=True)
    (vault / "groceries.md").write_text("# Groceries\n\nOat milk, rye bread and capers.\n", encoding="utf-8")
    (vault / "trips" / "lisbon.md").write_text("# Lisbon\n\nThe tram 28 stop is by the hotel.\n", encoding="utf-8")
    (vault / "moved.md").symlink_to(tmp_path / "elsewhere" / "moved.md")  # its target is gone
    os.mkfifo(vault / "trips" / "inbox.md")
    os.mkfifo(vault / "clip.html")
    db = str(tmp_path / "m.db")
    proc = run_cli_subprocess("--db", db, "import", str(vault), timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    data = json.loads(proc.stdout)["data"]
    assert (data["format"], data["memories_added"]) == ("markdown", 2)
    assert data["warnings"] == [
        f"{vault}: moved.md: not a readable file (a broken link or a pipe); skipped",
        f"{vault}: trips/inbox.md: not a readable file (a broken link or a pipe); skipped",
    ]
    again = json.loads(run_cli_subprocess("--db", db, "import", "markdown", str(vault), timeout=120).stdout)["data"]
    assert (again["memories_added"], again["skipped_duplicates"]) == (0, 2)
