"""users32 finding 3: `import FILE.jsonl --progress json` (an export read back) said ``"total": null`` on every line,
its last one too, although SKILL.md promises a last line with ``done`` = ``total``. Real subprocesses of ``mem.py``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import run_cli_subprocess

HASH = {"MEM_EMBEDDER": "hash"}


def _lines(db: Path, path: Path) -> list[dict[str, Any]]:
    proc = run_cli_subprocess("--db", str(db), "import", str(path), "--progress", "json", env=HASH)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return [json.loads(line) for line in proc.stderr.splitlines() if line.startswith("{")]


def test_a_json_lines_import_has_a_total_from_its_first_line(tmp_path: Path) -> None:
    path = tmp_path / "export.jsonl"
    with path.open("w", encoding="utf-8") as f:
        for i in range(600):
            f.write(json.dumps({"content": f"Build server {i % 37} rebooted after disk alert {i}",
                                "memory_type": "episodic", "source": "ops"}) + "\n")
    db = tmp_path / "m.db"
    lines = _lines(db, path)
    assert lines and all(line["total"] == 600 for line in lines)  # was null on every line
    assert lines[-1]["done"] == 600 and lines[-1]["eta_s"] == 0.0
    assert [line["done"] for line in lines] == sorted(line["done"] for line in lines)
    assert any(line["eta_s"] is not None and 0 < line["done"] < 600 for line in lines)
    # a second import of the same file adds nothing and still ends at done = total
    again = _lines(db, path)
    assert again[-1]["done"] == again[-1]["total"] == 600
