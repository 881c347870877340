"""users34 finding 3, through real subprocesses of ``mem.py`` (hash embedder): a store a newer mem wrote, salvaged
by an older one.

Every command refuses such a file (exit 11 "upgrade mem"), but ``doctor --recover NEW.db`` copied it into this
version's schema with ``ok: true`` and no word: the one way around "upgrade mem" silently dropped whatever the newer
migrations had added. The salvage still works (a damaged file is rescued with the mem at hand); it now says so.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

from conftest import run_cli_subprocess

HASH = {"MEM_EMBEDDER": "hash"}


def _run(db: Path, *args: str) -> tuple[int, dict[str, Any]]:
    proc = run_cli_subprocess("--db", str(db), "--json", *args, env=HASH)
    return proc.returncode, json.loads(proc.stdout.strip().splitlines()[-1])


def test_recovering_a_newer_stores_file_warns_that_the_copy_is_older(tmp_path: Path) -> None:
    db = tmp_path / "laptop.db"
    assert _run(db, "store", "Oscar prefers morning meetings")[0] == 0
    newer = tmp_path / "newer.db"
    shutil.copy(db, newer)
    with sqlite3.connect(newer) as conn:
        conn.execute("INSERT INTO _mem_migrations(name, applied_at) VALUES ('m999_future', '2099-01-01')")
    assert _run(newer, "stats")[0] == 11
    code, out = _run(newer, "doctor", "--recover", str(tmp_path / "rec.db"))
    assert code == 0 and out["data"]["newer_migrations"] == ["m999_future"], out
    assert out["warnings"] == [
        f"{newer}: written by a newer mem (unknown migrations: m999_future); {tmp_path / 'rec.db'} has this version's "
        "schema, without what those migrations added: upgrade mem and recover again to keep it"]
    code, out = _run(tmp_path / "rec.db", "recall", "Oscar meetings")
    assert code == 0 and out["data"]["results"][0]["content"] == "Oscar prefers morning meetings"
    code, out = _run(db, "doctor", "--recover", str(tmp_path / "rec2.db"))  # a file of this version: no warning
    assert code == 0 and out["data"]["newer_migrations"] == [] and "warnings" not in out, out
