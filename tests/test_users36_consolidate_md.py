"""users36 #3b (users35 #8): the nightly consolidate whose MEMORY.md block the user broke says what it did.

The user's edit removed ``<!-- mem:end -->``; the night's run did every other phase and committed them, then failed on
MEMORY.md with exit 1 and the error alone: a cron's log read as "nothing happened". Now the error is the same (code,
message, exit), and the envelope also carries the report (``data.phases``), as ``doctor``'s failed report does, with a
warning saying the other phases ran and are kept; the file is untouched. Real subprocesses of ``mem.py`` (hash embedder).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import run_cli_subprocess

HASH = {"MEM_EMBEDDER": "hash"}


def _run(db: Path, *args: str, json_mode: bool = True) -> Any:
    return run_cli_subprocess("--db", str(db), "--json" if json_mode else "--plain", *args, env=HASH)


def test_the_report_survives_a_broken_block(tmp_path: Path) -> None:
    db, md = tmp_path / "m.db", tmp_path / "MEMORY.md"
    for text in ("Oscar prefers morning meetings", "The standup moved to 10:00", "Ana is allergic to shellfish"):
        assert _run(db, "store", text, "--importance", "0.9").returncode == 0
    md.write_text("# notes\n", encoding="utf-8")
    assert _run(db, "consolidate", "--memory-md", str(md)).returncode == 0
    broken = md.read_text(encoding="utf-8").replace("<!-- mem:end -->\n", "") + "my line after\n"
    md.write_text(broken, encoding="utf-8")
    assert _run(db, "store", "Ben drives the van on Friday").returncode == 0

    proc = _run(db, "consolidate", "--memory-md", str(md))
    assert proc.returncode == 1, proc.stdout
    env = json.loads(proc.stdout.strip().splitlines()[-1])
    assert env["ok"] is False and env["error"]["code"] == "invalid_input"
    msg = env["error"]["message"]
    assert msg.startswith(f"{md}: line ") and "<!-- mem:end -->" in msg  # the error as it was
    assert env["warnings"] == ["MEMORY.md was not written; the other phases ran and are kept: episodes, cascade, links, "
                               "cluster, summarize, contradict, decay, rank (see data.phases)"]
    assert list(env["data"]["phases"]) == ["episodes", "cascade", "links", "cluster", "summarize", "contradict",
                                           "decay", "rank", "write"]
    assert env["data"]["phases"]["write"]["failed"] == msg
    assert env["data"]["phases"]["write"]["changed"] is False
    assert md.read_text(encoding="utf-8") == broken  # untouched

    # a person at a terminal: the report, then the error line; the same exit
    proc = _run(db, "consolidate", "--memory-md", str(md), json_mode=False)
    assert proc.returncode == 1
    assert "consolidated:" in proc.stdout and "decay" in proc.stdout
    assert proc.stderr.strip().splitlines()[-2:] == [f"warning: {env['warnings'][0]}", f"error: {msg}"]
