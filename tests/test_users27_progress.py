"""users27 findings 1 and 2: a long import showed no total and no ETA on a terminal (the CLI opened the bar with
``total=None`` and never passed ``import_path`` its ``set_total``), and an agent following an import had nothing
to read until the end. Real subprocesses: the terminal one on a pseudo-terminal, the agent one with pipes."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, run_cli_subprocess


def _chat(path: Path, n: int) -> Path:
    lines = [f"{1 + i // 600 % 28:02d}/03/2021, {i // 60 % 10 + 10:02d}:{i % 60:02d} - {('Ana', 'Bruno')[i % 2]}: "
             f"message number {i} about the trip" for i in range(n)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_json_progress_names_the_total_from_the_start_and_ends_at_it(tmp_path: Path) -> None:
    chat = _chat(tmp_path / "WhatsApp Chat with Ana.txt", 700)
    proc = run_cli_subprocess("--db", str(tmp_path / "m.db"), "import", "whatsapp", str(chat), "--progress", "json",
                              env={"MEM_EMBEDDER": "hash"})
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["data"]["memories_added"] == 700
    lines = [json.loads(line) for line in proc.stderr.splitlines() if line.strip()]
    assert lines, proc.stderr
    assert all(set(x) == {"progress", "phase", "done", "total", "elapsed_s", "eta_s"} for x in lines)
    # the count of pass 1, before a row is written: each message written, then grouped (users31: both phases)
    assert lines[0]["done"] == 0 and lines[0]["total"] == 1400 and lines[0]["phase"] == "messages"
    assert lines[-1]["done"] == 1400 and lines[-1]["total"] == 1400 and lines[-1]["eta_s"] == 0.0
    done = [x["done"] for x in lines]
    assert done == sorted(done) and all(x["progress"] == "importing WhatsApp Chat with Ana.txt" for x in lines)


def test_without_the_option_a_piped_import_writes_no_progress(tmp_path: Path) -> None:
    chat = _chat(tmp_path / "chat.txt", 50)
    proc = run_cli_subprocess("--db", str(tmp_path / "m.db"), "import", "whatsapp", str(chat),
                              env={"MEM_EMBEDDER": "hash"})
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_the_bar_on_a_terminal_shows_the_total(tmp_path: Path) -> None:
    import pty

    chat = _chat(tmp_path / "chat.txt", 300)
    main, sub = pty.openpty()
    env = dict(os.environ, MEM_EMBEDDER="hash", COLUMNS="100")
    proc = subprocess.Popen([sys.executable, str(ROOT / "mem.py"), "--db", str(tmp_path / "m.db"), "--plain",
                             "import", "whatsapp", str(chat)], stdout=subprocess.PIPE, stderr=sub, env=env,
                            cwd=str(ROOT))
    os.close(sub)
    seen = b""
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the other end closed (Linux raises EIO)
            break
        if not chunk:
            break
        seen += chunk
    os.close(main)
    out = proc.stdout.read() if proc.stdout else b""
    assert proc.wait() == 0, out
    shown = re.findall(rb"\d+/(\d+|\?)", seen)  # "0/?" while pass 1 parses, then the count
    assert shown and shown[-1] == b"600", seen[-400:]  # 300 written, then 300 grouped into episodes
