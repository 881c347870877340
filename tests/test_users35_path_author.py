"""users34 findings 4 and 7 (users35 #2, #3), through real subprocesses of ``mem.py`` (hash embedder).

* ``path`` with a relative ``--db`` said ``{"path": "s.db"}``: relative to wherever the command ran. Now absolute.
* No ``--author`` on ``recall`` and ``list``: "what did Ana say about the cabin?", or everything one person wrote
  (to forget it), needed ``export | jq``. Now ``--author NAME`` (repeatable) filters as ``--source`` does; a first
  name finds the full name an import wrote ("Ana" → "Ana Souza"), never another name that starts alike.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from conftest import run_cli_subprocess

HASH = {"MEM_EMBEDDER": "hash"}

CHAT = """12/03/2023, 09:14 - Ana Souza: Morning! Did you book the cabin for the lake trip?
12/03/2023, 09:16 - Me: Not yet, the cabin site was down
12/03/2023, 09:20 - Ana Souza: My sister Leila says the Pinewood cabin has a sauna
12/03/2023, 09:30 - Anabel Ruiz: The cabin by the lake is mine, you know
12/03/2023, 10:02 - Ben Okafor: I can drive to the cabin, my van fits six
13/03/2023, 18:40 - Ana Souza: I'm allergic to shellfish so no paella night please
"""


def _run(db: str | Path, *args: str, cwd: Path | None = None) -> tuple[int, dict[str, Any]]:
    proc = run_cli_subprocess("--db", str(db), "--json", *args, env=HASH, cwd=cwd)
    return proc.returncode, json.loads(proc.stdout.strip().splitlines()[-1])


def test_path_is_absolute_for_a_relative_db(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    code, out = _run("sub/s.db", "path", cwd=tmp_path)
    assert code == 0 and out["data"]["path"] == os.path.join(str(tmp_path), "sub", "s.db")
    code, out = _run("s.db", "store", "a note here", cwd=tmp_path / "sub")
    assert code == 0
    code, out = _run("s.db", "path", cwd=tmp_path / "sub")
    assert Path(out["data"]["path"]).is_file()


def _chat(tmp_path: Path) -> Path:
    chat = tmp_path / "WhatsApp Chat with Ana.txt"
    chat.write_text(CHAT, encoding="utf-8")
    db = tmp_path / "m.db"
    code, out = _run(db, "import", str(chat))
    assert code == 0 and out["data"]["memories_added"] == 6, out
    return db


def test_recall_by_author_first_name_and_full_name(tmp_path: Path) -> None:
    db = _chat(tmp_path)
    for who in ("Ana", "ana", "Ana Souza", "ANA SOUZA"):
        code, got = _run(db, "recall", "cabin", "--author", who, "-k", "10")
        assert code == 0, got
        assert sorted(r["author"] for r in got["data"]["results"]) == ["Ana Souza"] * 3, (who, got["data"]["results"])
        assert "warnings" not in got
    code, got = _run(db, "recall", "cabin", "--author", "Ana", "--author", "Ben", "--strategy", "activation")
    assert code == 0 and {r["author"] for r in got["data"]["results"]} == {"Ana Souza", "Ben Okafor"}
    code, got = _run(db, "recall", "cabin", "--author", "Souza")  # a surname alone is not a first name
    assert code == 0 and got["data"]["count"] == 0


def test_list_by_author_and_an_unknown_name_is_said(tmp_path: Path) -> None:
    db = _chat(tmp_path)
    code, got = _run(db, "list", "--author", "Ana", "-n", "100")
    assert code == 0 and got["data"]["total"] == 3
    assert all(m["author"] == "Ana Souza" for m in got["data"]["memories"])
    code, got = _run(db, "list", "--author", "Anabel")
    assert code == 0 and [m["author"] for m in got["data"]["memories"]] == ["Anabel Ruiz"]
    code, got = _run(db, "list", "--author", "Anna")
    assert code == 0 and got["data"]["total"] == 0
    assert got["warnings"] == ["--author 'Anna': no memory here was written by 'Anna' (authors come from imported "
                               "chats and mail, and from `store --author`)"]
    code, got = _run(db, "recall", "cabin", "--author", "Anna")
    assert code == 0 and got["data"]["count"] == 0 and len(got["warnings"]) == 1
    code, got = _run(db, "list", "--author", "%")  # LIKE's wildcards are letters here
    assert code == 0 and got["data"]["total"] == 0
