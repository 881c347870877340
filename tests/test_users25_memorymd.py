"""users25 finding 7: ``consolidate --memory-md`` on a UTF-16 MEMORY.md (Windows Notepad's "Unicode") appended its
block in UTF-8: the user's bytes were kept, but the file was then neither encoding (an editor showed mojibake).
The block is now written in the file's encoding, its BOM kept; the next night changes nothing
(memengine/memorymd.py). Real subprocesses on real files."""

from __future__ import annotations

import codecs
import json
from pathlib import Path

import pytest
from conftest import run_cli_subprocess


@pytest.mark.parametrize(("bom", "codec", "newline"), [(codecs.BOM_UTF16_LE, "utf-16-le", "\r\n"),
                                                       (codecs.BOM_UTF16_BE, "utf-16-be", "\n")])
def test_a_utf16_memory_md_gets_its_block_in_utf16(tmp_path: Path, bom: bytes, codec: str, newline: str) -> None:
    db = str(tmp_path / "m.db")
    for text in ("Grete's allergy: no peanuts, ever", "The spare key is with Herr Öztürk on floor 2"):
        assert run_cli_subprocess("--db", db, "store", text, "--importance", "0.9").returncode == 0
    md = tmp_path / "MEMORY.md"
    mine = newline.join(["# Notizen", "Grüße aus Köln — bitte nicht löschen", ""])
    md.write_bytes(bom + mine.encode(codec))
    before = md.read_bytes()
    proc = run_cli_subprocess("--db", db, "consolidate", "--memory-md", str(md))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert json.loads(proc.stdout)["data"]["phases"]["write"]["changed"] is True
    after = md.read_bytes()
    assert after.startswith(before)  # the user's text, byte for byte
    text = after[len(bom):].decode(codec)  # the whole file reads in its own encoding (strict)
    assert text.startswith(mine + newline + "<!-- mem:begin -->" + newline)
    assert text.endswith("<!-- mem:end -->" + newline)
    assert "Herr Öztürk" in text and text.count("<!-- mem:begin -->") == 1
    again = run_cli_subprocess("--db", db, "consolidate", "--memory-md", str(md))
    assert again.returncode == 0
    assert json.loads(again.stdout)["data"]["phases"]["write"]["changed"] is False
    assert md.read_bytes() == after
