"""users34 finding 11 (users35 #1), through real subprocesses of ``mem.py`` (hash embedder): a store of imported chats
moved by ``export`` and ``import jsonl`` lost its episode ↔ turn links (``part_of``) until the next consolidate.

Until then recall answered with the whole episode (a block of five messages) instead of the message, ``--context`` had
no episode, and a turn forgotten on the new machine left its episode — its words — standing. The export now carries each
turn's episode as a link (``{"to": origin, "type": "part_of"}``); an export written before still imports.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from conftest import run_cli_subprocess

HASH = {"MEM_EMBEDDER": "hash"}

CHAT = """12/03/2023, 09:14 - Ana Souza: Morning! Did you book the cabin for the lake trip?
12/03/2023, 09:16 - Me: Not yet, the cabin site was down
12/03/2023, 09:20 - Ana Souza: My sister Leila says the Pinewood cabin has a sauna
12/03/2023, 09:21 - Ana Souza: My new phone number is 0612 448 201 btw
12/03/2023, 10:02 - Ben Okafor: I can drive, my van fits six
13/03/2023, 18:40 - Ana Souza: I'm allergic to shellfish so no paella night please
13/03/2023, 18:45 - Me: Noted, we'll do tacos
14/03/2023, 08:00 - Ben Okafor: Booked Pinewood for 21-23 April
"""


def _run(db: Path, *args: str) -> tuple[int, dict[str, Any]]:
    proc = run_cli_subprocess("--db", str(db), "--json", *args, env=HASH)
    return proc.returncode, json.loads(proc.stdout.strip().splitlines()[-1])


def _episodes(db: Path) -> dict[str, list[str]]:
    """Each episode's text -> its turns' texts (by the part_of edges)."""
    with sqlite3.connect(db) as conn:
        out: dict[str, list[str]] = {}
        for turn, episode in conn.execute(
                "SELECT t.content, e.content FROM associations a JOIN memories t ON t.id = a.source_id "
                "JOIN memories e ON e.id = a.target_id WHERE a.edge_type = 'part_of' ORDER BY t.id"):
            out.setdefault(str(episode), []).append(str(turn))
    return out


def _moved(tmp_path: Path) -> tuple[Path, Path, Path]:
    chat = tmp_path / "WhatsApp Chat with Ana.txt"
    chat.write_text(CHAT, encoding="utf-8")
    laptop, desktop = tmp_path / "laptop.db", tmp_path / "desktop.db"
    code, out = _run(laptop, "import", str(chat))
    assert code == 0 and out["data"]["episodes"] == 2, out
    proc = run_cli_subprocess("--db", str(laptop), "export", env=HASH)
    assert proc.returncode == 0, proc.stderr
    dump = tmp_path / "all.jsonl"
    dump.write_text(proc.stdout, encoding="utf-8")
    code, out = _run(desktop, "import", "jsonl", str(dump))
    assert code == 0 and out["data"]["memories_added"] == 10, out
    return laptop, desktop, dump


def test_episode_links_travel_with_the_export(tmp_path: Path) -> None:
    laptop, desktop, dump = _moved(tmp_path)
    lines = [json.loads(x) for x in dump.read_text(encoding="utf-8").splitlines()]
    turn = next(x for x in lines if x["content"].startswith("Ana Souza: Morning!"))
    episode = next(x for x in lines if x["metadata"].get("kind") == "episode" and "Morning!" in x["content"])
    assert turn["links"] == [{"to": episode["origin"], "type": "part_of", "weight": 1.0}]
    before = _episodes(laptop)
    assert len(before) == 2 and sorted(len(t) for t in before.values()) == [2, 5]
    assert _episodes(desktop) == before
    # recall answers with the message, as on the laptop, not with its five-message episode
    for db in (laptop, desktop):
        code, got = _run(db, "recall", "did they book the cabin with a sauna", "-k", "2")
        assert code == 0
        assert [r["content"] for r in got["data"]["results"]] == [
            "Ana Souza: Morning! Did you book the cabin for the lake trip?",
            "Ana Souza: My sister Leila says the Pinewood cabin has a sauna"], (db.name, got["data"]["results"])
    code, got = _run(desktop, "recall", "tacos", "--context", "-k", "1")
    assert code == 0 and got["data"]["results"][0]["context"]["episode"]["id"] > 0


def test_a_turn_forgotten_after_the_move_takes_its_episode_along(tmp_path: Path) -> None:
    _, desktop, _ = _moved(tmp_path)
    with sqlite3.connect(desktop) as conn:
        mid = int(conn.execute("SELECT id FROM memories WHERE content LIKE 'Ana Souza: I''m allergic%'").fetchone()[0])
    code, out = _run(desktop, "forget", str(mid))
    assert code == 0 and len(out["data"]["episodes_forgotten"]) == 1, out
    code, got = _run(desktop, "recall", "shellfish", "--strategy", "keyword")
    assert code == 0 and got["data"]["count"] == 0, got["data"]["results"]


def test_importing_the_same_export_twice_adds_no_second_link(tmp_path: Path) -> None:
    _, desktop, dump = _moved(tmp_path)
    code, out = _run(desktop, "import", "jsonl", str(dump))
    assert code == 0 and out["data"]["memories_added"] == 0, out
    with sqlite3.connect(desktop) as conn:
        assert conn.execute("SELECT count(*) FROM associations WHERE edge_type = 'part_of'").fetchone()[0] == 7


def test_an_export_written_before_still_imports(tmp_path: Path) -> None:
    _, _, dump = _moved(tmp_path)
    old = tmp_path / "old.jsonl"
    rows = [json.loads(x) for x in dump.read_text(encoding="utf-8").splitlines()]
    for row in rows:
        row.pop("links", None)
    old.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    fresh = tmp_path / "fresh.db"
    code, out = _run(fresh, "import", "jsonl", str(old))
    assert code == 0 and out["data"]["memories_added"] == 10, out
    assert _episodes(fresh) == {}
