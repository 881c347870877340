"""serve22: a cold store or recall with the real model imports no ``hashlib`` (it loads OpenSSL: ~3 ms of CPU);
its digests come from memengine/digests.py, the same hex strings as hashlib's. A cold fact store imports no
``logging`` (fact_slot's one warning imports it when said)."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from memengine.digests import sha1_hex, sha256_hex
from memengine.text import content_hash

REPO = Path(__file__).resolve().parent.parent


def test_digests_are_hashlibs() -> None:
    for data in (b"", b"a", "Ana moved to Lisbon \u00e9\u00df".encode(), bytes(range(256)) * 300):
        assert sha1_hex(data) == hashlib.sha1(data).hexdigest()
        assert sha256_hex(data) == hashlib.sha256(data).hexdigest()
    assert content_hash("  Ana   moved\nto Lisbon ") == hashlib.sha256(b"Ana moved to Lisbon").hexdigest()


@pytest.fixture(scope="module")
def cold(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A home whose model cache the first cold call fills (the real model, not the tests' hash embedder)."""
    home = tmp_path_factory.mktemp("serve22-cold")
    env = {k: v for k, v in os.environ.items() if k not in ("MEM_EMBEDDER", "MEM_DB")}
    env.update(MEM_NO_SERVER="1", XDG_CACHE_HOME=str(home / "cache"), XDG_DATA_HOME=str(home / "data"))
    db = home / "m.db"
    proc = subprocess.run([sys.executable, str(REPO / "mem.py"), "--db", str(db), "--json", "store",
                           "the gateway restarts nightly at 2am", "--type", "semantic"],
                          capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    return db, env


def _modules_after(args: list[str], db: Path, env: dict[str, str], tmp_path: Path) -> set[str]:
    out = tmp_path / "modules.json"
    code = ("import atexit, json, runpy, sys\n"
            f"atexit.register(lambda: open({str(out)!r}, 'w').write(json.dumps(sorted(sys.modules))))\n"
            f"sys.path.insert(0, {str(REPO)!r})\n"
            f"sys.argv = [{str(REPO / 'mem.py')!r}, '--db', {str(db)!r}, '--json', *sys.argv[1:]]\n"
            "runpy.run_path(sys.argv[0], run_name='__main__')\n")
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert json.loads(proc.stdout)["ok"] is True
    return set(json.loads(out.read_text()))


@pytest.mark.parametrize("args", [
    ["store", "the staging API moved to https://stg.acme.io/v3", "--type", "semantic"],  # supersession weighs it
    ["store", "ok, 9:30 works for me", "--type", "episodic", "--author", "Oscar", "--thread", "team"],
    ["recall", "when does the gateway restart?"],
])
def test_cold_store_and_recall_import_no_hashlib(args: list[str], cold: tuple[Path, dict[str, str]],
                                                 tmp_path: Path) -> None:
    db, env = cold
    copy = tmp_path / "copy.db"
    copy.write_bytes(db.read_bytes())
    mods = _modules_after(args, copy, env, tmp_path)
    assert "onnxruntime" in mods and "memengine.wordpiece" in mods  # (the real model ran: its files were keyed)
    assert sorted(m for m in mods if m in ("hashlib", "_hashlib")) == []
    if args[1:] and args[-1] == "semantic":  # (a fact store weighs supersession; fact_slot's warning is rare)
        assert "memengine.fact_slot" in mods and "logging" not in mods
    if args[0] == "store":
        with sqlite3.connect(copy) as conn:
            content, digest = conn.execute("SELECT content, content_hash FROM memories ORDER BY id DESC").fetchone()
        assert digest == hashlib.sha256(content.encode()).hexdigest()
