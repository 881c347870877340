"""users36 sweep #4, #5, #6 through real subprocesses of ``mem.py`` and the MCP SDK's stdio client.

#4 a 2,400-word note stored as one memory: the model reads its first 254 word pieces, keyword recall all of it; the
   store's reply now says so (real MiniLM: the hash embedder reads every word and says nothing).
#5 a user with two stores mistypes MEM_DB: the read makes a new empty store, and ``recall`` answered ``count: 0``
   and nothing else; it now names the file and says it is empty.
#6 an MCP id below 1 was passed to the CLI as "-1" ("No such option '-1'."): the tools now refuse it themselves.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli_subprocess

WINDOW = ("word pieces long: recall by meaning reads only its first 254 (keyword recall reads all of it), so a fact "
          "past them is found by its words only — store each fact as its own memory")


def _run(db: Path, *args: str, stdin: str | None = None, env: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    proc = run_cli_subprocess("--db", str(db), "--json", *args, env=env if env is not None else {"MEM_EMBEDDER": "hash"},
                              input=stdin)
    return proc.returncode, json.loads(proc.stdout.strip().splitlines()[-1])


def _long_note() -> str:
    rng = random.Random(1)
    words = "the meeting covered budget planning quarterly review roadmap hiring office move vendor contracts".split()
    paras = [" ".join(rng.choice(words) for _ in range(40)) + "." for _ in range(60)]
    return "\n\n".join([*paras, "The backup server's password hint is the name of Ana's first cat."])


def test_a_note_past_the_models_window_says_so(tmp_path: Path) -> None:
    real = {"MEM_EMBEDDER": ""}  # (empty = unset: the real model)
    db = tmp_path / "m.db"
    code, out = _run(db, "store", "-", "--source", "agent", stdin=_long_note(), env=real)
    assert code == 0, out
    assert len(out["warnings"]) == 1
    head, _, rest = out["warnings"][0].partition(" word pieces long")
    assert head.startswith("this memory is ") and int(head.split()[-1].replace(",", "")) > 2000
    assert "word pieces long" + rest == WINDOW
    code, out = _run(db, "store", _long_note()[:600], env=real)  # ~130 word pieces: within the window
    assert code == 0 and "warnings" not in out, out
    code, out = _run(db, "store", "-", stdin=_long_note(), env=real)  # the same note again: nothing new to say
    assert code == 0 and out["data"]["deduplicated"] is True and "warnings" not in out
    # the hash embedder reads every word: no warning
    code, out = _run(tmp_path / "h.db", "store", "-", stdin=_long_note())
    assert code == 0 and "warnings" not in out


def test_recall_on_an_empty_store_names_the_file(tmp_path: Path) -> None:
    work = tmp_path / "work.db"
    assert _run(work, "store", "The Falcon launch is on 12 May")[0] == 0
    typo = tmp_path / "wrok.db"
    code, out = _run(typo, "recall", "Falcon launch")
    assert code == 0 and out["data"]["count"] == 0
    assert out["warnings"] == [f"{typo}: no memories in this store yet (another store? --db or MEM_DB names the "
                               "file; mem.py store or mem.py import fills it)"]
    code, out = _run(work, "recall", "zzzqqq", "--strategy", "keyword")  # a store with memories: an empty answer only
    assert code == 0 and out["data"]["count"] == 0 and "warnings" not in out
    code, out = _run(work, "recall", "Falcon launch")
    assert code == 0 and out["data"]["count"] == 1 and "warnings" not in out


def test_mcp_ids_below_one_are_refused_by_the_tools(tmp_path: Path, runtime_dir: Path) -> None:
    pytest.importorskip("mcp")
    from test_mcp import _error, _session

    db = tmp_path / "m.db"
    assert _run(db, "store", "Oscar prefers morning meetings")[0] == 0

    async def steps(c: Any) -> list[dict[str, Any]]:
        return [_error(await c.call_tool(name, args)) for name, args in (
            ("forget", {"id": -1}), ("get", {"id": 0}), ("restore", {"id": -5}), ("pin", {"id": -1}),
            ("link", {"source_id": 1, "target_id": -2}))]

    for err in _session(db, runtime_dir, steps):
        assert err["code"] == "usage" and "greater than or equal to 1" in err["message"], err
        assert "No such option" not in err["message"]
