"""Shared helpers of the importer tests (rounds 1-3 of unseen layouts): the CLI checks, and the parser calls
every round makes."""
from __future__ import annotations

import json
import zipfile
from pathlib import Path

from conftest import run_cli

from importers import ImportReport, Record, whatsapp


def write_zip(path: Path, members: dict[str, bytes]) -> Path:
    """A zip at ``path`` holding ``members`` (name -> bytes)."""
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return path


def one_envelope(proc: object) -> dict:
    """The single JSON line a CLI call printed."""
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]  # type: ignore[attr-defined]
    assert len(lines) == 1, proc.stdout + proc.stderr  # type: ignore[attr-defined]
    return json.loads(lines[0])


def assert_broken_import_fails(tmp_path: Path, name: str, content: dict[str, bytes] | bytes, message: str) -> Path:
    """`mem.py import` of a broken export: exit 1, code invalid_input, one line naming the file and
    holding ``message``, nothing written; returns the export's path."""
    path = tmp_path / name
    if isinstance(content, dict):
        write_zip(path, content)
    else:
        path.write_bytes(content)
    db = tmp_path / "m.db"
    proc = run_cli("--db", str(db), "import", str(path))
    out = one_envelope(proc)
    assert proc.returncode == 1 and out["error"]["code"] == "invalid_input", out
    assert str(path) in out["error"]["message"] and message in out["error"]["message"], out
    assert "\n" not in out["error"]["message"] and "Traceback" not in proc.stderr  # type: ignore[attr-defined]
    assert not db.exists() or memory_count(db) == 0
    return path


def memory_count(db: Path) -> int:
    """Memories in ``db``, as `mem.py stats` counts them."""
    return int(one_envelope(run_cli("--db", str(db), "stats"))["data"]["memories"])


def wa(path: Path, **options: object) -> tuple[list[Record], ImportReport]:
    """The records and report of ``whatsapp.parse`` on ``path``."""
    rep = ImportReport(str(path), "whatsapp")
    return list(whatsapp.parse(path, rep, **options)), rep
