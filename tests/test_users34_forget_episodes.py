"""users34 finding 1, through real subprocesses of ``mem.py`` (hash embedder): a forgotten chat turn's words
stayed readable in the episode the import built from its stretch of chat.

A person imports a chat with Ana and Ben and forgets Ana's turns (privacy). The episodes (one memory per stretch
of conversation, their text the turns' text) stayed active: a keyword recall answered "Ana Souza: I'm allergic to
shellfish …", ``--context`` on another turn carried it as the episode's summary, ``list`` and ``export`` listed it.
Now an episode holding a forgotten turn is forgotten with it (soft, as the turn), and restoring the turn brings the
episode back once none of its turns is forgotten; an episode the user forgot on purpose stays forgotten.
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


def _imported(tmp_path: Path) -> tuple[Path, dict[str, int], dict[int, list[int]]]:
    """The chat imported: its turns by first words, and each episode's member ids."""
    chat = tmp_path / "WhatsApp Chat with Ana.txt"
    chat.write_text(CHAT, encoding="utf-8")
    db = tmp_path / "m.db"
    code, out = _run(db, "import", str(chat))
    assert code == 0 and out["data"]["memories_added"] == 8 and out["data"]["episodes"] == 2, out
    with sqlite3.connect(db) as conn:
        turns = {str(c): int(i) for i, c in conn.execute(
            "SELECT id, content FROM memories WHERE json_extract(metadata, '$.kind') IS NOT 'episode'")}
        episodes: dict[int, list[int]] = {}
        for src, dst in conn.execute("SELECT source_id, target_id FROM associations WHERE edge_type = 'part_of' "
                                     "ORDER BY source_id"):
            episodes.setdefault(int(dst), []).append(int(src))
    return db, turns, episodes


def _ana(turns: dict[str, int]) -> list[int]:
    return sorted(i for c, i in turns.items() if c.startswith("Ana Souza:"))


def _status(db: Path, mid: int) -> str:
    with sqlite3.connect(db) as conn:
        return str(conn.execute("SELECT status FROM memories WHERE id = ?", (mid,)).fetchone()[0])


def test_forgetting_a_persons_turns_hides_their_words_everywhere(tmp_path: Path) -> None:
    db, turns, episodes = _imported(tmp_path)
    assert len(episodes) == 2 and all(len(m) >= 2 for m in episodes.values())
    forgot: dict[int, Any] = {}
    for mid in _ana(turns):
        code, out = _run(db, "forget", str(mid))
        assert code == 0, out
        forgot[mid] = out["data"]
    # each episode is forgotten with the first of Ana's turns it holds, and said so
    said = sorted(e for d in forgot.values() for e in d.get("episodes_forgotten", []))
    assert said == sorted(episodes)
    assert all(_status(db, e) == "deleted" for e in episodes)
    for words in ("shellfish", "0612", "sauna", "Leila"):
        code, got = _run(db, "recall", words, "--strategy", "keyword")
        assert code == 0 and got["data"]["count"] == 0, (words, got["data"]["results"])
    code, got = _run(db, "recall", "tacos", "--context", "-k", "1")
    assert code == 0 and got["data"]["results"][0]["content"] == "Me: Noted, we'll do tacos"
    assert got["data"]["results"][0]["context"]["episode"] is None
    code, listed = _run(db, "list", "-n", "100")
    assert code == 0 and not [m for m in listed["data"]["memories"] if "Ana Souza" in m["content"]]
    proc = run_cli_subprocess("--db", str(db), "export", env=HASH)
    assert proc.returncode == 0 and proc.stdout.count("\n") == 4 and "Ana Souza" not in proc.stdout


def test_restoring_the_turns_brings_their_episode_back_but_not_one_forgotten_on_purpose(tmp_path: Path) -> None:
    db, turns, episodes = _imported(tmp_path)
    shellfish = turns["Ana Souza: I'm allergic to shellfish so no paella night please"]
    morning = turns["Ana Souza: Morning! Did you book the cabin for the lake trip?"]
    phone = turns["Ana Souza: My new phone number is 0612 448 201 btw"]
    late = next(e for e, m in episodes.items() if shellfish in m)
    early = next(e for e, m in episodes.items() if morning in m)
    assert _run(db, "forget", str(morning))[1]["data"]["episodes_forgotten"] == [early]
    assert "episodes_forgotten" not in _run(db, "forget", str(phone))[1]["data"]  # already forgotten with #morning
    assert _run(db, "restore", str(morning))[0] == 0
    assert _status(db, early) == "deleted"  # the phone number's turn is still forgotten: its words stay hidden
    assert _run(db, "restore", str(phone))[0] == 0
    assert _status(db, early) == "active"
    code, listed = _run(db, "list", "-n", "100")
    assert code == 0 and early in {m["id"] for m in listed["data"]["memories"]}
    # an episode the user forgot itself is theirs to restore: restoring a turn of it does not
    assert "episodes_forgotten" not in _run(db, "forget", str(late))[1]["data"]
    assert _run(db, "forget", str(shellfish))[1]["data"].get("episodes_forgotten") in (None, [])
    assert _run(db, "restore", str(shellfish))[0] == 0
    assert _status(db, late) == "deleted" and _status(db, shellfish) == "active"


def test_consolidate_forgets_the_episodes_of_turns_forgotten_before(tmp_path: Path) -> None:
    """A store whose turns were forgotten by an older mem (the turn's status set, its episode left readable): the
    night's consolidate forgets the episodes holding them, as forget does now; the others stay."""
    db, turns, episodes = _imported(tmp_path)
    shellfish = turns["Ana Souza: I'm allergic to shellfish so no paella night please"]
    late = next(e for e, m in episodes.items() if shellfish in m)
    with sqlite3.connect(db) as conn:  # what `forget` did before: the turn alone
        conn.execute("UPDATE memories SET status = 'deleted' WHERE id = ?", (shellfish,))
    code, got = _run(db, "recall", "shellfish", "--strategy", "keyword")
    assert code == 0 and [r["id"] for r in got["data"]["results"]] == [late]
    code, out = _run(db, "consolidate")
    assert code == 0 and out["data"]["phases"]["episodes"]["episodes_forgotten"] == 1, out["data"]["phases"]
    assert _status(db, late) == "deleted" and all(_status(db, e) == "active" for e in episodes if e != late)
    code, got = _run(db, "recall", "shellfish", "--strategy", "keyword")
    assert code == 0 and got["data"]["count"] == 0
    assert _run(db, "restore", str(shellfish))[0] == 0
    assert _status(db, late) == "active"
    code, out = _run(db, "consolidate")
    assert code == 0 and "episodes_forgotten" not in out["data"]["phases"]["episodes"]
