"""users26 findings 3 and 4: ``consolidate --dry-run --memory-md`` ("report exactly what a real run would do") said
nothing of a line the user had typed inside the managed block, which the real run then saved aside and replaced; and
on a UTF-16 MEMORY.md it said ``"changed": true`` every night (it read the file as UTF-8; the real run changed
nothing). The dry run now reads the file as the writer does (memengine/memorymd.preview). Finding 5: a dry run
created the consolidate lock file next to the database. Real subprocesses on real files."""

from __future__ import annotations

import codecs
import json
from pathlib import Path

from conftest import run_cli_subprocess


def _run(*args: str) -> dict:
    proc = run_cli_subprocess(*args)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout)


def _store(db: str) -> None:
    for text in ("Priya is allergic to peanuts", "The spare key is with Mrs. Alvarez on floor 2"):
        _run("--db", db, "store", text, "--importance", "0.9")


def test_a_dry_run_says_the_block_was_edited_and_writes_nothing(tmp_path: Path) -> None:
    db, md = str(tmp_path / "m.db"), tmp_path / "MEMORY.md"
    _store(db)
    md.write_text("# my notes\n", encoding="utf-8")
    _run("--db", db, "consolidate", "--memory-md", str(md))
    text = md.read_text(encoding="utf-8")
    edited = text.replace("<!-- mem:end -->", "- my own line, typed inside\n<!-- mem:end -->")
    md.write_text(edited, encoding="utf-8")
    dry = _run("--db", db, "consolidate", "--dry-run", "--memory-md", str(md))
    write = dry["data"]["phases"]["write"]
    assert write["changed"] is True and write["edited_block_would_be_saved"] is True
    assert [w for w in dry["warnings"] if "has been edited" in w and "MEMORY.md.edited-<time>" in w]
    assert md.read_text(encoding="utf-8") == edited
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("MEMORY")) == ["MEMORY.md"]
    real = _run("--db", db, "consolidate", "--memory-md", str(md))["data"]["phases"]["write"]
    assert real["edited_block_saved_to"].startswith(str(md) + ".edited-")  # what the dry run announced


def test_a_dry_run_on_an_unedited_block_warns_of_nothing(tmp_path: Path) -> None:
    db, md = str(tmp_path / "m.db"), tmp_path / "MEMORY.md"
    _store(db)
    _run("--db", db, "consolidate", "--memory-md", str(md))
    dry = _run("--db", db, "consolidate", "--dry-run", "--memory-md", str(md))
    assert dry["data"]["phases"]["write"] == {"phase": "write", "memory_md": str(md), "changed": False,
                                              "block_chars": dry["data"]["phases"]["write"]["block_chars"],
                                              "seconds": dry["data"]["phases"]["write"]["seconds"]}
    assert not [w for w in dry.get("warnings", []) if "edited" in w]


def test_a_dry_run_reads_a_utf16_file_as_the_real_run_does(tmp_path: Path) -> None:
    db, md = str(tmp_path / "m.db"), tmp_path / "MEMORY.md"
    _store(db)
    md.write_bytes(codecs.BOM_UTF16_LE + "# Notizen\r\n".encode("utf-16-le"))
    assert _run("--db", db, "consolidate", "--memory-md", str(md))["data"]["phases"]["write"]["changed"] is True
    before = md.read_bytes()
    assert _run("--db", db, "consolidate", "--memory-md", str(md))["data"]["phases"]["write"]["changed"] is False
    dry = _run("--db", db, "consolidate", "--dry-run", "--memory-md", str(md))
    assert dry["data"]["phases"]["write"]["changed"] is False
    assert md.read_bytes() == before
