"""users27 findings 3 and 4: a memory stored in degraded mode (the model missing or damaged: a loud warning, exit 0)
was later found by keywords only with no word said: recall with the model back gave no warning, only `doctor`
listed it. Now every recall with vectors says how many memories lack one and to run `reindex --missing`, until it
has. Real subprocesses on a real file; ``MEM_EMBEDDER=none`` stands for the model that cannot load."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli_subprocess

HASH, NONE = {"MEM_EMBEDDER": "hash"}, {"MEM_EMBEDDER": "none"}


def _env(*args: str, env: dict[str, str]) -> dict:
    proc = run_cli_subprocess(*args, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout)


def test_recall_says_how_many_were_stored_without_a_vector_until_reindex(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    _env("--db", db, "store", "Oscar prefers the window seat", env=HASH)
    bare = _env("--db", db, "store", "Lena's birthday is on 4 May", env=NONE)
    assert bare["data"]["degraded"] == "no-vectors" and bare["warnings"]
    got = _env("--db", db, "recall", "when is Lena's birthday?", env=HASH)
    assert got["data"]["results"][0]["content"] == "Lena's birthday is on 4 May"
    assert got["warnings"] == [f"{db}: 1 of 2 memories have no vector (stored in degraded mode, without the "
                               "embedding model) and are found by keywords only; run `mem.py reindex --missing`"]
    assert _env("--db", db, "reindex", "--missing", env=HASH)["data"]["embedded"] == 1
    after = _env("--db", db, "recall", "when is Lena's birthday?", env=HASH)
    assert after["data"]["results"][0]["content"] == "Lena's birthday is on 4 May"
    assert not after.get("warnings")


def test_doctor_fix_also_ends_the_warning_and_a_keyword_only_store_never_warns(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    _env("--db", db, "store", "the boiler was serviced in March", env=NONE)
    again = _env("--db", db, "recall", "boiler", env=NONE)  # keyword-only on purpose: no vectors asked for
    assert not any("have no vector" in w for w in again.get("warnings") or [])
    assert any("have no vector" in w for w in _env("--db", db, "recall", "boiler", env=HASH)["warnings"])
    proc = run_cli_subprocess("--db", db, "doctor", "--fix", env=HASH)
    assert proc.returncode == 0, proc.stdout
    assert not _env("--db", db, "recall", "boiler", env=HASH).get("warnings")
