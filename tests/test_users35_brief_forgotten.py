"""users35 sweep #11, real subprocesses of ``mem.py`` (hash embedder): a forgotten old value of a fact was quoted by
the brief and by MEMORY.md.

An agent stores "… lion-12", then "… tiger-43" (it replaces #1), and the user asks to forget the old password
(``forget 1``: "hidden from recall"). Recall hid it; the brief's "Recently changed" still said
``#2 … tiger-43 (replaces #1: "The wifi password at the office is lion-12")``, at every session start, and the
nightly consolidate wrote it into MEMORY.md in plain text. Now a forgotten old value is not quoted; the new fact
still shows.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import run_cli_subprocess

HASH = {"MEM_EMBEDDER": "hash"}


def _run(db: Path, *args: str) -> tuple[int, dict[str, Any]]:
    proc = run_cli_subprocess("--db", str(db), "--json", *args, env=HASH)
    return proc.returncode, json.loads(proc.stdout.strip().splitlines()[-1])


def test_a_forgotten_old_value_is_not_quoted(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    assert _run(db, "store", "The wifi password at the office is lion-12")[0] == 0
    code, out = _run(db, "store", "The wifi password at the office is tiger-43")
    assert code == 0 and out["data"]["supersedes"] == [1]
    code, out = _run(db, "brief")
    assert code == 0 and 'replaces #1: "The wifi password at the office is lion-12"' in out["data"]["text"]
    assert _run(db, "forget", "1")[0] == 0
    code, out = _run(db, "brief")
    assert code == 0
    assert "lion-12" not in out["data"]["text"] and "#2 The wifi password at the office is tiger-43" in out["data"]["text"]
    md = tmp_path / "MEMORY.md"
    md.write_text("# notes\n", encoding="utf-8")
    code, out = _run(db, "consolidate", "--memory-md", str(md))
    assert code == 0, out
    text = md.read_text(encoding="utf-8")
    assert "lion-12" not in text and "tiger-43" in text
    # restoring it brings the line back as it was
    assert _run(db, "restore", "1")[0] == 0
    code, out = _run(db, "brief")
    assert 'replaces #1: "The wifi password at the office is lion-12"' in out["data"]["text"]
