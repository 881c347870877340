"""users34 finding 2, through real subprocesses of ``mem.py`` (hash embedder): a store under a file size limit.

A shared host's quota or a cron's limits (``ulimit -f``) stop the memory file from growing. SQLite reports the write
refused (EFBIG) as a disk I/O error, so an import ended with exit 12 ``io_error`` "check the disk, then run doctor"
on a healthy disk, without saying how many notes had landed or that a re-run resumes. It is now exit 10
``disk_full`` naming the limit, and the import says how far it got; raised, the same import adds the rest.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

from conftest import ROOT

LIMIT = 1_200_000  # bytes: the store fits a few hundred of the notes below, not all of them


def _run(db: Path, *args: str, limit: int | None = None) -> tuple[int, dict[str, Any]]:
    def _limited() -> None:
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    env = dict(os.environ, MEM_EMBEDDER="hash", MEM_NO_SERVER="1")
    proc = subprocess.run([sys.executable, str(ROOT / "mem.py"), "--db", str(db), "--json", *args],
                          capture_output=True, text=True, env=env, timeout=300, preexec_fn=_limited)
    return proc.returncode, json.loads(proc.stdout.strip().splitlines()[-1])


def test_an_import_stopped_by_a_file_size_limit_says_so_and_resumes(tmp_path: Path) -> None:
    notes = tmp_path / "notes.jsonl"
    words = "alpha beta gamma delta epsilon zeta theta kappa lambda sigma".split()
    with notes.open("w") as fh:
        for i in range(3000):
            text = f"note {i}: " + " ".join(words[(i * 7 + j * 3) % len(words)] for j in range(50)) + f" end {i}"
            fh.write(json.dumps({"content": text, "memory_type": "semantic"}) + "\n")
    db = tmp_path / "m.db"
    assert _run(db, "store", "first note")[0] == 0
    code, out = _run(db, "import", "jsonl", str(notes), limit=LIMIT)
    assert code == 10, out
    assert out["error"]["code"] == "disk_full"
    message = out["error"]["message"]
    assert "file size limit" in message and f"{LIMIT:,} bytes" in message, message
    assert "of 3000 messages were written" in message and "run the same import again" in message, message
    code, stats = _run(db, "stats")
    landed = stats["data"]["memories"] - 1
    assert code == 0 and 0 < landed < 3000
    code, out = _run(db, "import", "jsonl", str(notes))  # the limit raised: the rest lands
    assert code == 0 and out["data"]["memories_added"] == 3000 - landed, out
    assert _run(db, "doctor")[0] == 0


def test_a_store_refused_by_the_limit_is_disk_full_naming_it(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    assert _run(db, "store", "first note")[0] == 0
    code, out = _run(db, "store", "a second note", limit=4096)  # not even the write-ahead log's first page fits
    assert code == 10 and out["error"]["code"] == "disk_full", out
    assert "the file size limit (4,096 bytes" in out["error"]["message"], out
    code, out = _run(db, "stats")
    assert code == 0 and out["data"]["memories"] == 1
