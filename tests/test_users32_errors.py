"""users32 finding 2: SKILL.md says "Every error is one JSON line whose message names the file and what to do";
"no memory with id 99999" named no file, so an agent with two stores could not tell a wrong id from a wrong file.
The one-shot CLI (a real subprocess), and the MCP server's tools (its error path is the same function)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli_subprocess

HASH = {"MEM_EMBEDDER": "hash"}
TO_DO = "(another store? --db or MEM_DB names it)"


def _error(*args: str, cwd: Path | None = None) -> tuple[int, dict[str, str]]:
    proc = run_cli_subprocess(*args, env=HASH, cwd=cwd)
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stdout + proc.stderr
    return proc.returncode, dict(json.loads(lines[0])["error"])


def test_not_found_names_the_file_and_what_to_do(tmp_path: Path) -> None:
    db = tmp_path / "work.db"
    assert run_cli_subprocess("--db", str(db), "store", "Oscar prefers morning meetings", env=HASH).returncode == 0
    for args, what in ((("get", "99999"), "no memory with id 99999"), (("forget", "9999"), "no memory with id 9999"),
                       (("link", "1", "9999"), "no memory with id 9999"),
                       (("contradictions", "--resolve", "77", "--keep", "1"), "no contradiction with id 77")):
        code, err = _error("--db", str(db), *args)
        assert code == 3 and err == {"code": "not_found", "message": f"{what} in {db} {TO_DO}"}, args


def test_a_relative_db_is_named_as_the_whole_path(tmp_path: Path) -> None:
    assert run_cli_subprocess("--db", "rel.db", "store", "Dana lands at 5pm", env=HASH, cwd=tmp_path).returncode == 0
    code, err = _error("--db", "rel.db", "get", "42", cwd=tmp_path)
    assert code == 3 and err["message"] == f"no memory with id 42 in {tmp_path / 'rel.db'} {TO_DO}"
