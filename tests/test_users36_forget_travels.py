"""users36 #2 (users35 #13): a forget made between two exports travels, and so does a restore; the later action wins.

A store moved twice: the laptop's first export imported on the desktop; then on the laptop the user forgets the door
code and one of Ana's chat turns (privacy) and exports again; the desktop imports it. Every line was already on the
desktop, so everything was passed over and the door code and her words stayed there. A fix that forgot the desktop's
copy from the line's status alone undid a restore made on the desktop whenever the same file was imported again
(users35, withdrawn). Now ``forget`` and ``restore`` write their time into the memory's metadata (``forgotten_at``,
``restored_at``), the export carries it, and of the two stores' actions the later wins; a file without the times (an
export written before) changes no memory already there. Real subprocesses of ``mem.py`` (hash embedder).
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
DOOR = "The office door code is 4471"
SHELLFISH = "Ana Souza: I'm allergic to shellfish so no paella night please"


def _run(db: Path, *args: str) -> tuple[int, dict[str, Any]]:
    proc = run_cli_subprocess("--db", str(db), "--json", *args, env=HASH)
    return proc.returncode, json.loads(proc.stdout.strip().splitlines()[-1])


def _export(db: Path, to: Path) -> Path:
    proc = run_cli_subprocess("--db", str(db), "export", "--include-deleted", env=HASH)
    assert proc.returncode == 0, proc.stderr
    to.write_text(proc.stdout, encoding="utf-8")
    return to


def _status(db: Path) -> dict[str, str]:
    with sqlite3.connect(db) as c:
        return {str(t): str(s) for t, s in c.execute("SELECT content, status FROM memories")}


def _id(db: Path, text: str) -> int:
    with sqlite3.connect(db) as c:
        return int(c.execute("SELECT id FROM memories WHERE content = ?", (text,)).fetchone()[0])


def _episode_with(status: dict[str, str], words: str) -> str:
    return next(s for t, s in status.items() if words in t and t.count("\n") >= 1)


def _setup(tmp_path: Path) -> tuple[Path, Path]:
    chat = tmp_path / "WhatsApp Chat with Ana.txt"
    chat.write_text(CHAT, encoding="utf-8")
    laptop, desktop = tmp_path / "laptop.db", tmp_path / "desktop.db"
    assert _run(laptop, "import", str(chat))[0] == 0
    assert _run(laptop, "store", DOOR)[0] == 0
    assert _run(laptop, "store", "The standup moved to 10:00")[0] == 0
    code, out = _run(desktop, "import", "jsonl", str(_export(laptop, tmp_path / "first.jsonl")))
    assert code == 0 and out["data"]["memories_added"] == 9, out
    return laptop, desktop


def test_a_forget_travels_and_a_later_restore_is_kept(tmp_path: Path) -> None:
    laptop, desktop = _setup(tmp_path)
    code, out = _run(laptop, "forget", str(_id(laptop, DOOR)))
    assert code == 0
    code, out = _run(laptop, "forget", str(_id(laptop, SHELLFISH)))
    assert code == 0 and len(out["data"]["episodes_forgotten"]) == 1
    second = _export(laptop, tmp_path / "second.jsonl")

    code, out = _run(desktop, "import", "jsonl", str(second))
    assert code == 0 and out["data"]["memories_added"] == 0, out
    door, turn = _id(desktop, DOOR), _id(desktop, SHELLFISH)
    assert out["data"]["warnings"] == ["forgotten here as the export says (forgotten there later than any restore "
                                       f"here): #{min(door, turn)} #{max(door, turn)}"]
    status = _status(desktop)
    assert status[DOOR] == "deleted" and status[SHELLFISH] == "deleted"
    assert _episode_with(status, "shellfish") == "deleted"  # her words in the episode go with the turn, as on the laptop
    assert status["The standup moved to 10:00"] == "active"
    code, got = _run(desktop, "recall", "4471", "--strategy", "keyword")
    assert code == 0 and got["data"]["results"] == []

    # the desktop restores the door code after: importing the same file again keeps the restore (the later action)
    time.sleep(1.1)  # (times are kept to the second; a tie keeps this store's own action)
    assert _run(desktop, "restore", str(door))[0] == 0
    before = _status(desktop)
    code, out = _run(desktop, "import", "jsonl", str(second))
    assert code == 0 and out["data"]["warnings"] == [], out
    assert _status(desktop) == before and before[DOOR] == "active"

    # the laptop restores her turn later still: that travels too, her episode back with it
    time.sleep(1.1)
    code, out = _run(laptop, "restore", str(_id(laptop, SHELLFISH)))
    assert code == 0 and len(out["data"]["episodes_restored"]) == 1
    code, out = _run(desktop, "import", "jsonl", str(_export(laptop, tmp_path / "third.jsonl")))
    assert code == 0 and out["data"]["warnings"] == [
        f"restored here as the export says (restored there later than the forget here): #{turn}"], out
    status = _status(desktop)
    assert status[SHELLFISH] == "active" and _episode_with(status, "shellfish") == "active"
    assert status[DOOR] == "active"  # the laptop's forget is older than the desktop's restore


def test_a_forget_here_is_not_undone_by_an_export_that_never_restored(tmp_path: Path) -> None:
    laptop, desktop = _setup(tmp_path)
    assert _run(desktop, "forget", str(_id(desktop, DOOR)))[0] == 0
    code, out = _run(desktop, "import", "jsonl", str(_export(laptop, tmp_path / "again.jsonl")))
    assert code == 0 and out["data"]["warnings"] == [], out
    assert _status(desktop)[DOOR] == "deleted"


def test_an_export_without_the_times_imports_as_before(tmp_path: Path) -> None:
    laptop, desktop = _setup(tmp_path)
    assert _run(laptop, "forget", str(_id(laptop, DOOR)))[0] == 0
    second = _export(laptop, tmp_path / "second.jsonl")
    lines = [json.loads(x) for x in second.read_text(encoding="utf-8").splitlines()]
    for line in lines:  # as an export written before forgets carried their time
        line["metadata"].pop("forgotten_at", None)
    old = tmp_path / "old.jsonl"
    old.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    code, out = _run(desktop, "import", "jsonl", str(old))
    assert code == 0 and out["data"]["memories_added"] == 0 and out["data"]["warnings"] == [], out
    assert _status(desktop)[DOOR] == "active"
    # and a fresh store takes the line as it is: forgotten
    code, out = _run(tmp_path / "fresh.db", "import", "jsonl", str(old))
    assert code == 0 and _status(tmp_path / "fresh.db")[DOOR] == "deleted"
