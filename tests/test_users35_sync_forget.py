"""users35 sweep #13, real subprocesses of ``mem.py`` (hash embedder): a store moved twice by ``export
--include-deleted`` / ``import jsonl`` kept active on the second machine what the user had forgotten on the first in
between.

The laptop's store goes to the desktop once; the user then forgets Ana's door code and one of her chat turns on the
laptop (privacy: "delete what you have on Ana") and moves the store again. The second import passed over every
line already on the desktop, so the door code and her turn (and the episode holding her words) stayed there, active.
Now a line the newer export marks forgotten forgets the desktop's copy of that memory (soft, said in ``warnings``,
``restore`` undoes); a memory the desktop wrote itself is never touched, and an older export decides nothing.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

from conftest import run_cli_subprocess

HASH = {"MEM_EMBEDDER": "hash"}

CHAT = """12/03/2023, 09:14 - Ana Souza: Morning! Did you book the cabin for the lake trip?
12/03/2023, 09:16 - Me: Not yet, the cabin site was down
12/03/2023, 09:20 - Ana Souza: My sister Leila says the Pinewood cabin has a sauna
13/03/2023, 18:40 - Ana Souza: I'm allergic to shellfish so no paella night please
13/03/2023, 18:45 - Me: Noted, we'll do tacos
"""


def _run(db: Path, *args: str) -> tuple[int, dict[str, Any]]:
    proc = run_cli_subprocess("--db", str(db), "--json", *args, env=HASH)
    return proc.returncode, json.loads(proc.stdout.strip().splitlines()[-1])


def _export(db: Path, out: Path, *flags: str) -> Path:
    proc = run_cli_subprocess("--db", str(db), "export", *flags, env=HASH)
    assert proc.returncode == 0, proc.stderr
    out.write_text(proc.stdout, encoding="utf-8")
    return out


def _id(db: Path, like: str) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT id FROM memories WHERE content LIKE ? AND json_extract(metadata, '$.kind') "
                                "IS NOT 'episode'", (like,)).fetchone()[0])


def _found(db: Path, words: str) -> list[str]:
    code, got = _run(db, "recall", words, "--strategy", "keyword")
    assert code == 0
    return [r["content"] for r in got["data"]["results"]]


def test_what_was_forgotten_on_the_first_machine_is_forgotten_on_the_second(tmp_path: Path) -> None:
    chat = tmp_path / "WhatsApp Chat with Ana.txt"
    chat.write_text(CHAT, encoding="utf-8")
    laptop, desktop = tmp_path / "laptop.db", tmp_path / "desktop.db"
    assert _run(laptop, "import", str(chat))[0] == 0
    assert _run(laptop, "store", "Ana's door code is 4471")[0] == 0
    assert _run(desktop, "store", "The desktop's own note about the door code of the shed")[0] == 0
    code, out = _run(desktop, "import", "jsonl", str(_export(laptop, tmp_path / "first.jsonl")))
    assert code == 0 and out["data"]["warnings"] == []
    assert _found(desktop, "4471") == ["Ana's door code is 4471"]
    assert _run(laptop, "forget", str(_id(laptop, "Ana's door code%")))[0] == 0
    assert _run(laptop, "forget", str(_id(laptop, "Ana Souza: I'm allergic%")))[0] == 0
    second = _export(laptop, tmp_path / "second.jsonl", "--include-deleted")
    code, out = _run(desktop, "import", "jsonl", str(second))
    assert code == 0 and out["data"]["memories_added"] == 0
    assert out["data"]["warnings"] == [
        "2 memories imported before are forgotten in the store this was exported from: forgotten here too "
        "(`mem.py list --forgotten` lists them, `mem.py restore ID` undoes)"]  # the door code, her turn (its episode
    # goes with the turn, as forget does it)
    assert _found(desktop, "4471") == [] and _found(desktop, "shellfish") == []
    assert _found(desktop, "shed") == ["The desktop's own note about the door code of the shed"]
    # again: nothing more to do; the older export brings nothing back
    for dump in (second, tmp_path / "first.jsonl"):
        code, out = _run(desktop, "import", "jsonl", str(dump))
        assert code == 0 and out["data"]["warnings"] == [] and out["data"]["memories_added"] == 0
    assert _found(desktop, "4471") == []
    # restore undoes it on the desktop
    assert _run(desktop, "restore", str(_id(desktop, "Ana's door code%")))[0] == 0
    assert _found(desktop, "4471") == ["Ana's door code is 4471"]


def test_the_desktops_own_copy_of_the_same_chat_is_not_touched(tmp_path: Path) -> None:
    chat = tmp_path / "WhatsApp Chat with Ana.txt"
    chat.write_text(CHAT, encoding="utf-8")
    laptop, desktop = tmp_path / "laptop.db", tmp_path / "desktop.db"
    assert _run(desktop, "import", str(chat))[0] == 0  # the desktop read the same chat itself
    time.sleep(1.1)  # (a second later: its own rows' time of storing differs from the laptop's)
    assert _run(laptop, "import", str(chat))[0] == 0
    assert _run(laptop, "forget", str(_id(laptop, "Ana Souza: I'm allergic%")))[0] == 0
    code, out = _run(desktop, "import", "jsonl", str(_export(laptop, tmp_path / "all.jsonl", "--include-deleted")))
    assert code == 0 and out["data"]["warnings"] == []
    assert _found(desktop, "shellfish")[0] == "Ana Souza: I'm allergic to shellfish so no paella night please"
